// The store of every watched market's order book and ticker-only data (last trade, venue tickers): applies
// updates, marks books stale or quiet, and builds the views windows get.
import type { BookState, BookView, TickerView, Update } from '../../../shared/model'
import { BookTexts } from './book-texts'
import type { DayOpens } from './day-open'
import { OrderBook, type BookOutcome, type BookUpdate, type TickerUpdate } from './order-book'

export {
  MAX_VIEW_DEPTH,
  OrderBook,
  roundKey,
  type BookOutcome,
  type BookUpdate,
  type DeltaOptions,
  type DeltaOutcome,
  type SnapshotOutcome,
  type TickerUpdate,
} from './order-book'

interface TickerFields {
  bid: number | null
  ask: number | null
  last: number | null
  updatedAt: number | null
  /** Ticker-only data (no book) goes stale on reconnect like a book does. */
  stale: boolean
  /** Silent past the market's own rhythm. */
  quiet: boolean
  /** The venue's own figures (VoxFi): chance of YES in 0–1, volume, liquidity; null until sent. */
  chance: number | null
  volume: number | null
  liquidity: number | null
}

export class BookStore {
  private readonly books = new Map<string, OrderBook>()
  private readonly extra = new Map<string, TickerFields>()
  /** Each market's last whole-book frame, while its book is as that frame left it (book-texts.ts). */
  private readonly texts = new BookTexts<readonly Update[]>()

  /**
   * `usualGap` tells each view how often its market usually updates (the liveness tracker learns it);
   * `dayOpens`, when given, hears every last price and puts the day's open in the ticker.
   */
  constructor(
    private readonly usualGap: (market: string) => number | null = () => null,
    private readonly dayOpens: DayOpens | null = null,
  ) {}

  /** Applies a snapshot or delta to its market's book (created on first use) and says what happened. */
  apply(update: BookUpdate, now: number, source: 'rest' | 'stream' = 'stream'): BookOutcome {
    const book = this.getOrCreate(update.market)
    if (update.outcome === 'no') {
      // The NO book rides in the same frame as the YES book, which decides the book's state.
      return book.applyNo(update.bids, update.asks, update.snapshot) ? 'side' : 'unchanged'
    }
    if (update.snapshot) return book.applySnapshot(update.bids, update.asks, update.seq, now, source)
    return book.applyLevels(
      update.bids,
      update.asks,
      update.seq,
      update.relative === true,
      now,
      update.prevSeq,
    )
  }

  get(market: string): OrderBook | undefined {
    return this.books.get(market)
  }

  has(market: string): boolean {
    return this.books.has(market)
  }

  markets(): IterableIterator<string> {
    return this.books.keys()
  }

  get size(): number {
    return this.books.size
  }

  /** Reconnect: every book (and ticker-only entry) is stale until its next snapshot. Returns the markets touched. */
  markAllStale(reason: string): string[] {
    const touched: string[] = []
    for (const [market, book] of this.books) {
      book.markStale(reason)
      touched.push(market)
    }
    for (const [market, fields] of this.extra) {
      fields.stale = true
      if (!this.books.has(market)) touched.push(market)
    }
    return touched
  }

  /** Creates the book if needed, so a window sees "resyncing" even before the first snapshot. */
  markResyncing(market: string, attempt = 1): void {
    this.getOrCreate(market).markResyncing(attempt)
  }

  /** Flags a silent market quiet (book and ticker-only data alike); true when something changed. */
  markQuiet(market: string): boolean {
    const bookChanged = this.books.get(market)?.markQuiet() ?? false
    const fields = this.extra.get(market)
    const fieldsChanged = fields !== undefined && !fields.stale && !fields.quiet
    if (fieldsChanged) fields.quiet = true
    return bookChanged || fieldsChanged
  }

  /** The market spoke again: lift its quiet mark; true when something changed. */
  clearQuiet(market: string): boolean {
    const bookChanged = this.books.get(market)?.clearQuiet() ?? false
    const fields = this.extra.get(market)
    const fieldsChanged = fields !== undefined && fields.quiet
    if (fieldsChanged) fields.quiet = false
    return bookChanged || fieldsChanged
  }

  /** Ticker-only data silent past its stale limit (a book would be resynced instead). */
  markTickerStale(market: string): boolean {
    const fields = this.extra.get(market)
    if (fields === undefined || fields.stale) return false
    fields.stale = true
    return true
  }

  markStale(market: string, reason: string): void {
    this.books.get(market)?.markStale(reason)
  }

  /** Whether the venue ever sent something for this market while it was watched: a book, a ticker or a trade. */
  heardOf(market: string): boolean {
    return (
      (this.books.get(market)?.updatedAt ?? null) !== null ||
      (this.extra.get(market)?.updatedAt ?? null) !== null
    )
  }

  delete(market: string): void {
    this.books.delete(market)
    this.extra.delete(market)
    this.texts.forget(market)
  }

  clear(): void {
    this.books.clear()
    this.extra.clear()
    this.texts.clear()
  }

  /**
   * The frame `text` (decoded to `updates`) has just been applied as the market's whole book: an identical text
   * next is the same book again. Only a live book is remembered: one the engine cannot vouch for must be read.
   */
  rememberFrame(market: string, text: string, updates: readonly Update[]): void {
    const book = this.books.get(market)
    if (book === undefined || book.state !== 'live') this.texts.forget(market)
    else this.texts.remember(text, { market, book, revision: book.revision, decoded: updates })
  }

  /**
   * The market whose book this text would leave exactly as it is, with what the text was decoded to; null when
   * the text is not its market's last whole book, or the book changed in any way since (then it is read again).
   */
  repeatedFrame(text: string): { market: string; updates: readonly Update[] } | null {
    const entry = this.texts.get(text)
    if (entry === undefined) return null
    const book = this.books.get(entry.market)
    if (book === undefined || book !== entry.book || book.revision !== entry.revision) return null
    return { market: entry.market, updates: entry.decoded }
  }

  /** Markets with a remembered whole-book text (at most one each). */
  get rememberedFrames(): number {
    return this.texts.size
  }

  bookView(market: string, depth: number): BookView | null {
    return this.books.get(market)?.view(depth, this.usualGap(market)) ?? null
  }

  /** Last traded price, from the trade tape. */
  setLast(market: string, price: number, now: number): void {
    if (!Number.isFinite(price)) return
    const fields = this.fields(market)
    fields.last = price
    fields.updatedAt = now
    fields.quiet = false
    this.dayOpens?.note(market, price, now)
    // A fresh trade makes a trades-only entry current again; venue bid/ask wait for their next ticker.
    if (fields.bid === null && fields.ask === null) fields.stale = false
  }

  /** The last traded (or venue-reported) price, without building a view: for the hot path. */
  lastPrice(market: string): number | null {
    return this.extra.get(market)?.last ?? null
  }

  /**
   * For venues that send tickers. The book stays the source of truth for best bid/ask whenever it has them.
   * Returns whether anything a window would see changed (VoxFi repeats its figures with every book).
   */
  applyTicker(update: TickerUpdate, now: number = Date.now()): boolean {
    const fields = this.fields(update.market)
    let changed = fields.stale || fields.quiet || fields.updatedAt === null
    const set = (key: 'bid' | 'ask' | 'last' | 'chance' | 'volume' | 'liquidity', v: number | undefined) => {
      if (v === undefined || !Number.isFinite(v) || fields[key] === v) return
      fields[key] = v
      changed = true
    }
    set('bid', update.bid)
    set('ask', update.ask)
    if (update.last !== undefined && Number.isFinite(update.last)) {
      set('last', update.last)
      this.dayOpens?.note(update.market, update.last, now)
    }
    set('chance', update.chance)
    set('volume', update.volume)
    set('liquidity', update.liquidity)
    fields.updatedAt = now
    fields.stale = false
    fields.quiet = false
    return changed
  }

  ticker(market: string): TickerView | null {
    const book = this.books.get(market)
    const fields = this.extra.get(market)
    if (book === undefined && fields === undefined) return null
    const bookBid = book?.bestBid ?? null
    const bookAsk = book?.bestAsk ?? null
    const state: BookState =
      book !== undefined ? book.state : fields?.stale ? 'stale' : fields?.quiet ? 'quiet' : 'live'
    const view: TickerView = {
      market,
      bestBid: bookBid ?? fields?.bid ?? null,
      bestAsk: bookAsk ?? fields?.ask ?? null,
      last: fields?.last ?? null,
      updatedAt: maxOrNull(book?.updatedAt ?? null, fields?.updatedAt ?? null),
      state,
    }
    if (fields !== undefined) {
      if (fields.chance !== null) view.chance = fields.chance
      if (fields.volume !== null) view.volume = fields.volume
      if (fields.liquidity !== null) view.liquidity = fields.liquidity
    }
    const gap = this.usualGap(market)
    if (gap !== null) view.usualGapMs = Math.round(gap)
    const open = this.dayOpens?.get(market, Date.now()) ?? null
    if (open !== null) {
      view.open = open.price
      view.openAt = open.at
    }
    return view
  }

  private getOrCreate(market: string): OrderBook {
    let book = this.books.get(market)
    if (book === undefined) {
      book = new OrderBook(market)
      this.books.set(market, book)
    }
    return book
  }

  private fields(market: string): TickerFields {
    let fields = this.extra.get(market)
    if (fields === undefined) {
      fields = {
        bid: null,
        ask: null,
        last: null,
        updatedAt: null,
        stale: false,
        quiet: false,
        chance: null,
        volume: null,
        liquidity: null,
      }
      this.extra.set(market, fields)
    }
    return fields
  }
}

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b
  if (b === null) return a
  return a > b ? a : b
}
