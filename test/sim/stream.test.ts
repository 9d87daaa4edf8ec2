// WebSocket per DESIGN §3.1 and spec §3 (lifecycle), §5 (user-channel auth), §6 (filters), §7, §8.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createSimulator, type Simulator } from '../../src/sim'
import {
  WsClient,
  applyBook,
  bestAsk,
  bestBid,
  isAck,
  isBook,
  isError,
  isTrade,
  type BookLevels,
  type Msg,
} from './helpers'

let sim: Simulator
let m1: string
let m2: string
let m3: string
let ev: string
let evMarkets: string[]
const clients: WsClient[] = []

async function connect(localAddress?: string): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl, { localAddress })
  clients.push(c)
  return c
}

beforeAll(async () => {
  sim = await createSimulator({
    seed: 3,
    tickMs: 20,
    accountMs: 200,
    config: {
      events: 4,
      marketsPerEvent: 3,
      keys: [
        { value: 'k-expired', expiresAt: '2020-01-01T00:00:00Z' },
        { value: 'k-disabled', enabled: false },
        { value: 'k-revoked', revoked: true },
        { value: 'k-local', allowedIps: ['127.0.0.1'] },
        { value: 'k-wallet', permissions: ['read_wallet'] },
        { value: 'k-none', permissions: [] },
        { value: 'k-rotate' },
      ],
    },
  })
  const events = sim.listing().events
  ev = events[1]?.id as string
  evMarkets = events[1]?.markets.map((m) => m.id) ?? []
  m1 = events[0]?.markets[0]?.id as string
  m2 = events[0]?.markets[1]?.id as string
  m3 = events[2]?.markets[0]?.id as string
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await sim.close()
})

describe('market channel', () => {
  it('acks, sends a full snapshot, then deltas with seq+1 that keep bid < ask, and trades at the touch', async () => {
    const c = await connect()
    const ack = await c.request(
      { type: 'subscribe', channel: 'market', markets: [m1] },
      isAck('subscribed', 'market'),
    )
    expect(ack).toEqual({ type: 'subscribed', channel: 'market', markets: [m1], filter: 'all' })
    const snap = await c.waitFor(isBook('market', m1, true))
    expect(snap.event).toBe(sim.listing().events[0]?.id)
    expect((snap.bids as unknown[]).length).toBeGreaterThanOrEqual(10)
    expect((snap.asks as unknown[]).length).toBeGreaterThanOrEqual(10)
    expect(typeof snap.ts).toBe('number')
    const start = c.messages.indexOf(snap)
    await c.collect(isBook('market', m1, false), 30, { from: start })
    await c.collect(isTrade('market', m1), 5, { from: start })
    const book: BookLevels = { bids: new Map(), asks: new Map() }
    let seq = -1
    for (const m of c.since(start, (x) => x.market === m1)) {
      if (m.type === 'trade') {
        expect(['buy', 'sell']).toContain(m.side)
        expect(m.size as number).toBeGreaterThan(0)
        expect(typeof m.id).toBe('string')
        // A buyer lifts the best ask, a seller hits the best bid, as the book stood before the trade.
        expect(m.price).toBe(m.side === 'buy' ? bestAsk(book) : bestBid(book))
        continue
      }
      if (m.snapshot === true) seq = m.seq as number
      else {
        expect(m.seq).toBe(seq + 1)
        seq = m.seq as number
      }
      applyBook(book, m)
      expect(bestBid(book)).toBeLessThan(bestAsk(book))
      for (const [p] of [...(m.bids as Array<[number, number]>), ...(m.asks as Array<[number, number]>)]) {
        expect(p).toBeGreaterThan(0)
        expect(p).toBeLessThan(1)
      }
    }
    // Re-subscribing is accepted and its fresh snapshot matches the book rebuilt from deltas.
    const from = c.mark()
    c.send({ type: 'subscribe', channel: 'market', markets: [m1] })
    await c.waitFor(isAck('subscribed', 'market'), { from })
    const fresh = await c.waitFor(isBook('market', m1, true), { from })
    for (const m of c.since(from, (x) => x.type === 'orderbook' && x.market === m1)) {
      if (m === fresh) break
      seq = m.seq as number
      applyBook(book, m)
    }
    expect(c.since(from, isError())).toEqual([])
    expect(fresh.seq).toBe(seq)
    expect(new Map(fresh.bids as Array<[number, number]>)).toEqual(book.bids)
    expect(new Map(fresh.asks as Array<[number, number]>)).toEqual(book.asks)
    expect(sim.subscriptions().find((s) => s.market.some((x) => x.id === m1))?.market).toEqual([
      { id: m1, filter: 'all' },
    ])
    await c.close()
  })

  it('honours filters exactly: orderbook, trades, "" = all (re-subscribe replaces the filter)', async () => {
    const [onlyBook, onlyTrades, all] = [await connect(), await connect(), await connect()]
    await onlyBook.request(
      { type: 'subscribe', channel: 'market', markets: [m2], filter: 'orderbook' },
      isAck('subscribed', 'market'),
    )
    const tAck = await onlyTrades.request(
      { type: 'subscribe', channel: 'market', markets: [m2], filter: 'trades' },
      isAck('subscribed', 'market'),
    )
    expect(tAck.filter).toBe('trades')
    const aAck = await all.request(
      { type: 'subscribe', channel: 'market', markets: [m2], filter: '' },
      isAck('subscribed', 'market'),
    )
    expect(aAck.filter).toBe('all')
    const from = all.mark()
    await all.collect(isTrade('market', m2), 5, { from })
    await all.collect(isBook('market', m2, false), 5, { from })
    await onlyTrades.collect(isTrade('market', m2), 3)
    await onlyBook.collect(isBook('market', m2), 3)
    expect(onlyBook.since(0, (m) => m.type === 'trade')).toEqual([])
    expect(onlyTrades.since(0, (m) => m.type === 'orderbook')).toEqual([])
    expect(all.since(0, (m) => m.type === 'orderbook' && m.snapshot === true)).toHaveLength(1)
    // Switching the trades-only connection to orderbook: snapshot then book updates, no more trades.
    const sw = onlyTrades.mark()
    onlyTrades.send({ type: 'subscribe', channel: 'market', markets: [m2], filter: 'orderbook' })
    await onlyTrades.waitFor(isBook('market', m2, true), { from: sw })
    const after = onlyTrades.mark()
    await onlyTrades.collect(isBook('market', m2, false), 5, { from: after })
    await all.collect(isTrade('market', m2), 3, { from: all.mark() })
    expect(onlyTrades.since(after, (m) => m.type === 'trade')).toEqual([])
  })

  it('unsubscribing some ids leaves the others flowing', async () => {
    const c = await connect()
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [m1, m3] },
      isAck('subscribed', 'market'),
    )
    const ack = await c.request(
      { type: 'unsubscribe', channel: 'market', markets: [m1] },
      isAck('unsubscribed', 'market'),
    )
    expect(ack).toEqual({ type: 'unsubscribed', channel: 'market', markets: [m1] })
    const after = c.messages.indexOf(ack) + 1
    await c.collect((m) => m.market === m3 && m.type === 'orderbook', 10, { from: after })
    expect(c.since(after, (m) => m.market === m1)).toEqual([])
    const mine = sim.subscriptions().filter((s) => s.market.some((x) => x.id === m3) && s.market.length === 1)
    expect(mine.length).toBeGreaterThanOrEqual(1)
  })

  it('accepts unknown ids (acked and listed as unknown) without data', async () => {
    const c = await connect()
    const ack = await c.request(
      { type: 'subscribe', channel: 'market', markets: ['no-such-market', m1] },
      isAck('subscribed', 'market'),
    )
    expect(ack.unknown).toEqual(['no-such-market'])
    await c.collect(isBook('market', m1), 3)
    expect(c.since(0, (m) => m.market === 'no-such-market')).toEqual([])
  })
})

describe('event channel', () => {
  it('sends snapshots and updates for every market of the event, with channel "event" and the filter applied', async () => {
    const c = await connect()
    const ack = await c.request(
      { type: 'subscribe', channel: 'event', events: [ev] },
      isAck('subscribed', 'event'),
    )
    expect(ack).toEqual({ type: 'subscribed', channel: 'event', events: [ev], filter: 'all' })
    for (const mk of evMarkets) {
      const snap = await c.waitFor(isBook('event', mk, true))
      expect(snap.event).toBe(ev)
      await c.collect(isBook('event', mk, false), 2)
      await c.waitFor(isTrade('event', mk))
    }
    expect(c.since(0, (m) => m.channel === 'market')).toEqual([])
    expect(c.since(0, (m) => m.channel === 'event' && 'market' in m && m.event !== ev)).toEqual([])

    const t = await connect()
    await t.request(
      { type: 'subscribe', channel: 'event', events: [ev], filter: 'trades' },
      isAck('subscribed', 'event'),
    )
    await t.collect(isTrade('event'), 5)
    expect(t.since(0, (m) => m.type === 'orderbook')).toEqual([])

    const ua = await c.request(
      { type: 'unsubscribe', channel: 'event', events: [ev] },
      isAck('unsubscribed', 'event'),
    )
    expect(ua).toEqual({ type: 'unsubscribed', channel: 'event', events: [ev] })
    const after = c.messages.indexOf(ua) + 1
    await t.collect(isTrade('event'), 5, { from: t.mark() })
    expect(c.since(after, (m) => m.channel === 'event')).toEqual([])
  })
})

describe('lifecycle (spec §3)', () => {
  it('one connection holds several channels and resources; closing it drops them all; a new one starts empty', async () => {
    const c = await connect()
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [m1, m2], filter: 'trades' },
      isAck('subscribed', 'market'),
    )
    await c.request(
      { type: 'subscribe', channel: 'event', events: [ev], filter: 'orderbook' },
      isAck('subscribed', 'event'),
    )
    await c.request({ type: 'subscribe', channel: 'user', auth: sim.demoKey }, isAck('subscribed', 'user'))
    const all = sim.subscriptions()
    const mine = all[all.length - 1]
    expect(mine).toEqual({
      connection: expect.any(Number),
      market: [
        { id: m1, filter: 'trades' },
        { id: m2, filter: 'trades' },
      ],
      event: [{ id: ev, filter: 'orderbook' }],
      user: true,
    })
    await c.collect((m) => m.channel === 'user', 1)
    await c.collect(isTrade('market'), 2)
    await c.collect(isBook('event'), 2)
    const before = sim.connections()
    await c.close()
    await expect.poll(() => sim.connections()).toBe(before - 1)
    expect(sim.subscriptions().some((s) => s.connection === mine?.connection)).toBe(false)

    const fresh = await connect()
    const watcher = await connect()
    await watcher.request(
      { type: 'subscribe', channel: 'market', markets: [m1, m2] },
      isAck('subscribed', 'market'),
    )
    await watcher.collect((m) => m.channel === 'market', 20)
    expect(fresh.messages).toEqual([])
    expect(
      sim.subscriptions().find((s) => s.market.length === 0 && s.event.length === 0 && !s.user),
    ).toBeDefined()
  })
})

describe('invalid requests (DESIGN §3.1)', () => {
  it.each<[string, unknown]>([
    ['bad JSON', '{"type":"subscribe",'],
    ['not an object', '[1,2,3]'],
    ['unknown type', { type: 'subscrib', channel: 'market', markets: ['x'] }],
    ['missing type', { channel: 'market', markets: ['x'] }],
    ['unknown channel', { type: 'subscribe', channel: 'markets', markets: ['x'] }],
    ['missing markets', { type: 'subscribe', channel: 'market' }],
    ['empty events', { type: 'subscribe', channel: 'event', events: [] }],
    ['markets not strings', { type: 'unsubscribe', channel: 'market', markets: [1] }],
    ['user without auth', { type: 'subscribe', channel: 'user' }],
    ['unknown filter', { type: 'subscribe', channel: 'market', markets: ['x'], filter: 'book' }],
  ])('%s -> invalid_request, and the connection stays usable', async (_name, message) => {
    const c = await connect()
    const err = await c.request(message, isError())
    expect(err.error).toBe('invalid_request')
    expect(typeof err.message).toBe('string')
    expect((err.message as string).length).toBeGreaterThan(0)
    expect(Object.keys(err).sort()).toEqual(['error', 'message', 'type'])
    expect(c.ws.readyState).toBe(WebSocket.OPEN)
    await c.request({ type: 'subscribe', channel: 'market', markets: [m1] }, isAck('subscribed', 'market'))
    await c.close()
  })

  it('a binary frame is an invalid_request too', async () => {
    const c = await connect()
    const from = c.mark()
    c.ws.send(Buffer.from('{"type":"subscribe"}'), { binary: true })
    expect((await c.waitFor(isError(), { from })).error).toBe('invalid_request')
    await c.request({ type: 'unsubscribe', channel: 'user' }, isAck('unsubscribed', 'user'))
    await c.close()
  })
})

describe('user channel (spec §5, §7)', () => {
  const userTypes = (c: WsClient, from = 0): Set<unknown> =>
    new Set(c.since(from, (m) => m.channel === 'user' && m.type !== 'subscribed').map((m) => m.type))

  it('a valid key gets order, fill, position and balance updates', async () => {
    const c = await connect()
    const ack = await c.request(
      { type: 'subscribe', channel: 'user', auth: sim.demoKey },
      isAck('subscribed', 'user'),
    )
    expect(ack).toEqual({ type: 'subscribed', channel: 'user' })
    const bal = await c.waitFor((m) => m.channel === 'user' && m.type === 'balance')
    expect(typeof bal.available).toBe('number')
    expect(typeof bal.total).toBe('number')
    for (const type of ['order', 'fill', 'position'])
      await c.waitFor((m) => m.channel === 'user' && m.type === type)
    const fill = c.since(0, (m) => m.type === 'fill')[0] as Msg
    expect(fill).toMatchObject({ channel: 'user', market: expect.any(String), price: expect.any(Number) })
    // The key never comes back on the wire.
    expect(c.raw.some((r) => r.includes(sim.demoKey))).toBe(false)
    const un = await c.request({ type: 'unsubscribe', channel: 'user' }, isAck('unsubscribed', 'user'))
    const after = c.messages.indexOf(un) + 1
    const w = await connect()
    await w.request({ type: 'subscribe', channel: 'user', auth: sim.demoKey }, isAck('subscribed', 'user'))
    await w.collect((m) => m.channel === 'user' && m.type === 'order', 3)
    expect(c.since(after, (m) => m.channel === 'user')).toEqual([])
  })

  it.each(['nope', 'k-expired', 'k-disabled', 'k-revoked'])(
    'key %s -> unauthorized, connection stays open',
    async (key) => {
      const c = await connect()
      const err = await c.request({ type: 'subscribe', channel: 'user', auth: key }, isError())
      expect(err).toEqual({ type: 'error', error: 'unauthorized', message: expect.any(String) })
      expect(c.ws.readyState).toBe(WebSocket.OPEN)
      await c.request({ type: 'subscribe', channel: 'user', auth: sim.demoKey }, isAck('subscribed', 'user'))
      await c.close()
    },
  )

  it('ip not allowed from 127.0.0.2 for a key restricted to 127.0.0.1; accepted from 127.0.0.1', async () => {
    const other = await connect('127.0.0.2')
    const err = await other.request({ type: 'subscribe', channel: 'user', auth: 'k-local' }, isError())
    expect(err).toEqual({ type: 'error', error: 'ip not allowed', message: expect.any(String) })
    expect(other.ws.readyState).toBe(WebSocket.OPEN)
    // Market data needs no key (our reading of the spec), so the same connection still works.
    await other.request(
      { type: 'subscribe', channel: 'market', markets: [m1] },
      isAck('subscribed', 'market'),
    )
    const local = await connect('127.0.0.1')
    await local.request({ type: 'subscribe', channel: 'user', auth: 'k-local' }, isAck('subscribed', 'user'))
    await local.waitFor((m) => m.channel === 'user')
  })

  it('permissions limit what a key sees; empty permissions mean all five', async () => {
    const wallet = await connect()
    const none = await connect()
    await wallet.request(
      { type: 'subscribe', channel: 'user', auth: 'k-wallet' },
      isAck('subscribed', 'user'),
    )
    await none.request({ type: 'subscribe', channel: 'user', auth: 'k-none' }, isAck('subscribed', 'user'))
    for (const type of ['order', 'fill', 'position', 'balance']) await none.waitFor((m) => m.type === type)
    await wallet.collect((m) => m.type === 'balance', 3)
    expect(userTypes(wallet)).toEqual(new Set(['balance']))
  })

  it('a key revoked mid-stream ends the user subscription with unauthorized', async () => {
    const c = await connect()
    await c.request({ type: 'subscribe', channel: 'user', auth: 'k-rotate' }, isAck('subscribed', 'user'))
    await c.waitFor((m) => m.channel === 'user')
    const from = c.mark()
    sim.setKeyState('k-rotate', { revoked: true })
    const err = await c.waitFor(isError(), { from })
    expect(err.error).toBe('unauthorized')
    const after = c.messages.indexOf(err) + 1
    const w = await connect()
    await w.request({ type: 'subscribe', channel: 'user', auth: sim.demoKey }, isAck('subscribed', 'user'))
    await w.collect((m) => m.channel === 'user' && m.type === 'balance', 3, { from: w.mark() })
    expect(c.since(after, (m) => m.channel === 'user')).toEqual([])
    expect(c.ws.readyState).toBe(WebSocket.OPEN)
  })
})

describe('liveness', () => {
  it('the server pings, and drops a client that never answers', async () => {
    const s = await createSimulator({ pingMs: 100, tickMs: 50 })
    try {
      const ok = await WsClient.connect(s.wsUrl)
      const pings = new Promise<void>((resolve) => ok.ws.once('ping', () => resolve()))
      const mute = new WebSocket(s.wsUrl, { autoPong: false })
      const muteClosed = new Promise<number>((resolve) => mute.on('close', (code) => resolve(code)))
      await pings
      expect(await muteClosed).toBe(1006)
      expect(ok.ws.readyState).toBe(WebSocket.OPEN)
      await ok.close()
    } finally {
      await s.close()
    }
  })
})
