import { describe, expect, it } from 'vitest'
import {
  bucketStart,
  buildCandles,
  CandleBuilder,
  CandleRing,
  chartCandles,
  type CandleHistory,
  INTERVAL_SECONDS,
} from '../../src/shared/candles'

const T0 = Date.UTC(2026, 10, 22, 4, 0, 0) // a whole 5-minute boundary
const t = (offsetMs: number, price: number, size = 1) => ({ ts: T0 + offsetMs, price, size })

describe('candles from trades', () => {
  const trades = [
    t(0, 0.5, 2),
    t(400, 0.52),
    t(999, 0.49),
    t(1_000, 0.51),
    t(59_000, 0.55, 3),
    t(61_000, 0.53),
    t(299_000, 0.47),
    t(300_000, 0.5),
  ]

  it('builds 1s candles', () => {
    const cs = buildCandles(trades, INTERVAL_SECONDS['1s'])
    expect(cs.map((c) => c.time - T0 / 1000)).toEqual([0, 1, 59, 61, 299, 300])
    expect(cs[0]).toMatchObject({ open: 0.5, high: 0.52, low: 0.49, close: 0.49, volume: 4 })
  })

  it('builds 1m candles', () => {
    const cs = buildCandles(trades, INTERVAL_SECONDS['1m'])
    expect(cs.map((c) => c.time - T0 / 1000)).toEqual([0, 60, 240, 300])
    expect(cs[0]).toMatchObject({ open: 0.5, high: 0.55, low: 0.49, close: 0.55, volume: 8 })
    expect(cs[1]).toMatchObject({ open: 0.53, close: 0.53, volume: 1 })
  })

  it('builds 5m candles', () => {
    const cs = buildCandles(trades, INTERVAL_SECONDS['5m'])
    expect(cs.map((c) => c.time - T0 / 1000)).toEqual([0, 300])
    expect(cs[0]).toMatchObject({ open: 0.5, high: 0.55, low: 0.47, close: 0.47, volume: 10 })
  })

  it('sorts trades by time first', () => {
    const cs = buildCandles([t(30_000, 0.6), t(10_000, 0.4)], 60)
    expect(cs[0]).toMatchObject({ open: 0.4, close: 0.6 })
  })

  it('incremental building matches a full rebuild for in-order trades', () => {
    const b = new CandleBuilder(60)
    const byTime = new Map<number, unknown>()
    for (const tr of trades) {
      const c = b.add(tr)
      if (c) byTime.set(c.time, c)
    }
    expect([...byTime.values()]).toEqual(buildCandles(trades, 60))
  })

  it('folds a late trade into the current candle instead of going back in time', () => {
    const b = new CandleBuilder(1)
    b.add(t(5_000, 0.5))
    const c = b.add(t(3_000, 0.6))
    expect(c?.time).toBe(T0 / 1000 + 5)
    expect(c).toMatchObject({ high: 0.6, close: 0.6, volume: 2 })
  })

  it('ignores a trade without a usable price or time', () => {
    const b = new CandleBuilder(60)
    expect(b.add({ ts: Number.NaN, price: 0.5, size: 1 })).toBeNull()
    expect(b.add({ ts: T0, price: Number.POSITIVE_INFINITY, size: 1 })).toBeNull()
    expect(b.last).toBeNull()
  })

  it('bucketStart floors to the interval', () => {
    expect(bucketStart(T0 + 299_999, 300)).toBe(T0 / 1000)
    expect(bucketStart(T0 + 300_000, 300)).toBe(T0 / 1000 + 300)
  })
})

describe('CandleRing', () => {
  const trades = Array.from({ length: 40 }, (_, i) => t(i * 17_000, 0.4 + ((i * 3) % 7) / 100, 1 + (i % 3)))

  it('holds the same candles the builder makes from the same trades, the newest `capacity` of them', () => {
    const ring = new CandleRing(60, 5)
    for (const tr of trades) ring.add(tr)
    expect(ring.size).toBe(5)
    expect(ring.toArray()).toEqual(buildCandles(trades, 60).slice(-5))
  })

  it('folds a late trade into the newest candle, as the builder does', () => {
    const ring = new CandleRing(1, 3)
    ring.add(t(5_000, 0.5))
    ring.add(t(3_000, 0.6))
    ring.add({ ts: Number.NaN, price: 0.1, size: 1 })
    expect(ring.toArray()).toEqual([
      { time: T0 / 1000 + 5, open: 0.5, high: 0.6, low: 0.5, close: 0.6, volume: 2 },
    ])
  })

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new CandleRing(60, 0)).toThrow(RangeError)
  })
})

describe('chartCandles (the engine history joined with the tape)', () => {
  const keyed = (key: string, offsetMs: number, price: number) => ({ key, ...t(offsetMs, price) })
  // The engine built its history through trade b; c and d came after the snapshot.
  const held = [keyed('a', 0, 0.5), keyed('b', 61_000, 0.55)]
  const history: CandleHistory = {
    candles: { '1m': buildCandles(held, 60), '5m': buildCandles(held, 300) },
    through: 'b',
  }
  // Older candles the tape no longer holds.
  history.candles['1m'].unshift({
    time: T0 / 1000 - 600,
    open: 0.4,
    high: 0.45,
    low: 0.4,
    close: 0.42,
    volume: 9,
  })

  it('starts from the history and folds in only the trades after the one it was built through', () => {
    const tape = [...held, keyed('c', 62_000, 0.6), keyed('d', 130_000, 0.52)]
    const cs = chartCandles(history, '1m', tape)
    expect(cs.map((c) => c.time - T0 / 1000)).toEqual([-600, 0, 60, 120])
    // b's minute counts b once and c once.
    expect(cs[2]).toMatchObject({ open: 0.55, high: 0.6, close: 0.6, volume: 2 })
    expect(cs[3]).toMatchObject({ open: 0.52, volume: 1 })
    expect(chartCandles(history, '5m', tape)).toEqual(buildCandles(tape, 300))
    // The history itself is left as it was.
    expect(history.candles['1m']).toHaveLength(3)
  })

  it('takes every trade on the tape as newer when the one it was built through has left the tape', () => {
    const cs = chartCandles(history, '1m', [keyed('x', 200_000, 0.7)])
    expect(cs.map((c) => c.time - T0 / 1000)).toEqual([-600, 0, 60, 180])
  })

  it('builds 1s candles, and any interval without a history, from the tape alone', () => {
    const tape = [...held, keyed('c', 62_000, 0.6)]
    expect(chartCandles(history, '1s', tape)).toEqual(buildCandles(tape, 1))
    expect(chartCandles(null, '1m', tape)).toEqual(buildCandles(tape, 60))
  })
})
