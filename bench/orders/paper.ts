// Phase `paper`: paper orders during a replay. A ten-minute recording of the VoxFi simulator's feed
// (recording.ts) is replayed through the engine (startReplay, the replay profile, which trades on paper only) while
// the bench keeps paper orders at and around each market's book, YES and NO: buys at the bid, a tick under it and at
// the ask, sells of what paper holds at the ask, a tick over it and at the bid, now and then a market order, and
// cancels of what the book left behind. The window collects every print it is sent and every paper fill of the
// account views. Each fill is then checked against the prints, independently of the paper broker: a fill is
// explained by a print of its market, in its outcome's terms at or through its order's limit (a buy at L by a
// print at ≤ L, a sell by one at ≥ L; a market order by one at its fill price), received after the order was
// placed and no later than the fill, and sent to the window no later than the fill was.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FillRow } from '../../src/shared/account'
import type { ViewBatch } from '../../src/shared/ipc'
import type { BookView, ReplayStatus, Result, TradeView } from '../../src/shared/model'
import type { AccountView, OrderRequest, OrderView } from '../../src/shared/trading'
import { deriveSeed, mulberry32, pick, randInt } from '../../src/sim/rng'
import { writeRecording, type RecordingMade } from './recording'
import { CALL_MS, must, sleep, startEngine, touch, within } from './venue'

export interface PaperOptions {
  seed: number
  minutes: number
  speed: number
  /** How often (wall ms) the bench looks at the books and places or cancels paper orders. */
  everyMs: number
}

export interface PaperFigures {
  recording: RecordingMade
  replay: ReplayStatus | null
  replaySeconds: number
  /** Prints the window was sent (each market's tape), against the recording's print frames. */
  printsSeen: number
  ordersPlaced: number
  refusals: Record<string, number>
  cancels: number
  fills: number
  fillContracts: number
  /** Paper fills numbered by the broker that the window never saw (its views keep the newest 200): must be 0. */
  fillsMissed: number
  /** Fills whose order the window never saw. */
  fillsWithoutOrder: number
  unexplained: number
  examples: Array<{ fill: FillRow; order: OrderView | null }>
  problems: string[]
}

interface SeenPrint {
  print: TradeView
  batch: number
}

interface SeenFill {
  fill: FillRow
  batch: number
}

const fillNo = (key: string): number | null => {
  const m = /^paper-(\d+)$/.exec(key)
  return m === null ? null : Number(m[1])
}

/** A ticks price of `outcome` from a YES price in 0–1. */
const inOutcome = (yesPrice: number, outcome: 'YES' | 'NO'): number =>
  Math.round((outcome === 'YES' ? yesPrice : 1 - yesPrice) * 100)

/** Whether `p` is at or through the order's limit, in the order's outcome terms (a market order: at the fill). */
function reaches(order: OrderView, fill: FillRow, p: TradeView): boolean {
  const print = inOutcome(p.price, order.outcome)
  if (order.kind === 'market' || order.priceTicks === null)
    return fill.price !== null && print === inOutcome(fill.price, order.outcome)
  return order.side === 'buy' ? print <= order.priceTicks : print >= order.priceTicks
}

export async function paperPhase(o: PaperOptions): Promise<PaperFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-paper-'))
  const name = 'rec-2026-01-05T13-00-00Z-bench-orders.jsonl.gz'
  const recording = await within(
    writeRecording(join(dir, name), {
      seed: o.seed,
      events: 2,
      marketsPerEvent: 2,
      minutes: o.minutes,
      tickMs: 100,
    }),
    120_000,
    'the recording to be written',
  )
  const { engine, problems } = await startEngine({ recordingsDir: dir, journalDir: null })
  const prints: SeenPrint[] = []
  const fills = new Map<string, SeenFill>()
  const orders = new Map<string, OrderView>()
  const books = new Map<string, BookView>()
  let account: AccountView | null = null
  let replay: ReplayStatus | null = null
  let batchNo = 0
  const sink = (batch: ViewBatch): void => {
    batchNo++
    for (const t of batch.trades ?? []) prints.push({ print: t, batch: batchNo })
    for (const b of batch.books ?? []) books.set(b.market, b)
    if (batch.status?.replay !== undefined) replay = batch.status.replay
    if (batch.account === undefined) return
    account = batch.account
    for (const v of batch.account.orders) if (v.mode === 'paper') orders.set(v.id, v)
    for (const f of batch.account.fills)
      if (f.mode === 'paper' && !fills.has(f.key)) fills.set(f.key, { fill: f, batch: batchNo })
  }
  const client = engine.attachClient({ label: 'paper', sink })
  const call = async <T>(r: Promise<Result<T>>, what: string): Promise<T> =>
    must(await within(r, CALL_MS, what))
  const rng = mulberry32(deriveSeed(o.seed, 0x9a9e))
  const refusals: Record<string, number> = {}
  let placed = 0
  let cancels = 0
  let intentNo = 0
  try {
    await call(
      client.setInterests(recording.markets.map((id) => ({ channel: 'market', id, filter: 'all' }))),
      'setInterests',
    )
    const t0 = performance.now()
    await call(client.startReplay({ file: name, speed: o.speed }), 'startReplay')
    const profileId = (await call(client.getAccount(), 'getAccount')).profileId
    await call(client.setTrading({ limits: { maxOpenOrders: 10_000 } }), 'setTrading')
    const place = async (r: Omit<OrderRequest, 'intentId' | 'profileId' | 'mode' | 'clickedAt'>) => {
      const intentId = `bench-paper-${String(++intentNo).padStart(6, '0')}`
      const res = await within(
        client.placeOrder({
          ...r,
          intentId,
          profileId,
          mode: 'paper',
          clickedAt: Date.now(),
          // The bench sends the same order again within a second by design; each is its own intent.
          confirmed: ['duplicate'],
        }),
        CALL_MS,
        `placeOrder(${intentId})`,
      )
      if (res.ok) placed++
      else
        refusals[res.error.venueCode ?? res.error.code] =
          (refusals[res.error.venueCode ?? res.error.code] ?? 0) + 1
    }
    const ended = (): boolean => (replay as ReplayStatus | null)?.state === 'ended'
    while (!ended() && performance.now() - t0 < ((o.minutes * 60_000) / o.speed) * 3 + 30_000) {
      const view = account as AccountView | null
      const working = (view?.orders ?? []).filter(
        (x) => x.mode === 'paper' && (x.state === 'open' || x.state === 'partially_filled'),
      )
      for (const market of recording.markets) {
        for (const outcome of ['YES', 'NO'] as const) {
          const t = touch(books.get(market), outcome)
          if (t === null) continue
          const mine = working.filter((x) => x.market === market && x.outcome === outcome)
          // What the book left behind goes: a buy more than 3 ticks under the bid, a sell more than 3 over the ask.
          for (const x of mine) {
            const stale =
              x.priceTicks !== null &&
              (x.side === 'buy' ? x.priceTicks < t.bid - 3 : x.priceTicks > t.ask + 3)
            if (stale && (await within(client.cancelOrder(x.id), CALL_MS, `cancelOrder(${x.id})`)).ok)
              cancels++
          }
          if (mine.filter((x) => x.side === 'buy').length < 3) {
            const price = pick(rng, [t.bid, t.bid - 1, t.ask])
            if (price >= 1 && price <= 99)
              await place({
                market,
                side: 'buy',
                outcome,
                kind: 'limit',
                priceTicks: price,
                quantity: randInt(rng, 1, 5),
              })
          }
          const held =
            view?.paper.positions.find(
              (p) => p.market === market && (p.outcome ?? 'yes') === outcome.toLowerCase(),
            )?.contracts ?? 0
          const offered = mine.filter((x) => x.side === 'sell').reduce((s, x) => s + x.quantity - x.filled, 0)
          if (held - offered > 0 && mine.filter((x) => x.side === 'sell').length < 3) {
            const price = pick(rng, [t.ask, t.ask + 1, t.bid])
            if (price >= 1 && price <= 99)
              await place({
                market,
                side: 'sell',
                outcome,
                kind: 'limit',
                priceTicks: price,
                quantity: Math.min(held - offered, randInt(rng, 1, 5)),
              })
          }
          if (rng() < 0.05) await place({ market, side: 'buy', outcome, kind: 'market', quantity: 1 })
        }
      }
      await sleep(o.everyMs)
      replay = (await call(client.getStatus(), 'getStatus')).replay ?? replay
    }
    const replaySeconds = (performance.now() - t0) / 1000
    // The last fills reach the window in the next batch.
    await sleep(200)
    const all = [...fills.values()]
    const numbers = all.map((f) => fillNo(f.fill.key)).filter((n): n is number => n !== null)
    const fillsMissed = numbers.length === 0 ? 0 : Math.max(...numbers) - numbers.length
    // Prints by market, in the order the window got them.
    const byMarket = new Map<string, SeenPrint[]>()
    for (const p of prints) {
      const list = byMarket.get(p.print.market)
      if (list === undefined) byMarket.set(p.print.market, [p])
      else list.push(p)
    }
    let unexplained = 0
    let withoutOrder = 0
    const examples: PaperFigures['examples'] = []
    for (const f of all) {
      const order = f.fill.orderId === null ? undefined : orders.get(f.fill.orderId)
      if (order === undefined) {
        withoutOrder++
        continue
      }
      const explained = (byMarket.get(order.market) ?? []).some(
        (p) =>
          p.batch <= f.batch &&
          p.print.receivedAt >= order.createdAt &&
          p.print.receivedAt <= f.fill.ts &&
          reaches(order, f.fill, p.print),
      )
      if (explained) continue
      unexplained++
      if (examples.length < 8) examples.push({ fill: f.fill, order })
    }
    await within(client.stopReplay(), CALL_MS, 'stopReplay')
    return {
      recording,
      replay,
      replaySeconds,
      printsSeen: prints.length,
      ordersPlaced: placed,
      refusals,
      cancels,
      fills: all.length,
      fillContracts: all.reduce((s, f) => s + (f.fill.size ?? 0), 0),
      fillsMissed,
      fillsWithoutOrder: withoutOrder,
      unexplained,
      examples,
      problems: problems.slice(0, 12),
    }
  } finally {
    client.dispose()
    await within(engine.close(), CALL_MS, 'the engine to close')
    rmSync(dir, { recursive: true, force: true })
  }
}
