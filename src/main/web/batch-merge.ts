// Folds view batches that a backed-up page socket could not take yet into one pending batch, so a slow tab
// costs bounded memory: state (status, books, tickers) keeps only the newest value per key, and the
// incremental lists (trades, user updates, inspector frames) keep only their newest entries up to a cap.
import type { ViewBatch } from '../../shared/ipc'

export interface MergeCaps {
  trades: number
  user: number
  inspector: number
}

export const DEFAULT_MERGE_CAPS: MergeCaps = { trades: 2000, user: 500, inspector: 200 }

function newestByMarket<T extends { market: string }>(
  older: T[] | undefined,
  newer: T[] | undefined,
): T[] | undefined {
  if (!older) return newer
  if (!newer) return older
  const byMarket = new Map<string, T>()
  for (const item of older) byMarket.set(item.market, item)
  for (const item of newer) byMarket.set(item.market, item)
  return [...byMarket.values()]
}

function appendCapped<T>(
  older: T[] | undefined,
  newer: T[] | undefined,
  cap: number,
): { list?: T[]; dropped: boolean } {
  if (!older) return newer ? { list: newer.slice(-cap), dropped: newer.length > cap } : { dropped: false }
  if (!newer) return { list: older, dropped: false }
  const all = older.concat(newer)
  return { list: all.slice(-cap), dropped: all.length > cap }
}

export function mergeBatches(
  older: ViewBatch,
  newer: ViewBatch,
  caps: MergeCaps = DEFAULT_MERGE_CAPS,
): ViewBatch {
  const merged: ViewBatch = { seq: newer.seq, at: newer.at }
  const status = newer.status ?? older.status
  if (status) merged.status = status
  const books = newestByMarket(older.books, newer.books)
  if (books) merged.books = books
  const tickers = newestByMarket(older.tickers, newer.tickers)
  if (tickers) merged.tickers = tickers
  const trades = appendCapped(older.trades, newer.trades, caps.trades)
  if (trades.list) {
    // Dropped trades leave a hole in the tape; the first kept trade says so, as after a disconnect.
    const first = trades.list[0]
    merged.trades =
      trades.dropped && first ? [{ ...first, gapBefore: true }, ...trades.list.slice(1)] : trades.list
  }
  const user = appendCapped(older.user, newer.user, caps.user)
  if (user.list) merged.user = user.list
  const inspector = appendCapped(older.inspector, newer.inspector, caps.inspector)
  if (inspector.list) merged.inspector = inspector.list
  if (older.eventsChanged || newer.eventsChanged) merged.eventsChanged = true
  // The page must still learn that its tapes missed the trades made while it was hidden.
  if (older.resume || newer.resume) merged.resume = true
  return merged
}
