// The window's view of the engine: one zustand store. Batches from the engine are queued and applied together,
// once per animation frame, in a single set() (one React commit per frame however many batches arrived).
// Components select by market id, so a busy market re-renders only the components that show it.
import { create } from 'zustand'
import type { AlertEvent, AlertsView } from '../../shared/alerts'
import type { CandleHistory } from '../../shared/candles'
import { TAPE_TRADES, type ViewBatch } from '../../shared/ipc'
import type {
  BookView,
  InspectorFrame,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
} from '../../shared/model'
import type { AccountView, JournalEntry, TradingView } from '../../shared/trading'
import type { WorkspaceView } from '../../shared/workspace'
import { mergeBatches, newest, type MergeCaps } from '../../shared/batch-merge'
import { receiveBooks } from '../../shared/book-delta'
import { shareAccount } from './account-share'
import { pageHidden, whenShown } from './page-visibility'

/** What the engine keeps and sends as history (TAPE_TRADES); a window keeps no more. */
export const TAPE_CAP = TAPE_TRADES
export const USER_FEED_CAP = 500
export const INSPECTOR_CAP = 300
/** Order-journal entries a window holds for the blotter (the engine's getJournal is capped too). */
export const JOURNAL_CAP = 2_000
/** Toasts on screen at once; an older one makes room for a newer (it stays in the alert history). */
export const TOAST_CAP = 5

export interface MarketSnapshot {
  book: BookView | null
  ticker: TickerView | null
  trades: TradeView[]
  /** The engine's candle history of the market, through the last of `trades` (absent or null: none). */
  candles?: CandleHistory | null
}

export interface MonitorState {
  status: StreamStatus | null
  books: Record<string, BookView>
  /**
   * Per market, the engine's view as this window's batches built it (numbered: BookView.version): what the next
   * book delta applies to. Apart from `books`, which a market snapshot may replace with a newer view, and which
   * forgetMarkets() empties while the engine's next delta still names this one.
   */
  bookBases: Record<string, BookView>
  /**
   * Bumped when a book delta could not be applied (its base is not the view held, or it is malformed): the
   * window asks the engine to send its books whole again (hooks/context.tsx).
   */
  booksLost: number
  tickers: Record<string, TickerView>
  /** Per market, oldest first, capped at TAPE_CAP. */
  trades: Record<string, TradeView[]>
  /** Bumped when a market's tape is re-seeded from a snapshot: the chart rebuilds instead of appending. */
  tapeEpoch: Record<string, number>
  /** Per market, the engine's candle history from its last snapshot: the chart starts from it. */
  candles: Record<string, CandleHistory>
  /** Oldest first, capped at USER_FEED_CAP: the raw feed (the account itself is the engine's, below). */
  user: UserUpdateView[]
  /** The active profile's account and trading state as the engine folds it; null until it sent one. */
  account: AccountView | null
  /** Increases with every account a batch brings: a getAccount reply asked for before one is older. */
  accountSeq: number
  /** Why getAccount failed, while no account came (shown where the account or the ticket would be). */
  accountError: string | null
  /** Today's order journal as far as this window has it, oldest first, capped at JOURNAL_CAP. */
  journal: JournalEntry[]
  /** Oldest first, capped at INSPECTOR_CAP. */
  inspector: InspectorFrame[]
  /** Bumped when the engine says the events listing changed. */
  eventsVersion: number
  /** Rules, history and unread count; null until the engine sent them (first batch or getAlerts). */
  alerts: AlertsView | null
  /** Whether `alerts` came from a batch (then a slower getAlerts reply is older and is not applied). */
  alertsFromBatch: boolean
  /** getAlerts failed and no batch brought the view either. */
  alertsError: string | null
  /** Fired alerts to toast, oldest first, at most TOAST_CAP. */
  toasts: AlertEvent[]
  /** Saved workspaces, watchlists and big-trade rules; null until the engine sent them. */
  workspace: WorkspaceView | null
  lastBatchSeq: number | null
  lastBatchAt: number | null
  applyBatch(batch: ViewBatch): void
  seedMarket(market: string, snapshot: MarketSnapshot): void
  seedUser(history: readonly UserUpdateView[]): void
  /**
   * The getAccount reply, asked for when `accountSeq` was `asked`: applied only when no batch brought an account
   * since (a batch's is newer). An error is kept to show while there is no account.
   */
  seedAccount(reply: { view: AccountView } | { error: string }, asked: number): void
  /** A setTrading reply: the active profile's trading state, at once, before the batch that follows. */
  applyTradingView(view: TradingView): void
  /** The getJournal reply: merged with the entries batches brought meanwhile, each entry once, in order. */
  seedJournal(entries: readonly JournalEntry[]): void
  /** The getAlerts reply at window start; ignored when a batch already brought the view. */
  seedAlerts(view: AlertsView | null, error?: string | null): void
  dismissToast(id: number): void
  /**
   * Drops every market's book, ticker and trades and the account (the engine forgot them: a replay started,
   * stopped, or a seek landed); panes read their markets again because `marketsEpoch` changed.
   */
  forgetMarkets(): void
  /** Increases with every forgetMarkets(). */
  marketsEpoch: number
  clearInspector(): void
  reset(): void
}

function appendCapped<T>(list: readonly T[], more: readonly T[], cap: number): T[] {
  return newest(list.length === 0 ? [...more] : list.concat(more), cap)
}

/**
 * A market's tape with a batch's trades of it appended, the newest `cap` kept. A trade already on the tape is not
 * added again: a market snapshot read while a batch was on its way holds that batch's trades too. Only trades at
 * or after the batch's oldest are compared, so the usual batch, newer than the whole tape, costs no lookup.
 */
export function appendTrades(tape: TradeView[], more: readonly TradeView[], cap: number): TradeView[] {
  let since = Number.POSITIVE_INFINITY
  for (const t of more) if (t.receivedAt < since) since = t.receivedAt
  // The usual batch: newer than the tape's newest trade, so nothing to compare and no set to build.
  const newestOnTape = tape[tape.length - 1]
  if (newestOnTape === undefined || newestOnTape.receivedAt < since) return appendCapped(tape, more, cap)
  const seen = new Set<string>()
  for (let i = tape.length - 1; i >= 0; i--) {
    const t = tape[i] as TradeView
    if (t.receivedAt < since) break
    seen.add(t.key)
  }
  const fresh = more.filter((t) => !seen.has(t.key))
  return fresh.length === 0 ? tape : appendCapped(tape, fresh, cap)
}

/**
 * A market's tape after the engine's tape of it (a market snapshot, or a resume batch's `tapes`): each trade once,
 * in order, the newest `cap` kept. The engine's tape is in order and holds every trade of its span, so the window's
 * trades it lacks are either older than it (the window saw them, the engine no longer holds them) or newer (batches
 * that arrived after the engine's tape was read); they go before and after it, in the window's order. When the
 * engine's tape does not reach back to the window's (more trades while hidden than it holds), its oldest trade is
 * marked `gapBefore`. Returns `existing` itself when nothing is missing.
 */
export function resumedTape(existing: TradeView[], engine: readonly TradeView[], cap: number): TradeView[] {
  const mine = new Set(existing.map((t) => t.key))
  if (engine.every((t) => mine.has(t.key))) return existing
  const onEngine = new Set(engine.map((t) => t.key))
  const first = existing.findIndex((t) => onEngine.has(t.key))
  const last = existing.findLastIndex((t) => onEngine.has(t.key))
  const oldest = engine[0] as TradeView
  // No trade in common: the window's are all before the engine's oldest, or all after it.
  const older =
    first < 0 ? existing.filter((t) => t.receivedAt < oldest.receivedAt) : existing.slice(0, first)
  const newer =
    first < 0 ? existing.filter((t) => t.receivedAt >= oldest.receivedAt) : existing.slice(last + 1)
  let middle = engine.slice()
  if (older.length > 0 && !mine.has(oldest.key) && oldest.gapBefore !== true)
    middle[0] = { ...oldest, gapBefore: true }
  // Trades only the window holds within the engine's span (none, while each has the whole span): kept, by time.
  const inside = first < 0 ? [] : existing.slice(first, last + 1).filter((t) => !onEngine.has(t.key))
  if (inside.length > 0) middle = middle.concat(inside).sort((a, b) => a.receivedAt - b.receivedAt)
  return newest(older.concat(middle, newer), cap)
}

const initial = {
  status: null,
  books: {},
  bookBases: {},
  booksLost: 0,
  tickers: {},
  trades: {},
  tapeEpoch: {},
  candles: {},
  user: [],
  account: null,
  accountSeq: 0,
  accountError: null,
  journal: [],
  inspector: [],
  eventsVersion: 0,
  alerts: null,
  alertsFromBatch: false,
  alertsError: null,
  workspace: null,
  marketsEpoch: 0,
  toasts: [],
  lastBatchSeq: null,
  lastBatchAt: null,
} satisfies Partial<MonitorState>

/** The state change one batch makes; pure, so the store can apply it in a single set(). */
export function reduceBatch(s: MonitorState, batch: ViewBatch): Partial<MonitorState> {
  // seq < 0 marks a status read outside the batch stream (refreshStatus), not a batch.
  const next: Partial<MonitorState> = batch.seq >= 0 ? { lastBatchSeq: batch.seq, lastBatchAt: batch.at } : {}
  if (batch.status) next.status = batch.status
  if ((batch.books && batch.books.length > 0) || (batch.bookDeltas && batch.bookDeltas.length > 0))
    Object.assign(next, reduceBooks(s, batch))
  if (batch.tickers && batch.tickers.length > 0) {
    const tickers = { ...s.tickers }
    for (const t of batch.tickers) tickers[t.market] = t
    next.tickers = tickers
  }
  if (batch.trades && batch.trades.length > 0) {
    const byMarket = new Map<string, TradeView[]>()
    for (const t of batch.trades) {
      const list = byMarket.get(t.market)
      if (list) list.push(t)
      else byMarket.set(t.market, [t])
    }
    const trades = { ...s.trades }
    for (const [market, list] of byMarket) trades[market] = appendTrades(trades[market] ?? [], list, TAPE_CAP)
    next.trades = trades
  }
  // After the trades: a tape holds every trade up to the batch's emission, and any of them in `trades` (a batch
  // merged before the resume) is then already on the tape and not shown twice.
  if (batch.tapes && batch.tapes.length > 0) {
    const trades = { ...(next.trades ?? s.trades) }
    const tapeEpoch = { ...s.tapeEpoch }
    let candles: Record<string, CandleHistory> | null = null
    for (const { market, trades: engine, candles: history } of batch.tapes) {
      if (history !== undefined) (candles ??= { ...s.candles })[market] = history
      const existing = trades[market] ?? []
      const tape = resumedTape(existing, engine, TAPE_CAP)
      if (tape === existing) continue
      trades[market] = tape
      // The chart rebuilds from the tape instead of appending to it.
      tapeEpoch[market] = (tapeEpoch[market] ?? 0) + 1
    }
    next.trades = trades
    next.tapeEpoch = tapeEpoch
    if (candles !== null) next.candles = candles
  }
  if (batch.user && batch.user.length > 0) next.user = appendCapped(s.user, batch.user, USER_FEED_CAP)
  if (batch.account) {
    next.account = shareAccount(s.account, batch.account)
    next.accountSeq = s.accountSeq + 1
    next.accountError = null
  }
  if (batch.journal && batch.journal.length > 0) next.journal = mergeJournal(s.journal, batch.journal)
  if (batch.inspector && batch.inspector.length > 0) {
    const frames = newFrames(s.inspector, batch.inspector)
    if (frames.length > 0) next.inspector = appendCapped(s.inspector, frames, INSPECTOR_CAP)
  }
  if (batch.eventsChanged) next.eventsVersion = s.eventsVersion + 1
  if (batch.alerts) {
    next.alerts = batch.alerts
    next.alertsFromBatch = true
    next.alertsError = null
  }
  if (batch.workspace) next.workspace = batch.workspace
  const toasts = nextToasts(s.toasts, batch.alertsFired, batch.alerts ?? null)
  if (toasts !== s.toasts) next.toasts = toasts
  return next
}

/** A batch's books (shared/book-delta.ts receiveBooks); a delta that did not fit bumps `booksLost`. */
function reduceBooks(s: MonitorState, batch: ViewBatch): Partial<MonitorState> {
  const { books, bases, lost } = receiveBooks({ books: s.books, bases: s.bookBases }, batch)
  const next: Partial<MonitorState> = { books, bookBases: bases }
  if (lost) next.booksLost = s.booksLost + 1
  return next
}

/**
 * The frames not listed yet: turning the inspector on again sends the engine's recent frames, some of which the
 * window may still hold. A frame is its engine's `seq` at its time (a restarted engine counts from 1 again). The
 * usual batch is newer than every listed frame and builds no set. (The list is not in time order once a re-send
 * put older frames after newer ones, so the newest is looked for, not taken from the end.)
 */
function newFrames(listed: readonly InspectorFrame[], incoming: InspectorFrame[]): InspectorFrame[] {
  let since = Number.POSITIVE_INFINITY
  for (const f of incoming) if (f.receivedAt < since) since = f.receivedAt
  let newestListed = Number.NEGATIVE_INFINITY
  for (const f of listed) if (f.receivedAt > newestListed) newestListed = f.receivedAt
  if (newestListed < since) return incoming
  const seen = new Set(listed.map((f) => `${f.seq}@${f.receivedAt}`))
  return incoming.filter((f) => !seen.has(`${f.seq}@${f.receivedAt}`))
}

/** An entry's identity: its seq within one engine run, and its time (a restarted engine counts from 1 again). */
const journalKey = (e: JournalEntry): string => `${e.seq}@${e.at}`

/**
 * The journal with `more` folded in: each entry once, oldest first, the newest JOURNAL_CAP kept. The usual batch,
 * newer than every entry held, is appended as it is; returns `held` itself when nothing is new.
 */
export function mergeJournal(held: JournalEntry[], more: readonly JournalEntry[]): JournalEntry[] {
  const last = held[held.length - 1]
  const first = more[0]
  if (first === undefined) return held
  if (last === undefined || more.every((e) => e.at > last.at || (e.at === last.at && e.seq > last.seq)))
    return appendCapped(held, more, JOURNAL_CAP)
  const seen = new Set(held.map(journalKey))
  const fresh = more.filter((e) => !seen.has(journalKey(e)))
  if (fresh.length === 0) return held
  const merged = held.concat(fresh).sort((a, b) => a.at - b.at || a.seq - b.seq)
  return newest(merged, JOURNAL_CAP)
}

/**
 * Toasts after a batch: newly fired alerts added (held ones stay in the history only), and those read meanwhile
 * (acknowledged in another window or in the manager) taken away.
 */
function nextToasts(
  toasts: AlertEvent[],
  fired: readonly AlertEvent[] | undefined,
  view: AlertsView | null,
): AlertEvent[] {
  let next = toasts
  if (fired && fired.length > 0) {
    const shown = new Set(toasts.map((t) => t.id))
    const fresh = fired.filter((e) => e.kind === 'fired' && !e.acknowledged && !shown.has(e.id))
    if (fresh.length > 0) next = appendCapped(toasts, fresh, TOAST_CAP)
  }
  if (view && next.length > 0) {
    const read = new Set(view.history.filter((e) => e.acknowledged).map((e) => e.id))
    if (next.some((t) => read.has(t.id))) next = next.filter((t) => !read.has(t.id))
  }
  return next
}

export const useMonitor = create<MonitorState>()((set) => ({
  ...initial,
  // Now, in one set(), together with anything still queued (so the order of batches is kept).
  applyBatch: (batch) => {
    queueBatch(batch)
    flushBatches()
  },
  seedMarket: (market, snap) => {
    flushBatches()
    set((s) => {
      const next: Partial<MonitorState> = {}
      // A batch may have arrived while the snapshot was in flight: keep whichever is newer.
      const book = snap.book
      const have = s.books[market]
      if (book && (!have || (have.updatedAt ?? 0) <= (book.updatedAt ?? 0)))
        next.books = { ...s.books, [market]: book }
      const ticker = snap.ticker
      const haveT = s.tickers[market]
      if (ticker && (!haveT || (haveT.updatedAt ?? 0) <= (ticker.updatedAt ?? 0)))
        next.tickers = { ...s.tickers, [market]: ticker }
      // Batches that arrived while the snapshot was in flight may hold trades it holds too, or newer ones: one
      // tape in time order, each trade once (the same merge as a resume batch's tape).
      const existing = s.trades[market] ?? []
      const tape = resumedTape(existing, snap.trades, TAPE_CAP)
      if (tape !== existing) next.trades = { ...s.trades, [market]: tape }
      if (snap.candles) next.candles = { ...s.candles, [market]: snap.candles }
      else if (snap.candles === null && s.candles[market]) {
        // The engine holds nothing of the market now: a history kept from an earlier snapshot is not its own.
        const { [market]: _gone, ...rest } = s.candles
        next.candles = rest
      }
      next.tapeEpoch = { ...s.tapeEpoch, [market]: (s.tapeEpoch[market] ?? 0) + 1 }
      return next
    })
  },
  seedUser: (history) => {
    flushBatches()
    set((s) => {
      const seen = new Set(s.user.map((u) => u.seq))
      const older = history.filter((u) => !seen.has(u.seq))
      if (older.length === 0) return {}
      const merged = older.concat(s.user).sort((a, b) => a.seq - b.seq)
      const user = merged.length > USER_FEED_CAP ? merged.slice(merged.length - USER_FEED_CAP) : merged
      return { user }
    })
  },
  seedAccount: (reply, asked) => {
    flushBatches()
    set((s) => {
      if (s.accountSeq !== asked) return {}
      return 'view' in reply
        ? { account: shareAccount(s.account, reply.view), accountError: null }
        : { accountError: s.account === null ? reply.error : null }
    })
  },
  applyTradingView: (view) => {
    flushBatches()
    set((s) =>
      s.account !== null && s.account.profileId === view.profileId
        ? { account: shareAccount(s.account, { ...s.account, trading: view }) }
        : {},
    )
  },
  seedJournal: (entries) => {
    flushBatches()
    set((s) => {
      const journal = mergeJournal(s.journal, entries)
      return journal === s.journal ? {} : { journal }
    })
  },
  seedAlerts: (view, error = null) => {
    flushBatches()
    set((s) => {
      if (s.alertsFromBatch) return {}
      return view ? { alerts: view, alertsError: null } : { alertsError: error }
    })
  },
  dismissToast: (id) => {
    set((s) => (s.toasts.some((t) => t.id === id) ? { toasts: s.toasts.filter((t) => t.id !== id) } : {}))
  },
  forgetMarkets: () => {
    flushBatches()
    set((s) => ({
      books: {},
      tickers: {},
      trades: {},
      candles: {},
      user: [],
      // Another profile's or another timeline's: the new one is asked for (hooks/account.ts) or comes in a batch.
      account: null,
      accountError: null,
      accountSeq: s.accountSeq + 1,
      marketsEpoch: s.marketsEpoch + 1,
    }))
  },
  clearInspector: () => {
    flushBatches()
    set({ inspector: [] })
  },
  reset: () => {
    dropQueuedBatches()
    set({ ...initial, toasts: [], journal: [] })
  },
}))

// ---------------------------------------------------------------------------------------------- frame queue
// Batches arrive up to ~60 times a second, and several can land within one frame. Each is merged at once into
// one queued batch (shared/batch-merge.ts, with the store's caps), which is applied with a single set() on the
// next animation frame: one React commit per frame. The reduction runs at that moment against the store as it
// then is, so a change made meanwhile by other code is kept. A hidden document gets no animation frames: the
// queue keeps merging (one batch, bounded) and is applied when the document becomes visible.

/**
 * What the queue keeps of the lists it may shorten: the trades a tape can show and the frames the inspector
 * holds. The merge never drops user updates (shared/batch-merge.ts), so the queue is flushed once they fill the
 * feed; fired alerts and journal entries are never dropped either (each may be a toast or a blotter row).
 */
export const QUEUE_CAPS: MergeCaps = { tradesPerMarket: TAPE_CAP, inspector: INSPECTOR_CAP }

let queued: ViewBatch | null = null
let frame: number | null = null
let timer: ReturnType<typeof setTimeout> | null = null
/** Cancels the flush waiting for the document to be shown; null when none waits. */
let cancelShown: (() => void) | null = null

function schedule(): void {
  if (frame !== null || timer !== null || cancelShown !== null) return
  if (pageHidden()) {
    // Applied when shown (an animation frame requested now would not run before then either).
    cancelShown = whenShown(flushBatches)
    return
  }
  if (typeof requestAnimationFrame === 'function') {
    frame = requestAnimationFrame(() => {
      frame = null
      flushBatches()
    })
  } else {
    // No rendering loop at all (Node): about one frame.
    timer = setTimeout(() => {
      timer = null
      flushBatches()
    }, 16)
  }
}

function cancelScheduled(): void {
  if (frame !== null) cancelAnimationFrame(frame)
  if (timer !== null) clearTimeout(timer)
  cancelShown?.()
  frame = null
  timer = null
  cancelShown = null
}

const batchFrameListeners = new Set<() => void>()

/**
 * Calls `listener` whenever a batch is queued for an animation frame, before that frame: an animation frame asked
 * for in it is the batch's own, after the store's (a canvas drawn then costs no frame of its own). Not called for a
 * hidden document (no frame is coming) or a batch applied at once. Returns the unsubscribe.
 */
export function onBatchFrame(listener: () => void): () => void {
  batchFrameListeners.add(listener)
  return () => {
    batchFrameListeners.delete(listener)
  }
}

/** Queue a batch from the engine: it is applied with every other batch of this frame in one store update. */
export function queueBatch(batch: ViewBatch): void {
  queued = queued === null ? batch : mergeBatches(queued, batch, QUEUE_CAPS)
  // The merge keeps every user update, so a long wait applies them rather than grow.
  if ((queued.user?.length ?? 0) >= USER_FEED_CAP) flushBatches()
  else {
    schedule()
    if (frame !== null) for (const l of [...batchFrameListeners]) l()
  }
}

/** Apply the queued batches now, in one store update (nothing happens when none is queued). */
export function flushBatches(): void {
  cancelScheduled()
  const batch = queued
  queued = null
  if (batch !== null) useMonitor.setState((s) => reduceBatch(s, batch))
}

/** The batch waiting for the next frame (or for the document to be shown), merged; null when none. */
export function queuedBatch(): ViewBatch | null {
  return queued
}

function dropQueuedBatches(): void {
  cancelScheduled()
  queued = null
}

// Stable empty values so selectors return the same reference when a market has no data yet.
export const NO_TRADES: readonly TradeView[] = Object.freeze([])
