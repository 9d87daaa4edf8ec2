import { describe, expect, it } from 'vitest'
import { RingBuffer, TapeStore, type TradeUpdate } from '../../src/main/services/tapes'
import { UserFeed } from '../../src/main/services/user-feed'

function trade(market: string, price: number, extra: Partial<TradeUpdate> = {}): TradeUpdate {
  return { kind: 'trade', market, price, size: 1, side: 'buy', ts: null, ...extra }
}

describe('RingBuffer', () => {
  it('keeps the newest `capacity` items, oldest first, and reports evictions', () => {
    const ring = new RingBuffer<number>(3)
    expect(ring.toArray()).toEqual([])
    expect(ring.push(1)).toBeUndefined()
    ring.push(2)
    ring.push(3)
    expect(ring.size).toBe(3)
    expect(ring.push(4)).toBe(1)
    expect(ring.push(5)).toBe(2)
    expect(ring.toArray()).toEqual([3, 4, 5])
    expect(ring.size).toBe(3)
    expect(ring.at(0)).toBe(3)
    expect(ring.at(3)).toBeUndefined()
    expect(ring.last()).toBe(5)
  })

  it('toArray(limit) returns the newest `limit`, oldest first, across the wrap point', () => {
    const ring = new RingBuffer<number>(5)
    for (let i = 1; i <= 12; i++) ring.push(i)
    expect(ring.toArray()).toEqual([8, 9, 10, 11, 12])
    expect(ring.toArray(2)).toEqual([11, 12])
    expect(ring.toArray(0)).toEqual([])
    expect(ring.toArray(99)).toEqual([8, 9, 10, 11, 12])
    ring.clear()
    expect(ring.size).toBe(0)
    ring.push(42)
    expect(ring.toArray()).toEqual([42])
  })

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError)
    expect(() => new RingBuffer(1.5)).toThrow(RangeError)
  })
})

describe('TapeStore', () => {
  it('assigns unique keys, falls back to receive time, and keeps history oldest first per market', () => {
    const tapes = new TapeStore(3)
    const a1 = tapes.push(trade('a', 0.1, { ts: 1000 }), 2000)
    const b1 = tapes.push(trade('b', 0.9), 2001)
    const a2 = tapes.push(trade('a', 0.2, { side: null }), 2002)
    expect(a1).toMatchObject({ market: 'a', price: 0.1, size: 1, side: 'buy', ts: 1000, receivedAt: 2000 })
    expect(a2).toMatchObject({ ts: 2002, side: null })
    expect(a1?.gapBefore).toBeUndefined()
    expect(new Set([a1?.key, a2?.key, b1?.key]).size).toBe(3)
    expect(tapes.history('a').map((t) => t.price)).toEqual([0.1, 0.2])
    expect(tapes.history('b')).toEqual([b1])
    expect(tapes.history('none')).toEqual([])
  })

  it('is bounded per market: the oldest trades fall off', () => {
    const tapes = new TapeStore(3)
    for (let i = 1; i <= 10; i++) tapes.push(trade('a', i / 100), i)
    expect(tapes.history('a').map((t) => t.price)).toEqual([0.08, 0.09, 0.1])
    expect(tapes.history('a', 2).map((t) => t.price)).toEqual([0.09, 0.1])
  })

  it('flags the first trade of each existing market after markGap, and only that one', () => {
    const tapes = new TapeStore()
    tapes.push(trade('a', 0.1), 1)
    tapes.push(trade('b', 0.1), 1)
    tapes.markGap()
    const fresh = tapes.push(trade('c', 0.1), 2)
    const a = tapes.push(trade('a', 0.2), 2)
    const a2 = tapes.push(trade('a', 0.3), 3)
    const b = tapes.push(trade('b', 0.2), 4)
    expect(a?.gapBefore).toBe(true)
    expect(a2?.gapBefore).toBeUndefined()
    expect(b?.gapBefore).toBe(true)
    // A market with no earlier trades has nothing to be missing in between.
    expect(fresh?.gapBefore).toBeUndefined()
    expect(tapes.history('a').map((t) => t.gapBefore ?? false)).toEqual([false, true, false])
    // JSON and structured clone keep the flag only where it is set.
    expect(JSON.parse(JSON.stringify(tapes.history('a')))).toEqual(tapes.history('a'))
  })

  it('drops replays of a venue id still on the tape, across a gap, per market', () => {
    const tapes = new TapeStore(3)
    expect(tapes.push(trade('a', 0.1, { id: 'x1' }), 1)).not.toBeNull()
    expect(tapes.push(trade('a', 0.2, { id: 'x2' }), 2)).not.toBeNull()
    tapes.markGap()
    expect(tapes.push(trade('a', 0.1, { id: 'x1' }), 3)).toBeNull()
    expect(tapes.push(trade('b', 0.1, { id: 'x1' }), 3)).not.toBeNull()
    // Trades without an id are never deduplicated: identical fills are legitimate.
    expect(tapes.push(trade('a', 0.5), 4)).not.toBeNull()
    expect(tapes.push(trade('a', 0.5), 4)).not.toBeNull()
    expect(tapes.duplicates).toBe(1)
    // The 3-slot tape is [x2, 0.5, 0.5]: x1 has fallen out of the dedupe window, x2 is still in it.
    expect(tapes.history('a').map((t) => t.price)).toEqual([0.2, 0.5, 0.5])
    expect(tapes.push(trade('a', 0.2, { id: 'x2' }), 5)).toBeNull()
    expect(tapes.push(trade('a', 0.7, { id: 'x1' }), 5)).not.toBeNull()
  })

  it('refuses non-finite price or size', () => {
    const tapes = new TapeStore()
    expect(tapes.push(trade('a', Number.NaN), 1)).toBeNull()
    expect(tapes.push(trade('a', 0.5, { size: Number.POSITIVE_INFINITY }), 1)).toBeNull()
    expect(tapes.rejected).toBe(2)
    expect(tapes.history('a')).toEqual([])
  })

  it('delete releases a market', () => {
    const tapes = new TapeStore()
    tapes.push(trade('a', 0.1, { id: 'q' }), 1)
    tapes.delete('a')
    expect(tapes.history('a')).toEqual([])
    expect(tapes.push(trade('a', 0.1, { id: 'q' }), 2)).not.toBeNull()
  })
})

describe('UserFeed', () => {
  it('assigns increasing seq, is bounded, and returns history oldest first', () => {
    const feed = new UserFeed(2)
    const a = feed.push({ kind: 'user', topic: 'order', market: 'm', data: { id: 1 } }, 10)
    const b = feed.push({ kind: 'user', topic: 'fill', market: null, data: { id: 2 } }, 11)
    const c = feed.push({ kind: 'user', topic: 'balance', market: null, data: { usd: 3 } }, 12)
    expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3])
    expect(c).toEqual({ seq: 3, topic: 'balance', market: null, data: { usd: 3 }, receivedAt: 12 })
    expect(feed.history()).toEqual([b, c])
    expect(feed.history(1)).toEqual([c])
    feed.clear()
    expect(feed.history()).toEqual([])
    expect(feed.push({ kind: 'user', topic: 'other', market: null, data: null }, 13).seq).toBe(4)
  })
})
