// Interests against the real simulator: one venue subscription however many windows watch, released after the last.
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../helpers'
import { pickTargets, startHarness, type Harness } from '../harness'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

describe('interests', () => {
  it('two windows on one market make one subscription; it stays after one leaves, goes after both', async () => {
    h = await startHarness()
    const sim = h.sim
    const { market } = pickTargets(sim)
    const a = h.attach('a')
    const b = h.attach('b')
    await a.client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await b.client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => a.rec.marketData(market, 0) && b.rec.marketData(market, 0), 'data in both windows')
    expect(sim.connections()).toBe(1)
    expect(sim.subscriptions()[0]?.market).toEqual([{ id: market, filter: 'all' }])

    a.client.dispose()
    const mark = b.rec.mark()
    await waitFor(() => b.rec.marketData(market, mark), 'data still flowing to b')
    expect(sim.subscriptions()[0]?.market).toEqual([{ id: market, filter: 'all' }])

    await b.client.setInterests([])
    await waitFor(() => (sim.subscriptions()[0]?.market.length ?? -1) === 0, 'unsubscribed at the venue')
    const snap = await b.client.getMarketSnapshot(market)
    expect(snap.ok && snap.value.book).toBeNull()
  })

  it('unites filters across windows: orderbook + trades = all', async () => {
    h = await startHarness()
    const sim = h.sim
    const { market, event } = pickTargets(sim)
    const a = h.attach('a')
    const b = h.attach('b')
    await a.client.setInterests([{ channel: 'event', id: event, filter: 'orderbook' }])
    await waitFor(() => sim.subscriptions()[0]?.event[0]?.filter === 'orderbook', 'orderbook filter')
    await b.client.setInterests([
      { channel: 'event', id: event, filter: 'trades' },
      { channel: 'market', id: market, filter: 'trades' },
    ])
    await waitFor(() => sim.subscriptions()[0]?.event[0]?.filter === 'all', 'united filter')
    expect(sim.subscriptions()[0]?.market).toEqual([{ id: market, filter: 'trades' }])
    b.client.dispose()
    await waitFor(() => sim.subscriptions()[0]?.event[0]?.filter === 'orderbook', 'back to orderbook')
    expect(sim.subscriptions()[0]?.market).toEqual([])
  })

  it('an event window gets the books of the event’s markets', async () => {
    h = await startHarness()
    const sim = h.sim
    const { client, rec } = h.attach('event')
    await client.setApiKey({ key: sim.demoKey })
    const { event, eventMarket } = pickTargets(sim)
    await client.setInterests([{ channel: 'event', id: event, filter: 'all' }])
    await waitFor(() => rec.bookState(eventMarket, 'live'), 'a live book of the event’s market')
  })

  it('rejects invalid arguments with invalid_argument', async () => {
    h = await startHarness()
    const { client } = h.attach('bad')
    const r = await (
      client.setInterests as (x: unknown) => Promise<{ ok: boolean; error?: { code: string } }>
    )([{ channel: 'market', id: '', filter: 'all' }])
    expect(r.ok).toBe(false)
    expect(r.error?.code).toBe('invalid_argument')
    const d = await client.setBookDepth(0)
    expect(d.ok).toBe(false)
  })
})
