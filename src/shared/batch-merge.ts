// Two view batches as one, as if the newer were applied right after the older: the one fold of the browser host
// (a backed-up page socket) and the renderer (batches landing within one frame). Every ViewBatch field has its
// rule in RULES, a mapped type over the batch's keys: a field added to ViewBatch without a rule fails typecheck.
//
// State (status, books, tickers, tapes, the alerts and workspace views) keeps the newest value (per market), a
// book delta folded onto what the older batch had of its market (foldBooks);
// lists (trades, user updates, inspector frames, fired alerts) are appended in order; flags stick if either batch
// set them. Only trades and inspector frames are ever capped, by the caller's caps: account updates and fired
// alerts are never dropped (the account needs each update, each firing is a notification).
import { applyBookDelta, composeBookDeltas } from './book-delta'
import type { ViewBatch } from './ipc'
import { bookDeltaProblem } from './ipc-validate'
import type { BookDelta, BookView, TradeView } from './model'

/** What a caller keeps of the lists it may shorten; an absent cap keeps everything. */
export interface MergeCaps {
  /**
   * Trades kept per market, newest first: a tape that holds no more than this shows the same either way, so no
   * hole is marked.
   */
  tradesPerMarket?: number
  /** Trades kept in all, newest first; the first kept trade of each market that lost some says `gapBefore`. */
  trades?: number
  /** Inspector frames kept, newest first. */
  inspector?: number
}

/** How one field of two batches folds into the merged batch's field; undefined leaves it out. */
export type Rule<T> = (older: T | undefined, newer: T | undefined, fold: Fold) => T | undefined

/** What a rule may know besides its field's two values. */
export interface Fold {
  readonly caps: MergeCaps
  /**
   * The newer batch is a status read (seq < 0, refreshStatus) and the older one a batch of the stream: the
   * stream's position (seq, at) stays the older batch's.
   */
  readonly keepOlderPosition: boolean
  /** Both batches' books and book deltas folded together (foldBooks): the rules of `books` and `bookDeltas`. */
  readonly books: FoldedBooks
}

interface FoldedBooks {
  books?: BookView[]
  bookDeltas?: BookDelta[]
}

/**
 * What a market's book becomes when `change` follows `held` (what the batches so far have of it). A delta on a
 * view it was not taken from, or a malformed one (the renderer folds what came over the wire before its store
 * checks it), goes on as it is: the window refuses it and asks for its books whole.
 */
function foldBook(
  held: BookView | BookDelta | undefined,
  change: BookView | BookDelta,
): BookView | BookDelta {
  if (!('base' in change) || held === undefined || held.version !== change.base) return change
  if (bookDeltaProblem(change) !== null) return change
  if (!('base' in held)) return applyBookDelta(held, change)
  return bookDeltaProblem(held) === null ? composeBookDeltas(held, change) : change
}

/**
 * Books of two batches as one: a whole view replaces what came before, a delta on a whole view is that view with
 * the delta applied (whole), a delta on a delta is one delta from the first's base to the second's view. Within
 * a batch a market is in at most one of the two lists; whole views are taken first.
 */
function foldBooks(older: ViewBatch, newer: ViewBatch): FoldedBooks {
  if (older.bookDeltas === undefined && newer.bookDeltas === undefined)
    return { books: newestByMarket(older.books, newer.books) }
  const byMarket = new Map<string, BookView | BookDelta>()
  for (const batch of [older, newer]) {
    for (const view of batch.books ?? []) byMarket.set(view.market, view)
    for (const delta of batch.bookDeltas ?? [])
      byMarket.set(delta.market, foldBook(byMarket.get(delta.market), delta))
  }
  const books: BookView[] = []
  const bookDeltas: BookDelta[] = []
  for (const change of byMarket.values()) {
    if ('base' in change) bookDeltas.push(change)
    else books.push(change)
  }
  return {
    ...(books.length > 0 ? { books } : {}),
    ...(bookDeltas.length > 0 ? { bookDeltas } : {}),
  }
}

type Rules = { readonly [K in keyof Required<ViewBatch>]: Rule<Required<ViewBatch>[K]> }

/** The newest item per market, older ones replaced. */
export function newestByMarket<T extends { market: string }>(older?: T[], newer?: T[]): T[] | undefined {
  if (!older || older.length === 0) return newer
  if (!newer || newer.length === 0) return older
  const byMarket = new Map<string, T>()
  for (const item of older) byMarket.set(item.market, item)
  for (const item of newer) byMarket.set(item.market, item)
  return [...byMarket.values()]
}

/** Both lists in order, without copying when one is absent. */
export function appended<T>(older: T[] | undefined, newer: T[] | undefined): T[] | undefined {
  if (!older || older.length === 0) return newer
  if (!newer || newer.length === 0) return older
  return older.concat(newer)
}

/** The newest `cap` entries (all when no cap). */
export function newest<T>(list: T[], cap: number | undefined): T[] {
  return cap !== undefined && list.length > cap ? list.slice(list.length - cap) : list
}

/** The newest `cap` trades of each market, in order. */
export function capTradesPerMarket(trades: TradeView[], cap: number): TradeView[] {
  if (trades.length <= cap) return trades
  const kept: TradeView[] = []
  const count = new Map<string, number>()
  for (let i = trades.length - 1; i >= 0; i--) {
    const t = trades[i] as TradeView
    const n = count.get(t.market) ?? 0
    if (n >= cap) continue
    count.set(t.market, n + 1)
    kept.push(t)
  }
  return kept.length === trades.length ? trades : kept.reverse()
}

/**
 * The newest `cap` trades in all. Dropped trades leave a hole in their market's tape, so the first kept trade of
 * each market that lost some says `gapBefore`, as after a disconnect.
 */
function capTradesInAll(trades: TradeView[], cap: number): TradeView[] {
  if (trades.length <= cap) return trades
  const cut = trades.length - cap
  const lost = new Set<string>()
  for (let i = 0; i < cut; i++) lost.add((trades[i] as TradeView).market)
  const kept = trades.slice(cut)
  for (let i = 0; i < kept.length && lost.size > 0; i++) {
    const t = kept[i] as TradeView
    if (!lost.delete(t.market)) continue
    if (t.gapBefore !== true) kept[i] = { ...t, gapBefore: true }
  }
  return kept
}

const position: Rule<number> = (older, newer, fold) => (fold.keepOlderPosition ? older : newer)
const newestValue = <T>(older: T | undefined, newer: T | undefined): T | undefined => newer ?? older
const flag = (older: true | undefined, newer: true | undefined): true | undefined =>
  older || newer ? true : undefined

const RULES: Rules = {
  seq: position,
  at: position,
  status: newestValue,
  books: (_older, _newer, fold) => fold.books.books,
  bookDeltas: (_older, _newer, fold) => fold.books.bookDeltas,
  tickers: newestByMarket,
  tapes: newestByMarket,
  trades: (older, newer, { caps }) => {
    let trades = appended(older, newer)
    if (trades === undefined) return undefined
    if (caps.tradesPerMarket !== undefined) trades = capTradesPerMarket(trades, caps.tradesPerMarket)
    if (caps.trades !== undefined) trades = capTradesInAll(trades, caps.trades)
    return trades
  },
  user: appended,
  inspector: (older, newer, { caps }) => {
    const frames = appended(older, newer)
    return frames && newest(frames, caps.inspector)
  },
  eventsChanged: flag,
  resume: flag,
  alerts: newestValue,
  alertsFired: appended,
  workspace: newestValue,
  // The account view is whole each time: the newest wins. Journal entries are records, never dropped.
  account: newestValue,
  journal: appended,
}

const FIELDS = Object.keys(RULES) as Array<keyof ViewBatch>

function mergeField<K extends keyof ViewBatch>(
  merged: ViewBatch,
  key: K,
  older: ViewBatch,
  newer: ViewBatch,
  fold: Fold,
): void {
  const rule = RULES[key] as Rule<ViewBatch[K]>
  const value = rule(older[key], newer[key], fold)
  if (value !== undefined) merged[key] = value
}

/** Two batches as one; `caps` are the caller's (none: nothing is dropped). */
export function mergeBatches(older: ViewBatch, newer: ViewBatch, caps: MergeCaps = {}): ViewBatch {
  const fold: Fold = {
    caps,
    keepOlderPosition: newer.seq < 0 && older.seq >= 0,
    books: foldBooks(older, newer),
  }
  const merged: ViewBatch = { seq: newer.seq, at: newer.at }
  for (const key of FIELDS) mergeField(merged, key, older, newer, fold)
  return merged
}
