// Seeded generators of hostile JSON for the decoder fuzz tests, and the check that an Update is well-formed.
import type { Update } from '../../src/shared/model'

const KEYS = [
  'type',
  'event_type',
  'e',
  'channel',
  'topic',
  'op',
  'event',
  'stream',
  'method',
  'action',
  'market',
  'asset_id',
  'market_ticker',
  'symbol',
  's',
  'product_id',
  'instId',
  'arg',
  'params',
  'bids',
  'asks',
  'b',
  'a',
  'yes',
  'no',
  'yes_dollars',
  'changes',
  'price_changes',
  'updates',
  'price',
  'size',
  'px',
  'sz',
  'p',
  'q',
  'v',
  'qty',
  'amount',
  'count',
  'delta',
  'side',
  'S',
  'taker_side',
  'maker_side',
  'm',
  'is_buyer_maker',
  'yes_price',
  'no_price',
  'yes_bid',
  'no_bid',
  'best_bid',
  'best_ask',
  'last_price',
  'bid',
  'ask',
  'B',
  'A',
  'ts',
  'T',
  'timestamp',
  'time',
  'seq',
  'snapshot',
  'id',
  'trade_id',
  'error',
  'success',
  'result',
  'data',
  'msg',
  'payload',
  'trades',
  'events',
  'tickers',
  'ping',
  'pong',
  'maker_orders',
  'lastUpdateId',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
]
const WORDS = [
  'orderbook',
  'trade',
  'book',
  'price_change',
  'last_trade_price',
  'orderbook_snapshot',
  'orderbook_delta',
  'ticker',
  'match',
  'l2update',
  'snapshot',
  'update',
  'delta',
  'change',
  'depthUpdate',
  'aggTrade',
  'subscribed',
  'unsubscribed',
  'subscribe',
  'error',
  'heartbeat',
  'ping',
  'pong',
  'user',
  'order',
  'fill',
  'position',
  'balance',
  'wallet',
  'market',
  'event',
  'buy',
  'sell',
  'BUY',
  'SELL',
  'yes',
  'no',
  'new',
  'delete',
  'bid',
  'ask',
  'offer',
  '',
  ' ',
  '0.5',
  '-1',
  '1e400',
  'NaN',
  'Infinity',
  'abc',
  '2023-09-25T07:49:37Z',
  'true',
  'false',
  'publicTrade.X',
  'book.X.100ms',
  'user.orders',
]

export function randomValue(rnd: () => number, depth: number): unknown {
  const r = rnd()
  const pickOf = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T
  if (depth > 4 || r < 0.3) {
    const k = Math.floor(rnd() * 9)
    switch (k) {
      case 0:
        return null
      case 1:
        return rnd() < 0.5
      case 2:
        return Math.floor(rnd() * 200) - 50
      case 3:
        return (rnd() - 0.3) * 10 ** Math.floor(rnd() * 20)
      case 4:
        return pickOf(WORDS)
      case 5:
        return String((rnd() - 0.2) * 100)
      case 6:
        return -0
      case 7:
        return 1e308 * (rnd() < 0.5 ? 10 : 1)
      default:
        return pickOf([0, 1, 100, 1.5, 1_700_000_000, 1_700_000_000_000, 1.7e18])
    }
  }
  if (r < 0.55) {
    const n = Math.floor(rnd() * 5)
    const arr: unknown[] = []
    for (let i = 0; i < n; i++) {
      // Level-like pairs are common in real frames.
      arr.push(
        rnd() < 0.4
          ? [randomValue(rnd, depth + 2), randomValue(rnd, depth + 2)]
          : randomValue(rnd, depth + 1),
      )
    }
    return arr
  }
  const o: Record<string, unknown> = {}
  const n = Math.floor(rnd() * 7)
  for (let i = 0; i < n; i++) {
    const key = rnd() < 0.9 ? pickOf(KEYS) : `k${Math.floor(rnd() * 10)}`
    Object.defineProperty(o, key, {
      value: randomValue(rnd, depth + 1),
      enumerable: true,
      configurable: true,
      writable: true,
    })
  }
  return o
}

const SIDES = new Set(['buy', 'sell', null])
const USER_TOPICS = new Set(['order', 'fill', 'position', 'balance', 'other'])
const CONTROL_TOPICS = new Set(['subscribed', 'unsubscribed', 'error', 'heartbeat', 'other'])

export function finite(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v)
}

/** Why `u` is not a well-formed Update, or null. */
export function problem(u: Update): string | null {
  const market = (m: unknown) => m === null || (typeof m === 'string' && m.length > 0)
  switch (u.kind) {
    case 'book': {
      if (!market(u.market) || typeof u.snapshot !== 'boolean') return 'book header'
      if (u.seq !== undefined && !finite(u.seq)) return 'book seq'
      if (u.prevSeq !== undefined && !finite(u.prevSeq)) return 'book prevSeq'
      if (u.relative !== undefined && u.relative !== true) return 'book relative'
      for (const side of [u.bids, u.asks]) {
        if (!Array.isArray(side)) return 'book side'
        for (const l of side) {
          if (!Array.isArray(l) || l.length !== 2 || !finite(l[0]) || !finite(l[1])) return 'book level'
          if (!u.relative && l[1] < 0) return 'negative size'
        }
      }
      return null
    }
    case 'trade':
      if (!market(u.market) || !finite(u.price) || !finite(u.size) || u.size < 0) return 'trade numbers'
      if (!SIDES.has(u.side) || (u.ts !== null && !finite(u.ts))) return 'trade side/ts'
      if (u.id !== undefined && typeof u.id !== 'string') return 'trade id'
      return null
    case 'ticker':
      if (!market(u.market)) return 'ticker market'
      for (const v of [u.bid, u.ask, u.last])
        if (v !== undefined && (!finite(v) || v < 0)) return 'ticker value'
      if (u.bid === undefined && u.ask === undefined && u.last === undefined) return 'empty ticker'
      return null
    case 'user':
      return USER_TOPICS.has(u.topic) && market(u.market) ? null : 'user'
    case 'control':
      if (!CONTROL_TOPICS.has(u.topic)) return 'control topic'
      if (u.topic === 'error' && (typeof u.error !== 'string' || u.error.length === 0)) return 'error code'
      return null
    case 'info':
      return typeof u.topic === 'string' && u.topic.length > 0 && market(u.market) ? null : 'info'
    case 'unknown':
      return 'raw' in u ? null : 'unknown raw'
    default:
      return 'kind'
  }
}

export function mutate(value: unknown, rnd: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => (rnd() < 0.2 ? randomValue(rnd, 3) : mutate(v, rnd)))
  if (typeof value === 'object' && value !== null) {
    const o: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const r = rnd()
      if (r < 0.1) continue
      o[k] = r < 0.3 ? randomValue(rnd, 3) : mutate(v, rnd)
    }
    return o
  }
  return rnd() < 0.3 ? randomValue(rnd, 4) : value
}
