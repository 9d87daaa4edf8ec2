// Book deltas (ViewBatch.bookDeltas): taking one from two top-N views (the fan-out), applying one to the view it
// names (the window's store, and the fold of two batches), and composing two in a row (the fold). Pure functions
// of immutable views: nothing here mutates what it is given, and a side a delta leaves alone keeps its array, so
// the components' memoised rows see the same objects as with whole views.
import type { ViewBatch } from './ipc'
import { bookDeltaProblem } from './ipc-validate'
import type { BookDelta, BookView, Level, LevelChanges } from './model'

/** The non-level members of a view or delta, copied whole. */
type Whole = Pick<
  BookDelta,
  'state' | 'staleReason' | 'depth' | 'seq' | 'updatedAt' | 'usualGapMs' | 'resyncAttempt' | 'source'
>

function copyWhole<T extends Whole>(into: T, from: Whole): T {
  if (from.usualGapMs !== undefined) into.usualGapMs = from.usualGapMs
  if (from.resyncAttempt !== undefined) into.resyncAttempt = from.resyncAttempt
  if (from.source !== undefined) into.source = from.source
  return into
}

/** 1 where price a comes before b down a side, 0 at the same price, else -1 (NaN too: never in order). */
function order(a: number, b: number, descending: boolean): number {
  return a === b ? 0 : (descending ? a > b : a < b) ? 1 : -1
}

/**
 * The changes from one side's top N to the next's: undefined when there are none, null when the next side holds
 * a level no change can say (size 0 means removed), so the view must go whole. Both sides are best first (a view's
 * are), so one walk down both finds them without building an index of either; a side found out of that order is
 * diffed by price (`changesByPrice`), so the result never depends on it.
 */
function sideChanges(
  before: readonly Level[],
  after: readonly Level[],
  descending: boolean,
): LevelChanges | undefined | null {
  if (before === after) return undefined
  let changes: Level[] | undefined
  let i = 0
  for (let j = 0; j < after.length; j++) {
    const [price, size] = after[j] as Level
    if (!(size > 0)) return null
    if (j > 0 && order((after[j - 1] as Level)[0], price, descending) !== 1)
      return changesByPrice(before, after)
    for (;;) {
      const held = before[i]
      if (held === undefined) {
        ;(changes ??= []).push([price, size])
        break
      }
      if (i > 0 && order((before[i - 1] as Level)[0], held[0], descending) !== 1)
        return changesByPrice(before, after)
      const o = order(held[0], price, descending)
      if (o === 0) {
        if (held[1] !== size) (changes ??= []).push([price, size])
        i++
        break
      }
      if (o < 0) {
        ;(changes ??= []).push([price, size])
        break
      }
      // Gone from the top N: removed from the book, or pushed below the view's depth by a better level.
      ;(changes ??= []).push([held[0], 0])
      i++
    }
  }
  for (; i < before.length; i++) {
    const held = before[i] as Level
    if (i > 0 && order((before[i - 1] as Level)[0], held[0], descending) !== 1)
      return changesByPrice(before, after)
    ;(changes ??= []).push([held[0], 0])
  }
  return changes
}

/** sideChanges for sides in any order: by price. */
function changesByPrice(before: readonly Level[], after: readonly Level[]): LevelChanges | undefined | null {
  const held = new Map<number, number>()
  for (const [price, size] of before) held.set(price, size)
  const changes: Level[] = []
  for (const [price, size] of after) {
    if (!(size > 0)) return null
    if (held.get(price) !== size) changes.push([price, size])
    held.delete(price)
  }
  for (const price of held.keys()) changes.push([price, 0])
  return changes.length > 0 ? changes : undefined
}

function levelCount(view: BookView): number {
  return view.bids.length + view.asks.length + (view.no ? view.no.bids.length + view.no.asks.length : 0)
}

/**
 * The delta that turns `before` (version `base`) into `after` (version `version`), or null when `after` should go
 * whole: another market, a NO book that appeared or went, a new state (a resync's or an epoch's first view is
 * mostly new levels), or a delta no smaller than the view.
 */
export function bookDelta(
  before: BookView,
  after: BookView,
  base: number,
  version: number,
): BookDelta | null {
  if (before.market !== after.market || before.state !== after.state) return null
  if ((before.no === undefined) !== (after.no === undefined)) return null
  const bids = sideChanges(before.bids, after.bids, true)
  const asks = sideChanges(before.asks, after.asks, false)
  const noBids = before.no && after.no ? sideChanges(before.no.bids, after.no.bids, true) : undefined
  const noAsks = before.no && after.no ? sideChanges(before.no.asks, after.no.asks, false) : undefined
  if (bids === null || asks === null || noBids === null || noAsks === null) return null
  const changed = (bids?.length ?? 0) + (asks?.length ?? 0) + (noBids?.length ?? 0) + (noAsks?.length ?? 0)
  if (changed > 0 && changed >= levelCount(after)) return null
  const delta: BookDelta = copyWhole(
    {
      market: after.market,
      base,
      version,
      state: after.state,
      staleReason: after.staleReason,
      depth: after.depth,
      seq: after.seq,
      updatedAt: after.updatedAt,
    },
    after,
  )
  if (bids) delta.bids = bids
  if (asks) delta.asks = asks
  if (after.no) {
    delta.no = { depth: after.no.depth }
    if (noBids) delta.no.bids = noBids
    if (noAsks) delta.no.asks = noAsks
  }
  return delta
}

/** One side with its changes applied, best first; the side itself when there are none. */
function applySide(held: Level[], changes: LevelChanges | undefined, descending: boolean): Level[] {
  if (changes === undefined || changes.length === 0) return held
  const levels = new Map<number, Level>()
  for (const level of held) levels.set(level[0], level)
  for (const [price, size] of changes) {
    if (size === 0) levels.delete(price)
    else levels.set(price, [price, size])
  }
  const side = [...levels.values()]
  return side.sort(descending ? (a, b) => b[0] - a[0] : (a, b) => a[0] - b[0])
}

/**
 * The view `delta` gives from `base`. The caller has checked that `base` is the view the delta names
 * (`base.version === delta.base`) and, where the delta came over a trust boundary, that it is well formed
 * (ipc-validate.ts, bookDeltaProblem); a NO book the base lacks is taken as empty.
 */
export function applyBookDelta(base: BookView, delta: BookDelta): BookView {
  const view: BookView = {
    market: delta.market,
    state: delta.state,
    staleReason: delta.staleReason,
    bids: applySide(base.bids, delta.bids, true),
    asks: applySide(base.asks, delta.asks, false),
    depth: delta.depth,
    seq: delta.seq,
    updatedAt: delta.updatedAt,
  }
  copyWhole(view, delta)
  if (delta.no) {
    view.no = {
      bids: applySide(base.no?.bids ?? [], delta.no.bids, true),
      asks: applySide(base.no?.asks ?? [], delta.no.asks, false),
      depth: delta.no.depth,
    }
  }
  view.version = delta.version
  return view
}

/** Both sides' changes in order: the newer's size of a price wins. */
function composeSide(
  older: LevelChanges | undefined,
  newer: LevelChanges | undefined,
): LevelChanges | undefined {
  if (older === undefined || older.length === 0) return newer
  if (newer === undefined || newer.length === 0) return older
  const byPrice = new Map<number, Level>()
  for (const level of older) byPrice.set(level[0], level)
  for (const level of newer) byPrice.set(level[0], level)
  return [...byPrice.values()]
}

/** One delta doing what `older` then `newer` do; the caller has checked `newer.base === older.version`. */
export function composeBookDeltas(older: BookDelta, newer: BookDelta): BookDelta {
  const delta: BookDelta = copyWhole(
    {
      market: newer.market,
      base: older.base,
      version: newer.version,
      state: newer.state,
      staleReason: newer.staleReason,
      depth: newer.depth,
      seq: newer.seq,
      updatedAt: newer.updatedAt,
    },
    newer,
  )
  const bids = composeSide(older.bids, newer.bids)
  const asks = composeSide(older.asks, newer.asks)
  if (bids) delta.bids = bids
  if (asks) delta.asks = asks
  if (newer.no) {
    delta.no = { depth: newer.no.depth }
    const noBids = composeSide(older.no?.bids, newer.no.bids)
    const noAsks = composeSide(older.no?.asks, newer.no.asks)
    if (noBids) delta.no.bids = noBids
    if (noAsks) delta.no.asks = noAsks
  }
  return delta
}

/** Why a window's book is stale after a delta it could not apply, until the engine's whole view replaces it. */
export const BOOK_BEHIND = 'catching up'

/** A window's books: per market the view shown, and the numbered view the next delta applies to (its base). */
export interface HeldBooks {
  books: Record<string, BookView>
  bases: Record<string, BookView>
}

/**
 * A batch's books received by a window: whole views replace what it holds; a delta applies to the view it names,
 * which must be the base held. One that does not fit, or is malformed, is dropped (the book shown keeps its
 * levels, never wrong ones, but is marked stale: BOOK_BEHIND), its market's base with it, and `lost` says the window must ask for its books whole.
 * Returns new records; `held` is not changed.
 */
export function receiveBooks(
  held: HeldBooks,
  batch: Pick<ViewBatch, 'books' | 'bookDeltas'>,
): HeldBooks & { lost: boolean } {
  const books = { ...held.books }
  const bases = { ...held.bases }
  for (const view of batch.books ?? []) {
    books[view.market] = view
    if (view.version !== undefined) bases[view.market] = view
    else delete bases[view.market]
  }
  let lost = false
  for (const delta of batch.bookDeltas ?? []) {
    const market = (delta as { market?: unknown }).market
    const base = typeof market === 'string' ? bases[market] : undefined
    if (base === undefined || base.version !== delta.base || bookDeltaProblem(delta) !== null) {
      if (typeof market === 'string') {
        delete bases[market]
        const shown = books[market]
        // The engine has moved on from what is shown: never called live until its whole view comes.
        if (shown !== undefined) books[market] = { ...shown, state: 'stale', staleReason: BOOK_BEHIND }
      }
      lost = true
      continue
    }
    const view = applyBookDelta(base, delta)
    books[view.market] = view
    bases[view.market] = view
  }
  return { books, bases, lost }
}
