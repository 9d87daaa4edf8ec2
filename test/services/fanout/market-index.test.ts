// MarketIndex on its own: per-market watcher sets with an exact count of idle watchers, changes of unwatched markets cost nothing, and distribute hands each change to whoever watches the market then, once.
import { describe, expect, it } from 'vitest'
import { FanoutClient } from '../../../src/main/services/fanout/client'
import { MarketIndex } from '../../../src/main/services/fanout/market-index'

function client(id: string, markets: string[] = []): FanoutClient {
  const c = new FanoutClient(id, () => {}, 25)
  c.markets = new Set(markets)
  return c
}

/** Adds each client to the index for every market it watches. */
function indexOf(...clients: FanoutClient[]): MarketIndex {
  const index = new MarketIndex()
  for (const c of clients) for (const m of c.markets) index.add(c, m)
  return index
}

describe('MarketIndex', () => {
  it('counts idle watchers per market; adding twice counts once; the last removal drops the market', () => {
    const a = client('a', ['m1'])
    const b = client('b', ['m1'])
    b.idle = false
    const index = indexOf(a, b)
    index.add(a, 'm1')
    expect(index.watchers('m1')).toMatchObject({ idle: 1 })
    expect(index.watchers('m1')?.clients.size).toBe(2)
    index.remove(a, 'm1')
    index.remove(a, 'm1')
    expect(index.watchers('m1')?.idle).toBe(0)
    index.remove(client('stranger'), 'm1')
    expect(index.watchers('m1')?.clients.size).toBe(1)
    index.remove(b, 'm1')
    expect(index.watchers('m1')).toBeUndefined()
  })

  it("setIdle moves the idle count of every market a visible client watches, and only a visible one's", () => {
    const a = client('a', ['m1', 'm2'])
    const index = indexOf(a)
    index.setIdle(a, false)
    expect([index.watchers('m1')?.idle, index.watchers('m2')?.idle]).toEqual([0, 0])
    index.setIdle(a, false)
    expect(index.watchers('m1')?.idle).toBe(0)
    index.setIdle(a, true)
    expect([index.watchers('m1')?.idle, index.watchers('m2')?.idle]).toEqual([1, 1])
    // A hidden window is not in the index: its flag changes, the counts do not.
    const hidden = client('h', ['m1'])
    hidden.visible = false
    index.setIdle(hidden, false)
    expect(hidden.idle).toBe(false)
    expect(index.watchers('m1')?.idle).toBe(1)
  })

  it('a change of a market nobody watches returns no watchers and is not handed to anyone', () => {
    const a = client('a', ['m1'])
    const index = indexOf(a)
    expect(index.bookChanged('m9')).toBeUndefined()
    expect(index.tickerChanged('m9')).toBeUndefined()
    const pending = new Set<FanoutClient>()
    index.distribute(pending)
    expect(pending.size).toBe(0)
  })

  it('distribute marks book and ticker changes on the current watchers, once, and skips one that stopped watching', () => {
    const a = client('a', ['m1', 'm2'])
    const b = client('b', ['m1'])
    const index = indexOf(a, b)
    expect(index.bookChanged('m1')?.clients.size).toBe(2)
    index.tickerChanged('m2')
    index.remove(b, 'm1')
    const pending = new Set<FanoutClient>()
    index.distribute(pending)
    expect([...pending]).toEqual([a])
    expect([...a.dirtyBooks]).toEqual(['m1'])
    expect([...a.dirtyTickers]).toEqual(['m2'])
    expect(b.dirtyBooks.size).toBe(0)
    // Handed over: the next pass has nothing to hand.
    a.dirtyBooks.clear()
    const next = new Set<FanoutClient>()
    index.distribute(next)
    expect(next.size).toBe(0)
    expect(a.dirtyBooks.size).toBe(0)
  })

  it('clear forgets every watcher and every pending change', () => {
    const a = client('a', ['m1'])
    const index = indexOf(a)
    index.bookChanged('m1')
    index.clear()
    expect(index.watchers('m1')).toBeUndefined()
    index.add(a, 'm1')
    const pending = new Set<FanoutClient>()
    index.distribute(pending)
    expect(pending.size).toBe(0)
  })
})
