// Phase `cancel-all`: 50 live orders resting at the venue, then one cancelAllOrders() call. Figures: the time from
// the call until the venue had answered the cancel of the last of the 50 (the tap's clock), the time the call took
// to return, the most trade requests the venue saw in any 1 s window against its trade bucket, and the 429s it
// answered. The demo account's own trader (the simulator's, not the app's) keeps a few orders of its own open: they
// stand for orders placed on VoxFi's site, the account's key cancels them like its own (docs/voxfi.md §8 item 35),
// so cancel-all cancels them too and leaves nothing open; they are counted apart from the 50.
import { DEFAULTS } from '../../src/sim/config'
import type { OrderLogEntry } from '../../src/sim/index'
import type { CancelAllResult, OrderView } from '../../src/shared/trading'
import { isTradeRequest } from './tap'
import { CALL_MS, liveBuy, must, sleep, startVenue, touch, until, within } from './venue'

export interface CancelAllOptions {
  seed: number
  orders: number
}

export interface CancelAllFigures {
  /** Orders resting at the venue (the venue's open orders) when cancel-all was called. */
  restingAtVenue: number
  /** Call to the venue's answer to the last of the app's cancels, ms. */
  allCancelledMs: number | null
  /** Call to the moment the window's account view showed every one of them cancelled, ms. */
  shownCancelledMs: number | null
  /** Call to its return (the trader's cancels included), ms. */
  returnedMs: number
  result: CancelAllResult
  /** Of the app's orders, how many the venue still lists as open after the call. */
  stillOpenAtVenue: number
  /** The demo trader's orders open at the venue before the call, and how many of any kind are open after it. */
  traderOpenBefore: number
  anyOpenAfter: number
  /** The most trade requests (cancels) the venue received in any 1 s window during the call. */
  maxPerSecond: number
  bucket: { requests: number; windowMs: number }
  /** Trade requests answered 429 during the call. */
  rateLimited: number
  deletes: number
  problems: string[]
}

/** The most entries whose `at` (ms) lies within any window of `windowMs`. */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b)
  let best = 0
  let lo = 0
  for (let hi = 0; hi < t.length; hi++) {
    while ((t[hi] as number) - (t[lo] as number) >= windowMs) lo++
    best = Math.max(best, hi - lo + 1)
  }
  return best
}

/** The venue's open orders (GET /v1/data/orders), by id. */
export function openIds(body: unknown): Set<string> {
  const rows = Array.isArray(body) ? (body as Array<{ id?: unknown }>) : []
  return new Set(rows.map((r) => String(r.id)))
}

export async function cancelAllPhase(o: CancelAllOptions): Promise<CancelAllFigures> {
  // The demo trader acts at most every 10 minutes: it keeps the two or three orders it opens at the start.
  const v = await startVenue({
    seed: o.seed,
    config: { events: 2, marketsPerEvent: 2 },
    limits: { maxOpenOrders: o.orders + 50 },
    accountMs: 600_000,
  })
  try {
    const placed: OrderView[] = []
    for (let i = 0; i < o.orders; i++) {
      const market = v.markets[i % v.markets.length] as string
      const outcome = i % 2 === 0 ? 'YES' : 'NO'
      const t = touch(v.books.get(market), outcome)
      if (t === null) throw new Error(`no book for ${market}`)
      const intentId = `bench-cancel-${String(i).padStart(4, '0')}`
      const order = must(
        await within(
          v.client.placeOrder(
            liveBuy(v, {
              intentId,
              market,
              outcome,
              priceTicks: Math.max(1, t.bid - 4 - (i % 6)),
              quantity: 1 + i,
            }),
          ),
          CALL_MS,
          `placeOrder(${intentId})`,
        ),
      )
      placed.push(order)
      // 20 a second: well inside the trade bucket, so the call below starts with a fresh one.
      await sleep(50)
    }
    const ids = new Set(placed.map((p) => p.venueId))
    const openBefore = [...openIds(await v.venueGet('/data/orders'))]
    const resting = openBefore.filter((id) => ids.has(id)).length
    // A second and a half of quiet: the venue's 1 s bucket is empty when the call starts.
    await sleep(1_500)
    const firstLog = v.sim.faults.orderLog().length
    const firstTap = v.tap.requests.length
    const mine = new Set(placed.map((p) => p.id))
    const t0 = performance.now()
    const shown = until(() => [...mine].every((id) => v.orders.get(id)?.state === 'cancelled'), 30_000, 1)
    const result = must(await within(v.client.cancelAllOrders(), CALL_MS, 'cancelAllOrders()'))
    const returnedMs = performance.now() - t0
    const shownAt = await shown
    const log: OrderLogEntry[] = v.sim.faults.orderLog().slice(firstLog)
    const tapped = v.tap.requests.slice(firstTap).filter(isTradeRequest)
    const myDeletes = tapped.filter((r) =>
      [...ids].some((id) => id !== null && r.path === `/v1/trade/order/${encodeURIComponent(id)}`),
    )
    const lastAnswer = myDeletes.reduce<number | null>(
      (m, r) => (r.answeredAt === null ? m : Math.max(m ?? 0, r.answeredAt)),
      null,
    )
    const openAfter = [...openIds(await v.venueGet('/data/orders'))]
    return {
      restingAtVenue: resting,
      allCancelledMs:
        lastAnswer === null || myDeletes.length < placed.length || myDeletes.some((r) => r.status !== 200)
          ? null
          : lastAnswer - t0,
      shownCancelledMs: shownAt === null ? null : shownAt - t0,
      returnedMs,
      result,
      stillOpenAtVenue: openAfter.filter((id) => ids.has(id)).length,
      traderOpenBefore: openBefore.length - resting,
      anyOpenAfter: openAfter.length,
      maxPerSecond: maxInWindow(
        log.map((e) => e.at),
        1_000,
      ),
      bucket: DEFAULTS.tradeRateLimit,
      rateLimited: log.filter((e) => e.status === 429).length,
      deletes: log.filter((e) => e.method === 'DELETE').length,
      problems: v.problems.slice(0, 12),
    }
  } finally {
    await v.close()
  }
}
