// @vitest-environment happy-dom
// The account pane as a trading surface (docs/trading.md, DESIGN §3.7): every own order an `order-row` with its
// data, a cancel on the working ones, cancel-all from the button and the hotkey (asking first while confirmations
// are on, once per press), PAPER on paper orders, fills, positions and balance, merge on a market holding YES and
// NO, close filling the market's ticket, and which account reads failed and why.
import { act } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, ok } from '../../src/shared/ipc'
import type { PositionRow } from '../../src/shared/account'
import type { AccountView, TradingSettings } from '../../src/shared/trading'
import { AccountPane } from '../../src/renderer/features/account/AccountPane'
import { OrderTicket, TradingLayer } from '../../src/renderer/features/trading'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { useTradingUi } from '../../src/renderer/store/trading'
import { click, flush, key, setField, withDom } from './dom'
import { account, book, createFakeApi, orderView, positionRow, status, type FakeApi } from './fake-api'

const dom = withDom()
const one = (id: string, within: ParentNode = document): HTMLElement => {
  const el = within.querySelector<HTMLElement>(`[data-testid="${id}"]`)
  if (!el) throw new Error(`no ${id}`)
  return el
}
const all = (id: string) => Array.from(document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`))

const order = orderView
const position = positionRow

function accountOf(settings: Partial<TradingSettings>, partial: Partial<AccountView> = {}): AccountView {
  const base = account()
  return account({
    trading: { ...base.trading, settings: { ...base.trading.settings, ...settings } },
    ...partial,
  })
}

const onOpenMarket = vi.fn()

async function open(view: AccountView, api: FakeApi = createFakeApi()) {
  api.getAccount = async () => ok(view)
  await act(async () => {
    dom.root.render(
      <ServicesProvider api={api}>
        <AccountPane onOpenKeySettings={() => {}} onOpenMarket={onOpenMarket} />
        <OrderTicket market="m1" />
        <TradingLayer />
      </ServicesProvider>,
    )
  })
  await act(async () => api.push({ status: status({ hasKey: true }) }))
  await flush()
  return api
}

beforeEach(() => {
  setPriceUnit('cents')
  onOpenMarket.mockClear()
  useTradingUi.setState({
    drafts: {},
    refusals: {},
    collapsed: false,
    cancelAll: { asking: false, running: false, result: null, error: null },
  })
})

describe('own orders', () => {
  it('each an order-row with its data; working ones first, each with a cancel', async () => {
    const api = await open(
      accountOf(
        {},
        {
          orders: [
            order('done', { state: 'filled', filled: 10 }),
            order('o1', {
              side: 'sell',
              outcome: 'NO',
              priceTicks: 43,
              quantity: 7,
              filled: 2,
              state: 'partially_filled',
            }),
            order('o2', { kind: 'market', priceTicks: null, state: 'pending' }),
          ],
        },
      ),
    )
    const rows = all('order-row')
    expect(rows.map((r) => r.dataset.orderId)).toEqual(['o1', 'o2', 'done'])
    expect({ ...rows[0]?.dataset }).toMatchObject({
      testid: 'order-row',
      orderId: 'o1',
      market: 'm1',
      state: 'partially_filled',
      side: 'sell',
      outcome: 'NO',
      price: '0.43',
      qty: '7',
      mode: 'live',
    })
    // A market order has no price.
    expect(rows[1]?.dataset.price).toBeUndefined()
    expect(rows.map((r) => r.querySelectorAll('[data-testid="order-cancel"]').length)).toEqual([1, 1, 0])
    await click(one('order-cancel', rows[0] as HTMLElement))
    expect(api.callsOf('cancelOrder')).toEqual([['o1']])
  })

  it('a cancel the venue refuses is said over the table', async () => {
    const api = createFakeApi()
    api.cancelOrder = async () =>
      fail({ code: 'venue_refused', venueCode: 'PO6', message: 'order not found' })
    await open(accountOf({}, { orders: [order('o1')] }), api)
    await click(one('order-cancel'))
    expect(one('order-action-error').dataset.code).toBe('PO6')
  })
})

describe('cancel-all', () => {
  it('with confirmations on it asks first; nothing is cancelled until cancel-all-confirm', async () => {
    const api = await open(accountOf({}, { orders: [order('o1'), order('o2')] }))
    // Two buttons: over the account's orders, and in the ticket.
    expect(all('cancel-all')).toHaveLength(2)
    await click(all('cancel-all')[0] as HTMLElement)
    expect(one('cancel-all-dialog')).toBeTruthy()
    expect(api.callsOf('cancelAllOrders')).toHaveLength(0)
    await click(one('cancel-all-confirm-cancel'))
    expect(api.callsOf('cancelAllOrders')).toHaveLength(0)
    await click(all('cancel-all')[1] as HTMLElement)
    await click(one('cancel-all-confirm'))
    expect(api.callsOf('cancelAllOrders')).toHaveLength(1)
    expect(one('cancel-all-result').textContent).toBe('Nothing to cancel')
  })

  it('in one-click mode a press cancels at once, and a double click is one cancel-all', async () => {
    const api = await open(accountOf({ oneClick: true }, { orders: [order('o1')] }))
    const button = all('cancel-all')[0] as HTMLElement
    const press = (detail: number) =>
      act(async () => {
        button.dispatchEvent(new MouseEvent('click', { bubbles: true, detail }))
      })
    await press(1)
    await flush()
    expect(api.callsOf('cancelAllOrders')).toHaveLength(1)
    // The double click's second click comes after the first run ended: still not a press.
    await press(2)
    await flush()
    expect(api.callsOf('cancelAllOrders')).toHaveLength(1)
  })

  it('the hotkey Ctrl+Shift+X: asks while confirmations are on; a held key asks once', async () => {
    const api = await open(accountOf({}, { orders: [order('o1')] }))
    await key(document.body, 'X', { ctrlKey: true, shiftKey: true, code: 'KeyX' })
    expect(one('cancel-all-dialog')).toBeTruthy()
    await click(one('cancel-all-confirm'))
    expect(api.callsOf('cancelAllOrders')).toHaveLength(1)
    // Held: its repeats neither ask again nor cancel again.
    for (let i = 0; i < 5; i++)
      await key(document.body, 'X', { ctrlKey: true, shiftKey: true, code: 'KeyX', repeat: true })
    expect(all('cancel-all-dialog')).toHaveLength(0)
    expect(api.callsOf('cancelAllOrders')).toHaveLength(1)
  })

  it('the hotkey in one-click mode cancels at once, even while an order is in flight', async () => {
    const api = createFakeApi()
    // An order that never hears back.
    api.placeOrder = () => new Promise(() => {})
    await open(accountOf({ oneClick: true }, { orders: [order('o1')] }), api)
    await setField(one('order-price') as HTMLInputElement, '40')
    await setField(one('order-qty') as HTMLInputElement, '5')
    await click(one('order-submit'))
    expect(one('order-submit').dataset.busy).toBe('true')
    await key(document.body, 'X', { ctrlKey: true, shiftKey: true, code: 'KeyX' })
    expect(api.callsOf('cancelAllOrders')).toHaveLength(1)
  })
})

describe('PAPER marks', () => {
  it('on paper orders, fills, positions and the paper balance', async () => {
    await open(
      accountOf(
        { mode: 'paper' },
        {
          orders: [order('p1', { mode: 'paper' }), order('l1')],
          fills: [
            {
              key: 'f1',
              orderId: 'p1',
              market: 'm1',
              side: 'buy',
              price: 0.4,
              size: 2,
              ts: 1,
              mode: 'paper',
            },
            { key: 'f2', orderId: 'l1', market: 'm1', side: 'buy', price: 0.4, size: 2, ts: 1 },
          ],
          paper: {
            balance: { currency: 'BRL', total: 9_999.2, available: 9_999.2, updatedAt: 1 },
            positions: [position({ outcome: 'yes', contracts: 2, size: 2 })],
          },
        },
      ),
    )
    const mode = (id: string) => all(id).map((r) => r.dataset.mode ?? 'live')
    expect(mode('order-row')).toEqual(['paper', 'live'])
    expect(all('order-row')[0]?.textContent).toContain('PAPER')
    expect(all('order-row')[1]?.textContent).not.toContain('PAPER')
    expect(mode('fill-row')).toEqual(['paper', 'live'])
    expect(all('fill-row')[0]?.textContent).toContain('PAPER')
    expect(mode('position-row')).toEqual(['paper'])
    const paperCard = all('balance').find((b) => b.dataset.mode === 'paper')
    expect(paperCard?.textContent).toContain('PAPER')
    expect(paperCard?.textContent).toContain('9,999.20')
  })
})

describe('positions: merge and close', () => {
  const both = [
    position({ outcome: 'yes', contracts: 30, size: 30 }),
    position({ outcome: 'no', contracts: 12, size: -12 }),
  ]

  it('a market holding YES and NO offers to merge min(YES, NO) pairs, asking first', async () => {
    const api = await open(accountOf({}, { positions: both }))
    const merges = all('merge')
    expect(merges).toHaveLength(1)
    expect(merges[0]?.closest<HTMLElement>('[data-testid="position-row"]')?.dataset.outcome).toBe('YES')
    expect(merges[0]?.dataset.pairs).toBe('12')
    await click(merges[0] as HTMLElement)
    expect(api.callsOf('mergePositions')).toHaveLength(0)
    await click(one('merge-confirm'))
    expect(api.callsOf('mergePositions')).toEqual([[{ market: 'm1', quantity: 12 }]])
  })

  it('no merge with one side only', async () => {
    await open(accountOf({}, { positions: [both[0] as PositionRow] }))
    expect(all('merge')).toHaveLength(0)
    expect(all('position-close')).toHaveLength(1)
  })

  it('nothing to merge or close while trading is off', async () => {
    await open(accountOf({ mode: 'off' }, { positions: both }))
    expect(all('merge')).toHaveLength(0)
    expect(all('position-close')).toHaveLength(0)
  })

  it('close fills the market’s ticket with the opposite order for the quantity held, at the touch', async () => {
    const api = await open(accountOf({}, { positions: both }))
    // The YES best bid is 0.56; the NO book's best bid 0.43.
    await act(async () =>
      api.push({
        books: [book({ no: { bids: [[0.43, 40]], asks: [[0.45, 35]], depth: { bids: 1, asks: 1 } } })],
      }),
    )
    const rows = all('position-row')
    await click(one('position-close', rows[0] as HTMLElement))
    const draft = () => ({
      side: (one('order-side') as HTMLSelectElement).value,
      outcome: (one('order-outcome') as HTMLSelectElement).value,
      kind: (one('order-kind') as HTMLSelectElement).value,
      price: (one('order-price') as HTMLInputElement).value,
      qty: (one('order-qty') as HTMLInputElement).value,
    })
    expect(draft()).toEqual({ side: 'sell', outcome: 'YES', kind: 'limit', price: '56', qty: '30' })
    expect(onOpenMarket).toHaveBeenCalledWith('m1')
    await click(one('position-close', rows[1] as HTMLElement))
    expect(draft()).toEqual({ side: 'sell', outcome: 'NO', kind: 'limit', price: '43', qty: '12' })
    // Filled, not sent.
    expect(api.callsOf('placeOrder')).toHaveLength(0)
  })
})

describe('account reads', () => {
  it('says which reads failed and why', async () => {
    await open(
      accountOf(
        {},
        {
          reads: {
            balance: {
              ok: false,
              at: 1,
              error: { code: 'permission', message: 'this key cannot read the wallet' },
            },
            orders: { ok: true, at: 1 },
          },
        },
      ),
    )
    const failed = all('account-read-error')
    expect(failed.map((r) => r.dataset.endpoint)).toEqual(['balance'])
    expect(failed[0]?.textContent).toBe('balance: this key cannot read the wallet')
  })
})

describe('cancel-all in flight', () => {
  it('a second press while it runs is the same run', async () => {
    let finish: (() => void) | null = null
    const api = createFakeApi()
    api.cancelAllOrders = () => {
      api.calls.push({ method: 'cancelAllOrders', args: [] })
      return new Promise((resolve) => {
        finish = () => resolve(ok({ asked: 1, cancelled: 1, failed: 0, deferred: 0 }))
      })
    }
    await open(accountOf({ oneClick: true }, { orders: [order('o1')] }), api)
    await click(all('cancel-all')[0] as HTMLElement)
    await key(document.body, 'X', { ctrlKey: true, shiftKey: true, code: 'KeyX' })
    expect(api.callsOf('cancelAllOrders')).toHaveLength(1)
    expect(all('cancel-all')[0]?.dataset.running).toBe('true')
    await act(async () => finish?.())
    await flush()
    expect(one('cancel-all-result').textContent).toBe('Cancelled 1/1')
    await key(document.body, 'X', { ctrlKey: true, shiftKey: true, code: 'KeyX' })
    expect(api.callsOf('cancelAllOrders')).toHaveLength(2)
  })
})
