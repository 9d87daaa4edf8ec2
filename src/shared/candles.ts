// Candles built from trades, the one place their rule lives: the engine keeps a bounded history per market with a
// CandleRing, and the chart seeds from that history (or buildCandles over the tape) and then feeds each new trade
// through a CandleBuilder, so one trade costs one series.update() instead of a full setData(). Both fold a trade
// with foldTrade, so a candle the engine sends and one the chart builds from the same trades are the same.

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

/** The intervals the engine keeps a history of, and how many candles of each (one per bucket that saw a trade). */
export type HistoryInterval = Exclude<CandleInterval, '1s'>
export const HISTORY_CANDLES: Record<HistoryInterval, number> = { '1m': 60, '5m': 72 }

/**
 * A market's candle history as the engine sends it with a market snapshot: per interval, oldest first. `through`
 * is the key of the newest trade folded in (the snapshot tape's last trade; null when it held none), so a window
 * adds only the trades after it.
 */
export interface CandleHistory {
  candles: Record<HistoryInterval, Candle[]>
  through: string | null
}

export function bucketStart(tsMs: number, intervalSeconds: number): number {
  return Math.floor(tsMs / 1000 / intervalSeconds) * intervalSeconds
}

/**
 * The rule for one trade against the newest candle (its bucket start `time`, or null when there is none): the
 * bucket of a new candle to open, or null when the trade folds into the newest one. A trade stamped before the
 * newest candle (venue clocks jitter) joins it, because a chart series can only be updated at its last bar; its
 * price still counts, its time does not go back. NaN when the trade has no usable price or time (ignored).
 */
export function foldTrade(time: number | null, trade: CandleTrade, intervalSeconds: number): number | null {
  if (!Number.isFinite(trade.price) || !Number.isFinite(trade.ts)) return Number.NaN
  // Before the next bucket's start: the newest candle's (or earlier), without the division (most trades).
  if (time !== null && trade.ts < (time + intervalSeconds) * 1000) return null
  return bucketStart(trade.ts, intervalSeconds)
}

function sizeOf(trade: CandleTrade): number {
  return Number.isFinite(trade.size) ? trade.size : 0
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

  /** Fold one trade in and return the candle it changed (a fresh object: the chart keeps no reference). */
  add(trade: CandleTrade): Candle | null {
    const c = this.current
    const bucket = foldTrade(c === null ? null : c.time, trade, this.intervalSeconds)
    if (Number.isNaN(bucket)) return null
    const size = sizeOf(trade)
    if (bucket !== null) {
      const p = trade.price
      this.current = { time: bucket, open: p, high: p, low: p, close: p, volume: size }
    } else if (c !== null) {
      this.current = {
        time: c.time,
        open: c.open,
        high: Math.max(c.high, trade.price),
        low: Math.min(c.low, trade.price),
        close: trade.price,
        volume: c.volume + size,
      }
    }
    return this.current === null ? null : { ...this.current }
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

const STRIDE = 6

/**
 * The newest `capacity` candles of one interval, in one Float64Array: folding a trade in is O(1) and allocates
 * nothing (the engine does it for every trade it takes), and the memory is fixed, capacity × 48 bytes.
 */
export class CandleRing {
  private readonly data: Float64Array
  /** The slot of the newest candle. */
  private newest = -1
  private count = 0

  constructor(
    readonly intervalSeconds: number,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('candle capacity must be a positive integer')
    this.data = new Float64Array(capacity * STRIDE)
  }

  get size(): number {
    return this.count
  }

  add(trade: CandleTrade): void {
    const d = this.data
    const bucket = foldTrade(
      this.count === 0 ? null : (d[this.newest * STRIDE] as number),
      trade,
      this.intervalSeconds,
    )
    if (Number.isNaN(bucket)) return
    const p = trade.price
    const size = sizeOf(trade)
    if (bucket !== null) {
      this.newest = this.newest + 1 === this.capacity ? 0 : this.newest + 1
      if (this.count < this.capacity) this.count++
      const o = this.newest * STRIDE
      d[o] = bucket
      d[o + 1] = p
      d[o + 2] = p
      d[o + 3] = p
      d[o + 4] = p
      d[o + 5] = size
      return
    }
    const o = this.newest * STRIDE
    if (p > (d[o + 2] as number)) d[o + 2] = p
    if (p < (d[o + 3] as number)) d[o + 3] = p
    d[o + 4] = p
    d[o + 5] = (d[o + 5] as number) + size
  }

  /** The candles held, oldest first, as new objects. */
  toArray(): Candle[] {
    const out = new Array<Candle>(this.count)
    const d = this.data
    for (let i = 0; i < this.count; i++) {
      let slot = this.newest - this.count + 1 + i
      if (slot < 0) slot += this.capacity
      const o = slot * STRIDE
      out[i] = {
        time: d[o] as number,
        open: d[o + 1] as number,
        high: d[o + 2] as number,
        low: d[o + 3] as number,
        close: d[o + 4] as number,
        volume: d[o + 5] as number,
      }
    }
    return out
  }
}

/**
 * The candles a chart of `interval` starts from: the engine's history of that interval, then the tape's trades
 * after the one it was built through, folded in by the same rule. Each trade counts once: those up to `through`
 * are in the history, the rest are not. When `through` is no longer on the tape (the tape moved on by more than it
 * holds), every trade on it is newer. Without a history of the interval (1s, or none sent), the tape alone.
 */
export function chartCandles(
  history: CandleHistory | null | undefined,
  interval: CandleInterval,
  trades: readonly (CandleTrade & { key: string })[],
): Candle[] {
  const seconds = INTERVAL_SECONDS[interval]
  const base = history && interval !== '1s' ? history.candles[interval] : undefined
  if (base === undefined || base.length === 0) return buildCandles(trades, seconds)
  let start = 0
  if (history?.through != null) {
    for (let i = trades.length - 1; i >= 0; i--) {
      if ((trades[i] as { key: string }).key === history.through) {
        start = i + 1
        break
      }
    }
  }
  const out = base.slice()
  const builder = new CandleBuilder(seconds)
  builder.seed(out[out.length - 1] ?? null)
  for (let i = start; i < trades.length; i++) {
    const c = builder.add(trades[i] as CandleTrade)
    if (c === null) continue
    if (out[out.length - 1]?.time === c.time) out[out.length - 1] = c
    else out.push(c)
  }
  return out
}
