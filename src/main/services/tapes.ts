// Trade tapes: a bounded ring buffer of recent trades per market (DESIGN §4 "Memory is bounded").
import type { TradeView, Update } from '../../shared/model'

export type TradeUpdate = Extract<Update, { kind: 'trade' }> & { market: string }

/** Fixed-capacity FIFO: push is O(1) and overwrites the oldest entry once full. */
export class RingBuffer<T> {
  readonly capacity: number
  private readonly items: (T | undefined)[]
  /** Index of the oldest entry. */
  private head = 0
  private count = 0

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`ring capacity must be a positive integer`)
    this.capacity = capacity
    this.items = new Array<T | undefined>(capacity).fill(undefined)
  }

  get size(): number {
    return this.count
  }

  /** Returns the entry that was evicted to make room, if any. */
  push(item: T): T | undefined {
    if (this.count < this.capacity) {
      this.items[(this.head + this.count) % this.capacity] = item
      this.count++
      return undefined
    }
    const evicted = this.items[this.head]
    this.items[this.head] = item
    this.head = (this.head + 1) % this.capacity
    return evicted
  }

  /** The `i`-th entry counting from the oldest (0) or undefined when out of range. */
  at(i: number): T | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return undefined
    return this.items[(this.head + i) % this.capacity]
  }

  last(): T | undefined {
    return this.count > 0 ? this.items[(this.head + this.count - 1) % this.capacity] : undefined
  }

  /** The newest `limit` entries (all by default), oldest first, as a new array. */
  toArray(limit?: number): T[] {
    const n = limit === undefined ? this.count : Math.max(0, Math.min(this.count, Math.floor(limit)))
    const out = new Array<T>(n)
    const start = this.head + this.count - n
    for (let i = 0; i < n; i++) out[i] = this.items[(start + i) % this.capacity] as T
    return out
  }

  clear(): void {
    this.items.fill(undefined)
    this.head = 0
    this.count = 0
  }
}

interface Tape {
  trades: RingBuffer<TradeView>
  /** Venue ids of the trades in `trades`, in the same order, so the dedupe window is exactly the tape. */
  ids: RingBuffer<string | undefined>
  seen: Set<string>
  /** The gap epoch this tape has already marked. */
  epoch: number
}

// Module-wide so keys stay unique across stores (a profile switch builds a new store; windows keep old rows).
let nextKey = 0

export class TapeStore {
  private readonly tapes = new Map<string, Tape>()
  private epoch = 0
  /** Trades refused: replays of an id already on the tape, or unusable price/size. */
  duplicates = 0
  rejected = 0

  constructor(readonly capacityPerMarket = 2000) {
    if (!Number.isInteger(capacityPerMarket) || capacityPerMarket < 1) {
      throw new RangeError('capacityPerMarket must be a positive integer')
    }
  }

  /**
   * Records a trade and returns its view, or null when it was not recorded: a replay of a venue id still on this
   * market's tape (a resubscribe may resend recent trades), or a price/size that is not a finite number.
   */
  push(trade: TradeUpdate, receivedAt: number): TradeView | null {
    if (!Number.isFinite(trade.price) || !Number.isFinite(trade.size)) {
      this.rejected++
      return null
    }
    let tape = this.tapes.get(trade.market)
    if (tape === undefined) {
      tape = {
        trades: new RingBuffer<TradeView>(this.capacityPerMarket),
        ids: new RingBuffer<string | undefined>(this.capacityPerMarket),
        seen: new Set(),
        epoch: this.epoch,
      }
      this.tapes.set(trade.market, tape)
    }
    const id = trade.id
    if (id !== undefined && tape.seen.has(id)) {
      this.duplicates++
      return null
    }
    const ts = trade.ts
    const view: TradeView = {
      key: 't' + (++nextKey).toString(36),
      market: trade.market,
      price: trade.price,
      size: trade.size,
      side: trade.side,
      ts: ts !== null && Number.isFinite(ts) ? ts : receivedAt,
      receivedAt,
    }
    if (tape.epoch !== this.epoch) {
      tape.epoch = this.epoch
      if (tape.trades.size > 0) view.gapBefore = true
    }
    tape.trades.push(view)
    const evictedId = tape.ids.push(id)
    if (evictedId !== undefined) tape.seen.delete(evictedId)
    if (id !== undefined) tape.seen.add(id)
    return view
  }

  /** Oldest first; the newest `limit` trades when given. */
  history(market: string, limit?: number): TradeView[] {
    return this.tapes.get(market)?.trades.toArray(limit) ?? []
  }

  last(market: string): TradeView | undefined {
    return this.tapes.get(market)?.trades.last()
  }

  /** Reconnect: the next trade of every market that already has a tape is flagged `gapBefore`. O(1). */
  markGap(): void {
    this.epoch++
  }

  delete(market: string): void {
    this.tapes.delete(market)
  }

  clear(): void {
    this.tapes.clear()
  }

  markets(): IterableIterator<string> {
    return this.tapes.keys()
  }
}
