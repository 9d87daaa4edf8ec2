// VoxFi's order vocabulary (docs.voxfi.com.br/playground/trade/place-order, /en/api/orders, /en/api/errors) and the
// taker fee the simulator charges, in one pure module: the simulator takes orders with it and the app's ticket can
// show the same words, codes and fee estimate.

/**
 * How far apart a time VoxFi writes and the app's clock may be for the same moment: the clocks differ, and VoxFi
 * writes times to the second. Used wherever a venue record is placed against the app's own times (an execution
 * against an order's send, or against a dropped connection).
 */
export const VENUE_TIME_SKEW_MS = 2_000

/** The order types Place Order documents with a side ("LIMIT", also on the page, names none: docs/voxfi.md §8). */
export const ORDER_TYPES = [
  'LIMIT_BUY',
  'LIMIT_SELL',
  'MARKET_BUY_QTY',
  'MARKET_BUY_VALUE',
  'MARKET_SELL',
] as const
export type OrderType = (typeof ORDER_TYPES)[number]

export const OUTCOMES = ['YES', 'NO'] as const
export type Outcome = (typeof OUTCOMES)[number]

export type OrderSide = 'BUY' | 'SELL'

/** The order-placement error codes with their meanings as /en/api/errors words them. */
export const PO_CODES = {
  PO1: 'invalid price',
  PO2: 'invalid quantity',
  PO3: 'insufficient balance',
  PO4: 'not enough contracts to sell',
  PO5: 'not enough liquidity in the market',
  PO6: 'order not found',
  PO7: 'user not authorized',
  PO8: 'market closed',
  '-1': 'unexpected error',
} as const satisfies Record<string, string>
export type PoCode = keyof typeof PO_CODES

export function isOrderType(value: unknown): value is OrderType {
  return typeof value === 'string' && (ORDER_TYPES as readonly string[]).includes(value)
}

export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value)
}

export function orderSide(type: OrderType): OrderSide {
  return type === 'LIMIT_SELL' || type === 'MARKET_SELL' ? 'SELL' : 'BUY'
}

/**
 * The taker fee in centavos for `quantity` contracts executed at `priceTicks`: 7% of p(1 − p) reais per contract,
 * rounded up to the centavo, as binary-contract venues charge. VoxFi does not document its fee (a choice,
 * docs/voxfi.md §8); makers pay none.
 */
export function takerFeeCents(priceTicks: number, quantity: number): number {
  if (!Number.isInteger(priceTicks) || priceTicks < 0 || priceTicks > 100) {
    throw new RangeError(`priceTicks must be an integer from 0 to 100, got ${String(priceTicks)}`)
  }
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`quantity must be a non-negative integer, got ${String(quantity)}`)
  }
  return Math.ceil((7 * quantity * priceTicks * (100 - priceTicks)) / 10_000)
}
