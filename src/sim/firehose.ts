// Benchmark load: synthetic markets `fh-0001`… with tiny fixed-shape books, updated at a target message
// rate. Messages are built by string concatenation from prebuilt prefixes so each one costs little.
import type { Level } from '../shared/model'
import type { BookSnapshot, DeltaOut } from './market'

export const FIREHOSE_EVENT = 'fh'
const ID_RE = /^fh-\d{4,}$/
const LEVELS = 10
// Bids at 0.40…0.49, asks at 0.51…0.60: fixed ticks, so no update can cross the book.
const BID_TOP = 49
const ASK_TOP = 51

export function isFirehoseId(id: string): boolean {
  return ID_RE.test(id)
}

export function firehoseId(i: number): string {
  return `fh-${String(i + 1).padStart(4, '0')}`
}

export class FirehoseBook {
  /** sizes[0..9] = bids from the best down, sizes[10..19] = asks from the best up. */
  readonly sizes = new Int32Array(LEVELS * 2)
  seq = 0
  skipNext = false
  tradeNo = 0
  /** Level index a trade just took from; the next message reports its new size. */
  pending = -1
  readonly bookPrefix: string
  readonly eventId = FIREHOSE_EVENT
  readonly tradePrefix: string

  constructor(readonly id: string) {
    for (let i = 0; i < this.sizes.length; i++) this.sizes[i] = 100 + ((i * 7919) % 900)
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

export class Firehose {
  private readonly books = new Map<string, FirehoseBook>()
  private active: FirehoseBook[] = []
  private rate = 0
  private timer: NodeJS.Timeout | null = null
  private startedAt = 0
  private generated = 0
  private cursor = 0
  private rand = 0x2545f491
  sent = 0

  constructor(
    private readonly sink: FirehoseSink,
    private readonly wanted: (marketId: string, eventId: string) => boolean,
  ) {}

  /** The synthetic book for an `fh-NNNN` id, created on first use so it can be subscribed before start. */
  get(id: string): FirehoseBook | undefined {
    if (!isFirehoseId(id)) return undefined
    let b = this.books.get(id)
    if (b === undefined) {
      b = new FirehoseBook(id)
      this.books.set(id, b)
    }
    return b
  }

  get running(): boolean {
    return this.timer !== null
  }

  start(msgsPerSec: number, markets: number): string[] {
    this.stop()
    const ids: string[] = []
    this.active = []
    for (let i = 0; i < markets; i++) {
      const id = firehoseId(i)
      ids.push(id)
      this.active.push(this.get(id) as FirehoseBook)
    }
    this.rate = msgsPerSec
    this.startedAt = performance.now()
    this.generated = 0
    this.cursor = 0
    this.timer = setInterval(() => this.tick(), 10)
    this.timer.unref()
    return ids
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
  }

  private tick(): void {
    const target = Math.floor(((performance.now() - this.startedAt) * this.rate) / 1000)
    let due = target - this.generated
    // After a long event-loop stall, do not try to catch up more than 100 ms worth in one burst.
    const cap = Math.max(1, Math.ceil(this.rate / 10))
    if (due > cap) {
      this.generated = target - cap
      due = cap
    }
    if (due <= 0) return
    const ts = String(Date.now())
    const n = this.active.length
    for (let k = 0; k < due; k++) {
      const b = this.active[this.cursor] as FirehoseBook
      this.cursor = this.cursor + 1 === n ? 0 : this.cursor + 1
      this.emit(b, ts)
    }
    this.generated += due
  }

  /**
   * An LCG: its low bits repeat with short periods (bit k every 2^(k+1) draws), and the books are visited in a
   * fixed round, so every choice reads high bits; low bits made only a quarter of the markets ever trade.
   */
  private next(): number {
    this.rand = (Math.imul(this.rand, 1664525) + 1013904223) >>> 0
    return this.rand
  }

  private emit(b: FirehoseBook, ts: string): void {
    const wanted = this.wanted(b.id, FIREHOSE_EVENT)
    const r = this.next()
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
