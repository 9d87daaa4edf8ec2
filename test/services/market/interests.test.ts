// InterestIndex over a real registry (recording what it sends) and a catalog indexed from a fake listing.
import { describe, expect, it } from 'vitest'
import type { Interest } from '../../../src/shared/ipc'
import { InterestIndex } from '../../../src/main/services/market/interests'
import { createCatalog, fakeRest, listing, recordingRegistry } from '../fakes'

async function setup(loadListing = true) {
  const f = fakeRest(listing({ e1: ['m1', 'm2', 'm3'], e2: ['m4'], e3: ['m5'] }))
  const { catalog } = createCatalog(f.rest)
  if (loadListing) {
    const r = await catalog.list(false)
    if (!r.ok) throw new Error(r.error.message)
  }
  const { registry, sent } = recordingRegistry()
  const interests = new InterestIndex(registry, catalog)
  const watch = (client: string, list: Interest[]) => registry.setInterests(client, list)
  return { interests, registry, sent, catalog, watch }
}

describe('InterestIndex', () => {
  it('routed(): direct markets, markets of watched events, nothing else', async () => {
    const s = await setup()
    s.watch('a', [
      { channel: 'market', id: 'm4', filter: 'all' },
      { channel: 'event', id: 'e1', filter: 'all' },
    ])
    expect(s.interests.routed('m4')).toBe(true)
    expect(s.interests.routed('m2')).toBe(true)
    expect(s.interests.routed('m5')).toBe(false) // its event e3 is not watched
  })

  it('routed(): a market the listing cannot place is accepted only while some event is watched', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    expect(s.interests.routed('brand-new')).toBe(false)
    s.watch('b', [{ channel: 'event', id: 'e2', filter: 'all' }])
    expect(s.interests.routed('brand-new')).toBe(true)
    s.registry.removeClient('b')
    expect(s.interests.routed('brand-new')).toBe(false)
  })

  it('wantsBook(): by filter, directly or through the event', async () => {
    const s = await setup()
    s.watch('a', [
      { channel: 'market', id: 'm4', filter: 'trades' },
      { channel: 'market', id: 'm5', filter: 'orderbook' },
      { channel: 'event', id: 'e1', filter: 'orderbook' },
    ])
    expect(s.interests.wantsBook('m4')).toBe(false)
    expect(s.interests.wantsBook('m5')).toBe(true)
    expect(s.interests.wantsBook('m1')).toBe(true)
    expect(s.interests.wantsBook('unknown')).toBe(false)
    // A market whose direct filter has no book still wants one when its watched event does.
    s.watch('b', [{ channel: 'market', id: 'm2', filter: 'trades' }])
    expect(s.interests.wantsBook('m2')).toBe(true)
    // An event watched for trades only wants no book.
    s.watch('a', [{ channel: 'event', id: 'e2', filter: 'trades' }])
    expect(s.interests.wantsBook('m4')).toBe(false)
  })

  it('wantsBook(): filters of several windows unite (trades + orderbook = all)', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm4', filter: 'trades' }])
    expect(s.interests.wantsBook('m4')).toBe(false)
    s.watch('b', [{ channel: 'market', id: 'm4', filter: 'orderbook' }])
    expect(s.interests.wantsBook('m4')).toBe(true)
  })

  it('wantedBooks(): every wanted book once, even for a market watched directly and through its event', async () => {
    const s = await setup()
    s.watch('a', [
      { channel: 'market', id: 'm1', filter: 'all' },
      { channel: 'market', id: 'm5', filter: 'trades' },
      { channel: 'event', id: 'e1', filter: 'orderbook' },
      { channel: 'event', id: 'e2', filter: 'trades' },
    ])
    const wanted = [...s.interests.wantedBooks()]
    expect(wanted.sort()).toEqual(['m1', 'm2', 'm3'])
  })

  it('wantedBooks(): an event whose markets are not known yet contributes nothing', async () => {
    const s = await setup(false)
    s.watch('a', [{ channel: 'event', id: 'e1', filter: 'all' }])
    expect([...s.interests.wantedBooks()]).toEqual([])
  })

  it("marketsOf(): a window's direct markets plus its events' markets", async () => {
    const s = await setup()
    const markets = s.interests.marketsOf([
      { channel: 'market', id: 'x9', filter: 'all' },
      { channel: 'event', id: 'e1', filter: 'trades' },
      { channel: 'event', id: 'unknown-event', filter: 'all' },
      { channel: 'user' },
    ])
    expect([...markets].sort()).toEqual(['m1', 'm2', 'm3', 'x9'])
  })

  it('resubscribe(): a direct market through its own subscription', async () => {
    const s = await setup()
    s.watch('a', [
      { channel: 'market', id: 'm1', filter: 'orderbook' },
      { channel: 'event', id: 'e1', filter: 'all' },
    ])
    s.sent.length = 0
    s.interests.resubscribe(['m1'])
    expect(s.sent).toEqual([{ type: 'subscribe', channel: 'market', markets: ['m1'], filter: 'orderbook' }])
  })

  it('resubscribe(): one event subscribe for several of its markets', async () => {
    const s = await setup()
    s.watch('a', [
      { channel: 'event', id: 'e1', filter: 'all' },
      { channel: 'event', id: 'e2', filter: 'orderbook' },
    ])
    s.sent.length = 0
    s.interests.resubscribe(['m1', 'm2', 'm3', 'm4'])
    expect(s.sent).toHaveLength(2)
    expect(s.sent).toContainEqual({ type: 'subscribe', channel: 'event', events: ['e1'], filter: 'all' })
    expect(s.sent).toContainEqual({
      type: 'subscribe',
      channel: 'event',
      events: ['e2'],
      filter: 'orderbook',
    })
  })

  it('resubscribe(): a market it cannot place resubscribes every watched event, each once', async () => {
    const s = await setup()
    s.watch('a', [
      { channel: 'event', id: 'e1', filter: 'all' },
      { channel: 'event', id: 'e3', filter: 'all' },
      { channel: 'market', id: 'm4', filter: 'all' },
    ])
    s.sent.length = 0
    s.interests.resubscribe(['not-listed', 'm2', 'also-not-listed'])
    const events = s.sent.map((m) => (m.type === 'subscribe' && m.channel === 'event' ? m.events : null))
    expect(events.sort()).toEqual([['e1'], ['e3']])
  })

  it('resubscribe(): a market of an event nobody watches (and not direct) sends nothing when no event is watched', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm4', filter: 'all' }])
    s.sent.length = 0
    s.interests.resubscribe(['m1'])
    expect(s.sent).toEqual([])
  })
})
