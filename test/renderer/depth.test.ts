// The depth chart's pure helpers: running totals, the drawn domain (around the mid, a deep side clipped), axis
// ticks and the cumulative size under the pointer.
import { describe, expect, it } from 'vitest'
import type { Level } from '../../src/shared/model'
import {
  cumulative,
  cumulativeAt,
  depthModel,
  MAX_REACH_RATIO,
  niceTicks,
} from '../../src/renderer/features/market/depth'

const bids: Level[] = [
  [0.49, 10],
  [0.48, 20],
  [0.47, 5],
]
const asks: Level[] = [
  [0.51, 4],
  [0.52, 6],
  [0.53, 30],
]

describe('cumulative', () => {
  it('sums outwards from the best level', () => {
    expect(cumulative(bids)).toEqual([
      { price: 0.49, size: 10, total: 10 },
      { price: 0.48, size: 20, total: 30 },
      { price: 0.47, size: 5, total: 35 },
    ])
    expect(cumulative([])).toEqual([])
  })

  it('skips levels that are not numbers', () => {
    expect(
      cumulative([
        [0.5, Number.NaN],
        [0.4, 2],
      ]).map((p) => p.total),
    ).toEqual([2])
  })
})

describe('depthModel', () => {
  it('is null for an empty book', () => {
    expect(depthModel([], [])).toBeNull()
  })

  it('centres a balanced book on the mid, with every level drawn', () => {
    const m = depthModel(bids, asks)
    expect(m).not.toBeNull()
    if (!m) return
    expect(m.mid).toBeCloseTo(0.5)
    expect(m.spread).toBeCloseTo(0.02)
    expect(m.levels).toBe(6)
    expect(m.bidsClipped).toBe(false)
    expect(m.asksClipped).toBe(false)
    // Symmetric around the mid, a little wider than the outermost level on each side.
    expect(m.x0 + m.x1).toBeCloseTo(1, 10)
    expect(m.x0).toBeLessThan(0.47)
    expect(m.x1).toBeGreaterThan(0.53)
    expect(m.x0).toBeGreaterThan(0.46)
    // Size axis: the larger side's total with headroom.
    expect(m.yMax).toBeGreaterThan(40)
    expect(m.yMax).toBeLessThan(45)
  })

  it('clips a side that reaches much further than the other', () => {
    const deepBids: Level[] = []
    for (let i = 0; i < 40; i++) deepBids.push([Number((0.49 - i * 0.01).toFixed(2)), 100])
    const near: Level[] = [[0.51, 5]] // reach 0.01 from the mid (0.50)
    const m = depthModel(deepBids, near)
    if (!m) throw new Error('no model')
    const half = (m.x1 - m.x0) / 2
    expect(half).toBeLessThanOrEqual(0.01 * MAX_REACH_RATIO * 1.05 + 1e-12)
    expect(m.bidsClipped).toBe(true)
    expect(m.bids.length).toBeLessThan(deepBids.length)
    expect(m.bids.every((p) => p.price >= m.x0)).toBe(true)
    // The size axis follows what is drawn, not the clipped-away depth (40 × 100).
    expect(m.yMax).toBeLessThan(1000)
    expect(m.levels).toBe(m.bids.length + 1)
  })

  it('draws a one-sided book over its own range, never below 0', () => {
    const m = depthModel(
      [
        [0.03, 1],
        [0.01, 2],
      ],
      [],
    )
    if (!m) throw new Error('no model')
    expect(m.mid).toBeNull()
    expect(m.spread).toBeNull()
    expect(m.x0).toBeGreaterThanOrEqual(0)
    expect(m.x0).toBeLessThanOrEqual(0.01)
    expect(m.x1).toBeGreaterThan(0.03)
    expect(m.levels).toBe(2)
  })

  it('keeps the axis at 0 or above for a book near the bottom of the range', () => {
    const m = depthModel(
      [[0.01, 3]],
      [
        [0.02, 1],
        [0.1, 1],
      ],
    )
    if (!m) throw new Error('no model')
    expect(m.x0).toBe(0)
  })
})

describe('niceTicks', () => {
  it('gives round steps inside the range', () => {
    expect(niceTicks(0, 100, 5)).toEqual([0, 20, 40, 60, 80, 100])
    expect(niceTicks(0.455, 0.545, 4)).toEqual([0.46, 0.48, 0.5, 0.52, 0.54])
    expect(niceTicks(0, 42, 3)).toEqual([0, 10, 20, 30, 40])
    expect(niceTicks(0, 4200, 2)).toEqual([0, 2000, 4000])
  })

  it('gives nothing for an empty or broken range', () => {
    expect(niceTicks(1, 1, 4)).toEqual([])
    expect(niceTicks(0, Number.NaN, 4)).toEqual([])
    expect(niceTicks(0, 1, 0)).toEqual([])
  })
})

describe('cumulativeAt', () => {
  const b = cumulative(bids)
  const a = cumulative(asks)
  it('reads the bid side at or below the best bid', () => {
    expect(cumulativeAt(b, a, 0.49)).toEqual({ side: 'bid', total: 10 })
    expect(cumulativeAt(b, a, 0.485)).toEqual({ side: 'bid', total: 10 })
    expect(cumulativeAt(b, a, 0.48)).toEqual({ side: 'bid', total: 30 })
    expect(cumulativeAt(b, a, 0.4)).toEqual({ side: 'bid', total: 35 })
  })

  it('reads the ask side at or above the best ask', () => {
    expect(cumulativeAt(b, a, 0.51)).toEqual({ side: 'ask', total: 4 })
    expect(cumulativeAt(b, a, 0.525)).toEqual({ side: 'ask', total: 10 })
    expect(cumulativeAt(b, a, 0.9)).toEqual({ side: 'ask', total: 40 })
  })

  it('is null inside the spread', () => {
    expect(cumulativeAt(b, a, 0.5)).toBeNull()
    expect(cumulativeAt([], [], 0.5)).toBeNull()
  })
})
