import { describe, expect, it } from 'vitest'
import { exclusivityOf, overround } from '../../src/renderer/features/events/overround'

const q = (bestBid: number | null, bestAsk: number | null) => ({ bestBid, bestAsk })

describe('sum of mids (overround)', () => {
  it('is quiet near 1', () => {
    const r = overround([q(0.3, 0.32), q(0.45, 0.47), q(0.2, 0.22)])
    expect(r.sum).toBeCloseTo(0.98)
    expect(r.deviation).toBeCloseTo(-0.02)
    expect(r.warn).toBe(false)
  })

  it('warns when far from 1', () => {
    const r = overround([q(0.56, 0.58), q(0.45, 0.46), q(0.36, 0.39), q(0.42, 0.43)])
    expect(r.sum).toBeCloseTo(1.825)
    expect(r.warn).toBe(true)
    expect(overround([q(0.2, 0.22), q(0.2, 0.22)]).warn).toBe(true)
  })

  it('does not judge an incomplete set', () => {
    const r = overround([q(0.9, 0.92), q(null, 0.5), undefined])
    expect(r).toMatchObject({ counted: 1, total: 3, deviation: null, warn: false })
    expect(r.sum).toBeCloseTo(0.91)
    expect(overround([])).toMatchObject({ sum: null, warn: false })
  })

  it('uses the given threshold', () => {
    expect(overround([q(0.5, 0.5), q(0.53, 0.53)], 0.05).warn).toBe(false)
    expect(overround([q(0.5, 0.5), q(0.53, 0.53)], 0.02).warn).toBe(true)
  })

  it('never warns for markets the listing calls independent', () => {
    const far = [q(0.56, 0.58), q(0.45, 0.46), q(0.36, 0.39)]
    expect(overround(far, 0.05, 'independent').warn).toBe(false)
    expect(overround(far, 0.05, 'exclusive').warn).toBe(true)
    expect(overround(far, 0.05, 'unknown').warn).toBe(true)
  })

  it('reads exclusivity from the listing extras', () => {
    expect(exclusivityOf({ extra: { mutuallyExclusive: true } })).toBe('exclusive')
    expect(exclusivityOf({ extra: { mutually_exclusive: 'false' } })).toBe('independent')
    expect(exclusivityOf({ extra: { exclusive: 1 } })).toBe('unknown')
    expect(exclusivityOf({})).toBe('unknown')
  })
})
