// Field readers for untrusted venue JSON: numbers that may be strings, ids under many names, timestamps in
// any unit. Every reader returns undefined for "absent" and NaN (or null) for "present but unusable", so
// callers can tell a missing field from a broken one.
import type { Level, Side } from '../model'
import { keyList, keysOf, type Shape } from './shape'

export type Obj = Record<string, unknown>

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function has(o: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key)
}

/** First of `keys` whose value is neither undefined nor null. */
export function pick(o: Obj, keys: readonly string[]): unknown {
  for (const k of keys) {
    if (!has(o, k)) continue
    const v = o[k]
    if (v !== undefined && v !== null) return v
  }
  return undefined
}

/** What `firstAt` read at the index it returned. */
let found: unknown

/**
 * The index of the first of `keys` whose value `read` makes something of (neither undefined nor null), that value
 * left in `found`; -1 when none. One loop for `firstKey` and `firstValue`, which allocates nothing (it runs for
 * every frame).
 */
function firstAt(o: Obj, keys: readonly string[], read: (v: unknown) => unknown): number {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string
    if (!has(o, k)) continue
    const v = read(o[k])
    if (v !== undefined && v !== null) {
      found = v
      return i
    }
  }
  return -1
}

/** The first of `keys` whose value `read` makes something of (neither undefined nor null), and that key. */
export function firstKey<T>(
  o: Obj,
  keys: readonly string[],
  read: (v: unknown) => T | null | undefined,
): { key: string; value: T } | undefined {
  const i = firstAt(o, keys, read)
  return i < 0 ? undefined : { key: keys[i] as string, value: found as T }
}

/** What `read` makes of the first of `keys` it makes something of (neither undefined nor null). */
export function firstValue<T>(
  o: Obj,
  keys: readonly string[],
  read: (v: unknown) => T | null | undefined,
): T | undefined {
  return firstAt(o, keys, read) < 0 ? undefined : (found as T)
}

/** The names most venues give a quantity; the book and trade shapes add their own after these. */
export const QUANTITY_KEYS = ['size', 'qty', 'quantity', 'amount', 'sz'] as const

/** A JSON number or numeric string. undefined when absent; NaN when present but not a number. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') {
    const t = v.trim()
    return t === '' ? NaN : Number(t)
  }
  return NaN
}

export function isNumericString(v: string): boolean {
  const t = v.trim()
  return t !== '' && Number.isFinite(Number(t))
}

/** An identifier: a non-empty string or a finite number (venues use both). */
export function idString(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > 0 ? v : undefined
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return undefined
}

// Most specific first: Polymarket sends both `asset_id` (the token whose book this is) and `market` (the
// condition shared by the YES and NO tokens), so `asset_id` must win or the two books would merge.
const MARKET_KEYS = [
  'asset_id',
  'assetId',
  'token_id',
  'market_ticker',
  'marketTicker',
  'market_id',
  'marketId',
  'market',
  'ticker',
  'symbol',
  'product_id',
  'productId',
  'instrument',
  'instrument_name',
  'instrumentName',
  'instId',
  'inst_id',
  'pair',
] as const

/** A market id as sent, or an object naming one ({id}, {ticker}, {symbol}). */
function marketId(v: unknown): string | undefined {
  return idString(v) ?? (isObj(v) ? idString(pick(v, ['id', 'ticker', 'symbol'])) : undefined)
}

const MARKET_LIST = keyList(MARKET_KEYS)

/** The market an object names; `shape` (shape.ts), when given, is the object's. */
export function marketOf(o: Obj, shape: Shape | null = null): string | undefined {
  const id = firstValue(o, keysOf(shape, MARKET_LIST), marketId)
  if (id !== undefined) return id
  // Binance and Bybit put the symbol under a bare `s`; only a non-numeric string can be a symbol.
  const s = has(o, 's') ? o['s'] : undefined
  if (typeof s === 'string' && s.length > 0 && !isNumericString(s)) return s
  return undefined
}

/**
 * Milliseconds since the epoch from seconds, ms, µs or ns (numbers or numeric strings) or an ISO date.
 * Magnitude decides the unit: today is ~1.7e9 s, ~1.7e12 ms, ~1.7e15 µs, ~1.7e18 ns.
 */
export function tsMs(v: unknown): number | null {
  let n: number
  if (typeof v === 'number') n = v
  else if (typeof v === 'string') {
    const t = v.trim()
    if (t === '') return null
    n = Number(t)
    if (Number.isNaN(n)) {
      const d = Date.parse(t)
      return Number.isFinite(d) ? d : null
    }
  } else return null
  if (!Number.isFinite(n) || n <= 0) return null
  if (n < 1e11) return Math.round(n * 1000)
  if (n < 1e14) return Math.round(n)
  if (n < 1e17) return Math.round(n / 1e3)
  return Math.round(n / 1e6)
}

const TS_KEYS = [
  'T',
  'ts',
  'timestamp',
  'time',
  'trade_time',
  'tradeTime',
  'created_time',
  'created_at',
  'createdAt',
  'transact_time',
  'event_time',
  'datetime',
  'date',
  'mts',
  'E',
] as const

const TS_LIST = keyList(TS_KEYS)

/** The time an object gives, in ms; `shape` (shape.ts), when given, is the object's. */
export function tsOf(o: Obj, shape: Shape | null = null): number | null {
  return firstValue(o, keysOf(shape, TS_LIST), tsMs) ?? null
}

/** Side words across venues; YES/NO count as buy/sell of the YES outcome. undefined when not a side word. */
export function sideWord(v: unknown): Side | undefined {
  if (typeof v !== 'string') return undefined
  switch (v.trim().toLowerCase()) {
    case 'buy':
    case 'b':
    case 'bid':
    case 'bids':
    case 'buyer':
    case 'long':
    case 'yes':
      return 'buy'
    case 'sell':
    case 's':
    case 'ask':
    case 'asks':
    case 'offer':
    case 'offers':
    case 'seller':
    case 'short':
    case 'no':
      return 'sell'
    default:
      return undefined
  }
}

export function invert(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy'
}

/** A boolean flag sent as a boolean or as "true"/"false". */
export function flag(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v
  if (v === 'true' || v === 'True') return true
  if (v === 'false' || v === 'False') return false
  return undefined
}

/**
 * A YES-outcome price on a binary venue: integer cents (Kalshi's 1..100) become probabilities, anything
 * fractional is taken as a probability already. Kalshi books are full of 1¢ levels, so 1 counts as cents here.
 * Anything outside [0, 1] after that is not a binary price: NaN, so the item becomes unknown.
 */
export function binaryPrice(v: unknown): number | undefined {
  const n = num(v)
  if (n === undefined) return undefined
  return probability(Number.isInteger(n) && n >= 1 && n <= 100 ? n / 100 : n)
}

/** A binary price already in dollars/probability ("0.4500"): never converted from cents. */
export function dollarPrice(v: unknown): number | undefined {
  const n = num(v)
  return n === undefined ? undefined : probability(n)
}

function probability(p: number): number {
  return p >= 0 && p <= 1 ? p : NaN
}

/** 1 - p without binary-fraction noise (1 - 0.45 = 0.55000000000000004). NaN stays NaN. */
export function complement(p: number): number {
  return Math.round((1 - p) * 1e10) / 1e10
}

/**
 * Whether `list` is [number, number] level pairs that can be used as they are: finite numbers, sizes not
 * negative unless the deltas are relative. The simulator's levels, and many venues', need nothing more.
 */
export function validPairs(list: unknown, relative: boolean): list is Level[] {
  if (!Array.isArray(list)) return false
  const n = list.length
  for (let i = 0; i < n; i++) {
    const l: unknown = list[i]
    if (!Array.isArray(l) || l.length !== 2) return false
    const p: unknown = l[0]
    const z: unknown = l[1]
    if (typeof p !== 'number' || typeof z !== 'number' || !Number.isFinite(p) || !Number.isFinite(z)) {
      return false
    }
    if (!relative && z < 0) return false
  }
  return true
}
