// Trade shapes. `side` in the output is always the taker's (aggressor's): venues report it as the taker's
// side, the maker's side (Coinbase `match`, `maker_side`), or a buyer-is-maker flag (Binance `m`).
import type { Side, Update } from '../model'
import type { Ctx } from './context'
import { keyList, keysOf, type Shape } from './shape'
import {
  binaryPrice,
  complement,
  dollarPrice,
  flag,
  has,
  idString,
  invert,
  num,
  pick,
  QUANTITY_KEYS,
  sideWord,
  tsOf,
  type Obj,
} from './values'

const PRICE_KEYS = ['price', 'px', 'p', 'trade_price', 'tradePrice', 'match_price', 'rate'] as const
const SIZE_KEYS = [
  ...QUANTITY_KEYS,
  'q',
  'v',
  'count',
  'volume',
  'shares',
  'match_size',
  'contracts',
] as const
const ID_KEYS = ['trade_id', 'tradeId', 'id', 'tid', 'match_id', 't', 'i', 'a'] as const
const TAKER_KEYS = ['taker_side', 'takerSide', 'aggressor_side', 'aggressorSide', 'taker_direction'] as const
const MAKER_KEYS = ['maker_side', 'makerSide'] as const
const BUYER_MAKER_KEYS = ['m', 'is_buyer_maker', 'isBuyerMaker', 'buyer_is_maker', 'buyerIsMaker'] as const
const SIDE_KEYS = ['side', 'S', 'direction', 'aggressor'] as const
// Narrowed to the message's shape (shape.ts), when known: a trade is probed for some sixty keys.
const PRICE_LIST = keyList(PRICE_KEYS)
const SIZE_LIST = keyList(SIZE_KEYS)
const ID_LIST = keyList(ID_KEYS)
const TAKER_LIST = keyList(TAKER_KEYS)
const MAKER_LIST = keyList(MAKER_KEYS)
const BUYER_MAKER_LIST = keyList(BUYER_MAKER_KEYS)
const SIDE_LIST = keyList(SIDE_KEYS)
/** Kalshi's YES or NO price, in cents or dollars: the first of these a trade has decides. */
const BINARY_PRICE_LIST = keyList(['yes_price', 'yes_price_dollars', 'no_price', 'no_price_dollars'])

function takerSide(o: Obj, ctx: Ctx, shape: Shape | null): Side | null {
  const taker = sideWord(pick(o, keysOf(shape, TAKER_LIST)))
  if (taker !== undefined) return taker
  const maker = sideWord(pick(o, keysOf(shape, MAKER_LIST)))
  if (maker !== undefined) return invert(maker)
  const buyerMaker = flag(pick(o, keysOf(shape, BUYER_MAKER_LIST)))
  if (buyerMaker !== undefined) return buyerMaker ? 'sell' : 'buy'
  const side = sideWord(pick(o, keysOf(shape, SIDE_LIST)))
  if (side !== undefined) return ctx.makerSide ? invert(side) : side
  return null
}

/** The YES price of a binary-venue trade (Kalshi: yes_price in cents, or the NO price's complement). */
function binaryTradePrice(o: Obj, shape: Shape | null): number | undefined {
  for (const k of keysOf(shape, BINARY_PRICE_LIST)) {
    if (!has(o, k)) continue
    const dollars = k.endsWith('_dollars')
    const p = dollars ? dollarPrice(o[k]) : binaryPrice(o[k])
    if (k.startsWith('yes')) return p
    return p === undefined || !Number.isFinite(p) ? p : complement(p)
  }
  return undefined
}

/**
 * Tries `o` as one trade. `strong` means the message said it is a trade; otherwise a price and size alone are
 * not enough (a bare level looks the same) and a side, id or time must be present too.
 */
export function tryTrade(
  o: Obj,
  ctx: Ctx,
  strong: boolean,
  out: Update[],
  shape: Shape | null = null,
): boolean {
  const binRaw = binaryTradePrice(o, shape)
  const pRaw = binRaw !== undefined ? binRaw : pick(o, keysOf(shape, PRICE_LIST))
  const sRaw = pick(o, keysOf(shape, SIZE_LIST))
  if (pRaw === undefined || sRaw === undefined) return false
  const side = takerSide(o, ctx, shape)
  const idRaw = pick(o, keysOf(shape, ID_LIST))
  const ts = tsOf(o, shape)
  if (!strong && side === null && idRaw === undefined && ts === null) return false
  const price = binRaw !== undefined ? binRaw : num(pRaw)
  const size = num(sRaw)
  if (
    price === undefined ||
    size === undefined ||
    !Number.isFinite(price) ||
    !Number.isFinite(size) ||
    size < 0
  ) {
    out.push({ kind: 'unknown', raw: o })
    return true
  }
  const u: Update = { kind: 'trade', market: ctx.market, price, size, side, ts: ts ?? ctx.ts }
  const id = idString(idRaw)
  if (id !== undefined) u.id = id
  out.push(u)
  return true
}
