// VoxFi's events listing (GET /data/events; docs.voxfi.com.br/en/api/events): the event's `description` is its
// title, markets without a description of their own are named after their event (single-market) or their place
// in it, never their UUID, and the listing fields (category, tags, status, rules, dates) arrive typed. The
// envelope is undocumented, so a bare list, `{data:[...]}` and `{events:[...]}` all read the same.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeEventsListing } from '../../src/shared/decode'
import type { EventSummary } from '../../src/shared/model'

const fixture = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../fixtures/voxfi/rest-event-example.json'), 'utf8'),
) as { kind: string; example: Record<string, unknown> }
const event = fixture.example

const TITLE = 'Will X (formerly Twitter) face a new judicial block in Brazil in 2026?'

const expectedEvent: EventSummary = {
  id: '73fb9a96-fa5b-4680-b1aa-448afe9ec650',
  title: TITLE,
  markets: [
    {
      id: '95f88394-4f4d-4489-99dc-8cef9f7682ee',
      title: TITLE,
      // VoxFi's prices: ticks 0–100 read as 0.00–1.00.
      priceGrid: { min: 0, max: 1, tick: 0.01 },
      extra: {
        description: '',
        thumbnail_url: null,
        volume: 29500,
        closed_at: null,
        resolved_at: null,
        settled_at: null,
        liquidity: 32051,
        winner_option_type: null,
      },
    },
  ],
  category: 'Technology',
  tags: ['judiciary', 'Pop Culture', 'Brazil', 'Federal Government'],
  status: 'Active',
  rules:
    'For the result to be "Yes", the platform must be inaccessible in Brazil by judicial determination for a period exceeding 24 consecutive hours at any time during 2026. Technical instabilities do not count.',
  slug: 'will-x-formerly-twitter-face-a-new-judicial-block-in-brazil-in-2026',
  startsAt: Date.parse('2025-12-29T09:23:00Z'),
  resolvesAt: Date.parse('2026-12-31T23:00:00Z'),
  extra: {
    status_id: 2,
    type_id: 1,
    category_id: 11,
    type: 'future',
    thumbnail_url: '',
    documentation_url: '',
    created_at: '2025-12-29T09:21:46.836348Z',
    finished_at: null,
    qty_markets: 1,
    is_single_market: true,
  },
}

const market = (id: string, description: string, yes = 'Yes', no = 'No'): Record<string, unknown> => ({
  id,
  description,
  options: [
    { id: `${id}-y`, option_type: 1, description: yes, metadata: {} },
    { id: `${id}-n`, option_type: 2, description: no, metadata: {} },
  ],
})

describe('VoxFi events listing', () => {
  it('is the documented example', () => {
    expect(fixture.kind).toBe('rest-events')
  })

  it.each([
    ['a bare array', [event]],
    ['{data: [...]}', { data: [event] }],
    ['{events: [...]}', { events: [event] }],
  ])(
    'reads the docs example in %s: title from description, typed fields, the market named after its event',
    (_n, body) => {
      const r = decodeEventsListing(body)
      expect(r.errors).toEqual([])
      expect(r.events).toEqual([expectedEvent])
    },
  )

  it('names each market of a multi-market event by its description, its YES option, or its place', () => {
    const r = decodeEventsListing([
      {
        id: '0b6f9c1e-0000-4000-8000-000000000001',
        description: 'Who wins the 2026 presidential election?',
        is_single_market: false,
        qty_markets: 4,
        markets: [
          market('11111111-1111-4111-8111-111111111111', 'Lula'),
          market('22222222-2222-4222-8222-222222222222', '', 'Tarcísio', 'Not Tarcísio'),
          market('33333333-3333-4333-8333-333333333333', '   '),
          market('44444444-4444-4444-8444-444444444444', '', 'Sim', 'Não'),
        ],
      },
    ])
    expect(r.errors).toEqual([])
    expect(r.events[0]?.title).toBe('Who wins the 2026 presidential election?')
    expect(r.events[0]?.markets.map((m) => m.title)).toEqual(['Lula', 'Tarcísio', 'Market 3', 'Market 4'])
  })

  it('a lone market takes its event’s title even without is_single_market; an explicit false does not', () => {
    const lone = decodeEventsListing([
      {
        id: 'e1',
        description: 'Rain in SP tomorrow?',
        markets: [market('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '')],
      },
      {
        id: 'e2',
        description: 'Two-sided?',
        is_single_market: false,
        markets: [market('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', '')],
      },
    ])
    expect(lone.events.map((e) => e.markets[0]?.title)).toEqual(['Rain in SP tomorrow?', 'Market 1'])
  })

  it('only a VoxFi market (YES/NO options) gets VoxFi’s price grid', () => {
    const r = decodeEventsListing({
      events: [
        { id: 'v', description: 'VoxFi', markets: [market('cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'A')] },
        { id: 'k', title: 'Kalshi', markets: [{ ticker: 'K-1', title: 'K' }] },
      ],
    })
    expect(r.events.map((e) => e.markets[0]?.priceGrid ?? null)).toEqual([
      { min: 0, max: 1, tick: 0.01 },
      null,
    ])
  })

  it('other venues keep title/name/question first, and a readable id stays the fallback', () => {
    const r = decodeEventsListing({
      events: [
        { id: 'p', title: 'Fed decision', description: 'Long resolution text…', slug: 'fed' },
        { id: 'k', name: 'Named', description: 'Described' },
        { id: 's', slug: 'only-a-slug' },
        { id: 'd', description: 'Described', slug: 'the-slug' },
        { event_ticker: 'FED', title: 'Fed', markets: [{ ticker: 'FED-T3' }, { ticker: 'FED-T4' }] },
      ],
    })
    expect(r.events.map((e) => e.title)).toEqual(['Fed decision', 'Named', 'only-a-slug', 'Described', 'Fed'])
    expect(r.events[4]?.markets.map((m) => m.title)).toEqual(['FED-T3', 'FED-T4'])
  })

  it('reads dates as ISO text or epoch seconds or ms, and finished_at when set', () => {
    const r = decodeEventsListing([
      { id: 'a', starts_at: 1767000180, resolves_at: 1798758000000, finished_at: '2026-01-02T03:04:05Z' },
      { id: 'b', starts_at: '1767000180', resolves_at: 'not a date', finished_at: -5 },
    ])
    expect(r.events[0]).toMatchObject({
      startsAt: 1767000180000,
      resolvesAt: 1798758000000,
      finishedAt: Date.parse('2026-01-02T03:04:05Z'),
    })
    expect(r.events[1]?.startsAt).toBe(1767000180000)
    expect(r.events[1]).not.toHaveProperty('resolvesAt')
    expect(r.events[1]).not.toHaveProperty('finishedAt')
  })

  it('skips fields of the wrong type instead of throwing, and keeps them as extras where they are scalars', () => {
    const r = decodeEventsListing([
      {
        id: 'x',
        description: 'Typed badly',
        category: { id: 11 },
        tags: 'politics',
        status: 2,
        rules: ['not', 'text'],
        slug: '',
        starts_at: { at: 'now' },
        markets: [],
      },
    ])
    expect(r.errors).toEqual([])
    const e = r.events[0] as EventSummary
    for (const k of ['category', 'tags', 'status', 'rules', 'slug', 'startsAt'])
      expect(e).not.toHaveProperty(k)
    expect(e.extra).toEqual({ tags: 'politics', status: 2, slug: '' })
  })

  it('caps tag counts and string lengths; tags may be objects naming one; duplicates and blanks go', () => {
    const tags = [
      'a',
      'a',
      '  ',
      7,
      { name: 'Named' },
      { label: 'Labelled' },
      'x'.repeat(500),
      ...Array.from({ length: 100 }, (_, i) => `t${i}`),
    ]
    const r = decodeEventsListing([
      { id: 'c', category: 'c'.repeat(1000), rules: 'r'.repeat(10_000), tags, description: 'd'.repeat(1000) },
    ])
    const e = r.events[0] as EventSummary
    expect(e.tags).toHaveLength(32)
    expect(e.tags?.slice(0, 4)).toEqual(['a', 'Named', 'Labelled', 'x'.repeat(100)])
    expect(e.category).toHaveLength(200)
    expect(e.rules).toHaveLength(4000)
    expect(e.title).toHaveLength(200)
  })
})
