// Place Order's other documented answer, (b) of docs.voxfi.com.br/playground/trade/place-order: the order with its
// integer id and status. Chosen by the config's `orderAnswer` (here read from a config file, as the CLI reads it)
// or by createSimulator's option; the open-orders listing and cancel then use the integer id.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSimulator,
  loadConfigFile,
  parseConfig,
  type Simulator,
  type VoxfiListing,
} from '../../src/sim'
import { takerFeeCents } from '../../src/shared/voxfi-orders'
import { expectShape, fixture } from './voxfi-fixtures'
import { expectRefusal, sum, tradeClient, type Lv, type TradeClient } from './voxfi-trade-client'

type AnswerB = {
  success: boolean
  message: string
  order_id: number
  order_status: string
  timestamp: string
  wanted: number
  filled: number
  filled_amount: number
  remaining: number
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/

function expectAnswerB(body: unknown): asserts body is AnswerB {
  const doc = fixture('rest-place-order-response-b.json') as object
  expect(Object.keys(body as object).sort()).toEqual(Object.keys(doc).sort())
  expectShape(body, doc)
  const b = body as AnswerB
  expect(b.success).toBe(true)
  expect(Number.isInteger(b.order_id)).toBe(true)
  expect(b.timestamp).toMatch(RFC3339)
  expect(['PLACED', 'PARTIALLY_FILLED', 'FILLED', 'FAILED']).toContain(b.order_status)
  expect(b.remaining).toBe(b.wanted - b.filled)
}

let sim: Simulator<VoxfiListing>
let t: TradeClient
let dir: string
let market: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-answer-b-'))
  const file = join(dir, 'sim.json')
  writeFileSync(
    file,
    JSON.stringify({
      events: 3,
      marketsPerEvent: 2,
      orderAnswer: 'b',
      tradeRateLimit: { requests: 500, windowMs: 1000 },
    }),
  )
  sim = await createSimulator({ dialect: 'voxfi', seed: 31, tickMs: 20, config: loadConfigFile(file) })
  t = tradeClient(sim)
  market = sim.listing()[0]!.markets[0]!.id
})
afterAll(async () => {
  await sim.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('VoxFi Place Order, answer (b)', () => {
  it('the config takes orderAnswer "a" or "b" and a tradeRateLimit, and refuses anything else', () => {
    expect(parseConfig({ orderAnswer: 'a', tradeRateLimit: { requests: 1, windowMs: 1 } })).toBeTruthy()
    expect(() => parseConfig({ orderAnswer: 'c' })).toThrow(/orderAnswer/)
    expect(() => parseConfig({ tradeRateLimit: { requests: 0, windowMs: 1000 } })).toThrow(/tradeRateLimit/)
  })

  it('a resting order: PLACED with its integer id, which the listing shows as a number and cancel takes', async () => {
    await t.frozen(async () => {
      const b = await t.book(market)
      const tick = b.yes_orderbook.bids[0]!.price_ticks
      const r = await t.place({
        market_id: market,
        order_type: 'LIMIT_BUY',
        outcome: 'YES',
        price_ticks: tick,
        quantity: 12,
      })
      expect(r.status, r.text).toBe(200)
      expectAnswerB(r.json)
      expect(r.json).toMatchObject({
        order_status: 'PLACED',
        wanted: 12,
        filled: 0,
        filled_amount: 0,
        remaining: 12,
        message: 'order placed',
      })
      const id = r.json.order_id
      const row = (await t.openOrders()).find((o) => o.id === id)
      expect(row).toMatchObject({
        id,
        order_type: 'LIMIT_BUY',
        price_ticks: tick,
        quantity: 12,
        status: 'PLACED',
      })
      // Integer ids count up per order.
      const r2 = await t.place({
        market_id: market,
        order_type: 'LIMIT_BUY',
        outcome: 'YES',
        price_ticks: tick,
        quantity: 1,
      })
      expectAnswerB(r2.json)
      expect(r2.json.order_id).toBe(id + 1)
      const c = await t.cancel(id)
      expect(c.status).toBe(200)
      expect(c.json).toEqual({ success: true, message: 'order canceled', order_id: id })
      expectRefusal(await t.cancel(id), 'PO6', 404)
      expectRefusal(await t.cancel('abc'), 'PO6', 404)
      expect((await t.cancel(r2.json.order_id)).status).toBe(200)
    })
  })

  it('FILLED and PARTIALLY_FILLED, filled_amount the notional in centavos; a value order wants what it bought', async () => {
    await t.frozen(async () => {
      const a = (await t.book(market)).yes_orderbook.asks as Lv[]
      const r = await t.place({
        market_id: market,
        order_type: 'MARKET_BUY_QTY',
        outcome: 'YES',
        quantity: 3,
      })
      expectAnswerB(r.json)
      expect(r.json).toMatchObject({
        order_status: 'FILLED',
        wanted: 3,
        filled: 3,
        remaining: 0,
        filled_amount: 3 * a[0]!.price_ticks,
      })
      // The cheapest book side, all of it and 10 more: what the book cannot give is cancelled.
      let cheapest: { id: string; outcome: 'YES' | 'NO'; asks: Lv[]; cost: number } | null = null
      for (const m of sim.listing().flatMap((e) => e.markets)) {
        const b = await t.book(m.id)
        for (const outcome of ['YES', 'NO'] as const) {
          const asks = (outcome === 'YES' ? b.yes_orderbook : b.no_orderbook).asks
          const cost = sum(
            asks.map((l) => l.quantity * l.price_ticks + takerFeeCents(l.price_ticks, l.quantity)),
          )
          if (asks.length > 0 && (cheapest === null || cost < cheapest.cost))
            cheapest = { id: m.id, outcome, asks, cost }
        }
      }
      expect(cheapest!.cost).toBeLessThan((await t.balance()).available! * 0.9)
      const all = sum(cheapest!.asks.map((l) => l.quantity))
      const p = await t.place({
        market_id: cheapest!.id,
        order_type: 'MARKET_BUY_QTY',
        outcome: cheapest!.outcome,
        quantity: all + 10,
      })
      expectAnswerB(p.json)
      expect(p.json).toMatchObject({
        order_status: 'PARTIALLY_FILLED',
        wanted: all + 10,
        filled: all,
        remaining: 10,
      })
      const v = await t.place({
        market_id: sim.listing()[1]!.markets[0]!.id,
        order_type: 'MARKET_BUY_VALUE',
        outcome: 'NO',
        value_cents: 900,
      })
      expectAnswerB(v.json)
      expect(v.json.order_status).toBe('FILLED')
      expect(v.json.wanted).toBe(v.json.filled)
      expect(v.json.filled_amount).toBeLessThanOrEqual(900)
    })
  })

  it('createSimulator’s orderAnswer option overrides the config', async () => {
    const a = await createSimulator({
      dialect: 'voxfi',
      seed: 31,
      orderAnswer: 'a',
      config: { events: 1, marketsPerEvent: 1, orderAnswer: 'b' },
    })
    try {
      const m = a.listing()[0]!.markets[0]!.id
      const r = await tradeClient(a).place({
        market_id: m,
        order_type: 'LIMIT_BUY',
        outcome: 'YES',
        price_ticks: 1,
        quantity: 1,
      })
      expect(r.status, r.text).toBe(200)
      expect(r.json).toHaveProperty('trades')
      expect(r.json).not.toHaveProperty('order_id')
    } finally {
      await a.close()
    }
  })
})
