// The VoxFi trade paths under the venue's misbehaviour and limits: order faults (delay, drop after or before
// executing, a chosen error), the log of every trade request received, the trade bucket's own rate limit, the same
// hooks through the worker form, and determinism: without orders nothing moved, and an order in one market leaves
// every other market's frames as they were.
import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator, type SimulatorOptions, type VoxfiListing } from '../../src/sim'
import { resolveConfig } from '../../src/sim/config'
import { startSimulatorWorker } from '../../src/sim/worker'
import { httpGet, sleep } from './helpers'
import { expectRateLimited } from './voxfi-fixtures'
import { startVox, steppedRuntime, type SteppedRuntime } from './voxfi-harness'
import { expectAnswerA, tradeClient, type Row } from './voxfi-trade-client'

const open: Array<{ close(): Promise<void> | void }> = []
afterEach(async () => {
  for (const o of open.splice(0)) await o.close()
})

async function start(
  opts: SimulatorOptions = {},
): Promise<{ sim: Simulator<VoxfiListing>; market: string; t: ReturnType<typeof tradeClient> }> {
  const v = await startVox((s) => open.push(s), opts)
  return { ...v, t: tradeClient(v.sim) }
}

/** A buy far below the book: it rests and shows in open orders, so whether it executed can be read. */
const resting = (market: string, quantity: number): Record<string, unknown> => ({
  market_id: market,
  order_type: 'LIMIT_BUY',
  outcome: 'YES',
  price_ticks: 1,
  quantity,
})
const mineOf = (orders: Row[], quantity: number): Row[] =>
  orders.filter((o) => o.price_ticks === 1 && o.quantity === quantity && o.order_type === 'LIMIT_BUY')

describe('VoxFi order faults', () => {
  it('delay executes at once and answers after ms', async () => {
    const { sim, market, t } = await start()
    sim.faults.orderFault({ kind: 'delay', ms: 1500 })
    const sent = Date.now()
    let answered = 0
    const pending = t.place(resting(market, 11)).then((r) => {
      answered = Date.now()
      return r
    })
    // The order is in the book while its answer is still held back.
    let seen: Row[] = []
    while (seen.length === 0 && Date.now() - sent < 5000) {
      seen = mineOf(await t.openOrders(), 11)
      if (seen.length === 0) await sleep(20)
    }
    // Executed on arrival: in the open orders while the answer is still held back (no wall-clock bound: a loaded
    // machine only delays both alike).
    expect(seen).toHaveLength(1)
    expect(answered).toBe(0)
    const r = await pending
    expect(answered - sent).toBeGreaterThanOrEqual(1490)
    expectAnswerA(r.json, { buy: true, rests: true })
    expect(r.json.resting_order_id).toBe(seen[0]!.id)
    const log = sim.faults.orderLog()
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({
      method: 'POST',
      path: '/v1/trade/order',
      status: 200,
      executed: true,
      fault: 'delay',
    })
    expect(log[0]!.body).toEqual(resting(market, 11))
  })

  it('drop destroys the connection without an answer, after executing the request or without', async () => {
    const { sim, market, t } = await start()
    sim.faults.orderFault({ kind: 'drop', execute: true })
    await expect(t.place(resting(market, 12))).rejects.toThrow()
    expect(mineOf(await t.openOrders(), 12)).toHaveLength(1)
    sim.faults.orderFault({ kind: 'drop', execute: false })
    await expect(t.place(resting(market, 13))).rejects.toThrow()
    expect(mineOf(await t.openOrders(), 13)).toHaveLength(0)
    const log = sim.faults.orderLog()
    expect(log.map((e) => [e.status, e.answer, e.executed, e.fault])).toEqual([
      [null, null, true, 'drop'],
      [null, null, false, 'drop'],
    ])
    // The faults are used up: the next request is answered.
    expect((await t.place(resting(market, 14))).status).toBe(200)
  })

  it('error answers its status and body without executing, for count requests of any trade path, in order', async () => {
    const { sim, market, t } = await start()
    const placed = await t.place(resting(market, 15))
    expectAnswerA(placed.json, { buy: true, rests: true })
    sim.faults.orderFault({ kind: 'error', status: 503, body: { error: 'busy', error_code: '-1' } }, 3)
    sim.faults.orderFault({
      kind: 'error',
      status: 500,
      body: { error: 'unexpected error', error_code: '-1' },
    })
    const answers = [
      await t.place(resting(market, 16)),
      await t.cancel(placed.json.resting_order_id!),
      await t.send('/trade/merge', { market_id: market, quantity: 1 }),
      await t.place(resting(market, 17)),
    ]
    expect(answers.map((a) => [a.status, a.json])).toEqual([
      [503, { error: 'busy', error_code: '-1' }],
      [503, { error: 'busy', error_code: '-1' }],
      [503, { error: 'busy', error_code: '-1' }],
      [500, { error: 'unexpected error', error_code: '-1' }],
    ])
    const orders = await t.openOrders()
    expect(mineOf(orders, 15)).toHaveLength(1)
    expect(mineOf(orders, 16)).toHaveLength(0)
    expect(mineOf(orders, 17)).toHaveLength(0)
    // The log holds every trade request received, the refused ones too, with its parsed body.
    expect((await t.cancel('nope')).status).toBe(404)
    const log = sim.faults.orderLog()
    expect(
      log.map((e) => `${e.method} ${e.path} ${String(e.status)} ${String(e.fault)} ${String(e.executed)}`),
    ).toEqual([
      'POST /v1/trade/order 200 null true',
      'POST /v1/trade/order 503 error false',
      `DELETE /v1/trade/order/${placed.json.resting_order_id!} 503 error false`,
      'POST /v1/trade/merge 503 error false',
      'POST /v1/trade/order 500 error false',
      'DELETE /v1/trade/order/nope 404 null false',
    ])
    expect(log.map((e) => e.body)).toEqual([
      resting(market, 15),
      resting(market, 16),
      null,
      { market_id: market, quantity: 1 },
      resting(market, 17),
      null,
    ])
    for (let i = 1; i < log.length; i++) expect(log[i]!.at).toBeGreaterThanOrEqual(log[i - 1]!.at)
  })

  it('a malformed fault is a clear error; the reference dialect takes no orders', async () => {
    const { sim } = await start()
    expect(() => sim.faults.orderFault({ kind: 'delay', ms: -1 })).toThrow(RangeError)
    expect(() => sim.faults.orderFault({ kind: 'error', status: 99, body: {} })).toThrow(RangeError)
    expect(() => sim.faults.orderFault({ kind: 'drop', execute: true }, 0)).toThrow(RangeError)
    expect(() => sim.faults.orderFault({ kind: 'nope' } as never)).toThrow(RangeError)
    const ref = await createSimulator({ seed: 4, config: { events: 1, marketsPerEvent: 1 } })
    open.push(ref)
    expect(() => ref.faults.orderFault({ kind: 'drop', execute: true })).toThrow(/reference/)
    expect(ref.faults.orderLog()).toEqual([])
    expect(ref.faults.closeMarket(ref.listing().events[0]!.markets[0]!.id)).toBe(false)
  })
})

describe('VoxFi trade rate limit', () => {
  it('trade paths have their own per-key bucket: 429 with Retry-After there, data reads unaffected, and back', async () => {
    const { sim, market, t } = await start({
      config: {
        events: 2,
        marketsPerEvent: 2,
        rateLimit: { requests: 5, windowMs: 30_000 },
        tradeRateLimit: { requests: 3, windowMs: 30_000 },
        keys: [{ value: 'other' }],
      },
    })
    for (let i = 0; i < 3; i++) expect((await t.place(resting(market, 20 + i))).status).toBe(200)
    const over = await t.place(resting(market, 30))
    expectRateLimited(over, 30)
    expect(mineOf(await t.openOrders(), 30)).toHaveLength(0)
    // The data bucket is another, of its own size: 5 reads, the one above among them.
    const reads: number[] = []
    for (let i = 0; i < 5; i++) {
      const r = await httpGet(`${sim.baseUrl}/data/events`, { headers: { 'X-Api-Key': sim.demoKey } })
      reads.push(r.status)
    }
    expect(reads).toEqual([200, 200, 200, 200, 429])
    // Another key has its own; resetRateLimits forgets both buckets.
    expect((await t.place(resting(market, 31), 'other')).status).toBe(200)
    sim.resetRateLimits()
    expect((await t.place(resting(market, 32))).status).toBe(200)
    expect(
      (await httpGet(`${sim.baseUrl}/data/events`, { headers: { 'X-Api-Key': sim.demoKey } })).status,
    ).toBe(200)
  })

  it('defaults to 40 trade requests a second, and an order answer of shape (a)', () => {
    expect(resolveConfig(undefined)).toMatchObject({
      tradeRateLimit: { requests: 40, windowMs: 1000 },
      orderAnswer: 'a',
    })
  })
})

describe('VoxFi order hooks in the worker form', () => {
  it('orderFault, closeMarket and orderLog reach the simulator in the worker', async () => {
    const w = await startSimulatorWorker({
      dialect: 'voxfi',
      seed: 6,
      config: { events: 1, marketsPerEvent: 1 },
    })
    open.push(w)
    const headers = { 'X-Api-Key': w.demoKey, 'Content-Type': 'application/json' }
    const listing = await httpGet(`${w.baseUrl}/data/events`, { headers })
    const market = (listing.json as VoxfiListing)[0]!.markets[0]!.id
    const post = (): ReturnType<typeof httpGet> =>
      httpGet(`${w.baseUrl}/trade/order`, {
        method: 'POST',
        headers,
        body: JSON.stringify(resting(market, 5)),
      })
    w.closeMarket(market)
    // Messages to the worker are handled in order: the log request after the close sees it done.
    await w.orderLog()
    expect((await post()).status).toBe(406)
    w.reopenMarket(market)
    w.orderFault({ kind: 'error', status: 502, body: { error: 'bad gateway' } })
    await w.orderLog()
    const r = await post()
    expect(r.status).toBe(502)
    expect(r.json).toEqual({ error: 'bad gateway' })
    expect((await post()).status).toBe(200)
    const log = await w.orderLog()
    expect(log.map((e) => e.status)).toEqual([406, 502, 200])
    expect(() => w.orderFault({ kind: 'delay', ms: Number.NaN })).toThrow(RangeError)
  })
})

describe('VoxFi orders and determinism', () => {
  /** A runtime driven step by step, its publications recorded per market, its REST on a loopback port. */
  async function twin(): Promise<SteppedRuntime & { user: string[]; base: string }> {
    const t = steppedRuntime(9, { events: 4, marketsPerEvent: 3 }, [{ value: 'k' }])
    const server: Server = createServer(t.vox.rest.handle)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    open.push({
      close: async () => {
        t.vox.close()
        await new Promise<void>((r) => server.close(() => r()))
      },
    })
    const user: string[] = []
    t.vox.hub.publishUser = (f) => user.push(...f)
    const address = server.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    return { ...t, user, base: `http://127.0.0.1:${port}/v1` }
  }

  const post = async (base: string, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const r = await httpGet(`${base}/trade/order`, {
      method: 'POST',
      headers: { 'X-Api-Key': 'k', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(r.status, r.text).toBe(200)
    return r.json as Record<string, unknown>
  }

  it('without orders two runtimes of a seed publish the same; an order in one market leaves every other market as it was', async () => {
    const [plain, trading] = [await twin(), await twin()]
    plain.run(1, 30)
    trading.run(1, 30)
    expect(trading.frames).toEqual(plain.frames)
    const target = trading.markets[1]!
    // A market buy takes the asks (the book the simulator steps changes) and a limit buy rests.
    await post(trading.base, {
      market_id: target,
      order_type: 'MARKET_BUY_QTY',
      outcome: 'YES',
      quantity: 3000,
    })
    await post(trading.base, {
      market_id: target,
      order_type: 'LIMIT_BUY',
      outcome: 'NO',
      price_ticks: 2,
      quantity: 50,
    })
    plain.run(31, 300)
    trading.run(31, 300)
    for (const m of trading.markets) {
      if (m === target) expect(trading.frames.get(m)).not.toEqual(plain.frames.get(m))
      else expect(trading.frames.get(m), m).toEqual(plain.frames.get(m))
    }
  })

  it('a print of its book fills a resting order as maker: at its price up to the print’s size, through it all of it', async () => {
    const t = await twin()
    t.run(1, 5)
    const i = 2
    const market = t.markets[i]!
    await post(t.base, { market_id: market, order_type: 'MARKET_BUY_QTY', outcome: 'YES', quantity: 20 })
    const book = (
      await httpGet(`${t.base}/data/markets/${market}/orderbook`, { headers: { 'X-Api-Key': 'k' } })
    ).json as { yes_orderbook: { asks: Array<{ price_ticks: number }> } }
    // Above the asks, out of the makers' reach: only a print can meet it.
    const u = book.yes_orderbook.asks[0]!.price_ticks + 6
    const placed = await post(t.base, {
      market_id: market,
      order_type: 'LIMIT_SELL',
      outcome: 'YES',
      price_ticks: u,
      quantity: 20,
    })
    expect(placed.trades).toEqual([])
    // The user's: the demo trader's resting orders fill on the same channel, never at this price in this market.
    const fills = (): Array<Record<string, unknown>> =>
      t.user
        .map((f) => JSON.parse(f) as Record<string, unknown>)
        .filter((f) => f.msg_type === 'order-info' && f.market_id === market && f.price === u)
    // A seller's print at its price does not meet a sell; a buyer's below it neither.
    t.run(6, 6, { market: i, trade: { id: 'p1', price: u / 100, size: 8, side: 'sell' } })
    t.run(7, 7, { market: i, trade: { id: 'p2', price: (u - 1) / 100, size: 8, side: 'buy' } })
    expect(fills()).toEqual([])
    t.run(8, 8, { market: i, trade: { id: 'p3', price: u / 100, size: 8, side: 'buy' } })
    expect(fills()).toEqual([
      expect.objectContaining({
        trade_type: 'order.filled',
        side: 'SELL',
        price: u,
        quantity: 8,
        transaction_fee: 0,
      }),
    ])
    // A closed market's resting orders stand: a print through them fills nothing until it opens again.
    expect(t.vox.orders.closeMarket(market)).toBe(true)
    t.run(9, 9, { market: i, trade: { id: 'p4', price: (u + 2) / 100, size: 1, side: 'buy' } })
    expect(fills()).toHaveLength(1)
    expect(t.vox.orders.reopenMarket(market)).toBe(true)
    t.run(10, 10, { market: i, trade: { id: 'p5', price: (u + 2) / 100, size: 1, side: 'buy' } })
    expect(fills().map((f) => [f.price, f.quantity])).toEqual([
      [u, 8],
      [u, 12],
    ])
  })
})
