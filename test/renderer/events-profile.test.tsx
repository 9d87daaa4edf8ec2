// @vitest-environment happy-dom
// The events listing across a profile switch: another profile is another venue, so the window drops the old
// listing and reads the new one, and a listing asked for before the switch is not shown under the new profile
// (a venue that cannot be reached then shows no listing, not the previous venue's).
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ok } from '../../src/shared/ipc'
import type { EventSummary, Result } from '../../src/shared/model'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useEventsListing } from '../../src/renderer/hooks/events'
import { forgetEvents, useEvents } from '../../src/renderer/store/events'
import { startTimelineResets } from '../../src/renderer/store/timeline-resets'
import { withDom } from './dom'
import { createFakeApi, status } from './fake-api'

const dom = withDom()
let stopResets: (() => void) | null = null

beforeEach(() => {
  forgetEvents()
  stopResets = startTimelineResets()
})
afterEach(() => {
  stopResets?.()
})

const listing = (id: string): EventSummary[] => [
  {
    id,
    title: `Event ${id}`,
    status: 'active',
    markets: [{ id: `${id}-m1`, title: 'Yes or no' }],
  } as EventSummary,
]

const flush = () => act(async () => new Promise<void>((r) => setTimeout(r, 0)))
const shown = () => useEvents.getState().events.map((e) => e.id)

function Listing() {
  useEventsListing()
  return null
}

describe('the events listing across a profile switch', () => {
  it('drops the old venue’s listing, reads the new one, and never shows a reply asked for before the switch', async () => {
    const pending: ((r: Result<EventSummary[]>) => void)[] = []
    const api = createFakeApi({
      listEvents: () => new Promise<Result<EventSummary[]>>((resolve) => pending.push(resolve)),
    })
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <Listing />
        </ServicesProvider>,
      )
    })
    await act(async () => api.push({ status: status({ profileId: 'p-a' }) }))
    await flush()
    const a = pending.length - 1
    await act(async () => pending[a]?.(ok(listing('a'))))
    expect(shown()).toEqual(['a'])

    // Switch to B, whose venue does not answer yet: A's listing goes at once and a new read is asked for.
    await act(async () => api.push({ status: status({ profileId: 'p-b' }) }))
    await flush()
    expect(shown()).toEqual([])
    expect(pending.length).toBeGreaterThan(a + 1)
    // A read made before the switch answers late with A's listing: it is not shown under B.
    for (let i = 0; i <= a; i++) await act(async () => pending[i]?.(ok(listing('a-late'))))
    expect(shown()).toEqual([])
    await act(async () => pending[pending.length - 1]?.(ok(listing('b'))))
    expect(shown()).toEqual(['b'])
  })
})
