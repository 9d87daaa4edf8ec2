// The engine's candle history per market: built from the trades its tape takes, bounded, sent through the tape's
// newest trade, and set aside and restored with the tape around a replay.
import { describe, expect, it } from 'vitest'
import { buildCandles, HISTORY_CANDLES, INTERVAL_SECONDS } from '../../../src/shared/candles'
import { TapeStore, type TradeUpdate } from '../../../src/main/services/market/tapes'

const T0 = Date.UTC(2026, 10, 26, 9, 0, 0) // a whole hour
const MIN = 60_000

function trade(market: string, price: number, ts: number, extra: Partial<TradeUpdate> = {}): TradeUpdate {
  return { kind: 'trade', market, price, size: 2, side: 'buy', ts, ...extra }
}

describe('candle history in the tape store', () => {
  it('is built from every trade the tape takes, the same candles the chart builds from those trades', () => {
    const tapes = new TapeStore()
    const taken = []
    // Two hours of a trade every 20 s with a wandering price: 360 trades, under the tape's 500.
    for (let i = 0; i < 360; i++) {
      const view = tapes.push(trade('m', 0.3 + ((i * 7) % 11) / 100, T0 + i * 20_000), T0 + i * 20_000)
      if (view) taken.push(view)
    }
    const history = tapes.candles('m')
    expect(history?.through).toBe(taken[taken.length - 1]?.key)
    const oneMinute = buildCandles(taken, INTERVAL_SECONDS['1m'])
    expect(oneMinute).toHaveLength(120)
    // The last hour at 1 minute, the whole two hours at 5 minutes.
    expect(history?.candles['1m']).toEqual(oneMinute.slice(-HISTORY_CANDLES['1m']))
    expect(history?.candles['5m']).toEqual(buildCandles(taken, INTERVAL_SECONDS['5m']))
    expect(history?.candles['5m']).toHaveLength(24)
  })

  it('stays bounded however long the market trades', () => {
    const tapes = new TapeStore(50)
    for (let i = 0; i < 12 * 60; i++) tapes.push(trade('m', 0.5, T0 + i * MIN), T0 + i * MIN)
    const history = tapes.candles('m')
    expect(history?.candles['1m']).toHaveLength(HISTORY_CANDLES['1m'])
    expect(history?.candles['5m']).toHaveLength(HISTORY_CANDLES['5m'])
    // The newest ones, oldest first.
    const last = (T0 + (12 * 60 - 1) * MIN) / 1000
    expect(history?.candles['1m'].at(-1)?.time).toBe(last)
    expect(history?.candles['1m'][0]?.time).toBe(last - 59 * 60)
    expect(history?.candles['5m'].at(-1)?.time).toBe(last - 4 * 60)
    // Candles reach back past what the 50-trade tape still holds.
    expect(tapes.history('m')).toHaveLength(50)
  })

  it('does not count a trade the tape refused (a replayed id, an unusable price)', () => {
    const tapes = new TapeStore()
    tapes.push(trade('m', 0.4, T0, { id: 'a' }), T0)
    tapes.push(trade('m', 0.6, T0 + 1000, { id: 'b' }), T0 + 1000)
    tapes.push(trade('m', 0.6, T0 + 1000, { id: 'b' }), T0 + 2000)
    tapes.push(trade('m', Number.NaN, T0 + 3000), T0 + 3000)
    expect(tapes.candles('m')?.candles['1m']).toEqual([
      { time: T0 / 1000, open: 0.4, high: 0.6, low: 0.4, close: 0.6, volume: 4 },
    ])
  })

  it('is forgotten with the tape, and absent for a market never traded', () => {
    const tapes = new TapeStore()
    tapes.push(trade('m', 0.4, T0), T0)
    tapes.delete('m')
    expect(tapes.candles('m')).toBeNull()
    expect(tapes.candles('other')).toBeNull()
  })

  it('is set aside with the tape and restored for the markets still wanted, the next trade marked after a gap', () => {
    const tapes = new TapeStore()
    tapes.push(trade('kept', 0.4, T0), T0)
    tapes.push(trade('dropped', 0.4, T0), T0)
    const before = tapes.candles('kept')
    const held = tapes.setAside()
    expect(tapes.candles('kept')).toBeNull()
    // What a replay puts in meanwhile is cleared before the live tapes come back.
    tapes.push(trade('kept', 0.9, T0 + MIN), T0 + MIN)
    tapes.clear()
    tapes.restore(held, (m) => m === 'kept')
    expect(tapes.candles('kept')).toEqual(before)
    expect(tapes.candles('dropped')).toBeNull()
    const next = tapes.push(trade('kept', 0.5, T0 + 2 * MIN), T0 + 2 * MIN)
    expect(next?.gapBefore).toBe(true)
    expect(tapes.candles('kept')?.candles['1m']).toHaveLength(2)
  })
})
