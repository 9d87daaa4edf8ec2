// VoxFi's errors are close codes (docs.voxfi.com.br/en/websockets/errors): 4001 for the user channel's key rules
// (at subscribe and when a key goes bad mid-stream), 4004 for invalid messages, 4003 (fault) for a server error;
// and the heartbeat of /en/websockets/connection: a client that stops answering pings is dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createSimulator, VOXFI_CLOSE, type Simulator, type VoxfiListing } from '../../src/sim'
import { WsClient } from './helpers'

const PAST = '2020-01-01T00:00:00Z'
let sim: Simulator<VoxfiListing>
let market: string
const clients: WsClient[] = []

async function connect(localAddress?: string): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl, { localAddress })
  clients.push(c)
  return c
}

async function closedWith(c: WsClient, message: unknown): Promise<{ code: number; reason: string }> {
  c.send(message)
  return await Promise.race([
    c.closed,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not closed in time')), 5000)),
  ])
}

beforeAll(async () => {
  sim = await createSimulator({
    dialect: 'voxfi',
    seed: 9,
    tickMs: 20,
    accountMs: 200,
    config: {
      events: 3,
      marketsPerEvent: 2,
      keys: [
        { value: 'k-expired', expiresAt: PAST },
        { value: 'k-disabled', enabled: false },
        { value: 'k-revoked', revoked: true },
        { value: 'k-local', allowedIps: ['127.0.0.1'] },
        { value: 'k-rotate' },
        { value: 'k-expire-soon' },
      ],
    },
  })
  market = sim.listing()[0]!.markets[0]!.id
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await sim.close()
})

describe('4001 unauthorized', () => {
  it.each([
    ['an empty key', ''],
    ['a wrong key', 'nope'],
    ['an expired key', 'k-expired'],
    ['a disabled key', 'k-disabled'],
    ['a revoked key', 'k-revoked'],
  ])('user subscribe with %s closes the whole socket with 4001', async (_name, auth) => {
    const c = await connect()
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [market] },
      (m) => m.type === 'subscribed',
    )
    expect(await closedWith(c, { type: 'subscribe', channel: 'user', auth })).toEqual({
      code: VOXFI_CLOSE.unauthorized,
      reason: 'unauthorized',
    })
  })

  it('a key used from an address it does not allow closes with 4001 "ip not allowed"', async () => {
    const c = await connect('127.0.0.2')
    expect(await closedWith(c, { type: 'subscribe', channel: 'user', auth: 'k-local' })).toEqual({
      code: 4001,
      reason: 'ip not allowed',
    })
    const ok = await connect('127.0.0.1')
    await ok.request({ type: 'subscribe', channel: 'user', auth: 'k-local' }, (m) => m.type === 'subscribed')
  })

  it('a key revoked mid-stream closes its sockets with 4001, market data included; others live on', async () => {
    const [user, bystander] = [await connect(), await connect()]
    await user.request(
      { type: 'subscribe', channel: 'market', markets: [market] },
      (m) => m.type === 'subscribed',
    )
    await user.request(
      { type: 'subscribe', channel: 'user', auth: 'k-rotate' },
      (m) => m.type === 'subscribed',
    )
    await bystander.request(
      { type: 'subscribe', channel: 'market', markets: [market] },
      (m) => m.type === 'subscribed',
    )
    await user.waitFor((m) => m.market_id === market)
    expect(sim.setKeyState('k-rotate', { revoked: true })).toBe(true)
    expect(await user.closed).toEqual({ code: 4001, reason: 'unauthorized' })
    const from = bystander.mark()
    await bystander.waitFor((m) => m.market_id === market, { from })
  })

  it('a key that expires mid-stream is caught at the next check', async () => {
    const c = await connect()
    await c.request(
      { type: 'subscribe', channel: 'user', auth: 'k-expire-soon' },
      (m) => m.type === 'subscribed',
    )
    // Expiry is a property of time, not an event: no setKeyState revalidation happens here.
    sim.addKey({ value: 'k-expire-soon', expiresAt: new Date(Date.now() + 300).toISOString() })
    expect((await c.closed).code).toBe(4001)
  })
})

describe('4004 invalid message', () => {
  it.each<[string, unknown, string]>([
    ['bad JSON', '{"type":', 'invalid message'],
    ['a JSON array', '[1]', 'invalid message'],
    ['an unknown type', { type: 'subscribed', channel: 'market', markets: ['x'] }, 'invalid message type'],
    ['a missing type', { channel: 'market', markets: ['x'] }, 'invalid message type'],
    ['an unknown channel', { type: 'subscribe', channel: 'markets', markets: ['x'] }, 'invalid channel'],
    [
      'a bad filter',
      { type: 'subscribe', channel: 'market', markets: ['x'], filter: 'book' },
      'invalid filter',
    ],
    [
      'a non-string filter',
      { type: 'subscribe', channel: 'event', events: ['x'], filter: 1 },
      'invalid filter',
    ],
    ['missing markets', { type: 'subscribe', channel: 'market' }, 'markets is required'],
    ['empty markets', { type: 'unsubscribe', channel: 'market', markets: [] }, 'markets is required'],
    ['missing events', { type: 'subscribe', channel: 'event', markets: ['x'] }, 'events is required'],
    ['missing auth', { type: 'subscribe', channel: 'user' }, 'auth is required'],
    // Our choice (docs/voxfi.md §8 item 23): an id with a space or a control character is malformed.
    [
      'a market id with a space, beside a good one',
      { type: 'subscribe', channel: 'market', markets: ['x', 'BAD market'] },
      'invalid market id',
    ],
    [
      'an event id with a control character',
      { type: 'unsubscribe', channel: 'event', events: ['e\u0001'] },
      'invalid event id',
    ],
  ])('%s closes with 4004 and the docs reason', async (_name, message, reason) => {
    const c = await connect()
    expect(await closedWith(c, message)).toEqual({ code: VOXFI_CLOSE.invalidMessage, reason })
  })

  it('a binary frame closes with 4004', async () => {
    const c = await connect()
    c.ws.send(Buffer.from('{"type":"subscribe"}'), { binary: true })
    expect((await c.closed).code).toBe(4004)
  })
})

describe('4003 and other close codes (faults)', () => {
  it('serverError closes every connection with 4003 "server error"; new connections work', async () => {
    const [a, b] = [await connect(), await connect()]
    sim.faults.serverError()
    expect(await a.closed).toEqual({ code: VOXFI_CLOSE.serverError, reason: 'server error' })
    expect(await b.closed).toEqual({ code: 4003, reason: 'server error' })
    expect(sim.connections()).toBe(0)
    const c = await connect()
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [market] },
      (m) => m.type === 'subscribed',
    )
  })

  it('closeAll sends any code and reason; invalid codes are refused', async () => {
    const a = await connect()
    sim.faults.closeAll(4002, 'session is required')
    expect(await a.closed).toEqual({ code: 4002, reason: 'session is required' })
    expect(() => sim.faults.closeAll(1006, 'x')).toThrow(RangeError)
    expect(() => sim.faults.closeAll(5000)).toThrow(RangeError)
  })
})

describe('paths', () => {
  it('the WebSocket lives at the root path only', async () => {
    await expect(WsClient.connect(`${sim.wsUrl}/ws`)).rejects.toThrow(/404/)
    const root = await WsClient.connect(`${sim.wsUrl}/`)
    clients.push(root)
    expect(root.ws.readyState).toBe(WebSocket.OPEN)
  })
})

describe('heartbeat', () => {
  it('pings every pingMs; a client that answers stays, one that does not is dropped after pongTimeoutMs', async () => {
    const hb = await createSimulator({
      dialect: 'voxfi',
      seed: 2,
      tickMs: 50,
      pingMs: 60,
      pongTimeoutMs: 250,
      config: { events: 1, marketsPerEvent: 1 },
    })
    try {
      const answering = new WebSocket(hb.wsUrl)
      const silent = new WebSocket(hb.wsUrl, { autoPong: false })
      await Promise.all([answering, silent].map((w) => new Promise((r) => w.once('open', r))))
      let pings = 0
      silent.on('ping', () => pings++)
      const t0 = Date.now()
      const closed = await new Promise<{ code: number; at: number }>((resolve) =>
        silent.once('close', (code) => resolve({ code, at: Date.now() })),
      )
      // No close handshake for a dead peer: the server drops the TCP connection.
      expect(closed.code).toBe(1006)
      expect(closed.at - t0).toBeGreaterThanOrEqual(200)
      expect(closed.at - t0).toBeLessThan(2000)
      expect(pings).toBeGreaterThanOrEqual(2)
      await new Promise((r) => setTimeout(r, 400))
      expect(answering.readyState).toBe(WebSocket.OPEN)
      expect(hb.connections()).toBe(1)
      answering.close()
    } finally {
      await hb.close()
    }
  })

  it('defaults: 10 s pings and a 20 s timeout (no ping within the first few hundred ms)', async () => {
    const d = await createSimulator({ dialect: 'voxfi', seed: 2, config: { events: 1, marketsPerEvent: 1 } })
    try {
      const w = new WebSocket(d.wsUrl)
      await new Promise((r) => w.once('open', r))
      let pinged = false
      w.on('ping', () => (pinged = true))
      await new Promise((r) => setTimeout(r, 300))
      expect(pinged).toBe(false)
      w.close()
    } finally {
      await d.close()
    }
  })
})
