// The real engine behind the browser host, against the in-process simulator over real loopback sockets:
// calls through the bridge, the interest lifecycle across pages, and the API key never leaving the host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/main/services/credentials/store'
import { createMonitor } from '../../src/main/services/monitor'
import type { MonitorEngine } from '../../src/main/services/base/types'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { createBridgeApi } from '../../src/renderer/api/bridge-client'
import type { ViewBatch } from '../../src/shared/ipc'
import type { EventSummary, Profile } from '../../src/shared/model'
import { createSimulator, type Simulator } from '../../src/sim/index'
import {
  captureLogger,
  openBridge,
  PageSocket,
  rendererFixture,
  waitFor,
  type RawBridge,
  type RendererFixture,
} from './helpers'

let sim: Simulator
let engine: MonitorEngine
let host: WebHost
let fixture: RendererFixture
let events: EventSummary[] = []
const logger = captureLogger()
const bridges: RawBridge[] = []

async function page(): Promise<RawBridge> {
  const bridge = await openBridge(host.port, host.token)
  bridges.push(bridge)
  return bridge
}

/** How many simulator connections subscribe to a market (the engine must hold exactly one per market). */
function simSubscribers(market: string): number {
  return sim.subscriptions().filter((s) => s.market.some((m) => m.id === market)).length
}

function disconnectedLogs(): number {
  return logger.lines.filter((line) => line.includes('bridge: page disconnected')).length
}

beforeAll(async () => {
  fixture = rendererFixture()
  sim = await createSimulator({ seed: 11 })
  engine = await createMonitor({ settingsPath: null, demo: false, credentials: createMemoryStore(), logger })
  host = await startWebHost({ monitor: engine, rendererDir: fixture.root, logger })
  // Point the engine at our simulator through the bridge itself, as the settings page would.
  const setup = await page()
  const saved = await setup.call('saveProfile', [
    { name: 'test sim', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl },
  ])
  expect(saved.ok).toBe(true)
  const profile = saved.value as Profile
  expect((await setup.call('selectProfile', [profile.id])).ok).toBe(true)
  const keyed = await setup.call('setApiKey', [{ key: sim.demoKey, label: 'sim demo key' }])
  expect(keyed).toMatchObject({ ok: true, value: { hasKey: true, label: 'sim demo key' } })
  const listed = await setup.call('listEvents')
  expect(listed.ok).toBe(true)
  events = listed.value as EventSummary[]
})

afterAll(async () => {
  for (const bridge of bridges) bridge.ws.close()
  await host?.close()
  await engine?.close()
  await sim?.close()
  fixture?.cleanup()
})

describe('browser host with the real engine', () => {
  it('lists the simulator events through the bridge', () => {
    expect(events.length).toBeGreaterThan(0)
    const listing = sim.listing()
    expect(events.map((e) => e.id)).toEqual(listing.events.map((e) => e.id))
    expect(events[0]?.markets.length).toBeGreaterThan(0)
  })

  it('holds one simulator subscription per market across pages and releases it after the last page', async () => {
    const market = events[0]?.markets[0]?.id
    const other = events[1]?.markets[0]?.id ?? events[0]?.markets[1]?.id
    expect(market).toBeDefined()
    expect(other).toBeDefined()
    if (!market || !other) return
    const interest = [{ channel: 'market', id: market, filter: 'all' }]
    const a = await page()
    const b = await page()
    expect(await a.call('setInterests', [interest])).toEqual({ ok: true })
    expect(await b.call('setInterests', [interest])).toEqual({ ok: true })
    await waitFor('the simulator subscription', () => simSubscribers(market) === 1)
    // Both pages get the book.
    const hasBook = (bridge: RawBridge): boolean =>
      bridge.frames.some((f) => {
        const batch = (f as { batch?: { books?: Array<{ market: string }> } }).batch
        return batch?.books?.some((book) => book.market === market) ?? false
      })
    await waitFor('books on both pages', () => hasBook(a) && hasBook(b))

    const closedBefore = disconnectedLogs()
    a.ws.close()
    await waitFor('the host to release page a', () => disconnectedLogs() === closedBefore + 1)
    // A later subscription on the same engine socket orders after any unsubscribe page a could have caused.
    const c = await page()
    expect(await c.call('setInterests', [[{ channel: 'market', id: other, filter: 'all' }]])).toEqual({
      ok: true,
    })
    await waitFor('the second market subscribed', () => simSubscribers(other) === 1)
    expect(simSubscribers(market)).toBe(1)

    b.ws.close()
    await waitFor('the market unsubscribed after its last page closed', () => simSubscribers(market) === 0)
    expect(simSubscribers(other)).toBe(1)
    c.ws.close()
    await waitFor('the other market unsubscribed', () => simSubscribers(other) === 0)
  })

  it('serves the renderer bridge client: calls, batches, and interests replayed after a host restart', async () => {
    const market = events[0]?.markets[1]?.id ?? events[1]?.markets[0]?.id
    expect(market).toBeDefined()
    if (!market) return
    const api = createBridgeApi({
      url: host.url,
      token: host.token,
      WebSocketImpl: PageSocket,
      reconnect: { baseMs: 20, maxMs: 200 },
    })
    try {
      const batches: ViewBatch[] = []
      api.onBatch((batch) => batches.push(batch))
      const listed = await api.listEvents()
      expect(listed.ok && listed.value.map((e) => e.id)).toEqual(events.map((e) => e.id))
      expect(await api.setInterests([{ channel: 'market', id: market, filter: 'all' }])).toEqual({ ok: true })
      await waitFor('a book for the market', () =>
        batches.some((b) => b.books?.some((book) => book.market === market)),
      )
      expect(simSubscribers(market)).toBe(1)

      const { port, token } = host
      await host.close()
      await waitFor('the market released with the page', () => simSubscribers(market) === 0)
      host = await startWebHost({ monitor: engine, rendererDir: fixture.root, logger, port, token })
      await waitFor('the page to reconnect and replay its interests', () => simSubscribers(market) === 1)
      expect(api.connected).toBe(true)
      expect(batches.some((b) => b.status?.state === 'offline')).toBe(true)
      const seqs = batches.map((b) => b.seq)
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y))
    } finally {
      api.close()
    }
    await waitFor('the market released after the page closed', () => simSubscribers(market) === 0)
  })

  it('never lets the API key into a bridge frame or a log line', async () => {
    const d = await page()
    const rejected = await d.call('setApiKey', [{ key: 'not-a-valid-key-1234567890' }])
    expect(rejected.ok).toBe(false)
    expect(await d.call('getKeyInfo')).toMatchObject({ ok: true, value: { hasKey: true } })
    await d.call('getStatus')
    await d.call('listProfiles')
    const everything = [...bridges.flatMap((bridge) => bridge.texts), ...logger.lines].join('\n')
    expect(everything.length).toBeGreaterThan(0)
    expect(everything).not.toContain(sim.demoKey)
    expect(everything).not.toContain('not-a-valid-key-1234567890')
    expect(everything).not.toContain(host.token)
  })
})
