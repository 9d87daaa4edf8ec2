// Candles built from trades. The chart seeds with buildCandles() and then feeds each new trade through a
// CandleBuilder, so one trade costs one series.update() instead of a full setData().

export type CandleInterval = '1s' | '1m' | '5m'

export const CANDLE_INTERVALS: readonly CandleInterval[] = ['1s', '1m', '5m']

export const INTERVAL_SECONDS: Record<CandleInterval, number> = { '1s': 1, '1m': 60, '5m': 300 }

export interface Candle {
  /** Bucket start, seconds since epoch (lightweight-charts' UTCTimestamp). */
  time: number
  open: number
  high: number
  low: number
  close: number
  volume: number
}

export interface CandleTrade {
  price: number
  size: number
  /** ms since epoch. */
  ts: number
}

export function bucketStart(tsMs: number, intervalSeconds: number): number {
  return Math.floor(tsMs / 1000 / intervalSeconds) * intervalSeconds
}

export class CandleBuilder {
  private current: Candle | null = null

  constructor(readonly intervalSeconds: number) {}

  get last(): Candle | null {
    return this.current
  }

  /** Continue from an existing last candle (after a full rebuild). */
  seed(candle: Candle | null): void {
    this.current = candle ? { ...candle } : null
  }

  /**
   * Fold one trade in and return the candle it changed (a fresh object: the chart keeps no reference).
   * A trade stamped before the current candle (venue clocks jitter) joins the current candle, because a
   * chart series can only be updated at its last bar; its price still counts, its time does not go back.
   */
  add(trade: CandleTrade): Candle | null {
    if (!Number.isFinite(trade.price) || !Number.isFinite(trade.ts)) return null
    const size = Number.isFinite(trade.size) ? trade.size : 0
    const bucket = bucketStart(trade.ts, this.intervalSeconds)
    const c = this.current
    if (c === null || bucket > c.time) {
      this.current = {
        time: bucket,
        open: trade.price,
        high: trade.price,
        low: trade.price,
        close: trade.price,
        volume: size,
      }
    } else {
      this.current = {
        time: c.time,
        open: c.open,
        high: Math.max(c.high, trade.price),
        low: Math.min(c.low, trade.price),
        close: trade.price,
        volume: c.volume + size,
      }
    }
    return { ...this.current }
  }
}

/** All candles for a list of trades (any order), oldest first, one per bucket that saw a trade. */
export function buildCandles(trades: readonly CandleTrade[], intervalSeconds: number): Candle[] {
  const sorted = [...trades].sort((a, b) => a.ts - b.ts)
  const builder = new CandleBuilder(intervalSeconds)
  const out: Candle[] = []
  for (const t of sorted) {
    const candle = builder.add(t)
    if (candle === null) continue
    const last = out[out.length - 1]
    if (last !== undefined && last.time === candle.time) out[out.length - 1] = candle
    else out.push(candle)
  }
  return out
}
