// The VoxFi dialect takes orders as VoxFi's docs say (docs/voxfi.md §4.5, §5, §6.5) and, where they are silent, as
// §8 chooses: POST /v1/trade/order, cancel, merge, the PO codes, matching against the simulator's own books, resting
// orders shown in the books and filled by later prints, the account, both answer shapes and the user channel. Over
// real loopback sockets; where a check needs the books to hold still, the venue is frozen (no step runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { takerFeeCents } from '../../src/shared/voxfi-orders'
import { createSimulator, type Simulator, type VoxfiListing } from '../../src/sim'
import { WsClient, httpGet, type HttpResult, type Msg } from './helpers'
import { expectShape, fixture } from './voxfi-fixtures'
import {
  expectAnswerA,
  expectRefusal,
  level,
  sum,
  tradeClient,
  type AnswerA,
  type Book,
  type Lv,
  type Row,
  type TradeClient,
} from './voxfi-trade-client'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let sim: Simulator<VoxfiListing>
let api: TradeClient
let markets: Array<{ id: string; event: string }>
const clients: WsClient[] = []

beforeAll(async () => {
  sim = await createSimulator({
    dialect: 'voxfi',
    seed: 11,
    tickMs: 20,
    config: {
      events: 12,
      marketsPerEvent: 3,
      // The trade bucket's own limit is tested apart (voxfi-order-faults.test.ts).
      tradeRateLimit: { requests: 100_000, windowMs: 1000 },
      keys: [
        { value: 'k-read', permissions: ['read_orders', 'read_positions', 'read_wallet'] },
        { value: 'k-place', permissions: ['create_orders', 'read_orders'] },
        { value: 'k-local', allowedIps: ['127.0.0.1'] },
      ],
    },
  })
  markets = sim.listing().flatMap((e) => e.markets.map((m) => ({ id: m.id, event: e.id })))
  api = tradeClient(sim)
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await sim.close()
})

// Bound to the suite's simulator once it runs.
const send: TradeClient['send'] = (...a) => api.send(...a)
const place: TradeClient['place'] = (...a) => api.place(...a)
const cancel: TradeClient['cancel'] = (...a) => api.cancel(...a)
const read = <T>(path: string): Promise<T> => api.read<T>(path)
const book: TradeClient['book'] = (m) => api.book(m)
const balance: TradeClient['balance'] = () => api.balance()
const positions: TradeClient['positions'] = () => api.positions()
const openOrders: TradeClient['openOrders'] = () => api.openOrders()
const frozen = <T>(fn: () => Promise<T>): Promise<T> => api.frozen(fn)

async function userClient(): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl)
  clients.push(c)
  await c.request({ type: 'subscribe', channel: 'user', auth: sim.demoKey }, (m) => m.type === 'subscribed')
  return c
}

async function marketClient(market: string): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl)
  clients.push(c)
  await c.request({ type: 'subscribe', channel: 'market', markets: [market] }, (m) => m.type === 'subscribed')
  return c
}

describe('VoxFi Place Order: the docs request bodies and the answer (a)', () => {
  it.each(['rest-place-order-request-a.json', 'rest-place-order-request-b.json'])(
    '%s is accepted once its placeholder ids name a simulator market',
    async (name) => {
      const m = markets[0]!
      const body = { ...(fixture(name) as Record<string, unknown>), market_id: m.id }
      if ('event_id' in body) body.event_id = m.event
      const r = await place(body)
      expect(r.status, r.text).toBe(200)
      const a = r.json as AnswerA
      const filled = sum(a.trades.map((t) => t.quantity))
      expectAnswerA(a, { buy: true, rests: filled < 100 })
      if (a.resting_order_id !== undefined) expect((await cancel(a.resting_order_id)).status).toBe(200)
    },
  )

  it('a limit order that rests: in open orders, in the REST level, in the next WebSocket book, its reservation held', async () => {
    const m = markets[1]!
    const ws = await marketClient(m.id)
    const { rest, before, after, bal0, bal1, answer, placedAt } = await frozen(async () => {
      const placedAt = ws.mark()
      const before = await book(m.id)
      const bids = before.yes_orderbook.bids
      // Two ticks below the simulator's deepest bid: one step can add a level only next to it.
      const tick = bids[bids.length - 1]!.price_ticks - 2
      expect(tick).toBeGreaterThanOrEqual(1)
      const bal0 = await balance()
      const r = await place({
        market_id: m.id,
        order_type: 'LIMIT_BUY',
        outcome: 'YES',
        price_ticks: tick,
        quantity: 37,
      })
      expect(r.status, r.text).toBe(200)
      const answer = r.json as AnswerA
      return { rest: tick, before, after: await book(m.id), bal0, bal1: await balance(), answer, placedAt }
    })
    expectAnswerA(answer, { buy: true, rests: true })
    expect(answer.trades).toEqual([])
    expect(answer.spent).toBe(0)
    expect(answer.message).toBe('order placed')
    expect(answer.resting_order_id).toMatch(UUID)
    // The level the venue shows now holds the order, and nothing else changed.
    expect(level(after.yes_orderbook.bids, rest)).toEqual({ price_ticks: rest, quantity: 37, order_count: 1 })
    expect(after.yes_orderbook.bids.filter((l) => l.price_ticks !== rest)).toEqual(before.yes_orderbook.bids)
    // Price × quantity plus the taker-fee estimate is held back.
    const held = rest * 37 + takerFeeCents(rest, 37)
    expect(bal1.locked_waiting_orders! - bal0.locked_waiting_orders!).toBe(held)
    expect(bal1.available! - bal0.available!).toBe(-held)
    expect(bal1.total_balance).toBe(bal0.total_balance)
    const row = (await openOrders()).find((o) => o.id === answer.resting_order_id)
    expect(row).toEqual({
      id: answer.resting_order_id,
      event_id: m.event,
      market_id: m.id,
      order_type: 'LIMIT_BUY',
      outcome: 'YES',
      side: 'BUY',
      price_ticks: rest,
      quantity: 37,
      filled_quantity: 0,
      remaining_quantity: 37,
      status: 'PLACED',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) as string,
    })
    const f = await ws.waitFor((x) => x.market_id === m.id && x.orderbook !== undefined, { from: placedAt })
    const wsBook = f.orderbook as Book
    expect(level(wsBook.yes_orderbook.bids, rest)).toEqual({
      price_ticks: rest,
      quantity: 37,
      order_count: 1,
    })

    // Cancel: the level and the reservation are released, and the id is no longer known.
    const { gone, bal2, c } = await frozen(async () => {
      const c = await cancel(answer.resting_order_id!)
      return { c, gone: await book(m.id), bal2: await balance() }
    })
    expect(c.status).toBe(200)
    expect(c.json).toEqual({ success: true, message: 'order canceled', order_id: answer.resting_order_id })
    expect(level(gone.yes_orderbook.bids, rest)).toBeUndefined()
    expect(bal2.locked_waiting_orders).toBe(bal0.locked_waiting_orders)
    expect(bal2.available).toBe(bal0.available)
    expect((await openOrders()).some((o) => o.id === answer.resting_order_id)).toBe(false)
    const mark = ws.mark()
    const next = await ws.waitFor((x) => x.market_id === m.id && x.orderbook !== undefined, { from: mark })
    expect(level((next.orderbook as Book).yes_orderbook.bids, rest)).toBeUndefined()
    expectRefusal(await cancel(answer.resting_order_id!), 'PO6', 404)
  })

  it('a crossing limit buy takes the asks at or below its price, best first, prints them and rests the rest', async () => {
    const user = await userClient()
    sim.faults.freeze(true)
    let m: { id: string; event: string } | undefined
    let before: Book | undefined
    try {
      // A market whose two best asks cost less than a third of the cash, so the order is affordable.
      for (const c of markets.slice(2)) {
        const b = await book(c.id)
        const [x, y] = b.yes_orderbook.asks
        if (
          x !== undefined &&
          y !== undefined &&
          x.price_ticks * x.quantity + y.price_ticks * y.quantity < 300_000
        ) {
          m = c
          before = b
          break
        }
      }
    } finally {
      sim.faults.freeze(false)
    }
    expect(m).toBeDefined()
    const ws = await marketClient(m!.id)
    const { after, answer, bal0, bal1, mark, umark, a0, a1 } = await frozen(async () => {
      before = await book(m!.id)
      const [a0, a1] = before.yes_orderbook.asks as [Lv, Lv]
      const bal0 = await balance()
      const mark = ws.mark()
      const umark = user.mark()
      // Priced at the second ask, for both levels and 3 more: the third is out of reach, so 3 rest at its price.
      const r = await place({
        market_id: m!.id,
        event_id: m!.event,
        order_type: 'LIMIT_BUY',
        outcome: 'YES',
        price_ticks: a1.price_ticks,
        quantity: a0.quantity + a1.quantity + 3,
      })
      expect(r.status, r.text).toBe(200)
      const answer = r.json as AnswerA
      // Still frozen: the rest is as placed (once the venue moves, a print or a maker may meet it).
      const rest = (await openOrders()).find((o) => o.id === answer.resting_order_id)
      expect(rest).toMatchObject({
        quantity: a0.quantity + a1.quantity + 3,
        filled_quantity: a0.quantity + a1.quantity,
        remaining_quantity: 3,
        status: 'PARTIALLY_FILLED',
      })
      const after = await book(m!.id)
      const bal1 = await balance()
      expect((await cancel(answer.resting_order_id!)).status).toBe(200)
      return { after, answer, bal0, bal1, mark, umark, a0, a1 }
    })
    expectAnswerA(answer, { buy: true, rests: true })
    expect(sum(answer.trades.map((t) => t.quantity))).toBe(a0.quantity + a1.quantity)
    // One execution per resting order met: a level's order_count orders share its quantity, oldest first.
    for (const l of [a0, a1]) {
      const at = answer.trades.filter((t) => t.price_ticks === l.price_ticks)
      expect(at).toHaveLength(l.order_count)
      expect(sum(at.map((t) => t.quantity))).toBe(l.quantity)
      expect(
        Math.max(...at.map((t) => t.quantity)) - Math.min(...at.map((t) => t.quantity)),
      ).toBeLessThanOrEqual(1)
    }
    expect(answer.trades.map((t) => t.price_ticks)).toEqual(
      [...answer.trades.map((t) => t.price_ticks)].sort((x, y) => x - y),
    )
    for (const t of answer.trades) {
      expect(t.outcome).toBe('YES')
      expect(t.trade_id).toMatch(UUID)
      expect(t.maker_user_id).toMatch(UUID)
    }
    expect(new Set(answer.trades.map((t) => t.trade_id)).size).toBe(answer.trades.length)
    const fees = sum(answer.trades.map((t) => takerFeeCents(t.price_ticks, t.quantity)))
    const notional = sum(answer.trades.map((t) => t.price_ticks * t.quantity))
    expect(answer.spent).toBe(notional + fees)
    expect(answer.message).toBe('order partially filled')
    expect(level(after.yes_orderbook.asks, a0.price_ticks)).toBeUndefined()
    expect(level(after.yes_orderbook.asks, a1.price_ticks)).toBeUndefined()
    expect(after.yes_orderbook.asks).toEqual(before!.yes_orderbook.asks.slice(2))
    // The rest bids at its price: the book's best bid now.
    expect(after.yes_orderbook.bids[0]).toEqual({ price_ticks: a1.price_ticks, quantity: 3, order_count: 1 })
    // Cash: the executions paid, and the rest held back.
    const held = a1.price_ticks * 3 + takerFeeCents(a1.price_ticks, 3)
    expect(bal1.total_balance! - bal0.total_balance!).toBe(-(notional + fees))
    expect(bal1.locked_waiting_orders! - bal0.locked_waiting_orders!).toBe(held)

    // One public print per level, the user the taker, shaped exactly as the simulator's own prints.
    const prints = await ws.collect((x) => x.msg_type === 'new-trade' && x.market_id === m!.id, 2, {
      from: mark,
    })
    const frames = await user.collect(
      (x) => typeof x.user_id === 'string' && x.market_id === m!.id,
      answer.trades.length,
      {
        from: umark,
      },
    )
    const userId = frames[0]!.user_id
    for (const [i, p] of prints.entries()) {
      expectShape(p, fixture('ws-market-new-trade.json'))
      const lt = p.last_trade as {
        taker_id: string
        side: string
        contract_type: string
        avg_price: number
        qty_contracts: number
        makers: Array<{ maker_id: string; qty_contracts: number; side: string }>
      }
      expect(lt.taker_id).toBe(userId)
      expect(lt.side).toBe('BUY')
      expect(lt.contract_type).toBe('YES')
      const at = [a0, a1][i]!
      expect(lt.avg_price).toBe(at.price_ticks)
      expect(lt.qty_contracts).toBe(at.quantity)
      const mine = answer.trades.filter((t) => t.price_ticks === at.price_ticks)
      expect(lt.makers.map((x) => [x.maker_id, x.qty_contracts, x.side])).toEqual(
        mine.map((t) => [t.maker_user_id, t.quantity, 'SELL']),
      )
    }
    // The user channel: one frame per execution, in the shape without msg_type, trade_type the order type.
    for (const [i, f] of frames.entries()) {
      expectShape(f, fixture('ws-user-order-type-limit-buy.json'))
      const t = answer.trades[i]!
      expect(f).toEqual({
        trade_type: 'LIMIT_BUY',
        user_id: userId,
        event_id: m!.event,
        market_id: m!.id,
        side: 'BUY',
        contract_type: 'YES',
        price: t.price_ticks,
        quantity: t.quantity,
        transaction_fee: takerFeeCents(t.price_ticks, t.quantity),
      })
    }
  })
})

/**
 * A market whose best level on `side` of `outcome`'s book holds at least `qty` contracts, and whose other three
 * book sides are not empty (a side swept by another test comes back only when the venue steps).
 */
async function marketWith(outcome: 'YES' | 'NO', side: 'bids' | 'asks', qty: number, skip: string[] = []) {
  for (const m of markets) {
    if (skip.includes(m.id)) continue
    const b = await book(m.id)
    const levels = (outcome === 'YES' ? b.yes_orderbook : b.no_orderbook)[side]
    const all = [b.yes_orderbook.bids, b.yes_orderbook.asks, b.no_orderbook.bids, b.no_orderbook.asks]
    if (all.every((l) => l.length > 0) && levels[0]!.quantity >= qty) return { m, b, levels }
  }
  throw new Error(`no market with ${qty} on the ${outcome} ${side}`)
}

describe('VoxFi market orders', () => {
  it('MARKET_BUY_QTY, MARKET_BUY_VALUE and MARKET_SELL walk the book; their executions are taker frames of their type', async () => {
    const user = await userClient()
    await frozen(async () => {
      const { m, levels } = await marketWith('YES', 'asks', 40, [markets[0]!.id])
      const a0 = levels[0]!
      const from = user.mark()
      const q = await place({ market_id: m.id, order_type: 'MARKET_BUY_QTY', outcome: 'YES', quantity: 40 })
      expectAnswerA(q.json, { buy: true, rests: false })
      expect(q.json.trades.every((t) => t.price_ticks === a0.price_ticks)).toBe(true)
      expect(sum(q.json.trades.map((t) => t.quantity))).toBe(40)
      expect(q.json.spent).toBe(
        sum(q.json.trades.map((t) => t.quantity * t.price_ticks + takerFeeCents(t.price_ticks, t.quantity))),
      )
      expect(q.json.message).toBe('order filled')

      // A value buys what it can pay for, fee included: one contract more would cost more than it.
      const value = 20 * a0.price_ticks + 7
      const v = await place({
        market_id: m.id,
        order_type: 'MARKET_BUY_VALUE',
        outcome: 'YES',
        value_cents: value,
      })
      expectAnswerA(v.json, { buy: true, rests: false })
      const n = sum(v.json.trades.map((t) => t.quantity))
      expect(v.json.spent).toBeLessThanOrEqual(value)
      expect(v.json.spent).toBe(
        n * a0.price_ticks + sum(v.json.trades.map((t) => takerFeeCents(t.price_ticks, t.quantity))),
      )
      expect((n + 1) * a0.price_ticks + takerFeeCents(a0.price_ticks, n + 1)).toBeGreaterThan(value)

      // Selling walks the bids; it receives the notional less the fee.
      const before = await book(m.id)
      const b0 = before.yes_orderbook.bids[0]!
      const sell = Math.min(30, b0.quantity)
      const s = await place({ market_id: m.id, order_type: 'MARKET_SELL', outcome: 'YES', quantity: sell })
      expectAnswerA(s.json, { buy: false, rests: false })
      expect(s.json.trades.every((t) => t.price_ticks === b0.price_ticks)).toBe(true)
      expect(s.json.received).toBe(
        sell * b0.price_ticks - sum(s.json.trades.map((t) => takerFeeCents(t.price_ticks, t.quantity))),
      )
      expect(level((await book(m.id)).yes_orderbook.bids, b0.price_ticks)?.quantity ?? 0).toBe(
        b0.quantity - sell,
      )

      const frames = await user.collect(
        (x) => typeof x.user_id === 'string' && x.market_id === m.id,
        q.json.trades.length + v.json.trades.length + s.json.trades.length,
        { from },
      )
      expect(frames.map((f) => f.trade_type)).toEqual([
        ...q.json.trades.map(() => 'MARKET_BUY_QTY'),
        ...v.json.trades.map(() => 'MARKET_BUY_VALUE'),
        ...s.json.trades.map(() => 'MARKET_SELL'),
      ])
      expect(frames.every((f) => f.msg_type === undefined)).toBe(true)
      expect(frames.slice(-s.json.trades.length).every((f) => f.side === 'SELL')).toBe(true)
    })
  })

  it('two identical executions are two frames on the user channel', async () => {
    const user = await userClient()
    await frozen(async () => {
      const { m } = await marketWith('YES', 'asks', 5)
      const from = user.mark()
      for (let i = 0; i < 2; i++) {
        const r = await place({ market_id: m.id, order_type: 'MARKET_BUY_QTY', outcome: 'YES', quantity: 1 })
        expect(r.status, r.text).toBe(200)
      }
      const [a, b] = await user.collect((x) => typeof x.user_id === 'string' && x.market_id === m.id, 2, {
        from,
      })
      expect(a).toEqual(b)
      expect(a!.quantity).toBe(1)
    })
  })

  it('a market order with nothing to take is PO5; a value that buys not one contract is PO1', async () => {
    // A simulator of its own: sweeping a whole side spends much of the account's cash.
    const solo = await createSimulator({
      dialect: 'voxfi',
      seed: 12,
      config: { events: 4, marketsPerEvent: 2 },
    })
    const t = tradeClient(solo)
    try {
      await t.frozen(async () => {
        // The cheapest book side to sweep; frozen, no maker comes back meanwhile.
        const sides = await Promise.all(
          solo.listing().flatMap((e) =>
            e.markets.flatMap((m) =>
              (['YES', 'NO'] as const).map(async (outcome) => {
                const b = await t.book(m.id)
                const asks = (outcome === 'YES' ? b.yes_orderbook : b.no_orderbook).asks
                const cost = sum(
                  asks.map((l) => l.quantity * l.price_ticks + takerFeeCents(l.price_ticks, l.quantity)),
                )
                return { id: m.id, outcome, asks, cost }
              }),
            ),
          ),
        )
        const cheapest = sides.filter((x) => x.asks.length > 0).sort((a, b) => a.cost - b.cost)[0]!
        expect(cheapest.cost).toBeLessThan((await t.balance()).available!)
        const r = await t.place({
          market_id: cheapest.id,
          order_type: 'MARKET_BUY_QTY',
          outcome: cheapest.outcome,
          quantity: 1_000_000,
        })
        expectAnswerA(r.json, { buy: true, rests: false })
        expect(sum(r.json.trades.map((x) => x.quantity))).toBe(sum(cheapest.asks.map((l) => l.quantity)))
        // Each execution (a maker order met) pays its own fee, rounded up.
        expect(r.json.spent).toBe(
          sum(
            r.json.trades.map((x) => x.price_ticks * x.quantity + takerFeeCents(x.price_ticks, x.quantity)),
          ),
        )
        expect(r.json.message).toBe('order partially filled')
        const after = await t.book(cheapest.id)
        expect((cheapest.outcome === 'YES' ? after.yes_orderbook : after.no_orderbook).asks).toEqual([])
        for (const type of ['MARKET_BUY_QTY', 'MARKET_BUY_VALUE'] as const) {
          const body = {
            market_id: cheapest.id,
            order_type: type,
            outcome: cheapest.outcome,
            quantity: 1,
            value_cents: 5000,
          }
          expectRefusal(await t.place(body), 'PO5', 400)
        }
        const other = sides.find((x) => x.asks.length > 0 && x.id !== cheapest.id)!
        expectRefusal(
          await t.place({
            market_id: other.id,
            order_type: 'MARKET_BUY_VALUE',
            outcome: other.outcome,
            value_cents: 1,
          }),
          'PO1',
          400,
        )
      })
    } finally {
      await solo.close()
    }
  })
})

describe('VoxFi the account meeting its own orders', () => {
  it('a taker meets the account’s own resting orders too, after the simulator’s makers at their level', async () => {
    const userId = await demoUserId()
    const user = await userClient()
    await frozen(async () => {
      const { m } = await marketWith('YES', 'asks', 1)
      expect(
        (await place({ market_id: m.id, order_type: 'MARKET_BUY_QTY', outcome: 'YES', quantity: 10 })).status,
      ).toBe(200)
      const top = (await book(m.id)).yes_orderbook.asks[0]!
      // The account's sell joins the best ask: last in its queue.
      const ask = await place({
        market_id: m.id,
        order_type: 'LIMIT_SELL',
        outcome: 'YES',
        price_ticks: top.price_ticks,
        quantity: 10,
      })
      expectAnswerA(ask.json, { buy: false, rests: true })
      const askId = ask.json.resting_order_id!
      expect(level((await book(m.id)).yes_orderbook.asks, top.price_ticks)).toEqual({
        price_ticks: top.price_ticks,
        quantity: top.quantity + 10,
        order_count: top.order_count + 1,
      })
      const from = user.mark()
      const bal0 = await balance()
      const r = await place({
        market_id: m.id,
        order_type: 'MARKET_BUY_QTY',
        outcome: 'YES',
        quantity: top.quantity + 4,
      })
      expectAnswerA(r.json, { buy: true, rests: false })
      expect(r.json.trades.map((t) => t.maker_user_id === userId)).toEqual([
        ...r.json.trades.slice(0, -1).map(() => false),
        true,
      ])
      expect(r.json.trades.at(-1)).toMatchObject({ price_ticks: top.price_ticks, quantity: 4 })
      const info = await user.waitFor((x) => x.msg_type === 'order-info' && x.market_id === m.id, { from })
      expect(info).toMatchObject({ side: 'SELL', price: top.price_ticks, quantity: 4, transaction_fee: 0 })
      // The taker pays what it spent; the account's own sell, a maker, receives its price without a fee.
      const bal1 = await balance()
      expect(bal1.total_balance! - bal0.total_balance!).toBe(-r.json.spent! + 4 * top.price_ticks)
      const rest = (await openOrders()).find((o) => o.id === askId)
      expect(rest).toMatchObject({ filled_quantity: 4, remaining_quantity: 6, status: 'PARTIALLY_FILLED' })
      expect(level((await book(m.id)).yes_orderbook.asks, top.price_ticks)).toEqual({
        price_ticks: top.price_ticks,
        quantity: 6,
        order_count: 1,
      })
      expect((await cancel(askId)).status).toBe(200)
    })
  })
})

describe('VoxFi NO orders, positions and merge', () => {
  it('NO orders trade the NO book; NO positions and fills are rows of their own; a merge burns pairs for R$ 1,00 each', async () => {
    await frozen(async () => {
      const { m, levels } = await marketWith('NO', 'asks', 30)
      const pos0 = await positions()
      const had = (c: string): number =>
        (pos0.find((p) => p.market_id === m.id && p.contract_type === c)?.quantity as number | undefined) ?? 0
      const no = await place({ market_id: m.id, order_type: 'MARKET_BUY_QTY', outcome: 'NO', quantity: 30 })
      expectAnswerA(no.json, { buy: true, rests: false })
      expect(
        no.json.trades.every((t) => t.outcome === 'NO' && t.price_ticks === levels[0]!.price_ticks),
      ).toBe(true)
      expect(level((await book(m.id)).no_orderbook.asks, levels[0]!.price_ticks)?.quantity ?? 0).toBe(
        levels[0]!.quantity - 30,
      )
      const yes = await place({ market_id: m.id, order_type: 'MARKET_BUY_QTY', outcome: 'YES', quantity: 20 })
      expect(yes.status, yes.text).toBe(200)
      const pos1 = await positions()
      const row = pos1.find((p) => p.market_id === m.id && p.contract_type === 'NO')!
      expect(row.quantity).toBe(had('NO') + 30)
      expect(pos1.find((p) => p.market_id === m.id && p.contract_type === 'YES')!.quantity).toBe(
        had('YES') + 20,
      )
      const activity = await read<Row[]>(`/data/activity?marketId=${m.id}&pageSize=100`)
      const noRows = activity.filter((a) => a.contract_type === 'NO')
      expect(sum(noRows.map((a) => a.quantity as number))).toBeGreaterThanOrEqual(30)
      for (const a of activity) {
        expect(Object.keys(a).sort()).toEqual(
          ['contract_type', 'created_at', 'event_id', 'market_id', 'price_ticks', 'quantity', 'side'].sort(),
        )
      }
      // A NO sell may offer only what is held; a resting NO sell shows in the NO book and holds those contracts.
      expectRefusal(
        await place({
          market_id: m.id,
          order_type: 'LIMIT_SELL',
          outcome: 'NO',
          price_ticks: 99,
          quantity: had('NO') + 31,
        }),
        'PO4',
        400,
      )
      const ask = await place({
        market_id: m.id,
        order_type: 'LIMIT_SELL',
        outcome: 'NO',
        price_ticks: 99,
        quantity: 10,
      })
      expectAnswerA(ask.json, { buy: false, rests: true })
      expect(ask.json.received).toBe(0)
      expect(level((await book(m.id)).no_orderbook.asks, 99)).toMatchObject({
        quantity: expect.any(Number) as number,
      })
      expect(level((await book(m.id)).no_orderbook.asks, 99)!.quantity).toBeGreaterThanOrEqual(10)

      // Merge: pairs held and not offered; R$ 1,00 a pair.
      const free = Math.min(had('YES') + 20, had('NO') + 30 - 10)
      const merge = (q: unknown, key?: string): Promise<HttpResult> =>
        send('/trade/merge', { market_id: m.id, quantity: q }, key === undefined ? {} : { key })
      expectRefusal(await merge(free + 1), 'PO4', 400)
      expectRefusal(await merge(0), 'PO2', 400)
      expectRefusal(await merge(1.5), 'PO2', 400)
      expectRefusal(await merge(1, 'k-read'), 'PO7', 403)
      const missing = await send('/trade/merge', {
        market_id: '00000000-0000-4000-8000-000000000000',
        quantity: 1,
      })
      expect(missing.status).toBe(404)
      expect(missing.json).toEqual({ error: 'market not found' })
      const bal0 = await balance()
      const r = await merge(5)
      expect(r.status, r.text).toBe(200)
      expect(r.json).toEqual({ success: true, message: 'merged', quantity: 5, received: 500 })
      const bal1 = await balance()
      expect(bal1.total_balance! - bal0.total_balance!).toBe(500)
      const pos2 = await positions()
      const q = (c: string): number =>
        (pos2.find((p) => p.market_id === m.id && p.contract_type === c)?.quantity as number | undefined) ?? 0
      expect(q('YES')).toBe(had('YES') + 20 - 5)
      expect(q('NO')).toBe(had('NO') + 30 - 5)
      expect((await cancel(ask.json.resting_order_id!)).status).toBe(200)
    })
  })
})

/** The demo account's user id, as the user channel names it: read off a one-contract buy. */
async function demoUserId(): Promise<string> {
  const user = await userClient()
  const from = user.mark()
  const r = await place({
    market_id: markets[5]!.id,
    order_type: 'MARKET_BUY_QTY',
    outcome: 'YES',
    quantity: 1,
  })
  expect(r.status, r.text).toBe(200)
  const f = await user.waitFor((x) => typeof x.user_id === 'string', { from })
  return f.user_id as string
}

describe('VoxFi resting orders filled later', () => {
  it('prints at or through resting orders fill them at their own price as maker: order-info / order.filled, no fee', async () => {
    const user = await userClient()
    const m = markets[3]!
    const bought = await place({
      market_id: m.id,
      order_type: 'MARKET_BUY_QTY',
      outcome: 'YES',
      quantity: 60,
    })
    expect(bought.status, bought.text).toBe(200)
    const from = user.mark()
    // A sell at the best ask and a buy at the best bid of a busy market: the next buy and sell prints meet them.
    const placed = await frozen(async () => {
      const b = await book(m.id)
      const out: Record<'SELL' | 'BUY', { id: string; tick: number }> = {
        SELL: { id: '', tick: b.yes_orderbook.asks[0]!.price_ticks },
        BUY: { id: '', tick: b.yes_orderbook.bids[0]!.price_ticks },
      }
      for (const side of ['SELL', 'BUY'] as const) {
        const order_type = side === 'SELL' ? 'LIMIT_SELL' : 'LIMIT_BUY'
        const r = await place({
          market_id: m.id,
          order_type,
          outcome: 'YES',
          price_ticks: out[side].tick,
          quantity: 60,
        })
        expectAnswerA(r.json, { buy: side === 'BUY', rests: true })
        out[side].id = r.json.resting_order_id!
      }
      return out
    })
    for (const side of ['SELL', 'BUY'] as const) {
      const f = await user.waitFor(
        (x) => x.msg_type === 'order-info' && x.market_id === m.id && x.side === side,
        {
          from,
          timeoutMs: 20_000,
        },
      )
      expectShape(f, fixture('ws-user-order-info.json'))
      expect(f).toMatchObject({
        trade_type: 'order.filled',
        contract_type: 'YES',
        price: placed[side].tick,
        transaction_fee: 0,
      })
      expect(f.quantity as number).toBeGreaterThan(0)
      expect(f.quantity as number).toBeLessThanOrEqual(60)
    }
    // What filled shows in open orders (or the order is gone, all filled) and in the activity.
    await frozen(async () => {
      const open = await openOrders()
      const fills = user.since(from, (x) => x.msg_type === 'order-info' && x.market_id === m.id)
      for (const side of ['SELL', 'BUY'] as const) {
        const filled = sum(fills.filter((f) => f.side === side).map((f) => f.quantity as number))
        const o = open.find((x) => x.id === placed[side].id)
        if (filled === 60) expect(o).toBeUndefined()
        else expect(o).toMatchObject({ filled_quantity: filled, remaining_quantity: 60 - filled })
        if (o !== undefined) expect((await cancel(placed[side].id)).status).toBe(200)
      }
    })
  })

  it('makers that come to a resting order trade with it at its price, in a print naming the user as maker', async () => {
    const userId = await demoUserId()
    const user = await userClient()
    // NO asks mirror the YES bids and are quoted again once taken: a NO bid that took them meets them again, unless
    // the YES bids moved away meanwhile; a few tries.
    let print: Msg | null = null
    for (let attempt = 0; attempt < 6 && print === null; attempt++) {
      const placed = await frozen(async () => {
        const { m, b } = await marketWith('NO', 'asks', 1)
        // Subscribed before the venue moves again: the makers come at its next step.
        const ws = await marketClient(m.id)
        const [a0, a1] = b.no_orderbook.asks
        const top = a1 ?? a0!
        const r = await place({
          market_id: m.id,
          order_type: 'LIMIT_BUY',
          outcome: 'NO',
          price_ticks: top.price_ticks,
          quantity: a0!.quantity + (a1?.quantity ?? 0) + 200,
        })
        expectAnswerA(r.json, { buy: true, rests: true })
        return {
          m,
          ws,
          from: ws.mark(),
          ufrom: user.mark(),
          q: top.price_ticks,
          id: r.json.resting_order_id!,
        }
      })
      const { ws, from, ufrom } = placed
      try {
        print = await ws.waitFor(
          (x) =>
            x.msg_type === 'new-trade' &&
            (x.last_trade as { makers: Array<{ maker_id: string }> }).makers.some(
              (k) => k.maker_id === userId,
            ),
          { from, timeoutMs: 1500 },
        )
      } catch {
        print = null
      }
      await frozen(async () => {
        await cancel(placed.id)
      })
      if (print === null) continue
      const lt = print.last_trade as {
        avg_price: number
        side: string
        contract_type: string
        qty_contracts: number
        makers: Array<{ qty_contracts: number; side: string; maker_id: string }>
      }
      expect(lt).toMatchObject({ avg_price: placed.q, side: 'SELL', contract_type: 'NO' })
      expect(lt.makers).toEqual([
        expect.objectContaining({ maker_id: userId, side: 'BUY', qty_contracts: lt.qty_contracts }),
      ])
      const info = await user.waitFor((x) => x.msg_type === 'order-info' && x.market_id === placed.m.id, {
        from: ufrom,
      })
      expect(info).toMatchObject({
        side: 'BUY',
        contract_type: 'NO',
        price: placed.q,
        quantity: lt.qty_contracts,
        transaction_fee: 0,
      })
    }
    expect(print).not.toBeNull()
  })
})

describe('VoxFi order refusals', () => {
  const m = (): { id: string; event: string } => markets[6]!
  const limit = (extra: Record<string, unknown>): Record<string, unknown> => ({
    market_id: m().id,
    order_type: 'LIMIT_BUY',
    outcome: 'YES',
    price_ticks: 10,
    quantity: 1,
    ...extra,
  })

  it('PO1 for a price outside 1–99 or not an integer, and a value_cents that is not a positive integer', async () => {
    for (const price_ticks of [0, 100, 2.5, '27', null, undefined, -1]) {
      expectRefusal(await place(limit({ price_ticks })), 'PO1', 400)
      expectRefusal(await place(limit({ order_type: 'LIMIT_SELL', price_ticks })), 'PO1', 400)
    }
    for (const value_cents of [0, -5, 1.5, '100', null, undefined]) {
      expectRefusal(await place(limit({ order_type: 'MARKET_BUY_VALUE', value_cents })), 'PO1', 400)
    }
  })

  it('PO2 for a quantity that is not an integer from 1 to 1,000,000', async () => {
    for (const quantity of [0, -1, 1.5, '10', null, undefined, 1_000_001]) {
      for (const order_type of ['LIMIT_BUY', 'LIMIT_SELL', 'MARKET_BUY_QTY', 'MARKET_SELL'])
        expectRefusal(await place(limit({ order_type, quantity })), 'PO2', 400)
    }
  })

  it('PO3 for a buy the available cash cannot pay for; PO4 for selling more than is held and not offered', async () => {
    const bal0 = await balance()
    expectRefusal(await place(limit({ price_ticks: 99, quantity: 1_000_000 })), 'PO3', 400)
    expectRefusal(await place(limit({ order_type: 'MARKET_BUY_QTY', quantity: 1_000_000 })), 'PO3', 400)
    for (const order_type of ['LIMIT_SELL', 'MARKET_SELL']) {
      expectRefusal(await place(limit({ order_type, outcome: 'NO', quantity: 1_000_000 })), 'PO4', 400)
    }
    // Nothing was reserved by the refusals.
    const bal1 = await balance()
    expect(bal1.total_balance! - bal1.available!).toBeLessThanOrEqual(bal1.locked_waiting_orders!)
    expect(bal0.total_deposits).toBe(bal1.total_deposits)
    // Contracts offered by a resting sell are not offered twice.
    await frozen(async () => {
      const held = await place(limit({ order_type: 'MARKET_BUY_QTY', outcome: 'YES', quantity: 10 }))
      expect(held.status, held.text).toBe(200)
      const have = (await positions()).find((p) => p.market_id === m().id && p.contract_type === 'YES')!
      const offered = sum(
        (await openOrders())
          .filter((o) => o.market_id === m().id && o.side === 'SELL' && o.outcome === 'YES')
          .map((o) => o.remaining_quantity as number),
      )
      const free = (have.quantity as number) - offered
      const sell = await place(limit({ order_type: 'LIMIT_SELL', price_ticks: 99, quantity: free }))
      expect(sell.status, sell.text).toBe(200)
      expectRefusal(await place(limit({ order_type: 'MARKET_SELL', quantity: 1 })), 'PO4', 400)
      expect((await cancel((sell.json as AnswerA).resting_order_id!)).status).toBe(200)
    })
  })

  it('PO6 on cancelling an unknown order or one no longer open; any open order of the account can be cancelled', async () => {
    expectRefusal(await cancel('00000000-0000-4000-8000-000000000000'), 'PO6', 404)
    expectRefusal(await cancel('7'), 'PO6', 404)
    // The demo trader's orders stand for the account's orders placed on VoxFi's site: its key cancels them too.
    let trader: Row | undefined
    for (let i = 0; i < 200 && trader === undefined; i++) {
      trader = (await openOrders()).find((o) => typeof o.id === 'string')
      if (trader === undefined) await new Promise((r) => setTimeout(r, 50))
    }
    expect(trader, 'the demo trader keeps orders open').toBeDefined()
    const id = trader!.id as string
    const c = await cancel(id)
    expect(c.status).toBe(200)
    expect(c.json).toEqual({ success: true, message: 'order canceled', order_id: id })
    expect((await openOrders()).map((o) => o.id)).not.toContain(id)
    expectRefusal(await cancel(id), 'PO6', 404)
  })

  it('PO7 403 without create_orders (place, merge) or cancel_orders (cancel)', async () => {
    expectRefusal(await place(limit({}), 'k-read'), 'PO7', 403)
    expectRefusal(
      await send('/trade/merge', { market_id: m().id, quantity: 1 }, { key: 'k-read' }),
      'PO7',
      403,
    )
    const r = await place(limit({}), 'k-place')
    expectAnswerA(r.json, { buy: true, rests: true })
    expectRefusal(await cancel(r.json.resting_order_id!, 'k-place'), 'PO7', 403)
    expect((await cancel(r.json.resting_order_id!)).status).toBe(200)
  })

  it('PO8 406 on a closed market; the listing shows closed_at; reopened it trades again', async () => {
    const target = markets[7]!
    expect(sim.faults.closeMarket('00000000-0000-4000-8000-000000000000')).toBe(false)
    const resting = await place({ ...limit({}), market_id: target.id })
    expectAnswerA(resting.json, { buy: true, rests: true })
    expect(sim.faults.closeMarket(target.id)).toBe(true)
    try {
      const listed = sim
        .listing()
        .flatMap((e) => e.markets)
        .find((x) => x.id === target.id)!
      expect(listed.closed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      expectRefusal(await place({ ...limit({}), market_id: target.id }), 'PO8', 406)
      expectRefusal(
        await place({ ...limit({ order_type: 'MARKET_BUY_QTY' }), market_id: target.id }),
        'PO8',
        406,
      )
      // A merge is no order: a closed market refuses it only for want of pairs.
      expectRefusal(await send('/trade/merge', { market_id: target.id, quantity: 1_000_000 }), 'PO4', 400)
      // A resting order of a closed market can still be cancelled.
      expect((await cancel(resting.json.resting_order_id!)).status).toBe(200)
    } finally {
      expect(sim.faults.reopenMarket(target.id)).toBe(true)
    }
    expect(
      sim
        .listing()
        .flatMap((e) => e.markets)
        .find((x) => x.id === target.id)!.closed_at,
    ).toBeNull()
    const again = await place({ ...limit({}), market_id: target.id })
    expectAnswerA(again.json, { buy: true, rests: true })
    expect((await cancel(again.json.resting_order_id!)).status).toBe(200)
  })

  it('400 for a body that is not a JSON object of at most 16 KiB sent as JSON, a missing market_id, a bad order_type or outcome, a foreign event_id', async () => {
    const raw = (body: string | Buffer, type = 'application/json'): Promise<HttpResult> =>
      httpGet(`${sim.baseUrl}/trade/order`, {
        method: 'POST',
        headers: { 'X-Api-Key': sim.demoKey, 'Content-Type': type },
        body,
      })
    const invalid = { error: 'invalid body' }
    for (const body of ['not json', '', '[1,2]', 'null', '"x"', '{"market_id":']) {
      const r = await raw(body)
      expect(r.status, body).toBe(400)
      expect(r.json).toEqual(invalid)
    }
    const good = JSON.stringify(limit({}))
    expect((await raw(good, 'text/plain')).json).toEqual(invalid)
    const big = JSON.stringify({ ...limit({}), pad: 'x'.repeat(16 * 1024) })
    const tooBig = await raw(big)
    expect(tooBig.status).toBe(400)
    expect(tooBig.json).toEqual(invalid)
    // Exactly 16 KiB is still a body.
    const pad = 16 * 1024 - JSON.stringify({ ...limit({}), pad: '' }).length
    const fits = await raw(
      JSON.stringify({ ...limit({}), pad: 'x'.repeat(pad) }),
      'application/json; charset=utf-8',
    )
    expectAnswerA(fits.json, { buy: true, rests: true })
    expect((await cancel(fits.json.resting_order_id!)).status).toBe(200)

    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [limit({ market_id: undefined }), 400, { error: 'market_id is required' }],
      [limit({ market_id: '' }), 400, { error: 'market_id is required' }],
      [limit({ order_type: 'LIMIT' }), 400, { error: 'invalid order_type' }],
      [limit({ order_type: 'limit_buy' }), 400, { error: 'invalid order_type' }],
      [limit({ order_type: undefined }), 400, { error: 'invalid order_type' }],
      [limit({ outcome: 'MAYBE' }), 400, { error: 'invalid outcome' }],
      [limit({ outcome: undefined }), 400, { error: 'invalid outcome' }],
      [limit({ event_id: markets[0]!.event }), 400, { error: 'event_id does not match market_id' }],
      [limit({ market_id: '00000000-0000-4000-8000-000000000000' }), 404, { error: 'market not found' }],
    ]
    for (const [body, status, answer] of cases) {
      const r = await place(body)
      expect(r.status, JSON.stringify(body)).toBe(status)
      expect(r.json).toEqual(answer)
    }
  })

  it('the key rules of every path: 401, 403 for a foreign IP; 404 for other trade paths, 405 for a wrong method', async () => {
    const body = JSON.stringify(limit({}))
    for (const headers of [{}, { 'X-Api-Key': 'nope' }] as Array<Record<string, string>>) {
      const r = await httpGet(`${sim.baseUrl}/trade/order`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body,
      })
      expect(r.status).toBe(401)
      expect(r.json).toEqual({ error: 'unauthorized' })
    }
    const foreign = await httpGet(`${sim.baseUrl}/trade/order`, {
      method: 'POST',
      headers: { 'X-Api-Key': 'k-local', 'Content-Type': 'application/json' },
      body,
      localAddress: '127.0.0.2',
    })
    expect(foreign.status).toBe(403)
    expect(foreign.json).toEqual({ error: 'ip not allowed' })
    for (const path of ['/trade', '/trade/orders', '/trade/order/1/x', '/trade/merge/1']) {
      const r = await send(path, {})
      expect(r.status, path).toBe(404)
      expect(r.json).toEqual({ error: 'not found' })
    }
    for (const [path, method, allow] of [
      ['/trade/order', 'GET', 'POST'],
      ['/trade/order', 'DELETE', 'POST'],
      ['/trade/merge', 'PUT', 'POST'],
      ['/trade/order/abc', 'POST', 'DELETE'],
    ] as const) {
      const r = await send(path, {}, { method })
      expect(r.status, `${method} ${path}`).toBe(405)
      expect(r.json).toEqual({ error: 'method not allowed' })
      expect(r.headers.allow).toBe(allow)
    }
  })
})
