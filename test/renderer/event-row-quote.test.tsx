// @vitest-environment happy-dom
// An event of one market (most of VoxFi's listing) quotes that market on its own row, in the list's Bid / Ask /
// Last columns, collapsed. Only the rows on screen subscribe, once the list has held still, and none while the
// pane is a tab behind another.
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Interest } from '../../src/shared/ipc'
import type { EventSummary, TickerView } from '../../src/shared/model'
import { EventList } from '../../src/renderer/features/events/EventList'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { SETTLE_MS } from '../../src/renderer/hooks/settled'
import { withDom, withScrollHeight } from './dom'
import { createFakeApi, type FakeApi } from './fake-api'

const dom = withDom()

function single(i: number): EventSummary {
  return { id: `e${i}`, title: `Event ${i}`, markets: [{ id: `m${i}`, title: `Event ${i}` }] }
}
const PAIR: EventSummary = {
  id: 'pair',
  title: 'Two markets',
  markets: [
    { id: 'p1', title: 'Yes side' },
    { id: 'p2', title: 'Other' },
  ],
}
/** A listing far longer than the list's 600 px: most of its rows are off screen. */
const LISTING: EventSummary[] = [single(0), PAIR, ...Array.from({ length: 80 }, (_, i) => single(i + 1))]

function ticker(market: string, partial: Partial<TickerView> = {}): TickerView {
  return {
    market,
    bestBid: 0.41,
    bestAsk: 0.44,
    last: 0.42,
    updatedAt: Date.now(),
    state: 'live',
    ...partial,
  }
}

// The list is virtualised: its scroll box gets a height, so rows render.
withScrollHeight('event-list', 600)
afterEach(() => {
  vi.useRealTimers()
})

async function render(api: FakeApi, subscribe = true) {
  await act(async () => {
    dom.root.render(
      <ServicesProvider api={api}>
        <EventList
          events={LISTING}
          selectedMarket={null}
          onOpenMarket={() => {}}
          onOpenEvent={() => {}}
          subscribe={subscribe}
        />
      </ServicesProvider>,
    )
  })
}

/** The markets the window last asked the engine for. */
function subscribed(api: FakeApi): string[] {
  const last = api.callsOf('setInterests').at(-1)?.[0] as Interest[] | undefined
  return (last ?? []).flatMap((i) => (i.channel === 'market' ? [i.id] : []))
}

const row = (event: string) =>
  dom.container.querySelector<HTMLElement>(`[data-testid="event-row"][data-event="${event}"]`)
const cells = (el: HTMLElement | null) =>
  [...(el?.querySelectorAll('.c-num') ?? [])].map((c) => c.textContent)

describe("a one-market event's row", () => {
  it("shows its market's bid, ask and last in the list's columns, collapsed", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const api = createFakeApi()
    await render(api)
    expect(row('e0')?.getAttribute('aria-expanded')).toBe('false')
    expect(row('e0')?.dataset.market).toBe('m0')
    await act(async () => {
      api.push({ tickers: [ticker('m0')] })
    })
    expect(cells(row('e0'))).toEqual(['41¢', '44¢', '42¢'])
    // An event of several markets is quoted on its market rows: its own row counts them.
    expect(cells(row('pair'))).toEqual([])
    expect(row('pair')?.querySelector('.count')?.textContent).toBe('2')
  })

  it('subscribes only the rows on screen, once the list holds still', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const api = createFakeApi()
    await render(api)
    // Nothing before the list has held still for a moment.
    expect(subscribed(api)).toEqual([])
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SETTLE_MS)
    })
    const markets = subscribed(api)
    expect(markets).toContain('m0')
    expect(markets).toContain('m1')
    // Far below the fold, and the two-market event (its markets come with its event when it is expanded).
    expect(markets).not.toContain('m80')
    expect(markets).not.toContain('p1')
    expect(markets.length).toBeLessThan(40)
  })

  it('subscribes nothing while the pane is a tab behind another', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const api = createFakeApi()
    await render(api, false)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SETTLE_MS)
    })
    expect(subscribed(api)).toEqual([])
    await render(api, true)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SETTLE_MS)
    })
    expect(subscribed(api)).toContain('m0')
  })
})
