// The renderer's bridge client in Node, against the real host over real sockets (the `ws` package stands in
// for the browser's WebSocket). The engine is the recording fake, so the tests can see exactly which calls
// reach it and when; engine.test.ts drives the client against the real engine.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { bridgeUrl, createBridgeApi, type BridgeApi } from '../../src/renderer/api/bridge-client'
import { readWindowTarget, windowTargetQuery } from '../../src/renderer/api/window-target'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import type { ViewBatch } from '../../src/shared/ipc'
import type { StreamStatus } from '../../src/shared/model'
import { book } from '../shared/batch-fixtures'
import { fakeEngine, type FakeEngine } from './fake-engine'
import { captureLogger, PageSocket, rendererFixture, waitFor, type RendererFixture } from './helpers'

let fixture: RendererFixture
const logger = captureLogger()
const open: Array<{ close(): unknown }> = []
const fast = { reconnect: { baseMs: 20, maxMs: 200 } }

function client(host: WebHost, extra: Partial<Parameters<typeof createBridgeApi>[0]> = {}): BridgeApi {
  const api = createBridgeApi({
    url: host.url,
    token: host.token,
    WebSocketImpl: PageSocket,
    ...fast,
    ...extra,
  })
  open.push(api)
  return api
}

async function host(engine: FakeEngine, options: { port?: number; token?: string } = {}): Promise<WebHost> {
  const started = await startWebHost({ monitor: engine, rendererDir: fixture.root, logger, ...options })
  open.push(started)
  return started
}

const status = (state: StreamStatus['state']): StreamStatus => ({
  profileId: 'demo',
  state,
  reconnects: 0,
  connectedSince: null,
  lastMessageAt: null,
  nextRetryAt: null,
  authError: null,
  credentialsError: null,
  lastError: null,
  rateLimit: null,
  counters: { frames: 0, updates: 0, malformed: 0, unknown: 0, oversized: 0 },
  incidents: [],
  hasKey: false,
})

beforeAll(() => {
  fixture = rendererFixture()
})
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close()
})
afterAll(() => fixture?.cleanup())

describe('createBridgeApi', () => {
  it('derives the bridge URL from the page URL', () => {
    expect(bridgeUrl('http://127.0.0.1:5000/?token=old&view=main#x', 'abc')).toBe(
      'ws://127.0.0.1:5000/bridge?token=abc',
    )
    expect(bridgeUrl('https://example.test/app/', 't')).toBe('wss://example.test/bridge?token=t')
    expect(bridgeUrl('ws://localhost:9/bridge', 't')).toBe('ws://localhost:9/bridge?token=t')
  })

  it('queues calls made while connecting and resolves each with its Result', async () => {
    const engine = fakeEngine()
    const h = await host(engine)
    const api = client(h)
    expect(api.connected).toBe(false)
    const [events, depth, bad] = await Promise.all([
      api.listEvents(),
      api.setBookDepth(10),
      api.setBookDepth(0),
    ])
    expect(events).toMatchObject({ ok: true, value: [{ id: 'e1' }] })
    expect(depth).toEqual({ ok: true, value: null })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(api.connected).toBe(true)
    // listEvents() with its optional argument omitted reaches the engine with no arguments.
    expect(engine.calls.find((c) => c.method === 'listEvents')?.args).toEqual([])
  })

  it('delivers pushed batches to every listener until it unsubscribes', async () => {
    const engine = fakeEngine()
    const h = await host(engine)
    const api = client(h)
    const first: ViewBatch[] = []
    const second: ViewBatch[] = []
    const stopFirst = api.onBatch((batch) => first.push(batch))
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    api.onBatch(() => {
      throw new Error('a broken listener must not starve the others')
    })
    api.onBatch((batch) => second.push(batch))
    await api.getKeyInfo()
    const sink = [...engine.sinks.values()][0]
    sink?.({ seq: 1, at: 1, eventsChanged: true })
    await waitFor('the first batch', () => first.length === 1 && second.length === 1)
    stopFirst()
    sink?.({ seq: 2, at: 2, status: status('live') })
    await waitFor('the second batch', () => second.length === 2)
    expect(first).toHaveLength(1)
    expect(second[1]?.status?.state).toBe('live')
    expect(second[1]?.seq).toBeGreaterThan(second[0]?.seq ?? Infinity)
    expect(consoleError).toHaveBeenCalledTimes(2)
    consoleError.mockRestore()
  })

  it('acknowledges each batch, so a flood reaches it as a few batches and one with the newest state', async () => {
    const engine = fakeEngine()
    const h = await host(engine)
    const api = client(h)
    const got: ViewBatch[] = []
    api.onBatch((batch) => got.push(batch))
    await api.getKeyInfo()
    const sink = [...engine.sinks.values()][0]
    // One batch read and acknowledged first: the host paces this page by its acknowledgements from then on.
    sink?.({ seq: 1, at: 1, books: [book('m1', 1)] })
    await waitFor('the first batch', () => got.length === 1)
    await api.getKeyInfo()
    for (let seq = 2; seq <= 40; seq++) sink?.({ seq, at: seq, books: [book('m1', seq)] })
    await waitFor('the newest book', () => got.at(-1)?.books?.[0]?.seq === 40)
    expect(got.length).toBeLessThanOrEqual(5)
  })

  it('reconnects after the host drops, replays the window state and flushes calls made meanwhile', async () => {
    const engine = fakeEngine()
    const first = await host(engine)
    const api = client(first)
    const batches: ViewBatch[] = []
    api.onBatch((batch) => batches.push(batch))
    const interests = [{ channel: 'market' as const, id: 'm1', filter: 'all' as const }]
    expect((await api.setInterests(interests)).ok).toBe(true)
    expect((await api.setBookDepth(7)).ok).toBe(true)
    expect((await api.setVisibility(false)).ok).toBe(true)
    engine.sinks.get('c1')?.({ seq: 1, at: 1, status: status('live') })
    await waitFor('the live status', () => batches.length === 1)

    engine.hang.add('getUserHistory')
    const inFlight = api.getUserHistory()
    await waitFor('the hanging call to reach the engine', () =>
      engine.calls.some((c) => c.method === 'getUserHistory'),
    )
    await first.close()
    // The call that was on the wire fails as a network error; the page is told it is offline.
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'network' } })
    await waitFor('the offline status', () => batches.some((b) => b.status?.state === 'offline'))
    expect(api.connected).toBe(false)

    const meanwhile = api.listEvents({ refresh: true })
    const attachedBefore = engine.attached
    // Same port and token: the page's URL stays valid across a host restart.
    engine.hang.clear()
    await host(engine, { port: first.port, token: first.token })
    expect(await meanwhile).toMatchObject({ ok: true })
    expect(engine.attached).toBe(attachedBefore + 1)
    const replayed = engine.calls.filter((c) => c.client === `c${engine.attached}`)
    expect(replayed.find((c) => c.method === 'setInterests')?.args).toEqual([interests])
    expect(replayed.find((c) => c.method === 'setBookDepth')?.args).toEqual([7])
    // A hidden page stays hidden for the host's new engine client.
    expect(replayed.find((c) => c.method === 'setVisibility')?.args).toEqual([false])
    expect(replayed.find((c) => c.method === 'listEvents')?.args).toEqual([{ refresh: true }])
    // Replayed state reaches the engine before the queued call.
    expect(replayed.findIndex((c) => c.method === 'setInterests')).toBeLessThan(
      replayed.findIndex((c) => c.method === 'listEvents'),
    )
  })

  it('tells its connection listeners of a close before the offline status it delivers, and of the reopen', async () => {
    const engine = fakeEngine()
    const first = await host(engine)
    const api = client(first)
    const seen: string[] = []
    api.onConnectionChange((open) => seen.push(open ? 'open' : 'closed'))
    api.onBatch((batch) => seen.push(`batch ${batch.status?.state ?? '-'}`))
    await waitFor('the socket to open', () => api.connected)
    engine.sinks.get('c1')?.({ seq: 1, at: 1, status: status('live') })
    await waitFor('the live status', () => seen.includes('batch live'))
    await first.close()
    await waitFor('the offline status', () => seen.includes('batch offline'))
    await host(engine, { port: first.port, token: first.token })
    await waitFor('the reopen', () => seen.filter((s) => s === 'open').length === 2)
    expect(seen.slice(0, 4)).toEqual(['open', 'batch live', 'closed', 'batch offline'])
  })

  it('prefers a call queued while offline over replaying the older state', async () => {
    const engine = fakeEngine()
    const first = await host(engine)
    const api = client(first)
    await api.setInterests([{ channel: 'user' }])
    await first.close()
    await waitFor('the client to notice', () => !api.connected)
    const newer = api.setInterests([])
    await host(engine, { port: first.port, token: first.token })
    expect((await newer).ok).toBe(true)
    const latest = engine.calls.filter(
      (c) => c.client === `c${engine.attached}` && c.method === 'setInterests',
    )
    expect(latest.map((c) => c.args)).toEqual([[[]]])
  })

  it('resolves instead of rejecting when the host never answers, the token is missing, or it was closed', async () => {
    const engine = fakeEngine()
    const h = await host(engine)
    engine.hang.add('resync')
    const slow = client(h, { callTimeoutMs: 300 })
    expect(await slow.resync('m1')).toMatchObject({ ok: false, error: { code: 'timeout' } })

    const noToken = createBridgeApi({ url: h.url, token: '', WebSocketImpl: PageSocket })
    expect(await noToken.listEvents()).toMatchObject({ ok: false, error: { code: 'network' } })
    expect(engine.attached).toBe(1)

    const wrongToken = client(h, { token: 'f'.repeat(32), callTimeoutMs: 300 })
    expect(await wrongToken.listEvents()).toMatchObject({ ok: false, error: { code: 'timeout' } })
    expect(wrongToken.connected).toBe(false)

    const closing = client(h)
    await closing.getKeyInfo()
    closing.close()
    expect(await closing.getKeyInfo()).toMatchObject({ ok: false, error: { code: 'network' } })
  })

  it('opens windows on the same host with the shared query contract', async () => {
    const engine = fakeEngine()
    const h = await host(engine)
    const opened: string[] = []
    const api = client(h, { openUrl: (url) => opened.push(url) })
    expect(await api.openWindow({ kind: 'market', market: 'm 1&x' })).toEqual({ ok: true, value: undefined })
    expect(await api.openWindow({ kind: 'event', event: 'e1' })).toEqual({ ok: true, value: undefined })
    expect(opened[0]).toBe(`/?token=${h.token}&view=market&market=m+1%26x`)
    expect(readWindowTarget(opened[0]?.slice(1) ?? '')).toEqual({ kind: 'market', market: 'm 1&x' })
    expect(readWindowTarget(opened[1]?.slice(1) ?? '')).toEqual({ kind: 'event', event: 'e1' })
    // The host never sees openWindow.
    expect(engine.calls.some((c) => c.method === 'openWindow')).toBe(false)
    const noWindow = client(h)
    expect(await noWindow.openWindow({ kind: 'main' })).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    })
  })
})

describe('readWindowTarget', () => {
  it('parses valid targets and falls back to main for anything else', () => {
    expect(readWindowTarget('?view=market&market=abc')).toEqual({ kind: 'market', market: 'abc' })
    expect(readWindowTarget('view=event&event=e-1&token=x')).toEqual({ kind: 'event', event: 'e-1' })
    expect(readWindowTarget('?view=main')).toEqual({ kind: 'main' })
    expect(readWindowTarget('')).toEqual({ kind: 'main' })
    expect(readWindowTarget('?view=market')).toEqual({ kind: 'main' })
    expect(readWindowTarget('?view=market&market=')).toEqual({ kind: 'main' })
    expect(readWindowTarget(`?view=market&market=${'x'.repeat(201)}`)).toEqual({ kind: 'main' })
    expect(readWindowTarget('?view=event&market=abc')).toEqual({ kind: 'main' })
    expect(readWindowTarget('?view=settings')).toEqual({ kind: 'main' })
    expect(readWindowTarget('?view=__proto__')).toEqual({ kind: 'main' })
  })

  it('round-trips through windowTargetQuery', () => {
    for (const target of [
      { kind: 'main' as const },
      { kind: 'market' as const, market: 'ü/?#&=' },
      { kind: 'event' as const, event: 'E 42' },
    ]) {
      expect(readWindowTarget(windowTargetQuery(target, 'tok'))).toEqual(target)
    }
    expect(windowTargetQuery({ kind: 'main' })).toBe('view=main')
  })
})
