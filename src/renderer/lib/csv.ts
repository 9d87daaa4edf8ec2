// Trades, fills and the order journal as CSV files (RFC 4180: CRLF line ends, a field with a comma, quote, CR or LF
// quoted, quotes doubled). Text that a spreadsheet would run as a formula (= + - @ TAB CR first) gets a leading
// apostrophe, so an id or a venue string can never become one; numbers stay numbers, so a negative size is still -5.
import type { FillRow } from '../../shared/account'
import type { TradeView } from '../../shared/model'
import type { JournalEntry } from '../../shared/trading'
import { nameOf, type MarketNames } from './market-names'

export type CsvValue = string | number | null | undefined

const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/

/** One field: numbers as they are (non-finite ones empty), text guarded against formulas and quoted if needed. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A header line and one line per row, each ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header, ...rows].map((r) => r.map(csvField).join(','))
  return lines.map((l) => `${l}\r\n`).join('')
}

function isoTime(ts: number): string {
  return Number.isFinite(ts) ? new Date(ts).toISOString() : ''
}

/**
 * The market's id, then its event's and its own title from the listing (empty when the listing does not hold
 * it): the id is what joins files together, the titles are what a reader needs.
 */
const MARKET_HEADER = ['market', 'event', 'market_title'] as const

function marketFields(names: MarketNames, market: string | null): CsvValue[] {
  const name = nameOf(names, market)
  return [market, name?.event, name?.market]
}

export const TRADES_HEADER = ['time', ...MARKET_HEADER, 'price', 'size', 'side', 'key'] as const

/** Trades in the order given (the tape keeps oldest first). */
export function tradesCsv(trades: readonly TradeView[], names: MarketNames): string {
  return toCsv(
    TRADES_HEADER,
    trades.map((t) => [isoTime(t.ts), ...marketFields(names, t.market), t.price, t.size, t.side, t.key]),
  )
}

export const FILLS_HEADER = [
  'time',
  ...MARKET_HEADER,
  'price',
  'size',
  'side',
  'order_id',
  'fill_id',
  'mode',
] as const

/**
 * Fills in the order given (the account keeps newest first), each marked live or paper. Unknown fields are empty,
 * never guessed.
 */
export function fillsCsv(fills: readonly FillRow[], names: MarketNames): string {
  return toCsv(
    FILLS_HEADER,
    fills.map((f) => [
      isoTime(f.ts),
      ...marketFields(names, f.market),
      f.price,
      f.size,
      f.side,
      f.orderId,
      f.key,
      f.mode ?? 'live',
    ]),
  )
}

export const JOURNAL_HEADER = [
  'time',
  'mode',
  'action',
  'result',
  ...MARKET_HEADER,
  'side',
  'outcome',
  'kind',
  'price',
  'quantity',
  'status',
  'code',
  'message',
  'rtt_ms',
  'order_id',
  'venue_id',
] as const

/**
 * Order-journal entries in the order given (the blotter's, newest first). The price is the order's own outcome's,
 * in 0–1 like every price the app writes; a field the entry lacks is empty.
 */
export function journalCsv(entries: readonly JournalEntry[], names: MarketNames): string {
  return toCsv(
    JOURNAL_HEADER,
    entries.map((e) => [
      isoTime(e.at),
      e.mode,
      e.action,
      e.outcome,
      ...marketFields(names, e.market),
      e.side,
      e.outcomeOf,
      e.kind,
      e.priceTicks === null || e.priceTicks === undefined ? null : e.priceTicks / 100,
      e.quantity,
      e.status,
      e.code,
      e.message,
      e.rttMs,
      e.orderId,
      e.venueId,
    ]),
  )
}

const pad2 = (n: number): string => String(n).padStart(2, '0')

/**
 * `<kind>-<market>-<YYYYMMDD-HHMMSS>.csv` in local time, or `<kind>-<stamp>.csv` without a market. The market
 * id keeps letters, digits, dot, dash and underscore (anything else becomes `_`), so it is a safe file name.
 */
export function csvFilename(kind: string, market: string | null, at: Date = new Date()): string {
  const stamp =
    `${at.getFullYear()}${pad2(at.getMonth() + 1)}${pad2(at.getDate())}-` +
    `${pad2(at.getHours())}${pad2(at.getMinutes())}${pad2(at.getSeconds())}`
  const safe =
    market === null
      ? ''
      : market
          .replace(/[^A-Za-z0-9._-]+/g, '_')
          .replace(/^[._-]+/, '')
          .slice(0, 80)
  return safe === '' ? `${kind}-${stamp}.csv` : `${kind}-${safe}-${stamp}.csv`
}

/**
 * Save `text` as a file: a Blob behind an `<a download>` click. The browser host downloads it; Electron shows
 * its save dialog (no `will-download` handler is installed). Downloads are not subject to the page's CSP.
 */
export function downloadCsv(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.rel = 'noopener'
  a.style.display = 'none'
  document.body.append(a)
  try {
    a.click()
  } finally {
    a.remove()
    // Revoking at once can cancel the download in some engines; the URL is only needed for the click.
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }
}
