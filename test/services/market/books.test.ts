import { describe, expect, it } from 'vitest'
import { BookStore, OrderBook, roundKey, type BookUpdate } from '../../../src/main/services/market/books'
import type { Level } from '../../../src/shared/model'

function snapshot(market: string, bids: Level[], asks: Level[], seq?: number): BookUpdate {
  return { kind: 'book', market, snapshot: true, bids, asks, ...(seq === undefined ? {} : { seq }) }
}

function delta(market: string, bids: Level[], asks: Level[], seq?: number, relative = false): BookUpdate {
  return {
    kind: 'book',
    market,
    snapshot: false,
    bids,
    asks,
    ...(seq === undefined ? {} : { seq }),
    ...(relative ? { relative: true as const } : {}),
  }
}

describe('OrderBook', () => {
  it('starts empty and ignores deltas until a snapshot arrives', () => {
    const book = new OrderBook('m')
    expect(book.state).toBe('empty')
    expect(book.applyDelta([[0.4, 10]], [], { seq: 1 }, 1)).toBe('ignored')
    expect(book.view(10)).toMatchObject({ state: 'empty', bids: [], asks: [], seq: null, updatedAt: null })
  })

  it('a snapshot replaces the book wholesale: no ghost levels survive', () => {
    const book = new OrderBook('m')
    book.applySnapshot(
      [
        [0.4, 10],
        [0.39, 5],
      ],
      [
        [0.45, 7],
        [0.5, 1],
      ],
      1,
      100,
    )
    book.applySnapshot([[0.3, 2]], [[0.6, 3]], 50, 200)
    const v = book.view(10)
    expect(v.bids).toEqual([[0.3, 2]])
    expect(v.asks).toEqual([[0.6, 3]])
    expect(v).toMatchObject({ state: 'live', seq: 50, updatedAt: 200, depth: { bids: 1, asks: 1 } })
  })

  it('orders levels best first regardless of input order and keeps the last of a repeated price', () => {
    const book = new OrderBook('m')
    book.applySnapshot(
      [
        [0.1, 1],
        [0.3, 3],
        [0.2, 2],
        [0.3, 9],
      ],
      [
        [0.9, 1],
        [0.5, 5],
        [0.7, 7],
        [0.6, 0],
      ],
      undefined,
      1,
    )
    const v = book.view(10)
    expect(v.bids).toEqual([
      [0.3, 9],
      [0.2, 2],
      [0.1, 1],
    ])
    expect(v.asks).toEqual([
      [0.5, 5],
      [0.7, 7],
      [0.9, 1],
    ])
  })

  it('applies absolute deltas: update, insert, and remove at size 0', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 10]], [[0.5, 10]], 1, 1)
    expect(book.applyDelta([[0.4, 4]], [[0.55, 2]], { seq: 2 }, 2)).toBe('applied')
    expect(book.applyDelta([[0.41, 1]], [[0.5, 0]], { seq: 3 }, 3)).toBe('applied')
    const v = book.view(10)
    expect(v.bids).toEqual([
      [0.41, 1],
      [0.4, 4],
    ])
    expect(v.asks).toEqual([[0.55, 2]])
    expect(v.seq).toBe(3)
    expect(v.updatedAt).toBe(3)
  })

  it('removing a level that does not exist is harmless', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 10]], [[0.5, 10]], 1, 1)
    expect(book.applyDelta([[0.33, 0]], [], { seq: 2 }, 2)).toBe('applied')
    expect(book.view(10).bids).toEqual([[0.4, 10]])
  })

  it('applies relative deltas as signed changes and removes a level at or below zero', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 10]], [[0.5, 3]], undefined, 1)
    expect(book.applyDelta([[0.4, -4]], [[0.5, 0.1]], { relative: true }, 2)).toBe('applied')
    expect(book.view(5).bids).toEqual([[0.4, 6]])
    expect(book.view(5).asks).toEqual([[0.5, 3.1]])
    book.applyDelta([[0.4, -6]], [[0.5, -5]], { relative: true }, 3)
    expect(book.view(5).bids).toEqual([])
    expect(book.view(5).asks).toEqual([])
    // A positive change to a missing level creates it; a negative one to a missing level does nothing.
    book.applyDelta(
      [
        [0.3, 2],
        [0.2, -2],
      ],
      [],
      { relative: true },
      4,
    )
    expect(book.view(5).bids).toEqual([[0.3, 2]])
  })

  it('relative float drift does not leave a dust level behind', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 0.1]], [], undefined, 1)
    book.applyDelta([[0.4, 0.2]], [], { relative: true }, 2)
    book.applyDelta([[0.4, -0.3]], [], { relative: true }, 3)
    expect(book.view(5).bids).toEqual([])
  })

  it('prices that differ only by float noise land on the same level', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.3, 1]], [[0.9, 1]], undefined, 1)
    book.applyDelta([[0.1 + 0.2, 5]], [], {}, 2)
    expect(book.view(5).bids).toEqual([[0.3, 5]])
    expect(roundKey(0.1 + 0.2)).toBe(0.3)
  })

  it('a sequence gap marks the book stale with reason gap and does not apply the delta', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 10]], [[0.5, 10]], 10, 1)
    expect(book.applyDelta([[0.4, 1]], [], { seq: 12 }, 2)).toBe('gap')
    expect(book.state).toBe('stale')
    expect(book.staleReason).toBe('gap')
    const v = book.view(5)
    expect(v).toMatchObject({ state: 'stale', staleReason: 'gap', seq: 10 })
    expect(v.bids).toEqual([[0.4, 10]])
  })

  it('a duplicate or old seq is ignored and changes nothing', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 10]], [[0.5, 10]], 10, 1)
    expect(book.applyDelta([[0.4, 1]], [], { seq: 11 }, 2)).toBe('applied')
    expect(book.applyDelta([[0.4, 99]], [], { seq: 11 }, 3)).toBe('ignored')
    expect(book.applyDelta([[0.4, 98]], [], { seq: 5 }, 4)).toBe('ignored')
    expect(book.view(5)).toMatchObject({ state: 'live', seq: 11, updatedAt: 2, bids: [[0.4, 1]] })
  })

  it('a delta that crosses the book marks it stale with reason crossed', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 10]], [[0.5, 10]], 1, 1)
    expect(book.applyDelta([[0.5, 1]], [], { seq: 2 }, 2)).toBe('crossed')
    expect(book.view(5)).toMatchObject({ state: 'stale', staleReason: 'crossed' })
  })

  it('a crossed snapshot is not shown as live', () => {
    const book = new OrderBook('m')
    expect(book.applySnapshot([[0.6, 1]], [[0.5, 1]], 1, 1)).toBe('crossed')
    expect(book.state).toBe('stale')
    expect(book.staleReason).toBe('crossed')
  })

  it('deltas to a stale or resyncing book are ignored until the next snapshot makes it live', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 10]], [[0.5, 10]], 1, 1)
    book.markStale('reconnect')
    expect(book.applyDelta([[0.45, 1]], [], { seq: 2 }, 2)).toBe('ignored')
    book.markResyncing()
    expect(book.state).toBe('resyncing')
    expect(book.staleReason).toBe('reconnect')
    expect(book.applyDelta([[0.45, 1]], [], { seq: 2 }, 2)).toBe('ignored')
    expect(book.view(5).bids).toEqual([[0.4, 10]])
    expect(book.applySnapshot([[0.2, 1]], [[0.8, 1]], 77, 3)).toBe('snapshot')
    expect(book.view(5)).toMatchObject({ state: 'live', staleReason: null, seq: 77, bids: [[0.2, 1]] })
    expect(book.applyDelta([[0.25, 1]], [], { seq: 78 }, 4)).toBe('applied')
  })

  it('adopts a seq from the first delta when the snapshot had none', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 1]], [[0.5, 1]], undefined, 1)
    expect(book.applyDelta([[0.4, 2]], [], { seq: 40 }, 2)).toBe('applied')
    expect(book.seq).toBe(40)
    expect(book.applyDelta([[0.4, 3]], [], { seq: 42 }, 3)).toBe('gap')
  })

  it('skips unusable levels and counts them', () => {
    const book = new OrderBook('m')
    book.applySnapshot(
      [
        [Number.NaN, 1],
        [0.4, 1],
      ],
      [[0.5, Number.POSITIVE_INFINITY]],
      undefined,
      1,
    )
    book.applyDelta([[0.3, -1]], [], {}, 2)
    expect(book.view(5).bids).toEqual([[0.4, 1]])
    expect(book.view(5).asks).toEqual([])
    expect(book.rejectedLevels).toBe(3)
  })

  it('view truncates to depth, reports full depth counts and never shares arrays with later states', () => {
    const book = new OrderBook('m')
    const bids: Level[] = []
    const asks: Level[] = []
    for (let i = 1; i <= 30; i++) {
      bids.push([roundKey(0.5 - i / 100), i])
      asks.push([roundKey(0.5 + i / 100), i])
    }
    book.applySnapshot(bids, asks, 1, 1)
    const v = book.view(3)
    expect(v.bids).toEqual([
      [0.49, 1],
      [0.48, 2],
      [0.47, 3],
    ])
    expect(v.asks).toEqual([
      [0.51, 1],
      [0.52, 2],
      [0.53, 3],
    ])
    expect(v.depth).toEqual({ bids: 30, asks: 30 })
    expect(book.view(3)).toBe(v)
    book.applyDelta([[0.49, 0]], [], { seq: 2 }, 2)
    expect(v.bids[0]).toEqual([0.49, 1])
    expect(book.view(3).bids[0]).toEqual([0.48, 2])
    expect(book.view(0).bids).toEqual([])
    expect(book.view(1000).bids).toHaveLength(29)
  })

  it('handles a 1000-level book with churn and stays sorted and consistent with a reference model', () => {
    const book = new OrderBook('m')
    const ref = { bids: new Map<number, number>(), asks: new Map<number, number>() }
    const bids: Level[] = []
    const asks: Level[] = []
    for (let i = 0; i < 1000; i++) {
      const b = roundKey(0.0001 + i * 0.0004)
      const a = roundKey(0.5001 + i * 0.0004)
      bids.push([b, i + 1])
      asks.push([a, i + 1])
      ref.bids.set(b, i + 1)
      ref.asks.set(a, i + 1)
    }
    // Worst-first input order, as some venues send bids.
    book.applySnapshot(bids, asks.slice().reverse(), 0, 0)
    let seed = 12345
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed / 0x7fffffff
    }
    for (let seq = 1; seq <= 5000; seq++) {
      const side = rand() < 0.5 ? 'bids' : 'asks'
      const base = side === 'bids' ? 0.0001 : 0.5001
      const price = roundKey(base + Math.floor(rand() * 1200) * 0.0004)
      const size = rand() < 0.3 ? 0 : Math.floor(rand() * 100) + 1
      const level: Level = [price, size]
      const out = book.applyDelta(
        side === 'bids' ? [level] : [],
        side === 'asks' ? [level] : [],
        { seq },
        seq,
      )
      expect(out).toBe('applied')
      if (size === 0) ref[side].delete(price)
      else ref[side].set(price, size)
    }
    // Views are capped at 1000 levels per side; the depth counts still cover the whole book.
    const v = book.view(5000)
    const expBids = [...ref.bids.entries()].sort((x, y) => y[0] - x[0])
    const expAsks = [...ref.asks.entries()].sort((x, y) => x[0] - y[0])
    expect(ref.bids.size + ref.asks.size).toBeGreaterThan(1600)
    expect(v.bids).toEqual(expBids.slice(0, 1000))
    expect(v.asks).toEqual(expAsks.slice(0, 1000))
    expect(v.depth).toEqual({ bids: ref.bids.size, asks: ref.asks.size })
    expect(book.best()).toEqual({ bid: expBids[0]?.[0] ?? null, ask: expAsks[0]?.[0] ?? null })
  })

  it('clear() returns to empty', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 1]], [[0.5, 1]], 3, 1)
    book.clear()
    expect(book.view(5)).toEqual({
      market: 'm',
      state: 'empty',
      staleReason: null,
      bids: [],
      asks: [],
      depth: { bids: 0, asks: 0 },
      seq: null,
      updatedAt: null,
    })
  })
})

describe('OrderBook top levels', () => {
  /** The top `depth` levels the slow way: every level, sorted best first. */
  function truth(levels: Map<number, number>, descending: boolean, depth: number): Level[] {
    return [...levels]
      .filter(([, size]) => size > 0)
      .sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]))
      .slice(0, depth)
  }

  it('hands out the same level array until that side changes within the depth, and the right levels always', () => {
    const book = new OrderBook('m')
    const bids = new Map<number, number>()
    const asks = new Map<number, number>()
    const start: Level[] = []
    const startAsks: Level[] = []
    for (let i = 0; i < 40; i++) {
      const b = roundKey(0.5 - i / 100)
      const a = roundKey(0.51 + i / 100)
      bids.set(b, 10 + i)
      asks.set(a, 20 + i)
      start.push([b, 10 + i])
      startAsks.push([a, 20 + i])
    }
    book.applySnapshot(start, startAsks, 1, 1)
    let seq = 1
    let view = book.view(15)
    // A seeded walk of deltas: sizes changed, levels added and removed, on one side or both, near and far.
    let x = 7
    const rand = (n: number): number => {
      x = (x * 1103515245 + 12345) % 2147483648
      return x % n
    }
    let reused = 0
    for (let step = 0; step < 400; step++) {
      const side = rand(3)
      const bidLevels: Level[] = []
      const askLevels: Level[] = []
      for (const [levels, into, descending] of [
        [bids, bidLevels, true],
        [asks, askLevels, false],
      ] as const) {
        if ((descending && side === 1) || (!descending && side === 0)) continue
        const sorted = truth(levels, descending, 60)
        const at = sorted[rand(sorted.length)]
        if (at === undefined) continue
        const size = rand(4) === 0 ? 0 : 1 + rand(500)
        const price = rand(5) === 0 ? roundKey(at[0] + (descending ? -0.001 : 0.001)) : at[0]
        levels.set(price, size)
        into.push([price, size])
      }
      expect(book.applyDelta(bidLevels, askLevels, { seq: ++seq }, step)).toMatch(/applied|crossed/)
      if (book.state !== 'live') break
      const next = book.view(15)
      expect(next.bids).toEqual(truth(bids, true, 15))
      expect(next.asks).toEqual(truth(asks, false, 15))
      const bidTopChanged = JSON.stringify(next.bids) !== JSON.stringify(view.bids)
      const askTopChanged = JSON.stringify(next.asks) !== JSON.stringify(view.asks)
      // An unchanged top is the very same array (so its JSON text is reused); a changed one never is.
      expect(next.bids === view.bids).toBe(!bidTopChanged)
      expect(next.asks === view.asks).toBe(!askTopChanged)
      if (!bidTopChanged || !askTopChanged) reused++
      view = next
    }
    expect(reused).toBeGreaterThan(100)
  })

  it('a changed snapshot, clear or another depth gives fresh arrays; the same levels again keep theirs', () => {
    const book = new OrderBook('m')
    book.applySnapshot([[0.4, 1]], [[0.6, 1]], 1, 1)
    const a = book.view(10)
    // A whole-book venue resending the same levels: the arrays (and so their JSON text) are shared.
    book.applySnapshot([[0.4, 1]], [[0.6, 1]], 2, 2)
    const same = book.view(10)
    expect(same.bids).toBe(a.bids)
    expect(same.seq).toBe(2)
    book.applySnapshot([[0.4, 2]], [[0.6, 1]], 3, 3)
    const b = book.view(10)
    expect(b.bids).toEqual([[0.4, 2]])
    expect(b.bids).not.toBe(a.bids)
    expect(b.asks).toBe(a.asks)
    const c = book.view(5)
    expect(c.asks).not.toBe(b.asks)
    book.clear()
    expect(book.view(5).bids).toEqual([])
  })
})

describe('BookStore', () => {
  it('reports the same live whole book again as unchanged, and does not date it anew', () => {
    const book = new OrderBook('m')
    expect(book.applySnapshot([[0.4, 1]], [[0.6, 1]], undefined, 1)).toBe('snapshot')
    expect(book.applySnapshot([[0.4, 1]], [[0.6, 1]], undefined, 2)).toBe('unchanged')
    expect(book.updatedAt).toBe(1)
    expect(book.applySnapshot([[0.4, 1]], [[0.6, 2]], undefined, 3)).toBe('snapshot')
    expect(book.updatedAt).toBe(3)
    // A stale book is healed by the same levels: that is news.
    book.markStale('reconnect')
    expect(book.applySnapshot([[0.4, 1]], [[0.6, 2]], undefined, 4)).toBe('snapshot')
    expect(book.state).toBe('live')
    expect(book.applyNo([[0.3, 1]], [], true)).toBe(true)
    expect(book.applyNo([[0.3, 1]], [], true)).toBe(false)
  })

  it('routes snapshots and deltas per market and reports outcomes', () => {
    const store = new BookStore()
    expect(store.apply(snapshot('a', [[0.4, 1]], [[0.5, 1]], 1), 1)).toBe('snapshot')
    expect(store.apply(snapshot('b', [[0.1, 1]], [[0.2, 1]], 100), 1)).toBe('snapshot')
    expect(store.apply(delta('a', [[0.41, 2]], [], 2), 2)).toBe('applied')
    expect(store.apply(delta('b', [[0.1, 2]], [], 100), 2)).toBe('ignored')
    expect(store.apply(delta('b', [[0.1, 2]], [], 103), 2)).toBe('gap')
    expect(store.apply(delta('a', [], [[0.41, 1]], 3), 3)).toBe('crossed')
    expect(store.apply(delta('c', [[0.1, 1]], [], 1), 3)).toBe('ignored')
    expect(store.get('a')?.state).toBe('stale')
    expect(store.get('b')?.staleReason).toBe('gap')
  })

  it('relative deltas go through the store', () => {
    const store = new BookStore()
    store.apply(snapshot('a', [[0.4, 5]], [[0.5, 5]]), 1)
    store.apply(delta('a', [[0.4, -2]], [], undefined, true), 2)
    expect(store.bookView('a', 5)?.bids).toEqual([[0.4, 3]])
  })

  it('markAllStale then snapshot: every book is stale, and the snapshot brings it back without ghosts', () => {
    const store = new BookStore()
    store.apply(
      snapshot(
        'a',
        [
          [0.4, 1],
          [0.3, 1],
        ],
        [[0.5, 1]],
        5,
      ),
      1,
    )
    store.apply(snapshot('b', [[0.1, 1]], [[0.2, 1]], 9), 1)
    store.markResyncing('never-snapshotted')
    expect(store.markAllStale('reconnect').sort()).toEqual(['a', 'b', 'never-snapshotted'])
    for (const m of ['a', 'b', 'never-snapshotted']) {
      expect(store.bookView(m, 5)).toMatchObject({ state: 'stale', staleReason: 'reconnect' })
    }
    expect(store.apply(delta('a', [[0.35, 1]], [], 6), 2)).toBe('ignored')
    // After a reconnect the venue's seq restarts: the snapshot's seq is taken as is.
    expect(store.apply(snapshot('a', [[0.2, 7]], [[0.6, 7]], 1), 3)).toBe('snapshot')
    expect(store.bookView('a', 5)).toMatchObject({
      state: 'live',
      staleReason: null,
      seq: 1,
      bids: [[0.2, 7]],
      asks: [[0.6, 7]],
    })
    expect(store.apply(delta('a', [[0.21, 1]], [], 2), 4)).toBe('applied')
    expect(store.get('b')?.state).toBe('stale')
  })

  it('ticker: best bid/ask from the book, last from trades, venue ticker only fills the gaps', () => {
    const store = new BookStore()
    expect(store.ticker('a')).toBeNull()
    store.applyTicker({ kind: 'ticker', market: 'a', bid: 0.1, ask: 0.9, last: 0.5 }, 5)
    expect(store.ticker('a')).toEqual({
      market: 'a',
      bestBid: 0.1,
      bestAsk: 0.9,
      last: 0.5,
      updatedAt: 5,
      state: 'live',
    })
    store.apply(snapshot('a', [[0.4, 1]], [], 1), 10)
    store.setLast('a', 0.42, 11)
    expect(store.ticker('a')).toEqual({
      market: 'a',
      bestBid: 0.4,
      bestAsk: 0.9,
      last: 0.42,
      updatedAt: 11,
      state: 'live',
    })
    store.markAllStale('reconnect')
    expect(store.ticker('a')?.state).toBe('stale')
  })

  it('trades-only markets have a ticker that a fresh trade brings back from stale', () => {
    const store = new BookStore()
    store.setLast('t', 0.3, 1)
    expect(store.ticker('t')).toMatchObject({ bestBid: null, bestAsk: null, last: 0.3, state: 'live' })
    expect(store.markAllStale('reconnect')).toEqual(['t'])
    expect(store.ticker('t')?.state).toBe('stale')
    store.setLast('t', 0.31, 2)
    expect(store.ticker('t')).toMatchObject({ last: 0.31, state: 'live', updatedAt: 2 })
  })

  it('delete forgets the book and ticker of a market', () => {
    const store = new BookStore()
    store.apply(snapshot('a', [[0.4, 1]], [[0.5, 1]], 1), 1)
    store.setLast('a', 0.45, 1)
    store.delete('a')
    expect(store.get('a')).toBeUndefined()
    expect(store.ticker('a')).toBeNull()
    expect(store.bookView('a', 5)).toBeNull()
    expect(store.size).toBe(0)
  })
})
