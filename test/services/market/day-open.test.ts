// The day's open per market: the first trade of the local day, kept until the next local midnight, bounded.
import { describe, expect, it } from 'vitest'
import { BookStore } from '../../../src/main/services/market/books'
import { DayOpens } from '../../../src/main/services/market/day-open'

function at(h: number, m = 0, day = 23): number {
  return new Date(2026, 10, day, h, m).getTime()
}

describe('DayOpens', () => {
  it('keeps the first price of the day and opens a new day after local midnight', () => {
    const opens = new DayOpens()
    expect(opens.get('m', at(9))).toBeNull()
    opens.note('m', 0.42, at(9, 30))
    opens.note('m', 0.5, at(10))
    expect(opens.get('m', at(12))).toEqual({ price: 0.42, at: at(9, 30) })
    // Yesterday's open is not today's: nothing until today's first trade.
    expect(opens.get('m', at(0, 5, 24))).toBeNull()
    opens.note('m', 0.61, at(0, 10, 24))
    expect(opens.get('m', at(1, 0, 24))).toEqual({ price: 0.61, at: at(0, 10, 24) })
  })

  it('forgets the least recently opened market past its bound', () => {
    const opens = new DayOpens(2)
    opens.note('a', 1, at(9))
    opens.note('b', 2, at(9))
    opens.note('c', 3, at(9))
    expect(opens.get('a', at(10))).toBeNull()
    expect(opens.get('b', at(10))?.price).toBe(2)
    expect(opens.get('c', at(10))?.price).toBe(3)
  })
})

describe('the ticker carries the open', () => {
  it('from trades and venue tickers, and keeps it when the book store forgets the market', () => {
    const opens = new DayOpens()
    const books = new BookStore(() => null, opens)
    const now = Date.now()
    books.setLast('m', 0.3, now)
    books.setLast('m', 0.35, now + 1)
    expect(books.ticker('m')).toMatchObject({ last: 0.35, open: 0.3, openAt: now })
    books.clear()
    books.applyTicker({ kind: 'ticker', market: 'm', last: 0.4 }, now + 2)
    expect(books.ticker('m')).toMatchObject({ last: 0.4, open: 0.3 })
    books.applyTicker({ kind: 'ticker', market: 'n', last: 0.7 }, now + 3)
    expect(books.ticker('n')).toMatchObject({ open: 0.7, openAt: now + 3 })
  })
})
