// A market's candle history in the engine: the newest HISTORY_CANDLES candles of each interval the chart draws
// from history, built from every trade its tape takes (shared/candles.ts holds the rule), so a window that opens
// the market later starts from the last hour, not from one candle. Fixed memory per market:
// (60 + 72) candles × 48 bytes, about 6.3 KB.
import {
  CandleRing,
  HISTORY_CANDLES,
  INTERVAL_SECONDS,
  type CandleHistory,
  type CandleTrade,
} from '../../../shared/candles'

export class MarketCandles {
  private readonly m1 = new CandleRing(INTERVAL_SECONDS['1m'], HISTORY_CANDLES['1m'])
  private readonly m5 = new CandleRing(INTERVAL_SECONDS['5m'], HISTORY_CANDLES['5m'])

  /** O(1), allocates nothing. */
  add(trade: CandleTrade): void {
    this.m1.add(trade)
    this.m5.add(trade)
  }

  /** The history as sent; `through` is the key of the newest trade folded in. */
  view(through: string | null): CandleHistory {
    return { candles: { '1m': this.m1.toArray(), '5m': this.m5.toArray() }, through }
  }
}
