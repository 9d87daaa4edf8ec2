// Backpressure: what a page that cannot keep up receives instead of an ever-growing queue, over a real bridge
// socket that stops reading. Its batches are folded with the one mergeBatches (src/shared/batch-merge.ts) and the
// host's caps: the newest state, capped trades with the hole marked, and nothing dropped that must not be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import type { ViewBatch } from '../../src/shared/ipc'
import { book, fired, range, trade, userUpdate, workspaceView } from '../shared/batch-fixtures'
import { fakeEngine, type FakeEngine } from './fake-engine'
import {
  captureLogger,
  openBridge,
  rendererFixture,
  waitFor,
  type RawBridge,
  type RendererFixture,
} from './helpers'

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

/** A page whose socket has stopped reading, and the engine's sink for it. */
async function laggingPage(): Promise<{ bridge: RawBridge; sink: (batch: ViewBatch) => void }> {
  const bridge = await openBridge(host.port, host.token)
  const sink = [...engine.sinks.values()].at(-1)
  if (sink === undefined) throw new Error('no engine client for the page')
  bridge.ws.pause()
  return { bridge, sink }
}

/** Enough trades to back the socket up far past its high-water mark. */
function flood(sink: (batch: ViewBatch) => void, from: number, to: number, extra: Partial<ViewBatch> = {}) {
  for (let seq = from; seq <= to; seq++) {
    const trades = range(seq * 500, seq * 500 + 499).map((n) => trade(n))
    sink({ seq, at: seq, books: [book('m1', seq)], trades, ...(seq === from ? extra : {}) })
  }
}

function batches(bridge: RawBridge): ViewBatch[] {
  return bridge.frames.flatMap((f) => ('batch' in (f as object) ? [(f as { batch: ViewBatch }).batch] : []))
}

async function readAll(bridge: RawBridge, lastSeq: number): Promise<ViewBatch[]> {
  bridge.ws.resume()
  await waitFor('the newest batch', () => batches(bridge).some((b) => b.seq === lastSeq), 30_000)
  return batches(bridge)
}

describe('a page that stops reading', () => {
  it('gets merged batches with the newest state once it reads again, not every batch', async () => {
    const { bridge, sink } = await laggingPage()
    const pushed = 600
    flood(sink, 1, pushed)
    const received = await readAll(bridge, pushed)
    expect(received.length).toBeLessThan(pushed)
    const last = received.at(-1)
    expect(last?.seq).toBe(pushed)
    expect(last?.books).toEqual([book('m1', pushed)])
    // The newest trade arrived; the dropped ones are marked as a gap.
    expect(last?.trades?.at(-1)?.key).toBe(trade(pushed * 500 + 499).key)
    expect(received.some((b) => b.trades?.[0]?.gapBefore === true)).toBe(true)
    for (const batch of received) expect(batch.trades?.length ?? 0).toBeLessThanOrEqual(2000)
    bridge.ws.close()
  })

  it('keeps a workspace change made meanwhile (in another window) however many batches follow it', async () => {
    const { bridge, sink } = await laggingPage()
    flood(sink, 1, 200)
    // Made while the page lags: held back and folded with the batches after it.
    flood(sink, 201, 400, { workspace: workspaceView('made-meanwhile') })
    const received = await readAll(bridge, 400)
    const carrying = received.filter((b) => b.workspace !== undefined)
    expect(carrying.map((b) => b.workspace)).toEqual([workspaceView('made-meanwhile')])
    // It was folded with the batches after it, not sent alone.
    expect(carrying[0]?.seq).toBeGreaterThan(201)
    bridge.ws.close()
  })

  it('gets every account update and fired alert however far it lags', async () => {
    const { bridge, sink } = await laggingPage()
    const pushed = 300
    for (let seq = 1; seq <= pushed; seq++) {
      const trades = range(seq * 500, seq * 500 + 499).map((n) => trade(n))
      const user = range(seq * 10, seq * 10 + 9).map(userUpdate)
      sink({ seq, at: seq, trades, user, alertsFired: [fired(seq)] })
    }
    const received = await readAll(bridge, pushed)
    expect(received.length).toBeLessThan(pushed)
    const user = received.flatMap((b) => b.user ?? []).map((u) => u.seq)
    expect(user).toEqual(range(10, pushed * 10 + 9))
    const alerts = received.flatMap((b) => b.alertsFired ?? []).map((e) => e.id)
    expect(alerts).toEqual(range(1, pushed))
    bridge.ws.close()
  })
})

describe('a page that acknowledges the batches it has read', () => {
  /** A page that has said it acknowledges (ack 0), and the engine's sink for it. */
  async function ackingPage(): Promise<{ bridge: RawBridge; sink: (batch: ViewBatch) => void }> {
    const bridge = await openBridge(host.port, host.token)
    const sink = [...engine.sinks.values()].at(-1)
    if (sink === undefined) throw new Error('no engine client for the page')
    bridge.ws.send('{"ack":0}')
    // The reply to a call sent after the ack is sent after the ack is read: the page is paced from here on.
    await bridge.call('listEvents')
    return { bridge, sink }
  }

  it('is sent a few batches ahead of its acknowledgements, then the rest merged into one with the newest state', async () => {
    const { bridge, sink } = await ackingPage()
    // Far below the high-water mark: only the acknowledgements hold these back.
    for (let seq = 1; seq <= 50; seq++) sink({ seq, at: seq, books: [book('m1', seq)], trades: [trade(seq)] })
    // The host answers this call after the flood: every batch it sent meanwhile came before the answer.
    await bridge.call('listEvents')
    expect(batches(bridge).map((b) => b.seq)).toEqual([1, 2, 3])
    bridge.ws.send('{"ack":3}')
    await waitFor('the merged batch', () => batches(bridge).length === 4)
    const merged = batches(bridge)[3]
    expect(merged?.seq).toBe(50)
    expect(merged?.books).toEqual([book('m1', 50)])
    expect(merged?.trades?.map((t) => t.key)).toEqual(range(4, 50).map((n) => trade(n).key))
    bridge.ws.close()
  })

  it('refuses an acknowledgement of batches it was never sent', async () => {
    const { bridge, sink } = await ackingPage()
    sink({ seq: 1, at: 1, books: [book('m1', 1)] })
    await bridge.call('listEvents')
    const reply = await bridge.sendRaw('{"ack":2}')
    expect(reply).toMatchObject({ error: { code: 'invalid_argument' } })
    bridge.ws.close()
  })

  it('a page that never acknowledges is not held back by acknowledgements', async () => {
    const bridge = await openBridge(host.port, host.token)
    const sink = [...engine.sinks.values()].at(-1)
    if (sink === undefined) throw new Error('no engine client for the page')
    for (let seq = 1; seq <= 20; seq++) sink({ seq, at: seq, books: [book('m1', seq)] })
    await bridge.call('listEvents')
    expect(batches(bridge).map((b) => b.seq)).toEqual(range(1, 20))
    bridge.ws.close()
  })
})
