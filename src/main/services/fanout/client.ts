// One window's side of the fan-out: what it watches and what is queued for it since its last batch (batch-builder.ts
// turns that queue into a ViewBatch), and what the fan-out asks the engine for.
import type { AlertsView } from '../../../shared/alerts'
import type { CandleHistory } from '../../../shared/candles'
import type { ViewBatch } from '../../../shared/ipc'
import type { BookView, InspectorFrame, StreamStatus, TickerView, TradeView } from '../../../shared/model'
import type { WorkspaceView } from '../../../shared/workspace'
import type { AccountView } from '../../../shared/trading'

export interface FanoutProvider {
  bookView(market: string, depth: number): BookView | null
  ticker(market: string): TickerView | null
  status(): StreamStatus
  /** Absent: the engine has no alerts (tests of the fan-out alone). */
  alerts?(): AlertsView
  /** Absent: the engine keeps no workspaces (tests of the fan-out alone). */
  workspace?(): WorkspaceView
  /** Absent: the engine keeps no account (tests of the fan-out alone). */
  account?(): AccountView
  /**
   * The newest `limit` trades of the market's tape, oldest first: a resume batch's `tapes`. Absent: the engine
   * keeps no tapes (tests of the fan-out alone).
   */
  recentTrades?(market: string, limit: number): TradeView[]
  /** The market's candle history, through its tape's newest trade; sent with a resume batch's tape. */
  recentCandles?(market: string): CandleHistory | null
  /**
   * The inspector's newest `limit` kept frames, oldest first: what a window that turns its inspector on is sent
   * first, so it lists the bad frames the counters already count. Absent: none (tests of the fan-out alone).
   */
  recentFrames?(limit: number): InspectorFrame[]
}

export interface FanoutCounters {
  batches: number
  /** Book views requested from the provider, and ticker views it built (once per market per pass). */
  viewsBuilt: number
  bookViews: number
  tickerViews: number
  droppedTrades: number
  droppedInspector: number
  sinkErrors: number
}

/** A queue of what the next batch carries in its field `K` (batch-builder.ts moves it there whole). */
type Queue<K extends 'trades' | 'user' | 'inspector' | 'alertsFired' | 'journal'> = NonNullable<ViewBatch[K]>

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
  /** Shown since the last batch: the next one says `resume` and carries the tapes of its markets. */
  resume = false
  /**
   * No batch for at least one interval: its next change goes out at once (after the current socket read). A
   * client that got a batch less than one interval ago is busy until `readyAt` and its changes are coalesced.
   */
  idle = true
  readyAt = -Infinity
  /**
   * Per market, the view this window was last sent (whole or as a delta): what its next delta is taken from. Only
   * for a window that takes deltas; forgotten whenever the window may not hold it (batch-builder.ts).
   */
  readonly sentBooks = new Map<string, BookView>()
  /** Markets whose book (and ticker) changed since the last batch. */
  readonly dirtyBooks = new Set<string>()
  /** Markets whose ticker only (last trade, venue ticker) changed. */
  readonly dirtyTickers = new Set<string>()
  trades: Queue<'trades'> = []
  userUpdates: Queue<'user'> = []
  frames: Queue<'inspector'> = []
  status = false
  events = false
  /** The alerts view changed since the last batch. */
  alerts = false
  /** Fired since the last batch; never dropped (each is a notification), and rare by construction. */
  alertsFired: Queue<'alertsFired'> = []
  /** Workspaces, watchlists or big-trade rules changed since the last batch. */
  workspace = false
  /** The account view changed since the last batch. */
  account = false
  /** Journal entries since the last batch; never dropped (each is an order action), and few. */
  journal: Queue<'journal'> = []
  seq = 0
  /** Heartbeat checks since the client was last sent anything (fanout.ts, `heartbeatMs`). */
  silentBeats = 0
  removed = false
  failures = 0

  constructor(
    readonly id: string,
    readonly sink: (batch: ViewBatch) => void,
    depth: number,
    /** Sent books as deltas where it holds their base (ViewBatch.bookDeltas); whole only otherwise. */
    readonly bookDeltas = false,
  ) {
    this.depth = depth
  }

  /** Drops what is queued of its markets (hidden, or removed), and what it was sent of them. */
  dropMarketQueues(): void {
    this.sentBooks.clear()
    this.dirtyBooks.clear()
    this.dirtyTickers.clear()
    this.trades = []
    this.frames = []
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
