// Garbage in, valid Update[] out: thousands of seeded random JSON values (biased towards venue-like keys so
// the deep paths run) and random mutations of real shapes. Never a throw, never an empty result, every
// Update well-formed.
import { describe, expect, it } from 'vitest'
import { decodeFrame, decodeValue } from '../../src/shared/decode'
import type { Update } from '../../src/shared/model'
import { mulberry32 } from '../../src/sim/rng'

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

function randomValue(rnd: () => number, depth: number): unknown {
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

// Fixed seeds keep failures reproducible; FUZZ_SEED explores other corners by hand.
const SEED = Number(process.env['FUZZ_SEED'] ?? 0)

const SIDES = new Set(['buy', 'sell', null])
const USER_TOPICS = new Set(['order', 'fill', 'position', 'balance', 'other'])
const CONTROL_TOPICS = new Set(['subscribed', 'unsubscribed', 'error', 'heartbeat', 'other'])

function finite(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v)
}

/** Why `u` is not a well-formed Update, or null. */
function problem(u: Update): string | null {
  const market = (m: unknown) => m === null || (typeof m === 'string' && m.length > 0)
  switch (u.kind) {
    case 'book': {
      if (!market(u.market) || typeof u.snapshot !== 'boolean') return 'book header'
      if (u.seq !== undefined && !finite(u.seq)) return 'book seq'
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
    case 'unknown':
      return 'raw' in u ? null : 'unknown raw'
    default:
      return 'kind'
  }
}

function check(value: unknown): Update[] {
  const out = decodeValue(value)
  expect(Array.isArray(out)).toBe(true)
  expect(out.length).toBeGreaterThan(0)
  for (const u of out) {
    const p = problem(u)
    if (p !== null) throw new Error(`${p}: ${JSON.stringify(u)} from ${JSON.stringify(value)}`)
  }
  return out
}

const SHAPES: unknown[] = [
  {
    channel: 'market',
    type: 'orderbook',
    market: 'm',
    event: 'e',
    snapshot: true,
    seq: 1,
    bids: [[0.5, 1]],
    asks: [[0.6, 2]],
  },
  {
    channel: 'market',
    type: 'trade',
    market: 'm',
    event: 'e',
    price: 0.5,
    size: 1,
    side: 'buy',
    id: 't',
    ts: 1,
  },
  {
    event_type: 'price_change',
    market: 'c',
    price_changes: [{ asset_id: 'A', price: '0.5', size: '1', side: 'BUY' }],
  },
  { type: 'orderbook_snapshot', seq: 1, msg: { market_ticker: 'K', yes: [[8, 3]], no: [[54, 2]] } },
  { type: 'orderbook_delta', seq: 2, msg: { market_ticker: 'K', price: 96, delta: -5, side: 'no' } },
  { type: 'trade', msg: { market_ticker: 'K', yes_price: 36, count: 1, taker_side: 'no', ts: 1669149841 } },
  { e: 'trade', s: 'X', p: '1', q: '2', T: 1, m: true, t: 9 },
  { type: 'l2update', product_id: 'P', changes: [['buy', '1', '2']] },
  { topic: 'publicTrade.X', type: 'snapshot', data: [{ T: 1, s: 'X', S: 'Buy', v: '1', p: '2', i: 'a' }] },
  {
    jsonrpc: '2.0',
    method: 'subscription',
    params: { channel: 'book.X', data: { type: 'change', bids: [['new', 1, 2]], asks: [] } },
  },
  { type: 'ticker', msg: { market_ticker: 'K', price: 48, yes_bid: 45, yes_ask: 53 } },
  { type: 'error', error: 'unauthorized', message: 'no' },
  { channel: 'user', type: 'fill', market: 'm', price: 0.5, size: 1 },
]

function mutate(value: unknown, rnd: () => number): unknown {
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

describe('decoder fuzz (seeded)', () => {
  it('decodes 5000 random JSON values to well-formed updates without throwing', () => {
    const rnd = mulberry32(0xc0ffee + SEED)
    const kinds = new Set<string>()
    for (let i = 0; i < 5000; i++) {
      const value = randomValue(rnd, 0)
      for (const u of check(value)) kinds.add(u.kind)
      // The text path agrees with the value path.
      const r = decodeFrame(JSON.stringify(value) ?? 'null')
      expect(r.ok).toBe(true)
    }
    // The generator is biased enough to reach real decoders, not only `unknown`.
    for (const k of ['book', 'ticker', 'control', 'unknown']) expect(kinds).toContain(k)
  })

  it('decodes 5000 mutations of real venue shapes to well-formed updates', () => {
    const rnd = mulberry32(42 + SEED)
    let decoded = 0
    const kinds = new Set<string>()
    for (let i = 0; i < 5000; i++) {
      const base = SHAPES[i % SHAPES.length]
      const out = check(mutate(base, rnd))
      for (const u of out) kinds.add(u.kind)
      if (out.some((u) => u.kind !== 'unknown')) decoded++
    }
    expect(decoded).toBeGreaterThan(1000)
    expect(kinds).toEqual(new Set(['book', 'trade', 'ticker', 'user', 'control', 'unknown']))
  })

  it('never throws on random text', () => {
    const rnd = mulberry32(7 + SEED)
    const alphabet = '{}[]":,0123456789.-eE truefalsnl\\u'
    for (let i = 0; i < 3000; i++) {
      let s = ''
      const n = Math.floor(rnd() * 40)
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(rnd() * alphabet.length)]
      const r = decodeFrame(s)
      if (r.ok) for (const u of r.updates) expect(problem(u)).toBeNull()
      else expect(r.error).not.toContain('\n')
    }
  })
})
