// Events whose markets are mutually exclusive outcomes price like real ones: their mids sum to about 1 at
// every step, while the books stay sane; events of independent yes/no questions keep their free-running books.
import { afterAll, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/sim'
import { buildCatalog } from '../../src/sim/catalog'
import { FAIR_MAX, FAIR_MIN, OutcomeFairs, squeeze } from '../../src/sim/fair'
import { MAX_LEVELS, MIN_LEVELS, MarketBook, buildMarketBooks } from '../../src/sim/market'
import { WsClient, applyBook, bestAsk, bestBid, isAck, type BookLevels, type Msg } from './helpers'

const SEEDS = [1, 2, 3, 99]
const STEPS = 600
const TOLERANCE = 0.08

type Book = { bids: Map<number, number>; asks: Map<number, number> }

const toMap = (levels: Array<[number, number]>): Map<number, number> => new Map(levels)
const ticks = (p: number): number => Math.round(p * 100)

function apply(book: Book, bids: Array<[number, number]>, asks: Array<[number, number]>): void {
  for (const [side, levels] of [
    [book.bids, bids],
    [book.asks, asks],
  ] as const) {
    for (const [p, s] of levels) {
      if (s === 0) side.delete(p)
      else side.set(p, s)
    }
  }
}

describe('fair values of exclusive outcomes', () => {
  it('squeeze keeps the sum at 1 and every value in [FAIR_MIN, FAIR_MAX]', () => {
    const cases = [
      [1, 1, 1, 1],
      [1000, 1, 1e-9, 2],
      [1e-12, 1e-12, 5],
      [3, 0],
      [1, 1e6, 1e6, 1e-6, 1e-6],
    ]
    for (const w of cases) {
      const p = squeeze(w, FAIR_MIN, FAIR_MAX)
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9)
      for (const x of p) {
        expect(x).toBeGreaterThanOrEqual(FAIR_MIN - 1e-12)
        expect(x).toBeLessThanOrEqual(FAIR_MAX + 1e-12)
      }
    }
    // Proportions among the outcomes that need no pinning are kept.
    const p = squeeze([6, 3, 1e-9], FAIR_MIN, FAIR_MAX)
    expect((p[0] as number) / (p[1] as number)).toBeCloseTo(2, 9)
  })

  it('the process sums to 1 at every step, moves, and is deterministic', () => {
    for (const n of [2, 4, 6, 20]) {
      for (const ordered of [false, true]) {
        const f = new OutcomeFairs(5, n, n, ordered)
        const twin = new OutcomeFairs(5, n, n, ordered)
        const start = f.current()
        let moved = 0
        for (let s = 1; s <= 2000; s++) {
          const p = Array.from({ length: n }, (_, i) => f.fair(i, s))
          expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9)
          for (const x of p) expect(x >= FAIR_MIN - 1e-12 && x <= FAIR_MAX + 1e-12).toBe(true)
          expect(twin.fair(n - 1, s)).toBe(p[n - 1])
        }
        for (let i = 0; i < n; i++) if (Math.abs((f.current()[i] ?? 0) - (start[i] ?? 0)) > 0.005) moved++
        expect(moved).toBeGreaterThan(0)
      }
    }
    expect(new OutcomeFairs(5, 1, 4).current()).not.toEqual(new OutcomeFairs(6, 1, 4).current())
  })
})

describe('catalog kinds', () => {
  it('marks every event exclusive or independent, both kinds present, titles tell them apart', () => {
    for (const seed of SEEDS) {
      const c = buildCatalog(seed, 12, 4)
      const exclusive = c.events.filter((e) => e.mutuallyExclusive)
      const independent = c.events.filter((e) => !e.mutuallyExclusive)
      expect(exclusive.length).toBeGreaterThanOrEqual(4)
      expect(independent.length).toBeGreaterThanOrEqual(4)
      // One question with one answer vs a topic with several yes/no questions.
      for (const e of exclusive) expect(e.title).toMatch(/\?$/)
      for (const e of independent) expect(e.title).not.toMatch(/\?$/)
      for (const e of c.events) {
        expect(new Set(e.markets.map((m) => m.title)).size).toBe(e.markets.length)
        for (const m of e.markets) expect(m.question).toMatch(/\?$/)
      }
    }
    const fed = buildCatalog(1, 1, 4).events[0]
    expect(fed?.title).toMatch(/^Fed decision in \w+ \d{4}: which move\?$/)
    expect(fed?.markets.map((m) => m.title)).toEqual([
      '50+ bps cut',
      '25 bps cut',
      'No change',
      '25+ bps hike',
    ])
  })
})

describe('books of exclusive events', () => {
  it(`keep each exclusive event's mids summing to 1 ± ${TOLERANCE} for ${STEPS} steps, with sane books`, () => {
    // Hundreds of thousands of checks: collect violations and assert once, so the loop stays fast.
    const problems: string[] = []
    const fail = (what: string): void => {
      if (problems.length < 20) problems.push(what)
    }
    let checkedSums = 0
    for (const seed of SEEDS) {
      for (const perEvent of [4, 3, 6]) {
        const catalog = buildCatalog(seed, 12, perEvent)
        const list = buildMarketBooks(catalog, seed)
        const mirror = new Map<string, Book>()
        for (const b of list) {
          const s = b.snapshot()
          mirror.set(b.id, { bids: toMap(s.bids), asks: toMap(s.asks) })
        }
        const firstMid = new Map<string, number>()
        const moved = new Set<string>()
        for (let step = 0; step <= STEPS; step++) {
          for (const b of list) {
            if (step === 0) continue
            const m = mirror.get(b.id) as Book
            const bb = Math.max(...m.bids.keys())
            const ba = Math.min(...m.asks.keys())
            const out = b.step(step)
            // Trades take the touch as it was before the step; deltas rebuild the book (checked at the end).
            if (out.trade !== null && out.trade.price !== (out.trade.side === 'buy' ? ba : bb))
              fail(`${b.id} step ${step}: trade at ${out.trade.price} outside ${bb}/${ba}`)
            if (out.delta !== null) apply(m, out.delta.bids, out.delta.asks)
          }
          for (const e of catalog.events) {
            let sum = 0
            for (const mk of e.markets) {
              const m = mirror.get(mk.id) as Book
              const bb = Math.max(...m.bids.keys())
              const ba = Math.min(...m.asks.keys())
              const at = `${mk.id} step ${step}`
              if (!(bb < ba)) fail(`${at}: crossed ${bb}/${ba}`)
              // 10–30 levels a side, fewer only where the range 0.01–0.99 has no more ticks.
              if (m.bids.size > MAX_LEVELS || m.bids.size < Math.min(MIN_LEVELS, ticks(bb)))
                fail(`${at}: ${m.bids.size} bid levels, best ${bb}`)
              if (m.asks.size > MAX_LEVELS || m.asks.size < Math.min(MIN_LEVELS, 100 - ticks(ba)))
                fail(`${at}: ${m.asks.size} ask levels, best ${ba}`)
              const mid = (bb + ba) / 2
              sum += mid
              if (!firstMid.has(mk.id)) firstMid.set(mk.id, mid)
              else if (Math.abs(mid - (firstMid.get(mk.id) as number)) >= 0.02) moved.add(mk.id)
            }
            if (!e.mutuallyExclusive) continue
            checkedSums++
            if (!(Math.abs(sum - 1) <= TOLERANCE)) fail(`${e.title} (seed ${seed}) step ${step}: sum ${sum}`)
          }
        }
        // The mirror equals the real book at the end (nothing in a delta was lost).
        for (const b of list) {
          const s = b.snapshot()
          expect(mirror.get(b.id)).toEqual({ bids: toMap(s.bids), asks: toMap(s.asks) })
        }
        // Prices live: plenty of exclusive markets moved by 2 cents or more.
        const exclusiveMarkets = catalog.events.filter((e) => e.mutuallyExclusive).flatMap((e) => e.markets)
        expect(exclusiveMarkets.filter((m) => moved.has(m.id)).length).toBeGreaterThan(
          exclusiveMarkets.length / 4,
        )
      }
    }
    expect(problems).toEqual([])
    expect(checkedSums).toBeGreaterThan(SEEDS.length * 3 * STEPS * 4)
  })

  it('independent events keep the free-running books (not tied to 1)', () => {
    for (const seed of SEEDS) {
      const catalog = buildCatalog(seed, 12, 4)
      const list = buildMarketBooks(catalog, seed)
      const independent = catalog.events.filter((e) => !e.mutuallyExclusive)
      const sums: number[] = []
      for (const e of independent) {
        let sum = 0
        for (const mk of e.markets) {
          const b = list.find((x) => x.id === mk.id) as MarketBook
          const free = new MarketBook(mk.id, mk.eventId, seed, mk.index)
          expect(b.snapshot()).toEqual(free.snapshot())
          for (let s = 1; s <= 50; s++) expect(b.step(s)).toEqual(free.step(s))
          sum += (b.bestBidTick() + b.bestAskTick()) / 200
        }
        sums.push(sum)
      }
      // Four free markets of 0.25–0.75 each: nowhere near 1.
      expect(sums.some((s) => Math.abs(s - 1) > TOLERANCE)).toBe(true)
    }
  })
})

describe('over a socket', () => {
  const sims: Simulator[] = []
  const clients: WsClient[] = []
  afterAll(async () => {
    for (const c of clients) await c.close()
    for (const s of sims) await s.close()
  })

  it('a watcher of every exclusive event sees mids summing to 1 ± 0.08 after every step, and bid < ask', async () => {
    for (const seed of [4, 11]) {
      const sim = await createSimulator({ seed, tickMs: 10 })
      sims.push(sim)
      const events = sim.listing().events
      for (const e of events) expect(typeof e.mutuallyExclusive).toBe('boolean')
      const exclusive = events.filter((e) => e.mutuallyExclusive)
      expect(exclusive.length).toBeGreaterThan(0)
      // The listing's own quotes already add up.
      for (const e of exclusive) {
        const sum = e.markets.reduce((a, m) => a + ((m.bestBid ?? 0) + (m.bestAsk ?? 0)) / 2, 0)
        expect(Math.abs(sum - 1)).toBeLessThanOrEqual(TOLERANCE)
      }
      const c = await WsClient.connect(sim.wsUrl)
      clients.push(c)
      await c.request(
        { type: 'subscribe', channel: 'event', events: exclusive.map((e) => e.id), filter: 'orderbook' },
        isAck('subscribed', 'event'),
      )
      const books = new Map<string, BookLevels>()
      const eventOf = new Map<string, string>()
      for (const e of exclusive) for (const m of e.markets) eventOf.set(m.id, e.id)
      let checked = 0
      let pendingTs: unknown = null
      // A step's updates share one timestamp and arrive together: check the sums whenever a new step begins.
      const checkSums = (): void => {
        for (const e of exclusive) {
          if (!e.markets.every((m) => books.has(m.id))) continue
          const sum = e.markets.reduce((a, m) => {
            const b = books.get(m.id) as BookLevels
            return a + (bestBid(b) + bestAsk(b)) / 2
          }, 0)
          expect(Math.abs(sum - 1), `${e.title}: ${sum}`).toBeLessThanOrEqual(TOLERANCE)
          checked++
        }
      }
      let seen = 0
      const deltas = await c.collect(
        (m: Msg) => m.channel === 'event' && m.type === 'orderbook' && m.snapshot === false,
        exclusive.length * 4 * 60,
        { timeoutMs: 60_000 },
      )
      expect(deltas.length).toBeGreaterThan(0)
      for (const m of c.messages) {
        if (m.channel !== 'event' || m.type !== 'orderbook') continue
        if (m.ts !== pendingTs) {
          checkSums()
          pendingTs = m.ts
        }
        const id = m.market as string
        expect(eventOf.has(id)).toBe(true)
        const b = books.get(id) ?? { bids: new Map(), asks: new Map() }
        books.set(id, b)
        applyBook(b, m)
        expect(bestBid(b)).toBeLessThan(bestAsk(b))
        seen++
      }
      checkSums()
      expect(seen).toBeGreaterThanOrEqual(deltas.length)
      expect(checked).toBeGreaterThan(100)
      await c.close()
    }
  }, 120_000)
})
