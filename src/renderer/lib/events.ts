// Search and sorting over the events listing (the main list and the quick-open palette).
import type { EventSummary, MarketSummary } from '../../shared/model'

export type EventSort = 'listing' | 'title' | 'markets-desc' | 'markets-asc' | 'id'

export const EVENT_SORTS: ReadonlyArray<{ value: EventSort; label: string }> = [
  { value: 'listing', label: 'Listing order' },
  { value: 'title', label: 'Title A–Z' },
  { value: 'markets-desc', label: 'Most markets' },
  { value: 'markets-asc', label: 'Fewest markets' },
  { value: 'id', label: 'Event ID' },
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
  }
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
