// Every market of one event in a matrix, with the sum of mids (informational overround). Each row selects its
// own market's ticker and is memoised with stable props, so a quote change re-renders that row (and the sum).
// Above it, the event's category, status, time left and tags where the venue sends them, and its rules.
import { memo, useCallback, useState } from 'react'
import type { EventSummary, MarketSummary } from '../../../shared/model'
import { useApi, useInterests } from '../../hooks/context'
import { openMarketAlert } from '../../store/alerts-ui'
import { formatChance, formatMid, formatPrice, formatSigned, midOf, spreadOf } from '../../lib/format'
import { exclusivityOf, OVERROUND_WARN, overround } from './overround'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { GridTable, type GridColumn } from '../../ui/GridTable'
import { EventMeta } from './EventMeta'
import { FreshnessBadge } from '../../ui/FreshnessBadge'
import { useDim } from '../../hooks/freshness'
import { viewFreshness } from '../../lib/freshness'
import { RulesDialog } from './RulesDialog'
import { useShallow } from 'zustand/react/shallow'
import { ExternalIcon } from '../../ui/icons'

const MatrixRow = memo(function MatrixRow({
  market,
  onOpen,
}: {
  market: MarketSummary
  onOpen(id: string): void
}) {
  const t = useMonitor((s) => s.tickers[market.id])
  const unit = usePriceUnit()
  const bid = t?.bestBid ?? null
  const ask = t?.bestAsk ?? null
  // Stale rows are greyed out; a quiet one is only subdued (its prices are still applied).
  const dim = useDim(t)
  return (
    <tr
      data-testid="market-row"
      data-market={market.id}
      data-bid={bid ?? undefined}
      data-ask={ask ?? undefined}
      onDoubleClick={() => onOpen(market.id)}
      className={dim ? `${dim}-row` : ''}
    >
      <td
        className="ellipsis"
        title={`${market.title} (${market.id})${t?.chance !== undefined ? ` · chance of YES ${formatChance(t.chance)}` : ''}`}
      >
        {market.title}
        <span className="muted mono"> {market.id}</span>
      </td>
      <td className="num bid-text">{formatPrice(bid, unit)}</td>
      <td className="num ask-text">{formatPrice(ask, unit)}</td>
      <td className="num">{formatPrice(t?.last, unit)}</td>
      <td className="num">{formatPrice(spreadOf(bid, ask), unit)}</td>
      <td className="num">{formatMid(midOf(bid, ask), unit)}</td>
      <td>
        <FreshnessBadge {...viewFreshness(t)} />
      </td>
      <td>
        <button
          className="link-btn"
          title="New alert on this market"
          data-testid="matrix-alert"
          onClick={() => openMarketAlert(market.id)}
        >
          Alert
        </button>
        <button className="link-btn" onClick={() => onOpen(market.id)}>
          Open <ExternalIcon />
        </button>
      </td>
    </tr>
  )
})

/** The sum of mids: the only part of the matrix that depends on every market's quote. */
function Overround({ event }: { event: EventSummary }) {
  // useShallow: the same array back (no re-render) unless one of these markets' tickers changed.
  const quotes = useMonitor(useShallow((s) => event.markets.map((m) => s.tickers[m.id])))
  const exclusivity = exclusivityOf(event)
  const o = overround(quotes, OVERROUND_WARN, exclusivity)
  return (
    <div
      className={`overround ${o.warn ? 'warn' : ''}`}
      data-testid="overround"
      data-sum={o.sum ?? undefined}
      data-warn={o.warn}
    >
      <span>
        Sum of mids <b className="num">{o.sum === null ? '—' : o.sum.toFixed(3)}</b>
      </span>
      {o.deviation !== null ? (
        <span className="num">({formatSigned(o.deviation, 3)} vs 1)</span>
      ) : (
        <span className="muted">
          {o.counted}/{o.total} markets quoted on both sides
        </span>
      )}
      <span className="muted small" data-testid="overround-note" data-exclusivity={exclusivity}>
        {exclusivity === 'independent'
          ? 'The exchange lists these markets as independent questions: their mids need not sum to 1.'
          : exclusivity === 'exclusive'
            ? o.warn
              ? `The exchange lists these markets as mutually exclusive outcomes, yet their mids differ from 1 by more than ${OVERROUND_WARN}: mispricing, or stale data.`
              : 'The exchange lists these markets as mutually exclusive outcomes: their mids should sum to about 1.'
            : `${o.warn ? `Differs from 1 by more than ${OVERROUND_WARN}. If these markets are mutually exclusive and exhaustive, that is mispricing or stale data. ` : ''}Informational: the exchange does not say whether these markets are mutually exclusive.`}
      </span>
    </div>
  )
}

// Short heads with the long name as the tooltip: five price columns fit a pane that also shows the names.
const COLUMNS: GridColumn[] = [
  { head: 'Market', min: 160 },
  { head: 'Bid', width: 64, num: true, title: 'Best bid' },
  { head: 'Ask', width: 64, num: true, title: 'Best ask' },
  { head: 'Last', width: 64, num: true, title: 'Last trade price' },
  { head: 'Spread', width: 68, num: true },
  { head: 'Mid', width: 64, num: true },
  { head: 'Data', width: 116, title: 'How fresh the market data is' },
  { head: null, width: 128 },
]

export function EventMatrix({ event }: { event: EventSummary }) {
  const api = useApi()
  useInterests(`event-matrix:${event.id}`, [{ channel: 'event', id: event.id, filter: 'all' }])
  const open = useCallback((market: string) => void api.openWindow({ kind: 'market', market }), [api])
  const [rulesOpen, setRulesOpen] = useState(false)
  const tags = event.tags ?? []
  const described =
    event.category !== undefined ||
    event.status !== undefined ||
    event.resolvesAt !== undefined ||
    event.rules !== undefined ||
    tags.length > 0
  return (
    <div className="event-matrix">
      {described ? (
        <div className="event-info" data-testid="event-info">
          <EventMeta event={event} />
          {tags.map((t) => (
            <span key={t} className="chip">
              {t}
            </span>
          ))}
          <span className="spacer" />
          <button
            type="button"
            className="btn ghost"
            data-testid="matrix-rules-button"
            aria-haspopup="dialog"
            title={`The event's resolution rules${event.rules ? '' : ' (the venue sent none)'}`}
            onClick={() => setRulesOpen(true)}
          >
            Rules
          </button>
        </div>
      ) : null}
      <GridTable
        className="matrix"
        data-testid="event-matrix"
        data-event={event.id}
        columns={COLUMNS}
        rows={event.markets}
        row={(m) => <MatrixRow key={m.id} market={m} onOpen={open} />}
      />
      <Overround event={event} />
      {rulesOpen ? <RulesDialog event={event} onClose={() => setRulesOpen(false)} /> : null}
    </div>
  )
}
