// Which markets the windows' interests cover, read from the subscription registry (direct market interests)
// and the events catalog (markets of watched events): where data is routed, which books are wanted, and how one
// market is resubscribed (through its own subscription, or its event's).
import type { Interest } from '../../../shared/ipc'
import { filterAllows } from '../../../shared/protocol'
import type { EventsCatalog } from './catalog'
import type { SubscriptionRegistry } from '../feed/registry'

export class InterestIndex {
  constructor(
    private readonly registry: SubscriptionRegistry,
    private readonly catalog: EventsCatalog,
  ) {}

  /** Whether data for this market is wanted at all. */
  routed(market: string): boolean {
    if (this.registry.desired('market').has(market)) return true
    const events = this.registry.desired('event')
    if (events.size === 0) return false
    const ev = this.catalog.eventOf(market)
    // A market we cannot place (listing not loaded, or newer than it) is accepted while any event is watched.
    return ev === undefined ? true : events.has(ev)
  }

  /** Whether book data is still expected for a market under the current filters. */
  wantsBook(market: string): boolean {
    const direct = this.registry.desired('market').get(market)
    if (direct !== undefined && filterAllows(direct, 'orderbook')) return true
    const ev = this.catalog.eventOf(market)
    const viaEvent = ev !== undefined ? this.registry.desired('event').get(ev) : undefined
    return viaEvent !== undefined && filterAllows(viaEvent, 'orderbook')
  }

  /** Every market whose book is wanted and placeable (direct, or in a watched event of a loaded listing). */
  *wantedBooks(): Generator<string> {
    for (const [market, filter] of this.registry.desired('market')) {
      if (filterAllows(filter, 'orderbook')) yield market
    }
    for (const [event, filter] of this.registry.desired('event')) {
      if (!filterAllows(filter, 'orderbook')) continue
      for (const market of this.catalog.marketsOf(event)) {
        if (!this.registry.desired('market').has(market)) yield market
      }
    }
  }

  /** A window's market set: its direct markets plus the markets of its watched events. */
  marketsOf(interests: readonly Interest[]): Set<string> {
    const markets = new Set<string>()
    for (const i of interests) {
      if (i.channel === 'market') markets.add(i.id)
      else if (i.channel === 'event') for (const m of this.catalog.marketsOf(i.id)) markets.add(m)
    }
    return markets
  }

  /** Asks the venue again for these markets' data (a fresh snapshot); each event is resubscribed once. */
  resubscribe(markets: Iterable<string>): void {
    const events = new Set<string>()
    let unplaced = false
    for (const market of markets) {
      if (this.registry.desired('market').has(market)) {
        this.registry.resubscribe('market', market)
        continue
      }
      const ev = this.catalog.eventOf(market)
      if (ev === undefined) unplaced = true
      else if (this.registry.desired('event').has(ev)) events.add(ev)
    }
    // A market the listing cannot place came through some watched event: ask them all.
    if (unplaced) for (const ev of this.registry.desired('event').keys()) events.add(ev)
    for (const ev of events) this.registry.resubscribe('event', ev)
  }
}
