// What the page was sent: the browser host's bridge frames as the page received them, read from Playwright's
// WebSocket events (Chromium's DevTools Network domain, which Playwright enables on every page anyway, so
// listening adds work in this Node process only). Gives, per trade key, the TradeView the page got (its `ts` is
// the venue's where it sends one), and per book version of the window's market (its receipt time,
// BookView.updatedAt) the first batch that carried it.
import type { Page } from '@playwright/test'
import type { BookView, TradeView } from '../../src/shared/model'

export interface TradeSeen {
  price: number
  size: number
  /** Venue ts (TradeView.ts: exchange time when sent; the simulator always sends it). */
  ts: number
  /** Engine receive time. */
  receivedAt: number
  /** batch.at of the batch that carried it (engine emit time); NaN for a backfill (getMarketSnapshot). */
  batchAt: number
}

export interface BookSeen {
  /** The venue's sequence of the version, where it sends one (reference dialect), to join with its ts. */
  seq: number | null
  /** BookView.updatedAt: the engine's receive time of the version's latest update. */
  receivedAt: number
  batchAt: number
}

export interface BridgeTap {
  trade(key: string): TradeSeen | undefined
  /** By the version's receipt time (BookView.updatedAt: the engine's receive time of its latest update). */
  book(updatedAt: number): BookSeen | undefined
  /** By the venue's seq (an older renderer's ladder mark). */
  bookBySeq(seq: number): BookSeen | undefined
  /**
   * Bridge batches emitted (batch.at, engine clock) in [from, to] epoch ms, and the market's trades and book views
   * in them. By emit time, not arrival: DevTools events reach this process late when it is busy.
   */
  counts(from: number, to: number): { batches: number; trades: number; books: number }
}

interface Frame {
  batch?: { at?: unknown; trades?: unknown; books?: unknown; bookDeltas?: unknown }
  result?: { ok?: unknown; value?: { trades?: unknown } }
}

function isTrade(v: unknown): v is TradeView {
  if (typeof v !== 'object' || v === null) return false
  const t = v as Partial<TradeView>
  return (
    typeof t.key === 'string' &&
    typeof t.price === 'number' &&
    typeof t.size === 'number' &&
    typeof t.ts === 'number'
  )
}

/** A whole view or a delta (ViewBatch.bookDeltas): both carry the version's market, seq and updatedAt. */
function isBook(v: unknown): v is Pick<BookView, 'market' | 'seq' | 'updatedAt'> {
  if (typeof v !== 'object' || v === null) return false
  const b = v as Partial<BookView>
  return typeof b.market === 'string'
}

/** Call before page.goto(): the bridge socket opens during the page's start-up. */
export function tapBridge(page: Page, market: string): BridgeTap {
  const trades = new Map<string, TradeSeen>()
  const books = new Map<number, BookSeen>()
  const bySeq = new Map<number, BookSeen>()
  /** Per batch: at, trades of the market, book views of the market. */
  const batches: number[] = []
  const onText = (text: string): void => {
    let f: Frame
    try {
      f = JSON.parse(text) as Frame
    } catch {
      return
    }
    if (f.batch !== undefined) {
      const at = typeof f.batch.at === 'number' ? f.batch.at : NaN
      let tradeCount = 0
      let bookCount = 0
      if (Array.isArray(f.batch.trades)) {
        for (const t of f.batch.trades as unknown[]) {
          if (!isTrade(t) || t.market !== market) continue
          tradeCount++
          trades.set(t.key, { price: t.price, size: t.size, ts: t.ts, receivedAt: t.receivedAt, batchAt: at })
        }
      }
      // A window that takes deltas gets most versions as deltas: each is a version the ladder marks all the same.
      const views: unknown[] = [f.batch.books, f.batch.bookDeltas].flatMap((list) =>
        Array.isArray(list) ? (list as unknown[]) : [],
      )
      for (const b of views) {
        if (!isBook(b) || b.market !== market) continue
        bookCount++
        if (b.updatedAt === null || books.has(b.updatedAt)) continue
        const seen = { seq: b.seq, receivedAt: b.updatedAt, batchAt: at }
        books.set(b.updatedAt, seen)
        if (b.seq !== null && !bySeq.has(b.seq)) bySeq.set(b.seq, seen)
      }
      batches.push(at, tradeCount, bookCount)
      return
    }
    const backfill = f.result?.ok === true ? f.result.value?.trades : undefined
    if (Array.isArray(backfill)) {
      for (const t of backfill as unknown[]) {
        if (isTrade(t) && !trades.has(t.key))
          trades.set(t.key, {
            price: t.price,
            size: t.size,
            ts: t.ts,
            receivedAt: t.receivedAt,
            batchAt: NaN,
          })
      }
    }
  }
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string') onText(payload)
    })
  })
  return {
    trade: (key) => trades.get(key),
    book: (updatedAt) => books.get(updatedAt),
    bookBySeq: (seq) => bySeq.get(seq),
    counts: (from, to) => {
      const c = { batches: 0, trades: 0, books: 0 }
      for (let i = 0; i + 2 < batches.length; i += 3) {
        const at = batches[i] as number
        if (!(at >= from && at <= to)) continue
        c.batches++
        c.trades += batches[i + 1] as number
        c.books += batches[i + 2] as number
      }
      return c
    },
  }
}
