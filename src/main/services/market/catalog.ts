// The events listing of the active profile: fetched over REST, cached briefly, shared by concurrent callers, and
// kept as an index (event -> markets, market -> event) for routing event-channel data and windows' market sets.
import { fail, ok } from '../../../shared/ipc'
import type { ApiError, EventSummary, PriceGrid, Profile, Result } from '../../../shared/model'
import { scrubError } from '../base/errors'
import type { RestClient } from '../feed/rest'

export interface CatalogSource {
  profile: Profile
  rest: RestClient | null
  /** Why there is no REST client (no endpoint). */
  unavailable: ApiError | null
}

export interface CatalogDeps {
  now(): number
  /** How long a listing is reused (ms). */
  cacheMs: number
  /** The active profile and its REST client, read afresh at each call and compared after the await. */
  current(): CatalogSource
  /** The key to list with, or null (the keychain's own failure is reported by credentialsError()). */
  listingKey(profile: Profile): Promise<string | null>
  credentialsError(): ApiError | null
  isStoredKey(profile: Profile, key: string): Promise<boolean>
  /** A new listing is in the index. */
  onLoaded(): void
  /** The exchange refused the stored key (sticky until the key changes). */
  onKeyRefused(error: ApiError): void
  /** Any failure, after the above: shown as lastError. */
  onFailed(error: ApiError): void
}

export class EventsCatalog {
  private readonly eventMarkets = new Map<string, string[]>()
  private readonly marketEvent = new Map<string, string>()
  private readonly marketTitles = new Map<string, string>()
  private readonly eventTitles = new Map<string, string>()
  private readonly priceGrids = new Map<string, PriceGrid>()
  private indexed = false
  private cache: { profileId: string; at: number; value: EventSummary[] } | null = null
  private inFlight: { profileId: string; promise: Promise<Result<EventSummary[]>> } | null = null
  /** A listing that does not come from REST (a replay's, from its recording), until clear() or useFixed(null). */
  private fixed: Result<EventSummary[]> | null = null

  constructor(private readonly deps: CatalogDeps) {}

  eventOf(market: string): string | undefined {
    return this.marketEvent.get(market)
  }

  marketsOf(event: string): readonly string[] {
    return this.eventMarkets.get(event) ?? []
  }

  knows(event: string): boolean {
    return this.eventMarkets.has(event)
  }

  /** Whether a listing of the current profile has been loaded (so an absent market is really absent). */
  loaded(): boolean {
    return this.indexed
  }

  marketTitle(market: string): string | null {
    return this.marketTitles.get(market) ?? null
  }

  /** The title of the event `market` belongs to, when the listing holds both. */
  eventTitleOf(market: string): string | null {
    const event = this.marketEvent.get(market)
    return event === undefined ? null : (this.eventTitles.get(event) ?? null)
  }

  /** The prices the listing says `market` has, or null. */
  priceGrid(market: string): PriceGrid | null {
    return this.priceGrids.get(market) ?? null
  }

  /** The next list() goes to the exchange (the key changed). */
  invalidate(): void {
    this.cache = null
    this.inFlight = null
  }

  /**
   * Replay: list() answers with these events (null: the recording has none) and never calls the exchange;
   * `undefined` goes back to REST.
   */
  useFixed(events: EventSummary[] | null | undefined): void {
    if (events === undefined) {
      this.fixed = null
      return
    }
    this.fixed =
      events === null
        ? fail({ code: 'unavailable', message: 'This recording has no events listing.' })
        : ok(events)
    if (events !== null) {
      this.index(events)
      this.deps.onLoaded()
    }
  }

  /** Another profile: nothing of this one's listing applies. */
  clear(): void {
    this.fixed = null
    this.invalidate()
    this.eventMarkets.clear()
    this.marketEvent.clear()
    this.marketTitles.clear()
    this.eventTitles.clear()
    this.priceGrids.clear()
    this.indexed = false
  }

  async list(refresh: boolean): Promise<Result<EventSummary[]>> {
    if (this.fixed) return this.fixed
    const { profile, rest, unavailable } = this.deps.current()
    if (!rest) return fail(unavailable ?? { code: 'network', message: 'No connection profile is active.' })
    const cache = this.cache
    if (
      !refresh &&
      cache &&
      cache.profileId === profile.id &&
      this.deps.now() - cache.at < this.deps.cacheMs
    ) {
      return ok(cache.value)
    }
    if (this.inFlight && this.inFlight.profileId === profile.id) return this.inFlight.promise
    const promise = this.fetch(profile, rest)
    this.inFlight = { profileId: profile.id, promise }
    try {
      return await promise
    } finally {
      if (this.inFlight?.promise === promise) this.inFlight = null
    }
  }

  private async fetch(profile: Profile, rest: RestClient): Promise<Result<EventSummary[]>> {
    const key = await this.deps.listingKey(profile)
    if (!key) {
      // A keychain that can't be read is the reason, not a missing key: say so.
      const keychain = this.deps.credentialsError()
      if (keychain) return fail(keychain)
      return fail({
        code: 'no_key',
        message: 'No API key is stored for this profile. Enter one in Settings → API key to list events.',
      })
    }
    const r = await rest.listEvents(key)
    // Compared by id: renaming the profile (a new object, same id) must not throw the listing away.
    if (this.deps.current().profile.id !== profile.id) return r.ok ? r : fail(scrubError(r.error, key))
    if (r.ok) {
      this.cache = { profileId: profile.id, at: this.deps.now(), value: r.value }
      this.index(r.value)
      this.deps.onLoaded()
      return r
    }
    const error = scrubError(r.error, key)
    // A stored key the exchange refuses is a sticky state until the key changes (no retry loop).
    if (
      (error.code === 'unauthorized' || error.code === 'ip_not_allowed') &&
      (await this.deps.isStoredKey(profile, key))
    ) {
      this.deps.onKeyRefused(error)
    }
    this.deps.onFailed(error)
    return fail(error)
  }

  private index(events: readonly EventSummary[]): void {
    this.eventMarkets.clear()
    this.marketEvent.clear()
    this.marketTitles.clear()
    this.eventTitles.clear()
    this.priceGrids.clear()
    for (const ev of events) {
      if (ev.title) this.eventTitles.set(ev.id, ev.title)
      this.eventMarkets.set(
        ev.id,
        ev.markets.map((m) => m.id),
      )
      for (const m of ev.markets) {
        this.marketEvent.set(m.id, ev.id)
        if (m.title) this.marketTitles.set(m.id, m.title)
        if (m.priceGrid) this.priceGrids.set(m.id, m.priceGrid)
      }
    }
    this.indexed = true
  }
}
