// The ladder's levels where the venue keeps the NO contract's book apart from the YES book (VoxFi). A NO bid at q
// is a YES ask at 1 − q (selling YES at 1 − q is buying NO at q), a NO ask at q a YES bid at 1 − q, the size the
// same. The YES ladder shows its own levels with the NO book's folded in beside them, marked as implied; a YES
// level and an implied one at the same price stay two rows (the book's own first), so what the YES book itself
// holds is never blurred. The NO view shows the NO book alone, in its own prices. Pure: no DOM, unit-tested.
import type { BookView, Level } from '../../../shared/model'

/** Which book the ladder shows: the YES book with the NO book's implied levels, or the NO book alone. */
export type LadderView = 'yes' | 'no'

/** One row of the ladder, best first on its side. */
export interface LadderLevel {
  /** Where the row sits on the ladder shown, in 0–1: a YES price in the YES view, a NO price in the NO view. */
  price: number
  size: number
  /** The book the level comes from. */
  outcome: 'yes' | 'no'
  /** A NO level folded into the YES ladder at 1 − its NO price. */
  implied: boolean
  /** For an implied level, the NO book's own price it comes from. */
  noPrice?: number
}

export interface LadderSides {
  bids: LadderLevel[]
  asks: LadderLevel[]
}

type Sides = Pick<BookView, 'bids' | 'asks'>
type FoldableBook = Sides & Pick<BookView, 'no'>

const SCALE = 1e8

/** 1 − p, rounded off so that 1 − 0.43 is 0.57 (not 0.5700000000000001): prices are ticks, never that fine. */
export function complement(p: number): number {
  return Math.round((1 - p) * SCALE) / SCALE
}

const usable = ([p, s]: Level): boolean => Number.isFinite(p) && Number.isFinite(s) && p >= 0 && p <= 1

/**
 * The NO book's levels as YES levels, best first: NO asks (ascending) become YES bids at 1 − q (descending), NO
 * bids (descending) become YES asks at 1 − q (ascending). Levels outside 0–1 are left out.
 */
export function impliedFromNo(no: Sides): { bids: Level[]; asks: Level[] } {
  return {
    bids: no.asks.filter(usable).map(([q, s]): Level => [complement(q), s]),
    asks: no.bids.filter(usable).map(([q, s]): Level => [complement(q), s]),
  }
}

function own(levels: readonly Level[], outcome: 'yes' | 'no', limit: number): LadderLevel[] {
  const out: LadderLevel[] = []
  for (let i = 0; i < levels.length && out.length < limit; i++) {
    const [price, size] = levels[i] as Level
    out.push({ price, size, outcome, implied: false })
  }
  return out
}

/**
 * The book's own levels and the implied ones as one side, best first (`better(a, b)`: a is a better price than b),
 * at most `limit` rows. At an equal price the own level comes first, then the implied one, as two rows.
 */
function mergeSide(
  yes: readonly Level[],
  implied: readonly Level[],
  noPrices: readonly Level[],
  better: (a: number, b: number) => boolean,
  limit: number,
): LadderLevel[] {
  const out: LadderLevel[] = []
  let i = 0
  let j = 0
  while (out.length < limit && (i < yes.length || j < implied.length)) {
    const a = yes[i]
    const b = implied[j]
    if (a !== undefined && (b === undefined || !better(b[0], a[0]))) {
      out.push({ price: a[0], size: a[1], outcome: 'yes', implied: false })
      i++
    } else if (b !== undefined) {
      out.push({ price: b[0], size: b[1], outcome: 'no', implied: true, noPrice: (noPrices[j] as Level)[0] })
      j++
    }
  }
  return out
}

const higher = (a: number, b: number) => a > b
const lower = (a: number, b: number) => a < b

/**
 * The rows of each side for the view, best first, at most `limit` per side. Without a NO book (every venue but
 * VoxFi) it is the book's own levels whatever the view.
 */
export function ladderSides(book: FoldableBook, view: LadderView, limit: number): LadderSides {
  const no = book.no
  if (!no) return { bids: own(book.bids, 'yes', limit), asks: own(book.asks, 'yes', limit) }
  if (view === 'no') return { bids: own(no.bids, 'no', limit), asks: own(no.asks, 'no', limit) }
  // The NO levels the implied ones come from, in the same order (for each implied row's NO price).
  const noAsks = no.asks.filter(usable)
  const noBids = no.bids.filter(usable)
  const implied = impliedFromNo({ bids: noBids, asks: noAsks })
  return {
    bids: mergeSide(book.bids, implied.bids, noAsks, higher, limit),
    asks: mergeSide(book.asks, implied.asks, noBids, lower, limit),
  }
}

function sumSide(
  yes: readonly Level[],
  implied: readonly Level[],
  better: (a: number, b: number) => boolean,
) {
  const out: Level[] = []
  let i = 0
  let j = 0
  while (i < yes.length || j < implied.length) {
    const a = yes[i]
    const b = implied[j]
    let next: Level
    if (a !== undefined && b !== undefined && a[0] === b[0]) {
      next = [a[0], a[1] + b[1]]
      i++
      j++
    } else if (a !== undefined && (b === undefined || better(a[0], b[0]))) {
      next = a
      i++
    } else {
      next = b as Level
      j++
    }
    out.push(next)
  }
  return out
}

/**
 * The YES book with the NO book folded in as plain levels, sizes summed where a price has both (the depth chart:
 * how much can be dealt at a price or better, whichever book holds it). The book's own sides when it has no NO
 * book.
 */
export function foldedLevels(book: FoldableBook): { bids: readonly Level[]; asks: readonly Level[] } {
  if (!book.no) return { bids: book.bids, asks: book.asks }
  const implied = impliedFromNo(book.no)
  return { bids: sumSide(book.bids, implied.bids, higher), asks: sumSide(book.asks, implied.asks, lower) }
}

/** A NO-book level in YES terms (for alerts, which watch the YES book): the other side, at 1 − q. */
export function yesTermsOfNo(side: 'bid' | 'ask', price: number): { side: 'bid' | 'ask'; price: number } {
  return { side: side === 'bid' ? 'ask' : 'bid', price: complement(price) }
}

/** A row's identity on a ladder: its side, the book it comes from (YES, implied from NO, the NO book's own), its price. */
export function ladderRowId(
  side: 'bid' | 'ask',
  level: Pick<LadderLevel, 'price' | 'implied' | 'outcome'>,
): string {
  const from = level.implied ? 'i' : level.outcome === 'no' ? 'n' : 'y'
  // In millionths: a sub-tick price keeps a row of its own, and float noise does not split one.
  return `${side}:${from}${Math.round(level.price * 1e6)}`
}

/** What the ladder needs of one of the trader's own orders. */
export interface OwnOrder {
  id: string
  market: string
  side: 'buy' | 'sell'
  outcome: 'YES' | 'NO'
  mode: 'live' | 'paper'
  /** Its own outcome's price in ticks; null for a market order (no row to sit on). */
  priceTicks: number | null
  /** Contracts still to fill. */
  remaining: number
}

/**
 * Where the trader's working orders of a market sit on the ladder shown, as a plain text per row (one
 * `id|remaining|mode|side` an order, the id URI-encoded, `;` between), so a row takes its marks as a plain prop and its memo holds while
 * they do not change. In the YES view a YES buy sits on its bid row and a sell on its ask row; a NO order sits on
 * the implied row it makes (a NO buy at q is a YES ask at 1 − q). The NO view shows the NO book's own orders.
 */
export function ownOrderMarks(orders: readonly OwnOrder[], view: LadderView): Map<string, string> {
  const marks = new Map<string, string>()
  const sorted = [...orders].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  for (const o of sorted) {
    if (o.priceTicks === null || o.remaining <= 0) continue
    if (view === 'no' && o.outcome !== 'NO') continue
    const own = view === 'no' || o.outcome === 'YES'
    const side: 'bid' | 'ask' = (o.side === 'buy') === own ? 'bid' : 'ask'
    const price = own ? o.priceTicks / 100 : complement(o.priceTicks / 100)
    const id = ladderRowId(side, { price, implied: !own, outcome: o.outcome === 'NO' ? 'no' : 'yes' })
    const mark = `${encodeURIComponent(o.id)}|${o.remaining}|${o.mode}|${o.side}`
    const held = marks.get(id)
    marks.set(id, held === undefined ? mark : `${held};${mark}`)
  }
  return marks
}

/** One order's mark, read back from a row's text. */
export interface OwnMark {
  id: string
  remaining: number
  mode: 'live' | 'paper'
  side: 'buy' | 'sell'
}

export function parseOwnMarks(text: string): OwnMark[] {
  if (text === '') return []
  return text.split(';').map((part) => {
    const [id = '', remaining = '0', mode, side] = part.split('|')
    return {
      id: decodeURIComponent(id),
      remaining: Number(remaining),
      mode: mode === 'paper' ? 'paper' : 'live',
      side: side === 'sell' ? 'sell' : 'buy',
    }
  })
}
