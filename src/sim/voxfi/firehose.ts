// Benchmark load in the VoxFi dialect: the synthetic markets `fh-0001`… of synthetic.ts (event "fh"), each with a
// fixed-tick YES and NO book, at a target message rate. Every book message is a whole-book `update-orderbook` (VoxFi
// has no deltas), every trade a `new-trade`; a trade's new level sizes come with the next book message.
import { PacedFirehose } from '../pacing'
import { lcg32 } from '../rng'
import { ASK_TOP, BID_TOP, FIREHOSE_EVENT, LEVELS, startingSizes } from '../synthetic'
import { orderCount, type BookState, type Level, type VoxTrade } from './books'
import { lastTrade, newTradeFrame, updateOrderbookFrame, wsOrderbook, crossedOrderbook } from './frames'
import type { FrameKind } from './stream'

// NO's book mirrors YES's on the same grid (NO bids at 100 - YES asks): never crossed either way.
export class VoxFirehoseBook {
  /** [0..9] YES bids from the best down, [10..19] YES asks from the best up, [20..39] the same for NO. */
  readonly sizes = startingSizes(LEVELS * 4)
  prints = 0
  volume = 0
  lastYes: number | null = null
  lastNo: number | null = null
  /** Fault: the next book message is not sent. */
  skipBook = false
  readonly salt: number

  constructor(readonly id: string) {
    this.salt = Number(id.slice(3)) | 0
  }

  state(): BookState {
    const side = (off: number, bid: boolean, salt: number): Level[] => {
      const out: Level[] = []
      for (let i = 0; i < LEVELS; i++) {
        const t = bid ? BID_TOP - i : ASK_TOP + i
        const q = this.sizes[off + i] ?? 0
        if (q > 0) out.push({ price_ticks: t, quantity: q, order_count: orderCount(t, q, salt) })
      }
      return out
    }
    let liquidity = 0
    for (const q of this.sizes) liquidity += q
    const mpy = this.lastYes ?? 50
    return {
      yes: {
        outcome: 'YES',
        bids: side(0, true, 0),
        asks: side(LEVELS, false, 1),
        spread: ASK_TOP - BID_TOP,
        last: this.lastYes,
      },
      no: {
        outcome: 'NO',
        bids: side(2 * LEVELS, true, 2),
        asks: side(3 * LEVELS, false, 3),
        spread: ASK_TOP - BID_TOP,
        last: this.lastNo,
      },
      marketPriceYes: mpy,
      marketPriceNo: 100 - mpy,
      chance: mpy,
      volume: this.volume,
      liquidity,
    }
  }
}

export type VoxFirehoseSink = (marketId: string, eventId: string, kind: FrameKind, text: string) => void

export class VoxFirehose extends PacedFirehose<VoxFirehoseBook> {
  private readonly draw = lcg32(0x2545f491)
  /** Level index a trade just took from: the next message for that book is its whole book. */
  private readonly pending = new Map<VoxFirehoseBook, number>()

  constructor(
    private readonly sink: VoxFirehoseSink,
    private readonly wanted: (marketId: string, eventId: string) => boolean,
    private readonly users: readonly string[],
  ) {
    super()
  }

  protected makeBook(id: string): VoxFirehoseBook {
    return new VoxFirehoseBook(id)
  }

  /** Fault: one crossed whole book for a synthetic market. */
  crossed(id: string): boolean {
    const b = this.get(id)
    if (b === undefined) return false
    this.sink(
      id,
      FIREHOSE_EVENT,
      'orderbook',
      updateOrderbookFrame(FIREHOSE_EVENT, id, JSON.stringify(crossedOrderbook(b.state()))),
    )
    return true
  }

  protected emit(b: VoxFirehoseBook): void {
    const wanted = this.wanted(b.id, FIREHOSE_EVENT)
    const r = this.draw()
    const pending = this.pending.get(b)
    if (pending === undefined && r >>> 29 === 0) {
      // A taker takes from a best level (YES or NO); the book message that follows shows the level's new size.
      const no = ((r >>> 27) & 1) !== 0
      const buy = ((r >>> 28) & 1) !== 0
      const idx = (no ? 2 * LEVELS : 0) + (buy ? LEVELS : 0)
      const qty = Math.min(b.sizes[idx] ?? 0, 1 + ((r >>> 8) % 50))
      b.sizes[idx] = (b.sizes[idx] ?? 0) - qty
      this.pending.set(b, idx)
      const tick = buy ? ASK_TOP : BID_TOP
      if (no) b.lastNo = tick
      else b.lastYes = tick
      b.volume += qty
      const t: VoxTrade = {
        contract: no ? 'NO' : 'YES',
        side: buy ? 'BUY' : 'SELL',
        tick,
        qty,
        no: ++b.prints,
      }
      if (!wanted) return
      this.sent++
      this.sink(
        b.id,
        FIREHOSE_EVENT,
        'trades',
        newTradeFrame(FIREHOSE_EVENT, b.id, JSON.stringify(lastTrade(t, b.salt, this.users))),
      )
      return
    }
    if (pending !== undefined) {
      this.pending.delete(b)
      // Refill a best level that trading has nearly emptied, so fixed ticks never go missing.
      if ((b.sizes[pending] ?? 0) < 20) b.sizes[pending] = 200 + ((r >>> 12) % 800)
    } else {
      const idx = (r >>> 8) % (LEVELS * 4)
      b.sizes[idx] = 50 + ((r >>> 10) % 1500)
    }
    if (b.skipBook) {
      b.skipBook = false
      return
    }
    if (!wanted) return
    this.sent++
    this.sink(
      b.id,
      FIREHOSE_EVENT,
      'orderbook',
      updateOrderbookFrame(FIREHOSE_EVENT, b.id, JSON.stringify(wsOrderbook(b.state()))),
    )
  }
}
