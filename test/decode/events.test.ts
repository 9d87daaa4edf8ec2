// REST listing bodies in the shapes venues use decode to EventSummary[]; unusable items are reported, not thrown.
import { describe, expect, it } from 'vitest'
import { decodeEventsListing, NO_LIST_ERROR } from '../../src/shared/decode'

describe('decodeEventsListing', () => {
  it('reads our simulator shape: {events:[{id,title,markets:[{id,title}]}]} with typed fields and scalar extras', () => {
    const r = decodeEventsListing({
      events: [
        {
          id: 'ev-1',
          title: 'Election',
          category: 'politics',
          closesAt: '2030-01-01',
          volume: 12,
          live: true,
          nested: { ignored: 1 },
          markets: [{ id: 'm-1', title: 'Yes?', status: 'open', tags: ['x'] }],
        },
      ],
    })
    expect(r.errors).toEqual([])
    expect(r.events).toEqual([
      {
        id: 'ev-1',
        title: 'Election',
        category: 'politics',
        extra: { closesAt: '2030-01-01', volume: 12, live: true },
        markets: [{ id: 'm-1', title: 'Yes?', extra: { status: 'open' } }],
      },
    ])
  })

  it.each([
    ['a top-level array', [{ event_id: 'a', name: 'A' }]],
    ['data[]', { data: [{ eventId: 'a', question: 'A' }] }],
    ['items[]', { items: [{ ticker: 'a', title: 'A' }] }],
    ['results[]', { results: [{ event_ticker: 'a', title: 'A' }], next: null }],
    ['data.events[]', { data: { events: [{ slug: 'a', title: 'A' }] } }],
  ])('finds the list in %s and the id/title under venue names', (_name, body) => {
    const r = decodeEventsListing(body)
    expect(r.errors).toEqual([])
    expect(r.events.map((e) => ({ id: e.id, title: e.title, markets: e.markets }))).toEqual([
      { id: 'a', title: 'A', markets: [] },
    ])
  })

  it('reads Kalshi- and Polymarket-like markets; numeric ids become strings; title falls back to the id', () => {
    const r = decodeEventsListing({
      events: [
        {
          event_ticker: 'FED-23DEC',
          title: 'Fed rate',
          markets: [
            { ticker: 'FED-23DEC-T3.00', yes_sub_title: '3% or above' },
            { condition_id: '0xabc', question: 'Will it?' },
            { market_id: 17, subtitle: 'Seventeen' },
            { asset_id: 'tok' },
          ],
        },
        { id: 5, slug: 'five-slug' },
      ],
    })
    expect(r.errors).toEqual([])
    expect(r.events[0]?.markets.map((m) => [m.id, m.title])).toEqual([
      ['FED-23DEC-T3.00', '3% or above'],
      ['0xabc', 'Will it?'],
      ['17', 'Seventeen'],
      ['tok', 'tok'],
    ])
    expect(r.events[1]).toMatchObject({ id: '5', title: 'five-slug', markets: [] })
  })

  it('skips items without an id, non-objects and duplicates, and says which', () => {
    const r = decodeEventsListing({
      events: [
        { title: 'no id' },
        'junk',
        { id: 'ok', title: 'Ok', markets: [{ title: 'no id' }, { id: 'm', title: 'M' }, { id: 'm' }, 7] },
        { id: 'ok', title: 'again' },
        { id: 'bad-markets', markets: 'nope' },
      ],
    })
    expect(r.events.map((e) => e.id)).toEqual(['ok', 'bad-markets'])
    expect(r.events[0]?.markets.map((m) => m.id)).toEqual(['m'])
    expect(r.errors).toEqual([
      'events[0] has no id',
      'events[1] is not an object',
      'events[2].markets[0] has no id',
      'events[2].markets[2] repeats market id "m"',
      'events[2].markets[3] is not an object',
      'events[3] repeats event id "ok"',
      'events[4].markets is not a list',
    ])
  })

  it('truncates long strings in extras and titles', () => {
    const long = 'x'.repeat(5000)
    const r = decodeEventsListing([{ id: 'a', title: long, note: long }])
    expect(r.events[0]?.title.length).toBe(200)
    expect(String(r.events[0]?.extra?.['note']).length).toBeLessThanOrEqual(201)
  })

  it.each([[null], [42], ['text'], [{ nothing: true }], [{ events: 'no' }]])(
    'reports a body without a list (%j) instead of throwing',
    (body) => {
      expect(decodeEventsListing(body)).toEqual({ events: [], errors: [NO_LIST_ERROR] })
    },
  )

  it('an empty list is fine', () => {
    expect(decodeEventsListing({ events: [] })).toEqual({ events: [], errors: [] })
  })
})
