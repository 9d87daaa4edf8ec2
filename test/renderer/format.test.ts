import { describe, expect, it } from 'vitest'
import {
  formatAmount,
  formatDuration,
  formatPrice,
  formatSigned,
  formatSize,
  midOf,
  spreadOf,
} from '../../src/renderer/lib/format'

describe('formatting', () => {
  it('shows probabilities with two decimals, keeping a finer tick', () => {
    expect(formatPrice(0.53)).toBe('0.53')
    expect(formatPrice(0.5)).toBe('0.50')
    expect(formatPrice(0.535)).toBe('0.535')
    expect(formatPrice(0.1 + 0.2)).toBe('0.30')
    expect(formatPrice(null)).toBe('—')
    expect(formatPrice(Number.NaN)).toBe('—')
    expect(formatPrice(1)).toBe('1.00')
    expect(formatPrice(12345.678)).toBe('12,345.68')
  })

  it('groups sizes and compacts very large ones', () => {
    expect(formatSize(2299)).toBe('2,299')
    expect(formatSize(12.345)).toBe('12.35')
    expect(formatSize(1_234_567)).toBe('1.23M')
    expect(formatSize(2_500_000_000)).toBe('2.50B')
    expect(formatSize(undefined)).toBe('—')
  })

  it('formats amounts and signed values', () => {
    expect(formatAmount(9838.7)).toBe('9,838.70')
    expect(formatSigned(0.0234, 3)).toBe('+0.023')
    expect(formatSigned(-0.05)).toBe('-0.05')
    expect(formatSigned(0.0001)).toBe('0.00')
  })

  it('formats durations compactly', () => {
    expect(formatDuration(400)).toBe('0.4s')
    expect(formatDuration(12_300)).toBe('12s')
    expect(formatDuration(185_000)).toBe('3m 05s')
    expect(formatDuration(2 * 3_600_000 + 10 * 60_000)).toBe('2h 10m')
    expect(formatDuration(-5)).toBe('0.0s')
    expect(formatDuration(null)).toBe('—')
  })

  it('computes spread and mid only with both sides', () => {
    expect(spreadOf(0.56, 0.58)).toBeCloseTo(0.02)
    expect(midOf(0.56, 0.58)).toBeCloseTo(0.57)
    expect(spreadOf(null, 0.58)).toBeNull()
    expect(midOf(0.56, undefined)).toBeNull()
  })
})
