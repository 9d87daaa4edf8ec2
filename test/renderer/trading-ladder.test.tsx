// @vitest-environment happy-dom
// Trading from the ladder (docs/trading.md): a click on an ask row fills the market's ticket as a buy at the row's
// price, a bid row as a sell, in the outcome the ladder shows (YES, or NO in the NO view); it never sends, even in
// one-click mode. The trader's working orders sit on their rows (`ladder-own-order`, `data-qty` = what is left),
// a click cancels one, and the marks cost no row a render when the book moves.
import { act } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, ok } from '../../src/shared/ipc'
import type { AccountView } from '../../src/shared/trading'
import { MarketPane } from '../../src/renderer/features/market/MarketPane'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import * as format from '../../src/renderer/lib/format'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { useTradingUi } from '../../src/renderer/store/trading'
import { click, flush, withDom } from './dom'
import { account, createFakeApi, orderView, voxBook, type FakeApi } from './fake-api'

// formatPrice is called by each ladder row's render with its own price: counting its calls counts row renders.
vi.mock('../../src/renderer/lib/format', async (importOriginal) => {
  const actual = await importOriginal<typeof format>()
  return { ...actual, formatPrice: vi.fn(actual.formatPrice) }
})
// The chart is a pane of its own; nothing here draws one.
vi.mock('../../src/renderer/features/market/PriceChart', () => ({ PriceChart: () => null }))

const dom = withDom()
const one = (id: string): HTMLElement => {
  const el = document.querySelector<HTMLElement>(`[data-testid="${id}"]`)
  if (!el) throw new Error(`no ${id}`)
  return el
}
const row = (id: 'book-bid-row' | 'book-ask-row', price: number, outcome?: 'NO') =>
  dom
    .byTestId(id)
    .find((r) => Number(r.dataset.price) === price && r.dataset.outcome === outcome) as HTMLElement
const draft = () => ({
  side: (one('order-side') as HTMLSelectElement).value,
  outcome: (one('order-outcome') as HTMLSelectElement).value,
  price: (one('order-price') as HTMLInputElement).value,
  dataPrice: one('order-price').dataset.price,
})

async function open(api: FakeApi) {
  await act(async () => {
    dom.root.render(
      <ServicesProvider api={api}>
        <MarketPane market="m1" owner="test" />
      </ServicesProvider>,
    )
  })
  await flush()
  await act(async () => api.push({ books: [voxBook()] }))
}

function engine(view: AccountView = account()): FakeApi {
  return createFakeApi({ getAccount: async () => ok(view) })
}

beforeEach(() => {
  setPriceUnit('cents')
  useTradingUi.setState({ drafts: {}, refusals: {}, collapsed: false })
})

describe('a click on the ladder fills the ticket', () => {
  it('an ask row as a buy at its price, a bid row as a sell', async () => {
    const api = engine()
    await open(api)
    await click(row('book-ask-row', 0.6))
    expect(draft()).toEqual({ side: 'buy', outcome: 'YES', price: '60', dataPrice: '0.6' })
    await click(row('book-bid-row', 0.55))
    expect(draft()).toEqual({ side: 'sell', outcome: 'YES', price: '55', dataPrice: '0.55' })
    // An implied row of the YES ladder is a YES price too.
    await click(row('book-ask-row', 0.57, 'NO'))
    expect(draft()).toMatchObject({ side: 'buy', outcome: 'YES', price: '57' })
  })

  it('in the NO view, as a NO order at the NO book’s own price', async () => {
    const api = engine()
    await open(api)
    await click(one('book-outcome-toggle'))
    await click(row('book-bid-row', 0.43, 'NO'))
    expect(draft()).toEqual({ side: 'sell', outcome: 'NO', price: '43', dataPrice: '0.43' })
  })

  it('never sends, even in one-click mode; the trader still presses Send', async () => {
    const base = account()
    const api = engine(
      account({ trading: { ...base.trading, settings: { ...base.trading.settings, oneClick: true } } }),
    )
    await open(api)
    await act(async () => {
      ;(one('order-qty') as HTMLInputElement).value = '5'
    })
    for (const r of [row('book-ask-row', 0.58), row('book-bid-row', 0.56)]) await click(r)
    expect(api.callsOf('placeOrder')).toHaveLength(0)
    expect(draft()).toMatchObject({ side: 'sell', price: '56' })
  })
})

describe('the trader’s own orders on the ladder', () => {
  it('sit on their rows with what is left of them; a NO order on the implied row it makes', async () => {
    const api = engine(
      account({
        orders: [
          orderView('a', { priceTicks: 55, quantity: 10, filled: 4 }),
          orderView('b', { side: 'sell', priceTicks: 60, quantity: 7, mode: 'paper' }),
          // A NO buy at 43¢ is a YES ask at 57¢ (the implied row).
          orderView('c', { outcome: 'NO', priceTicks: 43, quantity: 3 }),
          // Finished and other markets' orders are not marked.
          orderView('d', { priceTicks: 56, state: 'filled', filled: 10 }),
          orderView('e', { market: 'm2', priceTicks: 56 }),
        ],
      }),
    )
    await open(api)
    const marks = dom.byTestId('ladder-own-order').map((m) => ({
      id: m.dataset.orderId,
      qty: m.dataset.qty,
      mode: m.dataset.mode,
      row: `${m.closest<HTMLElement>('.ladder-row')?.dataset.side}:${m.closest<HTMLElement>('.ladder-row')?.dataset.price}${m.closest<HTMLElement>('.ladder-row')?.dataset.implied ? ':implied' : ''}`,
    }))
    expect(marks.sort((x, y) => String(x.id).localeCompare(String(y.id)))).toEqual([
      { id: 'a', qty: '6', mode: 'live', row: 'bid:0.55' },
      { id: 'b', qty: '7', mode: 'paper', row: 'ask:0.6' },
      { id: 'c', qty: '3', mode: 'live', row: 'ask:0.57:implied' },
    ])
    // In the NO view, the NO order sits on its own NO bid row and the YES ones are not shown.
    await click(one('book-outcome-toggle'))
    expect(dom.byTestId('ladder-own-order').map((m) => m.dataset.orderId)).toEqual(['c'])
    expect(one('ladder-own-order').closest<HTMLElement>('.ladder-row')?.dataset.price).toBe('0.43')
  })

  it('a click on a mark cancels that order (and fills nothing)', async () => {
    const api = engine(account({ orders: [orderView('a', { priceTicks: 55 })] }))
    await open(api)
    const before = draft()
    await click(one('ladder-own-order'))
    expect(api.callsOf('cancelOrder')).toEqual([['a']])
    expect(draft()).toEqual(before)
  })

  it('a cancel refused from the ladder is said at the ticket', async () => {
    const api = engine(account({ orders: [orderView('a', { priceTicks: 55 })] }))
    api.cancelOrder = async (id) => {
      api.calls.push({ method: 'cancelOrder', args: [id] })
      return fail({ code: 'venue_refused', venueCode: 'PO6', message: 'order not found' })
    }
    await open(api)
    await click(one('ladder-own-order'))
    expect(one('order-error').dataset.code).toBe('PO6')
  })

  it('cost no row a render when the book moves, and only the rows whose marks change when the account does', async () => {
    const view = account({ orders: [orderView('a', { priceTicks: 55 })] })
    const api = engine(view)
    await open(api)
    const formatPrice = vi.mocked(format.formatPrice)
    const rendersOf = (price: number) => formatPrice.mock.calls.filter(([p]) => p === price).length
    formatPrice.mockClear()
    // An ask's size changes: the 0.55 bid row (with its mark) does not re-render.
    await act(async () =>
      api.push({
        books: [
          voxBook({
            asks: [
              [0.58, 70],
              [0.6, 45],
            ],
          }),
        ],
      }),
    )
    expect(rendersOf(0.6)).toBeGreaterThan(0)
    expect(rendersOf(0.55)).toBe(0)
    // The same account again, every object new: no row renders.
    formatPrice.mockClear()
    await act(async () => api.push({ account: account({ orders: [orderView('a', { priceTicks: 55 })] }) }))
    expect(rendersOf(0.55)).toBe(0)
    expect(rendersOf(0.56)).toBe(0)
    // Part of the order fills: its row re-renders (the mark's quantity), no other.
    formatPrice.mockClear()
    await act(async () =>
      api.push({ account: account({ orders: [orderView('a', { priceTicks: 55, filled: 3 })] }) }),
    )
    expect(rendersOf(0.55)).toBeGreaterThan(0)
    expect(rendersOf(0.56)).toBe(0)
    expect(rendersOf(0.58)).toBe(0)
    expect(one('ladder-own-order').dataset.qty).toBe('7')
  })

  it('an order at a price the ladder does not show is counted in its foot', async () => {
    const api = engine(account({ orders: [orderView('a', { priceTicks: 30 })] }))
    await open(api)
    expect(dom.byTestId('ladder-own-order')).toHaveLength(0)
    expect(one('ladder-own-off').dataset.count).toBe('1')
  })
})
