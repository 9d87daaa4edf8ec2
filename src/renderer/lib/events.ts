// Search, filters and sorting over the events listing (the main list and the quick-open palette), and an
// event's time to resolution as the list and the market header show it.
import type { EventSummary, MarketSummary } from '../../shared/model'
import { formatTimeLeft } from './format'

export type EventSort = 'listing' | 'title' | 'markets-desc' | 'markets-asc' | 'id' | 'resolves'

export const EVENT_SORTS: ReadonlyArray<{ value: EventSort; label: string }> = [
  { value: 'listing', label: 'Listing order' },
  { value: 'title', label: 'Title A–Z' },
  { value: 'markets-desc', label: 'Most markets' },
  { value: 'markets-asc', label: 'Fewest markets' },
  { value: 'id', label: 'Event ID' },
  { value: 'resolves', label: 'Closing soonest' },
]

export function tokens(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean)
}

function matchesAll(text: string, words: readonly string[]): boolean {
  const t = text.toLowerCase()
  return words.every((w) => t.includes(w))
}

export interface EventMatch {
  event: EventSummary
  /** Markets whose title or id matched; all markets when the event itself matched. */
  markets: MarketSummary[]
  /** The event matched through its markets only. */
  viaMarkets: boolean
}

/** Events whose title/id, or one of whose markets' title/id, contains every word of the query. */
export function searchEvents(events: readonly EventSummary[], query: string): EventMatch[] {
  const words = tokens(query)
  if (words.length === 0) return events.map((event) => ({ event, markets: event.markets, viaMarkets: false }))
  const out: EventMatch[] = []
  for (const event of events) {
    if (matchesAll(`${event.title} ${event.id}`, words)) {
      out.push({ event, markets: event.markets, viaMarkets: false })
      continue
    }
    const markets = event.markets.filter((m) => matchesAll(`${event.title} ${m.title} ${m.id}`, words))
    if (markets.length > 0) out.push({ event, markets, viaMarkets: true })
  }
  return out
}

export function sortEvents<T extends { event: EventSummary }>(items: readonly T[], sort: EventSort): T[] {
  const copy = [...items]
  const byTitle = (a: T, b: T) => a.event.title.localeCompare(b.event.title)
  switch (sort) {
    case 'listing':
      return copy
    case 'title':
      return copy.sort(byTitle)
    case 'markets-desc':
      return copy.sort((a, b) => b.event.markets.length - a.event.markets.length || byTitle(a, b))
    case 'markets-asc':
      return copy.sort((a, b) => a.event.markets.length - b.event.markets.length || byTitle(a, b))
    case 'id':
      return copy.sort((a, b) => a.event.id.localeCompare(b.event.id, undefined, { numeric: true }))
    case 'resolves':
      // Soonest first; events without a resolution time after every dated one, in listing order.
      return copy.sort((a, b) => (a.event.resolvesAt ?? Infinity) - (b.event.resolvesAt ?? Infinity) || 0)
  }
}

// ------------------------------------------------------------------------------------------ category and tag

export interface EventFilters {
  /** Only events of this category (as the venue spells it); null: any. */
  category: string | null
  /** Only events carrying this tag; null: any. */
  tag: string | null
}

export const NO_EVENT_FILTERS: EventFilters = { category: null, tag: null }

export interface Facet {
  value: string
  /** Events that have it. */
  count: number
}

function facetList(counts: Map<string, number>): Facet[] {
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => a.value.localeCompare(b.value, undefined, { sensitivity: 'base' }))
}

/** The categories and tags the listing has, A–Z, with how many events carry each; empty where the venue sends none. */
export function eventFacets(events: readonly EventSummary[]): { categories: Facet[]; tags: Facet[] } {
  const categories = new Map<string, number>()
  const tags = new Map<string, number>()
  for (const e of events) {
    if (e.category) categories.set(e.category, (categories.get(e.category) ?? 0) + 1)
    for (const t of new Set(e.tags ?? [])) if (t) tags.set(t, (tags.get(t) ?? 0) + 1)
  }
  return { categories: facetList(categories), tags: facetList(tags) }
}

/** The events of the chosen category that carry the chosen tag (both when both are chosen); the same list when none is. */
export function filterEvents(events: readonly EventSummary[], f: EventFilters): readonly EventSummary[] {
  if (f.category === null && f.tag === null) return events
  return events.filter(
    (e) =>
      (f.category === null || e.category === f.category) &&
      (f.tag === null || (e.tags ?? []).includes(f.tag)),
  )
}

// ------------------------------------------------------------------------------------------ time to resolution

/**
 * Where an event stands in time: `upcoming` (starts later), `open` (a resolution time ahead), `closing` (less
 * than an hour to it), `closed` (its resolution time or finish has passed, or the venue says closed), `resolved`
 * (the venue says resolved or settled), `none` (nothing to count down to).
 */
export type EventPhase = 'upcoming' | 'open' | 'closing' | 'closed' | 'resolved' | 'none'

/** Less than this to the resolution time: `closing`, said as "closes in 12m". */
export const CLOSING_MS = 3_600_000

const RESOLVED_WORDS = /^(resolved|settled|finali[sz]ed|paid[ _-]?out)$/i
const CLOSED_WORDS = /^(closed|finished|ended|expired|halted|suspended|cancel+ed|voided?)$/i

export interface EventTiming {
  phase: EventPhase
  /** Short: "3d 4h", "closes in 12m", "opens in 2h 5m", "closed", "resolved"; "" for `none`. */
  text: string
  /** Whether the text will change as time passes (a countdown is running). */
  running: boolean
}

/** The event's countdown at `now` (ms since epoch), from the venue's status and its start, resolution and finish times. */
export function eventTiming(
  e: Pick<EventSummary, 'status' | 'startsAt' | 'resolvesAt' | 'finishedAt'>,
  now: number,
): EventTiming {
  const status = e.status?.trim() ?? ''
  if (RESOLVED_WORDS.test(status)) return { phase: 'resolved', text: 'resolved', running: false }
  if (CLOSED_WORDS.test(status) || (e.finishedAt !== undefined && e.finishedAt <= now))
    return { phase: 'closed', text: 'closed', running: false }
  if (e.startsAt !== undefined && e.startsAt > now)
    return { phase: 'upcoming', text: `opens in ${formatTimeLeft(e.startsAt - now)}`, running: true }
  if (e.resolvesAt === undefined) return { phase: 'none', text: '', running: false }
  const left = e.resolvesAt - now
  if (left <= 0) return { phase: 'closed', text: 'closed', running: false }
  if (left < CLOSING_MS) return { phase: 'closing', text: `closes in ${formatTimeLeft(left)}`, running: true }
  return { phase: 'open', text: formatTimeLeft(left), running: true }
}

/** The next moment the countdown must be looked at again (its start or resolution), or null when none is ahead. */
export function nextTimingChange(
  e: Pick<EventSummary, 'startsAt' | 'resolvesAt'>,
  now: number,
): number | null {
  if (e.startsAt !== undefined && e.startsAt > now) return e.startsAt
  if (e.resolvesAt !== undefined && e.resolvesAt > now) return e.resolvesAt
  return null
}

export type QuickItem =
  | { kind: 'event'; id: string; title: string; detail: string }
  | { kind: 'market'; id: string; title: string; detail: string; eventId: string }

/** Quick-open results: markets and events, best matches first (title prefix, then word start, then anywhere). */
export function quickOpen(events: readonly EventSummary[], query: string, limit = 50): QuickItem[] {
  const words = tokens(query)
  const scored: Array<{ item: QuickItem; score: number }> = []
  const score = (title: string): number => {
    const t = title.toLowerCase()
    const first = words[0] ?? ''
    if (t.startsWith(first)) return 0
    if (t.includes(` ${first}`)) return 1
    return 2
  }
  for (const e of events) {
    const eItem: QuickItem = {
      kind: 'event',
      id: e.id,
      title: e.title,
      detail: `${e.markets.length} markets`,
    }
    if (words.length === 0 || matchesAll(`${e.title} ${e.id}`, words))
      scored.push({ item: eItem, score: score(e.title) + 0.5 })
    for (const m of e.markets) {
      if (words.length === 0 || matchesAll(`${m.title} ${m.id} ${e.title}`, words))
        scored.push({
          item: { kind: 'market', id: m.id, title: m.title, detail: e.title, eventId: e.id },
          score: score(m.title),
        })
    }
  }
  if (words.length === 0) return scored.slice(0, limit).map((s) => s.item)
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((s) => s.item)
}

/** Find a market and its event in the listing. */
export function findMarket(
  events: readonly EventSummary[],
  marketId: string,
): { event: EventSummary; market: MarketSummary } | null {
  for (const event of events) {
    const market = event.markets.find((m) => m.id === marketId)
    if (market) return { event, market }
  }
  return null
}
