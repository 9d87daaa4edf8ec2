// The overlay a book the engine cannot vouch for gets (stale or resyncing), the same on the ladder and the depth
// chart: what is wrong, that what is under it may be out of date, and a Resync button while it is stale.
import { useState } from 'react'
import { UNKNOWN_MARKET, type BookView } from '../../../shared/model'
import { useApi } from '../../hooks/context'

interface StaleOverlayProps {
  book: BookView
  /** What is under the overlay, e.g. "Prices" or "Depth". */
  what: string
  /** Each host has its own ids, so a window showing both still has one match per id. */
  testIds: { overlay: string; resync: string }
}

/** The overlay while the book is stale or resyncing; nothing otherwise (a new episode starts it afresh). */
export function StaleOverlay({
  book,
  ...rest
}: Omit<StaleOverlayProps, 'book'> & { book: BookView | undefined }) {
  return book && (book.state === 'stale' || book.state === 'resyncing') ? (
    <StaleCard book={book} {...rest} />
  ) : null
}

function StaleCard({ book, what, testIds }: StaleOverlayProps) {
  const api = useApi()
  const [error, setError] = useState<string | null>(null)
  const resyncing = book.state === 'resyncing'
  // The engine stopped asking for a market the venue never answered (docs/liveness.md).
  const unknown = !resyncing && book.staleReason === UNKNOWN_MARKET
  return (
    <div className="book-overlay" data-testid={testIds.overlay}>
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
