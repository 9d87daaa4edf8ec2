// Order-book shapes: bids/asks lists (arrays or objects), YES/NO binary books, side-tagged level changes
// (possibly for several markets in one message) and Kalshi's relative deltas.
import type { Level, Update } from '../model'
import type { Ctx } from './context'
import { keyList, keysOf, type Shape } from './shape'
import {
  binaryPrice,
  complement,
  dollarPrice,
  has,
  isObj,
  marketOf,
  num,
  pick,
  QUANTITY_KEYS,
  sideWord,
  type Obj,
} from './values'

const PRICE_KEYS = ['price', 'px', 'p', 'price_level', 'rate'] as const
const SIZE_KEYS = [...QUANTITY_KEYS, 's', 'q', 'new_quantity', 'volume', 'shares'] as const
// The lists tryBook probes on every message it is given, narrowed to the message's shape (shape.ts).
const YES_LIST = keyList(['yes'])
const NO_LIST = keyList(['no'])
const YES_DOLLARS_LIST = keyList(['yes_dollars'])
const NO_DOLLARS_LIST = keyList(['no_dollars'])
const BIDS_LIST = keyList(['bids', 'buys'])
const ASKS_LIST = keyList(['asks', 'sells', 'offers'])
const BARE_BIDS_LIST = keyList(['b', 'bid'])
const BARE_ASKS_LIST = keyList(['a', 'ask'])
const CHANGES_LIST = keyList(['price_changes', 'changes', 'updates'])
const LISTS_LIST = keyList(
  [
    YES_LIST,
    NO_LIST,
    YES_DOLLARS_LIST,
    NO_DOLLARS_LIST,
    BIDS_LIST,
    ASKS_LIST,
    BARE_BIDS_LIST,
    BARE_ASKS_LIST,
    CHANGES_LIST,
  ].flatMap((l) => l.keys),
)
const PRICE_LIST = keyList(PRICE_KEYS)
const SIZE_LIST = keyList(SIZE_KEYS)
const SIDE_LIST = keyList(['side', 'S', 'type'])

/** Deribit tags each level with what happened to it: ["new"|"change"|"delete", price, amount]. */
const LEVEL_ACTIONS = new Set(['new', 'change', 'update', 'delete', 'remove'])

type PriceFn = (v: unknown) => number | undefined

/** The first of `keys` that holds an array. (A loop, not `firstKey`: this runs a dozen times a frame.) */
function arrayAt(o: Obj, keys: readonly string[]): unknown[] | undefined {
  for (const k of keys) {
    if (!has(o, k)) continue
    const v = o[k]
    if (Array.isArray(v)) return v
  }
  return undefined
}

function validLevel(price: number | undefined, size: number | undefined, relative: boolean): boolean {
  if (price === undefined || size === undefined || !Number.isFinite(price) || !Number.isFinite(size))
    return false
  return relative || size >= 0
}

/** One level from [price, size, ...] or {price, size}; null when it is not a usable level. */
function level(raw: unknown, price: PriceFn, relative: boolean): Level | null {
  let p: number | undefined
  let s: number | undefined
  if (Array.isArray(raw)) {
    let i = 0
    let deleted = false
    const head: unknown = raw[0]
    if (typeof head === 'string' && LEVEL_ACTIONS.has(head.toLowerCase())) {
      deleted = head.toLowerCase() === 'delete' || head.toLowerCase() === 'remove'
      i = 1
    }
    if (raw.length < i + 2 && !(deleted && raw.length >= i + 1)) return null
    p = price(raw[i])
    s = deleted ? 0 : num(raw[i + 1])
  } else if (isObj(raw)) {
    p = price(pick(raw, PRICE_KEYS))
    s = num(pick(raw, SIZE_KEYS))
  } else return null
  if (!validLevel(p, s, relative)) return null
  return [p as number, s as number]
}

function levels(list: unknown[], price: PriceFn, relative: boolean): Level[] | null {
  const out: Level[] = new Array<Level>(list.length)
  for (let i = 0; i < list.length; i++) {
    const l = level(list[i], price, relative)
    if (l === null) return null
    out[i] = l
  }
  return out
}

const plainPrice: PriceFn = num

/** NO bids at p are YES asks at 1 - p; asks come out best (lowest) first. */
function noToAsks(no: Level[]): Level[] {
  return no.map(([p, s]): Level => [complement(p), s]).sort((a, b) => a[0] - b[0])
}

function bookUpdate(
  ctx: Ctx,
  market: string | null,
  bids: Level[],
  asks: Level[],
  relative: boolean,
): Update {
  const u: Update = { kind: 'book', market, snapshot: ctx.snapshot ?? false, bids, asks }
  if (ctx.seq !== undefined) u.seq = ctx.seq
  if (relative) u.relative = true
  return u
}

/** Books sent as level lists: YES/NO bids, bids and asks, side-tagged changes. */
function tryLists(o: Obj, ctx: Ctx, strong: boolean, out: Update[], shape: Shape | null): boolean {
  // YES/NO binary book (Kalshi): both sides are bids, on the YES and on the NO outcome.
  const yes = arrayAt(o, keysOf(shape, YES_LIST))
  const no = arrayAt(o, keysOf(shape, NO_LIST))
  const yesD = arrayAt(o, keysOf(shape, YES_DOLLARS_LIST))
  const noD = arrayAt(o, keysOf(shape, NO_DOLLARS_LIST))
  if (yes !== undefined || no !== undefined || yesD !== undefined || noD !== undefined) {
    const cents = yes !== undefined || no !== undefined
    const price: PriceFn = cents ? binaryPrice : dollarPrice
    const y = levels((cents ? yes : yesD) ?? [], price, false)
    const n = levels((cents ? no : noD) ?? [], price, false)
    if (y === null || n === null) out.push({ kind: 'unknown', raw: o })
    else
      out.push(
        bookUpdate(
          ctx,
          ctx.market,
          y.sort((a, b) => b[0] - a[0]),
          noToAsks(n),
          false,
        ),
      )
    return true
  }

  const bidsRaw = arrayAt(o, keysOf(shape, BIDS_LIST))
  const asksRaw = arrayAt(o, keysOf(shape, ASKS_LIST))
  // Bare `b`/`a` (Binance, Bybit) are lists only in a book message; in bookTicker they are best prices.
  const bRaw = bidsRaw ?? (strong ? arrayAt(o, keysOf(shape, BARE_BIDS_LIST)) : undefined)
  const aRaw = asksRaw ?? (strong ? arrayAt(o, keysOf(shape, BARE_ASKS_LIST)) : undefined)
  if (bRaw !== undefined || aRaw !== undefined) {
    const bids = levels(bRaw ?? [], plainPrice, false)
    const asks = levels(aRaw ?? [], plainPrice, false)
    if (bids === null || asks === null) out.push({ kind: 'unknown', raw: o })
    else out.push(bookUpdate(ctx, ctx.market, bids, asks, false))
    return true
  }

  const changes = arrayAt(o, keysOf(shape, CHANGES_LIST))
  if (changes !== undefined && (strong || changes.length > 0)) {
    sideTagged(o, changes, ctx, out)
    return true
  }
  return false
}

/**
 * Tries every book shape on `o`. Returns false when `o` is not book-shaped (the caller tries other shapes);
 * true when it pushed updates (a malformed book becomes one `unknown`, the rest of the message still decodes).
 */
export function tryBook(
  o: Obj,
  ctx: Ctx,
  strong: boolean,
  out: Update[],
  shape: Shape | null = null,
): boolean {
  // A message whose shape has none of the keys that hold level lists is not a book of lists: skipped at once.
  if ((shape === null || shape.keys(LISTS_LIST).length > 0) && tryLists(o, ctx, strong, out, shape))
    return true

  // Kalshi orderbook_delta: {price (cents), delta (signed change), side: "yes"|"no"}.
  if (has(o, 'delta') && has(o, 'side') && (has(o, 'price') || has(o, 'price_dollars'))) {
    const side = sideWord(o['side'])
    const p = has(o, 'price') ? binaryPrice(o['price']) : dollarPrice(o['price_dollars'])
    const d = num(o['delta'])
    if (side === undefined || !validLevel(p, d, true)) out.push({ kind: 'unknown', raw: o })
    else {
      const binarySide = isBinarySide(o['side'])
      const lvl: Level = [p as number, d as number]
      if (side === 'buy') out.push(bookUpdate(ctx, ctx.market, [lvl], [], true))
      else out.push(bookUpdate(ctx, ctx.market, [], [binarySide ? [complement(lvl[0]), lvl[1]] : lvl], true))
    }
    return true
  }

  // One level per message, tagged with its side; only when the message says it is a book.
  if (
    strong &&
    has(o, 'side') &&
    pick(o, keysOf(shape, PRICE_LIST)) !== undefined &&
    pick(o, keysOf(shape, SIZE_LIST)) !== undefined
  ) {
    // The message is its own one level: read without the grouping a list of levels needs.
    if (!readTagged(o, shape)) out.push({ kind: 'unknown', raw: o })
    else {
      const lvl = tagged.level
      out.push(bookUpdate(ctx, ctx.market, tagged.buy ? [lvl] : [], tagged.buy ? [] : [lvl], tagged.relative))
    }
    return true
  }
  return false
}

interface Group {
  market: string | null
  bids: Level[]
  asks: Level[]
  relative: boolean
  bad: boolean
}

/** A message's level changes by market, in order of first appearance. */
class Groups {
  // Most messages change one market: its group is kept aside, and the map is made only when a second market
  // shows up.
  private first: Group | null = null
  private map: Map<string | null, Group> | null = null

  of(market: string | null): Group {
    const first = this.first
    if (first === null) return (this.first = newGroup(market))
    if (first.market === market) return first
    this.map ??= new Map([[first.market, first]])
    let g = this.map.get(market)
    if (g === undefined) {
      g = newGroup(market)
      this.map.set(market, g)
    }
    return g
  }

  all(): readonly Group[] {
    if (this.map !== null) return [...this.map.values()]
    return this.first === null ? [] : [this.first]
  }
}

function newGroup(market: string | null): Group {
  return { market, bids: [], asks: [], relative: false, bad: false }
}

/** YES/NO as a side (a binary venue's level or change): its price is the YES outcome's. */
function isBinarySide(v: unknown): boolean {
  // As /^(yes|no)$/i: ASCII letters only, in any case, nothing around them.
  if (typeof v !== 'string' || v.length < 2 || v.length > 3) return false
  const w = v.toLowerCase()
  return w === 'yes' || w === 'no'
}

/**
 * What `readTagged` read last. One object reused for every level: a seek reads a million single-level messages,
 * and each is read whole before the next.
 */
const tagged: { buy: boolean; level: Level; relative: boolean } = {
  buy: true,
  level: [0, 0],
  relative: false,
}

/**
 * One side-tagged level: ["buy", price, size] or {side, price, size|delta}, into `tagged` (a NO level's price
 * made the YES ask it is). False when it is not a usable level. `shape` is the item's, when known.
 */
function readTagged(item: unknown, shape: Shape | null): boolean {
  let sideRaw: unknown
  let p: number | undefined
  let s: number | undefined
  let relative = false
  let binary = false
  if (Array.isArray(item)) {
    sideRaw = item[0]
    p = num(item[1])
    s = num(item[2])
  } else if (isObj(item)) {
    sideRaw = pick(item, keysOf(shape, SIDE_LIST))
    binary = isBinarySide(sideRaw)
    const pRaw = pick(item, keysOf(shape, PRICE_LIST))
    p = binary ? binaryPrice(pRaw) : num(pRaw)
    if (has(item, 'delta')) {
      s = num(item['delta'])
      relative = true
    } else s = num(pick(item, keysOf(shape, SIZE_LIST)))
  } else return false
  const side = sideWord(sideRaw)
  if (side === undefined || !validLevel(p, s, relative)) return false
  tagged.buy = side === 'buy'
  // A binary side is YES or NO: selling NO at p is a YES ask at 1 - p.
  tagged.level = !tagged.buy && binary ? [complement(p as number), s as number] : [p as number, s as number]
  tagged.relative = relative
  return true
}

/**
 * Side-tagged level changes: Polymarket `price_changes: [{asset_id, price, size, side:"BUY"}]` (several
 * markets per message), Coinbase `changes: [["buy", price, size]]`, Coinbase Advanced `updates: [{side:"bid",
 * price_level, new_quantity}]`. One book update per market, in order of first appearance.
 */
function sideTagged(o: Obj, items: unknown[], ctx: Ctx, out: Update[]): void {
  const groups = new Groups()
  for (const item of items) {
    const g = groups.of(isObj(item) ? (marketOf(item) ?? ctx.market) : ctx.market)
    if (!readTagged(item, null)) {
      g.bad = true
      continue
    }
    if (tagged.relative) g.relative = true
    if (tagged.buy) g.bids.push(tagged.level)
    else g.asks.push(tagged.level)
  }
  const all = groups.all()
  if (all.length === 0) {
    out.push(bookUpdate(ctx, ctx.market, [], [], false))
    return
  }
  // A per-subscription sequence number would look like a gap on every market but one.
  const seqCtx = all.length === 1 ? ctx : { ...ctx, seq: undefined }
  for (const g of all) {
    if (g.bad) out.push({ kind: 'unknown', raw: o })
    else out.push(bookUpdate(seqCtx, g.market, g.bids, g.asks, g.relative))
  }
}
