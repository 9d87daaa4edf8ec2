// The policy over a market's data as a whole (book, tape, liveness clock, resync state): when it is forgotten,
// what a silence means, what a lost link marks, and whether a market id is known. Each store keeps its own
// rules; this is where they are applied together, so "forget this market" is written once.
import type { RegistryChange } from '../feed/registry'
import type { MarketLiveness, Silence } from '../health/liveness'
import type { BookStore } from './books'
import type { EventsCatalog } from './catalog'
import type { InterestIndex } from './interests'
import type { RestBooks } from './rest-books'
import type { ResyncTracker } from './resync'
import type { HeldTapes, TapeStore } from './tapes'

export interface MarketDataDeps {
  books: BookStore
  tapes: TapeStore
  liveness: MarketLiveness
  resync: ResyncTracker
  interests: InterestIndex
  catalog: EventsCatalog
  restBooks: RestBooks
  /** A market's book or ticker view changed: windows must hear. */
  changed(market: string): void
}

export class MarketData {
  constructor(private readonly d: MarketDataDeps) {}

  /** Everything held about one market, so a later subscription starts clean (no ghost levels, no stale tape). */
  forget(market: string): void {
    this.d.books.delete(market)
    this.d.tapes.delete(market)
    this.d.liveness.forget(market)
    this.d.resync.forget(market)
  }

  /** Everything held about every market (a new profile, a replay's start or end); windows hear per market. */
  clear(): void {
    const markets = new Set([...this.d.books.markets(), ...this.d.tapes.markets()])
    this.d.books.clear()
    this.d.tapes.clear()
    this.d.resync.clear()
    this.d.liveness.clear()
    for (const market of markets) this.d.changed(market)
  }

  /**
   * A replay is starting: the live tapes and candle histories are taken out of the way, to be restored when the
   * live feed comes back (books are not: a book is asked for anew after any reconnect).
   */
  setAside(): HeldTapes {
    return this.d.tapes.setAside()
  }

  /** The live feed is back after a replay: the tapes set aside return for the markets still watched. */
  restore(held: HeldTapes): void {
    this.d.tapes.restore(held, (market) => this.d.interests.routed(market))
  }

  /** Subscriptions changed: drop what nobody watches any more. Says whether the listing must be loaded. */
  subscriptionsChanged(change: RegistryChange): { needListing: boolean } {
    const { books, interests, catalog } = this.d
    const affected = new Set<string>([...change.market.removed, ...change.market.changed])
    for (const ev of [...change.event.removed, ...change.event.changed]) {
      for (const m of catalog.marketsOf(ev)) affected.add(m)
    }
    for (const market of affected) {
      if (!interests.routed(market)) {
        this.forget(market)
      } else if (!interests.wantsBook(market) && books.has(market)) {
        // Still watched for its ticker or trades, but no window shows its book.
        books.delete(market)
        this.d.resync.forget(market)
      }
    }
    // Windows watching an event need its markets.
    return { needListing: change.event.added.some((ev) => !catalog.knows(ev)) }
  }

  /** The link dropped after it had been open: every book may be behind, and the tapes have a hole. */
  linkLost(): void {
    for (const market of this.d.books.markAllStale('reconnect')) this.d.changed(market)
    this.d.tapes.markGap()
  }

  /** A market went quiet or silent past its usual pace (health/liveness.ts decides which). */
  silent(market: string, silence: Silence): void {
    const { books, interests, restBooks, resync } = this.d
    if (silence === 'quiet') {
      if (books.markQuiet(market)) this.d.changed(market)
    } else if (interests.wantsBook(market) && books.has(market)) {
      // A venue whose stream speaks only when a book changes (VoxFi) is asked over REST what the book is now:
      // a market that changes once in a while stays quiet, not stale.
      if (restBooks.available()) restBooks.verify(market)
      else resync.need(market, 'silent')
    } else if (books.markTickerStale(market)) {
      // Trades-only data has no snapshot to ask for; its next trade brings it back.
      interests.resubscribe([market])
      this.d.changed(market)
    }
  }

  /** Listed, or streaming to us right now (a venue may stream markets its listing leaves out); null: not known yet. */
  isKnown(market: string): boolean | null {
    const { catalog, interests, books, tapes } = this.d
    if (catalog.eventOf(market) !== undefined) return true
    // Streamed to us because we asked, but never answered: the venue does not know it (resync.ts).
    if (this.d.resync.unknown(market)) return false
    if (interests.routed(market) && (books.has(market) || tapes.last(market) !== undefined)) return true
    return catalog.loaded() ? false : null
  }
}
