// Folds view batches that a backed-up page socket could not take yet into one pending batch, so a slow tab
// costs bounded memory: state (status, books, tickers) keeps only the newest value per key, and the
// incremental lists (trades, user updates, inspector frames) keep only their newest entries up to a cap.
import { appended, newestByMarket } from '../../shared/batch-merge'
import type { ViewBatch } from '../../shared/ipc'

export interface MergeCaps {
  trades: number
  user: number
  inspector: number
}

export const DEFAULT_MERGE_CAPS: MergeCaps = { trades: 2000, user: 500, inspector: 200 }

/** Both lists in order, then the newest `cap`; says whether any were dropped. */
function appendCapped<T>(
  older: T[] | undefined,
  newer: T[] | undefined,
  cap: number,
): { list?: T[]; dropped: boolean } {
  const all = appended(older, newer)
  if (!all) return { dropped: false }
  return all.length > cap ? { list: all.slice(-cap), dropped: true } : { list: all, dropped: false }
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
  const alerts = newer.alerts ?? older.alerts
  if (alerts) merged.alerts = alerts
  // Every fired alert is a notification the trader must get; they are rare (cooldowns), so none is dropped.
  const fired = appended(older.alertsFired, newer.alertsFired)
  if (fired) merged.alertsFired = fired
  if (older.eventsChanged || newer.eventsChanged) merged.eventsChanged = true
  // The page must still learn that its tapes missed the trades made while it was hidden.
  if (older.resume || newer.resume) merged.resume = true
  return merged
}
