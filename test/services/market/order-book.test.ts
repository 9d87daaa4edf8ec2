// OrderBook beyond books.test.ts: the venue's previous-sequence id, quiet books, the NO contract's book beside the YES book, a REST snapshot until the stream's own, and what the view adds (resync attempt, usual gap, clamped depth).
import { describe, expect, it } from 'vitest'
import type { Level } from '../../../src/shared/model'
import { OrderBook, roundKey } from '../../../src/main/services/market/order-book'

/** A live book at seq 10: bids 0.4, asks 0.5. */
function live(): OrderBook {
  const book = new OrderBook('m')
  book.applySnapshot([[0.4, 10]], [[0.5, 10]], 10, 1)
  return book
}

describe('OrderBook', () => {
  it("with the venue's previous id, seqs may skip; a previous id past the book's seq is a gap", () => {
    const book = live()
    // Binance-style U-1: the delta starts at or before what the book has, so it overlaps and applies.
    expect(book.applyDelta([[0.4, 4]], [], { seq: 15, prevSeq: 10 }, 2)).toBe('applied')
    expect(book.applyDelta([[0.4, 5]], [], { seq: 20, prevSeq: 12 }, 3)).toBe('applied')
    expect(book.seq).toBe(20)
    expect(book.applyDelta([[0.4, 6]], [], { seq: 30, prevSeq: 25 }, 4)).toBe('gap')
    expect(book).toMatchObject({ state: 'stale', staleReason: 'gap', seq: 20 })
    expect(book.view(5).bids).toEqual([[0.4, 5]])
  })

  it('a quiet book still takes deltas, which make it live again; only a live book can go quiet', () => {
    const book = live()
    expect(book.clearQuiet()).toBe(false)
    expect(book.markQuiet()).toBe(true)
    expect(book.markQuiet()).toBe(false)
    expect(book.view(5).state).toBe('quiet')
    expect(book.applyDelta([[0.41, 1]], [], { seq: 11 }, 2)).toBe('applied')
    expect(book.state).toBe('live')
    book.markQuiet()
    expect(book.clearQuiet()).toBe(true)
    expect(book.state).toBe('live')
    book.markStale('gap')
    expect(book.markQuiet()).toBe(false)
    expect(book.state).toBe('stale')
  })

  it("the NO book: a snapshot replaces it, a delta sets levels, and neither touches the YES book's state", () => {
    const book = new OrderBook('m')
    expect(book.view(5).no).toBeUndefined()
    expect(
      book.applyNo(
        [
          [0.55, 3],
          [0.6, 1],
        ],
        [[0.7, 2]],
        true,
      ),
    ).toBe(true)
    expect(book.state).toBe('empty')
    book.applySnapshot([[0.4, 1]], [[0.45, 1]], 1, 1)
    // NO prices may sit anywhere against the YES book's: they do not cross it.
    expect(book.applyNo([[0.55, 0]], [[0.65, 4]], false)).toBe(true)
    expect(book.state).toBe('live')
    expect(book.view(5).no).toEqual({
      bids: [[0.6, 1]],
      asks: [
        [0.65, 4],
        [0.7, 2],
      ],
      depth: { bids: 1, asks: 2 },
    })
    expect(book.applyNo([[0.3, 1]], [], true)).toBe(true)
    expect(book.view(5).no?.asks).toEqual([])
    book.clear()
    expect(book.view(5).no).toBeUndefined()
  })

  it("a REST snapshot is marked so until the stream's own snapshot replaces it, even with the same levels", () => {
    const book = new OrderBook('m')
    expect(book.applySnapshot([[0.4, 1]], [[0.5, 1]], undefined, 1, 'rest')).toBe('snapshot')
    expect(book.view(5).source).toBe('rest')
    expect(book.applySnapshot([[0.4, 1]], [[0.5, 1]], undefined, 2, 'rest')).toBe('unchanged')
    expect(book.applySnapshot([[0.4, 1]], [[0.5, 1]], undefined, 3)).toBe('snapshot')
    expect(book.view(5)).not.toHaveProperty('source')
    expect(book.updatedAt).toBe(3)
  })

  it('a bid equal to the ask (a locked book) counts as crossed', () => {
    const book = new OrderBook('m')
    expect(book.applySnapshot([[0.5, 1]], [[0.5, 1]], 1, 1)).toBe('crossed')
    expect(book.staleReason).toBe('crossed')
  })

  it('the view adds the resync attempt while resyncing, the usual gap rounded, and clamps a bad depth to none', () => {
    const book = live()
    book.markStale('silent')
    book.markResyncing(3)
    expect(book.view(5, 1234.6)).toMatchObject({
      state: 'resyncing',
      staleReason: 'silent',
      resyncAttempt: 3,
      usualGapMs: 1235,
    })
    book.applySnapshot([[0.4, 1]], [[0.5, 1]], Number.NaN, 2)
    expect(book.view(5)).not.toHaveProperty('resyncAttempt')
    expect(book.seq).toBeNull()
    expect(book.view(-1).bids).toEqual([])
    expect(book.view(Number.NaN).asks).toEqual([])
    expect(book.view(1.9).bids).toEqual([[0.4, 1]])
  })

  it('the shared view follows the learnt gap even when the book itself has not changed', () => {
    const book = live()
    expect(book.view(5, 1234.6).usualGapMs).toBe(1235)
    // The market went quiet and its rhythm was learnt afresh: same book, new gap.
    expect(book.view(5, 4000).usualGapMs).toBe(4000)
    expect(book.view(5)).not.toHaveProperty('usualGapMs')
    // Unchanged gap and book: the one shared view is reused.
    expect(book.view(5, 4000)).toBe(book.view(5, 4000))
  })
})

describe('OrderBook: whole books one after another', () => {
  /** What a side must hold after a whole book: usable levels, the last size of a repeated price, best first. */
  function model(levels: Level[], descending: boolean): Level[] {
    const byPrice = new Map<number, number>()
    for (const [price, size] of levels) {
      if (!Number.isFinite(price) || !Number.isFinite(size) || size < 0) continue
      byPrice.set(roundKey(price), size)
    }
    return [...byPrice]
      .filter(([, size]) => size > 0)
      .sort((a, b) => (descending ? b[0] - a[0] : a[0] - b[0]))
  }

  it('each whole book leaves exactly its levels, in order or not, whatever came before; an equal one changes nothing', () => {
    let seed = 7
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    const side = (from: number, step: number): Level[] => {
      const n = Math.floor(random() * 12)
      const out: Level[] = []
      // Ticks of 0.01, as VoxFi's: 0.1 + 0.2 style floats on purpose.
      for (let i = 0; i < n; i++) out.push([(from + step * i) / 100, 1 + Math.floor(random() * 4)])
      const odd = random()
      if (odd < 0.1) out.reverse()
      else if (odd < 0.15) out.push([NaN, 1])
      else if (odd < 0.2 && out.length > 0) out.push([out[0]?.[0] as number, 9])
      else if (odd < 0.25 && out.length > 1) (out[1] as Level)[1] = 0
      return out
    }
    const book = new OrderBook('m')
    let previous: { bids: Level[]; asks: Level[] } | null = null
    for (let round = 0; round < 2_000; round++) {
      const again = previous !== null && random() < 0.3
      const bids: Level[] = again && previous ? previous.bids : side(49 - Math.floor(random() * 3), -1)
      const asks: Level[] = again && previous ? previous.asks : side(51 + Math.floor(random() * 3), 1)
      const outcome = book.applySnapshot(bids, asks, undefined, round)
      const view = book.view(1_000)
      expect(view.bids, `round ${round}`).toEqual(model(bids, true))
      expect(view.asks, `round ${round}`).toEqual(model(asks, false))
      if (again) expect(outcome, `round ${round}`).toBe('unchanged')
      previous = { bids, asks }
    }
  })

  it('a whole book equal to the one held keeps the very same level arrays in the view', () => {
    const book = new OrderBook('m')
    const bids = (): Level[] => [
      [0.4, 1],
      [0.39, 2],
    ]
    book.applySnapshot(bids(), [[0.41, 3]], undefined, 1)
    const first = book.view(10)
    expect(book.applySnapshot(bids(), [[0.41, 3]], undefined, 2)).toBe('unchanged')
    book.applySnapshot(bids(), [[0.41, 4]], undefined, 3)
    const second = book.view(10)
    expect(second.bids).toBe(first.bids)
    expect(second.asks).not.toBe(first.asks)
    expect(second.asks).toEqual([[0.41, 4]])
  })
})
