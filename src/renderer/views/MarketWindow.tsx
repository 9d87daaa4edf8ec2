// A market in its own window (?view=market&market=ID).
import { useCallback, useState } from 'react'
import { AlertsLayer } from '../components/AlertsLayer'
import { KeySettings } from '../components/KeySettings'
import { MarketPane } from '../components/MarketPane'
import { StatusBar } from '../components/StatusBar'
import { findMarket } from '../lib/events'
import { useEventsListing } from '../store/events'
import { useApi } from '../hooks/context'
import { Header } from './Header'
import { NewMarketWindowPalette } from './NewMarketWindow'

export function MarketWindow({ market }: { market: string }) {
  const listing = useEventsListing()
  const [keySettings, setKeySettings] = useState(false)
  const found = findMarket(listing.events, market)
  const api = useApi()
  // An alert about this window's market brings it to the front; another market opens its own window.
  const openMarket = useCallback(
    (m: string) => {
      if (m === market) window.focus()
      else void api.openWindow({ kind: 'market', market: m })
    },
    [api, market],
  )
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
      <AlertsLayer market={market} onOpenMarket={openMarket} />
    </div>
  )
}
