// One window's side of the fan-out: what it watches and what is queued for it since its last batch, and how that
// queue becomes a ViewBatch (views built only now, lists capped to their newest entries).
import type { AlertEvent, AlertsView } from '../../../shared/alerts'
import type { ViewBatch } from '../../../shared/ipc'
import type {
  BookView,
  InspectorFrame,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
} from '../../../shared/model'
import type { WorkspaceView } from '../../../shared/workspace'

export interface FanoutProvider {
  bookView(market: string, depth: number): BookView | null
  ticker(market: string): TickerView | null
  status(): StreamStatus
  /** Absent: the engine has no alerts (tests of the fan-out alone). */
  alerts?(): AlertsView
  /** Absent: the engine keeps no workspaces (tests of the fan-out alone). */
  workspace?(): WorkspaceView
}

export interface FanoutCounters {
  batches: number
  /** Book views requested from the provider, and ticker views it built (once per market per pass). */
  viewsBuilt: number
  bookViews: number
  tickerViews: number
  droppedTrades: number
  droppedUser: number
  droppedInspector: number
  sinkErrors: number
}

export const DEFAULT_DEPTH = 25
export const MAX_DEPTH = 1000

export class FanoutClient {
  markets = new Set<string>()
  depth: number
  user = false
  inspector = false
  /**
   * A hidden window is not in the market index at all: no book, ticker or trade work is done for it, and nothing
   * of its markets is queued. It still gets status, events-changed and user updates. Shown again, it gets every
   * market it watches afresh, with `resume`.
   */
  visible = true
  /** Shown since the last batch: the next one says `resume` (trades in between were not sent). */
  resume = false
  /**
   * No batch for at least one interval: its next change goes out at once (after the current socket read). A
   * client that got a batch less than one interval ago is busy until `readyAt` and its changes are coalesced.
   */
  idle = true
  readyAt = -Infinity
  /** Markets whose book (and ticker) changed since the last batch. */
  readonly dirtyBooks = new Set<string>()
  /** Markets whose ticker only (last trade, venue ticker) changed. */
  readonly dirtyTickers = new Set<string>()
  trades: TradeView[] = []
  userUpdates: UserUpdateView[] = []
  frames: InspectorFrame[] = []
  status = false
  events = false
  /** The alerts view changed since the last batch. */
  alerts = false
  /** Fired since the last batch; never dropped (each is a notification), and rare by construction. */
  alertsFired: AlertEvent[] = []
  /** Workspaces, watchlists or big-trade rules changed since the last batch. */
  workspace = false
  seq = 0
  removed = false
  failures = 0

  constructor(
    readonly id: string,
    readonly sink: (batch: ViewBatch) => void,
    depth: number,
  ) {
    this.depth = depth
  }
}

/**
 * Appends with a cap that is enforced lazily: the array may grow to twice the cap before the oldest entries are
 * cut in one splice, which keeps the per-item cost O(1) amortised while memory stays bounded.
 */
export function appendCapped<T>(list: T[], item: T, cap: number): number {
  list.push(item)
  if (list.length >= cap * 2) {
    const drop = list.length - cap
    list.splice(0, drop)
    return drop
  }
  return 0
}

export function trimOldest<T>(list: T[], cap: number): number {
  const drop = list.length - cap
  if (drop <= 0) return 0
  list.splice(0, drop)
  return drop
}

export function clampDepth(depth: number): number {
  if (!Number.isFinite(depth)) return DEFAULT_DEPTH
  return Math.max(1, Math.min(MAX_DEPTH, Math.floor(depth)))
}

export interface BatchSources {
  provider: FanoutProvider
  counters: FanoutCounters
  maxTrades: number
  maxUser: number
  maxFrames: number
  /** The status for this flush (one object shared by every client that needs it). */
  status(): StreamStatus
  /**
   * A market's ticker view for this flush: one object shared by every client that gets it (so the transports
   * serialise it once, batch-json.ts), built on first use and counted then.
   */
  ticker(market: string): TickerView | null
  /** Likewise the alerts view; null when the engine has none. */
  alerts(): AlertsView | null
  workspace(): WorkspaceView | null
}

/** Takes everything queued for the client into its next batch; null when there is nothing to say. */
export function takeBatch(client: FanoutClient, at: number, s: BatchSources): ViewBatch | null {
  const batch: ViewBatch = { seq: client.seq + 1, at }
  let content = false
  if (client.status) {
    client.status = false
    batch.status = s.status()
    content = true
  }
  if (client.resume) {
    client.resume = false
    batch.resume = true
    content = true
  }
  if (client.dirtyBooks.size > 0 || client.dirtyTickers.size > 0) {
    content = buildMarketViews(client, batch, s) || content
  }
  if (client.trades.length > 0) {
    batch.trades = client.trades
    client.trades = []
    s.counters.droppedTrades += trimOldest(batch.trades, s.maxTrades)
    content = true
  }
  if (client.userUpdates.length > 0) {
    batch.user = client.userUpdates
    client.userUpdates = []
    s.counters.droppedUser += trimOldest(batch.user, s.maxUser)
    content = true
  }
  if (client.frames.length > 0) {
    batch.inspector = client.frames
    client.frames = []
    s.counters.droppedInspector += trimOldest(batch.inspector, s.maxFrames)
    content = true
  }
  if (client.events) {
    client.events = false
    batch.eventsChanged = true
    content = true
  }
  if (client.alerts) {
    client.alerts = false
    const view = s.alerts()
    if (view !== null) {
      batch.alerts = view
      content = true
    }
  }
  if (client.alertsFired.length > 0) {
    batch.alertsFired = client.alertsFired
    client.alertsFired = []
    content = true
  }
  if (client.workspace) {
    client.workspace = false
    const view = s.workspace()
    if (view !== null) {
      batch.workspace = view
      content = true
    }
  }
  return content ? batch : null
}

/** Returns whether any view was added. */
function buildMarketViews(client: FanoutClient, batch: ViewBatch, s: BatchSources): boolean {
  const books: BookView[] = []
  const tickers: TickerView[] = []
  for (const market of client.dirtyBooks) {
    const book = s.provider.bookView(market, client.depth)
    s.counters.viewsBuilt++
    s.counters.bookViews++
    if (book !== null) books.push(book)
    const ticker = s.ticker(market)
    if (ticker !== null) tickers.push(ticker)
  }
  for (const market of client.dirtyTickers) {
    if (client.dirtyBooks.has(market)) continue
    const ticker = s.ticker(market)
    if (ticker !== null) tickers.push(ticker)
  }
  client.dirtyBooks.clear()
  client.dirtyTickers.clear()
  if (books.length > 0) batch.books = books
  if (tickers.length > 0) batch.tickers = tickers
  return books.length > 0 || tickers.length > 0
}
