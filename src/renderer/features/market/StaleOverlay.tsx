// The overlay a book gets when the badge rule (lib/freshness.ts) says to cover it: the engine cannot vouch for it
// (stale, resyncing), the connection is down, or the window lost its engine. The same on the ladder and the depth
// chart: what is wrong, that what is under it may be out of date, and a Resync button while it is stale.
import { useState } from 'react'
import { UNKNOWN_MARKET, type BookView } from '../../../shared/model'
import { useApi } from '../../hooks/context'
import { useFreshnessNoAge } from '../../hooks/freshness'
import { viewFreshness, type Freshness } from '../../lib/freshness'

interface StaleOverlayProps {
  book: BookView
  fresh: Freshness
  /** What is under the overlay, e.g. "Prices" or "Depth". */
  what: string
  /** Each host has its own ids, so a window showing both still has one match per id. */
  testIds: { overlay: string; resync: string }
}

/** The overlay while the rule says to cover the book; nothing otherwise (a new episode starts it afresh). */
export function StaleOverlay({
  book,
  ...rest
}: Omit<StaleOverlayProps, 'book' | 'fresh'> & { book: BookView | undefined }) {
  const fresh = useFreshnessNoAge(viewFreshness(book))
  if (!book || !fresh.cover) return null
  return fresh.state === 'lost' || fresh.state === 'offline' ? (
    <NotLiveCard fresh={fresh} what={rest.what} testId={rest.testIds.overlay} />
  ) : (
    <StaleCard book={book} fresh={fresh} {...rest} />
  )
}

/** The engine or the connection is gone: nothing to resync from here, the card only says so. */
function NotLiveCard({ fresh, what, testId }: { fresh: Freshness; what: string; testId: string }) {
  return (
    <div className="book-overlay" data-testid={testId} data-state={fresh.state}>
      <div className="overlay-card">
        <b>
          {fresh.state === 'lost'
            ? 'Not live: the engine is not answering'
            : 'Not live: the connection is down'}
        </b>
        <span className="muted" title={fresh.title}>
          {what} below may be out of date until {fresh.state === 'lost' ? 'it answers' : 'it is back'}.
        </span>
      </div>
    </div>
  )
}

function StaleCard({ book, fresh, what, testIds }: StaleOverlayProps) {
  const api = useApi()
  const [error, setError] = useState<string | null>(null)
  const resyncing = fresh.state === 'resyncing'
  // The engine stopped asking for a market the venue never answered (docs/liveness.md).
  const unknown = !resyncing && book.staleReason === UNKNOWN_MARKET
  return (
    <div className="book-overlay" data-testid={testIds.overlay} data-state={fresh.state}>
      <div className="overlay-card">
        <b>
          {resyncing
            ? book.resyncAttempt !== undefined
              ? `Resyncing (attempt ${book.resyncAttempt})…`
              : 'Resyncing book…'
            : unknown
              ? `The venue does not know this market (id ${book.market})`
              : 'Book is stale'}
        </b>
        <span className="muted">
          {resyncing
            ? `Waiting for a fresh snapshot. ${what} below may be out of date.`
            : unknown
              ? 'It sent nothing for it after repeated requests, so it is no longer asked for. Resync asks again.'
              : `${what} below may be out of date${book.staleReason ? ` (${book.staleReason})` : ''}.`}
        </span>
        {!resyncing ? (
          <button
            className="btn"
            data-testid={testIds.resync}
            onClick={() => {
              setError(null)
              void api.resync(book.market).then((r) => {
                if (!r.ok) setError(r.error.message)
              })
            }}
          >
            Resync
          </button>
        ) : null}
        {error ? <span className="error-text">{error}</span> : null}
      </div>
    </div>
  )
}
