// How an order arriving at the VoxFi simulator meets the book: the resting orders of one side in price then time
// priority (the simulator's makers at a level before the account's own), walked up to the order's limit price,
// its quantity, or what its value can pay for including the taker fee. Pure: the caller applies the plan.
import { takerFeeCents, type OrderSide } from '../../shared/voxfi-orders'
import type { Level } from './books'
import { mix } from './ids'

/** One resting order a taker can meet. `own` is the account's own order, null for the simulator's makers. */
export interface QueueEntry<O> {
  tick: number
  qty: number
  makerId: string
  own: O | null
}

/** One execution of the plan: `qty` of `entry` at its price, and the taker's fee for it. */
export interface Take<O> {
  entry: QueueEntry<O>
  qty: number
  feeCents: number
}

export interface TakeLimits {
  /** The worst price the taker accepts (limit orders); null for market orders. */
  limitTick: number | null
  /** Contracts at most; null for MARKET_BUY_VALUE. */
  maxQty: number | null
  /** Centavos at most, notional and fees together (MARKET_BUY_VALUE); null otherwise. */
  maxCents: number | null
}

/**
 * The simulator's makers at one level, oldest first: its `order_count` orders share its quantity (the first ones
 * one contract more where it does not divide), each owned by one of `users`, the same ones for the same level.
 */
export function makerQueue<O>(level: Level, users: readonly string[], salt: number): QueueEntry<O>[] {
  const k = Math.max(1, Math.min(level.order_count, level.quantity))
  const base = Math.floor(level.quantity / k)
  const extra = level.quantity % k
  return Array.from({ length: k }, (_, j) => ({
    tick: level.price_ticks,
    qty: base + (j < extra ? 1 : 0),
    makerId: users[mix(salt, level.price_ticks, level.quantity, j) % users.length] as string,
    own: null,
  }))
}

/** What `qty` contracts at `tick` cost a taker, fee included. */
const cost = (tick: number, qty: number): number => qty * tick + takerFeeCents(tick, qty)

/** The most contracts at `tick` that `cents` pays for, fee included, up to `most`. */
function affordable(tick: number, cents: number, most: number): number {
  const perContract = tick + (7 * tick * (100 - tick)) / 10_000
  let n = Math.min(most, Math.floor(cents / perContract))
  // The fee is rounded up once per execution: the estimate above is at most one off either way.
  while (n > 0 && cost(tick, n) > cents) n--
  while (n < most && cost(tick, n + 1) <= cents) n++
  return n
}

/** Walk `queue` (best price first, then oldest) as a taker on `side` within `limits`. */
export function planTake<O>(queue: readonly QueueEntry<O>[], side: OrderSide, limits: TakeLimits): Take<O>[] {
  const out: Take<O>[] = []
  let qtyLeft = limits.maxQty ?? Number.POSITIVE_INFINITY
  let centsLeft = limits.maxCents ?? Number.POSITIVE_INFINITY
  for (const entry of queue) {
    if (qtyLeft <= 0) break
    const limit = limits.limitTick
    if (limit !== null && (side === 'BUY' ? entry.tick > limit : entry.tick < limit)) break
    let qty = Math.min(entry.qty, qtyLeft)
    if (limits.maxCents !== null) qty = affordable(entry.tick, centsLeft, qty)
    if (qty <= 0) break
    const feeCents = takerFeeCents(entry.tick, qty)
    out.push({ entry, qty, feeCents })
    qtyLeft -= qty
    centsLeft -= qty * entry.tick + feeCents
  }
  return out
}
