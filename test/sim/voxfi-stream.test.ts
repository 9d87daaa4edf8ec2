// The VoxFi dialect's WebSocket over real loopback sockets: acks, market and event channel frames (whole YES and NO
// books, new-trade, update) with the docs' keys and nesting, filters, the user channel, and text ping/pong.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator, type VoxfiListing } from '../../src/sim'
import { WsClient, sleep, type Msg, type Pred } from './helpers'
import { expectShape, FIXTURES, fixture } from './voxfi-fixtures'

type Lv = { price_ticks: number; quantity: number; order_count: number }
type WsSide = {
  outcome: string
  bids: Lv[]
  asks: Lv[]
  spread: number | null
  last_transaction: number | null
}
type Book = {
  yes_orderbook: WsSide
  no_orderbook: WsSide
  market_price_yes: number
  market_price_no: number
  chance: number
  volume: number
  liquidity: number
  spread_yes: number | null
  spread_no: number | null
}

const frame =
  (type: string, market?: string): Pred =>
  (m) =>
    m.msg_type === type && (market === undefined || m.market_id === market)
const ack =
  (type: 'subscribed' | 'unsubscribed', channel: string): Pred =>
  (m) =>
    m.type === type && m.channel === channel

/** Both whole books: integer ticks in 1..99, best first, YES uncrossed, NO never crossing the YES bids or asks. */
function expectConsistent(b: Book): void {
  const { yes_orderbook: yes, no_orderbook: no } = b
  expect(yes.outcome).toBe('YES')
  expect(no.outcome).toBe('NO')
  for (const l of [...yes.bids, ...yes.asks, ...no.bids, ...no.asks]) {
    expect(Number.isInteger(l.price_ticks) && l.price_ticks >= 1 && l.price_ticks <= 99).toBe(true)
    expect(l.quantity).toBeGreaterThan(0)
    expect(l.order_count).toBeGreaterThanOrEqual(1)
  }
  const yb = yes.bids[0]!.price_ticks
  const ya = yes.asks[0]!.price_ticks
  expect(yb).toBeLessThan(ya)
  expect(yes.spread).toBe(ya - yb)
  expect(b.spread_yes).toBe(yes.spread)
  expect(b.spread_no).toBe(no.spread)
  if (no.bids[0] !== undefined) expect(100 - no.bids[0].price_ticks).toBeGreaterThanOrEqual(yb + 1)
  if (no.asks[0] !== undefined) expect(100 - no.asks[0].price_ticks).toBeLessThanOrEqual(ya - 1)
  for (const l of yes.bids.slice(1)) expect(l.price_ticks).toBeLessThan(yb)
  for (const l of no.bids) for (const a of no.asks) expect(l.price_ticks).toBeLessThan(a.price_ticks)
  expect(b.market_price_no).toBe(100 - b.market_price_yes)
  expect(b.chance).toBe(b.market_price_yes)
  const all = [...yes.bids, ...yes.asks, ...no.bids, ...no.asks]
  expect(b.liquidity).toBe(all.reduce((s, l) => s + l.quantity, 0))
}

let sim: Simulator<VoxfiListing>
let listing: VoxfiListing
const clients: WsClient[] = []
async function connect(): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl)
  clients.push(c)
  return c
}

beforeAll(async () => {
  sim = await createSimulator({
    dialect: 'voxfi',
    seed: 5,
    tickMs: 20,
    accountMs: 150,
    config: {
      events: 6,
      marketsPerEvent: 3,
      keys: [
        { value: 'k-orders', permissions: ['read_orders'] },
        { value: 'k-wallet', permissions: ['read_wallet'] },
      ],
    },
  })
  listing = sim.listing()
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await sim.close()
})

describe('VoxFi acks', () => {
  it('acks subscribe/unsubscribe with status ok and the lists, shaped as the playground; no book on subscribe', async () => {
    const c = await connect()
    const m = listing[0]!.markets[0]!.id
    const e = listing[1]!.id
    const a1 = await c.request(
      { type: 'subscribe', channel: 'market', markets: [m, m], filter: 'orderbook' },
      ack('subscribed', 'market'),
    )
    expect(a1).toEqual({ type: 'subscribed', channel: 'market', status: 'ok', markets: [m], events: null })
    expect(c.raw[0]).toBe(JSON.stringify(a1))
    expectShape(a1, fixture('ws-ack-subscribed-market-page.json'))
    // The next message is whatever the market does next, never a snapshot sent because of the subscribe.
    const a2 = await c.request(
      { type: 'subscribe', channel: 'event', events: [e] },
      ack('subscribed', 'event'),
    )
    expect(a2).toEqual({ type: 'subscribed', channel: 'event', status: 'ok', markets: null, events: [e] })
    const a3 = await c.request(
      { type: 'subscribe', channel: 'user', auth: sim.demoKey },
      ack('subscribed', 'user'),
    )
    expect(a3).toEqual(fixture('ws-ack-subscribed-user.json'))
    expect(sim.subscriptions().at(-1)).toMatchObject({
      market: [{ id: m, filter: 'orderbook' }],
      event: [{ id: e, filter: 'all' }],
      user: true,
    })
    const u1 = await c.request(
      { type: 'unsubscribe', channel: 'market', markets: [m] },
      ack('unsubscribed', 'market'),
    )
    expect(u1).toEqual({ type: 'unsubscribed', channel: 'market', status: 'ok', markets: [m], events: null })
    const u2 = await c.request(
      { type: 'unsubscribe', channel: 'event', events: [e] },
      ack('unsubscribed', 'event'),
    )
    expect(u2).toEqual({ type: 'unsubscribed', channel: 'event', status: 'ok', markets: null, events: [e] })
    const u3 = await c.request({ type: 'unsubscribe', channel: 'user' }, ack('unsubscribed', 'user'))
    expect(u3).toEqual(fixture('ws-ack-unsubscribed-user.json'))
    expect(sim.subscriptions().at(-1)).toMatchObject({ market: [], event: [], user: false })
    // Re-subscribing and unknown ids are accepted.
    await c.request(
      { type: 'subscribe', channel: 'market', markets: ['no-such-market'], filter: '' },
      ack('subscribed', 'market'),
    )
    await c.request(
      { type: 'subscribe', channel: 'market', markets: ['no-such-market'], filter: 'all' },
      ack('subscribed', 'market'),
    )
    expect(c.ws.readyState).toBe(c.ws.OPEN)
    await c.close()
  })

  it('a fresh subscription gets its ack and then only changes: no book is pushed on subscribe', async () => {
    const c = await connect()
    const m = listing[2]!.markets[0]!.id
    c.send({ type: 'subscribe', channel: 'market', markets: [m] })
    await c.waitFor(ack('subscribed', 'market'))
    expect(c.messages[0]?.type).toBe('subscribed')
    await c.close()
  })
})

describe('VoxFi client messages from the docs', () => {
  it('every documented subscribe/unsubscribe example is acked on one connection, which stays open', async () => {
    const index = JSON.parse(readFileSync(join(FIXTURES, 'index.json'), 'utf8')) as {
      files: Array<{ file: string; kind: string }>
    }
    const examples = index.files
      .filter((f) => f.kind === 'ws-client')
      .map((f) => fixture(f.file))
      .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    expect(examples.length).toBeGreaterThanOrEqual(10)
    const c = await connect()
    for (const e of examples) {
      // The docs' placeholder key is not a key: that one is the 4001 case, tested with the close codes.
      const message = e.channel === 'user' && e.type === 'subscribe' ? { ...e, auth: sim.demoKey } : e
      const reply = await c.request(
        message,
        (m) => m.type === `${String(e.type)}d` && m.channel === e.channel,
      )
      expect(reply.status).toBe('ok')
      if (e.channel === 'market') expect(reply.markets).toEqual([...new Set(e.markets as string[])])
      if (e.channel === 'event') expect(reply.events).toEqual([...new Set(e.events as string[])])
    }
    expect(c.ws.readyState).toBe(c.ws.OPEN)
    c.ws.send(fixture('ws-client-text-ping.json') as string)
    const deadline = Date.now() + 5000
    while (!c.raw.includes(fixture('ws-heartbeat-text-pong.json') as string) && Date.now() < deadline)
      await sleep(10)
    expect(c.raw).toContain('pong')
    await c.close()
  })
})

describe('VoxFi market channel', () => {
  it('update-orderbook carries both whole books with the docs keys; books stay consistent step after step', async () => {
    const c = await connect()
    const m = listing[0]!.markets[1]!.id
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [m], filter: 'orderbook' },
      ack('subscribed', 'market'),
    )
    const frames = await c.collect(frame('update-orderbook', m), 25)
    const example = fixture('ws-market-update-orderbook.json')
    for (const f of frames) {
      expectShape(f, example)
      expect(f.event_id).toBe(listing[0]!.id)
      expectConsistent(f.orderbook as Book)
    }
    // A filter of orderbook gets nothing else.
    expect(c.since(0, (x) => x.msg_type !== undefined && x.msg_type !== 'update-orderbook')).toEqual([])
    await c.close()
  })

  it('new-trade carries last_trade as the docs show it, to filter "trades" only; "all" gets update when both changed', async () => {
    const [trades, all] = [await connect(), await connect()]
    const m = listing[0]!.markets[0]!.id
    await trades.request(
      { type: 'subscribe', channel: 'market', markets: [m], filter: 'trades' },
      ack('subscribed', 'market'),
    )
    await all.request({ type: 'subscribe', channel: 'market', markets: [m] }, ack('subscribed', 'market'))
    const prints = await trades.collect(frame('new-trade', m), 6)
    const example = fixture('ws-market-new-trade.json')
    for (const t of prints) {
      expectShape(t, example)
      const lt = t.last_trade as {
        canceled: boolean
        taker_id: string
        total_amount: number
        qty_contracts: number
        avg_price: number
        side: string
        contract_type: string
        makers: Array<{
          maker_id: string
          qty_contracts: number
          price: number
          total_amount: number
          side: string
          contract_type: string
        }>
      }
      expect(lt.canceled).toBe(false)
      expect(['BUY', 'SELL']).toContain(lt.side)
      expect(['YES', 'NO']).toContain(lt.contract_type)
      expect(Number.isInteger(lt.avg_price) && lt.avg_price >= 1 && lt.avg_price <= 99).toBe(true)
      expect(lt.total_amount).toBe(lt.qty_contracts * lt.avg_price)
      expect(lt.makers.reduce((s, x) => s + x.qty_contracts, 0)).toBe(lt.qty_contracts)
      for (const mk of lt.makers) {
        expect(mk.side).not.toBe(lt.side)
        expect(mk.contract_type).toBe(lt.contract_type)
        expect(mk.price).toBe(lt.avg_price)
        expect(mk.maker_id).not.toBe(lt.taker_id)
      }
    }
    expect(trades.since(0, (x) => x.msg_type !== undefined && x.msg_type !== 'new-trade')).toEqual([])
    const updates = await all.collect(frame('update', m), 3)
    const uex = fixture('ws-market-update.json')
    for (const u of updates) {
      expectShape(u, uex)
      expectConsistent(u.orderbook as Book)
    }
    // At most one frame per market per step for one subscription; "all" sees both kinds of news.
    expect(all.since(0, frame('update-orderbook', m)).length).toBeGreaterThan(0)
    await Promise.all([trades.close(), all.close()])
  })

  it('YES prints take the YES touch as it stood before; NO prints stay on the NO side of the YES book', async () => {
    const c = await connect()
    const m = listing[3]!.markets[0]!.id
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [m], filter: 'all' },
      ack('subscribed', 'market'),
    )
    const seen = await c.collect(
      (x) =>
        x.market_id === m &&
        (x.msg_type === 'update' || x.msg_type === 'update-orderbook' || x.msg_type === 'new-trade'),
      80,
      { timeoutMs: 15_000 },
    )
    let prev: Book | null = null
    let checked = 0
    for (const f of seen) {
      const lt = f.last_trade as { side: string; contract_type: string; avg_price: number } | undefined
      if (lt !== undefined && lt.contract_type === 'YES' && prev !== null) {
        const touch =
          lt.side === 'BUY'
            ? prev.yes_orderbook.asks[0]?.price_ticks
            : prev.yes_orderbook.bids[0]?.price_ticks
        expect(lt.avg_price).toBe(touch)
        checked++
      }
      const now = f.orderbook as Book | undefined
      if (lt !== undefined && lt.contract_type === 'NO' && now !== undefined) {
        // Buying NO at q is selling YES at 100 - q: never above the YES bid; selling NO never below the YES ask.
        if (lt.side === 'BUY')
          expect(100 - lt.avg_price).toBeLessThanOrEqual(now.yes_orderbook.bids[0]!.price_ticks)
        else expect(100 - lt.avg_price).toBeGreaterThanOrEqual(now.yes_orderbook.asks[0]!.price_ticks)
      }
      if (f.orderbook !== undefined) prev = f.orderbook as Book
    }
    expect(checked).toBeGreaterThan(0)
    await c.close()
  })

  it('unsubscribing some markets leaves the others flowing', async () => {
    const c = await connect()
    const [a, b] = [listing[0]!.markets[0]!.id, listing[0]!.markets[1]!.id]
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [a, b], filter: 'orderbook' },
      ack('subscribed', 'market'),
    )
    await c.request({ type: 'unsubscribe', channel: 'market', markets: [a] }, ack('unsubscribed', 'market'))
    await sleep(60)
    const from = c.mark()
    await c.collect(frame('update-orderbook', b), 5, { from })
    expect(c.since(from, frame('update-orderbook', a))).toEqual([])
    await c.close()
  })
})

describe('VoxFi event channel', () => {
  it('sends the same frames for every market of the event, with its event_id', async () => {
    const c = await connect()
    const ev = listing.find((e) => e.markets.length > 1)!
    await c.request(
      { type: 'subscribe', channel: 'event', events: [ev.id], filter: 'orderbook' },
      ack('subscribed', 'event'),
    )
    const ids = new Set(ev.markets.map((m) => m.id))
    const frames = await c.collect(frame('update-orderbook'), 40)
    const example = fixture('ws-market-update-orderbook.json')
    for (const f of frames) {
      expect(f.event_id).toBe(ev.id)
      expect(ids.has(f.market_id as string)).toBe(true)
      expectShape(f, example)
      expectConsistent(f.orderbook as Book)
    }
    for (const id of ids) await c.waitFor(frame('update-orderbook', id))
    const t = await connect()
    await t.request(
      { type: 'subscribe', channel: 'event', events: [ev.id], filter: 'trades' },
      ack('subscribed', 'event'),
    )
    const prints = await t.collect(frame('new-trade'), 3)
    for (const p of prints) {
      expect(p.event_id).toBe(ev.id)
      expectShape(p, fixture('ws-market-new-trade.json'))
    }
    await Promise.all([c.close(), t.close()])
  })

  it('a single-market event streams its one market', async () => {
    const c = await connect()
    const ev = listing.find((e) => e.is_single_market)!
    await c.request({ type: 'subscribe', channel: 'event', events: [ev.id] }, ack('subscribed', 'event'))
    const f = await c.waitFor((x) => x.event_id === ev.id)
    expect(f.market_id).toBe(ev.markets[0]!.id)
    await c.close()
  })
})

describe('VoxFi user channel', () => {
  it('reports fills as order-info / order.filled or as the order-type shape, never balances or positions', async () => {
    const c = await connect()
    await c.request({ type: 'subscribe', channel: 'user', auth: sim.demoKey }, ack('subscribed', 'user'))
    const fills = await c.collect((x) => typeof x.user_id === 'string', 6, { timeoutMs: 15_000 })
    const markets = new Map(listing.flatMap((e) => e.markets.map((m) => [m.id, e.id] as const)))
    const infoShape = fixture('ws-user-order-info.json')
    const typeShape = fixture('ws-user-update-structure.json')
    for (const f of fills) {
      if (f.msg_type === 'order-info') {
        expect(f.trade_type).toBe('order.filled')
        expectShape(f, infoShape)
      } else {
        expect(f.msg_type).toBeUndefined()
        expect(['LIMIT_BUY', 'LIMIT_SELL']).toContain(f.trade_type)
        expectShape(f, typeShape)
        expect(f.trade_type).toBe(f.side === 'BUY' ? 'LIMIT_BUY' : 'LIMIT_SELL')
      }
      expect(markets.get(f.market_id as string)).toBe(f.event_id)
      expect(['BUY', 'SELL']).toContain(f.side)
      expect(f.contract_type).toBe('YES')
      expect(Number.isInteger(f.price) && (f.price as number) >= 1 && (f.price as number) <= 99).toBe(true)
      expect(Number.isInteger(f.transaction_fee)).toBe(true)
      expect(f.quantity as number).toBeGreaterThan(0)
    }
    expect(new Set(fills.map((f) => f.user_id)).size).toBe(1)
    // Only the acks and fills: no balance, position or order-status pushes.
    expect(c.messages.every((x: Msg) => x.type === 'subscribed' || typeof x.user_id === 'string')).toBe(true)
    await c.close()
  })

  it('a key without read_orders is accepted but receives no fills', async () => {
    const [w, o] = [await connect(), await connect()]
    await w.request({ type: 'subscribe', channel: 'user', auth: 'k-wallet' }, ack('subscribed', 'user'))
    await o.request({ type: 'subscribe', channel: 'user', auth: 'k-orders' }, ack('subscribed', 'user'))
    await o.collect((x) => typeof x.user_id === 'string', 2, { timeoutMs: 15_000 })
    expect(w.since(1)).toEqual([])
    await Promise.all([w.close(), o.close()])
  })
})

describe('VoxFi text ping', () => {
  it('answers the text frame ping with the text frame pong', async () => {
    const c = await connect()
    c.ws.send('ping')
    const deadline = Date.now() + 5000
    while (!c.raw.includes('pong') && Date.now() < deadline) await sleep(10)
    expect(c.raw).toContain('pong')
    expect(c.ws.readyState).toBe(c.ws.OPEN)
    await c.close()
  })
})
