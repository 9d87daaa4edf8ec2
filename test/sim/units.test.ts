// Pure parts of the simulator: config schema, key rules, book dynamics, determinism of generated data.
import { describe, expect, it } from 'vitest'
import { buildCatalog } from '../../src/sim/catalog'
import { ConfigError, parseConfig, resolveConfig } from '../../src/sim/config'
import { Firehose, type FirehoseBook } from '../../src/sim/firehose'
import { KeyStore, normaliseIp } from '../../src/sim/keys'
import { MAX_LEVELS, MIN_LEVELS, MarketBook } from '../../src/sim/market'
import { DemoAccount } from '../../src/sim/account'

describe('config', () => {
  it('accepts the DESIGN §3.1 example and fills defaults', () => {
    const c = parseConfig({
      keys: [
        {
          value: 'k-live',
          name: 'desk',
          expiresAt: '2030-01-01T00:00:00Z',
          enabled: true,
          revoked: false,
          allowedIps: ['127.0.0.1'],
          permissions: ['read_orders', 'create_orders', 'cancel_orders', 'read_positions', 'read_wallet'],
        },
      ],
      events: 12,
      marketsPerEvent: 4,
      rateLimit: { requests: 120, windowMs: 60000 },
    })
    expect(c.keys?.[0]?.value).toBe('k-live')
    expect(resolveConfig({})).toEqual({
      keys: [],
      events: 12,
      marketsPerEvent: 4,
      rateLimit: { requests: 120, windowMs: 60000 },
      tradeRateLimit: { requests: 40, windowMs: 1000 },
      orderAnswer: 'a',
    })
  })

  it.each([
    [{ events: 0 }, 'events'],
    [{ keys: [{ value: '' }] }, 'keys.0.value'],
    [{ keys: [{ value: 'a', permissions: ['fly'] }] }, 'keys.0.permissions'],
    [{ keys: [{ value: 'a', expiresAt: 'tomorrow' }] }, 'keys.0.expiresAt'],
    [{ rateLimit: { requests: 0, windowMs: 1 } }, 'rateLimit.requests'],
    [{ bogus: 1 }, '(root)'],
    [{ keys: [{ value: 'a' }, { value: 'a' }] }, 'duplicate'],
    [[], '(root)'],
  ])('rejects %j with a one-line reason naming %s', (value, where) => {
    expect(() => parseConfig(value)).toThrow(ConfigError)
    try {
      parseConfig(value)
    } catch (e) {
      expect((e as Error).message).toContain(where)
      expect((e as Error).message).not.toContain('\n')
    }
  })
})

describe('keys (spec §5)', () => {
  const now = Date.parse('2026-06-01T00:00:00Z')
  const store = new KeyStore([
    { value: 'open' },
    { value: 'expired', expiresAt: '2026-01-01T00:00:00Z' },
    { value: 'future', expiresAt: '2030-01-01T00:00:00Z' },
    { value: 'disabled', enabled: false },
    { value: 'revoked', revoked: true },
    { value: 'local', allowedIps: ['127.0.0.1'] },
    { value: 'mapped', allowedIps: ['::ffff:127.0.0.2'] },
    { value: 'some', permissions: ['read_wallet'] },
    { value: 'none', permissions: [] },
  ])

  it('missing, unknown, expired, disabled and revoked keys are unauthorized', () => {
    for (const v of [undefined, '', 'nope', 'expired', 'disabled', 'revoked']) {
      expect(store.check(v, '127.0.0.1', now)).toEqual({ ok: false, error: 'unauthorized' })
    }
    expect(store.check('future', '127.0.0.1', now).ok).toBe(true)
    expect(store.check('open', '10.1.2.3', now).ok).toBe(true)
  })

  it('allowed IPs: exact match, IPv4-mapped IPv6 compares as IPv4, empty allows all', () => {
    expect(store.check('local', '127.0.0.1', now).ok).toBe(true)
    expect(store.check('local', '::ffff:127.0.0.1', now).ok).toBe(true)
    expect(store.check('local', '127.0.0.2', now)).toEqual({ ok: false, error: 'ip not allowed' })
    expect(store.check('mapped', '127.0.0.2', now).ok).toBe(true)
    expect(store.check('mapped', '127.0.0.1', now)).toEqual({ ok: false, error: 'ip not allowed' })
    expect(normaliseIp('::FFFF:10.0.0.1')).toBe('10.0.0.1')
    expect(normaliseIp('::1')).toBe('::1')
  })

  it('key state is checked before the address', () => {
    const s = new KeyStore([{ value: 'x', revoked: true, allowedIps: ['10.0.0.1'] }])
    expect(s.check('x', '127.0.0.1')).toEqual({ ok: false, error: 'unauthorized' })
  })

  it('permissions default to all five when empty or missing', () => {
    const all = ['read_orders', 'create_orders', 'cancel_orders', 'read_positions', 'read_wallet']
    expect(store.get('open')?.permissions).toEqual(all)
    expect(store.get('none')?.permissions).toEqual(all)
    expect(store.get('some')?.permissions).toEqual(['read_wallet'])
  })

  it('runtime updates revoke, disable and re-enable', () => {
    const s = new KeyStore([{ value: 'k' }])
    expect(s.update('k', { revoked: true })).toBe(true)
    expect(s.check('k', '127.0.0.1').ok).toBe(false)
    expect(s.update('missing', { revoked: true })).toBe(false)
    s.update('k', { revoked: false, enabled: false })
    expect(s.check('k', '127.0.0.1').ok).toBe(false)
    s.update('k', { enabled: true })
    expect(s.check('k', '127.0.0.1').ok).toBe(true)
  })
})

type Book = { bids: Map<number, number>; asks: Map<number, number> }
const toMap = (levels: Array<[number, number]>): Map<number, number> => new Map(levels)

function applyDelta(book: Book, bids: Array<[number, number]>, asks: Array<[number, number]>): void {
  for (const [p, s] of bids) {
    if (s === 0) book.bids.delete(p)
    else book.bids.set(p, s)
  }
  for (const [p, s] of asks) {
    if (s === 0) book.asks.delete(p)
    else book.asks.set(p, s)
  }
}

describe('market book', () => {
  it('keeps bid < ask, 10–30 levels a side, 0.01 ticks in (0,1), deltas that rebuild the book, and trades at the touch', () => {
    const m = new MarketBook('m', 'e', 42, 3)
    const snap = m.snapshot()
    const book: Book = { bids: toMap(snap.bids), asks: toMap(snap.asks) }
    let seq = snap.seq
    let trades = 0
    let lastTradeStep = 0
    for (let step = 1; step <= 5000; step++) {
      const bb = Math.max(...book.bids.keys())
      const ba = Math.min(...book.asks.keys())
      const out = m.step(step)
      if (out.trade !== null) {
        trades++
        expect(step - lastTradeStep).toBeLessThanOrEqual(8)
        lastTradeStep = step
        // The taker's side decides which touch it takes.
        expect(out.trade.price).toBe(out.trade.side === 'buy' ? ba : bb)
        const before = out.trade.side === 'buy' ? book.asks.get(ba) : book.bids.get(bb)
        expect(out.trade.size).toBeGreaterThan(0)
        expect(out.trade.size).toBeLessThanOrEqual(before ?? 0)
        expect(out.delta).not.toBeNull()
      }
      if (out.delta !== null) {
        expect(out.delta.seq).toBe(seq + 1)
        seq = out.delta.seq
        applyDelta(book, out.delta.bids, out.delta.asks)
      }
      expect(book.bids.size).toBeGreaterThanOrEqual(MIN_LEVELS)
      expect(book.bids.size).toBeLessThanOrEqual(MAX_LEVELS)
      expect(book.asks.size).toBeGreaterThanOrEqual(MIN_LEVELS)
      expect(book.asks.size).toBeLessThanOrEqual(MAX_LEVELS)
      expect(Math.max(...book.bids.keys())).toBeLessThan(Math.min(...book.asks.keys()))
    }
    for (const p of [...book.bids.keys(), ...book.asks.keys()]) {
      expect(p).toBeGreaterThan(0)
      expect(p).toBeLessThan(1)
      expect(Math.abs(p * 100 - Math.round(p * 100))).toBeLessThan(1e-9)
    }
    const end = m.snapshot()
    expect(end.seq).toBe(seq)
    expect(toMap(end.bids)).toEqual(book.bids)
    expect(toMap(end.asks)).toEqual(book.asks)
    expect(trades).toBeGreaterThan(5000 / 8)
  })

  it('is deterministic for a seed and differs across seeds', () => {
    const run = (seed: number): unknown[] => {
      const m = new MarketBook('m', 'e', seed, 0)
      const out: unknown[] = [m.snapshot()]
      for (let s = 1; s <= 300; s++) out.push(m.step(s))
      return out
    }
    expect(run(5)).toEqual(run(5))
    expect(run(5)).not.toEqual(run(6))
  })

  it('an outside taker (a VoxFi user order) takes from a level; a swept side is quoted again at the next step', () => {
    // A free market (no fair value): only the refill brings a swept side back at once.
    const m = new MarketBook('m', 'e', 3, 0)
    const before = m.snapshot()
    const [p0, q0] = before.asks[0]!
    const t0 = Math.round(p0 * 100)
    expect(() => m.take('buy', t0, q0 + 1)).toThrow(RangeError)
    m.take('buy', t0, 1)
    expect(m.snapshot().asks[0]).toEqual([p0, q0 - 1])
    for (const [p, q] of m.snapshot().asks) m.take('buy', Math.round(p * 100), q)
    expect(m.snapshot().asks).toEqual([])
    m.printed(Math.round(before.asks.at(-1)![0] * 100))
    expect(m.lastPrice).toBe(before.asks.at(-1)![0])
    m.step(1)
    const after = m.snapshot()
    expect(after.asks.length).toBeGreaterThanOrEqual(MIN_LEVELS)
    expect(after.asks[0]![0]).toBeGreaterThan(after.bids[0]![0])
    // Behind the deepest level taken: the makers come back where the sweep ended (a step may improve by a tick).
    expect(Math.round(after.asks[0]![0] * 100)).toBeGreaterThanOrEqual(
      Math.round(before.asks.at(-1)![0] * 100) - 1,
    )
  })

  it('gap skips exactly one seq; the crossed delta crosses without touching the real book', () => {
    const m = new MarketBook('m', 'e', 1, 0)
    m.skipSeq()
    let d = null
    for (let s = 1; d === null; s++) d = m.step(s).delta
    expect(d.seq).toBe(2)
    const before = m.snapshot()
    const crossed = m.crossedDelta()
    expect(crossed.seq).toBe(3)
    const bid = crossed.bids[0]
    expect(bid?.[0]).toBeGreaterThanOrEqual(before.asks[0]?.[0] ?? 0)
    expect(m.snapshot().bids).toEqual(before.bids)
  })
})

describe('catalog and account', () => {
  it('builds readable, unique, deterministic events and markets', () => {
    const a = buildCatalog(9, 20, 6)
    expect(a.events).toHaveLength(20)
    expect(a.markets).toHaveLength(120)
    expect(new Set(a.markets.map((m) => m.id)).size).toBe(120)
    expect(new Set(a.events.map((e) => e.id)).size).toBe(20)
    for (const e of a.events) expect(e.title).toMatch(/^[A-Z][\w .,:'-]+\w/)
    expect(buildCatalog(9, 20, 6)).toEqual(a)
    expect(buildCatalog(10, 20, 6).events.map((e) => e.id)).not.toEqual(a.events.map((e) => e.id))
  })

  it('the demo account changes within every 2 s of steps and keeps a consistent wallet', () => {
    const acc = new DemoAccount(3, [{ id: 'm1', eventId: 'e1', quote: () => ({ bid: 40, ask: 42 }) }], 20)
    let last = 0
    const topics = new Set<string>()
    for (let s = 1; s <= 2000; s++) {
      const u = acc.step(s, s)
      if (u.length > 0) {
        expect(s - last).toBeLessThanOrEqual(20)
        last = s
        for (const x of u) topics.add(x.type)
        const bal = u.find((x) => x.type === 'balance')
        expect(bal).toBeDefined()
        expect(Number(bal?.available)).toBeLessThanOrEqual(Number(bal?.total))
      }
    }
    expect([...topics].sort()).toEqual(['balance', 'fill', 'order', 'position'])
  })
})

describe('firehose', () => {
  it('builds valid JSON updates that keep each synthetic book consistent', async () => {
    const got: Array<{ kind: string; body: unknown }> = []
    const fh = new Firehose(
      (_m, _e, kind, body) => got.push({ kind, body: JSON.parse(`{"channel":"market",${body}`) }),
      () => true,
    )
    const ids = fh.start(20_000, 5)
    expect(ids).toEqual(['fh-0001', 'fh-0002', 'fh-0003', 'fh-0004', 'fh-0005'])
    await new Promise((r) => setTimeout(r, 150))
    fh.stop()
    expect(got.length).toBeGreaterThan(100)
    const book = fh.get('fh-0002') as FirehoseBook
    const snap = book.snapshot()
    expect(snap.bids[0]?.[0]).toBeLessThan(snap.asks[0]?.[0] ?? 0)
    const seqs = got
      .filter((g) => g.kind === 'orderbook' && (g.body as { market: string }).market === 'fh-0002')
      .map((g) => (g.body as { seq: number }).seq)
    seqs.forEach((s, i) => expect(s).toBe(i + 1))
    expect(fh.get('not-fh')).toBeUndefined()
  })
})
