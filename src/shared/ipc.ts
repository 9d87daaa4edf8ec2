// THE contract between the engine (main process or browser host) and a window.
// Every renderer talks to main only through MonitorApi; the preload and the browser bridge both implement it.
import type { AlertEvent, AlertRuleInput, AlertRuleView, AlertsView, KeepRunning } from './alerts'
import type { CandleHistory } from './candles'
import type { PriceUnit } from './price-format'
import type {
  ApiError,
  BookDelta,
  BookView,
  ChannelFilter,
  EventSummary,
  InspectorFrame,
  Profile,
  RecordingInfo,
  RecordingStatus,
  ReplayStatus,
  Result,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
  WindowTarget,
} from './model'
import type {
  AccountView,
  CancelAllResult,
  JournalEntry,
  MergeResult,
  OrderRequest,
  OrderView,
  TradingSettingsInput,
  TradingView,
} from './trading'
import type {
  BigTradeRule,
  Watchlist,
  WatchlistInput,
  Workspace,
  WorkspaceInput,
  WorkspaceView,
} from './workspace'

/** What one window wants to watch. The engine keeps the union over all windows. */
export type Interest =
  | { channel: 'market'; id: string; filter: ChannelFilter }
  | { channel: 'event'; id: string; filter: ChannelFilter }
  | { channel: 'user' }

/** A market's recent trades as the engine's tape holds them, oldest first. */
export interface TapeView {
  market: string
  trades: TradeView[]
  /** The market's candle history through the last of `trades` (as getMarketSnapshot's), where the engine keeps one. */
  candles?: CandleHistory
}

/**
 * The engine link (docs/liveness.md): the engine sends a window a heartbeat batch when it has sent it nothing for
 * ENGINE_HEARTBEAT_MS (so at most 1.5 × that apart), and a window that got no batch at all for ENGINE_LOST_AFTER_MS
 * shows every view as not live until batches flow again.
 */
export const ENGINE_HEARTBEAT_MS = 500
export const ENGINE_LOST_AFTER_MS = 1500

/** Whether the batch is a heartbeat: nothing in it but `seq` and `at`. */
export function isHeartbeat(batch: ViewBatch): boolean {
  for (const key in batch) if (key !== 'seq' && key !== 'at') return false
  return true
}

/**
 * One coalesced push to a window, at most every ~16 ms. Newest state wins; fields absent = unchanged. Every field
 * has its merge rule in shared/batch-merge.ts (the host and the renderer fold batches with it); a field without one
 * fails typecheck there. A batch with nothing but `seq` and `at` is a heartbeat: the engine sends one to a window
 * it has sent nothing for a while, so the window can tell a quiet engine from a lost one (docs/liveness.md).
 */
export interface ViewBatch {
  /** Increasing per client. */
  seq: number
  /** ms since epoch when the batch was emitted. */
  at: number
  status?: StreamStatus
  /**
   * Changed books among this window's markets, top-N levels, whole. A window that takes deltas (AttachOptions
   * bookDeltas) gets a market here when it holds no view of it the engine can vouch for, and in `bookDeltas`
   * otherwise; a market is in at most one of the two.
   */
  books?: BookView[]
  /** Changed books as changes to the view of each the window last got (BookDelta); windows that take deltas only. */
  bookDeltas?: BookDelta[]
  /** Best bid/ask/last of this window's markets (also those watched via an event). */
  tickers?: TickerView[]
  /** Trades since the last batch, oldest first. */
  trades?: TradeView[]
  /** User-channel updates since the last batch, oldest first. */
  user?: UserUpdateView[]
  /** Raw frames since the last batch, when the inspector is on for this window. */
  inspector?: InspectorFrame[]
  /** Set when the events listing was refreshed by someone; windows may re-read it. */
  eventsChanged?: true
  /**
   * Set on the first batch after the window was shown again (setVisibility(true)). It carries the current book
   * and ticker of every market the window watches, and their tapes in `tapes`.
   */
  resume?: true
  /**
   * On the resume batch only: the engine's recent trades (up to TAPE_TRADES, oldest first) of every market the
   * window watches that has any, so the window folds in the trades made while it was hidden without asking.
   * Trades received since the window was shown are in the tape, not again in `trades`.
   */
  tapes?: TapeView[]
  /** Every rule, the history and the unread count, when anything about alerts changed (and in the first batch). */
  alerts?: AlertsView
  /** Alerts that fired since the last batch, oldest first: for toasts and browser notifications. */
  alertsFired?: AlertEvent[]
  /** Workspaces, watchlists or big-trade rules changed (from any window), and in the first batch. */
  workspace?: WorkspaceView
  /** The active profile's account and trading state, whole, when any of it changed (and in the first batch). */
  account?: AccountView
  /** Order-journal entries since the last batch, oldest first (the blotter). */
  journal?: JournalEntry[]
}

export interface KeyInfo {
  profileId: string
  hasKey: boolean
  label: string | null
  expiresAt: string | null
}

export interface SetKeyRequest {
  key: string
  label?: string | null
  /** ISO date (YYYY-MM-DD) entered by the user; the app reminds ahead of it. */
  expiresAt?: string | null
}

export interface ProfileInput {
  id?: string
  name: string
  baseUrl: string
  wsUrl: string
  /** A venue adapter's name, or `auto` (docs/adapters.md); absent keeps the profile's choice. */
  adapter?: string
}

/** A venue adapter a profile can choose. */
export interface AdapterChoice {
  name: string
  title: string
}

export interface ReplayRequest {
  file: string
  speed?: number
}

export interface ReplayControl {
  speed?: number
  paused?: boolean
  seekMs?: number
}

export interface MonitorApi {
  // ---- data
  /** The events listing of the active profile (REST, cached briefly). */
  listEvents(options?: { refresh?: boolean }): Promise<Result<EventSummary[]>>
  /** Replace this window's interests. Idempotent; the engine subscribes/unsubscribes the difference. */
  setInterests(interests: Interest[]): Promise<Result<void>>
  /** Book depth (levels per side) this window wants in its views. Default 25. */
  setBookDepth(depth: number): Promise<Result<void>>
  /**
   * Current views for backfill when a pane opens: book, ticker, the trade tape history and the candle history
   * built from every trade the engine took (through the tape's last trade; absent or null: none).
   */
  getMarketSnapshot(market: string): Promise<
    Result<{
      book: BookView | null
      ticker: TickerView | null
      trades: TradeView[]
      candles?: CandleHistory | null
    }>
  >
  /** Recent user-channel updates, for backfill when the account pane opens. */
  getUserHistory(): Promise<Result<UserUpdateView[]>>
  /** Drop a market's book and resubscribe it. */
  resync(market: string): Promise<Result<void>>
  /** Tear the connection down and reconnect now (also called on OS resume). */
  reconnectNow(): Promise<Result<void>>
  getStatus(): Promise<Result<StreamStatus>>
  /** Stream raw frames to this window (inspector). */
  setInspector(enabled: boolean): Promise<Result<void>>
  /**
   * Whether the window can be seen (document.visibilityState). Hidden: its batches carry status, eventsChanged
   * and user updates only (no books, tickers, trades or inspector frames) and nothing of its markets is queued.
   * Shown again: the next batch has every watched market's current book, ticker and tape and `resume: true`.
   * Windows start visible.
   */
  setVisibility(visible: boolean): Promise<Result<void>>

  // ---- credentials: write-only, the key never comes back
  getKeyInfo(): Promise<Result<KeyInfo>>
  /** Verifies the key with a REST call before storing it; the user channel then re-authenticates. */
  setApiKey(request: SetKeyRequest): Promise<Result<KeyInfo>>
  clearApiKey(): Promise<Result<KeyInfo>>
  /** Demo profile only: store the embedded simulator's demo key (the window never sees it). */
  useDemoKey(): Promise<Result<KeyInfo>>

  // ---- profiles
  listProfiles(): Promise<Result<{ profiles: Profile[]; activeId: string; adapters?: AdapterChoice[] }>>
  saveProfile(profile: ProfileInput): Promise<Result<Profile>>
  selectProfile(id: string): Promise<Result<void>>
  deleteProfile(id: string): Promise<Result<void>>

  // ---- alerts (evaluated in the engine; they fire with every window closed)
  getAlerts(): Promise<Result<AlertsView>>
  /** Creates (no id) or replaces (id) a rule. Refused with a message naming the field when invalid. */
  saveAlert(rule: AlertRuleInput): Promise<Result<AlertRuleView>>
  deleteAlert(id: string): Promise<Result<void>>
  /** Enabling a spent `once` rule arms it again. */
  setAlertEnabled(id: string, enabled: boolean): Promise<Result<AlertRuleView>>
  /** Holds the rule's firing for this many minutes; null ends the snooze. */
  snoozeAlert(id: string, minutes: number | null): Promise<Result<AlertRuleView>>
  /** Marks history entries read: these ids, or every one. */
  acknowledgeAlerts(ids: number[] | 'all'): Promise<Result<void>>
  pauseAlerts(paused: boolean): Promise<Result<void>>
  setKeepRunning(mode: KeepRunning): Promise<Result<void>>

  // ---- windows
  openWindow(target: WindowTarget): Promise<Result<void>>

  // ---- the app itself
  /**
   * Quit and install the update that StreamStatus.update says is `ready`, then start again. Only ever on the
   * user's request. Fails with `unavailable` where the host cannot update (browser host, dev and demo builds)
   * and with `invalid_argument` when no update is ready.
   */
  installUpdate(): Promise<Result<void>>

  // ---- workspaces and watchlists (docs/workspaces.md)
  /** Saved workspaces, watchlists, each window's last workspace and the big-trade rules. */
  getWorkspaces(): Promise<Result<WorkspaceView>>
  /** Creates (no id) or replaces a workspace; a built-in id saves the user's version of that layout. */
  saveWorkspace(workspace: WorkspaceInput): Promise<Result<Workspace>>
  deleteWorkspace(id: string): Promise<Result<void>>
  /** Remembers which workspace a window (`main`, `market:<id>`, `event:<id>`) shows, for its next start. */
  setWindowWorkspace(window: string, workspace: string): Promise<Result<void>>
  /** Remembers the market a window's linked panes follow (null: none), for its next start. */
  setWindowMarket(window: string, market: string | null): Promise<Result<void>>
  /** Creates (no id) or replaces a watchlist. */
  saveWatchlist(watchlist: WatchlistInput): Promise<Result<Watchlist>>
  deleteWatchlist(id: string): Promise<Result<void>>
  /** Sets a market's big-trade highlighting; null (or both thresholds null) turns it off. */
  setBigTrade(market: string, rule: BigTradeRule | null): Promise<Result<void>>
  /**
   * The unit every window shows prices in and the engine writes its alert texts in (notifications included);
   * every window hears it in WorkspaceView.priceUnit.
   */
  setPriceUnit(unit: PriceUnit): Promise<Result<void>>

  // ---- record and replay (docs/recording.md)
  /** Records the active profile's raw feed (keys scrubbed) to a new file in the recordings folder. */
  startRecording(): Promise<Result<RecordingStatus>>
  /** Ends the recording in progress; the file is complete when this resolves. */
  stopRecording(): Promise<Result<RecordingInfo>>
  /** The recordings folder, newest first; a bad file is listed with its error. */
  listRecordings(): Promise<Result<RecordingInfo[]>>
  /**
   * Replays a recording (a file NAME in the recordings folder) as a read-only profile: the live connection is
   * closed until stopReplay(), nothing is sent to any venue. Speed 1 to 50, default 1.
   */
  startReplay(request: ReplayRequest): Promise<Result<ReplayStatus>>
  /** Change speed, pause or resume, or seek (ms since the recording started) the replay in progress. */
  controlReplay(control: ReplayControl): Promise<Result<ReplayStatus>>
  /** Ends the replay and reconnects the profile that was active before it. */
  stopReplay(): Promise<Result<void>>

  // ---- trading (docs/trading.md): the engine owns every order; a window sends intents
  /** The active profile's account and trading state (also pushed in ViewBatch.account). */
  getAccount(): Promise<Result<AccountView>>
  /** Change the active profile's trading mode, one-click or limits; `live` needs `confirmLive: true`. */
  setTrading(input: TradingSettingsInput): Promise<Result<TradingView>>
  /**
   * One press, one order: the engine sends at most one order per `intentId` and never retries a POST. Refused,
   * with nothing sent, when the profile or mode differs from what the window showed, when trading is off, over a
   * limit, or when a warning needs accepting first (`confirm`).
   */
  placeOrder(request: OrderRequest): Promise<Result<OrderView>>
  /** Cancel one working order (an order still in flight is cancelled as soon as the venue names it). */
  cancelOrder(id: string): Promise<Result<OrderView>>
  /** Cancel every working order of the active profile, live and paper, within the venue's rate limit. */
  cancelAllOrders(): Promise<Result<CancelAllResult>>
  /** Merge `quantity` YES+NO pairs of a market into R$1.00 each (VoxFi's Merge Contracts). */
  mergePositions(request: { market: string; quantity: number }): Promise<Result<MergeResult>>
  /** Today's order journal (newest last, capped), for the blotter; new entries follow in ViewBatch.journal. */
  getJournal(): Promise<Result<JournalEntry[]>>

  // ---- push
  /** Subscribe to this window's batches. Returns the unsubscribe function. */
  onBatch(listener: (batch: ViewBatch) => void): () => void
  /**
   * Subscribe to commands of the application menu aimed at this window. Returns the unsubscribe function.
   * Optional only because the engine's per-window client type (services/types.ts, MonitorClientApi) is derived
   * from MonitorApi and the engine has no menu; the preload and the browser bridge always provide it.
   */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void
}

/** Application-menu commands main pushes to one window (push only: not a MonitorMethod). */
export type MenuCommand = 'new-market-window'
export const MENU_COMMANDS = ['new-market-window'] as const satisfies readonly MenuCommand[]

export function isMenuCommand(value: unknown): value is MenuCommand {
  return typeof value === 'string' && (MENU_COMMANDS as readonly string[]).includes(value)
}

/** The request/response methods (everything but the push subscriptions): what the IPC wrapper and bridge bind. */
export type MonitorMethod = Exclude<keyof MonitorApi, 'onBatch' | 'onMenuCommand'>

export const MONITOR_METHODS = [
  'listEvents',
  'setInterests',
  'setBookDepth',
  'getMarketSnapshot',
  'getUserHistory',
  'resync',
  'reconnectNow',
  'getStatus',
  'setInspector',
  'setVisibility',
  'getKeyInfo',
  'setApiKey',
  'clearApiKey',
  'useDemoKey',
  'listProfiles',
  'saveProfile',
  'selectProfile',
  'deleteProfile',
  'getAlerts',
  'saveAlert',
  'deleteAlert',
  'setAlertEnabled',
  'snoozeAlert',
  'acknowledgeAlerts',
  'pauseAlerts',
  'setKeepRunning',
  'openWindow',
  'installUpdate',
  // workspaces and watchlists
  'getWorkspaces',
  'saveWorkspace',
  'deleteWorkspace',
  'setWindowWorkspace',
  'setWindowMarket',
  'saveWatchlist',
  'deleteWatchlist',
  'setBigTrade',
  'setPriceUnit',
  // record and replay
  'startRecording',
  'stopRecording',
  'listRecordings',
  'startReplay',
  'controlReplay',
  'stopReplay',
  // trading
  'getAccount',
  'setTrading',
  'placeOrder',
  'cancelOrder',
  'cancelAllOrders',
  'mergePositions',
  'getJournal',
] as const satisfies readonly MonitorMethod[]

/**
 * The book depth (levels per side) every window asks for with setBookDepth when it opens: what its ladder shows
 * and its depth chart plots. bench:day's clients ask for it too, as the windows they stand for do.
 */
export const WINDOW_BOOK_DEPTH = 15

/**
 * Trades per market the engine keeps on its tape, sends a window as history, and a window holds. One figure for
 * all three: the engine keeps no trade a window could not show. The tape is also the trade-id dedupe window; a
 * venue that resends recent trades on subscribe sends far fewer (Kraken's trade snapshot is its last 50).
 */
export const TAPE_TRADES = 500

/** IPC channel names: one invoke channel per method plus one push channel. */
export const IPC_PREFIX = 'monitor:'
export const IPC_BATCH_CHANNEL = 'monitor:batch'
/** Push channel for MenuCommand values (main -> one window). */
export const IPC_COMMAND_CHANNEL = 'monitor:command'

export type MethodArgs<M extends MonitorMethod> = Parameters<MonitorApi[M]>
export type MethodResult<M extends MonitorMethod> = Awaited<ReturnType<MonitorApi[M]>>

export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

export function fail<T = never>(error: ApiError): Result<T> {
  return { ok: false, error }
}
