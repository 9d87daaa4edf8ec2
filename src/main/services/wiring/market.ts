// Market data: books, tapes, the events listing, which markets are wanted, resyncs, books over REST, and what a
// market's silence means.
import { watchLiveness } from '../health/liveness'
import { LIVENESS_DEFAULTS, RESYNC_DEFAULTS } from '../health/thresholds'
import { BookStore } from '../market/books'
import { EventsCatalog } from '../market/catalog'
import { DayOpens } from '../market/day-open'
import { InterestIndex } from '../market/interests'
import { MarketData } from '../market/market-data'
import { RestBooks } from '../market/rest-books'
import { ResyncTracker } from '../market/resync'
import { TapeStore } from '../market/tapes'
import type { Engine, Wiring } from './engine'

/** A connection that delivered a frame this recently is healthy enough to blame one silent market on itself. */
const DATA_FLOWING_MS = 5_000

type MarketParts =
  'books' | 'tapes' | 'catalog' | 'interests' | 'resync' | 'restBooks' | 'data' | 'stopLiveness'

export function wireMarket(w: Wiring): Pick<Engine, MarketParts> {
  const { options, log, now, parts: p } = w
  const books = new BookStore((market) => p.liveness.usualGap(market), new DayOpens())
  const tapes = new TapeStore()
  const catalog = new EventsCatalog({
    now,
    cacheMs: options.eventsCacheMs ?? 30_000,
    current: () => ({
      profile: p.connection.profile,
      rest: p.connection.rest,
      unavailable: p.connection.unavailable,
    }),
    listingKey: (profile) => p.keys.forListing(profile),
    credentialsError: () => p.status.credentialsError,
    isStoredKey: (profile, key) => p.keys.isStored(profile, key),
    onLoaded: () => {
      p.status.listingLoaded()
      p.clients.refreshMarkets()
      p.fanout.eventsChanged()
      w.statusChanged()
    },
    onKeyRefused: (error) => p.registry.setAuthError(error),
    onFailed: (error) => {
      if (error.code === 'rate_limited') p.incidents.record('rate_limit', error.message)
      p.status.setError(error)
    },
  })
  const interests = new InterestIndex(p.registry, catalog)
  const resync = new ResyncTracker({
    config: { ...RESYNC_DEFAULTS, ...options.resync },
    now,
    random: w.random,
    books,
    incidents: p.incidents,
    log,
    wantedBooks: () => interests.wantedBooks(),
    wantsBook: (market) => interests.wantsBook(market),
    listed: (market) => catalog.eventOf(market) !== undefined,
    resubscribe: (markets) => interests.resubscribe(markets),
    fetchSnapshots: (markets) => p.restBooks.request(markets),
    streamOpen: () => p.connection.isOpen(),
    dataFlowing: () => p.status.heardWithin(DATA_FLOWING_MS, now()),
    reconnect: () => p.connection.reconnectNow(),
    bookChanged: w.bookChanged,
  })
  const restBooks = new RestBooks({
    rest: () => p.connection.rest,
    key: () => p.keys.forListing(p.connection.profile),
    wanted: w.maybeVoxfi,
    wantsBook: (market) => interests.wantsBook(market),
    apply: (market, updates, requestedAt) => p.router.applyRest(market, updates, requestedAt),
    unverified: (market) => resync.need(market, 'silent'),
    log,
    now,
  })
  const liveness = p.liveness
  const data = new MarketData({
    books,
    tapes,
    liveness,
    resync,
    interests,
    catalog,
    restBooks,
    changed: w.bookChanged,
  })
  const stopLiveness = watchLiveness(liveness, {
    checkMs: { ...LIVENESS_DEFAULTS, ...options.liveness }.marketCheckMs,
    now,
    isOpen: () => p.connection.isOpen(),
    onSilence: (market, silence) => data.silent(market, silence),
    holdStale: () => p.silence.active,
    reported: () => p.status.pauseMaybeChanged(),
  })
  return { books, tapes, catalog, interests, resync, restBooks, data, stopLiveness }
}
