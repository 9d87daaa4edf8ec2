// @vitest-environment happy-dom
// A listing that failed for a passing reason reads itself again: after a 429 it waits what the venue asked
// (Retry-After), after a network fault longer each time; a refused key waits for the user. The error block says when
// the next try is.
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, ok } from '../../src/shared/ipc'
import type { ApiError, EventSummary, Result } from '../../src/shared/model'
import { EventsColumn } from '../../src/renderer/features/events/EventsColumn'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import {
  AUTO_RETRY_FIRST_MS,
  AUTO_RETRY_MAX_MS,
  RETRY_AFTER_MAX_MS,
  RETRY_AFTER_MIN_MS,
  autoRetryDelayMs,
} from '../../src/renderer/lib/auto-retry'
import { forgetEvents, useEvents } from '../../src/renderer/store/events'
import { withDom } from './dom'
import { createFakeApi } from './fake-api'

const dom = withDom()

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  forgetEvents()
})
afterEach(() => {
  forgetEvents()
  vi.useRealTimers()
})

const listing: EventSummary[] = [
  {
    id: 'e1',
    title: 'Event e1',
    status: 'active',
    markets: [{ id: 'e1-m1', title: 'Yes or no' }],
  } as EventSummary,
]

/** A venue that answers each listing read with `answer` (the test changes it), noting when each read came. */
interface Venue {
  answer: Result<EventSummary[]>
  at: number[]
  api: ReturnType<typeof createFakeApi>
  calls(): number
}

function venue(first: Result<EventSummary[]>): Venue {
  const at: number[] = []
  const v: Venue = {
    answer: first,
    at,
    api: createFakeApi({
      listEvents: (): Promise<Result<EventSummary[]>> => {
        at.push(Date.now())
        return Promise.resolve(v.answer)
      },
    }),
    calls: () => at.length,
  }
  return v
}

async function mount(api: ReturnType<typeof createFakeApi>): Promise<void> {
  await act(async () => {
    dom.root.render(
      <ServicesProvider api={api}>
        <EventsColumn
          selectedMarket={null}
          onOpenMarket={() => {}}
          onOpenEvent={() => {}}
          onOpenKeySettings={() => {}}
          reveal={null}
          searchRef={{ current: null }}
        />
      </ServicesProvider>,
    )
  })
}

const advance = (ms: number) => act(async () => vi.advanceTimersByTimeAsync(ms))
const limited = (retryAfterMs?: number): Result<EventSummary[]> =>
  fail({
    code: 'rate_limited',
    message: 'Too many requests',
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  })

describe('the events listing tries again by itself', () => {
  it('after a 429, once the Retry-After has passed and not before, and says when', async () => {
    const v = venue(limited(7_000))
    await mount(v.api)
    const asked = v.calls()
    expect(dom.byTestId('events-error')[0]?.dataset.code).toBe('rate_limited')
    expect(dom.byTestId('events-retry-in')[0]?.textContent).toBe('Trying again in 7s')
    v.answer = ok(listing)
    await advance(6_900)
    expect(v.calls()).toBe(asked)
    await advance(200)
    expect(v.calls()).toBe(asked + 1)
    expect(useEvents.getState().events.map((e) => e.id)).toEqual(['e1'])
    expect(dom.byTestId('events-retry-in')).toHaveLength(0)
  })

  it('after network faults, waiting longer each time, until the venue answers', async () => {
    const v = venue(fail({ code: 'network', message: 'ECONNREFUSED' }))
    await mount(v.api)
    await advance(3 * AUTO_RETRY_MAX_MS)
    const gaps = v.at.slice(1).map((t, i) => t - (v.at[i] ?? 0))
    const retries = gaps.filter((g) => g > 0)
    // 2, 4, 8 … 60 s: at least five retries in three minutes, each no sooner than the one before, up to the cap.
    expect(retries.length).toBeGreaterThanOrEqual(5)
    for (let i = 1; i < retries.length; i++) expect(retries[i]).toBeGreaterThanOrEqual(retries[i - 1] ?? 0)
    expect(Math.max(...retries)).toBe(AUTO_RETRY_MAX_MS)
    expect(Math.min(...retries)).toBeGreaterThanOrEqual(AUTO_RETRY_FIRST_MS)
    v.answer = ok(listing)
    await advance(AUTO_RETRY_MAX_MS)
    expect(useEvents.getState().phase).toBe('ready')
    expect(useEvents.getState().retryAt).toBeNull()
    const settled = v.calls()
    await advance(3 * AUTO_RETRY_MAX_MS)
    expect(v.calls()).toBe(settled)
  })

  it('never for a refused key: that waits for the user', async () => {
    const v = venue(fail({ code: 'unauthorized', message: 'invalid key' }))
    await mount(v.api)
    const asked = v.calls()
    expect(useEvents.getState().retryAt).toBeNull()
    expect(dom.byTestId('events-retry-in')).toHaveLength(0)
    await advance(RETRY_AFTER_MAX_MS + AUTO_RETRY_MAX_MS)
    expect(v.calls()).toBe(asked)
  })

  it('stops when the listing is dropped (another profile)', async () => {
    const v = venue(limited(2_000))
    await mount(v.api)
    const asked = v.calls()
    await act(async () => forgetEvents())
    await advance(10_000)
    expect(v.calls()).toBe(asked)
  })
})

describe('autoRetryDelayMs', () => {
  const e = (code: ApiError['code'], retryAfterMs?: number): ApiError => ({
    code,
    message: code,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  })

  it('follows Retry-After within bounds', () => {
    expect(autoRetryDelayMs(e('rate_limited', 12_000), 1)).toBe(12_000)
    expect(autoRetryDelayMs(e('rate_limited', 0), 1)).toBe(RETRY_AFTER_MIN_MS)
    expect(autoRetryDelayMs(e('rate_limited', 3_600_000), 1)).toBe(RETRY_AFTER_MAX_MS)
    expect(autoRetryDelayMs(e('rate_limited'), 1)).toBe(5_000)
  })

  it('backs off passing faults, up to the cap', () => {
    expect(autoRetryDelayMs(e('timeout'), 1)).toBe(AUTO_RETRY_FIRST_MS)
    expect(autoRetryDelayMs(e('server'), 3)).toBe(4 * AUTO_RETRY_FIRST_MS)
    expect(autoRetryDelayMs(e('network'), 40)).toBe(AUTO_RETRY_MAX_MS)
  })

  it('leaves what only the user can mend to the user', () => {
    for (const code of [
      'unauthorized',
      'ip_not_allowed',
      'permission',
      'no_key',
      'keyring_locked',
    ] as const) {
      expect(autoRetryDelayMs(e(code), 1)).toBeNull()
    }
  })
})
