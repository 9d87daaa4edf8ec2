// An order whose answer was lost (a timeout, a dropped connection, a server error) is `unknown`: it may or may not
// have reached the venue. It is never sent again. Instead the venue's own records are read, at 1, 3, 6 and 10 s
// after it was sent: its open orders and its activity (executions). VoxFi's order body has no client order id
// (docs/voxfi.md §8), so an order is recognised by what it asked for: market, outcome, side, price and quantity,
// created no earlier than shortly before it was sent, and not already another order's (its executions by the rule
// of attribution.ts). Found open: it is open (with the venue's id). Found executed: filled (or partly, the rest
// cancelled). Found nowhere by the last read: it was
// not placed. While the venue cannot be read at all, the order stays unknown and the reads go on.
import type { OrderOutcome, OrderSide, OrderState, OrderView } from '../../../shared/trading'
import { listOf, normaliseTime, pickNum, pickStr } from '../../../shared/account'
import type { Result } from '../../../shared/model'
import { activitySince } from '../account/activity-pages'
import { ACCOUNT_PATHS } from '../account/rest-reader'
import type { Logger } from '../base/types'
import {
  attribute,
  CREATED_SKEW_MS,
  namedByOthers,
  reserveFor,
  type Claimant,
  type ClaimedExecution,
  type Execution,
} from './attribution'

/** When the reads are made, after the order was sent (ms). */
export const RECONCILE_AT_MS = [1_000, 3_000, 6_000, 10_000] as const
const LAST_READ_S = 10
/** While the venue cannot be read, it is asked again this often, this many times (ten minutes). */
const UNREACHABLE_EVERY_MS = 10_000
const UNREACHABLE_TRIES = 60

export interface VenueOpenOrder {
  venueId: string
  market: string
  side: OrderSide
  outcome: OrderOutcome
  priceTicks: number | null
  quantity: number
  filled: number
  createdAt: number | null
}

export interface VenueFill {
  market: string
  side: OrderSide
  outcome: OrderOutcome
  priceTicks: number
  quantity: number
  createdAt: number | null
}

export interface VenueReads {
  /** Null when the venue could not be read. */
  openOrders(): Promise<VenueOpenOrder[] | null>
  /**
   * The market's executions made since `since` (ms) and somewhat before, newest first; null when the venue could not
   * be read, or ACTIVITY_PAGES pages did not reach back to `since`.
   */
  activity(market: string, since: number): Promise<VenueFill[] | null>
}

/** Why an unknown order stays unknown once its reconciliation is over (the blotter's reason, the journal's). */
export const CANNOT_TELL =
  'the venue’s activity has executions that are this order’s or another of yours: look for it on VoxFi’s site'

/** How many activity pages one look reads at most. */
const ACTIVITY_PAGES = 4

export interface Settlement {
  state: OrderState
  venueId: string | null
  filled: number
  avgTicks: number | null
  reason: string
}

function sideOf(v: string | null): OrderSide | null {
  const s = v?.toUpperCase()
  return s === 'BUY' ? 'buy' : s === 'SELL' ? 'sell' : null
}

function outcomeOf(v: string | null): OrderOutcome {
  return v !== null && v.toUpperCase() === 'NO' ? 'NO' : 'YES'
}

/** The venue's open orders and a market's recent activity, read with the account's paths. */
export function venueReads(
  venue: { get(path: string, apiKey: string): Promise<Result<unknown>> },
  key: string,
): VenueReads {
  return {
    async openOrders() {
      const r = await venue.get(ACCOUNT_PATHS.orders, key)
      if (!r.ok) return null
      const out: VenueOpenOrder[] = []
      for (const o of listOf(r.value, ['orders'])) {
        const venueId = pickStr(o, ['id', 'order_id', 'orderId'])
        const market = pickStr(o, ['market_id', 'market', 'marketId'])
        const side = sideOf(pickStr(o, ['side']))
        const quantity = pickNum(o, ['quantity', 'wanted', 'size'])
        if (venueId === null || market === null || side === null || quantity === null) continue
        out.push({
          venueId,
          market,
          side,
          outcome: outcomeOf(pickStr(o, ['outcome', 'contract_type'])),
          priceTicks: pickNum(o, ['price_ticks', 'price']),
          quantity,
          filled: pickNum(o, ['filled_quantity', 'filled']) ?? 0,
          createdAt: normaliseTime(o.created_at),
        })
      }
      return out
    },
    async activity(market, since) {
      const read = await activitySince(
        async (path) => {
          const r = await venue.get(path, key)
          return r.ok ? r.value : undefined
        },
        since,
        ACTIVITY_PAGES,
        market,
      )
      // Pages of newer executions that never reached back to the send could be missing the order's own: that is no
      // answer, never "not placed".
      if (read === undefined || !read.complete) return null
      const out: VenueFill[] = []
      for (const a of read.rows) {
        const rowMarket = pickStr(a, ['market_id', 'market', 'marketId'])
        const side = sideOf(pickStr(a, ['side']))
        const priceTicks = pickNum(a, ['price_ticks', 'price'])
        const quantity = pickNum(a, ['quantity', 'qty_contracts'])
        if (rowMarket === null || side === null || priceTicks === null || quantity === null) continue
        out.push({
          market: rowMarket,
          side,
          outcome: outcomeOf(pickStr(a, ['contract_type', 'outcome'])),
          priceTicks,
          quantity,
          createdAt: normaliseTime(a.created_at),
        })
      }
      return out
    },
  }
}

export interface ReconcilerDeps {
  log: Logger
  now(): number
  reads(): Promise<VenueReads | null>
  sleep(ms: number): Promise<void>
  settled(order: OrderView, settlement: Settlement): void
  /** Venue order ids other orders already are. */
  claimed(): Set<string>
  /** Executions other orders' answers named. */
  claimedExecutions(): ClaimedExecution[]
  /** What other orders, whose fills the app learned of from `since` on, are owed of the executions. */
  owed(order: OrderView, since: number): Claimant[]
  /** The records cannot tell whether executions are this order's or another's: it stays unknown, saying why. */
  doubtful(order: OrderView, reason: string): void
}

export class Reconciler {
  /** Executions already given to a reconciled order (they carry no id, so they are told apart by content). */
  private readonly usedFills = new Set<string>()

  constructor(private readonly d: ReconcilerDeps) {}

  watch(order: OrderView, sentAt: number): void {
    void this.run(order, sentAt).catch((e: unknown) =>
      this.d.log.error('orders: reconciling failed', { order: order.id, error: String(e).slice(0, 200) }),
    )
  }

  private async run(order: OrderView, sentAt: number): Promise<void> {
    let waited = 0
    let unreachable = 0
    for (let i = 0; ; i++) {
      const at = i < RECONCILE_AT_MS.length ? (RECONCILE_AT_MS[i] as number) : waited + UNREACHABLE_EVERY_MS
      await this.d.sleep(Math.max(0, at - waited))
      waited = at
      const last = i >= RECONCILE_AT_MS.length - 1
      const found = await this.look(order, sentAt, last)
      if (found === 'settled') return
      if (found === 'unreachable') {
        unreachable++
        if (i >= RECONCILE_AT_MS.length && unreachable >= UNREACHABLE_TRIES) {
          this.d.log.warn('orders: an unknown order could not be checked', { order: order.id })
          return
        }
      } else if (last) return
    }
  }

  /** One look at the venue's records; settles the order when they say what became of it. */
  private async look(
    order: OrderView,
    sentAt: number,
    last: boolean,
  ): Promise<'settled' | 'unsure' | 'unreachable'> {
    const reads = await this.d.reads()
    if (reads === null) return 'unreachable'
    const open = await reads.openOrders()
    const since = sentAt - CREATED_SKEW_MS
    const fills = await reads.activity(order.market, since)
    if (open === null || fills === null) return 'unreachable'
    const claimed = this.d.claimed()
    const match = open
      .filter(
        (v) =>
          v.market === order.market &&
          v.outcome === order.outcome &&
          v.side === order.side &&
          (order.priceTicks === null || v.priceTicks === order.priceTicks) &&
          v.quantity === order.quantity &&
          !claimed.has(v.venueId) &&
          (v.createdAt === null || v.createdAt >= since),
      )
      .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0))[0]
    if (match !== undefined) {
      this.d.settled(order, {
        state: match.filled > 0 ? 'partially_filled' : 'open',
        venueId: match.venueId,
        filled: match.filled,
        avgTicks: null,
        reason: 'found among the venue’s open orders after its answer was lost',
      })
      return 'settled'
    }
    const seen = new Map<string, number>()
    const rows: Execution[] = fills.map((f) => {
      const base = `${f.market}|${f.outcome}|${f.side}|${f.priceTicks}|${f.quantity}|${f.createdAt ?? ''}`
      const n = (seen.get(base) ?? 0) + 1
      seen.set(base, n)
      return { ...f, key: `${base}#${n}` }
    })
    // Rows another order's answer named are that order's.
    const taken = namedByOthers(rows, this.d.claimedExecutions(), order.id)
    for (const k of this.usedFills) taken.add(k)
    const plain = attribute({ ...order, sentAt }, rows, taken)
    // Read again with what the app's other orders are owed set aside: where the two readings differ, the same
    // executions can be this order's or one of theirs, and neither "filled" nor "not placed" can be vouched for.
    const reserved = new Set(taken)
    reserveFor(this.d.owed(order, since), rows, reserved)
    const { keys, filled, avgTicks } = attribute({ ...order, sentAt }, rows, reserved)
    if (filled !== plain.filled) {
      if (!last) return 'unsure'
      this.d.doubtful(order, CANNOT_TELL)
      return 'settled'
    }
    if (filled > 0 && (filled >= order.quantity || last)) {
      for (const k of keys) this.usedFills.add(k)
      this.d.settled(order, {
        state: filled >= order.quantity ? 'filled' : 'cancelled',
        venueId: null,
        filled,
        avgTicks,
        reason:
          filled >= order.quantity
            ? 'found executed in the venue’s activity after its answer was lost'
            : `${filled} of ${order.quantity} found executed in the venue’s activity; the rest is not open`,
      })
      return 'settled'
    }
    if (!last) return 'unsure'
    this.d.settled(order, {
      state: 'rejected',
      venueId: null,
      filled: 0,
      avgTicks: null,
      reason: `not placed: the venue’s open orders and activity show no such order ${LAST_READ_S} s after it was sent`,
    })
    return 'settled'
  }
}
