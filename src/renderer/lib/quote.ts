// A market's values as alert rules name them (bid, ask, mid, last, spread), read the way every pane reads them:
// the book's best prices when there is a book, else the venue's ticker; the last trade on the tape, else the
// ticker's last. One definition, so the form's "now" and the menus' prefills agree with the engine's subjects.
import type { PriceSubject } from '../../shared/alerts'
import type { BookView, TickerView } from '../../shared/model'
import { formatMid, formatPrice, midOf, spreadOf, type PriceUnit } from './format'

export type Quote = Record<PriceSubject, number | null>

export function quoteOf(
  book: BookView | undefined,
  ticker: TickerView | undefined,
  lastTradePrice: number | undefined,
): Quote {
  const bid = book?.bids[0]?.[0] ?? ticker?.bestBid ?? null
  const ask = book?.asks[0]?.[0] ?? ticker?.bestAsk ?? null
  return {
    bid,
    ask,
    mid: midOf(bid, ask),
    spread: spreadOf(bid, ask),
    last: lastTradePrice ?? ticker?.last ?? null,
  }
}

/** A subject's value as the panes show it (a mid has a tenth of a cent). */
export function formatSubject(subject: PriceSubject, value: number | null, unit: PriceUnit): string {
  return subject === 'mid' ? formatMid(value, unit) : formatPrice(value, unit)
}
