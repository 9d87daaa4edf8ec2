// Benchmark load: synthetic markets `fh-0001`… with tiny fixed-shape books, updated at a target message
// rate. Messages are built by string concatenation from prebuilt prefixes so each one costs little.
import type { Level } from '../shared/model'
import type { BookSnapshot, DeltaOut } from './market'
import { PacedFirehose } from './pacing'
import { lcg32 } from './rng'
import { ASK_TOP, BID_TOP, FIREHOSE_EVENT, LEVELS, startingSizes } from './synthetic'

export { FIREHOSE_EVENT, firehoseId, isFirehoseId } from './synthetic'

export class FirehoseBook {
  /** sizes[0..9] = bids from the best down, sizes[10..19] = asks from the best up. */
  readonly sizes = startingSizes(LEVELS * 2)
  seq = 0
  skipNext = false
  tradeNo = 0
  /** Level index a trade just took from; the next message reports its new size. */
  pending = -1
  readonly bookPrefix: string
  readonly eventId = FIREHOSE_EVENT
  readonly tradePrefix: string

  constructor(readonly id: string) {
    const ids = `,"market":${JSON.stringify(id)},"event":"${FIREHOSE_EVENT}"`
    this.bookPrefix = `"type":"orderbook"${ids},"snapshot":false,"seq":`
    this.tradePrefix = `"type":"trade"${ids},"price":`
  }

  skipSeq(): void {
    this.skipNext = true
  }

  nextSeq(): number {
    this.seq += this.skipNext ? 2 : 1
    this.skipNext = false
    return this.seq
  }

  snapshot(): BookSnapshot {
    const bids: Level[] = []
    const asks: Level[] = []
    for (let i = 0; i < LEVELS; i++) {
      bids.push([(BID_TOP - i) / 100, this.sizes[i] ?? 0])
      asks.push([(ASK_TOP + i) / 100, this.sizes[LEVELS + i] ?? 0])
    }
    return { seq: this.seq, bids, asks }
  }

  crossedDelta(): DeltaOut {
    return { seq: this.nextSeq(), bids: [[ASK_TOP / 100, 100]], asks: [] }
  }
}

export type FirehoseSink = (
  marketId: string,
  eventId: string,
  kind: 'orderbook' | 'trade',
  body: string,
) => void

export class Firehose extends PacedFirehose<FirehoseBook> {
  private readonly draw = lcg32(0x2545f491)

  constructor(
    private readonly sink: FirehoseSink,
    private readonly wanted: (marketId: string, eventId: string) => boolean,
  ) {
    super()
  }

  protected makeBook(id: string): FirehoseBook {
    return new FirehoseBook(id)
  }

  protected emit(b: FirehoseBook, ts: number): void {
    const wanted = this.wanted(b.id, FIREHOSE_EVENT)
    const r = this.draw()
    if (b.pending < 0 && r >>> 29 === 0) {
      // A taker takes from the best level; the level's new size follows in the next book message.
      const buy = ((r >>> 28) & 1) !== 0
      const idx = buy ? LEVELS : 0
      const size = Math.min(b.sizes[idx] ?? 0, 1 + ((r >>> 8) % 50))
      b.sizes[idx] = (b.sizes[idx] ?? 0) - size
      b.pending = idx
      b.tradeNo++
      if (!wanted) return
      this.sent++
      const price = buy ? '0.51' : '0.49'
      this.sink(
        b.id,
        FIREHOSE_EVENT,
        'trade',
        `${b.tradePrefix}${price},"size":${size},"side":"${buy ? 'buy' : 'sell'}","id":"${b.id}-t${b.tradeNo}","ts":${ts}}`,
      )
      return
    }
    let idx: number
    if (b.pending >= 0) {
      idx = b.pending
      b.pending = -1
      // Refill a best level that trading has nearly emptied, so fixed ticks never go missing.
      if ((b.sizes[idx] ?? 0) < 20) b.sizes[idx] = 200 + ((r >>> 12) % 800)
    } else {
      idx = (r >>> 8) % (LEVELS * 2)
      b.sizes[idx] = 50 + ((r >>> 10) % 1500)
    }
    const seq = b.nextSeq()
    if (!wanted) return
    this.sent++
    const isBid = idx < LEVELS
    const px = isBid ? (BID_TOP - idx) / 100 : (ASK_TOP + idx - LEVELS) / 100
    const level = `[[${px},${b.sizes[idx] ?? 0}]]`
    this.sink(
      b.id,
      FIREHOSE_EVENT,
      'orderbook',
      `${b.bookPrefix}${seq},"bids":${isBid ? level : '[]'},"asks":${isBid ? '[]' : level},"ts":${ts}}`,
    )
  }
}
