// REST events listing -> EventSummary[]. The listing's shape is unspecified (trading-api.md §4.1), so the
// list is looked for where venues put it and each item's id and title under the names venues use. Items
// that cannot be used are skipped and reported, never thrown.
import type { EventSummary, MarketSummary } from '../model'
import { has, idString, isObj, pick, type Obj } from './values'

export interface EventsListing {
  events: EventSummary[]
  errors: string[]
}

const LIST_KEYS = ['events', 'data', 'items', 'results'] as const
const EVENT_ID_KEYS = ['id', 'event_id', 'eventId', 'ticker', 'event_ticker', 'slug'] as const
const EVENT_TITLE_KEYS = ['title', 'name', 'question', 'slug'] as const
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
const MARKET_TITLE_KEYS = ['title', 'question', 'name', 'subtitle', 'yes_sub_title'] as const

const MAX_STRING = 200
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

function firstKey(o: Obj, keys: readonly string[], read: (v: unknown) => string | undefined) {
  for (const k of keys) {
    if (!has(o, k)) continue
    const v = read(o[k])
    if (v !== undefined) return { key: k, value: v }
  }
  return undefined
}

const titleString = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim().length > 0 ? v.trim().slice(0, MAX_STRING) : undefined

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

function pushError(errors: string[], message: string): void {
  if (errors.length < MAX_ERRORS) errors.push(message)
  else if (errors.length === MAX_ERRORS) errors.push('further errors omitted')
}

function marketsOf(item: Obj, where: string, errors: string[]): MarketSummary[] {
  const raw = pick(item, ['markets'])
  if (raw === undefined) return []
  if (!Array.isArray(raw)) {
    pushError(errors, `${where}.markets is not a list`)
    return []
  }
  const markets: MarketSummary[] = []
  const seen = new Set<string>()
  raw.forEach((m: unknown, j) => {
    const at = `${where}.markets[${j}]`
    if (!isObj(m)) return pushError(errors, `${at} is not an object`)
    const id = firstKey(m, MARKET_ID_KEYS, idString)
    if (id === undefined) return pushError(errors, `${at} has no id`)
    if (seen.has(id.value)) return pushError(errors, `${at} repeats market id ${JSON.stringify(id.value)}`)
    seen.add(id.value)
    const title = firstKey(m, MARKET_TITLE_KEYS, titleString)
    const summary: MarketSummary = { id: id.value, title: title?.value ?? id.value }
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
  list.forEach((item: unknown, i) => {
    const at = `events[${i}]`
    if (!isObj(item)) return pushError(errors, `${at} is not an object`)
    const id = firstKey(item, EVENT_ID_KEYS, idString)
    if (id === undefined) return pushError(errors, `${at} has no id`)
    if (seen.has(id.value)) return pushError(errors, `${at} repeats event id ${JSON.stringify(id.value)}`)
    seen.add(id.value)
    const title = firstKey(item, EVENT_TITLE_KEYS, titleString)
    const summary: EventSummary = {
      id: id.value,
      title: title?.value ?? id.value,
      markets: marketsOf(item, at, errors),
    }
    const extra = extraOf(item, new Set([id.key, title?.key ?? id.key, 'markets']))
    if (extra !== undefined) summary.extra = extra
    events.push(summary)
  })
  return { events, errors }
}
