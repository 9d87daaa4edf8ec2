// Pure logic of the trades tape: filters, the rows shown (newest first, with gap markers), the trailing
// average size each trade is judged against, and the big-trade rule. No DOM here, so all of it is unit-tested.
import type { TradeView } from '../../../shared/model'

export type TapeSide = 'all' | 'buy' | 'sell'

/** One tape's filters: which takers' side, and the smallest size shown (null: any). */
export interface TapeFilters {
  side: TapeSide
  minSize: number | null
}

export const DEFAULT_TAPE_FILTERS: TapeFilters = { side: 'all', minSize: null }

/**
 * Which trades are highlighted as big: at least `minSize` (absolute, this market's units), or at least `relative`
 * times the average size of the AVERAGE_WINDOW trades before it; either or both (a trade meeting either is big).
 * A rule with neither is no rule (null).
 */
export interface BigTradeRule {
  minSize: number | null
  relative: number | null
}

/** How many trades before a trade make the average it is compared with. */
export const AVERAGE_WINDOW = 50

/** A positive finite number from a text input, else null (empty, 0, negative, not a number). */
export function parsePositive(text: string): number | null {
  if (text.trim() === '') return null
  const n = Number(text)
  return Number.isFinite(n) && n > 0 ? n : null
}

const positiveOrNull = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null

/** Filters as given (a persisted value may be partial or damaged), made whole. */
export function normaliseFilters(f: Partial<TapeFilters> | null | undefined): TapeFilters {
  const side = f?.side === 'buy' || f?.side === 'sell' ? f.side : 'all'
  return { side, minSize: positiveOrNull(f?.minSize) }
}

/** A rule as given, made whole; null when it highlights nothing. */
export function normaliseRule(r: Partial<BigTradeRule> | null | undefined): BigTradeRule | null {
  const minSize = positiveOrNull(r?.minSize)
  const relative = positiveOrNull(r?.relative)
  return minSize === null && relative === null ? null : { minSize, relative }
}

export function sameFilters(a: TapeFilters, b: TapeFilters): boolean {
  return a.side === b.side && a.minSize === b.minSize
}

export function sameRule(a: BigTradeRule | null, b: BigTradeRule | null): boolean {
  if (a === null || b === null) return a === b
  return a.minSize === b.minSize && a.relative === b.relative
}

export function passesFilters(t: TradeView, f: TapeFilters): boolean {
  if (f.side !== 'all' && t.side !== f.side) return false
  return f.minSize === null || t.size >= f.minSize
}

export type TapeRow = { kind: 'trade'; key: string; trade: TradeView } | { kind: 'gap'; key: string }

/**
 * The rows of the tape, newest first: the trades that pass the filters, and a gap marker below every trade that
 * came first after a disconnect. The marker stays when that trade itself is filtered out: the gap is real.
 * `trades` is the store's list, oldest first.
 */
export function tapeRows(trades: readonly TradeView[], f: TapeFilters): TapeRow[] {
  const rows: TapeRow[] = []
  for (let i = trades.length - 1; i >= 0; i--) {
    const t = trades[i] as TradeView
    if (passesFilters(t, f)) rows.push({ kind: 'trade', key: t.key, trade: t })
    if (t.gapBefore) rows.push({ kind: 'gap', key: `gap:${t.key}` })
  }
  return rows
}

/**
 * Trades newer than `seen` that pass the filters (the "N new" count while the user is scrolled away from the
 * top). `seen` is the newest trade when the user left the top; null (the tape was empty then) counts them all.
 */
export function countNewer(trades: readonly TradeView[], seen: TradeView | null, f: TapeFilters): number {
  let n = 0
  for (let i = trades.length - 1; i >= 0; i--) {
    const t = trades[i] as TradeView
    if (t === seen) break
    if (passesFilters(t, f)) n++
  }
  return n
}

/**
 * Records in `cache` the average size of the `window` trades before each trade not yet in it (null for a trade
 * with none before it). A trade's average is fixed when it is first seen: a later trim of the capped tape does
 * not change it, so its highlight never flips. One pass over the list; trades already cached are skipped.
 */
export function recordAverages(
  trades: readonly TradeView[],
  cache: WeakMap<TradeView, number | null>,
  window = AVERAGE_WINDOW,
): void {
  let sum = 0
  for (let i = 0; i < trades.length; i++) {
    const t = trades[i] as TradeView
    const n = Math.min(i, window)
    if (!cache.has(t)) cache.set(t, n > 0 ? sum / n : null)
    sum += t.size
    if (i >= window) sum -= (trades[i - window] as TradeView).size
  }
}

/** Whether a trade is big under the rule, given the average size of the trades before it. */
export function isBig(
  trade: TradeView,
  averageBefore: number | null | undefined,
  rule: BigTradeRule | null,
): boolean {
  if (rule === null) return false
  if (rule.minSize !== null && trade.size >= rule.minSize) return true
  return (
    rule.relative !== null &&
    averageBefore !== null &&
    averageBefore !== undefined &&
    averageBefore > 0 &&
    trade.size >= rule.relative * averageBefore
  )
}

/** A rule in a few characters for the toolbar: "≥1,000 · 3×avg". */
export function describeRule(rule: BigTradeRule | null, size: (n: number) => string): string {
  if (rule === null) return 'off'
  const parts: string[] = []
  if (rule.minSize !== null) parts.push(`≥${size(rule.minSize)}`)
  if (rule.relative !== null) parts.push(`${rule.relative}×avg`)
  return parts.join(' · ')
}
