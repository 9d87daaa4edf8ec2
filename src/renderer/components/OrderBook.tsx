// The ladder: asks above, bids below, fixed rows so nothing moves while the book streams. Rows are memoised on
// plain values (price, size, running total), keyed by price, so a batch re-renders only the levels it changed.
// The depth bars scale against the ladder's largest total through a CSS variable set once on the ladder, so a
// new maximum restyles the bars without re-rendering every row. A size change flashes: a class set with the
// change and removed by a timer FLASH_MS later, so a flash costs two small repaints and no animation frames. A
// quiet book keeps its levels readable under a static "Quiet?" mark; a stale or resyncing one is covered by an
// overlay.
import { memo, useEffect, useState, type CSSProperties } from 'react'
import type { BookView, Level } from '../../shared/model'
import { useApi } from '../hooks/context'
import { formatMid, formatPrice, formatSize, midOf, spreadOf } from '../lib/format'
import { useMonitor } from '../store/monitor'

export const LADDER_LEVELS = 15
/** How long a changed size stays highlighted. */
export const FLASH_MS = 600

interface RowProps {
  side: 'bid' | 'ask'
  market: string
  price: number
  size: number
  cumulative: number
  best: boolean
}

const LadderRow = memo(function LadderRow({ side, market, price, size, cumulative, best }: RowProps) {
  const [prevSize, setPrevSize] = useState(size)
  const [flash, setFlash] = useState<{ n: number; dir: 'up' | 'down' } | null>(null)
  // Derive the flash from the previous render's size (React's "adjust state on prop change" pattern).
  if (prevSize !== size) {
    setPrevSize(size)
    setFlash({ n: (flash?.n ?? 0) + 1, dir: size > prevSize ? 'up' : 'down' })
  }
  // Each change restarts the wait, so a level that keeps changing stays lit and goes out FLASH_MS after the last.
  useEffect(() => {
    if (flash === null) return
    const id = setTimeout(() => setFlash(null), FLASH_MS)
    return () => clearTimeout(id)
  }, [flash])
  return (
    <div
      className={`ladder-row ${side} ${best ? 'best' : ''}`}
      data-testid={side === 'bid' ? 'book-bid-row' : 'book-ask-row'}
      data-market={market}
      data-price={price}
      data-size={size}
    >
      <div className="depth-bar" style={{ '--cum': cumulative } as CSSProperties} />
      <span className="c-price">{formatPrice(price)}</span>
      <span className={`c-size ${flash ? `flash-${flash.dir}` : ''}`}>{formatSize(size)}</span>
      <span className="c-total">{formatSize(cumulative)}</span>
    </div>
  )
})

function PlaceholderRow({ side }: { side: 'bid' | 'ask' }) {
  return (
    <div className={`ladder-row ${side} placeholder`} aria-hidden="true">
      <span className="c-price" />
      <span className="c-size" />
      <span className="c-total" />
    </div>
  )
}

function cumulate(levels: readonly Level[]): number[] {
  let total = 0
  return levels.map(([, s]) => (total += s))
}

function StaleOverlay({ book }: { book: BookView }) {
  const api = useApi()
  const [error, setError] = useState<string | null>(null)
  const resyncing = book.state === 'resyncing'
  return (
    <div className="book-overlay" data-testid="book-stale-overlay">
      <div className="overlay-card">
        <b>
          {resyncing
            ? book.resyncAttempt !== undefined
              ? `Resyncing (attempt ${book.resyncAttempt})…`
              : 'Resyncing book…'
            : 'Book is stale'}
        </b>
        <span className="muted">
          {resyncing
            ? 'Waiting for a fresh snapshot. Prices below may be out of date.'
            : `Prices below may be out of date${book.staleReason ? ` (${book.staleReason})` : ''}.`}
        </span>
        {!resyncing ? (
          <button
            className="btn"
            data-testid="resync-button"
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

export function OrderBook({ market, levels = LADDER_LEVELS }: { market: string; levels?: number }) {
  const book = useMonitor((s) => s.books[market])
  const state = book?.state ?? 'empty'
  const asks = book ? book.asks.slice(0, levels) : []
  const bids = book ? book.bids.slice(0, levels) : []
  const askCum = cumulate(asks)
  const bidCum = cumulate(bids)
  const maxCum = Math.max(askCum[askCum.length - 1] ?? 0, bidCum[bidCum.length - 1] ?? 0)
  // Every depth bar is its total over this; never 0, so an empty ladder divides nothing by zero.
  const ladderStyle = { '--max-cum': maxCum > 0 ? maxCum : 1 } as CSSProperties
  const bestBid = bids[0]?.[0] ?? null
  const bestAsk = asks[0]?.[0] ?? null
  const spread = spreadOf(bestBid, bestAsk)
  const mid = midOf(bestBid, bestAsk)

  const row = (side: 'ask' | 'bid', i: number) => {
    const level = (side === 'ask' ? asks : bids)[i]
    return level ? (
      <LadderRow
        key={level[0]}
        side={side}
        market={market}
        price={level[0]}
        size={level[1]}
        cumulative={(side === 'ask' ? askCum : bidCum)[i] ?? 0}
        best={i === 0}
      />
    ) : (
      <PlaceholderRow key={`p${i}`} side={side} />
    )
  }
  // Asks render top-down from the worst shown level to the best, so the best ask sits on the spread line.
  const askRows = []
  for (let i = levels - 1; i >= 0; i--) askRows.push(row('ask', i))
  const bidRows = []
  for (let i = 0; i < levels; i++) bidRows.push(row('bid', i))

  return (
    <div
      className={`orderbook state-${state}`}
      data-testid="orderbook"
      data-market={market}
      data-state={state}
    >
      <div className="ladder-head">
        <span className="c-price">Price</span>
        <span className="c-size">Size</span>
        <span className="c-total">Total</span>
      </div>
      <div className="ladder-body" style={ladderStyle}>
        <div className="ladder-side asks">{askRows}</div>
        <div className="spread-row" data-testid="book-spread">
          <span className="c-price" title="Mid">
            {formatMid(mid)}
          </span>
          {state === 'quiet' ? (
            <span
              className="quiet-mark"
              data-testid="book-quiet-mark"
              title="No update for longer than this market usually goes without one: the book may be behind. Levels are still applied; the next update makes it live again."
            >
              Quiet?
            </span>
          ) : (
            <span className="muted">mid</span>
          )}
          <span className="c-spread" title="Spread">
            spread <b>{formatPrice(spread)}</b>
          </span>
        </div>
        <div className="ladder-side bids">{bidRows}</div>
        {book && (state === 'stale' || state === 'resyncing') ? <StaleOverlay book={book} /> : null}
        {!book || (state === 'empty' && bids.length === 0 && asks.length === 0) ? (
          <div className="book-overlay soft">
            <span className="muted">Waiting for the first book snapshot…</span>
          </div>
        ) : null}
      </div>
      <div className="ladder-foot muted">
        <span>{book ? `${book.depth.bids} bid / ${book.depth.asks} ask levels` : '\u00a0'}</span>
        {book?.seq !== null && book?.seq !== undefined ? (
          // Remounted on every new seq: its first paint is the moment this book version reached the screen
          // (Element Timing, read by the UI benchmark). It is the footer's flex item itself, so Chromium credits
          // the text's paint to it (text is timed on its nearest block-level box).
          <span key={book.seq} className="num" elementtiming={`book:${market}:${book.seq}`}>
            seq {book.seq}
          </span>
        ) : (
          <span className="num" />
        )}
      </div>
    </div>
  )
}
