import { afterEach, describe, expect, it, vi } from 'vitest'
import { batchJson } from '../../../src/main/services/fanout/batch-json'
import { BookStore } from '../../../src/main/services/market/books'
import { Fanout, type FanoutOptions } from '../../../src/main/services/fanout/fanout'
import { TapeStore } from '../../../src/main/services/market/tapes'
import { UserFeed } from '../../../src/main/services/account/user-feed'
import type { Logger } from '../../../src/main/services/base/types'
import { isHeartbeat, type ViewBatch } from '../../../src/shared/ipc'
import { frame, status } from '../../shared/batch-fixtures'

/**
 * A deterministic clock, timer queue and microtask queue: tests advance time explicitly, nothing depends on the
 * wall clock. `defer`red work runs as microtasks do: when the current synchronous work (a test step, a timer
 * callback) is done, i.e. on `drain()` or at the start of `advance()` and after each timer.
 */
class ManualClock {
  now = 1_000_000
  private nextId = 1
  private readonly timers = new Map<number, { at: number; fn: () => void }>()
  private readonly micro: Array<() => void> = []

  readonly defer = (fn: () => void): void => {
    this.micro.push(fn)
  }
  /** Runs the deferred work (the end of the current socket read), without moving the clock. */
  drain(): void {
    for (let guard = 0; guard < 10_000 && this.micro.length > 0; guard++) this.micro.shift()?.()
  }
  get deferred(): number {
    return this.micro.length
  }

  readonly setTimer = (fn: () => void, ms: number): number => {
    const id = this.nextId++
    this.timers.set(id, { at: this.now + ms, fn })
    return id
  }
  readonly clearTimer = (handle: unknown): void => {
    this.timers.delete(handle as number)
  }
  get pending(): number {
    return this.timers.size
  }
  /** Runs due timers in time order, bounded so a bug cannot spin forever. */
  advance(ms: number): void {
    this.drain()
    const until = this.now + ms
    for (let guard = 0; guard < 10_000; guard++) {
      let next: [number, { at: number; fn: () => void }] | undefined
      for (const entry of this.timers)
        if (entry[1].at <= until && (!next || entry[1].at < next[1].at)) next = entry
      if (!next) break
      this.timers.delete(next[0])
      this.now = Math.max(this.now, next[1].at)
      next[1].fn()
      this.drain()
    }
    this.now = until
  }
}

interface Rig {
  clock: ManualClock
  books: BookStore
  tapes: TapeStore
  feed: UserFeed
  fanout: Fanout
  logs: string[]
  statusCalls: { n: number }
}

function rig(overrides: Partial<FanoutOptions> = {}): Rig {
  const clock = new ManualClock()
  const books = new BookStore()
  const tapes = new TapeStore()
  const feed = new UserFeed()
  const logs: string[] = []
  const logger: Logger = {
    info: (m) => logs.push(`info ${m}`),
    warn: (m, f) => logs.push(`warn ${m} ${JSON.stringify(f)}`),
    error: (m, f) => logs.push(`error ${m} ${JSON.stringify(f)}`),
  }
  const statusCalls = { n: 0 }
  const fanout = new Fanout({
    intervalMs: 16,
    now: () => clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    defer: clock.defer,
    logger,
    provider: {
      bookView: (m, d) => books.bookView(m, d),
      ticker: (m) => books.ticker(m),
      status: () => {
        statusCalls.n++
        return status()
      },
      recentTrades: (m, limit) => tapes.history(m, limit),
      recentCandles: (m) => tapes.candles(m),
    },
    ...overrides,
  })
  return { clock, books, tapes, feed, fanout, logs, statusCalls }
}

function collector(): { batches: ViewBatch[]; sink: (b: ViewBatch) => void } {
  const batches: ViewBatch[] = []
  return { batches, sink: (b) => batches.push(b) }
}

function snap(r: Rig, market: string, bid: number, ask: number, seq = 1): void {
  r.books.apply(
    { kind: 'book', market, snapshot: true, bids: [[bid, 1]], asks: [[ask, 1]], seq },
    r.clock.now,
  )
  r.fanout.bookChanged(market)
}

describe('Fanout', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('first batch carries the status; later status changes are delivered', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.clock.advance(20)
    expect(c.batches).toHaveLength(1)
    expect(c.batches[0]?.status?.state).toBe('live')
    expect(c.batches[0]?.seq).toBe(1)
    r.clock.advance(100)
    expect(c.batches).toHaveLength(1)
    r.fanout.statusChanged()
    r.fanout.statusChanged()
    r.clock.advance(20)
    expect(c.batches).toHaveLength(2)
    expect(c.batches[1]?.status).toBeDefined()
    expect(c.batches[1]?.seq).toBe(2)
  })

  it('coalesces: 1000 changes of one market between flushes cost one view, and the newest state wins', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    r.books.apply(
      { kind: 'book', market: 'a', snapshot: true, bids: [[0.1, 1]], asks: [[0.9, 1]], seq: 0 },
      1,
    )
    r.clock.advance(20)
    c.batches.length = 0
    const before = { ...r.fanout.counters }
    for (let seq = 1; seq <= 1000; seq++) {
      r.books.apply({ kind: 'book', market: 'a', snapshot: false, bids: [[0.1, seq]], asks: [], seq }, seq)
      r.fanout.bookChanged('a')
    }
    expect(c.batches).toHaveLength(0)
    r.clock.advance(20)
    expect(c.batches).toHaveLength(1)
    const batch = c.batches[0]
    expect(batch?.books).toHaveLength(1)
    expect(batch?.books?.[0]?.bids).toEqual([[0.1, 1000]])
    expect(batch?.books?.[0]?.seq).toBe(1000)
    expect(batch?.tickers).toEqual([expect.objectContaining({ market: 'a', bestBid: 0.1, bestAsk: 0.9 })])
    expect(r.fanout.counters.bookViews - before.bookViews).toBe(1)
    expect(r.fanout.counters.batches - before.batches).toBe(1)
  })

  it('sends at most one batch per client per interval under a steady stream', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    snap(r, 'a', 0.1, 0.9)
    // 1 change per ms for 200 ms.
    for (let i = 0; i < 200; i++) {
      r.books.apply(
        { kind: 'book', market: 'a', snapshot: false, bids: [[0.1, i + 2]], asks: [], seq: i + 2 },
        i,
      )
      r.fanout.bookChanged('a')
      r.clock.advance(1)
    }
    r.clock.advance(50)
    const times = c.batches.map((b) => b.at)
    for (let i = 1; i < times.length; i++)
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(16)
    expect(c.batches.length).toBeGreaterThanOrEqual(10)
    expect(c.batches.length).toBeLessThanOrEqual(14)
    expect(c.batches.at(-1)?.books?.[0]?.bids).toEqual([[0.1, 201]])
  })

  it('delivers only the markets a client watches, with trades oldest first', () => {
    const r = rig()
    const c1 = collector()
    const c2 = collector()
    r.fanout.addClient('w1', c1.sink)
    r.fanout.addClient('w2', c2.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    r.fanout.setClientMarkets('w2', new Set(['b']))
    r.clock.advance(20)
    c1.batches.length = 0
    c2.batches.length = 0
    const viewsBefore = r.fanout.counters.viewsBuilt
    snap(r, 'a', 0.1, 0.2)
    snap(r, 'b', 0.3, 0.4)
    snap(r, 'c', 0.5, 0.6)
    for (const [m, p] of [
      ['a', 0.11],
      ['c', 0.55],
      ['a', 0.12],
      ['b', 0.35],
    ] as const) {
      const view = r.tapes.push(
        { kind: 'trade', market: m, price: p, size: 1, side: 'buy', ts: null },
        r.clock.now,
      )
      if (view) {
        r.books.setLast(m, p, r.clock.now)
        r.fanout.trade(view)
      }
    }
    r.clock.advance(20)
    expect(c1.batches).toHaveLength(1)
    expect(c1.batches[0]?.books?.map((b) => b.market)).toEqual(['a'])
    expect(c1.batches[0]?.tickers).toEqual([expect.objectContaining({ market: 'a', last: 0.12 })])
    expect(c1.batches[0]?.trades?.map((t) => t.price)).toEqual([0.11, 0.12])
    expect(c2.batches[0]?.books?.map((b) => b.market)).toEqual(['b'])
    expect(c2.batches[0]?.trades?.map((t) => t.price)).toEqual([0.35])
    // A book and a ticker for each of the two watched markets; 'c' has no watcher and costs nothing.
    expect(r.fanout.counters.viewsBuilt - viewsBefore).toBe(4)
  })

  it('windows watching the same market share its book and ticker view objects in a pass, so each is serialised once', () => {
    const r = rig()
    const c1 = collector()
    const c2 = collector()
    r.fanout.addClient('w1', c1.sink)
    r.fanout.addClient('w2', c2.sink)
    r.fanout.setClientMarkets('w1', ['a', 'b'])
    r.fanout.setClientMarkets('w2', ['a'])
    r.clock.advance(20)
    c1.batches.length = 0
    c2.batches.length = 0
    const before = r.fanout.counters.tickerViews
    snap(r, 'a', 0.1, 0.2)
    snap(r, 'b', 0.3, 0.4)
    r.clock.advance(20)
    const t1 = c1.batches[0]?.tickers?.find((t) => t.market === 'a')
    const t2 = c2.batches[0]?.tickers?.find((t) => t.market === 'a')
    expect(t1).toBeDefined()
    expect(t1).toBe(t2)
    expect(c1.batches[0]?.books?.find((b) => b.market === 'a')).toBe(c2.batches[0]?.books?.[0])
    // One ticker view per market for the pass, not one per window.
    expect(r.fanout.counters.tickerViews - before).toBe(2)
    // The next pass builds its own: a ticker view is never older than the flush that sends it.
    r.books.setLast('a', 0.15, r.clock.now)
    r.fanout.tickerChanged('a')
    r.clock.advance(20)
    const t3 = c2.batches[1]?.tickers?.[0]
    expect(t3).not.toBe(t2)
    expect(t3?.last).toBe(0.15)
    for (const b of [...c1.batches, ...c2.batches]) expect(batchJson(b)).toBe(JSON.stringify(b))
  })

  it('a trade alone refreshes the ticker (last price) without rebuilding the book', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    snap(r, 'a', 0.1, 0.9)
    r.clock.advance(20)
    c.batches.length = 0
    const view = r.tapes.push({ kind: 'trade', market: 'a', price: 0.5, size: 2, side: 'sell', ts: 5 }, 6)
    r.books.setLast('a', 0.5, 6)
    if (view) r.fanout.trade(view)
    r.fanout.tickerChanged('a')
    r.clock.advance(20)
    expect(c.batches[0]?.books).toBeUndefined()
    expect(c.batches[0]?.tickers).toEqual([expect.objectContaining({ last: 0.5 })])
    expect(c.batches[0]?.trades).toEqual([view])
  })

  it('a newly added market gets its current view in the next batch; a removed one stops', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    snap(r, 'a', 0.1, 0.2)
    snap(r, 'b', 0.3, 0.4)
    r.clock.advance(20)
    expect(c.batches[0]?.books?.map((b) => b.market)).toEqual(['a'])
    r.fanout.setClientMarkets('w1', ['a', 'b'])
    r.clock.advance(20)
    expect(c.batches).toHaveLength(2)
    expect(c.batches[1]?.books?.map((b) => b.market)).toEqual(['b'])
    expect(c.batches[1]?.books?.[0]?.bids).toEqual([[0.3, 1]])
    // A market with no book yet produces nothing until its book appears.
    r.fanout.setClientMarkets('w1', ['b', 'x'])
    r.clock.advance(20)
    expect(c.batches).toHaveLength(2)
    snap(r, 'a', 0.15, 0.2, 2)
    r.clock.advance(20)
    expect(c.batches).toHaveLength(2)
    snap(r, 'x', 0.5, 0.6)
    r.clock.advance(20)
    expect(c.batches[2]?.books?.map((b) => b.market)).toEqual(['x'])
  })

  it('a change reaches exactly the windows watching its market when the batch goes out', () => {
    const r = rig()
    const w = [collector(), collector(), collector()]
    w.forEach((c, i) => r.fanout.addClient(`w${i + 1}`, c.sink))
    r.fanout.setClientMarkets('w1', ['a'])
    r.fanout.setClientMarkets('w2', ['a'])
    r.fanout.setClientMarkets('w3', ['b'])
    r.clock.advance(20)
    for (const c of w) c.batches.length = 0
    const before = r.fanout.counters.bookViews
    for (let i = 1; i <= 100; i++) snap(r, 'a', 0.1, 0.2, i)
    const v = r.tapes.push({ kind: 'trade', market: 'a', price: 0.15, size: 1, side: 'buy', ts: 1 }, 1)
    if (v) r.fanout.trade(v)
    // w2 stops watching before the flush: it gets neither the book nor the trade.
    r.fanout.setClientMarkets('w2', [])
    r.clock.advance(20)
    expect(w[0]?.batches.map((b) => b.books?.map((x) => x.market))).toEqual([['a']])
    expect(w[0]?.batches[0]?.trades).toHaveLength(1)
    expect(w[0]?.batches[0]?.tickers?.map((t) => t.market)).toEqual(['a'])
    expect(w[1]?.batches).toEqual([])
    expect(w[2]?.batches).toEqual([])
    expect(r.fanout.counters.bookViews - before).toBe(1)
    // A market nobody watches costs nothing and sends nothing.
    snap(r, 'zz', 0.1, 0.2)
    r.clock.advance(20)
    expect(r.clock.pending).toBe(0)
    expect(w.map((c) => c.batches.length)).toEqual([1, 0, 0])
  })

  it('pending trades of a market the client stops watching are not delivered', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a', 'b'])
    r.clock.advance(20)
    c.batches.length = 0
    for (const m of ['a', 'b']) {
      const v = r.tapes.push({ kind: 'trade', market: m, price: 0.5, size: 1, side: null, ts: null }, 1)
      if (v) r.fanout.trade(v)
    }
    r.fanout.setClientMarkets('w1', ['b'])
    r.clock.advance(20)
    expect(c.batches[0]?.trades?.map((t) => t.market)).toEqual(['b'])
  })

  it('setDepth re-sends the watched books at the new depth', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    const bids = Array.from({ length: 40 }, (_, i) => [0.4 - i / 1000, 1] as [number, number])
    r.books.apply({ kind: 'book', market: 'a', snapshot: true, bids, asks: [[0.5, 1]], seq: 1 }, 1)
    r.clock.advance(20)
    expect(c.batches[0]?.books?.[0]?.bids).toHaveLength(25)
    expect(c.batches[0]?.books?.[0]?.depth).toEqual({ bids: 40, asks: 1 })
    r.fanout.setDepth('w1', 5)
    r.clock.advance(20)
    expect(c.batches[1]?.books?.[0]?.bids).toHaveLength(5)
    expect(r.fanout.setDepth('nobody', 5)).toBe(false)
  })

  it('caps trades and inspector frames per batch, keeping the most recent, and never drops an account update', () => {
    const r = rig({ maxTradesPerBatch: 500, maxInspectorPerBatch: 200 })
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    r.fanout.setUser('w1', true)
    r.fanout.setInspector('w1', true)
    r.clock.advance(20)
    c.batches.length = 0
    const tapes = new TapeStore(20_000)
    let last = ''
    for (let i = 0; i < 10_000; i++) {
      const v = tapes.push({ kind: 'trade', market: 'a', price: 0.5, size: i, side: 'buy', ts: i }, i)
      if (v) {
        last = v.key
        r.fanout.trade(v)
      }
    }
    for (let i = 0; i < 120; i++)
      r.fanout.user(r.feed.push({ kind: 'user', topic: 'fill', market: 'a', data: i }, i))
    for (let i = 0; i < 1000; i++) r.fanout.inspector(frame(i))
    r.clock.advance(20)
    const b = c.batches[0]
    expect(b?.trades).toHaveLength(500)
    expect(b?.trades?.[0]?.size).toBe(9500)
    expect(b?.trades?.at(-1)?.key).toBe(last)
    expect(b?.user).toHaveLength(120)
    expect(b?.user?.map((u) => u.data)).toEqual(Array.from({ length: 120 }, (_, i) => i))
    expect(b?.inspector).toHaveLength(200)
    expect(b?.inspector?.map((f) => f.seq)).toEqual(Array.from({ length: 200 }, (_, i) => 800 + i))
    expect(r.fanout.counters.droppedTrades).toBe(9500)
    expect(r.fanout.counters.droppedInspector).toBe(800)
  })

  it('a window that turns its inspector on is first sent the recent frames the engine kept, once', () => {
    const kept = [frame(1), frame(2)]
    const r = rig({
      provider: {
        bookView: () => null,
        ticker: () => null,
        status,
        recentFrames: (limit) => kept.slice(-limit),
      },
    })
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.clock.advance(20)
    r.fanout.setInspector('w1', true)
    r.fanout.inspector(frame(3))
    r.clock.advance(20)
    expect(c.batches.flatMap((b) => b.inspector ?? []).map((f) => f.seq)).toEqual([1, 2, 3])
    // Already on: nothing is sent again.
    r.fanout.setInspector('w1', true)
    r.clock.advance(20)
    expect(c.batches.flatMap((b) => b.inspector ?? [])).toHaveLength(3)
  })

  it('user updates and inspector frames go only to clients that asked for them', () => {
    const r = rig()
    const c1 = collector()
    const c2 = collector()
    r.fanout.addClient('w1', c1.sink)
    r.fanout.addClient('w2', c2.sink)
    r.fanout.setUser('w1', true)
    r.fanout.setInspector('w2', true)
    r.clock.advance(20)
    c1.batches.length = 0
    c2.batches.length = 0
    r.fanout.user(r.feed.push({ kind: 'user', topic: 'order', market: null, data: { id: 'o1' } }, 1))
    r.fanout.inspector(frame(1))
    r.fanout.eventsChanged()
    r.clock.advance(20)
    expect(c1.batches[0]?.user?.map((u) => u.seq)).toEqual([1])
    expect(c1.batches[0]?.inspector).toBeUndefined()
    expect(c2.batches[0]?.user).toBeUndefined()
    expect(c2.batches[0]?.inspector?.map((f) => f.seq)).toEqual([1])
    expect(c1.batches[0]?.eventsChanged).toBe(true)
    expect(c2.batches[0]?.eventsChanged).toBe(true)
    r.fanout.setUser('w1', false)
    r.fanout.user(r.feed.push({ kind: 'user', topic: 'order', market: null, data: null }, 2))
    r.clock.advance(20)
    expect(c1.batches).toHaveLength(1)
  })

  it('a throwing sink is logged and isolated: other clients still get their batches, and it keeps getting tries', () => {
    const r = rig()
    const good = collector()
    let calls = 0
    r.fanout.addClient('bad', () => {
      calls++
      throw new Error('window gone')
    })
    r.fanout.addClient('good', good.sink)
    r.fanout.setClientMarkets('bad', ['a'])
    r.fanout.setClientMarkets('good', ['a'])
    snap(r, 'a', 0.1, 0.2)
    r.clock.advance(20)
    snap(r, 'a', 0.11, 0.2, 2)
    r.clock.advance(20)
    expect(good.batches).toHaveLength(2)
    expect(good.batches[1]?.books?.[0]?.bids).toEqual([[0.11, 1]])
    expect(calls).toBe(2)
    expect(r.fanout.counters.sinkErrors).toBe(2)
    // Logged once, not on every failure.
    expect(r.logs.filter((l) => l.includes('fanout sink failed'))).toHaveLength(1)
    expect(r.logs[0]).toContain('window gone')
  })

  it('a provider that throws costs one batch of one client, not the flush', () => {
    const r = rig()
    const c1 = collector()
    const c2 = collector()
    const realBook = r.books.bookView.bind(r.books)
    vi.spyOn(r.books, 'bookView').mockImplementation((m, d) => {
      if (m === 'boom') throw new Error('provider bug')
      return realBook(m, d)
    })
    r.fanout.addClient('w1', c1.sink)
    r.fanout.addClient('w2', c2.sink)
    r.fanout.setClientMarkets('w1', ['boom'])
    r.fanout.setClientMarkets('w2', ['a'])
    snap(r, 'a', 0.1, 0.2)
    r.clock.advance(20)
    expect(c1.batches).toHaveLength(0)
    expect(c2.batches[0]?.books?.map((b) => b.market)).toEqual(['a'])
    expect(r.logs.some((l) => l.startsWith('error fanout could not build a batch'))).toBe(true)
  })

  it('removeClient stops delivery and releases the market index', () => {
    const r = rig()
    const c1 = collector()
    const c2 = collector()
    r.fanout.addClient('w1', c1.sink)
    r.fanout.addClient('w2', c2.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    r.fanout.setClientMarkets('w2', ['b'])
    r.fanout.setUser('w1', true)
    snap(r, 'a', 0.1, 0.2)
    r.fanout.removeClient('w1')
    r.clock.advance(20)
    expect(c1.batches).toHaveLength(0)
    expect(c2.batches).toHaveLength(1)
    // Nobody watches 'a' any more and nobody wants user updates: nothing to schedule.
    snap(r, 'a', 0.11, 0.2, 2)
    r.fanout.user(r.feed.push({ kind: 'user', topic: 'order', market: null, data: null }, 1))
    expect(r.clock.pending).toBe(0)
    expect(r.fanout.clientCount).toBe(1)
    expect(r.fanout.setClientMarkets('w1', ['a'])).toBe(false)
    r.fanout.removeClient('w1')
    // The id can be reused by a new window.
    r.fanout.addClient('w1', c1.sink)
    expect(() => r.fanout.addClient('w1', c1.sink)).toThrow(/already exists/)
  })

  it('a sink may change clients while the flush is running', () => {
    const r = rig()
    const c2 = collector()
    const c3 = collector()
    r.fanout.addClient('w1', () => {
      r.fanout.removeClient('w2')
      r.fanout.setClientMarkets('w3', ['a', 'b'])
      r.fanout.flush()
    })
    r.fanout.addClient('w2', c2.sink)
    r.fanout.addClient('w3', c3.sink)
    r.fanout.setClientMarkets('w3', ['a'])
    snap(r, 'a', 0.1, 0.2)
    snap(r, 'b', 0.3, 0.4)
    r.clock.advance(100)
    expect(c2.batches).toHaveLength(0)
    // w3 was mid-flush when it gained 'b': it gets both books, and no empty batch follows.
    expect(c3.batches).toHaveLength(1)
    expect(c3.batches[0]?.books?.map((b) => b.market).sort()).toEqual(['a', 'b'])
    expect(r.clock.pending).toBe(0)
  })

  it('builds the status once per flush however many clients need it', () => {
    const r = rig()
    for (let i = 0; i < 5; i++) r.fanout.addClient(`w${i}`, () => {})
    r.clock.advance(20)
    expect(r.statusCalls.n).toBe(1)
    for (let i = 0; i < 100; i++) r.fanout.statusChanged()
    r.clock.advance(20)
    expect(r.statusCalls.n).toBe(2)
  })

  it('batches are plain data: JSON and structured clone round-trip them unchanged', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    r.fanout.setUser('w1', true)
    r.fanout.setInspector('w1', true)
    snap(r, 'a', 0.1, 0.2)
    r.tapes.push({ kind: 'trade', market: 'a', price: 0.1, size: 1, side: 'buy', ts: 1 }, 1)
    r.tapes.markGap()
    const t = r.tapes.push(
      { kind: 'trade', market: 'a', price: 0.15, size: 1, side: 'sell', ts: 2, id: 'z' },
      2,
    )
    if (t) r.fanout.trade(t)
    r.fanout.user(r.feed.push({ kind: 'user', topic: 'balance', market: null, data: { usd: '10.5' } }, 3))
    r.fanout.inspector({ ...frame(1), decoded: [{ kind: 'ticker', market: 'a', bid: 0.1 }] })
    r.fanout.eventsChanged()
    r.clock.advance(20)
    const b = c.batches[0]
    expect(b && Object.keys(b).sort()).toEqual(
      ['at', 'books', 'eventsChanged', 'inspector', 'seq', 'status', 'tickers', 'trades', 'user'].sort(),
    )
    expect(JSON.parse(JSON.stringify(b))).toEqual(b)
    expect(structuredClone(b)).toEqual(b)
    expect(b?.trades?.[0]?.gapBefore).toBe(true)
  })

  it('with the default timer: flushes on its own, the timer does not hold the process, close() stops it', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout')
    const books = new BookStore()
    const fanout = new Fanout({
      intervalMs: 60_000,
      provider: { bookView: (m, d) => books.bookView(m, d), ticker: (m) => books.ticker(m), status },
    })
    const c = collector()
    fanout.addClient('w1', c.sink)
    // The first batch goes out in a microtask (leading edge); the timer then waits out the client's interval.
    expect(c.batches).toHaveLength(0)
    await Promise.resolve()
    expect(c.batches).toHaveLength(1)
    const handle = spy.mock.results.at(-1)?.value as NodeJS.Timeout | undefined
    expect(handle?.hasRef()).toBe(false)
    fanout.close()
    expect(() => fanout.addClient('w2', () => {})).toThrow(/closed/)
    fanout.statusChanged()
    fanout.bookChanged('a')
    expect(fanout.clientCount).toBe(0)
  })

  it('with fake timers: batches arrive without an explicit flush, and nothing fires after close()', async () => {
    vi.useFakeTimers()
    const books = new BookStore()
    const fanout = new Fanout({
      provider: { bookView: (m, d) => books.bookView(m, d), ticker: (m) => books.ticker(m), status },
    })
    const c = collector()
    fanout.addClient('w1', c.sink)
    fanout.setClientMarkets('w1', ['a'])
    books.apply({ kind: 'book', market: 'a', snapshot: true, bids: [[0.1, 1]], asks: [[0.2, 1]], seq: 1 }, 1)
    fanout.bookChanged('a')
    await vi.advanceTimersByTimeAsync(50)
    expect(c.batches).toHaveLength(1)
    expect(c.batches[0]?.books?.[0]?.market).toBe('a')
    fanout.statusChanged()
    fanout.close()
    await vi.advanceTimersByTimeAsync(1000)
    expect(c.batches).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('Fanout when timers are starved (a firehose keeps Node reading the socket)', () => {
  /**
   * The manual clock's timers never fire here: under a firehose libuv reads many socket chunks before the timers
   * phase. Deferred work runs at the end of each chunk, as queueMicrotask work does after each socket read.
   */
  function starved(overrides: Partial<FanoutOptions> = {}) {
    const deferred: Array<() => void> = []
    const r = rig({ defer: (fn) => deferred.push(fn), ...overrides })
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    snap(r, 'a', 0.1, 0.9)
    // The first batch is a leading edge: it goes out once the current (synchronous) work is done.
    for (const fn of deferred.splice(0)) fn()
    expect(c.batches).toHaveLength(1)
    let seq = 1
    const change = (): void => {
      seq++
      r.books.apply(
        { kind: 'book', market: 'a', snapshot: false, bids: [[0.1, seq]], asks: [], seq },
        r.clock.now,
      )
      r.fanout.bookChanged('a')
    }
    /** One socket chunk: `frames` book deltas 1/128 ms apart with no timer running, then the deferred work. */
    const chunk = (frames: number): void => {
      for (let i = 0; i < frames; i++) {
        change()
        r.clock.now += 1 / 128
      }
      for (const fn of deferred.splice(0)) fn()
    }
    return { r, c, deferred, change, chunk, seq: () => seq }
  }

  it('keeps sending about one batch per interval, never two within one, and the newest state wins', () => {
    const s = starved()
    const start = s.r.clock.now
    // 500 ms of 2 ms chunks.
    for (let i = 0; i < 250; i++) s.chunk(256)
    const elapsed = s.r.clock.now - start
    const times = s.c.batches.map((b) => b.at)
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i] as number) - (times[i - 1] as number)
      expect(gap).toBeGreaterThanOrEqual(16)
      // Interval + overdue threshold + at most one chunk + the notifications between two clock reads.
      expect(gap).toBeLessThanOrEqual(16 + 2 + 2 + 16 / 128)
    }
    expect(s.c.batches.length - 1).toBeGreaterThanOrEqual(Math.floor(elapsed / (16 + 2 + 2 + 16 / 128)))
    expect(s.c.batches.length - 1).toBeLessThanOrEqual(Math.ceil(elapsed / 16))
    // Once the loop is free again the timer sends what is left.
    s.r.clock.advance(20)
    expect(s.c.batches.at(-1)?.books?.[0]?.bids).toEqual([[0.1, s.seq()]])
  })

  it('flushes only once the timer is overdue, and only after the current chunk', () => {
    const s = starved()
    const first = s.c.batches[0]?.at as number
    s.change()
    // Due at first + 16: 1 ms late is within the threshold, so the timer is left to do it.
    s.r.clock.now = first + 17
    for (let i = 0; i < 100; i++) s.change()
    expect(s.deferred).toHaveLength(0)
    s.r.clock.now = first + 18.5
    for (let i = 0; i < 100; i++) s.change()
    // Handed to `defer`, not sent from inside the notification: the rest of the frame joins the batch.
    expect(s.deferred).toHaveLength(1)
    expect(s.c.batches).toHaveLength(1)
    s.chunk(0)
    expect(s.c.batches).toHaveLength(2)
    expect(s.c.batches[1]?.at).toBe(first + 18.5)
    expect(s.c.batches[1]?.books?.[0]?.bids).toEqual([[0.1, s.seq()]])
    // Only the timer that ends the client's interval is left; with nothing more to send it just lapses.
    expect(s.r.clock.pending).toBe(1)
    s.r.clock.advance(16)
    expect(s.c.batches).toHaveLength(2)
    expect(s.r.clock.pending).toBe(0)
  })

  it('an overdue flush that lost the race to an explicit flush does not send a second batch early', () => {
    const s = starved()
    const first = s.c.batches[0]?.at as number
    s.change()
    s.r.clock.now = first + 30
    for (let i = 0; i < 20; i++) s.change()
    expect(s.deferred).toHaveLength(1)
    s.r.fanout.flush()
    expect(s.c.batches).toHaveLength(2)
    // A new change arms a timer for one interval later; the stale deferred flush must leave it alone.
    s.change()
    s.chunk(0)
    expect(s.c.batches).toHaveLength(2)
    s.r.clock.advance(16)
    expect(s.c.batches).toHaveLength(3)
    expect((s.c.batches[2]?.at as number) - (s.c.batches[1]?.at as number)).toBeGreaterThanOrEqual(16)
  })

  it('nothing is sent by a deferred flush after close()', () => {
    const s = starved()
    s.change()
    s.r.clock.now += 40
    for (let i = 0; i < 20; i++) s.change()
    expect(s.deferred).toHaveLength(1)
    s.r.fanout.close()
    s.chunk(0)
    expect(s.c.batches).toHaveLength(1)
  })

  it('rejects a negative or non-finite overdue threshold', () => {
    expect(() => rig({ overdueMs: -1 })).toThrow(RangeError)
    expect(() => rig({ overdueMs: Number.NaN })).toThrow(RangeError)
  })
})

describe('Fanout leading edge, per window', () => {
  it('a change for a window idle for one interval goes out at once, while a window that just got a batch waits', () => {
    const r = rig()
    const busy = collector()
    const idle = collector()
    r.fanout.addClient('busy', busy.sink)
    r.fanout.addClient('idle', idle.sink)
    r.fanout.setClientMarkets('busy', ['a'])
    r.fanout.setClientMarkets('idle', ['b'])
    r.clock.advance(100)
    busy.batches.length = 0
    idle.batches.length = 0
    // 'busy' gets a batch at t1, at once: nobody has had one for an interval.
    snap(r, 'a', 0.1, 0.9, 2)
    r.clock.drain()
    const t1 = r.clock.now
    expect(busy.batches.map((b) => b.at)).toEqual([t1])
    r.clock.advance(3)
    // One frame touching both windows: nothing is sent from inside its updates...
    snap(r, 'a', 0.2, 0.9, 3)
    snap(r, 'b', 0.3, 0.4, 1)
    const t = r.tapes.push({ kind: 'trade', market: 'b', price: 0.35, size: 1, side: 'buy', ts: 1 }, 1)
    if (t) r.fanout.trade(t)
    expect(idle.batches).toHaveLength(0)
    // ...and once the read is done, the idle window has the whole frame at once, long before an interval.
    r.clock.drain()
    expect(idle.batches).toHaveLength(1)
    expect(idle.batches[0]?.at).toBe(t1 + 3)
    expect(idle.batches[0]?.books?.map((b) => b.market)).toEqual(['b'])
    expect(idle.batches[0]?.trades?.map((x) => x.price)).toEqual([0.35])
    // The window that got a batch 3 ms ago is coalesced until its interval is over.
    expect(busy.batches).toHaveLength(1)
    snap(r, 'a', 0.25, 0.9, 4)
    r.clock.advance(12)
    expect(busy.batches).toHaveLength(1)
    r.clock.advance(1)
    expect(busy.batches).toHaveLength(2)
    expect(busy.batches[1]?.at).toBe(t1 + 16)
    expect(busy.batches[1]?.books?.[0]?.bids).toEqual([[0.25, 1]])
  })

  it('another window getting batches all the time does not delay an idle one', () => {
    const r = rig()
    const firehose = collector()
    const quiet = collector()
    r.fanout.addClient('f', firehose.sink)
    r.fanout.addClient('q', quiet.sink)
    r.fanout.setClientMarkets('f', ['a'])
    r.fanout.setClientMarkets('q', ['b'])
    r.clock.advance(100)
    quiet.batches.length = 0
    const delays: number[] = []
    let seq = 1
    for (let ms = 0; ms < 300; ms++) {
      snap(r, 'a', 0.1, 0.9, ++seq)
      if (ms % 37 === 5) {
        snap(r, 'b', 0.2 + ms / 10_000, 0.9, ms)
        const changedAt = r.clock.now
        r.clock.drain()
        delays.push((quiet.batches.at(-1)?.at ?? Infinity) - changedAt)
      }
      r.clock.advance(1)
    }
    expect(delays.length).toBeGreaterThanOrEqual(8)
    expect(delays.every((d) => d === 0)).toBe(true)
    // The busy window still gets at most one batch per interval.
    const times = firehose.batches.map((b) => b.at)
    for (let i = 1; i < times.length; i++)
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(16)
  })

  it('after an interval without a batch the next change goes out at once; within one it is coalesced', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w1', c.sink)
    r.fanout.setClientMarkets('w1', ['a'])
    r.clock.advance(50)
    c.batches.length = 0
    const t0 = r.clock.now
    snap(r, 'a', 0.1, 0.9, 1)
    r.clock.drain()
    snap(r, 'a', 0.11, 0.9, 2)
    r.clock.drain()
    expect(c.batches.map((b) => b.at - t0)).toEqual([0])
    r.clock.advance(16)
    expect(c.batches.map((b) => b.at - t0)).toEqual([0, 16])
    // Idle again from t0 + 32: a change at t0 + 40 is not held back.
    r.clock.advance(24)
    snap(r, 'a', 0.12, 0.9, 3)
    r.clock.drain()
    expect(c.batches.map((b) => b.at - t0)).toEqual([0, 16, 40])
    expect(r.clock.pending).toBe(1)
    r.clock.advance(16)
    expect(r.clock.pending).toBe(0)
    expect(c.batches).toHaveLength(3)
  })
})

describe('Fanout for hidden windows', () => {
  function trade(r: Rig, market: string, price: number): void {
    const v = r.tapes.push({ kind: 'trade', market, price, size: 1, side: 'buy', ts: null }, r.clock.now)
    if (v) {
      r.books.setLast(market, price, r.clock.now)
      r.fanout.trade(v)
    }
  }

  it('a hidden window gets no book, ticker or trade views until shown; then a fresh full view', () => {
    const r = rig()
    const hidden = collector()
    const shown = collector()
    r.fanout.addClient('h', hidden.sink)
    r.fanout.addClient('s', shown.sink)
    for (const id of ['h', 's']) {
      r.fanout.setClientMarkets(id, ['a', 'b'])
      r.fanout.setUser(id, true)
      r.fanout.setInspector(id, true)
    }
    snap(r, 'a', 0.1, 0.9, 1)
    snap(r, 'b', 0.2, 0.8, 1)
    r.clock.advance(20)
    expect(hidden.batches[0]?.books).toHaveLength(2)
    // Queued but not yet sent when the window is hidden: dropped too.
    snap(r, 'a', 0.11, 0.9, 2)
    trade(r, 'a', 0.5)
    expect(r.fanout.setVisible('h', false)).toBe(true)
    const mark = hidden.batches.length
    const viewsBefore = r.fanout.counters.bookViews
    for (let i = 0; i < 200; i++) {
      snap(r, 'a', 0.1 + (i % 50) / 1000, 0.9, 3 + i)
      if (i % 10 === 0) trade(r, 'b', 0.4 + i / 10_000)
      r.fanout.inspector(frame(i))
      r.clock.advance(1)
    }
    r.fanout.statusChanged()
    r.fanout.eventsChanged()
    r.fanout.user(r.feed.push({ kind: 'user', topic: 'fill', market: 'a', data: 1 }, 1))
    r.clock.advance(20)
    const whileHidden = hidden.batches.slice(mark)
    expect(whileHidden.length).toBeGreaterThan(0)
    for (const b of whileHidden) {
      expect(b.books).toBeUndefined()
      expect(b.tickers).toBeUndefined()
      expect(b.trades).toBeUndefined()
      expect(b.inspector).toBeUndefined()
    }
    expect(whileHidden.some((b) => b.status !== undefined)).toBe(true)
    expect(whileHidden.some((b) => b.eventsChanged === true)).toBe(true)
    expect(whileHidden.flatMap((b) => b.user ?? []).map((u) => u.data)).toEqual([1])
    // Only the visible window cost views.
    const shownBooks = shown.batches.flatMap((b) => b.books ?? []).length
    expect(r.fanout.counters.bookViews - viewsBefore).toBeLessThanOrEqual(shownBooks)
    expect(shown.batches.flatMap((b) => b.trades ?? []).length).toBeGreaterThan(0)

    snap(r, 'a', 0.3, 0.9, 500)
    trade(r, 'b', 0.45)
    const before = hidden.batches.length
    expect(r.fanout.setVisible('h', true)).toBe(true)
    r.clock.drain()
    expect(hidden.batches).toHaveLength(before + 1)
    const resume = hidden.batches.at(-1)
    expect(resume?.resume).toBe(true)
    // Every watched market, at the engine's current state: never one from before the window was hidden.
    expect(resume?.books?.map((b) => b.market).sort()).toEqual(['a', 'b'])
    for (const view of resume?.books ?? []) {
      const current = r.books.bookView(view.market, 25)
      expect(view.seq).toBe(current?.seq)
      expect(view).toEqual(current)
    }
    expect(resume?.books?.find((b) => b.market === 'a')?.seq).toBe(500)
    expect(resume?.tickers?.map((t) => t.market).sort()).toEqual(['a', 'b'])
    expect(resume?.tickers?.find((t) => t.market === 'b')?.last).toBe(0.45)
    // Trades made while hidden come as the markets' tapes, not as trades; new ones flow again.
    expect(resume?.trades).toBeUndefined()
    expect(resume?.tapes?.map((t) => t.market).sort()).toEqual(['a', 'b'])
    expect(resume?.tapes?.find((t) => t.market === 'b')?.trades).toEqual(r.tapes.history('b'))
    expect(resume?.tapes?.find((t) => t.market === 'b')?.trades.at(-1)?.price).toBe(0.45)
    // With the candle history through the same trade, so the chart has no hole before the tape.
    expect(resume?.tapes?.find((t) => t.market === 'b')?.candles).toEqual(r.tapes.candles('b'))
    expect(resume?.tapes?.find((t) => t.market === 'b')?.candles?.through).toBe(r.tapes.last('b')?.key)
    r.clock.advance(20)
    trade(r, 'a', 0.55)
    r.fanout.inspector(frame(999))
    r.clock.advance(20)
    const after = hidden.batches.slice(before + 1)
    expect(after.flatMap((b) => b.trades ?? []).map((t) => t.price)).toEqual([0.55])
    expect(after.flatMap((b) => b.inspector ?? []).map((f) => f.seq)).toEqual([999])
    expect(after.some((b) => b.resume)).toBe(false)
  })

  it("the resume batch carries each watched market's tape up to a window's, trades since showing only there", () => {
    const r = rig({ tapeTrades: 5 })
    const c = collector()
    r.fanout.addClient('h', c.sink)
    r.fanout.setClientMarkets('h', ['a', 'b', 'quiet'])
    snap(r, 'a', 0.1, 0.9)
    trade(r, 'a', 0.5)
    r.clock.advance(20)
    r.fanout.setVisible('h', false)
    for (const price of [0.51, 0.52, 0.53, 0.54, 0.55, 0.56, 0.57, 0.58]) trade(r, 'a', price)
    trade(r, 'b', 0.3)
    r.clock.advance(20)
    r.fanout.setVisible('h', true)
    // Made after showing, before the resume batch goes out: in the tape, so not in `trades` as well.
    trade(r, 'a', 0.7)
    r.clock.drain()
    const resume = c.batches.at(-1)
    expect(resume?.resume).toBe(true)
    expect(resume?.tapes?.map((t) => t.market)).toEqual(['a', 'b'])
    const a = resume?.tapes?.find((t) => t.market === 'a')?.trades ?? []
    expect(a).toEqual(r.tapes.history('a', 5))
    expect(a.map((t) => t.price)).toEqual([0.55, 0.56, 0.57, 0.58, 0.7])
    expect(resume?.tapes?.find((t) => t.market === 'b')?.trades.map((t) => t.price)).toEqual([0.3])
    expect(resume?.trades).toBeUndefined()
    // Only the resume batch has tapes; later trades come as trades.
    r.clock.advance(20)
    trade(r, 'a', 0.8)
    r.clock.advance(20)
    const later = c.batches.at(-1)
    expect(later?.tapes).toBeUndefined()
    expect(later?.trades?.map((t) => t.price)).toEqual([0.8])
  })

  it('a market watched only by hidden windows costs nothing: no views, nothing scheduled', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('h', c.sink)
    r.fanout.setClientMarkets('h', ['x'])
    r.clock.advance(50)
    r.fanout.setVisible('h', false)
    r.clock.advance(50)
    const before = { ...r.fanout.counters }
    for (let i = 0; i < 100; i++) {
      snap(r, 'x', 0.1, 0.9, i + 2)
      trade(r, 'x', 0.5)
    }
    expect(r.clock.deferred).toBe(0)
    expect(r.clock.pending).toBe(0)
    r.clock.advance(50)
    expect(r.fanout.counters).toEqual(before)
  })

  it('markets and depth changed while hidden take effect when shown', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('h', c.sink)
    r.fanout.setClientMarkets('h', ['a'])
    const bids = Array.from({ length: 40 }, (_, i) => [0.4 - i / 1000, 1] as [number, number])
    r.books.apply({ kind: 'book', market: 'b', snapshot: true, bids, asks: [[0.5, 1]], seq: 1 }, 1)
    snap(r, 'a', 0.1, 0.9)
    r.clock.advance(50)
    r.fanout.setVisible('h', false)
    const mark = c.batches.length
    r.fanout.setClientMarkets('h', ['b'])
    r.fanout.setDepth('h', 5)
    snap(r, 'a', 0.2, 0.9, 2)
    r.clock.advance(50)
    expect(c.batches).toHaveLength(mark)
    r.fanout.setVisible('h', true)
    r.clock.advance(0)
    const resume = c.batches.at(-1)
    expect(resume?.resume).toBe(true)
    expect(resume?.books?.map((b) => b.market)).toEqual(['b'])
    expect(resume?.books?.[0]?.bids).toHaveLength(5)
    // 'a' is no longer watched: its changes do not reach the window.
    snap(r, 'a', 0.3, 0.9, 3)
    r.clock.advance(50)
    expect(c.batches.at(-1)).toBe(resume)
  })

  it('setVisible is idempotent, unknown ids are refused, and a removed hidden window leaves no index behind', () => {
    const r = rig()
    const c = collector()
    r.fanout.addClient('w', c.sink)
    r.fanout.setClientMarkets('w', ['a'])
    r.clock.advance(20)
    expect(r.fanout.setVisible('nobody', false)).toBe(false)
    expect(r.fanout.setVisible('w', true)).toBe(true)
    r.clock.advance(20)
    // Already visible: no resume batch.
    expect(c.batches.some((b) => b.resume)).toBe(false)
    r.fanout.setVisible('w', false)
    r.fanout.setVisible('w', false)
    r.fanout.removeClient('w')
    snap(r, 'a', 0.1, 0.2)
    expect(r.clock.deferred).toBe(0)
    r.clock.advance(20)
    expect(r.clock.pending).toBe(0)
  })
})

describe('Fanout under random operations', () => {
  /** A tiny deterministic PRNG (mulberry32). */
  function prng(seed: number): () => number {
    let a = seed
    return () => {
      a = (a + 0x6d2b79f5) | 0
      let t = Math.imul(a ^ (a >>> 15), 1 | a)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
  }

  it('keeps its idle counts exact, never sends twice within an interval, and delivers the newest state', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rand = prng(seed)
      const r = rig()
      const markets = ['a', 'b', 'c', 'd', 'e']
      const ids = ['w1', 'w2', 'w3', 'w4']
      const seen = new Map<string, ViewBatch[]>()
      const visible = new Map<string, boolean>()
      const watching = new Map<string, string[]>()
      const seqs = new Map<string, number>()
      for (const id of ids) {
        const list: ViewBatch[] = []
        seen.set(id, list)
        visible.set(id, true)
        watching.set(id, [])
        r.fanout.addClient(id, (b) => list.push(b))
      }
      const internals = (
        r.fanout as unknown as {
          index: { byMarket: Map<string, { clients: Set<{ idle: boolean }>; idle: number }> }
        }
      ).index
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T
      for (let step = 0; step < 3000; step++) {
        const op = rand()
        const id = pick(ids)
        if (op < 0.5) {
          const m = pick(markets)
          const seq = (seqs.get(m) ?? 0) + 1
          seqs.set(m, seq)
          snap(r, m, 0.1 + (seq % 100) / 1000, 0.9, seq)
        } else if (op < 0.6) {
          const set = markets.filter(() => rand() < 0.4)
          watching.set(id, set)
          r.fanout.setClientMarkets(id, set)
        } else if (op < 0.65) {
          const v = rand() < 0.5
          visible.set(id, v)
          r.fanout.setVisible(id, v)
        } else if (op < 0.7) {
          r.fanout.statusChanged()
        } else if (op < 0.75) {
          r.clock.drain()
        } else {
          r.clock.advance(Math.floor(rand() * 8))
        }
        for (const [, w] of internals.byMarket) {
          expect(w.idle).toBe([...w.clients].filter((c) => c.idle).length)
        }
      }
      r.clock.advance(100)
      for (const id of ids) {
        const times = (seen.get(id) ?? []).map((b) => b.at)
        for (let i = 1; i < times.length; i++)
          expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(16)
        if (!visible.get(id)) continue
        // Every visible window's last view of each market it watches is the newest.
        for (const m of watching.get(id) ?? []) {
          if (!seqs.has(m)) continue
          let last: number | null | undefined
          for (const b of seen.get(id) ?? []) {
            const v = b.books?.find((x) => x.market === m)
            if (v) last = v.seq
          }
          expect(last, `${id} ${m} seed ${seed}`).toBe(seqs.get(m))
        }
      }
      expect(r.clock.pending).toBe(0)
      expect(r.clock.deferred).toBe(0)
    }
  })
})

describe('Fanout heartbeats (the engine link, docs/liveness.md)', () => {
  it('an idle client, hidden or not, gets a heartbeat at least every 1.5 × heartbeatMs, none while batches flow, none after close', () => {
    const r = rig({ heartbeatMs: 500 })
    const shown = collector()
    const hidden = collector()
    r.fanout.addClient('shown', shown.sink)
    r.fanout.addClient('hidden', hidden.sink)
    r.fanout.setVisible('hidden', false)
    r.fanout.setClientMarkets('shown', ['a'])
    r.clock.advance(20)
    expect(shown.batches.filter(isHeartbeat)).toHaveLength(0)

    // Idle: both get heartbeats, no gap longer than 750 ms, with increasing seq.
    r.clock.advance(5000)
    for (const c of [shown, hidden]) {
      const beats = c.batches.filter(isHeartbeat)
      expect(beats.length).toBeGreaterThanOrEqual(6)
      const times = c.batches.map((b) => b.at)
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(750)
      const seqs = c.batches.map((b) => b.seq)
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y))
      expect(new Set(seqs).size).toBe(seqs.length)
    }

    // A market updating every 100 ms: the shown client gets its books and no heartbeat meanwhile.
    const before = shown.batches.length
    for (let i = 0; i < 30; i++) {
      snap(r, 'a', 0.4, 0.6, i + 2)
      r.clock.advance(100)
    }
    const during = shown.batches.slice(before)
    expect(during.filter((b) => b.books !== undefined).length).toBeGreaterThanOrEqual(25)
    expect(during.filter(isHeartbeat)).toHaveLength(0)

    // Removed and closed: nothing more.
    r.fanout.removeClient('hidden')
    const hiddenCount = hidden.batches.length
    r.clock.advance(2000)
    expect(hidden.batches).toHaveLength(hiddenCount)
    r.fanout.close()
    const shownCount = shown.batches.length
    r.clock.advance(5000)
    expect(shown.batches).toHaveLength(shownCount)
    expect(r.clock.pending).toBe(0)
  })

  it('sends none without heartbeatMs, and refuses a negative one', () => {
    expect(() => rig({ heartbeatMs: -1 })).toThrow(RangeError)
    const { fanout, clock } = rig({ heartbeatMs: 0 })
    const { batches, sink } = collector()
    fanout.addClient('w1', sink)
    clock.advance(5000)
    expect(batches.map((b) => b.seq)).toEqual([1])
  })
})
