// Which of the venue's executions can be one order's. VoxFi's executions carry no order id (its activity rows and
// `order-info` frames: docs/voxfi.md §8 item 44), so an order is given executions by what they are. One rule, used
// by both places that need it: the reconciliation of an order whose answer was lost (reconcile.ts), and an order
// that left the venue's open list without the app hearing why (service.ts). An execution can be the order's when:
//  - it trades the order's market, outcome and side;
//  - it was made no earlier than shortly before the order was sent (CREATED_SKEW_MS: the clocks differ, and VoxFi
//    writes times to the second);
//  - its price is the order's limit or better (a limit order never trades through its limit: a resting order trades
//    at its own price, an arriving one at the resting orders' prices up to its limit);
//  - its quantity is no more than what is still to be given to the order (one execution is one trade of one order,
//    so it never exceeds the order, and is never split between orders);
//  - no other order was given it, and no other order's answer named it (`namedByOthers`).
// And the executions given to one order must be a story the venue could have told: what it takes on arrival at
// once, and at its own price after (`attribute`). Before this rule, an order that left the list was "filled" by any fill of the
// same market, outcome and side, another order's included (bench:orders counted such orders as mismatched).
import type { OrderOutcome, OrderSide } from '../../../shared/trading'
import { VENUE_TIME_SKEW_MS } from '../../../shared/voxfi-orders'

/** How long before the send a venue record may say it was created and still be this order's. */
export const CREATED_SKEW_MS = VENUE_TIME_SKEW_MS

export interface Execution {
  /** Tells executions of the same content apart, for `taken`. */
  key: string
  market: string
  outcome: OrderOutcome
  side: OrderSide
  priceTicks: number
  quantity: number
  /** When the venue says it was made (ms); null when it does not say. */
  createdAt: number | null
}

export interface Claimant {
  market: string
  outcome: OrderOutcome
  side: OrderSide
  /** The limit; null for a market order (any price). */
  priceTicks: number | null
  quantity: number
  /** When the order was sent (ms). */
  sentAt: number
}

export interface Attribution {
  /** The executions given to the order, oldest first. */
  keys: string[]
  filled: number
  /** Average price of what was given, in ticks; null when nothing was. */
  avgTicks: number | null
}

/** Whether `e` trades what the order asked for, at its limit or better, since it was sent (the quantity aside). */
function couldBe(order: Claimant, e: Execution): boolean {
  if (e.market !== order.market || e.outcome !== order.outcome || e.side !== order.side) return false
  if (e.createdAt !== null && e.createdAt < order.sentAt - CREATED_SKEW_MS) return false
  if (order.priceTicks === null) return true
  return order.side === 'buy' ? e.priceTicks <= order.priceTicks : e.priceTicks >= order.priceTicks
}

/** Orders larger than this are not searched for an exact cover (its cost grows with the quantity). */
const EXACT_COVER_MAX = 10_000

/**
 * How far apart the executions of one arrival may be dated: the venue makes them at once, and VoxFi writes times to
 * the second.
 */
export const ARRIVAL_SPREAD_MS = 1_000
/** How many moments of arrival are tried for one order (each try costs a pass over its candidates). */
const ARRIVALS_TRIED = 16

/**
 * The executions that can be the order's, up to its quantity; `taken` are other orders'. They must be one story the
 * venue could have told: what an order takes on arrival it takes at once, at its limit or better (a market order
 * at any price), and what it trades after, resting, is at its own price. So the executions at a better price than
 * the limit are all from one moment (`ARRIVAL_SPREAD_MS`), and those at the limit are from that moment on. Each such
 * story is tried, the plainest (nothing better than the limit) first, then by arrival, oldest first: its executions
 * oldest first, or any set of them that covers the order exactly where oldest first falls short (an older
 * execution of another order can stand in the way of a later one that completes this one). The first story that
 * covers the order is its; else the one that covers most of it.
 */
export function attribute(
  order: Claimant,
  executions: readonly Execution[],
  taken: ReadonlySet<string>,
): Attribution {
  const candidates = executions
    .filter((e) => !taken.has(e.key) && e.quantity > 0 && couldBe(order, e))
    .sort((a, b) => (a.createdAt ?? Number.POSITIVE_INFINITY) - (b.createdAt ?? Number.POSITIVE_INFINITY))
  let best: Execution[] = []
  let bestFilled = 0
  for (const story of stories(order, candidates)) {
    const chosen = cover(story, order.quantity)
    const filled = chosen.reduce((n, e) => n + e.quantity, 0)
    if (filled > bestFilled) {
      best = chosen
      bestFilled = filled
    }
    if (filled >= order.quantity) break
  }
  let value = 0
  for (const e of best) value += e.quantity * e.priceTicks
  return {
    keys: best.map((e) => e.key),
    filled: bestFilled,
    avgTicks: bestFilled > 0 ? value / bestFilled : null,
  }
}

/** The sets of candidates (oldest first) that could all be the order's, as `attribute` says. */
function stories(order: Claimant, candidates: readonly Execution[]): Execution[][] {
  const atLimit = (e: Execution): boolean => order.priceTicks !== null && e.priceTicks === order.priceTicks
  // An execution the venue gives no time could be from any moment.
  const undated = (e: Execution): boolean => e.createdAt === null
  const out: Execution[][] = []
  if (order.priceTicks !== null) out.push(candidates.filter((e) => atLimit(e) || undated(e)))
  const arrivals = new Set<number>()
  for (const e of candidates) if (!atLimit(e) && e.createdAt !== null) arrivals.add(e.createdAt)
  for (const at of arrivals) {
    // An order arrives soon after it is sent: the oldest moments are tried, and a bounded number of them.
    if (out.length > ARRIVALS_TRIED) break
    out.push(
      candidates.filter((e) => {
        if (e.createdAt === null) return true
        if (atLimit(e)) return e.createdAt >= at - ARRIVAL_SPREAD_MS
        return e.createdAt >= at && e.createdAt <= at + ARRIVAL_SPREAD_MS
      }),
    )
  }
  return out
}

/** Oldest first up to `need`, never splitting one; where that falls short, an exact cover if there is one. */
function cover(candidates: readonly Execution[], need: number): Execution[] {
  const greedy: Execution[] = []
  let filled = 0
  for (const e of candidates) {
    if (filled >= need) break
    if (e.quantity > need - filled) continue
    filled += e.quantity
    greedy.push(e)
  }
  return filled >= need ? greedy : (exactCover(candidates, need) ?? greedy)
}

/** A set of `candidates` whose quantities sum to `need` (preferring older ones), or null (0/1 subset sum). */
function exactCover(candidates: readonly Execution[], need: number): Execution[] | null {
  if (!Number.isInteger(need) || need <= 0 || need > EXACT_COVER_MAX) return null
  // by[s]: the candidate that first reached the sum s, taken after candidates of lower index only.
  const by = new Int32Array(need + 1).fill(-1)
  by[0] = candidates.length
  for (let i = 0; i < candidates.length && by[need] === -1; i++) {
    const q = (candidates[i] as Execution).quantity
    if (!Number.isInteger(q) || q > need) continue
    for (let s = need; s >= q; s--) if (by[s] === -1 && by[s - q] !== -1) by[s] = i
  }
  if (by[need] === -1) return null
  const out: Execution[] = []
  for (let s = need; s > 0;) {
    const e = candidates[by[s] as number] as Execution
    out.push(e)
    s -= e.quantity
  }
  return out.reverse()
}

/** An execution the venue named in its answer to an order: that order's, never another's. */
export interface ClaimedExecution {
  /** The app's id of the order whose answer named it. */
  orderId: string
  market: string
  outcome: OrderOutcome
  side: OrderSide
  priceTicks: number
  quantity: number
  /** When that order was sent (ms). */
  sentAt: number
}

/**
 * Takes into `taken` what each of `owed` is owed of `executions`, in turn (oldest order first), by the same rule:
 * orders the venue has said filled (its open list, its frames) beyond what their answers named, whose rows are
 * somewhere among the executions without a name on them.
 */
export function reserveFor(
  owed: readonly Claimant[],
  executions: readonly Execution[],
  taken: Set<string>,
): void {
  for (const w of owed) for (const k of attribute(w, executions, taken).keys) taken.add(k)
}

/**
 * The executions other orders' answers named, for `attribute`'s `taken`: each claim takes one execution of its
 * content, the earliest made since its order was sent (a later one of the same content may be another order's).
 * `forOrder`'s own claims are left out: what its answer named is its own.
 */
export function namedByOthers(
  executions: readonly Execution[],
  claims: readonly ClaimedExecution[],
  forOrder: string | null,
): Set<string> {
  const taken = new Set<string>()
  for (const c of claims) {
    if (c.orderId === forOrder) continue
    let pick: { key: string; at: number } | null = null
    for (const e of executions) {
      if (taken.has(e.key) || e.market !== c.market || e.outcome !== c.outcome || e.side !== c.side) continue
      if (e.priceTicks !== c.priceTicks || e.quantity !== c.quantity) continue
      const at = e.createdAt ?? Number.POSITIVE_INFINITY
      if (at >= c.sentAt - CREATED_SKEW_MS && (pick === null || at < pick.at)) pick = { key: e.key, at }
    }
    if (pick !== null) taken.add(pick.key)
  }
  return taken
}
