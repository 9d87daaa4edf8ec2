// Phase `submit`: ticket submit → request on the wire. Each order is one placeOrder call as a window makes it: the
// call encoded with JSON.stringify and decoded with JSON.parse (the Electron IPC wrapper and the browser bridge hand
// the engine a copy, never the window's object), checked with the shared IPC validation as both do, then given to
// the attached client (which validates it again and hands it to the order service). The clock starts before the
// encoding and stops when the tap (tap.ts, same process, same performance.now()) has the whole POST. Orders go one
// at a time, paced inside the venue's trade rate limit, each a limit buy resting several ticks below the touch.
import { validateArgs } from '../../src/shared/ipc-validate'
import { SampleSet } from '../lib/stats'
import { isTradeRequest, type TappedRequest } from './tap'
import { CALL_MS, liveBuy, sleep, startVenue, touch, within } from './venue'

export interface SubmitOptions {
  seed: number
  /** Orders measured (after the warm-up ones). */
  orders: number
  warmup: number
  /** Orders started per second (the simulator's trade bucket is 40 a second). */
  perSecond: number
}

export interface SubmitFigures {
  onWire: SampleSet
  /** Submit to the answer back in the window (decoded as the window would), for context: includes the venue. */
  answered: SampleSet
  /** POSTs the venue saw for the measured orders, and how many of them rested (answered 200, order open). */
  posts: number
  rested: number
  /** The measured orders that did not rest, by the app's state or its error code. */
  refused: Record<string, number>
  tradeRateLimited: number
  /** Data-path GETs the engine made during the phase (account reads after each answer), and 429s among them. */
  dataGets: number
  data429: number
  seconds: number
  problems: string[]
}

export async function submitPhase(o: SubmitOptions): Promise<SubmitFigures> {
  const total = o.warmup + o.orders
  const v = await startVenue({
    seed: o.seed,
    config: { events: 2, marketsPerEvent: 2 },
    limits: { maxOpenOrders: total + 100 },
  })
  try {
    const onWire = new SampleSet()
    const answered = new SampleSet()
    let arrived: ((r: TappedRequest) => void) | null = null
    v.tap.onArrival = (r) => {
      if (r.method === 'POST' && r.path === '/v1/trade/order') arrived?.(r)
    }
    const firstTap = v.tap.requests.length
    let rested = 0
    const refused: Record<string, number> = {}
    const started = performance.now()
    let due = started
    for (let i = 0; i < total; i++) {
      // Spaced, never caught up: after a stall of the loaded machine a burst would overrun the venue's trade bucket.
      if (due > performance.now()) await sleep(due - performance.now())
      due = Math.max(due, performance.now()) + 1000 / o.perSecond
      const market = v.markets[i % v.markets.length] as string
      const outcome = i % 2 === 0 ? 'YES' : 'NO'
      const t = touch(v.books.get(market), outcome)
      if (t === null) throw new Error(`no book for ${market}`)
      const request = liveBuy(v, {
        intentId: `bench-submit-${String(i).padStart(5, '0')}`,
        market,
        outcome,
        priceTicks: Math.max(1, t.bid - 5 - (i % 5)),
        quantity: 1 + (i % 23),
      })
      const onVenue = new Promise<TappedRequest>((resolve) => {
        arrived = resolve
      })
      const t0 = performance.now()
      const call = JSON.parse(JSON.stringify({ id: i, method: 'placeOrder', args: [request] })) as {
        args: unknown[]
      }
      const checked = validateArgs('placeOrder', call.args)
      if (!checked.ok) throw new Error(checked.message)
      const result = await within(
        v.client.placeOrder(...checked.args),
        CALL_MS,
        `placeOrder(${request.intentId})`,
      )
      const back = JSON.parse(JSON.stringify(result)) as typeof result
      const t1 = performance.now()
      const wire = await Promise.race([onVenue, sleep(5_000).then(() => null)])
      if (wire === null) throw new Error(`order ${i} never reached the venue`)
      if (i < o.warmup) continue
      onWire.add(wire.arrivedAt - t0)
      answered.add(t1 - t0)
      if (back.ok && back.value.state === 'open') rested++
      else {
        const k = back.ok ? back.value.state : (back.error.venueCode ?? back.error.code)
        refused[k] = (refused[k] ?? 0) + 1
      }
    }
    const seconds = (performance.now() - started) / 1000
    const during = v.tap.requests.slice(firstTap)
    const posts = during.filter((r) => r.method === 'POST' && r.path === '/v1/trade/order').slice(o.warmup)
    const data = during.filter((r) => !isTradeRequest(r))
    return {
      onWire,
      answered,
      posts: posts.length,
      rested,
      refused,
      tradeRateLimited: during.filter((r) => isTradeRequest(r) && r.status === 429).length,
      dataGets: data.length,
      data429: data.filter((r) => r.status === 429).length,
      seconds,
      problems: v.problems.slice(0, 12),
    }
  } finally {
    await v.close()
  }
}
