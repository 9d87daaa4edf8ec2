// What an order would do before it goes, from the book on screen: what it costs in R$ (price × quantity plus the
// taker fee), the position it would leave, and for a market order or a crossing limit the contracts that fill at
// once, at what average price, and how far that is from the touch. Pure: no DOM, no store, unit-tested. Prices
// are VoxFi's ticks (1–99, the order's own outcome) and money is centavos, so nothing here rounds a float.
import type { PositionRow } from '../../../shared/account'
import type { BookView, Level } from '../../../shared/model'
import { estimateOrder as walkBook } from '../../../shared/order-estimate'
import type { OrderKind, OrderOutcome, OrderSide } from '../../../shared/trading'
import { takerFeeCents } from '../../../shared/voxfi-orders'

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

/**
 * An order against the outcome's own book on screen (null: no book yet), by the rule the engine's limits read
 * (shared/order-estimate.ts) and the fee the simulator charges (shared/voxfi-orders.ts takerFeeCents).
 */
export function estimateOrder(order: OrderShape, book: OutcomeBook | null): OrderEstimate {
  const e = walkBook(
    { side: order.side, kind: order.kind, priceTicks: order.ticks, quantity: order.quantity },
    book,
    takerFeeCents,
  )
  const feeCents = Math.round(e.fee * 100)
  // A market order is worth what fills of it; a limit what fills plus what rests at its price.
  const valueCents = order.kind === 'market' && e.fills === 0 ? null : Math.round(e.value * 100)
  return {
    touch: e.touchTicks,
    crosses: e.fills > 0,
    fillsNow: e.fills,
    avgTicks: e.avgTicks,
    worstTicks: e.worstTicks,
    slippageTicks: e.slippageTicks,
    shortfall: order.kind === 'market' ? order.quantity - e.fills : 0,
    valueCents,
    feeCents,
    totalCents:
      valueCents === null ? null : order.side === 'buy' ? valueCents + feeCents : valueCents - feeCents,
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
