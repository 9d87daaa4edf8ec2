// A book delta is checked before a window folds it into the book it holds (store/monitor.ts): anything malformed
// is named, never applied.
import { describe, expect, it } from 'vitest'
import { bookDeltaProblem } from '../../src/shared/ipc-validate'
import { bookDelta } from './batch-fixtures'

describe('bookDeltaProblem', () => {
  const good = { ...bookDelta('m1', 3, 4), no: { bids: [[0.5, 0]], depth: { bids: 0, asks: 0 } } }

  it('accepts a well-formed delta, with or without a NO book', () => {
    expect(bookDeltaProblem(good)).toBeNull()
    expect(bookDeltaProblem(bookDelta('m1', 3, 4))).toBeNull()
  })

  it.each([
    ['not an object', null],
    ['no market', { ...good, market: '' }],
    ['no base', { ...good, base: undefined }],
    ['a fractional version', { ...good, version: 1.5 }],
    ['an unknown state', { ...good, state: 'fine' }],
    ['a bad depth', { ...good, depth: { bids: -1, asks: 0 } }],
    ['a text seq', { ...good, seq: '4' }],
    ['a negative size', { ...good, bids: [[0.4, -1]] }],
    [
      'a price twice',
      {
        ...good,
        asks: [
          [0.6, 1],
          [0.6, 2],
        ],
      },
    ],
    ['a level of three', { ...good, asks: [[0.6, 1, 2]] }],
    ['a NaN price', { ...good, bids: [[Number.NaN, 1]] }],
    ['a bad NO book', { ...good, no: { bids: [[0.5, 1]] } }],
    ['a bad source', { ...good, source: 'ws' }],
  ])('names %s', (_, value) => {
    expect(bookDeltaProblem(value)).toEqual(expect.any(String))
  })
})
