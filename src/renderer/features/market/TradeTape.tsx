// The trades tape, newest first, virtualised: every trade the store holds for the market (TAPE_CAP) is
// scrollable, and only the rows in view (plus a small overscan) are in the DOM. Rows have a fixed height; a gap
// marker row says where trades may be missing (the first trade after a reconnect). Rows are memoised on the trade
// object (which the store never copies) and a boolean for the big-trade highlight, and keyed by the trade's key:
// a batch mounts its new rows and re-renders no other. The rows in view sit in normal flow inside one container
// moved with a transform, so a new trade on top moves the others without re-rendering them.
// A new row is lit for FRESH_MS (a class, no animation, going out in the frame of a batch: store/highlights.ts);
// when it arrived is kept per trade, so a row scrolled out and back in is not lit again. Its price cell carries an
// Element Timing marker, so its first paint (trade to pixel) can be measured.
// Scrolled away from the top, the tape the user is reading is held: new trades neither move the view nor push
// rows out of it (a firehose would drop the rows under a held view within a second), and a "N new ↑" button
// counts them and goes back to the live tape at the top.
// Filters (side, minimum size) and the big-trade rule are per tape; the props give their starting values and
// the callbacks report changes, so the pane that holds the tape can persist them.
// Where the venue says which contract traded (VoxFi's YES/NO), the price cell leads with a small YES / NO mark;
// the price itself is in YES terms for both, as the engine keeps every print (model.ts, Update 'trade').
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual'
import { memo, useCallback, useEffect, useMemo, useRef, useState, type UIEvent } from 'react'
import type { TradeView } from '../../../shared/model'
import { csvFilename, downloadCsv, tradesCsv } from '../../lib/csv'
import { marketNamesOf } from '../../lib/market-names'
import { useEvents } from '../../store/events'
import { formatClock, formatPrice, formatSize, type PriceUnit } from '../../lib/format'
import {
  countNewer,
  describeRule,
  isBig,
  normaliseFilters,
  normaliseRule,
  parsePositive,
  recordAverages,
  sameFilters,
  sameRule,
  tapeRows,
  type BigTradeRule,
  type TapeFilters,
  type TapeRow,
} from './tape'
import { NO_TRADES, TAPE_CAP, useMonitor } from '../../store/monitor'
import { litUntil, useLit } from '../../store/highlights'
import { usePriceUnit } from '../../store/prefs'
import { NumberField, type NumberFieldProps } from '../../ui/NumberField'
import { StarIcon } from '../../ui/icons'

export type { BigTradeRule, TapeFilters } from './tape'

/** How long a new row stays highlighted. */
export const FRESH_MS = 700
/** Row height in px: the stylesheet's --row. */
export const TAPE_ROW_HEIGHT = 18
/** Rows rendered beyond each edge of the view. */
const OVERSCAN = 6
/** Rows assumed in view before the tape has a size (before layout, or where there is none, as in unit tests). */
const UNMEASURED_ROWS = 30
/** Within this many px of the top, the tape follows new trades; further down, it keeps its place. */
const TOP_SLACK = TAPE_ROW_HEIGHT / 2

// When each trade first reached a tape (performance.now()), 0 for trades that were already there when a tape
// opened or came with a re-seed. Per trade object, shared by every tape (a trade arrives once per window).
const arrivals = new WeakMap<TradeView, number>()
// The average size of the AVERAGE_WINDOW trades before each trade, fixed when the trade is first seen.
const averages = new WeakMap<TradeView, number | null>()
// The store's trade lists whose trades are in both maps already (the store makes a new list per change): a tape
// re-rendered for a scroll, or a second tape on the market, does not walk the whole list again.
const recorded = new WeakSet<readonly TradeView[]>()

function noteArrivals(trades: readonly TradeView[], asNew: boolean): void {
  // New trades are at the end: those not known yet, back to the first known one, arrived now. Any other unknown
  // trade (all of them when the tape opens or is re-seeded; history a re-seed put before the known ones) is old.
  let i = trades.length - 1
  if (asNew) {
    const now = performance.now()
    for (; i >= 0; i--) {
      const t = trades[i] as TradeView
      if (arrivals.has(t)) break
      arrivals.set(t, now)
    }
  }
  for (; i >= 0; i--) {
    const t = trades[i] as TradeView
    if (!arrivals.has(t)) arrivals.set(t, 0)
  }
}

const TradeRow = memo(function TradeRow({
  trade,
  big,
  unit,
}: {
  trade: TradeView
  big: boolean
  unit: PriceUnit
}) {
  const side = trade.side ?? 'none'
  // Lit until FRESH_MS after it arrived: a row remounted by scrolling is lit for what is left of that, if anything.
  const [until] = useState(() => {
    const left = FRESH_MS - (performance.now() - (arrivals.get(trade) ?? 0))
    return left > 0 ? litUntil(left) : Number.NEGATIVE_INFINITY
  })
  const fresh = useLit(until)
  // Full texts as tooltips: a narrow pane truncates a cell rather than letting it run into the next.
  const priceText = formatPrice(trade.price, unit)
  const sizeText = formatSize(trade.size)
  return (
    <div
      className={`tape-row side-${side}${fresh ? ' fresh' : ''}${big ? ' big' : ''}`}
      data-testid="trade-row"
      data-market={trade.market}
      data-price={trade.price}
      data-size={trade.size}
      data-side={side}
      data-key={trade.key}
      data-big={big ? 'true' : undefined}
      data-outcome={trade.outcome === undefined ? undefined : trade.outcome === 'no' ? 'NO' : 'YES'}
    >
      <span className="c-time">{formatClock(trade.ts)}</span>
      <span className="c-price" elementtiming={`trade:${trade.key}`} title={priceText}>
        {trade.outcome !== undefined ? (
          <span
            className={`outcome-mark outcome-${trade.outcome}`}
            data-testid="trade-outcome"
            title={
              trade.outcome === 'no'
                ? `A NO contract traded at ${formatPrice(1 - trade.price, unit)}: shown, like every print, in YES terms`
                : 'The YES contract traded'
            }
          >
            {trade.outcome === 'no' ? 'NO' : 'YES'}
          </span>
        ) : null}
        {priceText}
      </span>
      <span className="c-size" title={sizeText}>
        {sizeText}
      </span>
      <span className="c-side">{trade.side === 'buy' ? 'Buy' : trade.side === 'sell' ? 'Sell' : '—'}</span>
    </div>
  )
})

function GapRow() {
  return (
    <div
      className="tape-gap"
      data-testid="trade-gap"
      title="The connection dropped: trades in between may be missing"
    >
      connection gap · trades may be missing
    </div>
  )
}

/** The element's size, or UNMEASURED_ROWS rows tall while it has none (not laid out yet, or no layout at all). */
function observeRect(
  instance: Virtualizer<HTMLDivElement, Element>,
  cb: (rect: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (rect) =>
    cb(rect.height > 0 ? rect : { width: rect.width, height: UNMEASURED_ROWS * TAPE_ROW_HEIGHT }),
  )
}

/** A tape field for a positive number or none: the text typed is kept ("0.", ""), the parsed value reported. */
function PositiveField({
  value,
  onChange,
  ...field
}: Omit<NumberFieldProps, 'value' | 'onChange' | 'stepper'> & {
  value: number | null
  onChange(v: number | null): void
}) {
  const [text, setText] = useState(value === null ? '' : String(value))
  const [shown, setShown] = useState(value)
  // A new value from outside (not the one this field just reported) replaces the text.
  if (value !== shown) {
    setShown(value)
    if (parsePositive(text) !== value) setText(value === null ? '' : String(value))
  }
  return (
    <NumberField
      {...field}
      stepper
      inputClassName="tape-num"
      value={text}
      onChange={(next) => {
        setText(next)
        const v = parsePositive(next)
        setShown(v)
        onChange(v)
      }}
    />
  )
}

/** The big-trade rule's two thresholds: either makes a trade big. */
const BIG_TRADE_FIELDS = [
  {
    part: 'minSize',
    label: 'Size at least',
    ariaLabel: 'Big trade: size at least',
    testId: 'tape-big-size',
    placeholder: 'any',
    title: 'Highlight trades of at least this size (empty: no size threshold)',
  },
  {
    part: 'relative',
    label: 'or × average of last 50',
    ariaLabel: 'Big trade: times the average size of the last 50 trades',
    testId: 'tape-big-relative',
    placeholder: 'off',
    title: 'Highlight trades at least this many times the average size of the 50 trades before them',
  },
] as const satisfies ReadonlyArray<{ part: keyof BigTradeRule } & Partial<NumberFieldProps>>

function BigTradeControl({
  rule,
  onChange,
}: {
  rule: BigTradeRule | null
  onChange(rule: BigTradeRule | null): void
}) {
  const [open, setOpen] = useState(false)
  const box = useRef<HTMLDivElement | null>(null)
  useEffect(() => {
    if (!open) return
    const away = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', away)
    return () => document.removeEventListener('pointerdown', away)
  }, [open])
  const set = (part: Partial<BigTradeRule>) =>
    onChange(normaliseRule({ minSize: rule?.minSize ?? null, relative: rule?.relative ?? null, ...part }))
  return (
    <div
      className="tape-big"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation()
          setOpen(false)
        }
      }}
    >
      <button
        type="button"
        className={`btn ghost tape-big-btn${rule ? ' on' : ''}`}
        data-testid="tape-big-toggle"
        aria-expanded={open}
        aria-haspopup="dialog"
        title="Highlight big trades"
        onClick={() => setOpen((o) => !o)}
      >
        <StarIcon filled /> {rule ? describeRule(rule, formatSize) : 'big'}
      </button>
      {open ? (
        <div className="tape-big-pop" role="dialog" aria-label="Big trades" data-testid="tape-big-popover">
          {BIG_TRADE_FIELDS.map(({ part, ...field }) => (
            <PositiveField
              key={part}
              {...field}
              value={rule?.[part] ?? null}
              onChange={(v) => set({ [part]: v })}
            />
          ))}
          <button
            type="button"
            className="btn"
            data-testid="tape-big-clear"
            disabled={rule === null}
            onClick={() => onChange(null)}
          >
            No highlight
          </button>
        </div>
      ) : null}
    </div>
  )
}

/**
 * State started from a prop that also follows the prop when the holder changes it. A prop value this component
 * reported itself is an echo (the holder persisting it, perhaps a round trip behind a newer edit) and is not
 * taken back, so a slow echo never undoes what the user typed since. The setter says whether the value changed.
 */
function useFollowedProp<T>(incoming: T, same: (a: T, b: T) => boolean): [T, (next: T) => boolean] {
  const [state, setState] = useState({ value: incoming, from: incoming, sent: [] as T[] })
  let current = state
  if (!same(incoming, state.from)) {
    const echo = state.sent.some((v) => same(v, incoming))
    current = { value: echo ? state.value : incoming, from: incoming, sent: state.sent }
    setState(current)
  }
  const set = (next: T): boolean => {
    if (same(next, current.value)) return false
    setState((s) => ({ ...s, value: next, sent: [...s.sent.slice(-7), next] }))
    return true
  }
  return [current.value, set]
}

export interface TradeTapeProps {
  market: string
  /** Starting filters (and any later change made by the holder); default all sides, any size. */
  filters?: TapeFilters
  onFiltersChange?(filters: TapeFilters): void
  /** Starting big-trade rule (and any later change made by the holder); null or absent: no highlight. */
  bigTrade?: BigTradeRule | null
  onBigTradeChange?(rule: BigTradeRule | null): void
}

export function TradeTape({
  market,
  filters: filtersProp,
  onFiltersChange,
  bigTrade,
  onBigTradeChange,
}: TradeTapeProps) {
  const trades = useMonitor((s) => s.trades[market] ?? NO_TRADES)
  const epoch = useMonitor((s) => s.tapeEpoch[market] ?? 0)
  const unit = usePriceUnit()

  // Filters and rule: the tape's own state, started from the props and following a prop that changes value.
  const [filters, setFilters] = useFollowedProp(normaliseFilters(filtersProp), sameFilters)
  const [rule, setRule] = useFollowedProp(normaliseRule(bigTrade), sameRule)
  const changeFilters = (next: TapeFilters) => {
    if (setFilters(next)) onFiltersChange?.(next)
  }
  const changeRule = (next: BigTradeRule | null) => {
    if (setRule(next)) onBigTradeChange?.(next)
  }

  // Arrival times and trailing averages, per trade, recorded once. Trades already there when the tape opens, or
  // brought by a re-seed (the epoch moved), are not new.
  const [opened, setOpened] = useState<{ epoch: number } | null>(null)
  if (opened === null || opened.epoch !== epoch) setOpened({ epoch })
  if (!recorded.has(trades)) {
    noteArrivals(trades, opened !== null && opened.epoch === epoch)
    recordAverages(trades, averages)
    if (opened !== null) recorded.add(trades)
  }

  // Away from the top: the tape the user was reading when they left it, held still (no row moves under them,
  // none is dropped when the store's cap pushes old trades out, no scroll anchoring per batch), and its newest
  // trade for the "N new" count; null at the top, where the live tape shows.
  const [away, setAway] = useState<{ seen: TradeView | null; held: readonly TradeView[] } | null>(null)
  const listed = away === null ? trades : away.held
  const rows = useMemo(() => tapeRows(listed, filters), [listed, filters])

  const scrollRef = useRef<HTMLDivElement | null>(null)
  // The virtualizer recomputes every row's offset whenever the key function changes: one function per list of
  // rows, not one per render (a render per scrolled range and per batch would re-measure all TAPE_CAP rows).
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows])

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render on purpose
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TAPE_ROW_HEIGHT,
    getItemKey,
    overscan: OVERSCAN,
    observeElementRect: observeRect,
    // At the top new rows push the others down; away from it the list is held, so nothing needs anchoring.
    anchorTo: 'start',
  })

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const atTop = e.currentTarget.scrollTop <= TOP_SLACK
    if (atTop && away !== null) setAway(null)
    else if (!atTop && away === null) {
      const list = useMonitor.getState().trades[market] ?? NO_TRADES
      setAway({ seen: list[list.length - 1] ?? null, held: list })
    }
  }
  const toTop = () => {
    virtualizer.scrollToOffset(0)
    setAway(null)
  }
  const newer = away === null ? 0 : countNewer(trades, away.seen, filters)

  const items = virtualizer.getVirtualItems()
  const first = items[0]
  const shown: TapeRow[] = []
  for (const v of items) {
    const r = rows[v.index]
    if (r) shown.push(r)
  }

  const exportCsv = () => {
    const all = useMonitor.getState().trades[market] ?? NO_TRADES
    downloadCsv(csvFilename('trades', market), tradesCsv(all, marketNamesOf(useEvents.getState().events)))
  }

  return (
    <div className="tape" data-testid="trade-tape" data-market={market}>
      <div className="tape-toolbar">
        <select
          className="tape-side"
          data-testid="tape-filter-side"
          aria-label="Show trades by taker side"
          value={filters.side}
          onChange={(e) =>
            changeFilters({
              ...filters,
              side: normaliseFilters({ side: e.target.value as TapeFilters['side'] }).side,
            })
          }
        >
          <option value="all">All</option>
          <option value="buy">Buys</option>
          <option value="sell">Sells</option>
        </select>
        <PositiveField
          className="tape-min"
          label="≥"
          ariaLabel="Minimum trade size"
          value={filters.minSize}
          onChange={(v) => changeFilters({ ...filters, minSize: v })}
          testId="tape-filter-min-size"
          placeholder="size"
          title="Hide trades smaller than this size"
        />
        <BigTradeControl rule={rule} onChange={changeRule} />
        <span className="tape-tools-end">
          {newer > 0 ? (
            <button
              type="button"
              className="btn tape-new"
              data-testid="tape-new"
              data-count={newer}
              title="Back to the newest trades"
              onClick={toTop}
            >
              {newer} new ↑
            </button>
          ) : null}
          <button
            type="button"
            className="btn ghost"
            data-testid="tape-export"
            title={`Export every trade this window holds for the market (up to ${TAPE_CAP}; filters not applied) as CSV`}
            disabled={trades.length === 0}
            onClick={exportCsv}
          >
            CSV
          </button>
        </span>
      </div>
      <div className="tape-head">
        <span className="c-time">Time</span>
        <span className="c-price">Price</span>
        <span className="c-size">Size</span>
        <span className="c-side">Taker</span>
      </div>
      <div className="tape-body-box">
        <div className="tape-body" ref={scrollRef} onScroll={onScroll} data-testid="tape-scroll">
          {trades.length === 0 ? (
            <div className="empty-note">No trades yet.</div>
          ) : rows.length === 0 ? (
            <div className="empty-note">No trades match the filters.</div>
          ) : null}
          <div className="tape-space" style={{ height: virtualizer.getTotalSize() }}>
            <div className="tape-rows" style={{ transform: `translateY(${first?.start ?? 0}px)` }}>
              {shown.map((r) =>
                r.kind === 'trade' ? (
                  <TradeRow
                    key={r.key}
                    trade={r.trade}
                    big={isBig(r.trade, averages.get(r.trade), rule)}
                    unit={unit}
                  />
                ) : (
                  <GapRow key={r.key} />
                ),
              )}
            </div>
          </div>
        </div>
      </div>
    </div>
  )
}
