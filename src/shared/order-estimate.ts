// What an order would do against the book on screen, before it goes (docs/trading.md): the average price it would
// fill at and its slippage from the touch, whether a limit crosses, and what it costs. One rule for the ticket (which
// shows it) and the engine (whose money limit and fat-finger check read it). Books are the order's own outcome's
// (YES: the book's bids and asks; NO: its NO book), as VoxFi keeps them apart: the app does not assume the venue
// matches a YES order against NO quotes (docs/voxfi.md §8).
import type { Level } from './model'
import type { OrderKind, OrderSide } from './trading'

export interface EstimateInput {
  side: OrderSide
  kind: OrderKind
  /** Limit price in ticks of the order's outcome; null for a market order. */
  priceTicks: number | null
  quantity: number
}

export interface OrderEstimate {
  /** The touch the order meets: the best ask for a buy, the best bid for a sell (ticks); null on an empty side. */
  touchTicks: number | null
  /** Contracts that would fill on arrival against the book. */
  fills: number
  /** Their volume-weighted price (ticks); null when none would fill. */
  avgTicks: number | null
  /** The worst level reached (ticks); null when none. */
  worstTicks: number | null
  /** How much worse than the touch the average is, in ticks (≥ 0); null when none would fill. */
  slippageTicks: number | null
  /** A limit order priced at or through the touch: it executes at least partly on arrival. */
  crosses: boolean
  /** The order's value in the account's money (R$): what it would fill at, plus what rests at its limit. */
  value: number
  /** The estimated fee in R$: the taker fee on what fills on arrival (makers pay none). */
  fee: number
}

/** Ticks from a 0–1 price, exact for the whole ticks venues quote. */
export function toTicks(price: number): number {
  return Math.round(price * 100)
}

/**
 * `levels`: the outcome's book, best first (bids descending, asks ascending), prices 0–1; null when none is known.
 * `feeCents`: the taker fee in centavos for a quantity at a price in ticks.
 */
export function estimateOrder(
  order: EstimateInput,
  levels: { bids: readonly Level[]; asks: readonly Level[] } | null,
  feeCents: (priceTicks: number, quantity: number) => number,
): OrderEstimate {
  const buy = order.side === 'buy'
  const side = levels === null ? [] : buy ? levels.asks : levels.bids
  const first = side[0]
  const touchTicks = first === undefined ? null : toTicks(first[0])
  const limit = order.kind === 'limit' ? order.priceTicks : null
  let left = order.quantity
  let fills = 0
  let paid = 0
  let worstTicks: number | null = null
  let fee = 0
  for (const [price, size] of side) {
    if (left <= 0) break
    const ticks = toTicks(price)
    // A limit takes only levels at or better than its price.
    if (limit !== null && (buy ? ticks > limit : ticks < limit)) break
    const q = Math.min(left, Math.max(0, Math.floor(size)))
    if (q <= 0) continue
    fills += q
    paid += ticks * q
    fee += feeCents(ticks, q)
    worstTicks = ticks
    left -= q
  }
  const avgTicks = fills > 0 ? paid / fills : null
  // What rests of a limit order is valued at its limit; a market order's rest is cancelled by the venue.
  const restingValue = limit !== null ? limit * left : 0
  return {
    touchTicks,
    fills,
    avgTicks,
    worstTicks,
    slippageTicks:
      avgTicks === null || touchTicks === null
        ? null
        : Math.max(0, buy ? avgTicks - touchTicks : touchTicks - avgTicks),
    crosses: limit !== null && touchTicks !== null && (buy ? limit >= touchTicks : limit <= touchTicks),
    value: (paid + restingValue) / 100,
    fee: fee / 100,
  }
}
