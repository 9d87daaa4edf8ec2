// Backpressure: what a page that cannot keep up receives instead of an ever-growing queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mergeBatches } from '../../src/main/web/batch-merge'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import type { AlertEvent, AlertsView } from '../../src/shared/alerts'
import type { ViewBatch } from '../../src/shared/ipc'
import type { BookView, TradeView } from '../../src/shared/model'
import { fakeEngine, type FakeEngine } from './fake-engine'
import { captureLogger, openBridge, rendererFixture, waitFor, type RendererFixture } from './helpers'

const book = (market: string, seq: number): BookView => ({
  market,
  state: 'live',
  staleReason: null,
  bids: [[0.4, seq]],
  asks: [[0.6, seq]],
  depth: { bids: 1, asks: 1 },
  seq,
  updatedAt: seq,
})
const trade = (n: number): TradeView => ({
  key: `t${n}`,
  market: 'm1',
  price: 0.5,
  size: n,
  side: 'buy',
  ts: n,
  receivedAt: n,
})

describe('mergeBatches', () => {
  it('keeps the newest state per market and appends incremental lists up to their caps', () => {
    const older: ViewBatch = {
      seq: 1,
      at: 1,
      books: [book('m1', 1), book('m2', 1)],
      trades: [trade(1), trade(2)],
      user: [{ seq: 1, topic: 'order', market: null, data: {}, receivedAt: 1 }],
      eventsChanged: true,
    }
    const newer: ViewBatch = { seq: 2, at: 2, books: [book('m1', 2)], trades: [trade(3)] }
    const merged = mergeBatches(older, newer)
    expect(merged.seq).toBe(2)
    expect(merged.books).toEqual([book('m1', 2), book('m2', 1)])
    expect(merged.trades?.map((t) => t.key)).toEqual(['t1', 't2', 't3'])
    expect(merged.trades?.[0]?.gapBefore).toBeUndefined()
    expect(merged.user).toHaveLength(1)
    expect(merged.eventsChanged).toBe(true)
    expect(merged.status).toBeUndefined()

    const capped = mergeBatches(older, newer, { trades: 2, user: 1, inspector: 1 })
    expect(capped.trades?.map((t) => t.key)).toEqual(['t2', 't3'])
    expect(capped.trades?.[0]?.gapBefore).toBe(true)
    expect(merged.resume).toBeUndefined()
  })

  it('keeps `resume` from either batch: the page must still refetch its tapes', () => {
    const resumed: ViewBatch = { seq: 1, at: 1, resume: true, books: [book('m1', 5)] }
    const later: ViewBatch = { seq: 2, at: 2, trades: [trade(9)] }
    expect(mergeBatches(resumed, later).resume).toBe(true)
    expect(mergeBatches(later, resumed).resume).toBe(true)
    expect(mergeBatches(later, later).resume).toBeUndefined()
  })

  it('keeps every fired alert, in order, and the newest alerts view', () => {
    const fired = (id: number): AlertEvent => ({
      id,
      ruleId: 'a-1',
      kind: 'fired',
      at: id,
      title: `alert ${id}`,
      detail: '',
      value: null,
      market: null,
      sound: false,
      acknowledged: false,
    })
    const view = (unread: number): AlertsView => ({
      rules: [],
      history: [],
      unread,
      paused: false,
      keepRunning: 'auto',
    })
    const older: ViewBatch = { seq: 1, at: 1, alerts: view(1), alertsFired: [fired(1)] }
    const middle: ViewBatch = { seq: 2, at: 2, trades: [trade(1)] }
    const newer: ViewBatch = { seq: 3, at: 3, alerts: view(3), alertsFired: [fired(2), fired(3)] }
    const merged = mergeBatches(mergeBatches(older, middle), newer, { trades: 1, user: 1, inspector: 1 })
    expect(merged.alertsFired?.map((e) => e.id)).toEqual([1, 2, 3])
    expect(merged.alerts?.unread).toBe(3)
    expect(mergeBatches(older, middle).alerts?.unread).toBe(1)
  })
})

describe('a page that stops reading', () => {
  let fixture: RendererFixture
  let engine: FakeEngine
  let host: WebHost
  beforeAll(async () => {
    fixture = rendererFixture()
    engine = fakeEngine()
    host = await startWebHost({
      monitor: engine,
      rendererDir: fixture.root,
      logger: captureLogger(),
      bridge: { highWaterBytes: 64 * 1024 },
    })
  })
  afterAll(async () => {
    await host?.close()
    fixture?.cleanup()
  })

  it('gets merged batches with the newest state once it reads again, not every batch', async () => {
    const bridge = await openBridge(host.port, host.token)
    const sink = [...engine.sinks.values()].at(-1)
    expect(sink).toBeDefined()
    bridge.ws.pause()
    const pushed = 600
    const tradesPerBatch = 500
    for (let seq = 1; seq <= pushed; seq++) {
      const trades = Array.from({ length: tradesPerBatch }, (_, i) => trade(seq * tradesPerBatch + i))
      sink?.({ seq, at: seq, books: [book('m1', seq)], trades })
    }
    bridge.ws.resume()
    const batches = (): ViewBatch[] =>
      bridge.frames.flatMap((f) => ('batch' in (f as object) ? [(f as { batch: ViewBatch }).batch] : []))
    await waitFor('the newest batch', () => batches().some((b) => b.seq === pushed), 30_000)
    const received = batches()
    expect(received.length).toBeLessThan(pushed)
    const last = received.at(-1)
    expect(last?.seq).toBe(pushed)
    expect(last?.books).toEqual([book('m1', pushed)])
    // The newest trade arrived; the dropped ones are marked as a gap.
    expect(last?.trades?.at(-1)?.key).toBe(trade(pushed * tradesPerBatch + tradesPerBatch - 1).key)
    expect(received.some((b) => b.trades?.[0]?.gapBefore === true)).toBe(true)
    for (const batch of received) expect(batch.trades?.length ?? 0).toBeLessThanOrEqual(2000)
    bridge.ws.close()
  })
})
