// Garbage in, valid Update[] out: thousands of seeded random JSON values (biased towards venue-like keys so
// the deep paths run) and random mutations of real shapes. Never a throw, never an empty result, every
// Update well-formed.
import { describe, expect, it } from 'vitest'
import { decodeFrame, decodeValue } from '../../src/shared/decode'
import type { Update } from '../../src/shared/model'
import { mulberry32 } from '../../src/sim/rng'
import { mutate, problem, randomValue } from './fuzz-lib'

// Fixed seeds keep failures reproducible; FUZZ_SEED explores other corners by hand.
const SEED = Number(process.env['FUZZ_SEED'] ?? 0)

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
