// @vitest-environment happy-dom
// The tape: its pure logic (filters, rows with gap markers, trailing averages, the big-trade rule), and the
// component: virtualised rows, filters that hide smaller trades, big trades marked, the CSV of every trade held.
import { act, createElement } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TradeView } from '../../src/shared/model'
import { TradeTape, type BigTradeRule, type TapeFilters } from '../../src/renderer/features/market/TradeTape'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import * as csv from '../../src/renderer/lib/csv'
import { withDom } from './dom'
import {
  AVERAGE_WINDOW,
  countNewer,
  isBig,
  normaliseFilters,
  normaliseRule,
  parsePositive,
  passesFilters,
  recordAverages,
  tapeRows,
} from '../../src/renderer/features/market/tape'
import { useMonitor } from '../../src/renderer/store/monitor'
import { createFakeApi, type FakeApi } from './fake-api'

vi.mock('../../src/renderer/lib/csv', async (importOriginal) => {
  const actual = await importOriginal<typeof csv>()
  return { ...actual, downloadCsv: vi.fn() }
})

let n = 0
function trade(size: number, side: TradeView['side'] = 'buy', extra: Partial<TradeView> = {}): TradeView {
  n++
  return { key: `k${n}`, market: 'm1', price: 0.5, size, side, ts: n * 1000, receivedAt: n * 1000, ...extra }
}

describe('filters and rows', () => {
  it('filters by side and minimum size', () => {
    const f: TapeFilters = { side: 'sell', minSize: 10 }
    expect(passesFilters(trade(10, 'sell'), f)).toBe(true)
    expect(passesFilters(trade(9.99, 'sell'), f)).toBe(false)
    expect(passesFilters(trade(50, 'buy'), f)).toBe(false)
    expect(passesFilters(trade(50, null), f)).toBe(false)
    expect(passesFilters(trade(1, null), { side: 'all', minSize: null })).toBe(true)
  })

  it('lists newest first, keeps the gap marker under its trade even when that trade is filtered out', () => {
    const a = trade(1)
    const b = trade(20, 'sell', { gapBefore: true })
    const c = trade(30)
    const all = tapeRows([a, b, c], { side: 'all', minSize: null })
    expect(all.map((r) => r.key)).toEqual([c.key, b.key, `gap:${b.key}`, a.key])
    const buys = tapeRows([a, b, c], { side: 'buy', minSize: null })
    expect(buys.map((r) => r.key)).toEqual([c.key, `gap:${b.key}`, a.key])
    const big = tapeRows([a, b, c], { side: 'all', minSize: 25 })
    expect(big.map((r) => r.key)).toEqual([c.key, `gap:${b.key}`])
  })

  it('counts the trades newer than the one seen, through the filters', () => {
    const list = [trade(1), trade(5), trade(50), trade(2), trade(60)]
    const f = { side: 'all', minSize: null } as const
    expect(countNewer(list, list[1] as TradeView, f)).toBe(3)
    expect(countNewer(list, list[1] as TradeView, { side: 'all', minSize: 10 })).toBe(2)
    expect(countNewer(list, list[4] as TradeView, f)).toBe(0)
    expect(countNewer(list, null, f)).toBe(5)
  })

  it('reads inputs and persisted values safely', () => {
    expect(parsePositive('')).toBeNull()
    expect(parsePositive('0')).toBeNull()
    expect(parsePositive('-3')).toBeNull()
    expect(parsePositive('abc')).toBeNull()
    expect(parsePositive('2.5')).toBe(2.5)
    expect(normaliseFilters(undefined)).toEqual({ side: 'all', minSize: null })
    expect(normaliseFilters({ side: 'nope' as 'buy', minSize: -1 })).toEqual({ side: 'all', minSize: null })
    expect(normaliseRule({ minSize: null, relative: null })).toBeNull()
    expect(normaliseRule({ minSize: 0, relative: 3 })).toEqual({ minSize: null, relative: 3 })
  })
})

describe('trailing averages and the big-trade rule', () => {
  it('averages the trades before each one, not itself, over the last AVERAGE_WINDOW', () => {
    const list: TradeView[] = []
    for (let i = 0; i < AVERAGE_WINDOW; i++) list.push(trade(2))
    for (let i = 0; i < AVERAGE_WINDOW; i++) list.push(trade(4))
    const huge = trade(1000)
    list.push(huge)
    const cache = new WeakMap<TradeView, number | null>()
    recordAverages(list, cache)
    expect(cache.get(list[0] as TradeView)).toBeNull()
    expect(cache.get(list[1] as TradeView)).toBe(2)
    // Half-way through the 4s: 25 twos and 25 fours in the window.
    expect(cache.get(list[AVERAGE_WINDOW + 25] as TradeView)).toBe(3)
    // The huge trade is judged against the 50 fours before it.
    expect(cache.get(huge)).toBe(4)
  })

  it("fixes a trade's average when first seen: a trim of the capped tape does not change it", () => {
    const list: TradeView[] = [trade(10), trade(10), trade(1)]
    const cache = new WeakMap<TradeView, number | null>()
    recordAverages(list, cache)
    expect(cache.get(list[2] as TradeView)).toBe(10)
    recordAverages(list.slice(2), cache)
    expect(cache.get(list[2] as TradeView)).toBe(10)
  })

  it('is big by absolute size, by multiple of the average, or either', () => {
    const t = trade(100)
    expect(isBig(t, 10, null)).toBe(false)
    expect(isBig(t, 10, { minSize: 100, relative: null })).toBe(true)
    expect(isBig(t, 10, { minSize: 101, relative: null })).toBe(false)
    expect(isBig(t, 10, { minSize: null, relative: 10 })).toBe(true)
    expect(isBig(t, 10, { minSize: null, relative: 11 })).toBe(false)
    expect(isBig(t, null, { minSize: null, relative: 2 })).toBe(false)
    expect(isBig(t, 50, { minSize: 500, relative: 2 })).toBe(true)
  })
})

// ---------------------------------------------------------------- the component

const dom = withDom()
let api: FakeApi

beforeEach(() => {
  api = createFakeApi()
})

afterEach(() => {
  vi.mocked(csv.downloadCsv).mockClear()
})

async function render(props: Partial<Parameters<typeof TradeTape>[0]> = {}) {
  await act(async () => {
    dom.root.render(
      createElement(ServicesProvider, {
        api,
        children: createElement(TradeTape, { market: 'm1', ...props }),
      }),
    )
  })
}

const rows = () => Array.from(dom.container.querySelectorAll<HTMLElement>('[data-testid="trade-row"]'))

async function type(testId: string, value: string) {
  const el = dom.container.querySelector<HTMLInputElement>(`[data-testid="${testId}"]`)
  if (!el) throw new Error(`no ${testId}`)
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
  await act(async () => {
    setter?.call(el, value)
    el.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

function sizes(count: number): TradeView[] {
  const out: TradeView[] = []
  for (let i = 0; i < count; i++) out.push(trade((i % 10) + 1, i % 2 === 0 ? 'buy' : 'sell'))
  return out
}

describe('TradeTape', () => {
  it('keeps only the rows in view in the DOM, newest first, whatever the store holds', async () => {
    await render()
    const list = sizes(500)
    await act(async () => api.push({ trades: list }))
    const shown = rows()
    expect(shown.length).toBeGreaterThan(10)
    expect(shown.length).toBeLessThan(60)
    expect(shown[0]?.dataset.key).toBe(list[499]?.key)
    expect(shown[1]?.dataset.key).toBe(list[498]?.key)
    // The spacer is as tall as every row, so all 500 can be scrolled to.
    const space = dom.container.querySelector<HTMLElement>('.tape-space')
    expect(space?.style.height).toBe(`${500 * 18}px`)
  })

  it('the minimum size hides smaller trades, and reports the change', async () => {
    const onFiltersChange = vi.fn()
    await render({ onFiltersChange })
    await act(async () => api.push({ trades: sizes(40) }))
    await type('tape-filter-min-size', '7')
    expect(onFiltersChange).toHaveBeenLastCalledWith({ side: 'all', minSize: 7 })
    const shown = rows()
    expect(shown.length).toBe(16) // sizes 7..10 of each ten
    expect(shown.every((r) => Number(r.dataset.size) >= 7)).toBe(true)
    await type('tape-filter-min-size', '')
    // Back to all 40: the 30 rows of the unmeasured view and the overscan below them.
    expect(rows().length).toBe(36)
  })

  it('starts from the filters it is given and filters by side', async () => {
    await render({ filters: { side: 'sell', minSize: null } })
    await act(async () => api.push({ trades: sizes(20) }))
    expect(rows().length).toBe(10)
    expect(rows().every((r) => r.dataset.side === 'sell')).toBe(true)
    const select = dom.container.querySelector<HTMLSelectElement>('[data-testid="tape-filter-side"]')
    expect(select?.value).toBe('sell')
  })

  it('marks big trades from the rule and from the toolbar, and reports the rule', async () => {
    const rule: BigTradeRule = { minSize: 9, relative: null }
    const onBigTradeChange = vi.fn()
    await render({ bigTrade: rule, onBigTradeChange })
    // 30 trades of 5, then 10 (2× the average before it), 5, and 8 (about 1.55×).
    const list = [...Array.from({ length: 30 }, () => trade(5)), trade(10), trade(5), trade(8)]
    await act(async () => api.push({ trades: list }))
    const bigSizes = () =>
      rows()
        .filter((r) => r.dataset.big === 'true')
        .map((r) => Number(r.dataset.size))
    expect(bigSizes()).toEqual([10])
    expect(dom.container.querySelector('[data-big="true"]')?.classList.contains('big')).toBe(true)

    await act(async () => {
      dom.container.querySelector<HTMLButtonElement>('[data-testid="tape-big-toggle"]')?.click()
    })
    await type('tape-big-size', '')
    expect(onBigTradeChange).toHaveBeenLastCalledWith(null)
    expect(bigSizes()).toEqual([])
    await type('tape-big-relative', '1.8')
    expect(onBigTradeChange).toHaveBeenLastCalledWith({ minSize: null, relative: 1.8 })
    expect(bigSizes()).toEqual([10])
    await type('tape-big-relative', '1.5')
    expect(bigSizes()).toEqual([8, 10])
    await type('tape-big-size', '6')
    expect(onBigTradeChange).toHaveBeenLastCalledWith({ minSize: 6, relative: 1.5 })
    expect(bigSizes()).toEqual([8, 10])
  })

  it('follows a filter the holder changes, but not a late echo of its own edit', async () => {
    const onFiltersChange = vi.fn()
    await render({ filters: { side: 'all', minSize: null }, onFiltersChange })
    await act(async () => api.push({ trades: sizes(20) }))
    const input = () => dom.container.querySelector<HTMLInputElement>('[data-testid="tape-filter-min-size"]')
    await type('tape-filter-min-size', '1')
    await type('tape-filter-min-size', '10')
    // The holder persists the edits a round trip late: the echo of "1" does not undo "10".
    await render({ filters: { side: 'all', minSize: 1 }, onFiltersChange })
    expect(input()?.value).toBe('10')
    expect(rows().every((r) => Number(r.dataset.size) >= 10)).toBe(true)
    // A change made elsewhere (another window, a layout switch) is taken.
    await render({ filters: { side: 'buy', minSize: 5 }, onFiltersChange })
    expect(input()?.value).toBe('5')
    expect(rows().every((r) => r.dataset.side === 'buy' && Number(r.dataset.size) >= 5)).toBe(true)
    expect(onFiltersChange).toHaveBeenCalledTimes(2)
  })

  it('exports every trade the store holds, not only the filtered ones', async () => {
    await render({ filters: { side: 'buy', minSize: 5 } })
    const list = sizes(30)
    await act(async () => api.push({ trades: list }))
    await act(async () => {
      dom.container.querySelector<HTMLButtonElement>('[data-testid="tape-export"]')?.click()
    })
    const download = vi.mocked(csv.downloadCsv)
    expect(download).toHaveBeenCalledTimes(1)
    const [filename, text] = download.mock.calls[0] as [string, string]
    expect(filename).toMatch(/^trades-m1-\d{8}-\d{6}\.csv$/)
    expect(text.trim().split('\r\n')).toHaveLength(list.length + 1)
  })

  it('does not light trades that were there when it opened', async () => {
    await act(async () => useMonitor.getState().applyBatch({ seq: 1, at: Date.now(), trades: sizes(5) }))
    await render()
    expect(rows()).toHaveLength(5)
    expect(dom.container.querySelectorAll('.tape-row.fresh')).toHaveLength(0)
    await act(async () => api.push({ trades: [trade(3)] }))
    expect(dom.container.querySelectorAll('.tape-row.fresh')).toHaveLength(1)
  })
})
