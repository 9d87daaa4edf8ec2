// MarketData against the real stores (books, tapes, liveness): forgetting a market drops all of it in one call,
// clearing tells the windows of every market, a lost link marks books stale and the tapes' gap, and a market the
// venue never answered is not "known" even though its resync made it a book.
import { describe, expect, it } from 'vitest'
import type { RegistryChange } from '../../../src/main/services/feed/registry'
import { MarketLiveness } from '../../../src/main/services/health/liveness'
import { LIVENESS_DEFAULTS } from '../../../src/main/services/health/thresholds'
import { BookStore } from '../../../src/main/services/market/books'
import type { EventsCatalog } from '../../../src/main/services/market/catalog'
import { DayOpens } from '../../../src/main/services/market/day-open'
import type { InterestIndex } from '../../../src/main/services/market/interests'
import { MarketData } from '../../../src/main/services/market/market-data'
import type { RestBooks } from '../../../src/main/services/market/rest-books'
import type { ResyncTracker } from '../../../src/main/services/market/resync'
import { TapeStore } from '../../../src/main/services/market/tapes'

function rig(options: { listed?: string[]; routed?: string[]; unknown?: string[]; loaded?: boolean } = {}) {
  const liveness = new MarketLiveness({ config: LIVENESS_DEFAULTS })
  const books = new BookStore((m) => liveness.usualGap(m), new DayOpens())
  const tapes = new TapeStore()
  const forgotten: string[] = []
  const changed: string[] = []
  const resync = {
    forget: (m: string) => void forgotten.push(m),
    clear: () => {},
    need: () => {},
    unknown: (m: string) => (options.unknown ?? []).includes(m),
  } as unknown as ResyncTracker
  const catalog = {
    eventOf: (m: string) => ((options.listed ?? []).includes(m) ? 'ev' : undefined),
    loaded: () => options.loaded ?? true,
    marketsOf: () => [],
    knows: () => true,
  } as unknown as EventsCatalog
  const interests = {
    routed: (m: string) => (options.routed ?? []).includes(m),
    wantsBook: (m: string) => (options.routed ?? []).includes(m),
    resubscribe: () => {},
  } as unknown as InterestIndex
  const restBooks = { available: () => false, verify: () => {} } as unknown as RestBooks
  const data = new MarketData({
    books,
    tapes,
    liveness,
    resync,
    interests,
    catalog,
    restBooks,
    changed: (m) => void changed.push(m),
  })
  const snapshot = (market: string) =>
    books.apply({ kind: 'book', market, snapshot: true, seq: 1, bids: [[0.4, 1]], asks: [[0.6, 1]] }, 0)
  let ts = 0
  const trade = (market: string) =>
    tapes.push({ kind: 'trade', market, price: 0.5, size: 1, side: 'buy', ts: ++ts }, ts)
  return { data, books, tapes, forgotten, changed, snapshot, trade }
}

const change = (removed: string[]): RegistryChange =>
  ({
    market: { added: [], removed, changed: [] },
    event: { added: [], removed: [], changed: [] },
    user: false,
  }) as unknown as RegistryChange

describe('MarketData', () => {
  it('forgets everything about a market nobody watches any more, and nothing of the others', () => {
    const r = rig({ routed: ['kept'] })
    for (const m of ['gone', 'kept']) {
      r.snapshot(m)
      r.trade(m)
    }
    r.data.subscriptionsChanged(change(['gone', 'kept']))
    expect(r.books.has('gone')).toBe(false)
    expect(r.tapes.history('gone')).toEqual([])
    expect(r.forgotten).toEqual(['gone'])
    expect(r.books.has('kept')).toBe(true)
    expect(r.tapes.history('kept')).toHaveLength(1)
  })

  it('clears every market and tells the windows of each, books and tapes alike', () => {
    const r = rig()
    r.snapshot('a')
    r.trade('b')
    r.data.clear()
    expect([...r.books.markets()]).toEqual([])
    expect([...r.tapes.markets()]).toEqual([])
    expect(r.changed.sort()).toEqual(['a', 'b'])
  })

  it('marks every book stale and the tapes gapped when the link is lost', () => {
    const r = rig()
    r.snapshot('a')
    r.trade('a')
    r.data.linkLost()
    expect(r.books.ticker('a')?.state).toBe('stale')
    expect(r.changed).toEqual(['a'])
    r.trade('a')
    r.trade('a')
    expect(r.tapes.history('a').map((t) => t.gapBefore === true)).toEqual([false, true, false])
  })

  it('knows listed markets and streamed ones, but not one the venue never answered', () => {
    const r = rig({ listed: ['listed'], routed: ['streamed', 'silent'], unknown: ['silent'] })
    r.snapshot('streamed')
    r.snapshot('silent')
    expect(r.data.isKnown('listed')).toBe(true)
    expect(r.data.isKnown('streamed')).toBe(true)
    expect(r.data.isKnown('silent')).toBe(false)
    expect(r.data.isKnown('never-seen')).toBe(false)
    expect(rig({ loaded: false }).data.isKnown('never-seen')).toBeNull()
  })
})
