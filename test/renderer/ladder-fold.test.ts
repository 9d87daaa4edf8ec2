// Folding the NO contract's book into the YES ladder (VoxFi keeps them apart): a NO bid at q is a YES ask at
// 1 − q, a NO ask at q a YES bid at 1 − q, the size the same, marked as implied; the NO view is the NO book alone.
import { describe, expect, it } from 'vitest'
import type { BookView, Level } from '../../src/shared/model'
import {
  complement,
  foldedLevels,
  impliedFromNo,
  ladderSides,
  yesTermsOfNo,
} from '../../src/renderer/features/market/ladder'

function voxBook(no: { bids: Level[]; asks: Level[] } | undefined): Pick<BookView, 'bids' | 'asks' | 'no'> {
  return {
    bids: [
      [0.4, 100],
      [0.39, 50],
    ],
    asks: [
      [0.43, 150],
      [0.45, 30],
    ],
    ...(no ? { no: { ...no, depth: { bids: no.bids.length, asks: no.asks.length } } } : {}),
  }
}

describe('complement', () => {
  it('is 1 − p without floating-point dust, at every tick', () => {
    expect(complement(0.43)).toBe(0.57)
    expect(complement(0.4)).toBe(0.6)
    expect(complement(0)).toBe(1)
    expect(complement(1)).toBe(0)
    for (let t = 0; t <= 100; t++) expect(complement(t / 100)).toBe((100 - t) / 100)
    // A finer tick keeps its digits.
    expect(complement(0.535)).toBe(0.465)
  })
})

describe('impliedFromNo', () => {
  it('turns NO bids into YES asks and NO asks into YES bids at 1 − q, same size, best first', () => {
    const implied = impliedFromNo({
      bids: [
        [0.55, 10],
        [0.5, 20],
      ],
      asks: [
        [0.58, 5],
        [0.62, 7],
      ],
    })
    // NO bids descending 0.55, 0.50 → YES asks ascending 0.45, 0.50.
    expect(implied.asks).toEqual([
      [0.45, 10],
      [0.5, 20],
    ])
    // NO asks ascending 0.58, 0.62 → YES bids descending 0.42, 0.38.
    expect(implied.bids).toEqual([
      [0.42, 5],
      [0.38, 7],
    ])
  })

  it('leaves out levels that are not prices in 0–1', () => {
    const implied = impliedFromNo({
      bids: [
        [1.5, 1],
        [Number.NaN, 2],
        [0.5, 3],
      ],
      asks: [[-0.1, 4]],
    })
    expect(implied.asks).toEqual([[0.5, 3]])
    expect(implied.bids).toEqual([])
  })
})

describe('ladderSides', () => {
  it('is the book’s own levels, unmarked, when there is no NO book (every other venue), whatever the view', () => {
    const book = voxBook(undefined)
    for (const view of ['yes', 'no'] as const) {
      const sides = ladderSides(book, view, 15)
      expect(sides.bids).toEqual([
        { price: 0.4, size: 100, outcome: 'yes', implied: false },
        { price: 0.39, size: 50, outcome: 'yes', implied: false },
      ])
      expect(sides.asks.map((l) => [l.price, l.size, l.implied])).toEqual([
        [0.43, 150, false],
        [0.45, 30, false],
      ])
    }
  })

  it('folds the NO book in as implied levels, ordered by price, the book’s own first at an equal price', () => {
    const book = voxBook({
      // → YES asks 0.42 (better than the own 0.43) and 0.45 (the same as the own 0.45).
      bids: [
        [0.58, 80],
        [0.55, 20],
      ],
      // → YES bids 0.41 (better than the own 0.40) and 0.39 (the same as the own 0.39).
      asks: [
        [0.59, 60],
        [0.61, 10],
      ],
    })
    const sides = ladderSides(book, 'yes', 15)
    expect(sides.asks).toEqual([
      { price: 0.42, size: 80, outcome: 'no', implied: true, noPrice: 0.58 },
      { price: 0.43, size: 150, outcome: 'yes', implied: false },
      { price: 0.45, size: 30, outcome: 'yes', implied: false },
      { price: 0.45, size: 20, outcome: 'no', implied: true, noPrice: 0.55 },
    ])
    expect(sides.bids).toEqual([
      { price: 0.41, size: 60, outcome: 'no', implied: true, noPrice: 0.59 },
      { price: 0.4, size: 100, outcome: 'yes', implied: false },
      { price: 0.39, size: 50, outcome: 'yes', implied: false },
      { price: 0.39, size: 10, outcome: 'no', implied: true, noPrice: 0.61 },
    ])
  })

  it('keeps the best `limit` rows per side across both books', () => {
    const book = voxBook({ bids: [[0.58, 80]], asks: [[0.59, 60]] })
    const sides = ladderSides(book, 'yes', 2)
    expect(sides.asks.map((l) => [l.price, l.implied])).toEqual([
      [0.42, true],
      [0.43, false],
    ])
    expect(sides.bids.map((l) => [l.price, l.implied])).toEqual([
      [0.41, true],
      [0.4, false],
    ])
  })

  it('shows the NO book alone, in its own prices, marked as the NO book’s and not as implied', () => {
    const book = voxBook({
      bids: [
        [0.58, 80],
        [0.55, 20],
      ],
      asks: [[0.59, 60]],
    })
    const sides = ladderSides(book, 'no', 15)
    expect(sides.bids).toEqual([
      { price: 0.58, size: 80, outcome: 'no', implied: false },
      { price: 0.55, size: 20, outcome: 'no', implied: false },
    ])
    expect(sides.asks).toEqual([{ price: 0.59, size: 60, outcome: 'no', implied: false }])
  })

  it('an empty NO book folds nothing in', () => {
    const sides = ladderSides(voxBook({ bids: [], asks: [] }), 'yes', 15)
    expect(sides.bids.every((l) => !l.implied)).toBe(true)
    expect(sides.asks).toHaveLength(2)
  })
})

describe('foldedLevels (the depth chart)', () => {
  it('sums own and implied sizes per price, best first, and is the book itself without a NO book', () => {
    const plain = voxBook(undefined)
    expect(foldedLevels(plain).bids).toBe(plain.bids)
    const folded = foldedLevels(
      voxBook({
        bids: [
          [0.58, 80],
          [0.55, 20],
        ],
        asks: [[0.61, 10]],
      }),
    )
    expect(folded.asks).toEqual([
      [0.42, 80],
      [0.43, 150],
      [0.45, 50],
    ])
    expect(folded.bids).toEqual([
      [0.4, 100],
      [0.39, 60],
    ])
  })
})

describe('yesTermsOfNo', () => {
  it('reads a NO level as the YES level it is: the other side at 1 − q', () => {
    expect(yesTermsOfNo('bid', 0.4)).toEqual({ side: 'ask', price: 0.6 })
    expect(yesTermsOfNo('ask', 0.43)).toEqual({ side: 'bid', price: 0.57 })
  })
})
