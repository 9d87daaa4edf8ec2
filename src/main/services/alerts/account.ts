// The account as the order, position and balance rules read it: an order reaching filled, partly filled or
// cancelled, a position opened or closed, a wallet balance, and which rules that fires. The rows are the engine's
// one account's (account/model.ts): each record's change arrives here as the model folded it, so the rules never
// fold a second copy. What is kept here is the rules' own memory (bounded): which news was already told for an
// order, so that a repeated or replayed update is never news twice; and what arrives just after a (re)connect is
// the baseline it is, not news.
import type { OrderAlertStatus, PositionChange } from '../../../shared/alerts'
import type { AccountChange, BalanceRow, OrderRow, PositionRow } from '../../../shared/account'
import { price, words, type Words } from '../../../shared/alert-text'
import { fmtNum, observeCondition, observeEvent, type Firing, type RuleRuntime } from './rules'

export type AccountNews =
  | { kind: 'order'; status: OrderAlertStatus; order: OrderRow }
  | { kind: 'position'; change: PositionChange; position: PositionRow; before: number }

export interface AccountReading {
  news: AccountNews[]
  /** Balance rows this update carried (every one, news or not: balance rules are conditions). */
  balances: BalanceRow[]
}

/** How long after a (re)connect the user channel's snapshot may keep arriving. */
export const BASELINE_MS = 3000
export const TRACKED_CAP = 5000

/** Venue words for an order that is done without (fully) filling. Expired and rejected orders are gone too. */
const CANCELLED = new Set(['canceled', 'cancelled', 'cancel', 'killed', 'expired', 'rejected'])
const FILLED = new Set(['filled', 'matched', 'executed', 'complete', 'completed'])

interface TrackedOrder {
  /** Highest fill seen: a partial fill is news only above it, so a late or repeated update is not. */
  maxFilled: number
  filledSent: boolean
  cancelledSent: boolean
}

export function orderIsFilled(row: OrderRow): boolean {
  if (row.status !== null && FILLED.has(row.status)) return true
  return row.size !== null && row.size > 0 && row.filled !== null && row.filled >= row.size
}

export function orderIsCancelled(row: OrderRow): boolean {
  return row.status !== null && CANCELLED.has(row.status)
}

export class AccountWatch {
  private readonly orders = new Map<string, TrackedOrder>()
  /** Before the first connect after a reset, everything is baseline. */
  private awaitingConnect = true
  private baselineUntil = 0

  constructor(
    private readonly cap = TRACKED_CAP,
    private readonly baselineMs = BASELINE_MS,
  ) {}

  connected(now: number): void {
    this.awaitingConnect = false
    this.baselineUntil = now + this.baselineMs
  }

  /** The user channel is (re)subscribed now: its snapshot follows. */
  extendBaseline(now: number): void {
    this.baselineUntil = Math.max(this.baselineUntil, now + this.baselineMs)
  }

  inBaseline(now: number): boolean {
    return this.awaitingConnect || now < this.baselineUntil
  }

  reset(): void {
    this.orders.clear()
    this.awaitingConnect = true
    this.baselineUntil = 0
  }

  /** What one update changed in the account (the model's changes, in order): the news and balances in it. */
  read(changes: readonly AccountChange[], now: number): AccountReading {
    const out: AccountReading = { news: [], balances: [] }
    const baseline = this.inBaseline(now)
    for (const c of changes) {
      if (c.kind === 'order') this.order(c.after, c.before, baseline, out.news)
      else if (c.kind === 'position') this.position(c.before, c.after, baseline, out.news)
      else if (c.kind === 'balance') out.balances.push(c.row)
    }
    return out
  }

  private order(row: OrderRow, before: OrderRow | undefined, baseline: boolean, news: AccountNews[]): void {
    const prev = this.orders.get(row.id)
    const filled = orderIsFilled(row)
    const cancelled = orderIsCancelled(row)
    const amount = row.filled ?? 0
    const t: TrackedOrder = prev ?? {
      maxFilled: before?.filled ?? 0,
      filledSent: false,
      cancelledSent: false,
    }
    if (prev === undefined && before === undefined && baseline) {
      // A first sight during the baseline is the account as it already was.
      t.maxFilled = amount
      t.filledSent = filled
      t.cancelledSent = cancelled
    } else {
      if (filled && !t.filledSent) {
        t.filledSent = true
        news.push({ kind: 'order', status: 'filled', order: row })
      } else if (!filled && amount > t.maxFilled && !t.filledSent) {
        news.push({ kind: 'order', status: 'partially-filled', order: row })
      }
      if (cancelled && !filled && !t.cancelledSent) {
        t.cancelledSent = true
        news.push({ kind: 'order', status: 'cancelled', order: row })
      }
      if (amount > t.maxFilled) t.maxFilled = amount
    }
    this.touch(this.orders, row.id, t)
  }

  /**
   * opened: from none to some; closed: from some to none. A flip from long to short closes one position and
   * opens the other, so it is both.
   */
  private position(
    prev: PositionRow | undefined,
    row: PositionRow,
    baseline: boolean,
    news: AccountNews[],
  ): void {
    if (prev === undefined && baseline) return
    const b = prev?.size ?? 0
    if (b !== 0 && (row.size === 0 || Math.sign(row.size) !== Math.sign(b))) {
      news.push({ kind: 'position', change: 'closed', position: row, before: b })
    }
    if (row.size !== 0 && (b === 0 || Math.sign(row.size) !== Math.sign(b))) {
      news.push({ kind: 'position', change: 'opened', position: row, before: b })
    }
  }

  /** Newest last, so the oldest entry is the one dropped past the cap. */
  private touch<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key)
    map.set(key, value)
    if (map.size > this.cap) {
      const oldest = map.keys().next()
      if (oldest.done !== true) map.delete(oldest.value)
    }
  }
}

// ------------------------------------------------------------------ which rules fire, and what they say

/** Order and position news against the order/position rules (market null = any market). */
export function judgeNews(
  rules: readonly RuleRuntime[],
  news: AccountNews,
  now: number,
  paused: boolean,
  named: (market: string) => { market: string; name: string },
  fire: (rt: RuleRuntime, firing: Firing) => void,
): void {
  for (const rt of rules) {
    const c = rt.rule.condition
    const fits =
      news.kind === 'order'
        ? c.kind === 'order' &&
          c.status === news.status &&
          (c.market === null || c.market === news.order.market)
        : c.kind === 'position' &&
          c.change === news.change &&
          (c.market === null || c.market === news.position.market)
    if (fits && observeEvent(rt, now, paused)) fire(rt, newsText(news, named))
  }
}

function newsText(news: AccountNews, named: (market: string) => { market: string; name: string }): Firing {
  if (news.kind === 'order') {
    const o = news.order
    const parts: Words[] = []
    if (o.side !== null || o.size !== null || o.price !== null) {
      const size = o.size !== null ? fmtNum(o.size) : '?'
      const head = o.side !== null ? `${o.side} ${size}` : size
      parts.push(o.price !== null ? words`${head} @ ${price(o.price)}` : [head])
    }
    if (o.filled !== null)
      parts.push([`filled ${fmtNum(o.filled)}${o.size !== null ? `/${fmtNum(o.size)}` : ''}`])
    if (o.status !== null) parts.push([o.status])
    parts.push([`order ${o.id}`])
    return {
      title: words`${o.market !== null ? named(o.market) : 'Account'} — order ${news.status.replace('-', ' ')}`,
      detail: parts.flatMap((p, i) => (i === 0 ? p : [' · ', ...p])),
      value: news.status === 'cancelled' ? null : o.filled,
      market: o.market,
    }
  }
  const p = news.position
  const avg = p.avgPrice !== null ? words` @ avg ${price(p.avgPrice)}` : []
  return {
    title: words`${named(p.market)} — position ${news.change}`,
    detail:
      news.change === 'opened'
        ? [`size ${fmtNum(p.size)}`, ...avg, news.before !== 0 ? ` (was ${fmtNum(news.before)})` : '']
        : [`was ${fmtNum(news.before)}, now ${fmtNum(p.size)}`],
    value: p.size,
    market: p.market,
  }
}

/**
 * A balance against the balance-below rules: a condition, so it fires on first sight too (a balance already
 * low when the app starts is worth knowing), and re-arms once the balance is back at the level plus the
 * hysteresis. The total counts; a venue that sends only the available amount is read by that.
 */
export function judgeBalance(
  rules: readonly RuleRuntime[],
  row: BalanceRow,
  now: number,
  paused: boolean,
  fire: (rt: RuleRuntime, firing: Firing) => void,
): void {
  const amount = row.total ?? row.available
  if (amount === null) return
  for (const rt of rules) {
    const c = rt.rule.condition
    if (c.kind !== 'balance-below' || (c.currency !== null && c.currency !== row.currency)) continue
    const holds = amount < c.value
    const rearm = amount >= c.value + rt.rule.hysteresis
    if (!observeCondition(rt, row.currency, holds, rearm, now, paused)) continue
    const available =
      row.total !== null && row.available !== null ? ` (available ${fmtNum(row.available)})` : ''
    fire(rt, {
      title: [`${row.currency} balance below ${fmtNum(c.value)}`],
      detail: [`balance ${fmtNum(amount)}${available}`],
      value: amount,
      market: null,
    })
  }
}
