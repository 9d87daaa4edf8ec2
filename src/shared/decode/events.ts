// REST events listing -> EventSummary[]. The listing's shape is unspecified (trading-api.md §4.1), so the
// list is looked for where venues put it and each item's id and title under the names venues use. Items
// that cannot be used are skipped and reported, never thrown; a field of the wrong type is left out.
// VoxFi (DESIGN §0): the event's `description` is its title, a market's `description` is often empty, and
// ids are UUIDs, so a market without a title of its own is named after its event or its place in it.
import type { EventSummary, MarketSummary, PriceGrid } from '../model'
import { firstKey, has, idString, isObj, pick, type Obj } from './values'

export interface EventsListing {
  events: EventSummary[]
  errors: string[]
}

const LIST_KEYS = ['events', 'data', 'items', 'results'] as const
const EVENT_ID_KEYS = ['id', 'event_id', 'eventId', 'ticker', 'event_ticker', 'slug'] as const
const EVENT_TITLE_KEYS = ['title', 'name', 'question', 'description', 'slug'] as const
const MARKET_ID_KEYS = [
  'id',
  'market_id',
  'marketId',
  'ticker',
  'market_ticker',
  'condition_id',
  'conditionId',
  'asset_id',
] as const
const MARKET_TITLE_KEYS = ['title', 'question', 'name', 'subtitle', 'yes_sub_title', 'description'] as const

/** The typed listing fields of EventSummary and where venues send them, first found wins. */
const CATEGORY_KEYS = ['category'] as const
const TAGS_KEYS = ['tags'] as const
const STATUS_KEYS = ['status', 'state'] as const
const RULES_KEYS = ['rules', 'rules_primary'] as const
const SLUG_KEYS = ['slug'] as const
const STARTS_KEYS = ['starts_at', 'startsAt', 'start_date', 'startDate', 'start_time'] as const
const RESOLVES_KEYS = ['resolves_at', 'resolvesAt', 'resolution_date', 'resolutionDate'] as const
const FINISHED_KEYS = ['finished_at', 'finishedAt'] as const
const SINGLE_MARKET_KEYS = ['is_single_market', 'isSingleMarket'] as const

const MAX_STRING = 200
const MAX_RULES = 4000
const MAX_TAGS = 32
const MAX_TAG = 100
/** ms since epoch accepted as a date: after 1970, before the year 10000. */
const MAX_TIME = 253_402_300_800_000
const MAX_EXTRA_FIELDS = 32
const MAX_ERRORS = 50

export const NO_LIST_ERROR =
  'no events list found (expected an array, or one under events/data/items/results)'

function findList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value
  if (!isObj(value)) return null
  for (const k of LIST_KEYS) {
    if (!has(value, k)) continue
    const v = value[k]
    if (Array.isArray(v)) return v
    // {data: {events: [...]}}
    if (isObj(v)) {
      for (const k2 of LIST_KEYS) if (has(v, k2) && Array.isArray(v[k2])) return v[k2] as unknown[]
    }
  }
  return null
}

const titleString = (v: unknown): string | undefined => textOf(v, MAX_STRING)

function extraOf(
  o: Obj,
  skip: ReadonlySet<string>,
): Record<string, string | number | boolean | null> | undefined {
  const extra: Record<string, string | number | boolean | null> = {}
  let n = 0
  for (const k of Object.keys(o)) {
    if (skip.has(k) || k === '__proto__') continue
    const v = o[k]
    let scalar: string | number | boolean | null | undefined
    if (typeof v === 'string') scalar = v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}…` : v
    else if (typeof v === 'number') scalar = Number.isFinite(v) ? v : undefined
    else if (typeof v === 'boolean' || v === null) scalar = v
    if (scalar === undefined) continue
    extra[k] = scalar
    if (++n >= MAX_EXTRA_FIELDS) break
  }
  return n > 0 ? extra : undefined
}

/** Ids no one can read: UUIDs, long hex (0x… condition ids, Mongo ids), anything very long. */
function opaqueId(id: string): boolean {
  return (
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ||
    /^(0x)?[0-9a-f]{24,}$/i.test(id) ||
    id.length > 64
  )
}

/** Option names that say nothing about a market of a multi-market event. */
const GENERIC_OPTIONS = new Set(['yes', 'no', 'sim', 'não', 'nao'])

/**
 * A market without a title of its own: its event's title when it is the event's only market; else its YES
 * option's name when that says more than "Yes"; else, for an id no one can read, its place in the event
 * ("Market 2"); else its id (a Kalshi ticker reads well enough).
 */
function fallbackMarketTitle(m: Obj, id: string, index: number, eventTitle: string | null): string {
  if (eventTitle !== null) return eventTitle
  const options = m['options']
  if (Array.isArray(options)) {
    const yes = options.find((o: unknown) => isObj(o) && o['option_type'] === 1) ?? options[0]
    if (isObj(yes)) {
      const name = firstKey(yes, ['description', 'name', 'title', 'label'], titleString)
      if (name !== undefined && !GENERIC_OPTIONS.has(name.value.toLowerCase())) return name.value
    }
  }
  return opaqueId(id) ? `Market ${index + 1}` : id
}

/** VoxFi's prices: integer ticks 0–100, read as 0.00–1.00 (DESIGN §0). */
export const VOXFI_PRICE_GRID: Readonly<PriceGrid> = Object.freeze({ min: 0, max: 1, tick: 0.01 })

/**
 * A market's prices, where its shape says: a VoxFi market (YES/NO `options` with their `option_type`) trades
 * in VoxFi's ticks. Other venues' listings do not say, so their markets have none.
 */
function priceGridOf(m: Obj): PriceGrid | undefined {
  const options = m['options']
  if (!Array.isArray(options)) return undefined
  const voxfi = options.some((o: unknown) => isObj(o) && (o['option_type'] === 1 || o['option_type'] === 2))
  return voxfi ? { ...VOXFI_PRICE_GRID } : undefined
}

/** Text capped at `max`, or undefined for anything that is not non-empty text. */
function textOf(v: unknown, max: number): string | undefined {
  if (typeof v !== 'string') return undefined
  const t = v.trim()
  return t.length === 0 ? undefined : t.slice(0, max)
}

/** A list of tag names (strings, or objects naming one), capped; undefined when it is not a list. */
function tagsOf(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined
  const tags: string[] = []
  for (const t of v) {
    const name = isObj(t) ? textOf(pick(t, ['name', 'label', 'slug']), MAX_TAG) : textOf(t, MAX_TAG)
    if (name !== undefined && !tags.includes(name)) tags.push(name)
    if (tags.length >= MAX_TAGS) break
  }
  return tags
}

/** ms since epoch from an ISO date, or from seconds or ms since epoch (told apart by size). */
function timeOf(v: unknown): number | undefined {
  let ms: number | undefined
  if (typeof v === 'number') ms = v < 1e11 ? v * 1000 : v
  else if (typeof v === 'string' && v.trim() !== '' && v.length <= 64) {
    const t = v.trim()
    const n = Number(t)
    ms = Number.isFinite(n) ? (n < 1e11 ? n * 1000 : n) : Date.parse(t)
  }
  return ms !== undefined && Number.isFinite(ms) && ms > 0 && ms < MAX_TIME ? Math.round(ms) : undefined
}

/** The typed listing fields (category, tags, status, ...) and the keys they came from. */
function listingFields(item: Obj, used: Set<string>): Partial<EventSummary> {
  const out: Partial<EventSummary> = {}
  const take = <T>(keys: readonly string[], read: (v: unknown) => T | undefined): T | undefined => {
    const found = firstKey(item, keys, read)
    if (found !== undefined) used.add(found.key)
    return found?.value
  }
  const category = take(CATEGORY_KEYS, (v) => textOf(v, MAX_STRING))
  if (category !== undefined) out.category = category
  const tags = take(TAGS_KEYS, tagsOf)
  if (tags !== undefined) out.tags = tags
  const status = take(STATUS_KEYS, (v) => textOf(v, MAX_STRING))
  if (status !== undefined) out.status = status
  const rules = take(RULES_KEYS, (v) => textOf(v, MAX_RULES))
  if (rules !== undefined) out.rules = rules
  const slug = take(SLUG_KEYS, (v) => textOf(v, MAX_STRING))
  if (slug !== undefined) out.slug = slug
  const startsAt = take(STARTS_KEYS, timeOf)
  if (startsAt !== undefined) out.startsAt = startsAt
  const resolvesAt = take(RESOLVES_KEYS, timeOf)
  if (resolvesAt !== undefined) out.resolvesAt = resolvesAt
  const finishedAt = take(FINISHED_KEYS, timeOf)
  if (finishedAt !== undefined) out.finishedAt = finishedAt
  return out
}

/** Records why an item was skipped; undefined, so a reader can skip and record in one `return`. */
function pushError(errors: string[], message: string): undefined {
  if (errors.length < MAX_ERRORS) errors.push(message)
  else if (errors.length === MAX_ERRORS) errors.push('further errors omitted')
  return undefined
}

/** Where a listing item keeps its id and title, and what it is called in an error. */
interface ItemNames {
  noun: 'event' | 'market'
  ids: readonly string[]
  titles: readonly string[]
}
type Found = { key: string; value: string }
const EVENT_NAMES: ItemNames = { noun: 'event', ids: EVENT_ID_KEYS, titles: EVENT_TITLE_KEYS }
const MARKET_NAMES: ItemNames = { noun: 'market', ids: MARKET_ID_KEYS, titles: MARKET_TITLE_KEYS }

/**
 * A listing item's id and title. An item that cannot be listed (not an object, no id, an id already in `seen`)
 * gives undefined and its reason in `errors`; a listed one's id joins `seen`.
 */
function identify(
  item: unknown,
  at: string,
  names: ItemNames,
  seen: Set<string>,
  errors: string[],
): { o: Obj; id: Found; title: Found | undefined } | undefined {
  if (!isObj(item)) return pushError(errors, `${at} is not an object`)
  const id = firstKey(item, names.ids, idString)
  if (id === undefined) return pushError(errors, `${at} has no id`)
  if (seen.has(id.value))
    return pushError(errors, `${at} repeats ${names.noun} id ${JSON.stringify(id.value)}`)
  seen.add(id.value)
  return { o: item, id, title: firstKey(item, names.titles, titleString) }
}

function marketsOf(item: Obj, where: string, errors: string[], eventTitle: string | null): MarketSummary[] {
  const raw = pick(item, ['markets'])
  if (raw === undefined) return []
  if (!Array.isArray(raw)) {
    pushError(errors, `${where}.markets is not a list`)
    return []
  }
  const flag = pick(item, SINGLE_MARKET_KEYS)
  // The event is its one market's question: VoxFi's `is_single_market`, or a list of one.
  const single = flag === true || (flag !== false && raw.length === 1)
  const markets: MarketSummary[] = []
  const seen = new Set<string>()
  raw.forEach((entry: unknown, j) => {
    const found = identify(entry, `${where}.markets[${j}]`, MARKET_NAMES, seen, errors)
    if (found === undefined) return
    const { o: m, id, title } = found
    const summary: MarketSummary = {
      id: id.value,
      title: title?.value ?? fallbackMarketTitle(m, id.value, j, single ? eventTitle : null),
    }
    const grid = priceGridOf(m)
    if (grid !== undefined) summary.priceGrid = grid
    const extra = extraOf(m, new Set([id.key, title?.key ?? id.key]))
    if (extra !== undefined) summary.extra = extra
    markets.push(summary)
  })
  return markets
}

export function decodeEventsListing(value: unknown): EventsListing {
  const errors: string[] = []
  const list = findList(value)
  if (list === null) return { events: [], errors: [NO_LIST_ERROR] }
  const events: EventSummary[] = []
  const seen = new Set<string>()
  list.forEach((raw: unknown, i) => {
    const at = `events[${i}]`
    const found = identify(raw, at, EVENT_NAMES, seen, errors)
    if (found === undefined) return
    const { o: item, id, title } = found
    const used = new Set([id.key, title?.key ?? id.key, 'markets'])
    const summary: EventSummary = {
      id: id.value,
      title: title?.value ?? id.value,
      markets: marketsOf(item, at, errors, title?.value ?? null),
      ...listingFields(item, used),
    }
    const extra = extraOf(item, used)
    if (extra !== undefined) summary.extra = extra
    events.push(summary)
  })
  return { events, errors }
}
