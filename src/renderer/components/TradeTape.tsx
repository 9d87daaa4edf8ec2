// The trades tape, newest first. Rows have a fixed height; a gap marker row says where trades may be missing
// (the first trade after a reconnect). Rows are memoised on the trade object, which the store never copies, and
// keyed by the trade's key: a batch mounts its new rows and re-renders no other. A new row is lit for FRESH_MS
// (a class removed by a timer: no animation frames). Its price cell carries an Element Timing marker, so its
// first paint (trade to pixel) can be measured.
import { Fragment, memo, useEffect, useState } from 'react'
import type { TradeView } from '../../shared/model'
import { formatClock, formatPrice, formatSize } from '../lib/format'
import { NO_TRADES, useMonitor } from '../store/monitor'

/** Rows kept in the DOM; the store holds more for the chart. */
export const TAPE_ROWS = 150
/** How long a new row stays highlighted. */
export const FRESH_MS = 700

const TradeRow = memo(function TradeRow({ trade }: { trade: TradeView }) {
  const side = trade.side ?? 'none'
  const [fresh, setFresh] = useState(true)
  useEffect(() => {
    const id = setTimeout(() => setFresh(false), FRESH_MS)
    return () => clearTimeout(id)
  }, [])
  return (
    <div
      className={`tape-row side-${side} ${fresh ? 'fresh' : ''}`}
      data-testid="trade-row"
      data-market={trade.market}
      data-price={trade.price}
      data-size={trade.size}
      data-side={side}
      data-key={trade.key}
    >
      <span className="c-time">{formatClock(trade.ts)}</span>
      <span className="c-price" elementtiming={`trade:${trade.key}`}>
        {formatPrice(trade.price)}
      </span>
      <span className="c-size">{formatSize(trade.size)}</span>
      <span className="c-side">{trade.side === 'buy' ? 'Buy' : trade.side === 'sell' ? 'Sell' : '—'}</span>
    </div>
  )
})

export function TradeTape({ market }: { market: string }) {
  const trades = useMonitor((s) => s.trades[market] ?? NO_TRADES)
  const shown: TradeView[] = []
  for (let i = trades.length - 1; i >= 0 && shown.length < TAPE_ROWS; i--) shown.push(trades[i] as TradeView)
  return (
    <div className="tape" data-testid="trade-tape" data-market={market}>
      <div className="tape-head">
        <span className="c-time">Time</span>
        <span className="c-price">Price</span>
        <span className="c-size">Size</span>
        <span className="c-side">Taker</span>
      </div>
      <div className="tape-body">
        {shown.length === 0 ? <div className="empty-note">No trades yet.</div> : null}
        {shown.map((t) => (
          <Fragment key={t.key}>
            <TradeRow trade={t} />
            {t.gapBefore ? (
              <div
                className="tape-gap"
                data-testid="trade-gap"
                title="The connection dropped: trades in between may be missing"
              >
                connection gap · trades may be missing
              </div>
            ) : null}
          </Fragment>
        ))}
      </div>
    </div>
  )
}
