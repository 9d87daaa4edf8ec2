// An event's markets as a matrix in its own window (?view=event&event=ID).
import { useState } from 'react'
import { AlertsLayer } from '../features/alerts/AlertsLayer'
import { TradingLayer } from '../features/trading'
import { EventMatrix } from '../features/events/EventMatrix'
import { KeySettings } from '../features/settings/KeySettings'
import { ReplayBar } from '../features/recording/ReplayBar'
import { StatusBar } from '../features/status/StatusBar'
import { useEventsListing } from '../hooks/events'
import { Header } from './Header'
import { NewMarketWindowPalette } from './NewMarketWindow'

export function EventWindow({ event }: { event: string }) {
  const listing = useEventsListing()
  const [keySettings, setKeySettings] = useState(false)
  const found = listing.events.find((e) => e.id === event)
  let body
  if (found) body = <EventMatrix event={found} />
  else if (listing.phase === 'ready')
    body = (
      <div className="state-block center" data-testid="event-missing">
        <b>Event {event} is not in the listing</b>
        <span className="muted">It may have closed. The listing is refreshed automatically.</span>
      </div>
    )
  else if (listing.phase === 'error')
    body = (
      <div className="state-block center" data-testid="events-error">
        <b>Events could not be loaded</b>
        <span className="muted">{listing.error?.message}</span>
        <button className="btn primary" onClick={() => setKeySettings(true)}>
          Key settings…
        </button>
      </div>
    )
  else body = <div className="state-block center">Loading event…</div>
  return (
    <div className="app event-view">
      <Header title={found ? found.title : 'Event'}>
        <button className="btn ghost" onClick={() => setKeySettings(true)}>
          Key settings
        </button>
      </Header>
      <NewMarketWindowPalette events={listing.events} />
      <ReplayBar />
      <main className="single-grid">{body}</main>
      <StatusBar />
      {keySettings ? <KeySettings onClose={() => setKeySettings(false)} /> : null}
      <AlertsLayer market={null} />
      <TradingLayer />
    </div>
  )
}
