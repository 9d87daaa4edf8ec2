// Turns what is queued for a window into its next ViewBatch. Views are built only now, once per pass however many
// windows get them: a pass's status, alerts and workspace views and each market's ticker view are one object
// shared by every window (so the transports serialise it once, batch-json.ts). Lists are capped to their newest
// entries, the drops counted.
import { TAPE_TRADES, type TapeView, type ViewBatch } from '../../../shared/ipc'
import type { BookDelta, BookView, StreamStatus, TickerView } from '../../../shared/model'
import { BookVersions } from './book-versions'
import { trimOldest, type FanoutClient, type FanoutCounters, type FanoutProvider } from './client'

/** Per client per batch: the most recent N are kept, older ones are dropped (and counted). */
export interface BatchCaps {
  trades: number
  inspector: number
  /** Trades per market in a resume batch's tapes: what a window's tape holds. */
  tape: number
}

export const DEFAULT_BATCH_CAPS: BatchCaps = { trades: 500, inspector: 200, tape: TAPE_TRADES }

/** The views a batch carries whole and every window gets the same of (the engine may keep none). */
type SharedView = 'alerts' | 'workspace' | 'account'

/** One pass's view, built on first need; null when the engine keeps none. */
class PassView<T> {
  private view: T | null = null
  constructor(private readonly build: () => T | null) {}
  get(): T | null {
    return (this.view ??= this.build())
  }
  clear(): void {
    this.view = null
  }
}

export class BatchBuilder {
  private status: StreamStatus | null = null
  private readonly shared: { [K in SharedView]: PassView<NonNullable<ViewBatch[K]>> } = {
    alerts: new PassView(() => this.provider.alerts?.() ?? null),
    workspace: new PassView(() => this.provider.workspace?.() ?? null),
    account: new PassView(() => this.provider.account?.() ?? null),
  }
  private readonly tickers = new Map<string, TickerView | null>()
  private readonly versions = new BookVersions()

  constructor(
    private readonly provider: FanoutProvider,
    private readonly counters: FanoutCounters,
    private readonly caps: BatchCaps,
  ) {}

  /** Ends a pass: the next one builds its shared views afresh. */
  endPass(): void {
    this.status = null
    this.shared.alerts.clear()
    this.shared.workspace.clear()
    this.shared.account.clear()
    this.tickers.clear()
  }

  /** Takes everything queued for the client into its next batch; null when there is nothing to say. */
  take(client: FanoutClient, at: number): ViewBatch | null {
    const batch: ViewBatch = { seq: client.seq + 1, at }
    let content = false
    if (client.status) {
      client.status = false
      batch.status = this.status ??= this.provider.status()
      content = true
    }
    if (client.resume) {
      client.resume = false
      batch.resume = true
      this.addTapes(client, batch)
      content = true
    }
    if (client.dirtyBooks.size > 0 || client.dirtyTickers.size > 0) {
      content = this.addMarketViews(client, batch) || content
    }
    if (client.trades.length > 0) {
      batch.trades = client.trades
      client.trades = []
      this.counters.droppedTrades += trimOldest(batch.trades, this.caps.trades)
      content = true
    }
    if (client.userUpdates.length > 0) {
      batch.user = client.userUpdates
      client.userUpdates = []
      content = true
    }
    if (client.frames.length > 0) {
      batch.inspector = client.frames
      client.frames = []
      this.counters.droppedInspector += trimOldest(batch.inspector, this.caps.inspector)
      content = true
    }
    if (client.events) {
      client.events = false
      batch.eventsChanged = true
      content = true
    }
    if (client.alerts) {
      client.alerts = false
      content = this.addShared(batch, 'alerts') || content
    }
    if (client.alertsFired.length > 0) {
      batch.alertsFired = client.alertsFired
      client.alertsFired = []
      content = true
    }
    if (client.workspace) {
      client.workspace = false
      content = this.addShared(batch, 'workspace') || content
    }
    if (client.account) {
      client.account = false
      content = this.addShared(batch, 'account') || content
    }
    if (client.journal.length > 0) {
      batch.journal = client.journal
      client.journal = []
      content = true
    }
    return content ? batch : null
  }

  /** Returns whether the view was added. */
  private addShared<K extends SharedView>(batch: ViewBatch, key: K): boolean {
    const view = this.shared[key].get()
    if (view === null) return false
    batch[key] = view
    return true
  }

  /**
   * The resume batch's tapes: every watched market's recent trades, up to a window's tape. They hold the trades
   * queued since the window was shown, so those are not sent again in `trades`.
   */
  private addTapes(client: FanoutClient, batch: ViewBatch): void {
    if (this.provider.recentTrades === undefined) return
    const tapes: TapeView[] = []
    for (const market of client.markets) {
      const trades = this.provider.recentTrades(market, this.caps.tape)
      if (trades.length === 0) continue
      // A window hidden for longer than its tape reaches back would otherwise chart a hole before these trades.
      const candles = this.provider.recentCandles?.(market) ?? null
      tapes.push(candles === null ? { market, trades } : { market, trades, candles })
    }
    if (tapes.length === 0) return
    batch.tapes = tapes
    if (client.trades.length > 0) client.trades = client.trades.filter((t) => !client.markets.has(t.market))
  }

  /** Returns whether any view was added. */
  private addMarketViews(client: FanoutClient, batch: ViewBatch): boolean {
    const books: BookView[] = []
    const deltas: BookDelta[] = []
    const tickers: TickerView[] = []
    for (const market of client.dirtyBooks) {
      const book = this.provider.bookView(market, client.depth)
      this.counters.viewsBuilt++
      this.counters.bookViews++
      if (book !== null) {
        if (!client.bookDeltas) books.push(book)
        else this.addBook(client, market, book, books, deltas)
      }
      const ticker = this.ticker(market)
      if (ticker !== null) tickers.push(ticker)
    }
    for (const market of client.dirtyTickers) {
      if (client.dirtyBooks.has(market)) continue
      const ticker = this.ticker(market)
      if (ticker !== null) tickers.push(ticker)
    }
    client.dirtyBooks.clear()
    client.dirtyTickers.clear()
    if (books.length > 0) batch.books = books
    if (deltas.length > 0) batch.bookDeltas = deltas
    if (tickers.length > 0) batch.tickers = tickers
    return books.length > 0 || deltas.length > 0 || tickers.length > 0
  }

  /**
   * A book for a window that takes deltas: as the changes from the view it was last sent, whole when it was sent
   * none the fan-out can vouch for (client.sentBooks) or when a delta would say no less.
   */
  private addBook(
    client: FanoutClient,
    market: string,
    book: BookView,
    books: BookView[],
    deltas: BookDelta[],
  ) {
    const sent = client.sentBooks.get(market)
    const delta = sent === undefined ? null : this.versions.delta(sent, book)
    if (delta !== null) deltas.push(delta)
    else books.push(this.versions.whole(book))
    client.sentBooks.set(market, book)
  }

  /** A market's ticker view for this pass, built on first use and counted then. */
  private ticker(market: string): TickerView | null {
    let view = this.tickers.get(market)
    if (view === undefined) {
      view = this.provider.ticker(market)
      this.counters.viewsBuilt++
      this.counters.tickerViews++
      this.tickers.set(market, view)
    }
    return view
  }
}
