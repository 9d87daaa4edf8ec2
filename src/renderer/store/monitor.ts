// The window's view of the engine: one zustand store, changed exactly once per ViewBatch. Components select
// by market id, so a busy market re-renders only the components that show it.
import { create } from 'zustand'
import type { ViewBatch } from '../../shared/ipc'
import type {
  BookView,
  InspectorFrame,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
} from '../../shared/model'
import { applyUserUpdates, emptyAccount, type AccountState } from '../lib/account'

export const TAPE_CAP = 500
export const USER_FEED_CAP = 500
export const INSPECTOR_CAP = 300

export interface MarketSnapshot {
  book: BookView | null
  ticker: TickerView | null
  trades: TradeView[]
}

export interface MonitorState {
  status: StreamStatus | null
  books: Record<string, BookView>
  tickers: Record<string, TickerView>
  /** Per market, oldest first, capped at TAPE_CAP. */
  trades: Record<string, TradeView[]>
  /** Bumped when a market's tape is re-seeded from a snapshot: the chart rebuilds instead of appending. */
  tapeEpoch: Record<string, number>
  /** Oldest first, capped at USER_FEED_CAP. */
  user: UserUpdateView[]
  account: AccountState
  /** Oldest first, capped at INSPECTOR_CAP. */
  inspector: InspectorFrame[]
  /** Bumped when the engine says the events listing changed. */
  eventsVersion: number
  lastBatchSeq: number | null
  lastBatchAt: number | null
  applyBatch(batch: ViewBatch): void
  seedMarket(market: string, snapshot: MarketSnapshot): void
  seedUser(history: readonly UserUpdateView[]): void
  clearInspector(): void
  reset(): void
}

function appendCapped<T>(list: readonly T[], more: readonly T[], cap: number): T[] {
  const joined = list.length === 0 ? [...more] : list.concat(more)
  return joined.length > cap ? joined.slice(joined.length - cap) : joined
}

const initial = {
  status: null,
  books: {},
  tickers: {},
  trades: {},
  tapeEpoch: {},
  user: [],
  account: emptyAccount(),
  inspector: [],
  eventsVersion: 0,
  lastBatchSeq: null,
  lastBatchAt: null,
} satisfies Partial<MonitorState>

/** The state change one batch makes; pure, so the store can apply it in a single set(). */
export function reduceBatch(s: MonitorState, batch: ViewBatch): Partial<MonitorState> {
  // seq < 0 marks a status read outside the batch stream (refreshStatus), not a batch.
  const next: Partial<MonitorState> = batch.seq >= 0 ? { lastBatchSeq: batch.seq, lastBatchAt: batch.at } : {}
  if (batch.status) next.status = batch.status
  if (batch.books && batch.books.length > 0) {
    const books = { ...s.books }
    for (const b of batch.books) books[b.market] = b
    next.books = books
  }
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
    for (const [market, list] of byMarket) trades[market] = appendCapped(trades[market] ?? [], list, TAPE_CAP)
    next.trades = trades
  }
  if (batch.user && batch.user.length > 0) {
    next.user = appendCapped(s.user, batch.user, USER_FEED_CAP)
    next.account = applyUserUpdates(s.account, batch.user)
  }
  if (batch.inspector && batch.inspector.length > 0) {
    next.inspector = appendCapped(s.inspector, batch.inspector, INSPECTOR_CAP)
  }
  if (batch.eventsChanged) next.eventsVersion = s.eventsVersion + 1
  return next
}

export const useMonitor = create<MonitorState>()((set) => ({
  ...initial,
  applyBatch: (batch) => set((s) => reduceBatch(s, batch)),
  seedMarket: (market, snap) =>
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
      const existing = s.trades[market] ?? []
      const seen = new Set(existing.map((t) => t.key))
      const older = snap.trades.filter((t) => !seen.has(t.key))
      if (older.length > 0) {
        const merged = older.concat(existing)
        next.trades = {
          ...s.trades,
          [market]: merged.length > TAPE_CAP ? merged.slice(merged.length - TAPE_CAP) : merged,
        }
      }
      next.tapeEpoch = { ...s.tapeEpoch, [market]: (s.tapeEpoch[market] ?? 0) + 1 }
      return next
    }),
  seedUser: (history) =>
    set((s) => {
      const seen = new Set(s.user.map((u) => u.seq))
      const older = history.filter((u) => !seen.has(u.seq))
      if (older.length === 0) return {}
      const merged = older.concat(s.user).sort((a, b) => a.seq - b.seq)
      const user = merged.length > USER_FEED_CAP ? merged.slice(merged.length - USER_FEED_CAP) : merged
      return { user, account: applyUserUpdates(emptyAccount(), user) }
    }),
  clearInspector: () => set({ inspector: [] }),
  reset: () => set({ ...initial, account: emptyAccount() }),
}))

// Stable empty values so selectors return the same reference when a market has no data yet.
export const NO_TRADES: readonly TradeView[] = Object.freeze([])
