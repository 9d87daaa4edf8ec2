// The events list with its loading and error states (no key, refused key, network).
import type { RefObject } from 'react'
import { EventList } from './EventList'
import { useCountdownNow } from '../../hooks/clock'
import { useApi } from '../../hooks/context'
import { explainError } from '../../lib/errors'
import { formatCountdown } from '../../lib/format'
import { useEventsListing } from '../../hooks/events'

export interface EventsColumnProps {
  selectedMarket: string | null
  onOpenMarket(market: string, newWindow: boolean): void
  onOpenEvent(event: string): void
  onOpenKeySettings(): void
  reveal: { event: string; n: number } | null
  searchRef: RefObject<HTMLInputElement | null>
  /** False while the pane is a tab behind another (EventList's `subscribe`). */
  subscribe?: boolean
}

/** The wait before the listing is read again by itself (a 429's Retry-After, or a passing fault's backoff). */
function RetryIn({ at }: { at: number }) {
  const now = useCountdownNow(at)
  return (
    <span className="muted" data-testid="events-retry-in" data-at={at}>
      Trying again in {formatCountdown(at - now)}
    </span>
  )
}

export function EventsColumn(props: EventsColumnProps) {
  const api = useApi()
  const listing = useEventsListing()
  if (listing.phase === 'ready')
    return (
      <EventList
        events={listing.events}
        selectedMarket={props.selectedMarket}
        onOpenMarket={props.onOpenMarket}
        onOpenEvent={props.onOpenEvent}
        reveal={props.reveal}
        searchRef={props.searchRef}
        subscribe={props.subscribe ?? true}
      />
    )
  if (listing.phase === 'error' && listing.error) {
    const ex = explainError(listing.error)
    const keyProblem =
      ['unauthorized', 'ip_not_allowed', 'no_key'].includes(listing.error.code) ||
      listing.error.code.startsWith('keyring')
    return (
      <div className="event-list-pane">
        <div className="state-block" data-testid="events-error" data-code={listing.error.code}>
          <b>Events could not be loaded</b>
          <span>{ex.title}</span>
          <ul className="muted">
            {ex.steps.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
          <div className="row-gap">
            <button className="btn" onClick={() => void listing.load(api, true)}>
              Retry
            </button>
            {keyProblem ? (
              <button className="btn primary" onClick={props.onOpenKeySettings}>
                Key settings…
              </button>
            ) : null}
            {listing.retryAt !== null ? <RetryIn at={listing.retryAt} /> : null}
          </div>
        </div>
      </div>
    )
  }
  return (
    <div className="event-list-pane">
      <div className="state-block" data-testid="events-loading">
        <span className="spinner" /> Loading events…
      </div>
      {Array.from({ length: 12 }, (_, i) => (
        <div key={i} className="skeleton-row" />
      ))}
    </div>
  )
}
