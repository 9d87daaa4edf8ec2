// Phase `faults`: live orders under the simulator's order faults (seeded), in rounds. In each round the bench sends
// its share of the orders, a few at once and paced inside the venue's trade rate limit, each a limit buy with a
// market, outcome, price and quantity no other order has: most rest several ticks below the touch, some cross it
// (a buy at the ask) and fill on arrival. A seeded share meet a fault queued just before they are sent (the venue
// hands each queued fault to the next trade request it admits): a dropped connection with or without the order
// executed, an answer delayed (some past the engine's 8 s timeout), a server error, or a PO refusal. Then the venue
// is frozen (nothing moves or fills), the app is given time to reconcile every unknown order and to read the
// account once more, and each intent is judged against the venue's own records (ledger.ts). Cancel-all clears the
// round's resting orders before the next, so the account never holds more than a round's worth.
import type { OrderFault, OrderLogEntry } from '../../src/sim/index'
import { deriveSeed, mulberry32, pick, randInt, type Rng } from '../../src/sim/rng'
import { CANNOT_TELL } from '../../src/main/services'
import { poRefusal } from '../../src/sim/voxfi/order-request'
import type { CancelAllResult, JournalEntry } from '../../src/shared/trading'
import { maxInWindow, openIds } from './cancel-all'
import { judge, intentKey, type Intent, type Judged, type OpenRow } from './ledger'
import { isTradeRequest } from './tap'
import { liveBuy, must, sleep, startVenue, touch, until, within, type Venue } from './venue'

export interface FaultsOptions {
  seed: number
  orders: number
  rounds: number
  /** Share of the orders that meet a fault. */
  faultShare: number
  /** Orders in flight at once, at most. */
  concurrency: number
  /** Orders started per second, at most (the simulator's trade bucket is 40 a second). */
  perSecond: number
  /** Progress lines (stderr). */
  progress(line: string): void
}

/**
 * The venue's limits in this phase, raised from the simulator's defaults (120 data reads a minute, 40 trade requests
 * a second; README says why): the reconciliation of many unknown orders at once reads far more than 120 a minute,
 * and orders started 30 a second reach the venue bunched (up to 42 in a second was seen on a loaded machine), and a
 * 429 would stop all trading for a second, so later orders would be refused without reaching the venue.
 */
export const FAULTS_LIMITS = {
  rateLimit: { requests: 6_000, windowMs: 60_000 },
  tradeRateLimit: { requests: 100, windowMs: 1_000 },
}
/** A share of the orders crosses the touch and fills on arrival. */
const MARKETABLE_SHARE = 0.2
/** The demo trader's order sizes (src/sim/account.ts LOTS): never ours, so its orders are never taken for ours. */
const TRADER_LOTS = new Set([10, 15, 20, 25, 30, 40, 50, 60, 75, 100, 120, 150, 200, 250])

interface FaultKind {
  name: string
  weight: number
  make(rng: Rng): OrderFault
}

const FAULT_KINDS: readonly FaultKind[] = [
  { name: 'drop, executed', weight: 20, make: () => ({ kind: 'drop', execute: true }) },
  { name: 'drop, not executed', weight: 20, make: () => ({ kind: 'drop', execute: false }) },
  { name: 'delay 50–1500 ms', weight: 20, make: (r) => ({ kind: 'delay', ms: randInt(r, 50, 1_500) }) },
  { name: 'delay 9 s (past the timeout)', weight: 5, make: () => ({ kind: 'delay', ms: 9_000 }) },
  { name: 'error -1 (500)', weight: 7, make: () => ({ kind: 'error', ...poRefusal('-1') }) },
  {
    name: 'error 502/503',
    weight: 8,
    make: (r) => ({ kind: 'error', status: pick(r, [502, 503]), body: { error: 'bad gateway' } }),
  },
  {
    name: 'error PO1–PO5, PO8',
    weight: 20,
    make: (r) => ({
      kind: 'error',
      ...poRefusal(pick(r, ['PO1', 'PO2', 'PO3', 'PO4', 'PO5', 'PO8'] as const)),
    }),
  },
]

export interface RoundFigures {
  sent: number
  faults: Record<string, number>
  sendSeconds: number
  /** From the last answer of the round to every order settled (none pending or unknown), s. */
  settleSeconds: number | null
  /** Unknown orders' time from "unknown" to "reconciled" in the journal, ms. */
  reconcileMs: number[]
  /** The round's cancel-all, which clears its resting orders (and the demo trader's, docs/voxfi.md §8 item 35). */
  cancelAll: CancelAllResult
  /** The venue's answers to the cancel-all's DELETEs, by status (or venue code), as the tap saw them. */
  cancelAnswers: Record<string, number>
  /** Of the round's orders, how many the venue still listed as open after the round's cancel-all. */
  leftOpenAfterCancelAll: number
}

export interface FaultsFigures {
  intents: number
  /** POSTs the venue received for the intents (one each is the load). */
  posts: number
  refusedBeforeSending: number
  duplicates: number
  lost: number
  mismatched: number
  /** The app's state is right, its filled count is not (see ledger.ts). */
  filledCountOff: number
  unknownLeft: number
  /** Left unknown by a reconciliation that found executions that could be another order's, and said so. */
  cannotTell: number
  strayPosts: number
  executed: number
  /** The app's final states, and what the venue's log says of the fault each POST met. */
  appStates: Record<string, number>
  faultsByKind: Record<string, number>
  faultsQueued: number
  faultsMet: number
  examples: Judged[]
  rounds: RoundFigures[]
  tradeRateLimited: number
  /** The engine's data-path GETs (account rounds and reconciliation), their busiest minute, and 429s. */
  dataGets: number
  dataGetsBusiestMinute: number
  data429: number
  seconds: number
  problems: string[]
}

const isSettled = (v: Venue, id: string | null): boolean => {
  if (id === null) return true
  const o = v.orders.get(id)
  if (o === undefined) return false
  // Reconciled without an answer: the venue's records could not tell, and the order says so.
  return (o.state !== 'pending' && o.state !== 'unknown') || o.reason === CANNOT_TELL
}

export async function faultsPhase(o: FaultsOptions): Promise<FaultsFigures> {
  const v = await startVenue({
    seed: o.seed,
    config: { events: 2, marketsPerEvent: 4, ...FAULTS_LIMITS },
    limits: { maxOpenOrders: 2_000 },
  })
  const rng = mulberry32(deriveSeed(o.seed, 0x0fa1))
  const used = new Set<string>()
  const all: Intent[] = []
  const rounds: RoundFigures[] = []
  const examples: Judged[] = []
  const judgedAll: Judged[] = []
  let faultsQueued = 0
  let strayPosts = 0
  const started = performance.now()
  const firstTap = v.tap.requests.length
  try {
    const perRound = Math.ceil(o.orders / o.rounds)
    for (let round = 0; round < o.rounds; round++) {
      const n = Math.min(perRound, o.orders - round * perRound)
      const firstLog = v.sim.faults.orderLog().length
      const faults: Record<string, number> = {}
      const intents: Intent[] = []
      const t0 = performance.now()
      let next = 0
      let startedCount = 0
      const starts: number[] = []
      const sendOne = async (i: number): Promise<void> => {
        const { market, outcome, kind, price, quantity } = drawIntent(rng, used, v)
        used.add(intentKey(market, outcome, price, quantity))
        const fault = rng() < o.faultShare ? pickFault(rng) : null
        if (fault !== null) {
          v.sim.faults.orderFault(fault.fault, 1)
          faultsQueued++
          faults[fault.name] = (faults[fault.name] ?? 0) + 1
        }
        const request = liveBuy(v, {
          intentId: `bench-fault-${String(round * perRound + i).padStart(5, '0')}`,
          market,
          outcome,
          priceTicks: price,
          quantity,
        })
        const r = await within(v.client.placeOrder(request), 30_000, `placeOrder(${request.intentId})`)
        const orderId = r.ok ? r.value.id : (r.error.orderId ?? null)
        intents.push({
          intentId: request.intentId,
          market,
          outcome,
          priceTicks: price,
          quantity,
          kind,
          orderId,
        })
      }
      const worker = async (): Promise<void> => {
        for (;;) {
          const i = next++
          if (i >= n) return
          // Paced: no more than perSecond started in any second.
          for (;;) {
            const now = performance.now()
            while (starts.length > 0 && now - (starts[0] as number) >= 1_000) starts.shift()
            if (starts.length < o.perSecond) break
            await sleep(1_000 - (now - (starts[0] as number)) + 1)
          }
          starts.push(performance.now())
          startedCount++
          await sendOne(i)
        }
      }
      await Promise.all(Array.from({ length: o.concurrency }, () => worker()))
      const sendSeconds = (performance.now() - t0) / 1000
      o.progress(
        `faults: round ${round + 1}/${o.rounds}: ${startedCount} sent in ${sendSeconds.toFixed(1)} s`,
      )
      // Nothing moves from here: what rests stays resting, so the venue's list is the truth the app must match.
      v.sim.faults.freeze(true)
      const frozenAt = Date.now()
      const tAnswered = performance.now()
      const settledAt = await until(() => intents.every((x) => isSettled(v, x.orderId)), 120_000, 50)
      if (settledAt === null) {
        const open = intents.filter((x) => !isSettled(v, x.orderId))
        o.progress(
          `faults: round ${round + 1}: gave up after 120 s waiting for ${open.length} orders to settle, e.g. ` +
            open
              .slice(0, 3)
              .map((x) => `${x.intentId} ${v.orders.get(x.orderId ?? '')?.state ?? 'never in a view'}`)
              .join(', '),
        )
      }
      // One more read of the account asked for after the freeze (and after the last settlement), so that a fill
      // the market made before the freeze is known to the app.
      const readAfter = await until(() => {
        const read = v.account()?.reads.orders
        return read?.ok === true && read.at > frozenAt + 1_000
      }, 60_000)
      if (readAfter === null)
        o.progress(
          `faults: round ${round + 1}: gave up after 60 s waiting for an account read after the freeze`,
        )
      o.progress(`faults: round ${round + 1}: settled, judging`)
      const log = v.sim.faults.orderLog().slice(firstLog)
      const open = (await within(v.venueGet('/data/orders'), 30_000, "the venue's open orders")) as OpenRow[]
      const verdicts = judge(intents, log, open, v.orders)
      strayPosts += verdicts.strayPosts
      judgedAll.push(...verdicts.judged)
      for (const j of verdicts.judged)
        if ((j.verdict !== 'ok' || j.filledCountOff) && examples.length < 12) examples.push(j)
      const journal = must(await within(v.client.getJournal(), 30_000, 'the journal'))
      v.sim.faults.freeze(false)
      const firstCancelLog = v.sim.faults.orderLog().length
      const cancelAll = must(await within(v.client.cancelAllOrders(), 60_000, "the round's cancel-all"))
      const stillOpen = openIds(await within(v.venueGet('/data/orders'), 30_000, "the venue's open orders"))
      o.progress(`faults: round ${round + 1}: cancel-all ${JSON.stringify(cancelAll)}`)
      rounds.push({
        sent: startedCount,
        faults,
        sendSeconds,
        settleSeconds: settledAt === null ? null : (settledAt - tAnswered) / 1000,
        reconcileMs: reconcileTimes(journal, new Set(intents.map((x) => x.orderId))),
        cancelAll,
        cancelAnswers: answersOf(v.sim.faults.orderLog().slice(firstCancelLog)),
        leftOpenAfterCancelAll: verdicts.judged.filter(
          (j) => j.restingId !== null && stillOpen.has(j.restingId),
        ).length,
      })
      all.push(...intents)
      // The books move again before the next round prices its orders.
      await sleep(1_000)
    }
    const log = v.sim.faults.orderLog()
    const tapped = v.tap.requests.slice(firstTap)
    const data = tapped.filter((r) => !isTradeRequest(r))
    const count = (pred: (j: Judged) => boolean): number => judgedAll.filter(pred).length
    const appStates: Record<string, number> = {}
    for (const x of all) {
      const state =
        x.orderId === null ? 'refused before sending' : (v.orders.get(x.orderId)?.state ?? 'missing')
      appStates[state] = (appStates[state] ?? 0) + 1
    }
    const faultsByKind: Record<string, number> = {}
    for (const e of log) {
      if (e.fault === null || e.method !== 'POST') continue
      const k =
        e.fault === 'error'
          ? `error ${e.status}`
          : e.fault === 'drop'
            ? `drop${e.executed ? ', executed' : ''}`
            : 'delay'
      faultsByKind[k] = (faultsByKind[k] ?? 0) + 1
    }
    return {
      intents: all.length,
      posts: judgedAll.reduce((s, j) => s + j.posts, 0),
      refusedBeforeSending: all.filter((x) => x.orderId === null).length,
      duplicates: count((j) => j.verdict === 'duplicate'),
      lost: count((j) => j.verdict === 'lost'),
      mismatched: count((j) => j.verdict === 'mismatch'),
      filledCountOff: count((j) => j.filledCountOff),
      unknownLeft: count((j) => j.verdict === 'unknown'),
      cannotTell: count((j) => j.verdict === 'cannot tell'),
      strayPosts,
      executed: count((j) => j.executed),
      appStates,
      faultsByKind,
      faultsQueued,
      faultsMet: log.filter((e) => e.fault !== null).length,
      examples,
      rounds,
      tradeRateLimited: tapped.filter((r) => isTradeRequest(r) && r.status === 429).length,
      dataGets: data.length,
      dataGetsBusiestMinute: maxInWindow(
        data.map((r) => r.arrivedAt),
        60_000,
      ),
      data429: data.filter((r) => r.status === 429).length,
      seconds: (performance.now() - started) / 1000,
      problems: v.problems.slice(0, 12),
    }
  } finally {
    await v.close()
  }
}

/** Tries to draw an intent on another market, outcome or kind when one has no fresh price and quantity left. */
const DRAW_TRIES = 50

/** A market, outcome, kind, price and quantity no earlier intent has, drawn from the books as they stand. */
function drawIntent(
  rng: Rng,
  used: ReadonlySet<string>,
  v: Pick<Venue, 'markets' | 'books'>,
): {
  market: string
  outcome: 'YES' | 'NO'
  kind: 'resting' | 'marketable'
  price: number
  quantity: number
} {
  for (let i = 0; i < DRAW_TRIES; i++) {
    const market = pick(rng, v.markets)
    const outcome = rng() < 0.5 ? 'YES' : 'NO'
    const t = touch(v.books.get(market), outcome)
    if (t === null) throw new Error(`no book for ${market}`)
    const kind = rng() < MARKETABLE_SHARE ? 'marketable' : 'resting'
    const fresh = freshIntent(rng, used, market, outcome, kind, t)
    if (fresh !== null) return { market, outcome, kind, ...fresh }
  }
  throw new Error(`no unused price and quantity left after ${DRAW_TRIES} draws`)
}

/**
 * A price and quantity no earlier intent on this market and outcome has (the ledger matches the venue's log to
 * intents by them), never one of the demo trader's lots. A marketable buy is at the ask or up to 4 ticks through it
 * (inside the profile's fat-finger distance), a resting one 4–14 ticks under the bid; when every quantity at a price
 * is taken the next price is tried, and the search is finite: null when nothing is left (a book pinned at 99).
 */
function freshIntent(
  rng: Rng,
  used: ReadonlySet<string>,
  market: string,
  outcome: 'YES' | 'NO',
  kind: 'resting' | 'marketable',
  t: { bid: number; ask: number },
): { price: number; quantity: number } | null {
  const prices =
    kind === 'marketable'
      ? [0, 1, 2, 3, 4].map((k) => t.ask + k).filter((p) => p <= 99)
      : rotate(
          Array.from({ length: 11 }, (_, k) => Math.max(1, t.bid - 4 - k)),
          randInt(rng, 0, 10),
        )
  const maxQuantity = kind === 'marketable' ? 9 : 99
  for (const price of prices) {
    const free: number[] = []
    for (let q = 1; q <= maxQuantity; q++)
      if (!TRADER_LOTS.has(q) && !used.has(intentKey(market, outcome, price, q))) free.push(q)
    if (free.length > 0) return { price, quantity: pick(rng, free) }
  }
  return null
}

/** `xs` started from its `by`th element, the ones before it at the end. */
const rotate = <T>(xs: T[], by: number): T[] => [...xs.slice(by), ...xs.slice(0, by)]

function pickFault(rng: Rng): { name: string; fault: OrderFault } {
  const total = FAULT_KINDS.reduce((s, k) => s + k.weight, 0)
  let x = rng() * total
  for (const k of FAULT_KINDS) {
    x -= k.weight
    if (x < 0) return { name: k.name, fault: k.make(rng) }
  }
  const last = FAULT_KINDS[FAULT_KINDS.length - 1] as FaultKind
  return { name: last.name, fault: last.make(rng) }
}

/** The venue's answers to DELETEs in its log, by status and order code (`404 PO6`: no such open order). */
function answersOf(log: readonly OrderLogEntry[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const e of log) {
    if (e.method !== 'DELETE') continue
    const code = (e.answer as { error_code?: unknown } | null)?.error_code
    const k = `${e.status ?? 'dropped'}${typeof code === 'string' ? ` ${code}` : ''}`
    out[k] = (out[k] ?? 0) + 1
  }
  return out
}

/** For each order of the round the journal calls unknown, the time until it says what became of it. */
function reconcileTimes(journal: readonly JournalEntry[], ids: ReadonlySet<string | null>): number[] {
  const unknownAt = new Map<string, number>()
  const out: number[] = []
  for (const e of journal) {
    if (e.action !== 'place' || e.orderId === null || !ids.has(e.orderId)) continue
    if (e.outcome === 'unknown') unknownAt.set(e.orderId, e.at)
    else if (e.outcome === 'reconciled') {
      const at = unknownAt.get(e.orderId)
      if (at !== undefined) out.push(e.at - at)
    }
  }
  return out
}
