// Per-window coalescing of engine changes into ViewBatches, at most one per client per interval (DESIGN §4 "Fan-out").
// The hot path only records WHAT changed (set membership, a reference to an immutable view); views are built once,
// at flush time, so a market that changed 1000 times between flushes costs one view. Leading edge per window: a
// change for a window that has had no batch for one interval goes out right after the current socket read; only a
// window that got a batch less than one interval ago waits. A hidden window gets no market data at all.
// The parts: client.ts (one window's state), market-index.ts (who watches what), scheduler.ts (when a pass runs),
// batch-builder.ts (a window's queue as a ViewBatch); this class owns the windows and runs the passes.
import type { AlertEvent } from '../../../shared/alerts'
import type { JournalEntry } from '../../../shared/trading'
import type { ViewBatch } from '../../../shared/ipc'
import type { InspectorFrame, TradeView, UserUpdateView } from '../../../shared/model'
import { BatchBuilder, DEFAULT_BATCH_CAPS } from './batch-builder'
import {
  appendCapped,
  clampDepth,
  DEFAULT_DEPTH,
  FanoutClient as Client,
  type FanoutCounters,
  type FanoutProvider,
} from './client'
import { MarketIndex } from './market-index'
import {
  defaultClearTimer,
  defaultSetTimer,
  FlushScheduler,
  type SchedulerOptions,
  type TimerHandle,
} from './scheduler'
import type { Logger } from '../base/types'
import { errorMessage } from '../base/errors'

export { DEFAULT_DEPTH, MAX_DEPTH, type FanoutCounters, type FanoutProvider } from './client'
export type { TimerHandle } from './scheduler'

export interface FanoutOptions extends SchedulerOptions {
  provider: FanoutProvider
  logger?: Logger
  /** Book depth a client gets until it asks for another (MonitorApi default). */
  defaultDepth?: number
  /**
   * Per client per batch: the most recent N are kept, older ones are dropped (and counted). Account updates have
   * no cap: each one counts for the account, so none is ever dropped.
   */
  maxTradesPerBatch?: number
  maxInspectorPerBatch?: number
  /** Trades per market in a resume batch's tapes (default TAPE_TRADES, what a window's tape holds). */
  tapeTrades?: number
  /**
   * A client sent nothing for about this long gets a heartbeat (a batch of only `seq` and `at`), hidden ones too,
   * so a window can tell a quiet engine from a gone one. Checked every half of it, so the longest silence a
   * window sees is 1.5 × this. 0 or absent: no heartbeats (tests of the fan-out alone).
   */
  heartbeatMs?: number
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
const markAccount = (client: Client): void => {
  client.account = true
}

export class Fanout {
  readonly counters: FanoutCounters = {
    batches: 0,
    viewsBuilt: 0,
    bookViews: 0,
    tickerViews: 0,
    droppedTrades: 0,
    droppedInspector: 0,
    sinkErrors: 0,
  }

  private readonly provider: FanoutProvider
  private readonly logger: Logger
  private readonly defaultDepth: number
  private readonly maxTrades: number
  private readonly maxFrames: number
  private readonly scheduler: FlushScheduler
  private readonly builder: BatchBuilder

  private readonly clients = new Map<string, Client>()
  private readonly index = new MarketIndex()
  private readonly userClients = new Set<Client>()
  /** Visible clients with the inspector on (a hidden window gets no raw frames). */
  private readonly inspectorClients = new Set<Client>()
  /** Clients with something to send. Swapped with `spare` at flush so sinks may re-enter safely. */
  private pending = new Set<Client>()
  private spare = new Set<Client>()
  private flushing = false
  private closed = false
  private readonly heartbeatMs: number
  private readonly setTimer: (fn: () => void, ms: number) => TimerHandle
  private readonly clearTimer: (handle: TimerHandle) => void
  private beatTimer: TimerHandle | null = null

  constructor(options: FanoutOptions) {
    this.provider = options.provider
    this.scheduler = new FlushScheduler(options, (dueBy, at) => this.run(false, dueBy, at))
    this.logger = options.logger ?? console
    this.defaultDepth = clampDepth(options.defaultDepth ?? DEFAULT_DEPTH)
    const caps = DEFAULT_BATCH_CAPS
    this.maxTrades = positiveInt(options.maxTradesPerBatch, caps.trades, 'maxTradesPerBatch')
    this.maxFrames = positiveInt(options.maxInspectorPerBatch, caps.inspector, 'maxInspectorPerBatch')
    this.builder = new BatchBuilder(this.provider, this.counters, {
      trades: this.maxTrades,
      inspector: this.maxFrames,
      tape: positiveInt(options.tapeTrades, caps.tape, 'tapeTrades'),
    })
    this.heartbeatMs = options.heartbeatMs ?? 0
    if (!Number.isFinite(this.heartbeatMs) || this.heartbeatMs < 0)
      throw new RangeError('heartbeatMs must be a non-negative number')
    this.setTimer = options.setTimer ?? defaultSetTimer
    this.clearTimer = options.clearTimer ?? defaultClearTimer
    this.armHeartbeat()
  }

  get clientCount(): number {
    return this.clients.size
  }

  hasClient(id: string): boolean {
    return this.clients.has(id)
  }

  // ---------------------------------------------------------------- clients

  /**
   * The first batch carries the current status, so a new window never starts blank. `bookDeltas`: the window
   * folds book deltas (ViewBatch.bookDeltas) into the views it holds; otherwise every book goes whole.
   */
  addClient(id: string, sink: (batch: ViewBatch) => void, options: { bookDeltas?: boolean } = {}): void {
    if (this.closed) throw new Error('fanout is closed')
    if (this.clients.has(id)) throw new Error(`fanout client ${id} already exists`)
    const client = new Client(id, sink, this.defaultDepth, options.bookDeltas === true)
    this.clients.set(id, client)
    client.status = true
    client.alerts = this.provider.alerts !== undefined
    client.workspace = this.provider.workspace !== undefined
    client.account = this.provider.account !== undefined
    this.touch(client)
  }

  /** Releases everything the client held: its market index entries, queued views and pending send. */
  removeClient(id: string): void {
    const client = this.clients.get(id)
    if (client === undefined) return
    client.removed = true
    this.clients.delete(id)
    if (client.visible) for (const market of client.markets) this.index.remove(client, market)
    client.markets.clear()
    this.userClients.delete(client)
    this.inspectorClients.delete(client)
    this.pending.delete(client)
    this.spare.delete(client)
    client.dropMarketQueues()
    client.userUpdates = []
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
      this.index.remove(client, market)
      client.sentBooks.delete(market)
      client.dirtyBooks.delete(market)
      client.dirtyTickers.delete(market)
      removedAny = true
    }
    let addedAny = false
    for (const market of next) {
      if (prev.has(market)) continue
      this.index.add(client, market)
      client.dirtyBooks.add(market)
      addedAny = true
    }
    client.markets = next
    if (removedAny && client.trades.length > 0)
      client.trades = client.trades.filter((t) => next.has(t.market))
    if (addedAny) this.touch(client)
    return true
  }

  /**
   * Levels per side in this client's book views; every book it watches is re-sent whole at the new depth. The
   * same depth again re-sends them whole too: a window that lost track of a book it holds asks so.
   */
  setDepth(id: string, depth: number): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    const d = clampDepth(depth)
    client.sentBooks.clear()
    if (d === client.depth && !client.bookDeltas) return true
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
   * the engine's state), their tapes (the engine's recent trades, those made while hidden among them) and
   * `resume: true`.
   */
  setVisible(id: string, visible: boolean): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    if (client.visible === visible) return true
    if (!visible) {
      for (const market of client.markets) this.index.remove(client, market)
      client.visible = false
      client.resume = false
      client.dropMarketQueues()
      this.inspectorClients.delete(client)
      return true
    }
    client.visible = true
    for (const market of client.markets) {
      this.index.add(client, market)
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

  /** Turned on, the window is first sent the inspector's recent frames (FanoutProvider.recentFrames). */
  setInspector(id: string, on: boolean): boolean {
    const client = this.clients.get(id)
    if (client === undefined) return false
    const was = client.inspector
    client.inspector = on
    if (on && client.visible) this.inspectorClients.add(client)
    else this.inspectorClients.delete(client)
    if (!on) client.frames = []
    else if (!was && client.visible && this.provider.recentFrames !== undefined) {
      client.frames = this.provider.recentFrames(this.maxFrames).concat(client.frames)
      if (client.frames.length > 0) this.touch(client)
    }
    return true
  }

  // ---------------------------------------------------------------- change notifications (hot path)

  bookChanged(market: string): void {
    const watchers = this.index.bookChanged(market)
    if (watchers !== undefined) this.changed(watchers.idle > 0)
  }

  /** Best bid/ask/last changed without a book change (a trade's last price, a venue ticker). */
  tickerChanged(market: string): void {
    const watchers = this.index.tickerChanged(market)
    if (watchers !== undefined) this.changed(watchers.idle > 0)
  }

  /** Queues the trade for its market's watchers and refreshes their ticker (last price). */
  trade(view: TradeView): void {
    const watchers = this.index.tickerChanged(view.market)
    if (watchers === undefined) return
    for (const client of watchers.clients) {
      this.counters.droppedTrades += appendCapped(client.trades, view, this.maxTrades)
      this.pending.add(client)
    }
    this.changed(watchers.idle > 0)
  }

  user(view: UserUpdateView): void {
    this.queueOn(this.userClients, (client) => {
      client.userUpdates.push(view)
    })
  }

  /** The account changed hands (a profile switch): its updates not yet sent are the old account's. */
  forgetUser(): void {
    for (const client of this.userClients) client.userUpdates = []
  }

  statusChanged(): void {
    this.queueOn(this.clients.values(), markStatus)
  }

  /** Rules, history or the unread count changed: every window gets the new alerts view, hidden ones too. */
  alertsChanged(): void {
    this.queueOn(this.clients.values(), markAlerts)
  }

  /** Workspaces, watchlists or big-trade rules changed: every window gets the new view, hidden ones too. */
  workspaceChanged(): void {
    this.queueOn(this.clients.values(), markWorkspace)
  }

  /** The account or trading state changed: every window gets the new account view, hidden ones too. */
  accountChanged(): void {
    this.queueOn(this.clients.values(), markAccount)
  }

  /** An order action was journalled: every window's blotter gets it. */
  journal(entry: JournalEntry): void {
    this.queueOn(this.clients.values(), (client) => void client.journal.push(entry))
  }

  alertFired(event: AlertEvent): void {
    this.queueOn(this.clients.values(), (client) => void client.alertsFired.push(event))
  }

  inspector(frame: InspectorFrame): void {
    this.queueOn(this.inspectorClients, (client) => {
      this.counters.droppedInspector += appendCapped(client.frames, frame, this.maxFrames)
    })
  }

  eventsChanged(): void {
    this.queueOn(this.clients.values(), markEvents)
  }

  /** Queues something on each of these clients (`mark`) and sends, at once to any that is idle. */
  private queueOn(clients: Iterable<Client>, mark: (client: Client) => void): void {
    let any = false
    let idle = false
    for (const client of clients) {
      mark(client)
      this.pending.add(client)
      any = true
      if (client.idle) idle = true
    }
    if (any) this.changed(idle)
  }

  // ---------------------------------------------------------------- flushing

  /**
   * Sends every pending batch now, whether or not its client's interval has run out (tests, shutdown). The timer
   * and the deferred passes send only to clients that are due. Re-entrant calls are no-ops.
   */
  flush(): void {
    const at = this.scheduler.now()
    this.run(true, at, at)
  }

  /** Stops the timer and drops every client; later notifications are ignored. */
  close(): void {
    this.scheduler.close()
    if (this.beatTimer !== null) this.clearTimer(this.beatTimer)
    this.beatTimer = null
    this.closed = true
    for (const id of [...this.clients.keys()]) this.removeClient(id)
    this.index.clear()
    this.pending.clear()
    this.spare.clear()
  }

  private changed(forIdle: boolean): void {
    if (!this.closed) this.scheduler.changed(forIdle)
  }

  /**
   * One pass: hand out the engine-wide changes, send a batch to every pending client that is due (its last batch
   * at least one interval before `dueBy`, or `force`), keep the others pending, then re-arm the timer.
   */
  private run(force: boolean, dueBy: number, at: number): void {
    if (this.flushing || this.closed) return
    this.index.distribute(this.pending)
    const batchClients = this.pending
    this.pending = this.spare
    this.spare = batchClients
    this.flushing = true
    try {
      for (const client of batchClients) {
        if (client.removed) continue
        // Under load: this client got a batch less than one interval ago, so its changes wait for the timer.
        if (!force && client.readyAt > dueBy) this.pending.add(client)
        else if (this.emit(client, at)) this.markBusy(client, at)
      }
    } finally {
      batchClients.clear()
      this.builder.endPass()
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
      if (client.readyAt <= dueBy && !this.pending.has(client)) this.index.setIdle(client, true)
      else if (client.readyAt < next) next = client.readyAt
    }
    this.scheduler.arm(next, at)
  }

  private markBusy(client: Client, at: number): void {
    client.readyAt = at + this.scheduler.intervalMs
    this.index.setIdle(client, false)
  }

  /** Builds and sends the client's batch; returns whether one was sent. */
  private emit(client: Client, at: number): boolean {
    let batch: ViewBatch | null
    try {
      batch = this.builder.take(client, at)
    } catch (err) {
      // What the batch would have sent is not the window's now.
      client.sentBooks.clear()
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
    client.silentBeats = 0
    try {
      client.sink(batch)
      this.counters.batches++
      client.failures = 0
    } catch (err) {
      // The window may not have got it: the books it holds are no longer known.
      client.sentBooks.clear()
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

  // ---------------------------------------------------------------- heartbeats

  private armHeartbeat(): void {
    if (this.heartbeatMs <= 0 || this.closed) return
    this.beatTimer = this.setTimer(() => this.beat(), this.heartbeatMs / 2)
  }

  /**
   * Every half heartbeat: a client sent nothing during the last two checks gets a heartbeat. Counting checks
   * rather than reading the clock keeps this right when the engine's clock is a replay's or a test's.
   */
  private beat(): void {
    this.beatTimer = null
    if (this.closed) return
    for (const client of this.clients.values()) {
      if (++client.silentBeats < 2) continue
      // Its own seq, like any batch: a window sees one increasing sequence.
      client.seq++
      this.send(client, { seq: client.seq, at: this.scheduler.now() })
    }
    this.armHeartbeat()
  }

  private touch(client: Client): void {
    this.pending.add(client)
    this.changed(client.idle)
  }
}
