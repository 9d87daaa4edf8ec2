// @vitest-environment happy-dom
// Only what changed re-renders: ladder and tape rows are memoised, a row whose data did not change is not
// rendered again (counted through formatPrice, which each row calls once per render with its own price), and
// highlights are classes, not animations, that go out in the frame of a later batch or by one timer. Ages tick on
// one shared clock, and only while shown.
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BookView, TradeView } from '../../src/shared/model'
import { FreshnessBadge } from '../../src/renderer/ui/FreshnessBadge'
import { FLASH_MS, OrderBook } from '../../src/renderer/features/market/OrderBook'
import { FRESH_MS, TradeTape } from '../../src/renderer/features/market/TradeTape'
import { clockSubscribers } from '../../src/renderer/hooks/clock'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import * as format from '../../src/renderer/lib/format'
import { HIGHLIGHT_SLACK_MS } from '../../src/renderer/store/highlights'
import { useMonitor } from '../../src/renderer/store/monitor'
import { createFakeApi, type FakeApi } from './fake-api'

vi.mock('../../src/renderer/lib/format', async (importOriginal) => {
  const actual = await importOriginal<typeof format>()
  return { ...actual, formatPrice: vi.fn(actual.formatPrice) }
})

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLDivElement
let root: Root

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

const q = (sel: string) => Array.from(container.querySelectorAll<HTMLElement>(sel))
const formatPrice = vi.mocked(format.formatPrice)
/** How many times rows were rendered for each price since the last reset. */
const rendersOf = (price: number) => formatPrice.mock.calls.filter(([p]) => p === price).length

function book(bids: BookView['bids'], asks: BookView['asks']): BookView {
  return {
    market: 'm1',
    state: 'live',
    staleReason: null,
    bids,
    asks,
    depth: { bids: bids.length, asks: asks.length },
    seq: 1,
    updatedAt: Date.now(),
  }
}

const trade = (key: string, price: number): TradeView => ({
  key,
  market: 'm1',
  price,
  size: 5,
  side: 'buy',
  ts: 1_000,
  receivedAt: 1_000,
})

beforeEach(() => {
  useMonitor.getState().reset()
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
  formatPrice.mockClear()
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
  vi.useRealTimers()
})

describe('ladder rows', () => {
  const bids: BookView['bids'] = [
    [0.51, 100],
    [0.5, 50],
    [0.49, 30],
  ]
  const changedBids: BookView['bids'] = [
    [0.51, 80],
    [0.5, 50],
    [0.49, 30],
  ]
  const asks: BookView['asks'] = [
    [0.61, 70],
    [0.62, 20],
    [0.63, 10],
  ]

  it('a batch re-renders only the levels whose price, size or running total changed', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={3} />)
    await act(async () => api.push({ books: [book(bids, asks)] }))
    for (const p of [0.51, 0.5, 0.49, 0.61, 0.62, 0.63]) expect(rendersOf(p)).toBe(1)
    const askBar = container.querySelector<HTMLElement>('.ladder-row[data-price="0.61"] .depth-bar')?.style
      .transform
    expect(askBar).toBe('scaleX(0.354)')
    formatPrice.mockClear()
    // The worst bid's size changes: its own row only (totals above it are unchanged). The ladder's largest
    // total changes too; a new scale would move every depth bar through a context the bars alone read, not
    // through the rows.
    const next = book(
      [
        [0.51, 100],
        [0.5, 50],
        [0.49, 45],
      ],
      asks,
    )
    await act(async () => api.push({ books: [next] }))
    // (A changed size renders its row twice: the flash is derived from the previous size during render.)
    expect(rendersOf(0.49)).toBeGreaterThan(0)
    for (const p of [0.51, 0.5, 0.61, 0.62, 0.63]) expect(rendersOf(p)).toBe(0)
    const bar = (p: number): string | undefined =>
      container.querySelector<HTMLElement>(`.ladder-row[data-price="${p}"] .depth-bar`)?.style.transform
    // The largest total went from 180 to 195, within the bars' scale (198, set at the first book: bar-scale.ts),
    // which holds: totals 100, 150 and 195 over it, and the asks' bars, whose totals did not change, stay put.
    expect(bar(0.49)).toBe('scaleX(0.985)')
    expect(bar(0.5)).toBe('scaleX(0.758)')
    expect(bar(0.51)).toBe('scaleX(0.505)')
    expect(bar(0.61)).toBe(askBar)
    // The same book again (a new object, equal levels): no row renders.
    formatPrice.mockClear()
    await act(async () =>
      api.push({ books: [{ ...next, bids: next.bids.map((l) => [...l] as [number, number]) }] }),
    )
    for (const p of [0.51, 0.5, 0.49, 0.61, 0.62, 0.63]) expect(rendersOf(p)).toBe(0)
  })

  /** A ladder whose best bid's size just went down (on a fake clock, performance.now() included). */
  async function flashedLadder(): Promise<FakeApi> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={3} />)
    await act(async () => api.push({ books: [book(bids, asks)] }))
    await act(async () => api.push({ books: [book(changedBids, asks)] }))
    return api
  }

  it('flashes a changed size with a class that goes out by a timer without batches: no animation', async () => {
    await flashedLadder()
    expect(q('.flash-down').map((e) => e.textContent)).toEqual(['80'])
    await act(async () => {
      vi.advanceTimersByTime(FLASH_MS + HIGHLIGHT_SLACK_MS - 1)
    })
    expect(q('.flash-down')).toHaveLength(1)
    await act(async () => {
      vi.advanceTimersByTime(1)
    })
    expect(q('.flash-up, .flash-down')).toHaveLength(0)
  })

  it("a flash goes out with a batch that comes near its end, in that batch's render, and not with one before", async () => {
    const api = await flashedLadder()
    // A batch that leaves the flashed level as it is, well before the end: still lit.
    await act(async () => {
      vi.advanceTimersByTime(FLASH_MS - HIGHLIGHT_SLACK_MS - 1)
    })
    await act(async () => api.push({ books: [book(changedBids, asks)] }))
    expect(q('.flash-down')).toHaveLength(1)
    // Within the slack of the end: out with that batch, before the timer.
    await act(async () => {
      vi.advanceTimersByTime(1)
    })
    expect(q('.flash-down')).toHaveLength(1)
    await act(async () => api.push({ books: [book(changedBids, asks)] }))
    expect(q('.flash-up, .flash-down')).toHaveLength(0)
  })

  it('moving the keyboard level cursor re-renders the row it leaves and the row it enters, no other', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={3} />)
    await act(async () => api.push({ books: [book(bids, asks)] }))
    const levels = container.querySelector<HTMLElement>('[data-testid="ladder-levels"]') as HTMLElement
    await act(async () => levels.focus())
    formatPrice.mockClear()
    await act(async () => {
      levels.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    })
    expect(rendersOf(0.51)).toBe(1)
    expect(rendersOf(0.5)).toBe(1)
    for (const p of [0.49, 0.61, 0.62, 0.63]) expect(rendersOf(p)).toBe(0)
  })

  it('marks each book version by its receipt time for Element Timing, remounted with each, with or without a seq', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={3} />)
    // A venue without sequences (VoxFi): the mark is the receipt time alone.
    await act(async () => api.push({ books: [{ ...book(bids, asks), seq: null, updatedAt: 1000 }] }))
    const first = container.querySelector('[elementtiming="book:m1:1000"]')
    expect(first?.textContent).toBe('3 bid / 3 ask levels')
    await act(async () => api.push({ books: [{ ...book(bids, asks), seq: 8, updatedAt: 1001 }] }))
    const second = container.querySelector('[elementtiming="book:m1:1001"]')
    expect(second?.textContent).toBe('3 bid / 3 ask levels')
    expect(second).not.toBe(first)
    expect(first?.isConnected).toBe(false)
    expect(container.querySelectorAll('[elementtiming^="book:"]')).toHaveLength(1)
  })
})

describe('tape rows', () => {
  it('a batch mounts its new rows and renders no other; each price cell carries its Element Timing mark', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    const api = createFakeApi()
    await render(api, <TradeTape market="m1" />)
    await act(async () => api.push({ trades: [trade('a', 0.41), trade('b', 0.42)] }))
    expect(rendersOf(0.41)).toBe(1)
    expect(rendersOf(0.42)).toBe(1)
    formatPrice.mockClear()
    await act(async () => api.push({ trades: [trade('c', 0.43)] }))
    expect(rendersOf(0.43)).toBe(1)
    expect(rendersOf(0.41)).toBe(0)
    expect(rendersOf(0.42)).toBe(0)
    const rows = q('[data-testid="trade-row"]')
    expect(rows.map((r) => r.dataset.key)).toEqual(['c', 'b', 'a'])
    expect(rows.map((r) => r.querySelector('.c-price')?.getAttribute('elementtiming'))).toEqual([
      'trade:c',
      'trade:b',
      'trade:a',
    ])
    // A new row is lit, then the class goes: two renders of that row, no animation.
    expect(rows[0]?.classList.contains('fresh')).toBe(true)
    await act(async () => {
      vi.advanceTimersByTime(FRESH_MS + HIGHLIGHT_SLACK_MS)
    })
    expect(q('.tape-row.fresh')).toHaveLength(0)
  })
})

describe('age clock', () => {
  const T0 = 1_700_000_000_000

  it('one shared tick for every shown age, none before an age is due or once none is shown', async () => {
    vi.useFakeTimers({
      now: T0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    })
    const api = createFakeApi()
    const badges = (a: number | null, b: number | null) => (
      <>
        <FreshnessBadge state="stale" updatedAt={a} staleReason="gap" />
        <FreshnessBadge state="quiet" updatedAt={b} />
        <FreshnessBadge state="live" updatedAt={T0} usualGapMs={5_000} />
      </>
    )
    await render(api, badges(T0 - 3_000, T0 - 7_500))
    await act(async () => {
      vi.advanceTimersByTime(0)
    })
    const text = () => q('[data-testid="freshness"]').map((e) => e.textContent)
    expect(text()).toEqual(['Stale (gap) · 3s', 'Quiet? · 7s', 'Live'])
    // Two ages shown, one clock: a single timer for both, plus the live badge's wait for its usual gap.
    expect(clockSubscribers()).toBe(2)
    expect(vi.getTimerCount()).toBe(2)
    await act(async () => {
      vi.advanceTimersByTime(1_000)
    })
    expect(text()).toEqual(['Stale (gap) · 4s', 'Quiet? · 8s', 'Live'])
    await act(async () => {
      vi.advanceTimersByTime(4_000)
    })
    expect(text()).toEqual(['Stale (gap) · 8s', 'Quiet? · 12s', 'Live · 5s'])
    expect(clockSubscribers()).toBe(3)
    expect(vi.getTimerCount()).toBe(1)
    // Nothing shown any more: no clock, no timer.
    await render(api, <FreshnessBadge state="resyncing" updatedAt={T0} />)
    expect(clockSubscribers()).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })
})
