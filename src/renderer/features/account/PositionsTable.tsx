// Positions marked to their markets' live prices. The average and the mark read in the price unit the app shows,
// as the ladder beside them does; the P&L ((mark − avg) × size) is worked out in R$ per contract and reads in R$.
// A venue that keeps YES and NO apart (VoxFi) has a row per outcome held; paper positions follow the live ones,
// marked PAPER. Each row can be closed from its market's ticket, and a market holding both YES and NO can merge
// its pairs.
import { memo, useId, useMemo } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { positionKey, type PositionRow } from '../../../shared/account'
import type { TradingMode } from '../../../shared/trading'
import { useInterests } from '../../hooks/context'
import { useFeedNotLive } from '../../hooks/freshness'
import { nameOf, type MarketName, type MarketNames } from '../../lib/market-names'
import { formatAmount, formatMid, formatPrice, formatSize, type PriceUnit } from '../../lib/format'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { GridTable, type GridColumn } from '../../ui/GridTable'
import { heldContracts, mergeablePairs, PositionActions } from '../trading'
import { MarketCell } from './cells'
import { markOf, positionPnl, priceInputsIn, totalPnl, type Known, type Mark } from './pnl'

function markText(mark: Mark, unit: PriceUnit): string {
  if (mark.price === null) return '—'
  return mark.source === 'mid' ? formatMid(mark.price, unit) : formatPrice(mark.price, unit)
}

function markTitle(mark: Mark, size: number, value: number | null): string {
  const head =
    mark.price === null
      ? (mark.reason ?? 'no price')
      : mark.source === 'mid'
        ? 'Mid of the live book'
        : (mark.reason ?? 'Last trade')
  return value === null ? head : `${head}. Market value ${formatAmount(value)} (${formatSize(size)} shares)`
}

const signClass = (v: number | null) => (v === null ? 'muted' : v >= 0 ? 'bid-text' : 'ask-text')

/** A P&L cell: the amount, or "—" with the reason it is unknown as its tooltip. */
function PnlCell({ testId, v, title }: { testId: string; v: Known; title: string }) {
  return (
    <td
      className={`num ${signClass(v.value)}`}
      data-testid={testId}
      data-known={v.value !== null}
      title={v.value === null ? (v.reason ?? undefined) : title}
    >
      {formatAmount(v.value)}
    </td>
  )
}

/**
 * One position, marked to its market's live price. It watches its own market (an interest of its own, released
 * on unmount) and selects only the plain values of its mark, so a book delta that leaves the top of the book
 * and the last trade unchanged does not re-render it, and another market never does.
 */
const PositionLine = memo(function PositionLine({
  p,
  name,
  paper,
  pairs,
  trading,
  onOpenMarket,
}: {
  p: PositionRow
  name: MarketName | undefined
  /** A paper position (marked PAPER). */
  paper: boolean
  /** Pairs of its market it can merge (0: none offered). */
  pairs: number
  /** The profile trades (paper or live): the row offers close and merge. */
  trading: boolean
  onOpenMarket?(market: string): void
}) {
  const id = useId()
  useInterests(`position${id}${p.market}`, [{ channel: 'market', id: p.market, filter: 'all' }])
  const inputs = useMonitor(useShallow((s) => priceInputsIn(s, p.market)))
  const row = positionPnl(p, markOf(inputs, useFeedNotLive()))
  const unit = usePriceUnit()
  const { mark } = row
  const venuePnl = p.pnl === null ? '' : `; the venue reports P&L ${formatAmount(p.pnl)}`
  // The outcome the row holds: its own where the venue says, else the side of its YES-terms size.
  const outcome = p.outcome !== undefined ? p.outcome : p.size >= 0 ? 'yes' : 'no'
  const held = heldContracts([p], p.market, outcome === 'yes' ? 'YES' : 'NO')
  return (
    <tr
      data-testid="position-row"
      data-market={p.market}
      data-size={p.size}
      data-outcome={p.outcome?.toUpperCase()}
      data-mode={paper ? 'paper' : undefined}
      className={paper ? 'paper-row' : undefined}
    >
      <MarketCell
        id={p.market}
        name={name}
        tag={
          <>
            {trading ? (
              <PositionActions
                market={p.market}
                outcome={outcome === 'yes' ? 'YES' : 'NO'}
                held={held}
                pairs={pairs}
                onOpenMarket={onOpenMarket}
              />
            ) : null}
            {paper ? <span className="mode-tag mode-paper">PAPER</span> : null}
          </>
        }
      />
      {p.outcome !== undefined ? (
        <td className="num" title={`${formatSize(held)} ${p.outcome.toUpperCase()} contracts`}>
          <span className={`outcome-mark outcome-${p.outcome}`}>{p.outcome.toUpperCase()}</span>{' '}
          {formatSize(held)}
        </td>
      ) : (
        <td className={`num ${p.size > 0 ? 'bid-text' : 'ask-text'}`}>{formatSize(p.size)}</td>
      )}
      <td
        className="num"
        data-testid="position-avg"
        title={p.avgPrice === null ? (row.unrealized.reason ?? undefined) : 'Average price (venue)'}
      >
        {formatPrice(p.avgPrice, unit)}
      </td>
      <td
        className={`num pos-mark${mark.live ? '' : ' not-live'}`}
        data-testid="position-mark"
        data-source={mark.source ?? 'none'}
        data-live={mark.live}
        title={markTitle(mark, p.size, row.marketValue.value)}
      >
        {mark.source !== null ? <span className="mark-src">{mark.source}</span> : null}
        {markText(mark, unit)}
      </td>
      <PnlCell
        testId="position-upnl"
        v={
          row.unrealized.value === null
            ? { ...row.unrealized, reason: `${row.unrealized.reason}${venuePnl}` }
            : row.unrealized
        }
        title={`(mark ${markText(mark, unit)} − avg ${formatPrice(p.avgPrice, unit)}) × ${formatSize(p.size)}${venuePnl}`}
      />
      <PnlCell testId="position-rpnl" v={row.realized} title="Realised P&L as the venue reports it" />
    </tr>
  )
})

function totalTitle(what: string, known: number, unknown: number): string {
  if (known === 0) return `No position has a known ${what}`
  return unknown === 0
    ? `Sum over ${known} position${known === 1 ? '' : 's'}`
    : `Partial: the sum over ${known} position${known === 1 ? '' : 's'}; ${unknown} unknown left out`
}

/** Sums of the known values only, and "partial" when some are unknown; never fills a gap with a guess. */
function PositionsTotal({ positions }: { positions: readonly PositionRow[] }) {
  const feedNotLive = useFeedNotLive()
  const t = useMonitor(
    useShallow((s) => {
      const sums = totalPnl(
        positions.map((p) => positionPnl(p, markOf(priceInputsIn(s, p.market), feedNotLive))),
      )
      return {
        mv: sums.marketValue.value,
        mvKnown: sums.marketValue.known,
        mvUnknown: sums.marketValue.unknown,
        u: sums.unrealized.value,
        uKnown: sums.unrealized.known,
        uUnknown: sums.unrealized.unknown,
        r: sums.realized.value,
        rKnown: sums.realized.known,
        rUnknown: sums.realized.unknown,
      }
    }),
  )
  // Partial: some values are summed and some left out. With none known the cell is "—" and says why.
  const uPartial = t.uKnown > 0 && t.uUnknown > 0
  const rPartial = t.rKnown > 0 && t.rUnknown > 0
  const partial = uPartial || rPartial
  const value = `Market value ${formatAmount(t.mv)}: ${totalTitle('mark', t.mvKnown, t.mvUnknown).toLowerCase()}`
  return (
    <tr className="positions-total" data-testid="positions-total" data-partial={partial}>
      <td colSpan={4} title={value}>
        Total{partial ? <span className="muted total-partial"> · partial</span> : null}
      </td>
      <td
        className={`num ${signClass(t.u)}`}
        data-partial={uPartial}
        title={totalTitle('unrealised P&L', t.uKnown, t.uUnknown)}
      >
        {formatAmount(t.u)}
      </td>
      <td
        className={`num ${signClass(t.r)}`}
        data-partial={rPartial}
        title={`${totalTitle('realised P&L', t.rKnown, t.rUnknown)} (open positions only)`}
      >
        {formatAmount(t.r)}
      </td>
    </tr>
  )
}

const COLUMNS: GridColumn[] = [
  { head: 'Market', min: 72 },
  { head: 'Size', width: 44, num: true },
  { head: 'Avg', width: 40, num: true, title: 'Average price, as the venue sends it' },
  { head: 'Mark', width: 64, num: true, title: 'The live mid, else the last trade price' },
  { head: 'Unreal.', width: 52, num: true, title: 'Unrealised P&L: (mark − avg) × size' },
  { head: 'Real.', width: 44, num: true, title: 'Realised P&L, as the venue sends it' },
]

interface Row {
  p: PositionRow
  paper: boolean
  /** The pairs its market can merge, on the market's first row only (0: no merge offered there). */
  pairs: number
}

/**
 * One account's rows. Merge is offered in the account the window trades in (the venue's while live, the paper
 * one's on paper), once per market: on its first row.
 */
function rowsOf(positions: readonly PositionRow[], paper: boolean, offered: boolean): Row[] {
  const seen = new Set<string>()
  return positions.map((p) => {
    const first = !seen.has(p.market)
    seen.add(p.market)
    return { p, paper, pairs: offered && first ? mergeablePairs(positions, p.market) : 0 }
  })
}

export function PositionsTable({
  positions: live,
  paper = [],
  mode = 'off',
  names,
  onOpenMarket,
}: {
  positions: readonly PositionRow[]
  /** The paper account's positions, when it is shown. */
  paper?: readonly PositionRow[]
  mode?: TradingMode
  names: MarketNames
  onOpenMarket?(market: string): void
}) {
  const rows = useMemo(
    () => [...rowsOf(live, false, mode === 'live'), ...rowsOf(paper, true, mode === 'paper')],
    [live, paper, mode],
  )
  const positions = useMemo(() => rows.map((r) => r.p), [rows])
  return (
    <>
      <h4>
        Positions <span className="muted">{positions.length}</span>
      </h4>
      <GridTable
        className="compact positions-table"
        data-testid="positions"
        columns={COLUMNS}
        rows={rows}
        row={({ p, paper: isPaper, pairs }) => (
          <PositionLine
            key={`${isPaper ? 'paper:' : ''}${positionKey(p.market, p.outcome)}`}
            p={p}
            name={nameOf(names, p.market)}
            paper={isPaper}
            pairs={pairs}
            trading={mode !== 'off'}
            onOpenMarket={onOpenMarket}
          />
        )}
        empty="No positions"
        // The venue's positions only: paper has its own P&L, never summed with real money.
        foot={live.length > 0 ? <PositionsTotal positions={live} /> : null}
      />
      {positions.length > 0 && !positions.some((p) => p.avgPrice !== null) ? (
        <p className="pnl-note muted" data-testid="pnl-note">
          The venue sends no cost basis (average price) for these positions, so their P&amp;L cannot be
          computed.
        </p>
      ) : null}
    </>
  )
}
