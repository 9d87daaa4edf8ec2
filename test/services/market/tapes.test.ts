import { describe, expect, it } from 'vitest'
import { TAPE_TRADES } from '../../../src/shared/ipc'
import { IdWindow, RingBuffer, TapeStore, type TradeUpdate } from '../../../src/main/services/market/tapes'
import { UserFeed } from '../../../src/main/services/account/user-feed'
import { mulberry32 as prng } from '../../../src/sim/rng'

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

describe('TapeStore dedupe window', () => {
  it('finds a replay among trades of the same ts at the newest end (the common, ordered case)', () => {
    const tapes = new TapeStore(100)
    let n = 0
    for (let ts = 1; ts <= 50; ts++)
      for (let k = 0; k < 3; k++) tapes.push(trade('a', 0.5, { id: `t${++n}`, ts }), ts)
    // t148..t150 share ts 50; t100 (ts 34) is further back, still on the 100-trade tape.
    expect(tapes.push(trade('a', 0.5, { id: 't149', ts: 50 }), 51)).toBeNull()
    expect(tapes.push(trade('a', 0.5, { id: 't150', ts: 50 }), 51)).toBeNull()
    expect(tapes.push(trade('a', 0.5, { id: 't100', ts: 34 }), 51)).toBeNull()
    // t40 has fallen off the tape: its replay is a trade the tape no longer has, so it is kept.
    expect(tapes.push(trade('a', 0.5, { id: 't40', ts: 14 }), 51)).not.toBeNull()
    expect(tapes.push(trade('a', 0.5, { id: 't151', ts: 50 }), 51)).not.toBeNull()
    expect(tapes.duplicates).toBe(3)
  })

  it('drops a resubscribe replay and keeps the trades that happened during the gap', () => {
    const tapes = new TapeStore()
    for (let i = 1; i <= 10; i++) tapes.push(trade('a', 0.5, { id: `t${i}`, ts: 1000 + i }), 1000 + i)
    tapes.markGap()
    const replay = [6, 7, 8, 9, 10, 11, 12].map((i) =>
      tapes.push(trade('a', 0.5, { id: `t${i}`, ts: 1000 + i }), 2000),
    )
    expect(replay.map((v) => v !== null)).toEqual([false, false, false, false, false, true, true])
    expect(replay[5]?.gapBefore).toBe(true)
    expect(tapes.history('a').map((t) => t.ts)).toEqual([...Array(12).keys()].map((i) => 1001 + i))
  })

  it('keeps what a window holds, and still drops a venue-sized replay of recent trades after a reconnect', () => {
    const tapes = new TapeStore()
    expect(tapes.capacityPerMarket).toBe(TAPE_TRADES)
    const total = TAPE_TRADES * 3
    for (let i = 1; i <= total; i++) tapes.push(trade('a', 0.5, { id: `t${i}`, ts: 1000 + i }), 1000 + i)
    expect(tapes.history('a')).toHaveLength(TAPE_TRADES)
    expect(tapes.history('a')[0]?.ts).toBe(1000 + total - TAPE_TRADES + 1)
    // A resubscribe that resends recent trades (Kraken sends its last 50) is dropped whole; 200 leaves margin.
    tapes.markGap()
    let kept = 0
    for (let i = total - 199; i <= total; i++)
      if (tapes.push(trade('a', 0.5, { id: `t${i}`, ts: 1000 + i }), 9000) !== null) kept++
    expect(kept).toBe(0)
    expect(tapes.duplicates).toBe(200)
    expect(tapes.push(trade('a', 0.5, { id: `t${total + 1}`, ts: 1000 + total + 1 }), 9000)?.gapBefore).toBe(
      true,
    )
  })

  it('falls back to an exact index while the tape is out of ts order, and leaves it once that has passed', () => {
    const w = new IdWindow(4)
    w.push('a', 10)
    w.push('b', 11)
    expect(w.indexed).toBe(false)
    w.push('c', 5) // older than the newest: a backwards scan would stop before it
    expect(w.indexed).toBe(true)
    expect(w.has('c', 5)).toBe(true)
    expect(w.has('a', 10)).toBe(true)
    w.push('d', 12)
    w.push('e', 13)
    w.push('f', 14)
    expect(w.indexed).toBe(true)
    expect(w.has('a', 10)).toBe(false)
    w.push('g', 15) // 'c' has now left the window
    expect(w.indexed).toBe(false)
    expect(w.has('d', 12)).toBe(true)
    expect(w.has('g', 15)).toBe(true)
    expect(w.has('c', 5)).toBe(false)
    // A trade without a ts cannot be placed in the order: exact again.
    expect(w.has('h', null)).toBe(false)
    expect(w.indexed).toBe(true)
    w.push('h', null)
    expect(w.has('h', null)).toBe(true)
    w.clear()
    expect(w.indexed).toBe(false)
    expect(w.has('h', null)).toBe(false)
  })

  it('a run of hundreds of trades with one ts is searched exactly, however long', () => {
    const w = new IdWindow(1000)
    for (let i = 0; i < 900; i++) w.push(`t${i}`, 7)
    expect(w.indexed).toBe(false)
    expect(w.has('t899', 7)).toBe(true)
    expect(w.has('t900', 7)).toBe(false)
    // Too far back for the scan: it switches to the exact index rather than give a wrong answer.
    expect(w.has('t3', 7)).toBe(true)
    expect(w.indexed).toBe(true)
    expect(w.has('t900', 8)).toBe(false)
  })

  it('matches an exact model of "the ids on the tape" over long random streams', () => {
    // The model: an id is a duplicate exactly when it is among the ids of the last `cap` trades kept. Replays carry
    // their trade's original ts (what a venue resends); the streams mix in-order, equal-ts runs longer than the
    // scan, out-of-order and missing ts, trades without ids, and replays both on and off the tape.
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rand = prng(seed)
      const cap = 20 + Math.floor(rand() * 60)
      const tapes = new TapeStore(cap)
      const kept: (string | undefined)[] = []
      const tsOf = new Map<string, number | null>()
      const issued: string[] = []
      let clock = 1000
      let next = 0
      let dropped = 0
      let indexedDups = 0
      let orderedDups = 0
      const burstFrom = 2000 + Math.floor(rand() * 4000)
      for (let step = 0; step < 12_000; step++) {
        const r = rand()
        let id: string | undefined
        let ts: number | null
        if (r < 0.1 && issued.length > 0) {
          // A replay of one of the recent trades; now and then of one that has left the tape.
          const back = rand() < 0.95 ? cap / 2 : cap * 2
          id = issued[issued.length - 1 - Math.floor(rand() * Math.min(issued.length, back))] as string
          ts = tsOf.get(id) ?? null
        } else {
          if (step < burstFrom || step > burstFrom + 200)
            clock += rand() < 0.5 ? 0 : 1 + Math.floor(rand() * 3)
          // Out-of-order and missing ts only in some stretches, so the ordered path gets long runs too.
          const shape = step % 3000 < 600 ? rand() : 1
          ts = shape < 0.03 ? null : shape < 0.06 ? clock - 1 - Math.floor(rand() * 50) : clock
          if (rand() < 0.05) id = undefined
          else {
            id = `t${++next}`
            issued.push(id)
            tsOf.set(id, ts)
          }
        }
        const expectedDup = id !== undefined && kept.slice(-cap).includes(id)
        const window = (tapes as unknown as { tapes: Map<string, { ids: IdWindow }> }).tapes.get('a')?.ids
        if (expectedDup && window?.indexed === true) indexedDups++
        else if (expectedDup) orderedDups++
        const view = tapes.push(trade('a', 0.5, { ts, ...(id !== undefined ? { id } : {}) }), clock)
        expect(view === null, `seed ${seed} step ${step} id ${id ?? '-'}`).toBe(expectedDup)
        if (view !== null) kept.push(id)
        else dropped++
      }
      expect(dropped).toBeGreaterThan(100)
      expect(tapes.duplicates).toBe(dropped)
      // Both lookup paths found duplicates.
      expect(indexedDups).toBeGreaterThan(100)
      expect(orderedDups).toBeGreaterThan(100)
    }
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
