// The accounting of phase `faults`: every intent the bench sent, matched with what the venue did (its trade log and
// its open orders, read with the bench's own key) and with what the app says became of it (the newest view of the
// order). Nothing here asks the engine how it matched things: the venue's log is matched to intents by the body,
// and each intent has a market, outcome, price and quantity no other intent has.
import type { OrderLogEntry } from '../../src/sim/index'
import { CANNOT_TELL } from '../../src/main/services'
import type { OrderView } from '../../src/shared/trading'

export interface Intent {
  intentId: string
  market: string
  outcome: 'YES' | 'NO'
  priceTicks: number
  quantity: number
  /** Rests below the touch, or crosses it (a limit buy at the ask). */
  kind: 'resting' | 'marketable'
  /** The app's order id, from the answer or the error; null when the app refused it before sending. */
  orderId: string | null
}

/** One row of the venue's open orders (GET /v1/data/orders, docs/voxfi.md §8 item 13). */
export interface OpenRow {
  id: string
  market_id: string
  outcome: string
  side: string
  price_ticks: number
  quantity: number
  filled_quantity: number
}

export type Verdict =
  | 'ok'
  /** The venue received more than one POST for the intent. */
  | 'duplicate'
  /** Still pending or unknown in the app once reconciliation was over. */
  | 'unknown'
  /** Unknown in the app, its reconciliation over, saying the venue's records cannot tell (CANNOT_TELL). */
  | 'cannot tell'
  /** The app's final state does not say what the venue did (the details say how). */
  | 'mismatch'
  /** No order in the app for an intent the venue executed. */
  | 'lost'

export interface Judged {
  intent: Intent
  posts: number
  executed: boolean
  /** What the venue did: `open <id> filled n`, `filled`, or `not executed`. */
  venue: string
  /** The venue's id of the order while it rests there. */
  restingId: string | null
  /** What the app says: its state, venue id and filled count. */
  app: string
  verdict: Verdict
  /**
   * The app's state says what the venue did, but its filled count differs from the venue's (an order the app calls
   * filled with fewer contracts filled, or an open one whose partial fill it has not counted).
   */
  filledCountOff: boolean
}

export const intentKey = (market: string, outcome: string, priceTicks: number, quantity: number): string =>
  `${market}|${outcome.toUpperCase()}|${priceTicks}|${quantity}`

function bodyKey(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  const b = body as Record<string, unknown>
  if (typeof b.market_id !== 'string' || typeof b.outcome !== 'string') return null
  if (typeof b.price_ticks !== 'number' || typeof b.quantity !== 'number') return null
  return intentKey(b.market_id, b.outcome, b.price_ticks, b.quantity)
}

const restingId = (answer: unknown): string | null => {
  if (typeof answer !== 'object' || answer === null) return null
  const id = (answer as Record<string, unknown>).resting_order_id
  return typeof id === 'string' ? id : null
}

/**
 * Judges each intent. `log`: the venue's trade log since the intents were sent; `open`: its open orders after the
 * market was frozen (nothing is cancelled during a round, so an executed limit order that no longer rests filled);
 * `orders`: the app's newest view of each order. Returns the verdicts and the POSTs that match no intent.
 */
export function judge(
  intents: readonly Intent[],
  log: readonly OrderLogEntry[],
  open: readonly OpenRow[],
  orders: ReadonlyMap<string, OrderView>,
): { judged: Judged[]; strayPosts: number } {
  const posts = new Map<string, OrderLogEntry[]>()
  let strayPosts = 0
  const byKey = new Map(intents.map((i) => [intentKey(i.market, i.outcome, i.priceTicks, i.quantity), i]))
  for (const e of log) {
    if (e.method !== 'POST' || e.path !== '/v1/trade/order') continue
    const key = bodyKey(e.body)
    if (key === null || !byKey.has(key)) {
      strayPosts++
      continue
    }
    posts.set(key, [...(posts.get(key) ?? []), e])
  }
  // Rows named by an answer are those orders'; the others are matched by what they asked for.
  const answered = new Set<string>()
  for (const list of posts.values())
    for (const e of list) if (restingId(e.answer) !== null) answered.add(restingId(e.answer) as string)
  const byContent = new Map<string, OpenRow>()
  for (const r of open) {
    if (answered.has(r.id) || r.side !== 'BUY') continue
    byContent.set(intentKey(r.market_id, r.outcome, r.price_ticks, r.quantity), r)
  }
  const openById = new Map(open.map((r) => [r.id, r]))
  const judged: Judged[] = []
  for (const intent of intents) {
    const key = intentKey(intent.market, intent.outcome, intent.priceTicks, intent.quantity)
    const mine = posts.get(key) ?? []
    const executed = mine.some((e) => e.executed)
    const order = intent.orderId === null ? undefined : orders.get(intent.orderId)
    const app =
      order === undefined
        ? intent.orderId === null
          ? 'refused before sending'
          : 'no such order'
        : `${order.state} venueId ${order.venueId ?? '-'} filled ${order.filled}`
    let venue = 'not executed'
    let verdict: Verdict = 'ok'
    let filledCountOff = false
    let row: OpenRow | undefined
    if (executed) {
      const id = mine.map((e) => restingId(e.answer)).find((x) => x !== null) ?? null
      row = id !== null ? openById.get(id) : byContent.get(key)
      venue = row !== undefined ? `open ${row.id} filled ${row.filled_quantity}` : 'filled'
      if (order === undefined) verdict = 'lost'
      else if (row !== undefined) {
        // Still resting: the app must have it working, under the venue's id.
        const working = order.state === 'open' || order.state === 'partially_filled'
        verdict = working && order.venueId === row.id ? 'ok' : 'mismatch'
        filledCountOff = working && order.filled !== row.filled_quantity
      } else {
        // Executed and resting no more, with nothing cancelled during a round: it filled, all of it.
        verdict = order.state === 'filled' ? 'ok' : 'mismatch'
        filledCountOff = order.state === 'filled' && order.filled !== intent.quantity
      }
    } else if (intent.orderId !== null && order === undefined) verdict = 'lost'
    else if (order !== undefined && order.state !== 'rejected') verdict = 'mismatch'
    if (order !== undefined && (order.state === 'unknown' || order.state === 'pending'))
      verdict = order.reason === CANNOT_TELL ? 'cannot tell' : 'unknown'
    if (mine.length > 1) verdict = 'duplicate'
    judged.push({
      intent,
      posts: mine.length,
      executed,
      venue,
      restingId: row?.id ?? null,
      app,
      verdict,
      filledCountOff,
    })
  }
  return { judged, strayPosts }
}
