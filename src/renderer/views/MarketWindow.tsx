// A market in its own window (?view=market&market=ID).
import { useState } from 'react'
import { KeySettings } from '../components/KeySettings'
import { MarketPane } from '../components/MarketPane'
import { StatusBar } from '../components/StatusBar'
import { findMarket } from '../lib/events'
import { useEventsListing } from '../store/events'
import { Header } from './Header'
import { NewMarketWindowPalette } from './NewMarketWindow'

export function MarketWindow({ market }: { market: string }) {
  const listing = useEventsListing()
  const [keySettings, setKeySettings] = useState(false)
  const found = findMarket(listing.events, market)
  return (
    <div className="app market-view">
      <Header title={found ? `${found.event.title} › ${found.market.title}` : market}>
        <button className="btn ghost" onClick={() => setKeySettings(true)}>
          Key settings
        </button>
      </Header>
      <NewMarketWindowPalette events={listing.events} />
      <main className="single-grid">
        {listing.phase === 'ready' && !found ? (
          <div className="alert warn banner">
            This market is not in the current events listing; showing live data by id.
          </div>
        ) : null}
        <MarketPane market={market} owner="window-market" inWindow />
      </main>
      <StatusBar />
      {keySettings ? <KeySettings onClose={() => setKeySettings(false)} /> : null}
    </div>
  )
}
