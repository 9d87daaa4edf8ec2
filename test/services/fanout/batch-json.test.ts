// The transports' batch text: exactly JSON.stringify's, with a view shared by several windows serialised once.
import { describe, expect, it } from 'vitest'
import { batchJson } from '../../../src/main/services/fanout/batch-json'
import type { ViewBatch } from '../../../src/shared/ipc'
import type { BookDelta, BookView, TickerView, TradeView } from '../../../src/shared/model'
import { bookDelta } from '../../shared/batch-fixtures'

function book(market: string, seq: number): BookView {
  return {
    market,
    state: 'live',
    staleReason: null,
    bids: [
      [0.41, 120],
      [0.4, 5.5],
    ],
    asks: [[0.43, 7]],
    depth: { bids: 2, asks: 1 },
    seq,
    updatedAt: 1_700_000_000_000,
    usualGapMs: 120,
  }
}

function ticker(market: string): TickerView {
  return {
    market,
    bestBid: 0.41,
    bestAsk: 0.43,
    last: null,
    updatedAt: 5,
    state: 'quiet',
    open: 0.4,
    openAt: 1,
  }
}

const trade: TradeView = {
  key: 't1',
  market: 'm1',
  price: 0.42,
  size: 3,
  side: 'buy',
  ts: 10,
  receivedAt: 11,
  gapBefore: true,
}

describe('batchJson', () => {
  it('gives the same text as JSON.stringify for batches of every shape', () => {
    const shared = book('m1', 7)
    const batches: ViewBatch[] = [
      { seq: 1, at: 2 },
      { seq: 2, at: 3, books: [], tickers: [] },
      {
        seq: 3,
        at: 4,
        books: [shared, book('m2', 1)],
        tickers: [ticker('m1')],
        trades: [trade],
        resume: true,
      },
      // Members JSON leaves out or rewrites: undefined, non-finite numbers, a key in an unusual place.
      {
        tickers: [ticker('m3')],
        seq: 4,
        at: Number.NaN,
        status: undefined,
        eventsChanged: true,
      } as ViewBatch,
      { seq: 5, at: 6, books: [shared, shared], trades: [], user: [], alertsFired: [] },
      { seq: 6, at: 7, books: [{ ...shared, bids: [[Number.POSITIVE_INFINITY, -0]] }] } as ViewBatch,
    ]
    for (const b of batches) expect(batchJson(b)).toBe(JSON.stringify(b))
    for (const b of batches) expect(JSON.parse(batchJson(b))).toEqual(JSON.parse(JSON.stringify(b)))
  })

  /** The view, with a getter on its market that counts how often it is serialised. */
  function counted<T extends { market: string }>(view: T): { view: T; reads: () => number } {
    let reads = 0
    const market = view.market
    Object.defineProperty(view, 'market', {
      enumerable: true,
      get: () => {
        reads++
        return market
      },
    })
    return { view, reads: () => reads }
  }

  it('serialises a view several batches share once', () => {
    const { view, reads } = counted(book('m1', 1))
    const a = batchJson({ seq: 1, at: 1, books: [view] })
    const b = batchJson({ seq: 9, at: 2, books: [view], trades: [trade] })
    expect(reads()).toBe(1)
    // A book delta is one object for every window at the same view: made into text once too.
    const { view: delta, reads: deltaReads } = counted<BookDelta>(bookDelta('m1', 1, 2))
    const d1 = batchJson({ seq: 1, at: 1, bookDeltas: [delta] })
    const d2 = batchJson({ seq: 2, at: 2, bookDeltas: [delta] })
    expect(deltaReads()).toBe(1)
    expect(d1).toBe(JSON.stringify({ seq: 1, at: 1, bookDeltas: [delta] }))
    expect(d2).toBe(JSON.stringify({ seq: 2, at: 2, bookDeltas: [delta] }))
    expect(a).toContain('"market":"m1"')
    expect(JSON.parse(b)).toEqual({
      seq: 9,
      at: 2,
      books: [JSON.parse(JSON.stringify(view))],
      trades: [trade],
    })
    // Another view object (the next version of the book) is serialised afresh.
    const next = book('m1', 2)
    expect(batchJson({ seq: 10, at: 3, books: [next] })).toContain('"seq":2')
  })

  /** A one-level side whose level counts how often it is read (serialised). */
  function countedSide(level: [number, number]): { side: [number, number][]; reads: () => number } {
    let reads = 0
    const side: [number, number][] = [level]
    Object.defineProperty(side, '0', {
      enumerable: true,
      get: () => {
        reads++
        return level
      },
    })
    return { side, reads: () => reads }
  }

  it('serialises a side of the book that two versions of it share once', () => {
    const { side: asks, reads } = countedSide([0.43, 7])
    const v1: BookView = { ...book('m1', 1), asks }
    const v2: BookView = { ...book('m1', 2), bids: [[0.42, 1]], asks }
    const a = batchJson({ seq: 1, at: 1, books: [v1] })
    const b = batchJson({ seq: 2, at: 2, books: [v2] })
    expect(reads()).toBe(1)
    expect(a).toBe(JSON.stringify({ seq: 1, at: 1, books: [v1] }))
    expect(b).toBe(JSON.stringify({ seq: 2, at: 2, books: [v2] }))
    expect(reads()).toBe(3)
  })

  it('serialises a side of the NO book that two versions of the book share once', () => {
    const { side: noBids, reads } = countedSide([0.57, 4])
    const no = (asks: [number, number][]) => ({ bids: noBids, asks, depth: { bids: 1, asks: asks.length } })
    const v1: BookView = { ...book('m1', 1), no: no([[0.59, 2]]) }
    const v2: BookView = { ...book('m1', 2), no: no([]) }
    const a = batchJson({ seq: 1, at: 1, books: [v1] })
    const b = batchJson({ seq: 2, at: 2, books: [v2] })
    expect(reads()).toBe(1)
    expect(a).toBe(JSON.stringify({ seq: 1, at: 1, books: [v1] }))
    expect(b).toBe(JSON.stringify({ seq: 2, at: 2, books: [v2] }))
  })
})
