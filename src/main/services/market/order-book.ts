// One market's authoritative order book (DESIGN §4 "Books"): sides kept sorted best-first, snapshot and delta
// rules (sequence gaps, crossed books), the book's state, and the cached top-N view windows get.
import type { BookState, BookView, Level, Update } from '../../../shared/model'

export type BookUpdate = Extract<Update, { kind: 'book' }> & { market: string }
export type TickerUpdate = Extract<Update, { kind: 'ticker' }> & { market: string }
export type DeltaOutcome = 'applied' | 'gap' | 'crossed' | 'ignored'
/** unchanged: the same live book again (a whole-book venue), nothing to apply or show. */
export type SnapshotOutcome = 'snapshot' | 'crossed' | 'unchanged'
/**
 * 'side': the NO contract's book was set beside the YES book, whose own outcome decides the state; 'unchanged':
 * a snapshot or NO book identical to the one held, so nothing changed.
 */
export type BookOutcome = DeltaOutcome | 'snapshot' | 'side' | 'unchanged'

export interface DeltaOptions {
  seq?: number
  prevSeq?: number
  relative?: boolean
}

const SCALE = 1e9

/**
 * Prices and sizes arrive as binary floats (and relative deltas accumulate), so 0.1 + 0.2 must land on the same
 * level as 0.3. Rounding to 1e-9 is exact below ~9e6 and merely deterministic above it.
 */
export function roundKey(x: number): number {
  return Math.round(x * SCALE) / SCALE
}

/**
 * One side of a book as parallel arrays kept sorted best-first. Lookups are a binary search; a size change (the
 * common delta) is an O(1) write; insert/remove is a memmove, which for books of up to a few thousand levels is
 * cheaper than any tree. Top-N extraction is a straight copy of the first N entries.
 */
class BookSide {
  prices: number[] = []
  sizes: number[] = []
  /**
   * The last top-N taken, and the lowest index changed since: a change below the top N (most of a deep book's
   * deltas) or on the other side leaves it as it was, so the next view reuses the same array, and the transports
   * reuse its JSON text (batch-json.ts). Never mutated once handed out.
   */
  private topLevels: Level[] | null = null
  private topDepth = -1
  private changedFrom = 0

  constructor(private readonly descending: boolean) {}

  get length(): number {
    return this.prices.length
  }

  /** Index of `price`, or `-(insertion point) - 1` when absent. */
  find(price: number): number {
    const p = this.prices
    const desc = this.descending
    let lo = 0
    let hi = p.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const v = p[mid] as number
      if (v === price) return mid
      if (desc ? v > price : v < price) lo = mid + 1
      else hi = mid - 1
    }
    return -lo - 1
  }

  /** Absolute size; size 0 removes. Returns false for an unusable level. */
  set(price: number, size: number): boolean {
    if (!Number.isFinite(price) || !Number.isFinite(size) || size < 0) return false
    const key = roundKey(price)
    const i = this.find(key)
    if (size === 0) {
      if (i >= 0) this.removeAt(i)
    } else if (i >= 0) {
      if (this.sizes[i] !== size) this.changed(i)
      this.sizes[i] = size
    } else {
      this.insertAt(-i - 1, key, size)
    }
    return true
  }

  /** Signed change; the level goes away at or below zero. */
  add(price: number, change: number): boolean {
    if (!Number.isFinite(price) || !Number.isFinite(change)) return false
    const key = roundKey(price)
    const i = this.find(key)
    if (i >= 0) {
      const next = roundKey((this.sizes[i] as number) + change)
      if (next <= 0) this.removeAt(i)
      else {
        if (this.sizes[i] !== next) this.changed(i)
        this.sizes[i] = next
      }
    } else if (change > 0) {
      this.insertAt(-i - 1, key, roundKey(change))
    }
    return true
  }

  /** Replaces the whole side. Levels may come in any order; a repeated price keeps its last size. */
  reset(levels: readonly Level[]): number {
    if (this.resetInOrder(levels)) return 0
    let rejected = 0
    const pairs: Level[] = []
    for (const level of levels) {
      const price = level[0]
      const size = level[1]
      if (!Number.isFinite(price) || !Number.isFinite(size) || size < 0) {
        rejected++
        continue
      }
      if (size > 0) pairs.push([roundKey(price), size])
    }
    // Array.prototype.sort is stable, so among equal prices the later one stays later and wins below.
    if (this.descending) pairs.sort(byPriceDesc)
    else pairs.sort(byPriceAsc)
    const prices: number[] = []
    const sizes: number[] = []
    for (const [price, size] of pairs) {
      const last = prices.length - 1
      if (last >= 0 && prices[last] === price) sizes[last] = size
      else {
        prices.push(price)
        sizes.push(size)
      }
    }
    // A venue that sends whole books (VoxFi) often resends one unchanged: only what differs counts as changed, so
    // an unchanged top keeps its array (and its JSON text in every batch).
    const old = this.prices
    const oldSizes = this.sizes
    let first = 0
    const common = Math.min(old.length, prices.length)
    while (first < common && old[first] === prices[first] && oldSizes[first] === sizes[first]) first++
    this.prices = prices
    this.sizes = sizes
    if (first < common || old.length !== prices.length) this.changed(first)
    this.lastResetChanged = first < common || old.length !== prices.length
    return rejected
  }

  /**
   * reset() for the usual whole book: every level usable and strictly best-first, as a venue that sends whole
   * books sends them (VoxFi). Compared with the side as it stands on the way, so an unchanged side keeps its
   * arrays and a changed one copies its unchanged head: no sort, and no pair per level. False, having changed
   * nothing, for any other list (reset() then sorts it).
   */
  private resetInOrder(levels: readonly Level[]): boolean {
    const old = this.prices
    const oldSizes = this.sizes
    const n = levels.length
    let first = -1
    let previous = NaN
    for (let i = 0; i < n; i++) {
      const level = levels[i] as Level
      const size = level[1]
      if (!(size > 0) || !Number.isFinite(size) || !Number.isFinite(level[0])) return false
      const key = roundKey(level[0])
      if (i > 0 && (this.descending ? key >= previous : key <= previous)) return false
      previous = key
      if (first < 0 && (old[i] !== key || oldSizes[i] !== size)) first = i
    }
    if (first < 0 && old.length === n) {
      this.lastResetChanged = false
      return true
    }
    if (first < 0) first = n
    const prices = old.slice(0, first)
    const sizes = oldSizes.slice(0, first)
    for (let i = first; i < n; i++) {
      const level = levels[i] as Level
      prices.push(roundKey(level[0]))
      sizes.push(level[1])
    }
    this.prices = prices
    this.sizes = sizes
    this.changed(first)
    this.lastResetChanged = true
    return true
  }

  /** Whether the last reset() changed anything. */
  lastResetChanged = true

  clear(): void {
    this.prices = []
    this.sizes = []
    this.changed(0)
  }

  top(depth: number): Level[] {
    if (this.topLevels !== null && this.topDepth === depth && this.changedFrom >= depth) return this.topLevels
    const n = Math.min(depth, this.prices.length)
    // Pushed, not preallocated: a packed array, which JSON.stringify (every batch, batch-json.ts) serialises on
    // its fast path; a `new Array(n)` stays holey and costs about 20% more.
    const out: Level[] = []
    for (let i = 0; i < n; i++) out.push([this.prices[i] as number, this.sizes[i] as number])
    this.topLevels = out
    this.topDepth = depth
    this.changedFrom = Infinity
    return out
  }

  /** Level `i` (and, for an insert or removal, every level after it) changed. */
  private changed(i: number): void {
    if (i < this.changedFrom) this.changedFrom = i
  }

  best(): number | null {
    return this.prices.length > 0 ? (this.prices[0] as number) : null
  }

  private insertAt(i: number, price: number, size: number): void {
    this.changed(i)
    if (i === this.prices.length) {
      this.prices.push(price)
      this.sizes.push(size)
    } else {
      this.prices.splice(i, 0, price)
      this.sizes.splice(i, 0, size)
    }
  }

  private removeAt(i: number): void {
    this.changed(i)
    this.prices.splice(i, 1)
    this.sizes.splice(i, 1)
  }
}

function byPriceDesc(a: Level, b: Level): number {
  return b[0] - a[0]
}

function byPriceAsc(a: Level, b: Level): number {
  return a[0] - b[0]
}

export const MAX_VIEW_DEPTH = 1000

export class OrderBook {
  private readonly bids = new BookSide(true)
  private readonly asks = new BookSide(false)
  private _state: BookState = 'empty'
  private _staleReason: string | null = null
  private _seq: number | null = null
  private _updatedAt: number | null = null
  private _resyncAttempt = 0
  /** Bumped on every change, so one built view can be shared by every window asking for the same depth. */
  private version = 0
  private cachedView: BookView | null = null
  private cachedDepth = -1
  private cachedVersion = -1
  private cachedGap: number | null = null
  /**
   * The NO contract's own book, on a venue that keeps it apart from the YES book (VoxFi). It arrives in the same
   * frames as the YES book, so it shares the YES book's state; null until the venue sends one.
   */
  private no: { bids: BookSide; asks: BookSide } | null = null
  /** A REST snapshot until the stream's own first book replaces it. */
  private _source: 'rest' | 'stream' = 'stream'
  /** Levels dropped because price or size was not a usable number. */
  rejectedLevels = 0

  constructor(readonly market: string) {}

  get state(): BookState {
    return this._state
  }
  get staleReason(): string | null {
    return this._staleReason
  }
  get seq(): number | null {
    return this._seq
  }
  get updatedAt(): number | null {
    return this._updatedAt
  }
  get bestBid(): number | null {
    return this.bids.best()
  }
  get bestAsk(): number | null {
    return this.asks.best()
  }
  /** Moves on with every change to the book or its state: equal revisions of one book are the same book. */
  get revision(): number {
    return this.version
  }

  /** Replaces the book wholesale, so nothing from before (a gap, a reconnect) can survive as a ghost level. */
  applySnapshot(
    bids: readonly Level[],
    asks: readonly Level[],
    seq: number | undefined,
    now: number,
    source: 'rest' | 'stream' = 'stream',
  ): SnapshotOutcome {
    this.rejectedLevels += this.bids.reset(bids) + this.asks.reset(asks)
    const nextSeq = seq !== undefined && Number.isFinite(seq) ? seq : null
    if (
      !this.bids.lastResetChanged &&
      !this.asks.lastResetChanged &&
      this._state === 'live' &&
      this._source === source &&
      this._seq === nextSeq
    ) {
      // The same book again (a whole-book venue resending it): nothing to show, and no window is told.
      return 'unchanged'
    }
    this._source = source
    this._seq = nextSeq
    this._updatedAt = now
    this.version++
    if (this.isCrossed()) {
      this.markStale('crossed')
      return 'crossed'
    }
    this._state = 'live'
    this._staleReason = null
    this._resyncAttempt = 0
    return 'snapshot'
  }

  applyDelta(bids: readonly Level[], asks: readonly Level[], opts: DeltaOptions, now: number): DeltaOutcome {
    return this.applyLevels(bids, asks, opts.seq, opts.relative === true, now, opts.prevSeq)
  }

  /** applyDelta without the options object, for the per-frame path. */
  applyLevels(
    bids: readonly Level[],
    asks: readonly Level[],
    seqIn: number | undefined,
    relative: boolean,
    now: number,
    prevSeq?: number,
  ): DeltaOutcome {
    // Only a snapshot can bring an empty, stale or resyncing book back: a delta has nothing sound to apply to.
    // A quiet book is still in sequence; an update is exactly what makes it live again.
    if (this._state !== 'live' && this._state !== 'quiet') return 'ignored'
    const seq = seqIn !== undefined && Number.isFinite(seqIn) ? seqIn : undefined
    if (seq !== undefined && this._seq !== null) {
      if (seq <= this._seq) return 'ignored'
      // With the venue's own "previous" id (Binance U-1, OKX prevSeqId) sequences need not step by one; an
      // overlap with what the book already has is fine because delta sizes are absolute.
      if (prevSeq !== undefined ? prevSeq > this._seq : seq !== this._seq + 1) {
        this.markStale('gap')
        return 'gap'
      }
    }
    for (const level of bids) {
      if (!(relative ? this.bids.add(level[0], level[1]) : this.bids.set(level[0], level[1])))
        this.rejectedLevels++
    }
    for (const level of asks) {
      if (!(relative ? this.asks.add(level[0], level[1]) : this.asks.set(level[0], level[1])))
        this.rejectedLevels++
    }
    if (seq !== undefined) this._seq = seq
    this._updatedAt = now
    this._state = 'live'
    this.version++
    if (this.isCrossed()) {
      this.markStale('crossed')
      return 'crossed'
    }
    return 'applied'
  }

  /**
   * The NO book, in NO prices: a snapshot replaces it, a delta sets levels. It neither makes the book live nor
   * stale: the YES book in the same frame does, and a NO level cannot cross the YES book's own.
   */
  /** Returns whether the NO book changed. */
  applyNo(bids: readonly Level[], asks: readonly Level[], snapshot: boolean): boolean {
    const fresh = this.no === null
    if (this.no === null) this.no = { bids: new BookSide(true), asks: new BookSide(false) }
    const no = this.no
    if (snapshot) {
      this.rejectedLevels += no.bids.reset(bids) + no.asks.reset(asks)
      if (!fresh && !no.bids.lastResetChanged && !no.asks.lastResetChanged) return false
    } else {
      for (const level of bids) if (!no.bids.set(level[0], level[1])) this.rejectedLevels++
      for (const level of asks) if (!no.asks.set(level[0], level[1])) this.rejectedLevels++
    }
    this.version++
    return true
  }

  /** Levels stay visible (as stale) until the next snapshot replaces them. */
  markStale(reason: string): void {
    this._state = 'stale'
    this._staleReason = reason
    this.version++
  }

  /** A fresh snapshot has been requested (attempt n of this episode); the reason it went stale is kept. */
  markResyncing(attempt = 1): void {
    this._state = 'resyncing'
    this._resyncAttempt = attempt
    this.version++
  }

  /** Silent past the market's own rhythm: still in sequence, but no longer vouched for. */
  markQuiet(): boolean {
    if (this._state !== 'live') return false
    this._state = 'quiet'
    this.version++
    return true
  }

  /** The market spoke again (a trade, say): a quiet book is vouched for once more. */
  clearQuiet(): boolean {
    if (this._state !== 'quiet') return false
    this._state = 'live'
    this.version++
    return true
  }

  clear(): void {
    this.bids.clear()
    this.asks.clear()
    this.no = null
    this._source = 'stream'
    this._state = 'empty'
    this._staleReason = null
    this._seq = null
    this._updatedAt = null
    this._resyncAttempt = 0
    this.version++
  }

  best(): { bid: number | null; ask: number | null } {
    return { bid: this.bids.best(), ask: this.asks.best() }
  }

  /** Top `depth` levels per side, best first. The result is shared and must be treated as immutable. */
  view(depth: number, usualGapMs: number | null = null): BookView {
    const d = clampDepth(depth)
    // The learnt gap moves without the book changing, and a quiet book is exactly when a window reads it.
    const gap = usualGapMs === null ? null : Math.round(usualGapMs)
    if (
      this.cachedView !== null &&
      this.cachedVersion === this.version &&
      this.cachedDepth === d &&
      this.cachedGap === gap
    ) {
      return this.cachedView
    }
    const view: BookView = {
      market: this.market,
      state: this._state,
      staleReason: this._staleReason,
      bids: this.bids.top(d),
      asks: this.asks.top(d),
      depth: { bids: this.bids.length, asks: this.asks.length },
      seq: this._seq,
      updatedAt: this._updatedAt,
    }
    if (gap !== null) view.usualGapMs = gap
    if (this._source === 'rest') view.source = 'rest'
    if (this.no !== null) {
      view.no = {
        bids: this.no.bids.top(d),
        asks: this.no.asks.top(d),
        depth: { bids: this.no.bids.length, asks: this.no.asks.length },
      }
    }
    if (this._state === 'resyncing' && this._resyncAttempt > 0) view.resyncAttempt = this._resyncAttempt
    this.cachedView = view
    this.cachedDepth = d
    this.cachedVersion = this.version
    this.cachedGap = gap
    return view
  }

  private isCrossed(): boolean {
    const bid = this.bids.best()
    const ask = this.asks.best()
    return bid !== null && ask !== null && bid >= ask
  }
}

function clampDepth(depth: number): number {
  if (!Number.isFinite(depth) || depth < 0) return 0
  return Math.min(Math.floor(depth), MAX_VIEW_DEPTH)
}
