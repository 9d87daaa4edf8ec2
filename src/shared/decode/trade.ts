// Trade shapes. `side` in the output is always the taker's (aggressor's): venues report it as the taker's
// side, the maker's side (Coinbase `match`, `maker_side`), or a buyer-is-maker flag (Binance `m`).
import type { Side, Update } from '../model'
import type { Ctx } from './context'
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

function takerSide(o: Obj, ctx: Ctx): Side | null {
  const taker = sideWord(pick(o, TAKER_KEYS))
  if (taker !== undefined) return taker
  const maker = sideWord(pick(o, MAKER_KEYS))
  if (maker !== undefined) return invert(maker)
  const buyerMaker = flag(pick(o, BUYER_MAKER_KEYS))
  if (buyerMaker !== undefined) return buyerMaker ? 'sell' : 'buy'
  const side = sideWord(pick(o, SIDE_KEYS))
  if (side !== undefined) return ctx.makerSide ? invert(side) : side
  return null
}

/** The YES price of a binary-venue trade (Kalshi: yes_price in cents, or the NO price's complement). */
function binaryTradePrice(o: Obj): number | undefined {
  if (has(o, 'yes_price')) return binaryPrice(o['yes_price'])
  if (has(o, 'yes_price_dollars')) return dollarPrice(o['yes_price_dollars'])
  if (has(o, 'no_price')) {
    const p = binaryPrice(o['no_price'])
    return p === undefined || !Number.isFinite(p) ? p : complement(p)
  }
  if (has(o, 'no_price_dollars')) {
    const p = dollarPrice(o['no_price_dollars'])
    return p === undefined || !Number.isFinite(p) ? p : complement(p)
  }
  return undefined
}

/**
 * Tries `o` as one trade. `strong` means the message said it is a trade; otherwise a price and size alone are
 * not enough (a bare level looks the same) and a side, id or time must be present too.
 */
export function tryTrade(o: Obj, ctx: Ctx, strong: boolean, out: Update[]): boolean {
  const binRaw = binaryTradePrice(o)
  const pRaw = binRaw !== undefined ? binRaw : pick(o, PRICE_KEYS)
  const sRaw = pick(o, SIZE_KEYS)
  if (pRaw === undefined || sRaw === undefined) return false
  const side = takerSide(o, ctx)
  const idRaw = pick(o, ID_KEYS)
  const ts = tsOf(o)
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
