// @vitest-environment happy-dom
// The account pane's positions: marked to each market's live price, P&L known or explained, totals, export.
import { act, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Interest } from '../../src/shared/ipc'
import type { FillRow, PositionRow } from '../../src/shared/account'
import { AccountPane } from '../../src/renderer/features/account/AccountPane'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useProfiles } from '../../src/renderer/store/profiles'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { formatMid } from '../../src/renderer/lib/format'
import type * as Format from '../../src/renderer/lib/format'
import { captureDownloads, withDom } from './dom'
import { account, book, createFakeApi, status, type FakeApi } from './fake-api'

// formatMid is called only by a position row's render (for a mid mark): counting its calls counts renders.
vi.mock('../../src/renderer/lib/format', async (original) => {
  const actual = await original<typeof Format>()
  return { ...actual, formatMid: vi.fn(actual.formatMid) }
})

const dom = withDom()

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    dom.root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

const flush = () => act(async () => new Promise<void>((r) => setTimeout(r, 0)))
const byTestId = dom.byTestId
const row = (market: string) =>
  dom.container.querySelector<HTMLElement>(
    `[data-testid="position-row"][data-market="${market}"]`,
  ) as HTMLElement
const cell = (market: string, id: string) => byTestId(id, row(market))[0] as HTMLElement

const position = (p: Pick<PositionRow, 'market' | 'size'> & Partial<PositionRow>): PositionRow => ({
  avgPrice: null,
  pnl: null,
  realizedPnl: null,
  updatedAt: 1_000,
  ...p,
})

/** The engine's account holding these positions (whole: a position left out is closed). */
const holding = (...positions: PositionRow[]) => ({ account: account({ positions }) })

const marketsWatched = (api: FakeApi) =>
  ((api.callsOf('setInterests').at(-1)?.[0] ?? []) as Interest[])
    .filter((i) => i.channel === 'market')
    .map((i) => (i.channel === 'market' ? `${i.id}:${i.filter}` : ''))

async function openWithKey(api: FakeApi) {
  await render(api, <AccountPane onOpenKeySettings={() => {}} />)
  await act(async () => api.push({ status: status({ hasKey: true }) }))
  await flush()
}

beforeEach(() => {
  useProfiles.setState({ profiles: [], activeId: null, error: null })
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('positions with P&L', () => {
  it('marks each position to its live mid, explains what is unknown, and totals only known values', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    await act(async () =>
      api.push(
        holding(
          position({ market: 'm1', size: 100, avgPrice: 0.4, realizedPnl: 1.25, pnl: 99 }),
          position({ market: 'm2', size: 10, pnl: 3 }),
        ),
      ),
    )
    await flush()
    // Each position watches its own market.
    expect(marketsWatched(api)).toEqual(['m1:all', 'm2:all'])

    await act(async () => api.push({ books: [book()] }))
    const mark = cell('m1', 'position-mark')
    expect(mark.dataset.source).toBe('mid')
    expect(mark.dataset.live).toBe('true')
    expect(mark.textContent).toBe('mid57.0¢')
    // The average and the mark in the unit the app shows, as the ladder beside them.
    expect(cell('m1', 'position-avg').textContent).toBe('40¢')
    expect(cell('m1', 'position-upnl').title).toMatch(/^\(mark 57.0¢ − avg 40¢\) × 100;/)
    await act(async () => setPriceUnit('probability'))
    expect(cell('m1', 'position-avg').textContent).toBe('0.40')
    expect(cell('m1', 'position-mark').textContent).toBe('mid0.570')
    await act(async () => setPriceUnit('cents'))
    // Computed from the mark, not the venue's 99.
    expect(cell('m1', 'position-upnl').textContent).toBe('17.00')
    expect(cell('m1', 'position-rpnl').textContent).toBe('1.25')

    // m2: no book, no trade, no cost basis, no realised P&L: every unknown is "—" with its reason.
    expect(cell('m2', 'position-mark').textContent).toBe('—')
    expect(cell('m2', 'position-mark').title).toContain('no live price')
    const u2 = cell('m2', 'position-upnl')
    expect(u2.textContent).toBe('—')
    expect(u2.title).toContain('no cost basis')
    expect(u2.title).toContain('venue reports P&L 3.00')
    expect(cell('m2', 'position-rpnl').title).toContain('no realised P&L')

    const total = byTestId('positions-total')[0] as HTMLElement
    expect(total.dataset.partial).toBe('true')
    expect(total.textContent).toContain('partial')
    expect(total.textContent).toContain('17.00')
    expect(total.textContent).toContain('1.25')
    // One position has a cost basis: no note.
    expect(byTestId('pnl-note')).toHaveLength(0)
  })

  it('falls back to the last trade when the book goes stale, and to nothing without one', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    await act(async () => api.push(holding(position({ market: 'm1', size: -20, avgPrice: 0.6 }))))
    await act(async () => api.push({ books: [book()] }))
    expect(cell('m1', 'position-upnl').textContent).toBe('0.60')

    await act(async () => api.push({ books: [book({ state: 'stale', staleReason: 'gap' })] }))
    const mark = cell('m1', 'position-mark')
    expect(mark.textContent).toBe('—')
    expect(mark.dataset.live).toBe('false')
    expect(mark.classList.contains('not-live')).toBe(true)
    expect(mark.title).toContain('stale: gap')
    expect(cell('m1', 'position-upnl').textContent).toBe('—')
    expect(cell('m1', 'position-upnl').title).toContain('no price to mark at')
    // All unknown is not "partial": the total is "—" with its reason.
    const total = byTestId('positions-total')[0] as HTMLElement
    expect(total.dataset.partial).toBe('false')

    await act(async () =>
      api.push({
        trades: [{ key: 't1', market: 'm1', price: 0.5, size: 3, side: 'sell', ts: 5, receivedAt: 5 }],
      }),
    )
    expect(mark.dataset.source).toBe('last')
    expect(mark.textContent).toBe('last50¢')
    expect(mark.title).toContain('last trade')
    // Short 20 at 0.60, marked at 0.50: +2.00.
    expect(cell('m1', 'position-upnl').textContent).toBe('2.00')
  })

  it('says so when the venue sends no cost basis at all, and releases a closed position’s market', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    await act(async () =>
      api.push(holding(position({ market: 'm1', size: 5 }), position({ market: 'm2', size: 7 }))),
    )
    await flush()
    expect(byTestId('pnl-note')[0]?.textContent).toContain('cost basis')
    expect(marketsWatched(api)).toEqual(['m1:all', 'm2:all'])

    await act(async () => api.push(holding(position({ market: 'm1', size: 5 }))))
    await flush()
    expect(byTestId('position-row').map((r) => r.dataset.market)).toEqual(['m1'])
    expect(marketsWatched(api)).toEqual(['m1:all'])
  })

  it('a row re-renders only when its own market’s mark changes', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    await act(async () =>
      api.push(
        holding(position({ market: 'm1', size: 1, avgPrice: 0.5 }), position({ market: 'm2', size: 1 })),
      ),
    )
    const m2Book = book({ market: 'm2', bids: [[0.3, 10]], asks: [[0.4, 10]] })
    await act(async () => api.push({ books: [book(), m2Book] }))
    expect(cell('m2', 'position-mark').textContent).toBe('mid35.0¢')
    const rendersOf = (mid: number) => vi.mocked(formatMid).mock.calls.filter(([v]) => v === mid).length
    vi.mocked(formatMid).mockClear()
    // m1's top of book moves; m2 gets a new book object whose deeper levels and seq changed, top unchanged.
    await act(async () =>
      api.push({
        books: [
          book({ bids: [[0.57, 1]] }),
          {
            ...m2Book,
            bids: [
              [0.3, 10],
              [0.2, 5],
            ],
            seq: 9,
            updatedAt: Date.now() + 1,
          },
        ],
      }),
    )
    await flush()
    expect(cell('m1', 'position-mark').textContent).toBe('mid57.5¢')
    expect(rendersOf(0.575)).toBeGreaterThan(0)
    expect(rendersOf(0.35)).toBe(0)
    // m2's own quote changing does re-render it.
    await act(async () => api.push({ books: [{ ...m2Book, asks: [[0.36, 1]], seq: 10 }] }))
    expect(cell('m2', 'position-mark').textContent).toBe('mid33.0¢')
  })
})

describe('fills export', () => {
  it('saves the fills held as CSV', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    const button = byTestId('fills-export')[0] as HTMLButtonElement
    expect(button.disabled).toBe(true)
    await act(async () =>
      api.push({
        account: account({
          fills: [
            {
              key: 'f1',
              orderId: 'o1',
              market: 'm1',
              side: 'buy',
              price: 0.4,
              size: 5,
              ts: 1_700_000_000_000,
            } satisfies FillRow,
          ],
        }),
      }),
    )
    expect(button.disabled).toBe(false)
    const saved = captureDownloads()
    await act(async () => button.click())
    expect(saved.names).toHaveLength(1)
    expect(saved.names[0]).toMatch(/^fills-\d{8}-\d{6}\.csv$/)
    expect((await saved.texts())[0]).toBe(
      // m1 is not in the (empty) listing: its title columns are empty, never guessed.
      'time,market,event,market_title,price,size,side,order_id,fill_id,mode\r\n' +
        '2023-11-14T22:13:20.000Z,m1,,,0.4,5,buy,o1,f1,live\r\n',
    )
  })
})
