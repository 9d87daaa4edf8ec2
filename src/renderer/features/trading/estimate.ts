// What an order would do before it goes, from the book on screen: what it costs in R$ (price × quantity plus the
// taker fee), the position it would leave, and for a market order or a crossing limit the contracts that fill at
// once, at what average price, and how far that is from the touch. Pure: no DOM, no store, unit-tested. Prices
// are VoxFi's ticks (1–99, the order's own outcome) and money is centavos, so nothing here rounds a float.
import type { PositionRow } from '../../../shared/account'
import type { BookView, Level } from '../../../shared/model'
import type { OrderKind, OrderOutcome, OrderSide } from '../../../shared/trading'

/**
 * The taker fee of `quantity` contracts at `ticks`, in centavos: 7% of p × (1 − p) per contract, rounded up to the
 * centavo, as the simulator charges (src/sim/account.ts). VoxFi's docs give no fee rule; the simulator's
 * `shared/voxfi-orders.ts` `takerFeeCents` is to replace this once it lands, so the rule lives in one place.
 */
export function estimatedTakerFeeCents(ticks: number, quantity: number): number {
  return Math.ceil((7 * quantity * ticks * (100 - ticks)) / 10_000)
}

/** One outcome's own book, best first: YES is the book's bids and asks, NO is `book.no` (in NO prices). */
export interface OutcomeBook {
  bids: readonly Level[]
  asks: readonly Level[]
}

/** The outcome's own book; null when the venue keeps no book for it (NO on a venue without a NO book). */
export function outcomeBook(book: BookView | undefined, outcome: OrderOutcome): OutcomeBook | null {
  if (!book) return null
  if (outcome === 'YES') return book
  return book.no ?? null
}

export interface OrderShape {
  side: OrderSide
  outcome: OrderOutcome
  kind: OrderKind
  /** The limit price in ticks; null for a market order. */
  ticks: number | null
  /** Contracts. */
  quantity: number
}

export interface OrderEstimate {
  /** The best price on the side the order takes from (a buy: the best ask), in ticks; null on an empty side. */
  touch: number | null
  /** A market order, or a limit at or through the touch: some of it fills at once. */
  crosses: boolean
  /** Contracts that would fill at once against the book on screen. */
  fillsNow: number
  /** Their average and worst price, in ticks (the average may fall between ticks); null when none fill. */
  avgTicks: number | null
  worstTicks: number | null
  /** How much worse than the touch the average is, in ticks (never negative); null when none fill. */
  slippageTicks: number | null
  /** Contracts of a market order the book on screen cannot fill. */
  shortfall: number
  /** price × quantity in centavos: a limit at its price, a market order at the prices it would fill at. */
  valueCents: number | null
  /** The taker fee on what fills at once (a resting order pays none), in centavos. */
  feeCents: number
  /** What it costs (a buy: value + fee) or pays (a sell: value − fee), in centavos. */
  totalCents: number | null
}

const toTicks = (price: number): number => Math.round(price * 100)

/** An order against the outcome's own book on screen (null: no book yet). */
export function estimateOrder(order: OrderShape, book: OutcomeBook | null): OrderEstimate {
  const levels = book ? (order.side === 'buy' ? book.asks : book.bids) : []
  const first = levels[0]
  const touch = first === undefined ? null : toTicks(first[0])
  // A buy takes asks at or below its limit, a sell bids at or above it; a market order takes whatever is there.
  const reaches = (ticks: number): boolean =>
    order.kind === 'market' ||
    (order.ticks !== null && (order.side === 'buy' ? ticks <= order.ticks : ticks >= order.ticks))
  let left = order.quantity
  let filled = 0
  let paid = 0
  let fee = 0
  let worst: number | null = null
  for (const [price, size] of levels) {
    if (left <= 0) break
    const ticks = toTicks(price)
    if (!reaches(ticks)) break
    const take = Number.isFinite(size) ? Math.min(left, Math.floor(size)) : 0
    if (take <= 0) continue
    filled += take
    paid += take * ticks
    fee += estimatedTakerFeeCents(ticks, take)
    worst = ticks
    left -= take
  }
  const avg = filled > 0 ? paid / filled : null
  const slippage =
    avg === null || touch === null ? null : Math.max(0, order.side === 'buy' ? avg - touch : touch - avg)
  const value = order.kind === 'market' ? (filled > 0 ? paid : null) : (order.ticks ?? 0) * order.quantity
  return {
    touch,
    crosses: filled > 0,
    fillsNow: filled,
    avgTicks: avg,
    worstTicks: worst,
    slippageTicks: slippage,
    shortfall: order.kind === 'market' ? order.quantity - filled : 0,
    valueCents: value,
    feeCents: fee,
    totalCents: value === null ? null : order.side === 'buy' ? value + fee : value - fee,
  }
}

/**
 * Contracts of `outcome` held in `market`. A venue that keeps YES and NO apart (VoxFi) has a row per outcome; a
 * row without one is signed in YES terms, its NO side being a negative size.
 */
export function heldContracts(
  positions: readonly PositionRow[],
  market: string,
  outcome: OrderOutcome,
): number {
  let held = 0
  for (const p of positions) {
    if (p.market !== market) continue
    if (p.outcome !== undefined) {
      if (p.outcome === (outcome === 'YES' ? 'yes' : 'no')) held += p.contracts ?? Math.abs(p.size)
    } else held += Math.max(0, outcome === 'YES' ? p.size : -p.size)
  }
  return held
}

/** The contracts of the order's outcome held after it fills whole (negative: it sells more than is held). */
export function positionAfter(held: number, side: OrderSide, quantity: number): number {
  return side === 'buy' ? held + quantity : held - quantity
}

/** Pairs of YES and NO of one market that a merge would turn into R$1.00 each: min(YES, NO). */
export function mergeablePairs(positions: readonly PositionRow[], market: string): number {
  return Math.min(heldContracts(positions, market, 'YES'), heldContracts(positions, market, 'NO'))
}
