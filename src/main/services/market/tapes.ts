// Trade tapes: a bounded ring buffer of recent trades per market (DESIGN §4 "Memory is bounded"), and the candle
// history built from every trade a tape takes (candle-history.ts), so the two never disagree on what was traded.
import type { CandleHistory } from '../../../shared/candles'
import { TAPE_TRADES } from '../../../shared/ipc'
import type { TradeView, Update } from '../../../shared/model'
import { MarketCandles } from './candle-history'

export type TradeUpdate = Extract<Update, { kind: 'trade' }> & { market: string }

/** A capacity as given; anything but a positive integer is a programming error, so it throws. */
function positiveInteger(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${what} must be a positive integer`)
  return n
}

/** Fixed-capacity FIFO: push is O(1) and overwrites the oldest entry once full. */
export class RingBuffer<T> {
  readonly capacity: number
  private readonly items: (T | undefined)[]
  /** Index of the oldest entry. */
  private head = 0
  private count = 0

  constructor(capacity: number) {
    this.capacity = positiveInteger(capacity, 'ring capacity')
    this.items = new Array<T | undefined>(capacity).fill(undefined)
  }

  get size(): number {
    return this.count
  }

  /** Returns the entry that was evicted to make room, if any. */
  push(item: T): T | undefined {
    if (this.count < this.capacity) {
      const i = this.head + this.count
      this.items[i < this.capacity ? i : i - this.capacity] = item
      this.count++
      return undefined
    }
    const evicted = this.items[this.head]
    this.items[this.head] = item
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1
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

/**
 * Entries with a ts at or after the one checked that a lookup scans before it builds the exact index instead.
 * A scan step is one integer compare, so even a few hundred cost less than the Set's insert and delete.
 */
const SCAN_LIMIT = 256

/** FNV-1a over the UTF-16 code units: lets a scan skip non-matching ids without comparing strings. */
function idHash(id: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193)
  return h | 0
}

/**
 * The venue ids of the last `capacity` trades of one tape (the dedupe window is exactly the tape), answering
 * "is this id still on the tape?".
 *
 * A Set of ids costs a hash insert and delete per trade, which made it the engine's costliest step. A replay
 * resends the same trade, with its original ts, so an id whose ts is newer than every ts on the tape cannot be
 * on it. While the tape's ids arrived in ts order (the common case), the only entries that can match are a
 * short run at the newest end, found by a backwards scan (over id hashes) that stops at the first older ts. When that order
 * breaks (a venue without trade ts, trades out of ts order, a long run of equal ts, a replay of trades the tape
 * never had), the window falls back to an exact Set until every out-of-order entry has left the tape.
 */
export class IdWindow {
  readonly capacity: number
  private readonly ids: (string | undefined)[]
  /** The venue ts of each slot's trade; NaN for a trade without an id (never matched). */
  private readonly ts: Float64Array
  private readonly hashes: Int32Array
  /** The last id `has` hashed, so the `push` that follows does not hash it again. */
  private hashedId: string | undefined = undefined
  private hashedValue = 0
  /** The slot the next push writes (the oldest entry once full). */
  private next = 0
  private count = 0
  /** The newest ts of any id pushed (never lowered; a stale maximum only costs a scan). */
  private newest = Number.NEGATIVE_INFINITY
  /** Exact index of the ids on the window while it is out of order; null while it is in ts order. */
  private seen: Set<string> | null = null
  /** Pushes left before the last out-of-order entry has left the window and the Set can go. */
  private unorderedFor = 0

  constructor(capacity: number) {
    this.capacity = positiveInteger(capacity, 'window capacity')
    this.ids = new Array<string | undefined>(capacity).fill(undefined)
    this.ts = new Float64Array(capacity).fill(Number.NaN)
    this.hashes = new Int32Array(capacity)
  }

  /** Whether lookups currently use the exact index (the window is out of ts order); for tests and profiling. */
  get indexed(): boolean {
    return this.seen !== null
  }

  /** Whether `id` is among the ids in the window. `ts` is the venue's trade ts (null when it sent none). */
  has(id: string, ts: number | null): boolean {
    if (this.seen !== null) return this.seen.has(id)
    if (ts === null || !Number.isFinite(ts)) return this.index().has(id)
    if (ts > this.newest) return false
    const h = idHash(id)
    this.hashedId = id
    this.hashedValue = h
    const times = this.ts
    const hashes = this.hashes
    const cap = this.capacity
    let slot = this.next
    let scanned = 0
    for (let n = this.count; n > 0; n--) {
      slot = slot === 0 ? cap - 1 : slot - 1
      const t = times[slot] as number
      // NaN (a trade without an id) compares false both ways: skipped.
      if (t < ts) return false
      if (t >= ts) {
        if (hashes[slot] === h && this.ids[slot] === id) return true
        if (++scanned > SCAN_LIMIT) return this.index().has(id)
      }
    }
    return false
  }

  /** Records the next trade's id (undefined: a trade without one) and ts, evicting the oldest when full. */
  push(id: string | undefined, ts: number | null): void {
    const slot = this.next
    const evicted = this.ids[slot]
    this.ids[slot] = id
    this.next = slot + 1 === this.capacity ? 0 : slot + 1
    if (this.count < this.capacity) this.count++
    const seen = this.seen
    if (id === undefined) {
      this.ts[slot] = Number.NaN
    } else {
      const finite = ts !== null && Number.isFinite(ts)
      this.ts[slot] = finite ? ts : Number.NaN
      this.hashes[slot] = id === this.hashedId ? this.hashedValue : idHash(id)
      if (finite && ts >= this.newest) this.newest = ts
      else {
        // Out of ts order (or no ts): the backwards scan could stop before this entry, so index it exactly.
        this.index()
        this.unorderedFor = this.capacity + 1
      }
    }
    if (seen !== null || this.seen !== null) {
      const set = this.seen as Set<string>
      if (evicted !== undefined && seen !== null) set.delete(evicted)
      if (id !== undefined) set.add(id)
      if (--this.unorderedFor <= 0) this.seen = null
    }
  }

  clear(): void {
    this.ids.fill(undefined)
    this.ts.fill(Number.NaN)
    this.hashedId = undefined
    this.next = 0
    this.count = 0
    this.newest = Number.NEGATIVE_INFINITY
    this.seen = null
    this.unorderedFor = 0
  }

  /** Switches to the exact index (built from the window), for at least one full window of pushes. */
  private index(): Set<string> {
    if (this.seen === null) {
      const set = new Set<string>()
      for (const id of this.ids) if (id !== undefined) set.add(id)
      this.seen = set
    }
    if (this.unorderedFor < this.capacity) this.unorderedFor = this.capacity
    return this.seen
  }
}

interface Tape {
  trades: RingBuffer<TradeView>
  /** Venue ids of the trades in `trades`, in the same order, so the dedupe window is exactly the tape. */
  ids: IdWindow
  /** The gap epoch this tape has already marked. */
  epoch: number
  candles: MarketCandles
}

/** Tapes set aside (a replay), to be put back later; opaque outside this module. */
export interface HeldTapes {
  readonly tapes: ReadonlyMap<string, Tape>
}

// Module-wide so keys stay unique across stores (a profile switch builds a new store; windows keep old rows).
let nextKey = 0

export class TapeStore {
  private readonly tapes = new Map<string, Tape>()
  private epoch = 0
  /** Trades refused: replays of an id already on the tape, or unusable price/size. */
  duplicates = 0
  rejected = 0

  constructor(readonly capacityPerMarket = TAPE_TRADES) {
    positiveInteger(capacityPerMarket, 'capacityPerMarket')
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
        ids: new IdWindow(this.capacityPerMarket),
        epoch: this.epoch,
        candles: new MarketCandles(),
      }
      this.tapes.set(trade.market, tape)
    }
    const id = trade.id
    const ts = trade.ts
    if (id !== undefined && tape.ids.has(id, ts)) {
      this.duplicates++
      return null
    }
    const view: TradeView = {
      key: 't' + (++nextKey).toString(36),
      market: trade.market,
      price: trade.price,
      size: trade.size,
      side: trade.side,
      ts: ts !== null && Number.isFinite(ts) ? ts : receivedAt,
      receivedAt,
    }
    if (trade.outcome !== undefined) view.outcome = trade.outcome
    if (tape.epoch !== this.epoch) {
      tape.epoch = this.epoch
      if (tape.trades.size > 0) view.gapBefore = true
    }
    tape.trades.push(view)
    tape.ids.push(id, ts)
    tape.candles.add(view)
    return view
  }

  /** The market's candle history, through its tape's newest trade; null when it has no tape. */
  candles(market: string): CandleHistory | null {
    const tape = this.tapes.get(market)
    return tape ? tape.candles.view(tape.trades.last()?.key ?? null) : null
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

  /** Takes every tape (with its candles) out of the store, leaving it empty: a replay must not see them. */
  setAside(): HeldTapes {
    const held = new Map(this.tapes)
    this.tapes.clear()
    return { tapes: held }
  }

  /**
   * Puts back the tapes set aside for the markets `keep` says are still wanted and that have no tape now. Trades
   * were missed meanwhile, so the next one of each market is flagged `gapBefore`.
   */
  restore(held: HeldTapes, keep: (market: string) => boolean): void {
    for (const [market, tape] of held.tapes) {
      if (keep(market) && !this.tapes.has(market)) this.tapes.set(market, tape)
    }
    this.markGap()
  }

  markets(): IterableIterator<string> {
    return this.tapes.keys()
  }
}
