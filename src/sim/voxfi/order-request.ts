// What the VoxFi simulator's trade paths accept (docs.voxfi.com.br/playground/trade/place-order, /en/api/orders)
// and how they refuse (/en/api/errors: {"error","error_code"}). The statuses are docs/voxfi.md §8's choices: the
// docs give the codes, not their statuses.
import {
  isOrderType,
  isOutcome,
  PO_CODES,
  type OrderType,
  type Outcome,
  type PoCode,
} from '../../shared/voxfi-orders'

export interface Refusal {
  status: number
  body: { error: string; error_code?: PoCode }
}

const PO_STATUS: Record<PoCode, number> = {
  PO1: 400,
  PO2: 400,
  PO3: 400,
  PO4: 400,
  PO5: 400,
  PO6: 404,
  PO7: 403,
  PO8: 406,
  '-1': 500,
}

/** A PO-coded refusal. PO7 reads "permission denied", as every other path says of a missing permission. */
export function poRefusal(code: PoCode): Refusal {
  return {
    status: PO_STATUS[code],
    body: { error: code === 'PO7' ? 'permission denied' : PO_CODES[code], error_code: code },
  }
}

/** A refusal without a code: the docs' codes cover the values of an order, not the form of the request. */
export const refusal = (status: number, error: string): Refusal => ({ status, body: { error } })

export const INVALID_BODY = refusal(400, 'invalid body')

/** Most contracts one order or merge may name. */
export const MAX_QUANTITY = 1_000_000

interface OrderBase {
  marketId: string
  /** As given; null when absent. Checked against the market by the caller, which knows the market. */
  eventId: unknown
  outcome: Outcome
}

export type OrderRequest =
  | (OrderBase & { type: 'LIMIT_BUY' | 'LIMIT_SELL'; priceTicks: number; quantity: number })
  | (OrderBase & { type: 'MARKET_BUY_QTY' | 'MARKET_SELL'; quantity: number })
  | (OrderBase & { type: 'MARKET_BUY_VALUE'; valueCents: number })

export interface MergeRequest {
  marketId: string
  quantity: number
}

type Parsed<T> = { ok: true; value: T } | { ok: false; refusal: Refusal }
const fail = (r: Refusal): { ok: false; refusal: Refusal } => ({ ok: false, refusal: r })

function fields(body: unknown): Record<string, unknown> | null {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : null
}

function marketIdOf(b: Record<string, unknown>): string | null {
  return typeof b.market_id === 'string' && b.market_id.length > 0 ? b.market_id : null
}

const isQuantity = (x: unknown): x is number =>
  Number.isInteger(x) && (x as number) >= 1 && (x as number) <= MAX_QUANTITY

/**
 * A Place Order body, checked field by field in the order the refusals are listed: the form (400), then the
 * price (PO1) and the quantity (PO2). Fields an order type does not use are ignored, as are unknown fields (the
 * docs' own example sends `value_cents` with a LIMIT_BUY).
 */
export function parseOrderRequest(body: unknown): Parsed<OrderRequest> {
  const b = fields(body)
  if (b === null) return fail(INVALID_BODY)
  const marketId = marketIdOf(b)
  if (marketId === null) return fail(refusal(400, 'market_id is required'))
  const type: unknown = b.order_type
  if (!isOrderType(type)) return fail(refusal(400, 'invalid order_type'))
  if (!isOutcome(b.outcome)) return fail(refusal(400, 'invalid outcome'))
  const base: OrderBase = { marketId, eventId: b.event_id ?? null, outcome: b.outcome }
  const t: OrderType = type
  if (t === 'MARKET_BUY_VALUE') {
    const v = b.value_cents
    if (!Number.isSafeInteger(v) || (v as number) < 1) return fail(poRefusal('PO1'))
    return { ok: true, value: { ...base, type: t, valueCents: v as number } }
  }
  if (t === 'LIMIT_BUY' || t === 'LIMIT_SELL') {
    const p = b.price_ticks
    if (!Number.isInteger(p) || (p as number) < 1 || (p as number) > 99) return fail(poRefusal('PO1'))
    if (!isQuantity(b.quantity)) return fail(poRefusal('PO2'))
    return { ok: true, value: { ...base, type: t, priceTicks: p as number, quantity: b.quantity } }
  }
  if (!isQuantity(b.quantity)) return fail(poRefusal('PO2'))
  return { ok: true, value: { ...base, type: t, quantity: b.quantity } }
}

/** A Merge Contracts body: `market_id` and `quantity`, both required (/en/api/orders). */
export function parseMergeRequest(body: unknown): Parsed<MergeRequest> {
  const b = fields(body)
  if (b === null) return fail(INVALID_BODY)
  const marketId = marketIdOf(b)
  if (marketId === null) return fail(refusal(400, 'market_id is required'))
  if (!isQuantity(b.quantity)) return fail(poRefusal('PO2'))
  return { ok: true, value: { marketId, quantity: b.quantity } }
}
