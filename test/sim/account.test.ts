// The demo account behaves like a real account on this exchange: orders near each market's live book on both
// sides, resting orders that fill at their price only when the market reaches them, positions, marks, PnL and
// a wallet that follow from the fills. Checked on the pure model driven by the real books, and on the wire.
import { afterAll, describe, expect, it } from 'vitest'
import { DemoAccount, type AccountPrint, type UserUpdate } from '../../src/sim/account'
import { buildCatalog } from '../../src/sim/catalog'
import { createSimulator, type Simulator } from '../../src/sim'
import { buildMarketBooks, type MarketBook } from '../../src/sim/market'
import { AccountLedger, type Quote } from './account-ledger'
import { WsClient, applyBook, isAck, type BookLevels, type Msg } from './helpers'

const quoteOf = (b: MarketBook): Quote => ({ bid: b.bestBidTick(), ask: b.bestAskTick() })

interface Run {
  ledger: AccountLedger
  outputs: UserUpdate[][]
  /** Steps after which 2–6 orders were open. */
  workingSteps: number
  /** Longest run of steps without any account update. */
  longestQuiet: number
  /** Steps each closed order stayed open. */
  lifetimes: number[]
}

/** The account stepped exactly as the simulator steps it, against the real books of a seeded listing. */
function drive(seed: number, steps: number, maxGapSteps = 20): Run {
  const books = buildMarketBooks(buildCatalog(seed, 12, 4), seed)
  const byId = new Map(books.map((b) => [b.id, b]))
  const acc = new DemoAccount(
    seed,
    books.map((b) => ({ id: b.id, eventId: b.eventId, quote: () => quoteOf(b) })),
    maxGapSteps,
  )
  let pre = new Map<string, Quote>()
  const ledger = new AccountLedger((id) => {
    const b = byId.get(id)
    if (b === undefined) throw new Error(`the account used unknown market ${id}`)
    return { pre: pre.get(id) ?? quoteOf(b), post: quoteOf(b) }
  })
  for (const u of acc.snapshot(0)) ledger.apply(u as unknown as Msg)
  const outputs: UserUpdate[][] = []
  const opened = new Map<string, number>()
  const lifetimes: number[] = []
  let workingSteps = 0
  let lastChange = 0
  let longestQuiet = 0
  for (let s = 1; s <= steps; s++) {
    pre = new Map(books.map((b) => [b.id, quoteOf(b)]))
    const prints: AccountPrint[] = []
    for (const b of books) {
      const out = b.step(s)
      if (out.trade !== null) prints.push({ market: b.id, ...out.trade })
    }
    const out = acc.step(s, 1_000_000 + s * 100, prints)
    outputs.push(out)
    for (const u of out) {
      ledger.apply(u as unknown as Msg)
      if (u.type !== 'order') continue
      if (!opened.has(u.id)) opened.set(u.id, s)
      if (u.status === 'filled' || u.status === 'canceled') lifetimes.push(s - (opened.get(u.id) ?? s))
    }
    if (out.length > 0) {
      longestQuiet = Math.max(longestQuiet, s - lastChange - 1)
      lastChange = s
    }
    const open = ledger.openCount()
    if (open >= 2 && open <= 6) workingSteps++
  }
  return { ledger, outputs, workingSteps, longestQuiet, lifetimes }
}

describe('demo account model (driven by the real books)', () => {
  it.each([1, 5, 9])(
    'seed %i: realistic orders, fills at the book, consistent positions and wallet',
    (seed) => {
      const steps = 3000
      const { ledger, workingSteps, longestQuiet, lifetimes } = drive(seed, steps)
      const st = ledger.stats
      // Every message already passed the ledger's checks (price near the book, fill at the order's price, size,
      // avg, pnl and wallet consistent with the fills); here: the account does all that a real one does.
      expect(st.placed).toBeGreaterThan(60)
      expect(st.buyFills).toBeGreaterThan(10)
      expect(st.sellFills).toBeGreaterThan(10)
      expect(st.positionDecreases).toBeGreaterThan(0)
      expect(st.partialFills).toBeGreaterThan(0)
      expect(st.partialThenFilled).toBeGreaterThan(0)
      expect(st.takerFills).toBeGreaterThan(0)
      expect(st.canceled).toBeGreaterThan(10)
      expect(st.jumpFills).toBeLessThanOrEqual((st.buyFills + st.sellFills) / 50)
      // 2–6 open orders most of the time, and many of them rest for a while (10 steps = 1 s at the default).
      expect(workingSteps / steps).toBeGreaterThan(0.7)
      expect(st.maxOpen).toBeLessThanOrEqual(7)
      expect(lifetimes.filter((l) => l >= 10).length / lifetimes.length).toBeGreaterThan(0.4)
      // The account changes at least once per maxGapSteps (2 s at the defaults).
      expect(longestQuiet).toBeLessThan(20)
      expect(ledger.total).not.toBeNull()
    },
  )

  it('is deterministic for a seed, and another seed trades differently', () => {
    const a = drive(4, 600).outputs
    expect(drive(4, 600).outputs).toEqual(a)
    expect(drive(8, 600).outputs).not.toEqual(a)
  })

  it('a sell never makes a position short, and a filled order leaves no open remainder', () => {
    const { outputs } = drive(2, 2000)
    const held = new Map<string, number>()
    for (const out of outputs)
      for (const u of out) {
        if (u.type === 'position') {
          expect(u.size).toBeGreaterThanOrEqual(0)
          held.set(u.market, u.size)
        }
        if (u.type === 'order' && u.status === 'filled') expect(u.filled).toBe(u.size)
      }
    expect(held.size).toBeGreaterThan(0)
  })
})

describe('the account shared with orders placed from outside (VoxFi user orders)', () => {
  it('the trader never sells what the user bought, nor spends or offers what the user holds back', () => {
    const seed = 6
    const books = buildMarketBooks(buildCatalog(seed, 12, 4), seed)
    const acc = new DemoAccount(
      seed,
      books.map((b) => ({ id: b.id, eventId: b.eventId, quote: () => quoteOf(b) })),
      20,
    )
    // The markets the trader starts holding: it sells them down over time, the whole holding now and then.
    const start = acc.snapshot(0).filter((u) => u.type === 'position')
    expect(start.length).toBeGreaterThan(0)
    const bought = 500
    for (const p of start) {
      const tick = quoteOf(books.find((b) => b.id === p.market)!).ask
      acc.settle({
        orderId: 'u',
        market: p.market,
        contract: 'YES',
        side: 'buy',
        tick,
        size: bought,
        feeCents: 0,
        liquidity: 'taker',
        ts: 0,
      })
    }
    // And the user holds back cash for a resting buy.
    const reservedMicro = 2_000_000_000
    acc.useExternalOrders({ reservedMicro: () => reservedMicro, offered: () => 0 })
    const lowest = new Map(start.map((p) => [p.market, Number.POSITIVE_INFINITY]))
    let sells = 0
    for (let s = 1; s <= 4000; s++) {
      const prints: AccountPrint[] = []
      for (const b of books) {
        const out = b.step(s)
        if (out.trade !== null) prints.push({ market: b.id, ...out.trade })
      }
      for (const u of acc.step(s, s, prints)) {
        if (u.type === 'position' && lowest.has(u.market))
          lowest.set(u.market, Math.min(lowest.get(u.market)!, u.size))
        if (u.type === 'fill' && u.side === 'sell' && lowest.has(u.market)) sells++
        // The trader's buys leave the user's reservation alone.
        if (u.type === 'balance') expect(u.available).toBeGreaterThanOrEqual(-1e-6)
      }
    }
    expect(sells).toBeGreaterThan(0)
    for (const [market, low] of lowest) expect(low, market).toBeGreaterThanOrEqual(bought)
  })
})

describe('demo account on the wire', () => {
  let sim: Simulator | undefined
  let client: WsClient | undefined
  afterAll(async () => {
    await client?.close()
    await sim?.close()
  })

  it('over a real socket with the demo key: open orders, two-sided fills at the book, consistent account', async () => {
    sim = await createSimulator({
      seed: 11,
      tickMs: 10,
      accountMs: 200,
      config: { events: 6, marketsPerEvent: 4 },
    })
    const c = await WsClient.connect(sim.wsUrl)
    client = c
    const events = sim.listing().events.map((e) => e.id)
    await c.request({ type: 'subscribe', channel: 'event', events }, isAck('subscribed', 'event'))
    await c.request({ type: 'subscribe', channel: 'user', auth: sim.demoKey }, isAck('subscribed', 'user'))
    const isFill = (m: Msg): boolean => m.channel === 'user' && m.type === 'fill'
    await c.collect(isFill, 25, { timeoutMs: 90_000 })
    await c.collect((m) => isFill(m) && m.side === 'sell', 3, { timeoutMs: 90_000 })
    await c.collect((m) => isFill(m) && m.side === 'buy', 3, { timeoutMs: 90_000 })
    await c.close()

    // Replay the frames in arrival order: every step's book deltas arrive before its account updates.
    const books = new Map<string, BookLevels>()
    const pre = new Map<string, { ts: unknown; quote: Quote }>()
    const quote = (b: BookLevels | undefined): Quote => ({
      bid: b === undefined || b.bids.size === 0 ? 0 : Math.round(Math.max(...b.bids.keys()) * 100),
      ask: b === undefined || b.asks.size === 0 ? 100 : Math.round(Math.min(...b.asks.keys()) * 100),
    })
    let currentTs: unknown = null
    const ledger = new AccountLedger((market) => {
      const post = quote(books.get(market))
      const before = pre.get(market)
      return { pre: before !== undefined && before.ts === currentTs ? before.quote : post, post }
    })
    let batches = 0
    let workingBatches = 0
    let lastTs: unknown = null
    for (const m of c.messages) {
      if (m.channel === 'event' && m.type === 'orderbook') {
        const id = String(m.market)
        let b = books.get(id)
        if (b === undefined) {
          b = { bids: new Map(), asks: new Map() }
          books.set(id, b)
        }
        if (m.snapshot !== true) pre.set(id, { ts: m.ts, quote: quote(b) })
        applyBook(b, m)
        continue
      }
      if (m.channel !== 'user' || m.type === 'subscribed') continue
      currentTs = m.ts
      if (typeof m.market === 'string')
        expect(books.has(m.market), `${m.market} is a listed market`).toBe(true)
      ledger.apply(m)
      if (m.ts !== lastTs) {
        lastTs = m.ts
        batches++
        const open = ledger.openCount()
        if (open >= 2 && open <= 6) workingBatches++
      }
    }
    const st = ledger.stats
    expect(st.buyFills).toBeGreaterThanOrEqual(3)
    expect(st.sellFills).toBeGreaterThanOrEqual(3)
    expect(st.maxOpen).toBeGreaterThanOrEqual(2)
    expect(workingBatches / batches).toBeGreaterThan(0.5)
    expect(st.jumpFills).toBeLessThanOrEqual(2)
  }, 120_000)
})
