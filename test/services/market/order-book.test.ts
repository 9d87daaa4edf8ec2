// OrderBook beyond books.test.ts: the venue's previous-sequence id, quiet books, the NO contract's book beside the YES book, a REST snapshot until the stream's own, and what the view adds (resync attempt, usual gap, clamped depth).
import { describe, expect, it } from 'vitest'
import { OrderBook } from '../../../src/main/services/market/order-book'

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
