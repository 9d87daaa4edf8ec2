// Positions marked to market. The mark is the live mid when the market's book is live and two-sided, else the
// last trade price (and the reason the mid was not used); unrealised P&L needs the venue's cost basis (its
// average price) and realised P&L is only what the venue sent. Nothing is ever estimated: a number that
// cannot be known is null with the reason, which the account pane shows as "—" with that reason as a tooltip.
// Prices are probabilities (0..1 per share), so P&L is in price units times shares.
import type { PositionRow } from '../../../shared/account'
import type { BookState, BookView, TickerView, TradeView } from '../../../shared/model'
import { quoteOf } from '../../lib/quote'

export type MarkSource = 'mid' | 'last'

/** What a mark is read from; plain values, so a component can select them narrowly from the store. */
export interface PriceInputs {
  /** Best bid and ask of the market's book (the ticker's when there is no book). */
  bid: number | null
  ask: number | null
  /** The state of the book (or ticker) the bid and ask come from; null when there is neither. */
  state: BookState | null
  /** Why a stale book is stale ('gap', 'reconnect', …), as the engine says. */
  staleReason: string | null
  /** The newest trade on the tape, else the ticker's last. */
  last: number | null
}

export interface Mark {
  price: number | null
  source: MarkSource | null
  /** The market's book is live (not stale, resyncing, quiet or empty, and there is one). */
  live: boolean
  /** Why the mark is not a live mid, or why there is none; null for a live mid. */
  reason: string | null
}

/** A number that may be unknown; `reason` says why when `value` is null. */
export interface Known {
  value: number | null
  reason: string | null
}

export interface PositionPnl {
  market: string
  size: number
  avgPrice: number | null
  mark: Mark
  /** mark × size. */
  marketValue: Known
  /** (mark − avgPrice) × size; holds for a short (negative size) too. */
  unrealized: Known
  /** As the venue sent it. */
  realized: Known
}

export interface Total {
  /** Sum of the known values; null when none is known. */
  value: number | null
  known: number
  unknown: number
}

export interface PnlTotals {
  marketValue: Total
  unrealized: Total
  realized: Total
  /** Some position has the venue's average price. */
  anyCostBasis: boolean
}

export const NO_COST_BASIS = 'no cost basis from the venue (it sends no average price for this position)'
export const NO_REALIZED = 'the venue sends no realised P&L for this position'
export const NO_PRICE = 'no live price: no book, ticker or trade for this market yet'

function finite(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

/** The plain inputs of a mark, read the way every pane reads a quote (quoteOf). */
export function priceInputs(
  book: BookView | undefined,
  ticker: TickerView | undefined,
  lastTradePrice: number | undefined,
): PriceInputs {
  const q = quoteOf(book, ticker, lastTradePrice)
  const state = book?.state ?? ticker?.state ?? null
  return {
    bid: finite(q.bid),
    ask: finite(q.ask),
    state,
    staleReason: state === 'stale' ? (book?.staleReason ?? null) : null,
    last: finite(q.last),
  }
}

/** The parts of the window's store a mark is read from. */
export interface PriceSources {
  books: Readonly<Record<string, BookView>>
  tickers: Readonly<Record<string, TickerView>>
  trades: Readonly<Record<string, readonly TradeView[]>>
}

/** A market's mark inputs from the store: plain values, so a selector of them re-renders only on change. */
export function priceInputsIn(s: PriceSources, market: string): PriceInputs {
  const tape = s.trades[market]
  return priceInputs(s.books[market], s.tickers[market], tape?.[tape.length - 1]?.price)
}

function notLive(state: BookState | null, staleReason: string | null): string {
  switch (state) {
    case null:
      return 'no book for this market'
    case 'stale':
      return staleReason ? `book not live (stale: ${staleReason})` : 'book not live (stale)'
    case 'resyncing':
      return 'book not live (resyncing)'
    case 'quiet':
      return 'book not live (quiet: no update for longer than usual)'
    case 'empty':
      return 'book not live (waiting for a snapshot)'
    case 'live':
      return 'book is one-sided: no mid'
  }
}

/**
 * The live mid when the book is live and two-sided, else the last trade price, else nothing (with why).
 * `feedNotLive` is what the badge rule (lib/freshness.ts) says instead of live when the window's feed cannot vouch
 * for a book the engine calls live (the engine lost, the connection down, a replay): the mark is then not live
 * either.
 */
export function markOf(p: PriceInputs, feedNotLive: string | null = null): Mark {
  const live = p.state === 'live' && feedNotLive === null
  if (live && p.bid !== null && p.ask !== null) {
    return { price: (p.bid + p.ask) / 2, source: 'mid', live, reason: null }
  }
  if (p.state === null && p.last === null) return { price: null, source: null, live, reason: NO_PRICE }
  const why =
    p.state === 'live' && feedNotLive !== null
      ? `book not live (${feedNotLive.toLowerCase()})`
      : notLive(p.state, p.staleReason)
  if (p.last !== null)
    return { price: p.last, source: 'last', live, reason: `${why}: marked at the last trade` }
  return { price: null, source: null, live, reason: `${why}, and no trade seen: no price to mark at` }
}

/** A position marked at `mark`: market value, unrealised and realised P&L, each known or explained. */
export function positionPnl(p: PositionRow, mark: Mark): PositionPnl {
  const price = finite(mark.price)
  const avg = finite(p.avgPrice)
  const noMark = mark.reason ?? NO_PRICE
  const realized = finite(p.realizedPnl)
  return {
    market: p.market,
    size: p.size,
    avgPrice: avg,
    mark,
    marketValue: price === null ? { value: null, reason: noMark } : { value: price * p.size, reason: null },
    unrealized:
      avg === null
        ? { value: null, reason: NO_COST_BASIS }
        : price === null
          ? { value: null, reason: noMark }
          : { value: (price - avg) * p.size, reason: null },
    realized: realized === null ? { value: null, reason: NO_REALIZED } : { value: realized, reason: null },
  }
}

function total(values: readonly Known[]): Total {
  let sum = 0
  let known = 0
  for (const v of values) {
    if (v.value === null) continue
    sum += v.value
    known++
  }
  return { value: known === 0 ? null : sum, known, unknown: values.length - known }
}

/** Sums of the known values only; `unknown` counts what is left out (the total is then partial). */
export function totalPnl(rows: readonly PositionPnl[]): PnlTotals {
  return {
    marketValue: total(rows.map((r) => r.marketValue)),
    unrealized: total(rows.map((r) => r.unrealized)),
    realized: total(rows.map((r) => r.realized)),
    anyCostBasis: rows.some((r) => r.avgPrice !== null),
  }
}
