// Best bid / best ask / last price messages (Coinbase `ticker`, Binance `bookTicker`, Kalshi `ticker`,
// Polymarket `best_bid_ask`).
import type { Update } from '../model'
import type { Ctx } from './context'
import { binaryPrice, complement, dollarPrice, has, num, pick, type Obj } from './values'

const BID_KEYS = ['best_bid', 'bestBid', 'yes_bid', 'bid', 'bid_price', 'bidPrice', 'best_bid_price', 'bidPx']
const ASK_KEYS = ['best_ask', 'bestAsk', 'yes_ask', 'ask', 'ask_price', 'askPrice', 'best_ask_price', 'askPx']
const LAST_KEYS = ['last_price', 'lastPrice', 'last', 'last_trade_price', 'lastPx']
const BINARY_KEYS = ['yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'yes_bid_dollars', 'yes_ask_dollars']

type Field = { value: number | undefined; present: boolean }

function field(o: Obj, keys: readonly string[], dollarsKeys: readonly string[], binary: boolean): Field {
  const raw = pick(o, keys)
  if (raw !== undefined) return { value: binary ? binaryPrice(raw) : num(raw), present: true }
  const dollars = pick(o, dollarsKeys)
  if (dollars !== undefined) return { value: dollarPrice(dollars), present: true }
  return { value: undefined, present: false }
}

export function tryTicker(o: Obj, ctx: Ctx, strong: boolean, out: Update[]): boolean {
  const binary = BINARY_KEYS.some((k) => has(o, k))
  // Bare b/a/c are best bid/ask/last only in a ticker message (Binance bookTicker has B/A beside them).
  const bare = strong || has(o, 'B') || has(o, 'A')
  const bid = field(o, bare ? [...BID_KEYS, 'b'] : BID_KEYS, ['yes_bid_dollars'], binary)
  let ask = field(o, bare ? [...ASK_KEYS, 'a'] : ASK_KEYS, ['yes_ask_dollars'], binary)
  if (!ask.present && binary) {
    const noBid = field(o, ['no_bid'], ['no_bid_dollars'], true)
    if (noBid.present) {
      const v = noBid.value
      ask = { value: v === undefined || !Number.isFinite(v) ? v : complement(v), present: true }
    }
  }
  const last = field(o, strong ? [...LAST_KEYS, 'price', 'c'] : LAST_KEYS, ['price_dollars'], binary)
  if (!bid.present && !ask.present && !last.present) return false
  const fields = [bid, ask, last]
  if (fields.some((f) => f.present && (f.value === undefined || !Number.isFinite(f.value) || f.value < 0))) {
    out.push({ kind: 'unknown', raw: o })
    return true
  }
  const u: Update = { kind: 'ticker', market: ctx.market }
  if (bid.value !== undefined) u.bid = bid.value
  if (ask.value !== undefined) u.ask = ask.value
  if (last.value !== undefined) u.last = last.value
  out.push(u)
  return true
}
