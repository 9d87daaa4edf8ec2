// The JSON text of a ViewBatch, as the transports send it (Electron IPC, the browser host's socket). Several
// windows watching the same markets get the very same book and ticker view objects in a flush (the order book
// caches its view per version, the fan-out shares a ticker view per pass), so each view is serialised once and its
// text reused for every window: at the demo load, serialising batches was the engine process's largest cost,
// once per window. The text is byte for byte what JSON.stringify(batch) gives (test/services/fanout/batch-json.test.ts).
import type { ViewBatch } from '../../../shared/ipc'

/**
 * View object -> its JSON text. Views are immutable once handed to the fan-out, so the text never goes stale; the
 * entry lives exactly as long as the view does (the book's cached view, a pass's ticker), so nothing accumulates.
 */
const viewText = new WeakMap<object, string>()

function viewJson(view: object): string {
  let text = viewText.get(view)
  if (text === undefined) {
    text = JSON.stringify(view)
    viewText.set(view, text)
  }
  return text
}

function viewsJson(views: readonly object[], one: (view: object) => string): string {
  let out = '['
  for (let i = 0; i < views.length; i++) {
    if (i > 0) out += ','
    out += one(views[i] as object)
  }
  return `${out}]`
}

/** The text of a book's side (bids or asks) from its shared text; undefined for any other member. */
function sideJson(key: string, value: unknown): string | undefined {
  return (key === 'bids' || key === 'asks') && Array.isArray(value) ? viewJson(value) : undefined
}

/**
 * A book view's text, made from its members' texts: the order book hands out the same bids or asks array until
 * that side changes within the view's depth (order-book.ts), so a delta on one side, or below the top levels,
 * re-serialises only what changed. The NO book (VoxFi) is made of its sides' texts too: a whole book whose YES
 * side changed leaves the NO side's arrays as they were.
 */
function bookJson(view: object): string {
  let text = viewText.get(view)
  if (text !== undefined) return text
  text = membersJson(view as Record<string, unknown>, (key, value) =>
    key === 'no' && typeof value === 'object' && value !== null && !Array.isArray(value)
      ? membersJson(value as Record<string, unknown>, sideJson)
      : sideJson(key, value),
  )
  viewText.set(view, text)
  return text
}

/** `{...}` as JSON.stringify writes a plain object, with `special` giving the text of some members. */
function membersJson(
  value: Record<string, unknown>,
  special: (key: string, member: unknown) => string | undefined,
): string {
  let out = '{'
  let first = true
  for (const key of Object.keys(value)) {
    const member = value[key]
    if (member === undefined) continue
    const text = special(key, member) ?? (JSON.stringify(member) as string | undefined)
    // As JSON.stringify does: a member whose value has no JSON form is left out.
    if (text === undefined) continue
    out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`
    first = false
  }
  return `${out}}`
}

/**
 * Books, book deltas (one object for every window at the same view, book-versions.ts) and tickers are shared
 * views; everything else in a batch (trades, user updates, inspector frames, status)
 * is serialised as is. Trade views are shared too, but caching their text would keep it alive as long as the
 * engine's tapes keep the trade, for about 5% of a batch's bytes.
 */
export function batchJson(batch: ViewBatch): string {
  return membersJson(batch as unknown as Record<string, unknown>, (key, value) =>
    !Array.isArray(value)
      ? undefined
      : key === 'books'
        ? viewsJson(value, bookJson)
        : key === 'tickers' || key === 'bookDeltas'
          ? viewsJson(value, viewJson)
          : undefined,
  )
}
