// Domain types shared by every process. Pure TypeScript: no node:, no DOM, no electron.

/** One price level: [price, size]. Prices are probabilities in (0, 1) on our venue, but nothing here assumes it. */
export type Level = [price: number, size: number]

export type ChannelFilter = 'all' | 'orderbook' | 'trades'
export type Side = 'buy' | 'sell'
export type UserTopic = 'order' | 'fill' | 'position' | 'balance' | 'other'
/** The two contracts of a binary market. */
export type Outcome = 'yes' | 'no'
export type ControlTopic = 'subscribed' | 'unsubscribed' | 'error' | 'heartbeat' | 'other'

/** The decoder's output and the engine's internal model (DESIGN §3.2). */
export type Update =
  | {
      kind: 'book'
      market: string | null
      snapshot: boolean
      bids: Level[]
      asks: Level[]
      seq?: number
      /** The sequence the book must be at before this delta (Binance `U - 1`, OKX `prevSeqId`). */
      prevSeq?: number
      relative?: true
      /**
       * A binary venue that keeps the NO contract's book apart (VoxFi): 'no' marks that book, in the NO
       * contract's own prices. Absent: the market's (YES) book.
       */
      outcome?: 'no'
    }
  | {
      kind: 'trade'
      market: string | null
      price: number
      size: number
      /** The taker's (aggressor's) side. */
      side: Side | null
      ts: number | null
      id?: string
      /**
       * Which contract of a binary market traded, where the venue says (VoxFi's YES/NO). Price and side are
       * always in the market's YES terms, so that one tape, chart and last price hold every print: a NO
       * contract bought at q is a YES sell at 1 − q.
       */
      outcome?: Outcome
    }
  | {
      kind: 'ticker'
      market: string | null
      bid?: number
      ask?: number
      last?: number
      /** The venue's implied probability of YES, 0–1 (VoxFi's `chance`). */
      chance?: number
      /** Traded volume as the venue counts it. */
      volume?: number
      /** Resting liquidity as the venue counts it. */
      liquidity?: number
    }
  | { kind: 'user'; topic: UserTopic; market: string | null; data: unknown }
  | { kind: 'control'; topic: ControlTopic; error?: string; data: unknown }
  /** Market metadata (status, instrument definitions, funding, candles): never reaches books, tapes or the account. */
  | { kind: 'info'; topic: string; market: string | null; data: unknown }
  | { kind: 'unknown'; raw: unknown }

export type UpdateKind = Update['kind']

// ---------------------------------------------------------------- reference data

/**
 * The prices a market can trade at: `min`..`max` in steps of `tick`, in the engine's price units. VoxFi: integer
 * ticks 0–100 read as 0.00–1.00, so { min: 0, max: 1, tick: 0.01 }.
 */
export interface PriceGrid {
  min: number
  max: number
  tick: number
}

export interface MarketSummary {
  id: string
  title: string
  /** Where the listing says what prices the market has (VoxFi's markets); absent: not known. */
  priceGrid?: PriceGrid
  /** Extra scalar fields the venue sent (status, outcome names, …), shown but not interpreted. */
  extra?: Record<string, string | number | boolean | null>
}

export interface EventSummary {
  id: string
  title: string
  markets: MarketSummary[]
  /** Listing fields a trader filters and reads by, where the venue sends them (VoxFi's event object). */
  category?: string
  tags?: string[]
  /** The venue's word for the event's state (`open`, `closed`, `resolved`, …), as sent. */
  status?: string
  /** The resolution rules, as text. */
  rules?: string
  slug?: string
  /** ms since epoch. */
  startsAt?: number
  resolvesAt?: number
  finishedAt?: number
  extra?: Record<string, string | number | boolean | null>
}

// ---------------------------------------------------------------- views pushed to windows

/**
 * empty: nothing yet. live: a valid snapshot plus every delta since, and updates arrive at the market's usual
 * rhythm. quiet: as live, but silent for longer than the market's usual gap allows, so it may be behind (deltas
 * still apply; the next update makes it live). stale: known to be wrong or behind (gap, crossed, reconnect,
 * silent) until a fresh snapshot; with the reason UNKNOWN_MARKET, the venue never answered and is not asked
 * again for now. resyncing: stale, and a fresh snapshot has been asked for.
 */
export type BookState = 'empty' | 'live' | 'quiet' | 'stale' | 'resyncing'

/**
 * The staleReason of a market the venue never answered: not a word of it (book, ticker, trade) through a
 * bounded number of requests while other markets' data flowed, and not in the listing. The engine stops asking
 * until the listing names it, the connection reconnects, a window subscribes to it anew or asks for a resync
 * (docs/liveness.md).
 */
export const UNKNOWN_MARKET = 'unknown'

export interface BookView {
  market: string
  state: BookState
  /** Why the book is stale: 'gap', 'crossed', 'reconnect', 'stalled', UNKNOWN_MARKET, … */
  staleReason: string | null
  /** Best first: bids descending, asks ascending; at most the requested depth. */
  bids: Level[]
  asks: Level[]
  /** Total number of levels on each side, before truncation to the view depth. */
  depth: { bids: number; asks: number }
  seq: number | null
  /**
   * ms since epoch of the last applied snapshot or delta: the engine's receipt time of its frame (of a REST
   * snapshot, the request's time). It tells book versions apart on any venue, with sequences or without: the
   * ladder marks each version's first paint with it (Element Timing, `book:<market>:<updatedAt>`).
   */
  updatedAt: number | null
  /** The market's usual gap between updates as the engine learnt it (ms); absent until known. */
  usualGapMs?: number
  /** While resyncing: how many times a fresh snapshot has been asked for in this episode. */
  resyncAttempt?: number
  /**
   * The NO contract's own book, where the venue keeps one apart (VoxFi), best first, in NO prices. A NO bid
   * at q is a YES ask at 1 − q: the ladder folds these in, marked apart from the YES book's own levels.
   */
  no?: { bids: Level[]; asks: Level[]; depth: { bids: number; asks: number } }
  /** Where the book came from: the venue's REST snapshot until the stream's first book replaces it. */
  source?: 'rest' | 'stream'
  /**
   * The fan-out's number for this view, on views sent to a window that takes deltas (ViewBatch.bookDeltas): the
   * base a later delta names. Absent on views read any other way (getMarketSnapshot), which no delta names.
   */
  version?: number
}

/** A book side's changed levels, best first or in any order: [price, new size], size 0 = the level left the view. */
export type LevelChanges = Level[]

/**
 * A book view as the changes from the view the window last got of the market (its `base`): every level of the
 * top N that is new or changed size, and every level of the base's top N that is gone from it (removed, or
 * pushed below the top N) at size 0. Everything else is whole: absent optional members are absent in the view.
 * Applied to the base it gives exactly the engine's view numbered `version` (shared/book-delta.ts). A window
 * that does not hold view `base` of the market must not apply it (it asks for whole views instead).
 */
export interface BookDelta {
  market: string
  /** The version of the view this applies to. */
  base: number
  /** The version of the view it gives. */
  version: number
  state: BookState
  staleReason: string | null
  /** As BookView.depth: whole. */
  depth: { bids: number; asks: number }
  seq: number | null
  updatedAt: number | null
  usualGapMs?: number
  resyncAttempt?: number
  source?: 'rest' | 'stream'
  /** Changed levels per side; an absent side is unchanged. */
  bids?: LevelChanges
  asks?: LevelChanges
  /** The NO book's changes and its depth counts whole; present exactly when the view (and its base) has one. */
  no?: { bids?: LevelChanges; asks?: LevelChanges; depth: { bids: number; asks: number } }
}

export interface TradeView {
  /** Engine-assigned, unique per engine run: React key and dedupe. */
  key: string
  market: string
  price: number
  size: number
  side: Side | null
  /** Exchange time if sent, else receive time (ms since epoch). */
  ts: number
  receivedAt: number
  /** True for the first trade after a disconnect: trades in between may be missing. */
  gapBefore?: true
  /** Which contract traded, where the venue says; price and side are in YES terms (see Update 'trade'). */
  outcome?: Outcome
}

export interface TickerView {
  market: string
  bestBid: number | null
  bestAsk: number | null
  last: number | null
  updatedAt: number | null
  state: BookState
  /** As BookView.usualGapMs. */
  usualGapMs?: number
  /** The first trade price of the local day the engine saw for this market, and when; absent before one. */
  open?: number
  openAt?: number
  /** The venue's own figures, where it sends them (VoxFi): chance of YES in 0–1, volume, liquidity. */
  chance?: number
  volume?: number
  liquidity?: number
}

export interface UserUpdateView {
  /** Engine-assigned, increasing. */
  seq: number
  topic: UserTopic
  market: string | null
  data: unknown
  receivedAt: number
}

// ---------------------------------------------------------------- status and errors

export type ConnectionState = 'live' | 'connecting' | 'reconnecting' | 'offline' | 'auth-error'

/** Every error that crosses to a window has a stable code and a human message. */
export type ErrorCode =
  | 'unauthorized'
  | 'ip_not_allowed'
  | 'rate_limited'
  | 'network'
  | 'timeout'
  | 'server'
  | 'bad_response'
  | 'keyring_unavailable'
  | 'keyring_locked'
  | 'keyring_denied'
  /** The user dismissed the keychain's unlock or access prompt. */
  | 'keyring_cancelled'
  /** The keychain gave no answer in time (an unanswered prompt). */
  | 'keyring_timeout'
  | 'no_key'
  | 'invalid_argument'
  /** The host cannot do this at all (installing an update in the browser host or a dev build). */
  | 'unavailable'
  /** A named thing does not exist (a recording file). */
  | 'not_found'
  /** A read reached only part of what it was for (the venue's pages ended before the moment wanted). */
  | 'incomplete'
  | 'internal'
  // ---- trading (docs/trading.md): why an order, cancel or merge was refused
  /** The profile's trading mode is off. */
  | 'off'
  /** The key may not do this (VoxFi's 403 "permission denied" or PO7): a lasting key state. */
  | 'permission'
  /** A 403 that is neither an IP block nor a missing permission. */
  | 'forbidden'
  /** Over a per-profile limit (contracts or money per order); the message names the limit and where to change it. */
  | 'too_large'
  /** As many open orders as the profile's limit allows. */
  | 'too_many_orders'
  /** A warning the user has to accept first (`confirm` lists which); nothing was sent. */
  | 'confirm'
  /** The window showed another profile or mode than the engine's when the user pressed; nothing was sent. */
  | 'mode_changed'
  /** This host may not trade on this venue (the browser host without --allow-trading). */
  | 'trading_disabled'
  /** The venue refused the order (`venueCode`: PO1 … PO8, -1). */
  | 'venue_refused'
  /** The market does not take orders now (VoxFi's 406 / PO8). */
  | 'market_closed'
  /** The venue has no such path (404/405 on cancel or merge): a lasting, named state. */
  | 'path_refused'
  /** Another action holds the way (a cancel-all in progress). */
  | 'busy'

/** Why the venue could not be reached, where the engine could tell (main/services/feed/link-errors.ts). */
export type LinkFailure = 'refused' | 'dns' | 'tls' | 'timeout' | 'unauthorized'

export interface ApiError {
  code: ErrorCode
  message: string
  /** A connection failure's kind: the status bar names it. */
  link?: LinkFailure
  /** HTTP status when the error came from REST. */
  status?: number
  /** For rate_limited: how long to wait, from Retry-After. */
  retryAfterMs?: number
  /** For invalid_argument: the input field at fault, so a form can mark it without reading the message. */
  field?: string
  /** For venue_refused: the venue's own code (VoxFi's PO1 … PO8, -1). */
  venueCode?: string
  /** For confirm: the warnings to accept before the order may go. */
  confirm?: ConfirmReason[]
  /** The app's id of the order the error is about, where there is one. */
  orderId?: string
}

/** A warning the user must accept before an order goes (docs/trading.md). */
export type ConfirmReason = 'duplicate' | 'far_through'

export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError }

export interface RateLimitInfo {
  limit: number | null
  remaining: number | null
  /** ms since epoch when the window resets, if known. */
  resetAt: number | null
  /** ms since epoch until which requests are held back after a 429. */
  blockedUntil: number | null
  observedAt: number
}

export type IncidentKind = 'disconnect' | 'stall' | 'resync' | 'auth' | 'rate_limit' | 'bad_frame'

export interface Incident {
  id: number
  kind: IncidentKind
  startedAt: number
  /** null while ongoing. */
  endedAt: number | null
  detail: string
  market?: string
}

export interface StreamCounters {
  frames: number
  updates: number
  malformed: number
  unknown: number
  oversized: number
}

export interface StreamStatus {
  profileId: string
  state: ConnectionState
  /** Reconnects since the engine started. */
  reconnects: number
  connectedSince: number | null
  lastMessageAt: number | null
  /** When the next connection attempt is due, while reconnecting. */
  nextRetryAt: number | null
  /** Sticky error for the user channel or REST: set until the key changes. */
  authError: ApiError | null
  /**
   * The OS keychain could not be used for this profile (keyring_unavailable / keyring_locked /
   * keyring_denied / keyring_cancelled / keyring_timeout).
   * Sticky until a keychain operation succeeds; there is never a plain-text fallback.
   */
  credentialsError: ApiError | null
  lastError: ApiError | null
  rateLimit: RateLimitInfo | null
  counters: StreamCounters
  /** Most recent first, capped. */
  incidents: Incident[]
  /** Whether a key is stored for the active profile (never the key itself). */
  hasKey: boolean
  /**
   * Things the user must be told that are not connection trouble, e.g. settings entries that were set aside at
   * start because they were invalid (each names what was dropped and where the original file was kept).
   */
  notices?: string[]
  /** Which venue adapter reads the frames: the profile's choice, and what `auto` settled on (null until it has). */
  adapter?: { selected: string; picked: string | null }
  /**
   * The app's own updates (docs/updates.md). Absent where updates are off: the browser host, dev and demo builds,
   * TM_NO_UPDATES=1. A window offers "Restart to update" only in the `ready` state.
   */
  update?: UpdateStatus
  /** A recording of the raw feed in progress (docs/recording.md). */
  recording?: RecordingStatus
  /** Set while a recording is replayed: the data is not live and nothing is sent to any venue. */
  replay?: ReplayStatus
  /**
   * Present (true) while the connection is open and its pings answer, but the venue sends no data: every watched
   * market has gone quiet, or the socket was rebuilt for silence and no data came since (docs/liveness.md,
   * "Venue silent"). No book is live meanwhile, however fresh its REST copy.
   */
  dataPaused?: true
  /**
   * Present from the first socket rebuilt because the venue's data stopped until data arrives again, whatever the
   * socket does meanwhile: when the data was last heard and how many sockets were rebuilt since. Windows show
   * one steady line for it.
   */
  venueSilent?: { since: number; rebuilds: number }
}

// ---------------------------------------------------------------- record and replay (docs/recording.md)

export interface RecordingStatus {
  /** File name inside the recordings folder. */
  file: string
  /** Compressed bytes written so far. */
  bytes: number
  /** ms since epoch. */
  startedAt: number
  /** Recording stops by itself at this many compressed bytes. */
  limitBytes: number
  frames: number
}

export type ReplayState = 'playing' | 'paused' | 'ended'

export interface ReplayStatus {
  file: string
  /** 1 to 50 (times real time). */
  speed: number
  paused: boolean
  state: ReplayState
  /** Where the replay is, in ms since the recording started. */
  positionMs: number
  durationMs: number
  /** The recorded profile's name (a name only: never a key or URL). */
  profileName: string
  /** When the recording started, ms since epoch. */
  recordedAt: number
  /**
   * Increases when a seek lands (a seek back makes the engine forget and re-derive its books and tapes; any seek
   * moves them without telling windows each change): a window then drops what it holds of markets and reads them
   * again.
   */
  epoch: number
  /**
   * Present (true) while a seek feeds the frames up to its target, in slices (the engine keeps running): windows
   * keep what they show until it lands, then the epoch moves on and they read their markets again.
   */
  seeking?: true
  /**
   * Present once the replay has jumped over a silence in the recording longer than 10 minutes (or a frame time
   * far past the one before): how many such gaps, and the recording time they held (docs/recording.md).
   */
  skipped?: { gaps: number; ms: number }
}

/** One file of the recordings folder, as listRecordings() reads it. */
export interface RecordingInfo {
  name: string
  /** Size on disk. */
  bytes: number
  /** ms since epoch, from the header; null for a bad file. */
  startedAt: number | null
  /**
   * The last frame's time, and the frame count: a listing reads only each file's header (a file may be a
   * bomb), so they are null there; stopRecording() fills them for the file it wrote.
   */
  durationMs: number | null
  frames: number | null
  profileName: string | null
  /** Why this file cannot be replayed. */
  error?: string
}

export type UpdateState = 'idle' | 'checking' | 'available' | 'downloading' | 'ready' | 'error'

export interface UpdateStatus {
  state: UpdateState
  /** The new version, once known (`available`, `downloading`, `ready`). */
  version?: string
  /** Whole percent downloaded, while `downloading`. */
  percent?: number
  /** A short reason, in the `error` state (also in the log). Never shown as a dialog. */
  message?: string
}

/** refused: not a frame received but a message of ours that the venue refused by closing (VoxFi's 4004). */
export type FrameClass = 'ok' | 'unknown' | 'malformed' | 'oversized' | 'refused'

export interface InspectorFrame {
  seq: number
  receivedAt: number
  /** The raw text, truncated to a cap. */
  raw: string
  truncated: boolean
  classification: FrameClass
  decoded: Update[]
  error?: string
}

// ---------------------------------------------------------------- profiles, settings, windows

export interface Profile {
  id: string
  name: string
  baseUrl: string
  wsUrl: string
  /** True for the embedded simulator profile. */
  demo: boolean
  /** A label the user gave the key (never the key). */
  keyLabel: string | null
  /** ISO date the user entered for the key's expiry, for reminders. */
  keyExpiresAt: string | null
  /** The venue adapter that reads this profile's frames (docs/adapters.md); absent means `auto`. */
  adapter?: string
}

export type WindowKind = 'main' | 'market' | 'event'

export type WindowTarget =
  { kind: 'main' } | { kind: 'market'; market: string } | { kind: 'event'; event: string }

export interface Bounds {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowLayout {
  target: WindowTarget
  bounds: Bounds | null
  /** Display id the window was on, when known. */
  displayId: number | null
  maximized: boolean
}

export const DEMO_PROFILE_ID = 'demo'
