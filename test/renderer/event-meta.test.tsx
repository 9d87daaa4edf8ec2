// @vitest-environment happy-dom
// Events as a VoxFi trader reads them: category, status and the time left to resolution ("3d 4h", "closes in
// 12m", "resolved") on one shared minute clock, and category / tag filters that combine with the search.
import { act, type ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventSummary } from '../../src/shared/model'
import { EventList } from '../../src/renderer/features/events/EventList'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { clockSubscribers, minuteClockSubscribers } from '../../src/renderer/hooks/clock'
import {
  eventFacets,
  eventTiming,
  filterEvents,
  searchEvents,
  sortEvents,
} from '../../src/renderer/lib/events'
import { formatTimeLeft } from '../../src/renderer/lib/format'
import { withDom, withScrollHeight } from './dom'
import { createFakeApi, type FakeApi } from './fake-api'

const dom = withDom()
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
/**
 * A whole minute (so the minute clock's ticks fall on round offsets from it), a day after the real time: the
 * shared clock's last read is never later than the time it is compared with, as in a real window.
 */
const T0 = Math.ceil((Date.now() + DAY) / MIN) * MIN

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    dom.root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

function ev(id: string, partial: Partial<EventSummary> = {}): EventSummary {
  return { id, title: `Event ${id}`, markets: [{ id: `${id}-m`, title: `Market of ${id}` }], ...partial }
}

const LISTING: EventSummary[] = [
  ev('e1', {
    title: 'Selic cut in March',
    category: 'Economy',
    tags: ['Brazil', 'Central Bank'],
    status: 'Active',
    resolvesAt: T0 + 3 * DAY + 4 * HOUR,
  }),
  ev('e2', {
    title: 'Flamengo win the league',
    category: 'Sports',
    tags: ['Brazil', 'Football'],
    status: 'Active',
    resolvesAt: T0 + 12 * MIN,
  }),
  ev('e3', {
    title: 'Fed cut in March',
    category: 'Economy',
    tags: ['USA', 'Central Bank'],
    status: 'Resolved',
    resolvesAt: T0 - DAY,
  }),
  // A venue that sends none of it.
  ev('e4', { title: 'Plain event' }),
]

afterEach(() => {
  vi.useRealTimers()
})

// The list is virtualised: its scroll box gets a height, so rows render.
withScrollHeight('event-list', 600)

describe('time left to resolution', () => {
  it('formats minutes, hours and days, rounded up to the minute', () => {
    expect(formatTimeLeft(3 * DAY + 4 * HOUR)).toBe('3d 4h')
    expect(formatTimeLeft(3 * DAY + 4 * HOUR + 59 * MIN)).toBe('3d 4h')
    expect(formatTimeLeft(5 * HOUR + 20 * MIN)).toBe('5h 20m')
    expect(formatTimeLeft(12 * MIN)).toBe('12m')
    expect(formatTimeLeft(11 * MIN + 1_000)).toBe('12m')
    expect(formatTimeLeft(1_000)).toBe('1m')
    expect(formatTimeLeft(0)).toBe('0m')
    expect(formatTimeLeft(null)).toBe('—')
  })

  it('says what the event is waiting for, from its status and times', () => {
    const at = (e: Partial<EventSummary>) => eventTiming(e, T0)
    expect(at({ resolvesAt: T0 + 3 * DAY + 4 * HOUR })).toEqual({
      phase: 'open',
      text: '3d 4h',
      running: true,
    })
    expect(at({ resolvesAt: T0 + 12 * MIN })).toEqual({
      phase: 'closing',
      text: 'closes in 12m',
      running: true,
    })
    expect(at({ resolvesAt: T0 - MIN })).toEqual({ phase: 'closed', text: 'closed', running: false })
    expect(at({ status: 'Resolved', resolvesAt: T0 + DAY })).toMatchObject({
      phase: 'resolved',
      text: 'resolved',
    })
    expect(at({ status: 'settled' })).toMatchObject({ phase: 'resolved' })
    expect(at({ status: 'Closed', resolvesAt: T0 + DAY })).toMatchObject({ phase: 'closed', text: 'closed' })
    expect(at({ finishedAt: T0 - 1, resolvesAt: T0 + DAY })).toMatchObject({ phase: 'closed' })
    expect(at({ startsAt: T0 + 2 * HOUR + 5 * MIN, resolvesAt: T0 + DAY })).toEqual({
      phase: 'upcoming',
      text: 'opens in 2h 5m',
      running: true,
    })
    expect(at({ status: 'Active' })).toEqual({ phase: 'none', text: '', running: false })
  })
})

describe('category and tag filters', () => {
  it('lists the categories and tags the listing has, A–Z, with counts', () => {
    const f = eventFacets(LISTING)
    expect(f.categories).toEqual([
      { value: 'Economy', count: 2 },
      { value: 'Sports', count: 1 },
    ])
    expect(f.tags).toEqual([
      { value: 'Brazil', count: 2 },
      { value: 'Central Bank', count: 2 },
      { value: 'Football', count: 1 },
      { value: 'USA', count: 1 },
    ])
    expect(eventFacets([ev('x')])).toEqual({ categories: [], tags: [] })
  })

  it('keeps the events of the category that carry the tag, and combines with the search', () => {
    const ids = (list: readonly EventSummary[]) => list.map((e) => e.id)
    expect(filterEvents(LISTING, { category: null, tag: null })).toBe(LISTING)
    expect(ids(filterEvents(LISTING, { category: 'Economy', tag: null }))).toEqual(['e1', 'e3'])
    expect(ids(filterEvents(LISTING, { category: null, tag: 'Brazil' }))).toEqual(['e1', 'e2'])
    expect(ids(filterEvents(LISTING, { category: 'Economy', tag: 'Brazil' }))).toEqual(['e1'])
    expect(ids(filterEvents(LISTING, { category: 'Sports', tag: 'USA' }))).toEqual([])
    const economy = filterEvents(LISTING, { category: 'Economy', tag: null })
    expect(searchEvents(economy, 'march').map((m) => m.event.id)).toEqual(['e1', 'e3'])
    expect(searchEvents(economy, 'selic').map((m) => m.event.id)).toEqual(['e1'])
  })

  it('sorts by closing soonest, undated events last', () => {
    const sorted = sortEvents(
      LISTING.map((event) => ({ event })),
      'resolves',
    )
    expect(sorted.map((m) => m.event.id)).toEqual(['e3', 'e2', 'e1', 'e4'])
  })
})

describe('the events list', () => {
  const eventIds = () => dom.byTestId('event-row').map((r) => r.dataset.event)
  const select = async (testId: string, value: string) => {
    const el = dom.byTestId(testId)[0] as HTMLSelectElement
    await act(async () => {
      el.value = value
      el.dispatchEvent(new Event('change', { bubbles: true }))
    })
  }

  it('shows category, status and time left under each event, on one minute clock', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const api = createFakeApi()
    await render(
      api,
      <EventList events={LISTING} selectedMarket={null} onOpenMarket={() => {}} onOpenEvent={() => {}} />,
    )
    const row = (id: string) =>
      dom.container.querySelector<HTMLElement>(`[data-testid="event-row"][data-event="${id}"]`) as HTMLElement
    const left = (id: string) => dom.byTestId('event-time-left', row(id))[0]
    expect(dom.byTestId('event-category', row('e1'))[0]?.textContent).toBe('Economy')
    expect(dom.byTestId('event-status', row('e1'))[0]?.textContent).toBe('Active')
    expect(left('e1')?.textContent).toBe('3d 4h')
    expect(left('e2')?.textContent).toBe('closes in 12m')
    expect(left('e2')?.dataset.phase).toBe('closing')
    expect(left('e3')?.textContent).toBe('resolved')
    // A status that says the same as the countdown is said once.
    expect(dom.byTestId('event-status', row('e3'))).toHaveLength(0)
    // Tags in the meta line's tooltip; the row keeps the event's title as its own.
    expect(dom.byTestId('event-meta', row('e1'))[0]?.title).toBe('Tags: Brazil, Central Bank')
    expect(row('e1').title).toBe('Selic cut in March')
    // Nothing to show for a venue that sends none of it.
    expect(dom.byTestId('event-meta', row('e4'))).toHaveLength(0)
    // The two running countdowns share the minute clock; nothing ticks each second.
    expect(minuteClockSubscribers()).toBe(2)
    expect(clockSubscribers()).toBe(0)

    await act(async () => vi.advanceTimersByTime(5 * MIN))
    expect(left('e2')?.textContent).toBe('closes in 7m')
    expect(left('e1')?.textContent).toBe('3d 3h')
    await act(async () => vi.advanceTimersByTime(7 * MIN))
    expect(left('e2')?.textContent).toBe('closed')
    // A countdown that is over stops listening.
    expect(minuteClockSubscribers()).toBe(1)
  })

  it('filters by category and by tag, combined with the search, and clears', async () => {
    const api = createFakeApi()
    await render(
      api,
      <EventList events={LISTING} selectedMarket={null} onOpenMarket={() => {}} onOpenEvent={() => {}} />,
    )
    expect(eventIds()).toEqual(['e1', 'e2', 'e3', 'e4'])
    const options = (id: string) =>
      Array.from((dom.byTestId(id)[0] as HTMLSelectElement).options).map((o) => o.textContent)
    expect(options('event-category-filter')).toEqual(['All categories', 'Economy (2)', 'Sports (1)'])
    expect(options('event-tag-filter')).toEqual([
      'All tags',
      'Brazil (2)',
      'Central Bank (2)',
      'Football (1)',
      'USA (1)',
    ])

    await select('event-category-filter', 'Economy')
    expect(eventIds()).toEqual(['e1', 'e3'])
    expect(dom.container.querySelector('.list-head .c-title')?.textContent).toBe('2 of 4 events')
    await select('event-tag-filter', 'Brazil')
    expect(eventIds()).toEqual(['e1'])

    // The search narrows further, within the filters.
    const search = dom.byTestId('event-search')[0] as HTMLInputElement
    await select('event-tag-filter', '')
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
      set?.call(search, 'fed')
      search.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(eventIds()).toEqual(['e3'])

    await act(async () => dom.byTestId('event-filters-clear')[0]?.click())
    expect(eventIds()).toEqual(['e3'])
    expect((dom.byTestId('event-category-filter')[0] as HTMLSelectElement).value).toBe('')
  })

  it('offers no filters where the venue sends no categories or tags', async () => {
    const api = createFakeApi()
    await render(
      api,
      <EventList
        events={[ev('x'), ev('y')]}
        selectedMarket={null}
        onOpenMarket={() => {}}
        onOpenEvent={() => {}}
      />,
    )
    expect(dom.byTestId('event-filters')).toHaveLength(0)
    expect(eventIds()).toEqual(['x', 'y'])
  })
})
