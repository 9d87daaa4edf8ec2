import { describe, expect, it } from 'vitest'
import { BAR_FLOOR, BAR_HEADROOM, barScale } from '../../src/renderer/features/market/bar-scale'

describe("the depth bars' scale", () => {
  it('is set with headroom over the largest total at first, and never 0', () => {
    expect(barScale(0, 200)).toBeCloseTo(200 * BAR_HEADROOM)
    expect(barScale(0, 0)).toBe(1)
    expect(barScale(220, 0)).toBe(220)
  })

  it('holds while the largest bar stays between the floor and the full row', () => {
    expect(barScale(220, 220)).toBe(220)
    expect(barScale(220, 200)).toBe(220)
    expect(barScale(220, 220 * BAR_FLOOR)).toBe(220)
  })

  it('is set anew when the largest total passes the full row or falls below the floor', () => {
    expect(barScale(220, 221)).toBeCloseTo(221 * BAR_HEADROOM)
    expect(barScale(220, 170)).toBeCloseTo(170 * BAR_HEADROOM)
  })

  it('keeps the largest bar between the floor and the full row through any run of totals', () => {
    let scale = 0
    let seed = 7
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48271) % 2147483647
      const largest = 50 + (seed % 1000)
      scale = barScale(scale, largest)
      expect(largest / scale).toBeLessThanOrEqual(1)
      expect(largest / scale).toBeGreaterThanOrEqual(BAR_FLOOR)
    }
  })
})
