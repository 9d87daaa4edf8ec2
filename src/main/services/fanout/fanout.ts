// Per-window coalescing of engine changes into ViewBatches, at most one per client per interval (DESIGN §4 "Fan-out").
// The hot path only records WHAT changed (set membership, a reference to an immutable view); views are built once,
// at flush time, so a market that changed 1000 times between flushes costs one view. Leading edge per window: a
// change for a window that has had no batch for one interval goes out right after the current socket read; only a
// window that got a batch less than one interval ago waits. A hidden window gets no market data at all.
import type { AlertEvent, AlertsView } from '../../../shared/alerts'
import type { WorkspaceView } from '../../../shared/workspace'
import type { ViewBatch } from '../../../shared/ipc'
import type {
  InspectorFrame,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
} from '../../../shared/model'
import {
  appendCapped,
  clampDepth,
  DEFAULT_DEPTH,
  FanoutClient as Client,
  takeBatch,
  type BatchSources,
  type FanoutCounters,
  type FanoutProvider,
} from './client'
import type { Logger } from '../base/types'
import { errorMessage } from '../base/errors'

export { DEFAULT_DEPTH, MAX_DEPTH, type FanoutCounters, type FanoutProvider } from './client'

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
  /**
   * Runs a pass once the current synchronous work (one socket chunk) is done: the leading-edge send to an idle
   * window, or an overdue flush. Default queueMicrotask; injected for tests.
   */
  defer?: (fn: () => void) => void
  logger?: Logger
  /** Book depth a client gets until it asks for another (MonitorApi default). */
  defaultDepth?: number
  /** Per client per batch: the most recent N are kept, older ones are dropped (and counted). */
  maxTradesPerBatch?: number
  maxUserPerBatch?: number
  maxInspectorPerBatch?: number
}

/** Notifications between two clock reads while a flush is pending: keeps the overdue check off the per-frame cost. */
const CLOCK_CHECK_EVERY = 16

/** The visible clients watching one market, and how many of them are idle (a change then goes out at once). */
interface Watchers {
  readonly clients: Set<Client>
  idle: number
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

const markStatus = (client: Client): void => {
  client.status = true
}
const markEvents = (client: Client): void => {
  client.events = true
}
const markAlerts = (client: Client): void => {
  client.alerts = true
}
const markWorkspace = (client: Client): void => {
  client.workspace = true
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
  /** market -> visible clients watching it: a change touches only its watchers. */
  private readonly byMarket = new Map<string, Watchers>()
  /**
   * Watched markets whose book (or only ticker) changed since the last pass, engine-wide: a change costs one set
   * insert however many windows watch the market; `distribute` hands them to the watchers at flush time.
   */
  private readonly changedBooks = new Set<string>()
  private readonly changedTickers = new Set<string>()
  private readonly userClients = new Set<Client>()
  /** Visible clients with the inspector on (a hidden window gets no raw frames). */
  private readonly inspectorClients = new Set<Client>()
  /** Clients with something to send. Swapped with `spare` at flush so sinks may re-enter safely. */
  private pending = new Set<Client>()
  private spare = new Set<Client>()
  /** Armed while any client is busy: fires when the earliest busy client's interval runs out. */
  private timer: TimerHandle | null = null
  /** When the armed timer fires (the earliest `readyAt` of the busy clients). */
  private dueAt = -Infinity
  private notesSinceClockCheck = 0
  /** A pass has been handed to `defer` (leading edge, or an overdue timer) and has not run yet. */
  private deferred = false
  private flushStatus: StreamStatus | null = null
  private flushAlerts: AlertsView | null = null
  private flushWorkspace: WorkspaceView | null = null
  /** This pass's ticker views by market, shared by every client that gets one (batch-json.ts). */
  private readonly flushTickers = new Map<string, TickerView | null>()
  private readonly batchSources: BatchSources
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
    this.batchSources = {
      provider: this.provider,
      counters: this.counters,
      maxTrades: this.maxTrades,
      maxUser: this.maxUser,
      maxFrames: this.maxFrames,
      status: () => (this.flushStatus ??= this.provider.status()),
      alerts: () => (this.flushAlerts ??= this.provider.alerts?.() ?? null),
      workspace: () => (this.flushWorkspace ??= this.provider.workspace?.() ?? null),
      ticker: (market) => {
        let view = this.flushTickers.get(market)
        if (view === undefined) {
          view = this.provider.ticker(market)
          this.counters.viewsBuilt++
          this.counters.tickerViews++
          this.flushTickers.set(market, view)
        }
        return view
      },
    }
    this.onTimer = () => {
      this.timer = null
      // The timer is trusted to mean "the interval has run out" even if it fires a hair early by Date.now().
      const at = this.now()
      this.run(false, Math.max(at, this.dueAt), at)
    }
    this.onDeferred = () => {
      this.deferred = false
      const at = this.now()
      this.run(false, at, at)
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
    client.alerts = this.provider.alerts !== undefined
    client.workspace = this.provider.workspace !== undefined
    this.touch(client)
  }

  /** Releases everything the client held: its market index entries, queued views and pending send. */
  removeClient(id: string): void {
    const client = this.clients.get(id)
    if (client === undefined) return
    client.removed = true
    this.clients.delete(id)
    if (client.visible) for (const market of client.markets) this.unindex(client, market)
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
    if (!client.visible) {
      // Nothing is indexed or queued while hidden; showing the window sends every market in the set afresh.
      client.markets = next
      return true
    }
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
      this.index(client, market)
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
    if (client.visible && client.markets.size > 0) {
      for (const market of client.markets) client.dirtyBooks.add(market)
      this.touch(client)
    }
    return true
  }

  /**
   * Hidden: the window gets status, events-changed and user updates only; its markets leave the index, so their
   * changes cost it nothing and nothing of them is queued (pending views and trades are dropped). Shown: the
   * next batch carries the current book and ticker of every market it watches (built then, so never older than
   * the engine's state) and `resume: true`; trades made while it was hidden are not sent (the window refetches
   * its tapes with getMarketSnapshot).
   */
  setVisible(id: string, visible: boolean): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    if (client.visible === visible) return true
    if (!visible) {
      for (const market of client.markets) this.unindex(client, market)
      client.visible = false
      client.resume = false
      client.dirtyBooks.clear()
      client.dirtyTickers.clear()
      client.trades = []
      client.frames = []
      this.inspectorClients.delete(client)
      return true
    }
    client.visible = true
    for (const market of client.markets) {
      this.index(client, market)
      client.dirtyBooks.add(market)
    }
    if (client.inspector) this.inspectorClients.add(client)
    client.resume = true
    this.touch(client)
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
    if (on && client.visible) this.inspectorClients.add(client)
    else this.inspectorClients.delete(client)
    if (!on) client.frames = []
    return true
  }

  // ---------------------------------------------------------------- change notifications (hot path)

  bookChanged(market: string): void {
    const watchers = this.byMarket.get(market)
    if (watchers === undefined) return
    this.changedBooks.add(market)
    this.changed(watchers.idle > 0)
  }

  /** Best bid/ask/last changed without a book change (a trade's last price, a venue ticker). */
  tickerChanged(market: string): void {
    const watchers = this.byMarket.get(market)
    if (watchers === undefined) return
    this.changedTickers.add(market)
    this.changed(watchers.idle > 0)
  }

  /** Queues the trade for its market's watchers and refreshes their ticker (last price). */
  trade(view: TradeView): void {
    const watchers = this.byMarket.get(view.market)
    if (watchers === undefined) return
    for (const client of watchers.clients) {
      this.counters.droppedTrades += appendCapped(client.trades, view, this.maxTrades)
      this.pending.add(client)
    }
    this.changedTickers.add(view.market)
    this.changed(watchers.idle > 0)
  }

  user(view: UserUpdateView): void {
    if (this.userClients.size === 0) return
    let idle = false
    for (const client of this.userClients) {
      this.counters.droppedUser += appendCapped(client.userUpdates, view, this.maxUser)
      this.pending.add(client)
      if (client.idle) idle = true
    }
    this.changed(idle)
  }

  statusChanged(): void {
    this.forEveryClient(markStatus)
  }

  /** Rules, history or the unread count changed: every window gets the new alerts view, hidden ones too. */
  alertsChanged(): void {
    this.forEveryClient(markAlerts)
  }

  /** Workspaces, watchlists or big-trade rules changed: every window gets the new view, hidden ones too. */
  workspaceChanged(): void {
    this.forEveryClient(markWorkspace)
  }

  alertFired(event: AlertEvent): void {
    this.forEveryClient((client) => void client.alertsFired.push(event))
  }

  inspector(frame: InspectorFrame): void {
    if (this.inspectorClients.size === 0) return
    let idle = false
    for (const client of this.inspectorClients) {
      this.counters.droppedInspector += appendCapped(client.frames, frame, this.maxFrames)
      this.pending.add(client)
      if (client.idle) idle = true
    }
    this.changed(idle)
  }

  eventsChanged(): void {
    this.forEveryClient(markEvents)
  }

  /** Something every window gets, hidden ones too (status, events listing, alerts): mark each and send. */
  private forEveryClient(mark: (client: Client) => void): void {
    if (this.clients.size === 0) return
    let idle = false
    for (const client of this.clients.values()) {
      mark(client)
      this.pending.add(client)
      if (client.idle) idle = true
    }
    this.changed(idle)
  }

  // ---------------------------------------------------------------- flushing

  /**
   * Sends every pending batch now, whether or not its client's interval has run out (tests, shutdown). The timer
   * and the deferred passes send only to clients that are due. Re-entrant calls are no-ops.
   */
  flush(): void {
    const at = this.now()
    this.run(true, at, at)
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

  /**
   * A change was recorded. If it concerns an idle client it goes out at once, but never from inside the
   * notification: the pass runs when the current synchronous work (one socket read, every update of its frames)
   * is done. Otherwise the busy clients' timer sends it when their interval runs out.
   */
  private changed(forIdle: boolean): void {
    if (this.closed) return
    if (forIdle || this.timer === null) {
      this.runSoon()
      return
    }
    // The timer is pending. If it is overdue, the event loop is busy reading the socket: flush as soon as the
    // current chunk of frames is done (a frame's updates stay in one batch), still at most once per interval.
    if (this.deferred || ++this.notesSinceClockCheck < CLOCK_CHECK_EVERY) return
    this.notesSinceClockCheck = 0
    if (this.now() < this.dueAt + this.overdueMs) return
    this.runSoon()
  }

  private runSoon(): void {
    if (this.deferred) return
    this.deferred = true
    this.defer(this.onDeferred)
  }

  /**
   * One pass: hand out the engine-wide changes, send a batch to every pending client that is due (its last batch
   * at least one interval before `dueBy`, or `force`), keep the others pending, then re-arm the timer.
   */
  private run(force: boolean, dueBy: number, at: number): void {
    if (this.flushing || this.closed) return
    this.distribute()
    const batchClients = this.pending
    this.pending = this.spare
    this.spare = batchClients
    this.flushing = true
    this.flushStatus = null
    this.flushAlerts = null
    this.flushWorkspace = null
    try {
      for (const client of batchClients) {
        if (client.removed) continue
        // Under load: this client got a batch less than one interval ago, so its changes wait for the timer.
        if (!force && client.readyAt > dueBy) this.pending.add(client)
        else if (this.emit(client, at)) this.markBusy(client, at)
      }
    } finally {
      batchClients.clear()
      this.flushStatus = null
      this.flushAlerts = null
      this.flushWorkspace = null
      this.flushTickers.clear()
      this.flushing = false
    }
    this.settle(dueBy, at)
  }

  /**
   * Busy clients whose interval ran out with nothing to send become idle again; the timer is armed for the
   * earliest busy client. A client a sink changed during the pass gets it when its interval ends, not in a loop.
   */
  private settle(dueBy: number, at: number): void {
    let next = Infinity
    for (const client of this.clients.values()) {
      if (client.idle) continue
      if (client.readyAt <= dueBy && !this.pending.has(client)) this.setIdle(client, true)
      else if (client.readyAt < next) next = client.readyAt
    }
    if (next === Infinity) {
      if (this.timer !== null) {
        this.clearTimer(this.timer)
        this.timer = null
      }
      return
    }
    if (this.timer !== null) {
      if (next === this.dueAt) return
      this.clearTimer(this.timer)
    }
    this.dueAt = next
    this.notesSinceClockCheck = 0
    this.timer = this.setTimer(this.onTimer, Math.max(0, next - at))
  }

  private markBusy(client: Client, at: number): void {
    client.readyAt = at + this.intervalMs
    this.setIdle(client, false)
  }

  /** Keeps each market's count of idle watchers, which the hot path reads instead of its watchers. */
  private setIdle(client: Client, idle: boolean): void {
    if (client.idle === idle) return
    client.idle = idle
    if (!client.visible) return
    const delta = idle ? 1 : -1
    for (const market of client.markets) {
      const watchers = this.byMarket.get(market)
      if (watchers !== undefined) watchers.idle += delta
    }
  }

  /** Builds and sends the client's batch; returns whether one was sent. */
  private emit(client: Client, at: number): boolean {
    let batch: ViewBatch | null
    try {
      batch = takeBatch(client, at, this.batchSources)
    } catch (err) {
      // A provider bug must cost this one batch, not every window's.
      this.logger.error('fanout could not build a batch', { client: client.id, error: errorMessage(err) })
      return false
    }
    // E.g. a newly watched market that has no book yet: nothing to say, so say nothing.
    if (batch === null) return false
    client.seq = batch.seq
    this.send(client, batch)
    return true
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
          error: errorMessage(err),
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
        for (const client of watchers.clients) {
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
        for (const client of watchers.clients) {
          client.dirtyTickers.add(market)
          this.pending.add(client)
        }
      }
      this.changedTickers.clear()
    }
  }

  private touch(client: Client): void {
    this.pending.add(client)
    this.changed(client.idle)
  }

  private index(client: Client, market: string): void {
    let watchers = this.byMarket.get(market)
    if (watchers === undefined) {
      watchers = { clients: new Set(), idle: 0 }
      this.byMarket.set(market, watchers)
    }
    if (watchers.clients.has(client)) return
    watchers.clients.add(client)
    if (client.idle) watchers.idle++
  }

  private unindex(client: Client, market: string): void {
    const watchers = this.byMarket.get(market)
    if (watchers === undefined || !watchers.clients.delete(client)) return
    if (client.idle) watchers.idle--
    if (watchers.clients.size === 0) this.byMarket.delete(market)
  }

  private resetQueues(client: Client): void {
    client.dirtyBooks.clear()
    client.dirtyTickers.clear()
    client.trades = []
    client.userUpdates = []
    client.frames = []
  }
}
