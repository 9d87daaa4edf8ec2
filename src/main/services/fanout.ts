// Per-window coalescing of engine changes into ViewBatches, at most one per client per interval (DESIGN §4 "Fan-out").
// The hot path only records WHAT changed (set membership, a reference to an immutable view); views are built once,
// at flush time, so a market that changed 1000 times between flushes costs one view.
import type { ViewBatch } from '../../shared/ipc'
import type {
  BookView,
  InspectorFrame,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
} from '../../shared/model'
import type { Logger } from './types'

export interface FanoutProvider {
  bookView(market: string, depth: number): BookView | null
  ticker(market: string): TickerView | null
  status(): StreamStatus
}

export type TimerHandle = unknown

export interface FanoutOptions {
  provider: FanoutProvider
  /** Minimum time between two batches (default 16 ms). */
  intervalMs?: number
  now?: () => number
  /** Injected for tests; the default timer is unref'd so it never keeps the process alive. */
  setTimer?: (fn: () => void, ms: number) => TimerHandle
  clearTimer?: (handle: TimerHandle) => void
  /**
   * How late the timer may be before a change notification flushes in its place (default 2 ms). Under a firehose
   * Node reads many socket chunks, tens of ms of frames, before it runs timers; without this the windows would
   * get their batches that much less often.
   */
  overdueMs?: number
  /** Runs an overdue flush once the current synchronous work (one socket chunk) is done; injected for tests. */
  defer?: (fn: () => void) => void
  logger?: Logger
  /** Book depth a client gets until it asks for another (MonitorApi default). */
  defaultDepth?: number
  /** Per client per batch: the most recent N are kept, older ones are dropped (and counted). */
  maxTradesPerBatch?: number
  maxUserPerBatch?: number
  maxInspectorPerBatch?: number
}

export interface FanoutCounters {
  batches: number
  /** Book and ticker views requested from the provider. */
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
/** Notifications between two clock reads while a flush is pending: keeps the overdue check off the per-frame cost. */
const CLOCK_CHECK_EVERY = 16

class Client {
  markets = new Set<string>()
  depth: number
  user = false
  inspector = false
  /** Markets whose book (and ticker) changed since the last batch. */
  readonly dirtyBooks = new Set<string>()
  /** Markets whose ticker only (last trade, venue ticker) changed. */
  readonly dirtyTickers = new Set<string>()
  trades: TradeView[] = []
  userUpdates: UserUpdateView[] = []
  frames: InspectorFrame[] = []
  status = false
  events = false
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

function defaultSetTimer(fn: () => void, ms: number): TimerHandle {
  const t = setTimeout(fn, ms)
  t.unref()
  return t
}

function defaultClearTimer(handle: TimerHandle): void {
  clearTimeout(handle as ReturnType<typeof setTimeout>)
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`)
  return value
}

/**
 * Appends with a cap that is enforced lazily: the array may grow to twice the cap before the oldest entries are
 * cut in one splice, which keeps the per-item cost O(1) amortised while memory stays bounded.
 */
function appendCapped<T>(list: T[], item: T, cap: number): number {
  list.push(item)
  if (list.length >= cap * 2) {
    const drop = list.length - cap
    list.splice(0, drop)
    return drop
  }
  return 0
}

function trimOldest<T>(list: T[], cap: number): number {
  const drop = list.length - cap
  if (drop <= 0) return 0
  list.splice(0, drop)
  return drop
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

export class Fanout {
  readonly counters: FanoutCounters = {
    batches: 0,
    viewsBuilt: 0,
    bookViews: 0,
    tickerViews: 0,
    droppedTrades: 0,
    droppedUser: 0,
    droppedInspector: 0,
    sinkErrors: 0,
  }

  private readonly provider: FanoutProvider
  private readonly intervalMs: number
  private readonly now: () => number
  private readonly setTimer: (fn: () => void, ms: number) => TimerHandle
  private readonly clearTimer: (handle: TimerHandle) => void
  private readonly overdueMs: number
  private readonly defer: (fn: () => void) => void
  private readonly logger: Logger
  private readonly defaultDepth: number
  private readonly maxTrades: number
  private readonly maxUser: number
  private readonly maxFrames: number

  private readonly clients = new Map<string, Client>()
  /** market -> clients watching it: a change touches only its watchers. */
  private readonly byMarket = new Map<string, Set<Client>>()
  /**
   * Watched markets whose book (or only ticker) changed since the last flush, engine-wide: a change costs one set
   * insert however many windows watch the market; `distribute` hands them to the watchers at flush time.
   */
  private readonly changedBooks = new Set<string>()
  private readonly changedTickers = new Set<string>()
  private readonly userClients = new Set<Client>()
  private readonly inspectorClients = new Set<Client>()
  /** Clients with something to send. Swapped with `spare` at flush so sinks may re-enter safely. */
  private pending = new Set<Client>()
  private spare = new Set<Client>()
  private timer: TimerHandle | null = null
  /** When the pending timer should fire; never earlier than one interval after the last flush. */
  private dueAt = -Infinity
  private notesSinceClockCheck = 0
  /** An overdue flush has been handed to `defer` and has not run yet. */
  private deferred = false
  private lastFlushAt = -Infinity
  private flushStatus: StreamStatus | null = null
  private flushing = false
  private closed = false
  private readonly onTimer: () => void
  private readonly onDeferred: () => void

  constructor(options: FanoutOptions) {
    this.provider = options.provider
    const interval = options.intervalMs ?? 16
    if (!Number.isFinite(interval) || interval < 0)
      throw new RangeError('intervalMs must be a non-negative number')
    this.intervalMs = interval
    this.now = options.now ?? Date.now
    this.setTimer = options.setTimer ?? defaultSetTimer
    this.clearTimer = options.clearTimer ?? defaultClearTimer
    const overdue = options.overdueMs ?? 2
    if (!Number.isFinite(overdue) || overdue < 0)
      throw new RangeError('overdueMs must be a non-negative number')
    this.overdueMs = overdue
    this.defer = options.defer ?? queueMicrotask
    this.logger = options.logger ?? console
    this.defaultDepth = clampDepth(options.defaultDepth ?? DEFAULT_DEPTH)
    this.maxTrades = positiveInt(options.maxTradesPerBatch, 500, 'maxTradesPerBatch')
    this.maxUser = positiveInt(options.maxUserPerBatch, 500, 'maxUserPerBatch')
    this.maxFrames = positiveInt(options.maxInspectorPerBatch, 200, 'maxInspectorPerBatch')
    this.onTimer = () => {
      this.timer = null
      this.flush()
    }
    this.onDeferred = () => {
      this.deferred = false
      // The timer may have been replaced since (an explicit flush): only a timer that is due may be pre-empted.
      if (this.timer !== null && this.now() >= this.dueAt) this.flush()
    }
  }

  get clientCount(): number {
    return this.clients.size
  }

  hasClient(id: string): boolean {
    return this.clients.has(id)
  }

  // ---------------------------------------------------------------- clients

  /** The first batch carries the current status, so a new window never starts blank. */
  addClient(id: string, sink: (batch: ViewBatch) => void): void {
    if (this.closed) throw new Error('fanout is closed')
    if (this.clients.has(id)) throw new Error(`fanout client ${id} already exists`)
    const client = new Client(id, sink, this.defaultDepth)
    this.clients.set(id, client)
    client.status = true
    this.touch(client)
  }

  /** Releases everything the client held: its market index entries, queued views and pending send. */
  removeClient(id: string): void {
    const client = this.clients.get(id)
    if (client === undefined) return
    client.removed = true
    this.clients.delete(id)
    for (const market of client.markets) this.unindex(client, market)
    client.markets.clear()
    this.userClients.delete(client)
    this.inspectorClients.delete(client)
    this.pending.delete(client)
    this.spare.delete(client)
    this.resetQueues(client)
  }

  /** Markets whose books, tickers and trades this client gets. Newly added ones are sent in the next batch. */
  setClientMarkets(id: string, markets: Iterable<string>): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    const next = new Set(markets)
    const prev = client.markets
    let removedAny = false
    for (const market of prev) {
      if (next.has(market)) continue
      this.unindex(client, market)
      client.dirtyBooks.delete(market)
      client.dirtyTickers.delete(market)
      removedAny = true
    }
    let addedAny = false
    for (const market of next) {
      if (prev.has(market)) continue
      let watchers = this.byMarket.get(market)
      if (watchers === undefined) {
        watchers = new Set()
        this.byMarket.set(market, watchers)
      }
      watchers.add(client)
      client.dirtyBooks.add(market)
      addedAny = true
    }
    client.markets = next
    if (removedAny && client.trades.length > 0)
      client.trades = client.trades.filter((t) => next.has(t.market))
    if (addedAny) this.touch(client)
    return true
  }

  /** Levels per side in this client's book views; every book it watches is re-sent at the new depth. */
  setDepth(id: string, depth: number): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    const d = clampDepth(depth)
    if (d === client.depth) return true
    client.depth = d
    if (client.markets.size > 0) {
      for (const market of client.markets) client.dirtyBooks.add(market)
      this.touch(client)
    }
    return true
  }

  setUser(id: string, on: boolean): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    client.user = on
    if (on) this.userClients.add(client)
    else {
      this.userClients.delete(client)
      client.userUpdates = []
    }
    return true
  }

  setInspector(id: string, on: boolean): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    client.inspector = on
    if (on) this.inspectorClients.add(client)
    else {
      this.inspectorClients.delete(client)
      client.frames = []
    }
    return true
  }

  // ---------------------------------------------------------------- change notifications (hot path)

  bookChanged(market: string): void {
    if (!this.byMarket.has(market)) return
    this.changedBooks.add(market)
    this.schedule()
  }

  /** Best bid/ask/last changed without a book change (a trade's last price, a venue ticker). */
  tickerChanged(market: string): void {
    if (!this.byMarket.has(market)) return
    this.changedTickers.add(market)
    this.schedule()
  }

  /** Queues the trade for its market's watchers and refreshes their ticker (last price). */
  trade(view: TradeView): void {
    const watchers = this.byMarket.get(view.market)
    if (watchers === undefined) return
    for (const client of watchers) {
      this.counters.droppedTrades += appendCapped(client.trades, view, this.maxTrades)
      this.pending.add(client)
    }
    this.changedTickers.add(view.market)
    this.schedule()
  }

  user(view: UserUpdateView): void {
    if (this.userClients.size === 0) return
    for (const client of this.userClients) {
      this.counters.droppedUser += appendCapped(client.userUpdates, view, this.maxUser)
      this.pending.add(client)
    }
    this.schedule()
  }

  statusChanged(): void {
    if (this.clients.size === 0) return
    for (const client of this.clients.values()) {
      client.status = true
      this.pending.add(client)
    }
    this.schedule()
  }

  inspector(frame: InspectorFrame): void {
    if (this.inspectorClients.size === 0) return
    for (const client of this.inspectorClients) {
      this.counters.droppedInspector += appendCapped(client.frames, frame, this.maxFrames)
      this.pending.add(client)
    }
    this.schedule()
  }

  eventsChanged(): void {
    if (this.clients.size === 0) return
    for (const client of this.clients.values()) {
      client.events = true
      this.pending.add(client)
    }
    this.schedule()
  }

  // ---------------------------------------------------------------- flushing

  /** Sends every pending batch now. The timer calls this; tests and shutdown may too. Re-entrant calls are no-ops. */
  flush(): void {
    if (this.flushing) return
    if (this.timer !== null) {
      this.clearTimer(this.timer)
      this.timer = null
    }
    if (this.closed) return
    this.distribute()
    if (this.pending.size === 0) return
    const batchClients = this.pending
    this.pending = this.spare
    this.spare = batchClients
    this.flushing = true
    this.lastFlushAt = this.now()
    this.flushStatus = null
    try {
      for (const client of batchClients) {
        if (!client.removed) this.emit(client, this.lastFlushAt)
      }
    } finally {
      batchClients.clear()
      this.flushStatus = null
      this.flushing = false
    }
    // A sink that changed something while we were sending gets it in the next interval, not in a tight loop.
    if (this.pending.size > 0) this.schedule()
  }

  /** Stops the timer and drops every client; later notifications are ignored. */
  close(): void {
    if (this.timer !== null) {
      this.clearTimer(this.timer)
      this.timer = null
    }
    this.closed = true
    for (const id of [...this.clients.keys()]) this.removeClient(id)
    this.byMarket.clear()
    this.changedBooks.clear()
    this.changedTickers.clear()
    this.pending.clear()
    this.spare.clear()
  }

  private emit(client: Client, at: number): void {
    const batch: ViewBatch = { seq: client.seq + 1, at }
    let content = false
    try {
      if (client.status) {
        client.status = false
        // One status object per flush, shared by every client that needs it.
        this.flushStatus ??= this.provider.status()
        batch.status = this.flushStatus
        content = true
      }
      if (client.dirtyBooks.size > 0 || client.dirtyTickers.size > 0) {
        content = this.buildMarketViews(client, batch) || content
      }
      if (client.trades.length > 0) {
        batch.trades = client.trades
        client.trades = []
        this.counters.droppedTrades += trimOldest(batch.trades, this.maxTrades)
        content = true
      }
      if (client.userUpdates.length > 0) {
        batch.user = client.userUpdates
        client.userUpdates = []
        this.counters.droppedUser += trimOldest(batch.user, this.maxUser)
        content = true
      }
      if (client.frames.length > 0) {
        batch.inspector = client.frames
        client.frames = []
        this.counters.droppedInspector += trimOldest(batch.inspector, this.maxFrames)
        content = true
      }
      if (client.events) {
        client.events = false
        batch.eventsChanged = true
        content = true
      }
    } catch (err) {
      // A provider bug must cost this one batch, not every window's.
      this.logger.error('fanout could not build a batch', { client: client.id, error: errorText(err) })
      return
    }
    // E.g. a newly watched market that has no book yet: nothing to say, so say nothing.
    if (!content) return
    client.seq = batch.seq
    this.send(client, batch)
  }

  /** Returns whether any view was added. */
  private buildMarketViews(client: Client, batch: ViewBatch): boolean {
    const books: BookView[] = []
    const tickers: TickerView[] = []
    for (const market of client.dirtyBooks) {
      const book = this.provider.bookView(market, client.depth)
      this.counters.viewsBuilt++
      this.counters.bookViews++
      if (book !== null) books.push(book)
      const ticker = this.provider.ticker(market)
      this.counters.viewsBuilt++
      this.counters.tickerViews++
      if (ticker !== null) tickers.push(ticker)
    }
    for (const market of client.dirtyTickers) {
      if (client.dirtyBooks.has(market)) continue
      const ticker = this.provider.ticker(market)
      this.counters.viewsBuilt++
      this.counters.tickerViews++
      if (ticker !== null) tickers.push(ticker)
    }
    client.dirtyBooks.clear()
    client.dirtyTickers.clear()
    if (books.length > 0) batch.books = books
    if (tickers.length > 0) batch.tickers = tickers
    return books.length > 0 || tickers.length > 0
  }

  private send(client: Client, batch: ViewBatch): void {
    try {
      client.sink(batch)
      this.counters.batches++
      client.failures = 0
    } catch (err) {
      this.counters.sinkErrors++
      client.failures++
      // First failure and then every 100th: a broken window must not flood the log at 60 Hz.
      if (client.failures === 1 || client.failures % 100 === 0) {
        this.logger.warn('fanout sink failed', {
          client: client.id,
          failures: client.failures,
          error: errorText(err),
        })
      }
    }
  }

  /** Marks the engine-wide changes on the clients watching them now (a window that stopped watching gets none). */
  private distribute(): void {
    if (this.changedBooks.size > 0) {
      for (const market of this.changedBooks) {
        const watchers = this.byMarket.get(market)
        if (watchers === undefined) continue
        for (const client of watchers) {
          client.dirtyBooks.add(market)
          this.pending.add(client)
        }
      }
      this.changedBooks.clear()
    }
    if (this.changedTickers.size > 0) {
      for (const market of this.changedTickers) {
        const watchers = this.byMarket.get(market)
        if (watchers === undefined) continue
        for (const client of watchers) {
          client.dirtyTickers.add(market)
          this.pending.add(client)
        }
      }
      this.changedTickers.clear()
    }
  }

  private touch(client: Client): void {
    this.pending.add(client)
    this.schedule()
  }

  private schedule(): void {
    if (this.closed) return
    if (this.timer === null) {
      // After a quiet spell the first change goes out on the next tick; under load, one batch per interval.
      const now = this.now()
      const delay = Math.max(0, this.lastFlushAt + this.intervalMs - now)
      this.dueAt = now + delay
      this.notesSinceClockCheck = 0
      this.timer = this.setTimer(this.onTimer, delay)
      return
    }
    // The timer is pending. If it is overdue, the event loop is busy reading the socket: flush as soon as the
    // current chunk of frames is done (a frame's updates stay in one batch), still at most once per interval.
    if (this.deferred || ++this.notesSinceClockCheck < CLOCK_CHECK_EVERY) return
    this.notesSinceClockCheck = 0
    if (this.now() < this.dueAt + this.overdueMs) return
    this.deferred = true
    this.defer(this.onDeferred)
  }

  private unindex(client: Client, market: string): void {
    const watchers = this.byMarket.get(market)
    if (watchers === undefined) return
    watchers.delete(client)
    if (watchers.size === 0) this.byMarket.delete(market)
  }

  private resetQueues(client: Client): void {
    client.dirtyBooks.clear()
    client.dirtyTickers.clear()
    client.trades = []
    client.userUpdates = []
    client.frames = []
  }
}

function clampDepth(depth: number): number {
  if (!Number.isFinite(depth)) return DEFAULT_DEPTH
  return Math.max(1, Math.min(MAX_DEPTH, Math.floor(depth)))
}
