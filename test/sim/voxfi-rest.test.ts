// The VoxFi dialect's REST API over real loopback sockets: bodies with the docs' keys and nesting (the examples in
// test/fixtures/voxfi), the orderbook snapshot, the account reads, and VoxFi's error bodies and statuses.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { createSimulator, type Simulator, type VoxfiListing } from '../../src/sim'
import { httpGet, sleep } from './helpers'
import { expectRateLimited, expectShape, fixture } from './voxfi-fixtures'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const PAST = '2020-01-01T00:00:00Z'
const EPOCH = Date.UTC(2026, 5, 1)

type Lv = { price_ticks: number; quantity: number; order_count: number }
type Side = { outcome: string; bids: Lv[]; asks: Lv[]; spread: number | null; last_price: number | null }

function expectBooks(yes: { bids: Lv[]; asks: Lv[] }, no: { bids: Lv[]; asks: Lv[] }): void {
  for (const side of [yes.bids, yes.asks, no.bids, no.asks]) {
    for (const l of side) {
      expect(Number.isInteger(l.price_ticks)).toBe(true)
      expect(l.price_ticks).toBeGreaterThanOrEqual(1)
      expect(l.price_ticks).toBeLessThanOrEqual(99)
      expect(l.quantity).toBeGreaterThan(0)
      expect(l.order_count).toBeGreaterThanOrEqual(1)
      expect(l.order_count).toBeLessThanOrEqual(l.quantity)
    }
  }
  // Best first.
  for (const s of [yes.bids, no.bids])
    for (let i = 1; i < s.length; i++) expect(s[i - 1]!.price_ticks).toBeGreaterThan(s[i]!.price_ticks)
  for (const s of [yes.asks, no.asks])
    for (let i = 1; i < s.length; i++) expect(s[i - 1]!.price_ticks).toBeLessThan(s[i]!.price_ticks)
  const yb = yes.bids[0]!.price_ticks
  const ya = yes.asks[0]!.price_ticks
  expect(yb).toBeLessThan(ya)
  // A NO bid at q is a YES ask at 100 - q: it never reaches the YES bids; a NO ask never reaches the YES asks.
  if (no.bids[0] !== undefined) expect(100 - no.bids[0].price_ticks).toBeGreaterThanOrEqual(yb + 1)
  if (no.asks[0] !== undefined) expect(100 - no.asks[0].price_ticks).toBeLessThanOrEqual(ya - 1)
  if (no.bids[0] !== undefined && no.asks[0] !== undefined)
    expect(no.bids[0].price_ticks).toBeLessThan(no.asks[0].price_ticks)
}

describe('VoxFi REST', () => {
  let sim: Simulator<VoxfiListing>
  let base: string
  const key = (k: string): { headers: Record<string, string> } => ({ headers: { 'X-Api-Key': k } })

  beforeAll(async () => {
    sim = await createSimulator({
      dialect: 'voxfi',
      seed: 21,
      tickMs: 20,
      accountMs: 200,
      voxfiEpochMs: EPOCH,
      config: {
        events: 12,
        marketsPerEvent: 3,
        keys: [
          { value: 'k-live' },
          { value: 'k-expired', expiresAt: PAST },
          { value: 'k-disabled', enabled: false },
          { value: 'k-revoked', revoked: true },
          { value: 'k-local', allowedIps: ['127.0.0.1'] },
          { value: 'k-wallet', permissions: ['read_wallet'] },
        ],
      },
    })
    base = sim.baseUrl
  })
  afterAll(() => sim.close())

  it('serves /v1 on the printed base URL and the WebSocket on the root path', () => {
    expect(sim.dialect).toBe('voxfi')
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(sim.wsUrl).toBe(`ws://127.0.0.1:${sim.port}`)
  })

  it('GET /data/events: a bare array of VoxFi event objects shaped as the docs example', async () => {
    const r = await httpGet(`${base}/data/events`, key(sim.demoKey))
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^application\/json/)
    const events = r.json as VoxfiListing
    expect(Array.isArray(events)).toBe(true)
    const example = fixture('rest-event-example.json')
    const ids = new Set<string>()
    for (const e of events) {
      expectShape(e, example)
      expect(e.id).toMatch(UUID)
      expect(e.status).toBe('Active')
      expect(e.qty_markets).toBe(e.markets.length)
      expect(e.is_single_market).toBe(e.markets.length === 1)
      expect(e.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(e.rules.length).toBeGreaterThan(40)
      expect(e.tags.length).toBe(e.tags_ids.length)
      expect(Date.parse(e.starts_at)).toBeLessThan(EPOCH)
      expect(Date.parse(e.created_at)).toBeLessThan(Date.parse(e.starts_at))
      const days = (Date.parse(e.resolves_at) - EPOCH) / 86_400_000
      expect(days).toBeGreaterThan(0)
      expect(days).toBeLessThan(62)
      for (const m of e.markets) {
        expect(m.id).toMatch(UUID)
        expect(ids.has(m.id)).toBe(false)
        ids.add(m.id)
        expect(m.options.map((o) => [o.option_type, o.description])).toEqual([
          [1, 'Yes'],
          [2, 'No'],
        ])
        if (e.is_single_market) expect(m.description).toBe('')
        else expect(m.description.length).toBeGreaterThan(0)
        expect(m.volume).toBeGreaterThan(0)
        expect(m.liquidity).toBeGreaterThan(0)
      }
    }
    // 12 catalog events: the 7 of exclusive outcomes stay multi-market, the 5 of independent questions split into
    // one single-market event per question.
    expect(events.filter((e) => e.is_single_market)).toHaveLength(15)
    expect(events.filter((e) => !e.is_single_market)).toHaveLength(7)
    expect(new Set(events.map((e) => e.category))).toEqual(
      new Set(['Economia', 'Política', 'Esportes', 'Cripto', 'Clima', 'Tecnologia', 'Cultura', 'Ciência']),
    )
    expect(events.map((e) => e.id)).toEqual(sim.listing().map((e) => e.id))
  })

  it('same seed and epoch: the same listing text and ids; another seed differs', async () => {
    const twin = await createSimulator({
      dialect: 'voxfi',
      seed: 21,
      voxfiEpochMs: EPOCH,
      config: { events: 12, marketsPerEvent: 3 },
    })
    const other = await createSimulator({
      dialect: 'voxfi',
      seed: 22,
      voxfiEpochMs: EPOCH,
      config: { events: 12, marketsPerEvent: 3 },
    })
    try {
      const text = (l: VoxfiListing): unknown =>
        l.map((e) => ({
          ...e,
          markets: e.markets.map((m) => ({ id: m.id, d: m.description, o: m.options })),
        }))
      expect(text(twin.listing())).toEqual(text(sim.listing()))
      expect(twin.demoKey).toBe(sim.demoKey)
      expect(text(other.listing())).not.toEqual(text(sim.listing()))
    } finally {
      await Promise.all([twin.close(), other.close()])
    }
  })

  it('GET /data/markets/{id}/orderbook: both books in ticks, shaped as the playground, consistent YES/NO', async () => {
    const example = fixture('rest-orderbook.json')
    for (const e of sim.listing().slice(0, 6)) {
      const id = e.markets[0]!.id
      const r = await httpGet(`${base}/data/markets/${id}/orderbook`, key('k-live'))
      expect(r.status).toBe(200)
      expectShape(r.json, example)
      const b = r.json as {
        yes_orderbook: Side
        no_orderbook: Side
        market_price_yes: number
        market_price_no: number
        chance: number
        volume: number
        liquidity: number
      }
      expect(b.yes_orderbook.outcome).toBe('YES')
      expect(b.no_orderbook.outcome).toBe('NO')
      expectBooks(b.yes_orderbook, b.no_orderbook)
      expect(b.yes_orderbook.spread).toBe(
        b.yes_orderbook.asks[0]!.price_ticks - b.yes_orderbook.bids[0]!.price_ticks,
      )
      expect(b.market_price_no).toBe(100 - b.market_price_yes)
      expect(b.chance).toBe(b.market_price_yes)
      const all = [
        ...b.yes_orderbook.bids,
        ...b.yes_orderbook.asks,
        ...b.no_orderbook.bids,
        ...b.no_orderbook.asks,
      ]
      expect(b.liquidity).toBe(all.reduce((s, l) => s + l.quantity, 0))
    }
    const missing = await httpGet(
      `${base}/data/markets/00000000-0000-4000-8000-000000000000/orderbook`,
      key('k-live'),
    )
    expect(missing.status).toBe(404)
    expect(missing.json).toEqual({ error: 'market not found' })
  })

  it('401 {"error":"unauthorized"} for a missing, unknown, expired, disabled or revoked key; 403 for a foreign IP', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'X-Api-Key': '' },
      { 'X-Api-Key': 'nope' },
      { 'X-Api-Key': 'k-expired' },
      { 'X-Api-Key': 'k-disabled' },
      { 'X-Api-Key': 'k-revoked' },
    ]
    for (const headers of cases) {
      for (const path of ['/data/events', '/data/wallet/balance']) {
        const r = await httpGet(`${base}${path}`, { headers })
        expect(r.status, JSON.stringify(headers)).toBe(401)
        expect(r.text).toBe('{"error":"unauthorized"}')
      }
    }
    const other = await httpGet(`${base}/data/events`, {
      headers: { 'X-Api-Key': 'k-local' },
      localAddress: '127.0.0.2',
    })
    expect(other.status).toBe(403)
    expect(other.text).toBe('{"error":"ip not allowed"}')
    expect((await httpGet(`${base}/data/events`, key('k-local'))).status).toBe(200)
  })

  it('unknown paths 404, other methods 405, missing permissions 403', async () => {
    expect((await httpGet(`${base}/data/nothing`, key('k-live'))).status).toBe(404)
    expect((await httpGet(`${sim.baseUrl.replace('/v1', '')}/data/events`, key('k-live'))).status).toBe(404)
    const post = await httpGet(`${base}/data/events`, { ...key('k-live'), method: 'POST' })
    expect(post.status).toBe(405)
    expect((await httpGet(`${base}/data/wallet/balance`, key('k-wallet'))).status).toBe(200)
    for (const path of ['/data/wallet/portfolio', '/data/orders', '/data/activity', '/data/pnl']) {
      const r = await httpGet(`${base}${path}`, key('k-wallet'))
      expect(r.status, path).toBe(403)
      expect(r.json).toEqual({ error: 'permission denied' })
    }
  })

  it('account reads: balance in centavos shaped as the docs, positions, open orders, paged activity, P&L', async () => {
    // Let the demo account trade for a while.
    let activity: Array<Record<string, unknown>> = []
    const deadline = Date.now() + 10_000
    while (activity.length < 3 && Date.now() < deadline) {
      await sleep(200)
      activity = (await httpGet(`${base}/data/activity?pageSize=100`, key('k-live'))).json as typeof activity
    }
    expect(activity.length).toBeGreaterThanOrEqual(3)
    // The reads below are compared with each other: no step may trade between them (on a loaded machine one did).
    sim.faults.freeze(true)
    onTestFinished(() => sim.faults.freeze(false))

    const bal = await httpGet(`${base}/data/wallet/balance`, key('k-live'))
    expect(bal.status).toBe(200)
    expectShape(bal.json, fixture('rest-wallet-balance.json'))
    const b = bal.json as Record<string, number>
    for (const v of Object.values(b)) expect(Number.isInteger(v)).toBe(true)
    expect(b.available).toBe(
      b.total_balance! - b.locked_waiting_orders! - b.locked_waiting_withdraw! - b.locked_audit!,
    )
    expect(b.total_deposits).toBe(1_000_000)

    const port = (await httpGet(`${base}/data/wallet/portfolio`, key('k-live'))).json as {
      positions: Array<Record<string, number | string>>
      qty_contracts: number
    }
    expect(port.positions.length).toBeGreaterThan(0)
    for (const p of port.positions) {
      expect(p.market_id).toMatch(UUID)
      expect(p.event_id).toMatch(UUID)
      expect(p.contract_type).toBe('YES')
      expect(p.current_value).toBe((p.quantity as number) * (p.current_price as number))
      expect(p.unrealized_pnl).toBe((p.current_value as number) - (p.invested as number))
    }
    expect(port.qty_contracts).toBe(b.qty_contracts)

    const orders = (await httpGet(`${base}/data/orders`, key('k-live'))).json as Array<
      Record<string, unknown>
    >
    for (const o of orders) {
      expect(o.id).toMatch(UUID)
      expect(['LIMIT_BUY', 'LIMIT_SELL']).toContain(o.order_type)
      expect(['PLACED', 'PARTIALLY_FILLED']).toContain(o.status)
      expect(Number.isInteger(o.price_ticks)).toBe(true)
      expect(o.remaining_quantity).toBe((o.quantity as number) - (o.filled_quantity as number))
    }
    if (orders[0] !== undefined) {
      const ev = orders[0].event_id as string
      const only = (await httpGet(`${base}/data/orders?eventId=${ev}`, key('k-live'))).json as Array<{
        event_id: string
      }>
      expect(only.length).toBeGreaterThan(0)
      expect(only.every((o) => o.event_id === ev)).toBe(true)
    }

    for (const a of activity) {
      expect(Object.keys(a).sort()).toEqual(
        ['contract_type', 'created_at', 'event_id', 'market_id', 'price_ticks', 'quantity', 'side'].sort(),
      )
      expect(['BUY', 'SELL']).toContain(a.side)
      expect(Number.isInteger(a.price_ticks)).toBe(true)
    }
    // Newest first, paged.
    const times = activity.map((a) => Date.parse(a.created_at as string))
    for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThanOrEqual(times[i]!)
    const p2 = (await httpGet(`${base}/data/activity?page=2&pageSize=1`, key('k-live'))).json as unknown[]
    expect(p2).toHaveLength(1)
    const mkt = activity[0]!.market_id as string
    const forMarket = (await httpGet(`${base}/data/activity?marketId=${mkt}`, key('k-live'))).json as Array<{
      market_id: string
    }>
    expect(forMarket.every((a) => a.market_id === mkt)).toBe(true)

    const pnl = (await httpGet(`${base}/data/pnl`, key('k-live'))).json as Record<string, number | null>
    expect(pnl).toEqual({
      market_id: null,
      event_id: null,
      realized_pnl: b.total_realized_pnl,
      unrealized_pnl: expect.any(Number) as number,
      total_pnl: (pnl.realized_pnl as number) + (pnl.unrealized_pnl as number),
    })
    const mp = (await httpGet(`${base}/data/pnl?marketId=${mkt}`, key('k-live'))).json as Record<
      string,
      unknown
    >
    expect(mp.market_id).toBe(mkt)
    expect(mp.event_id).toBe(activity[0]!.event_id)
    const ep = (await httpGet(`${base}/data/pnl?eventId=${activity[0]!.event_id as string}`, key('k-live')))
      .json as Record<string, unknown>
    expect(ep.market_id).toBeNull()
  })

  it('400 for bad params, 404 for unknown markets and events', async () => {
    for (const q of ['page=0', 'page=x', 'pageSize=0', 'pageSize=101', 'marketId=']) {
      const r = await httpGet(`${base}/data/activity?${q}`, key('k-live'))
      expect(r.status, q).toBe(400)
      expect(typeof (r.json as { error: unknown }).error).toBe('string')
    }
    const both = await httpGet(`${base}/data/pnl?marketId=a&eventId=b`, key('k-live'))
    expect(both.status).toBe(400)
    expect((await httpGet(`${base}/data/activity?marketId=nope`, key('k-live'))).json).toEqual({
      error: 'market not found',
    })
    expect((await httpGet(`${base}/data/orders?eventId=nope`, key('k-live'))).status).toBe(404)
    expect((await httpGet(`${base}/data/wallet/portfolio?eventId=nope`, key('k-live'))).json).toEqual({
      error: 'event not found',
    })
  })
})

describe('VoxFi REST rate limit', () => {
  it('429 {"error":"rate limit exceeded","retry_after":N} with Retry-After: N, per key, reset by resetRateLimits', async () => {
    const sim = await createSimulator({
      dialect: 'voxfi',
      seed: 3,
      config: {
        events: 2,
        marketsPerEvent: 2,
        rateLimit: { requests: 5, windowMs: 30_000 },
        keys: [{ value: 'a' }, { value: 'b' }],
      },
    })
    try {
      const url = `${sim.baseUrl}/data/events`
      for (let i = 0; i < 5; i++) {
        const r = await httpGet(url, { headers: { 'X-Api-Key': 'a' } })
        expect(r.status).toBe(200)
        // Within 20% of the limit the rate-limit headers appear.
        if (i >= 3) expect(r.headers['x-ratelimit-limit']).toBe('5')
      }
      const over = await httpGet(url, { headers: { 'X-Api-Key': 'a' } })
      expectRateLimited(over, 30)
      // Other endpoints share the key's window; other keys have their own.
      expect(
        (await httpGet(`${sim.baseUrl}/data/wallet/balance`, { headers: { 'X-Api-Key': 'a' } })).status,
      ).toBe(429)
      expect((await httpGet(url, { headers: { 'X-Api-Key': 'b' } })).status).toBe(200)
      sim.resetRateLimits()
      expect((await httpGet(url, { headers: { 'X-Api-Key': 'a' } })).status).toBe(200)
    } finally {
      await sim.close()
    }
  })
})
