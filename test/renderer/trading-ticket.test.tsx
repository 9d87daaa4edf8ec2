// @vitest-environment happy-dom
// The order ticket (docs/trading.md, DESIGN §3.7): one press is one order (a held Enter, a double click, a press
// while the last one is in flight), the confirmation stops the order until `order-confirm`, one-click skips it,
// a refusal is shown with its code and the fields keep what was typed, a warning the engine asks about re-sends
// the same intent with `confirmed`, and the ticket says what the order costs, leaves and fills at, and how it went.
import { act } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import { tradeError } from '../../src/main/services/orders/venue'
import { fail, ok } from '../../src/shared/ipc'
import type { ApiError, Result } from '../../src/shared/model'
import {
  intentIdSchema,
  type AccountView,
  type OrderRequest,
  type OrderView,
  type TradingSettings,
} from '../../src/shared/trading'
import { OrderTicket } from '../../src/renderer/features/trading'
import { takerFeeCents } from '../../src/shared/voxfi-orders'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useMonitor } from '../../src/renderer/store/monitor'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { useTradingUi } from '../../src/renderer/store/trading'
import { click, flush, key, setField, withDom } from './dom'
import { account, book, createFakeApi, orderOf, type FakeApi } from './fake-api'

const dom = withDom()
const one = (id: string): HTMLElement => {
  const el = document.querySelector<HTMLElement>(`[data-testid="${id}"]`)
  if (!el) throw new Error(`no ${id}`)
  return el
}
const none = (id: string) => document.querySelectorAll(`[data-testid="${id}"]`).length === 0
const input = (id: string) => one(id) as HTMLInputElement

/** The demo account with these trading settings (live, confirmations on, by default). */
function accountOf(settings: Partial<TradingSettings> = {}, partial: Partial<AccountView> = {}): AccountView {
  const base = account()
  return account({
    trading: { ...base.trading, settings: { ...base.trading.settings, ...settings } },
    ...partial,
  })
}

async function open(api: FakeApi) {
  await act(async () => {
    dom.root.render(
      <ServicesProvider api={api}>
        <OrderTicket market="m1" />
      </ServicesProvider>,
    )
  })
  await flush()
}

/** A fake engine whose account has these settings, answering orders with `answer` (default: accepted). */
function engine(
  settings: Partial<TradingSettings> = {},
  answer?: (r: OrderRequest) => Promise<Result<OrderView>>,
  partial: Partial<AccountView> = {},
): FakeApi {
  const view = accountOf(settings, partial)
  const api = createFakeApi({ getAccount: async () => ok(view) })
  if (answer)
    api.placeOrder = async (r) => {
      api.calls.push({ method: 'placeOrder', args: [r] })
      return answer(r)
    }
  return api
}

const requests = (api: FakeApi) => api.callsOf('placeOrder').map(([r]) => r as OrderRequest)

async function typeOrder(price = '40', quantity = '10') {
  await setField(input('order-price'), price)
  await setField(input('order-qty'), quantity)
}

const click2 = async (el: HTMLElement) => {
  // A double click: two clicks, the second with detail 2, as browsers send them.
  await act(async () => {
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }))
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 2 }))
  })
  await flush()
}

beforeEach(() => {
  setPriceUnit('cents')
  useTradingUi.setState({ drafts: {}, refusals: {}, collapsed: false })
})

describe('one press, one order', () => {
  it('a held Enter sends one order: the key’s auto-repeat is not a press', async () => {
    const api = engine({ oneClick: true })
    await open(api)
    await typeOrder()
    const qty = input('order-qty')
    await key(qty, 'Enter')
    for (let i = 0; i < 20; i++) await key(qty, 'Enter', { repeat: true })
    await flush()
    expect(requests(api)).toHaveLength(1)
    // Another press (the key let go and pressed again) is another order, with an intent of its own.
    await key(qty, 'Enter')
    await flush()
    const [a, b] = requests(api)
    expect(requests(api)).toHaveLength(2)
    expect(a?.intentId).not.toBe(b?.intentId)
  })

  it('a double click sends one order, however fast the engine answers the first click', async () => {
    const api = engine({ oneClick: true })
    await open(api)
    await typeOrder()
    await click2(one('order-submit'))
    expect(requests(api)).toHaveLength(1)
    // The engine answered the first click before the second came: the second is still not a press.
    const send = one('order-submit')
    await click(send)
    expect(requests(api)).toHaveLength(2)
    await act(async () => {
      send.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 2 }))
    })
    await flush()
    expect(requests(api)).toHaveLength(2)
  })

  it('Send holds until the engine answers: presses meanwhile send nothing', async () => {
    let answer: ((r: Result<OrderView>) => void) | null = null
    const api = engine({ oneClick: true }, () => new Promise((resolve) => (answer = resolve)))
    await open(api)
    await typeOrder()
    const qty = input('order-qty')
    await key(qty, 'Enter')
    await key(qty, 'Enter')
    await click(one('order-submit'))
    expect(requests(api)).toHaveLength(1)
    expect((one('order-submit') as HTMLButtonElement).disabled).toBe(true)
    await act(async () => answer?.(ok(orderOf(requests(api)[0] as OrderRequest))))
    await flush()
    await key(qty, 'Enter')
    expect(requests(api)).toHaveLength(2)
  })

  it('with confirmations on, a press while an order is in flight asks nothing', async () => {
    const api = engine({}, () => new Promise(() => {}))
    await open(api)
    await typeOrder()
    await click(one('order-submit'))
    await click(one('order-confirm'))
    expect(requests(api)).toHaveLength(1)
    await key(input('order-qty'), 'Enter')
    expect(none('order-confirm-dialog')).toBe(true)
  })

  it('each request carries a valid intent, the profile and mode shown, and the moment of the press', async () => {
    const api = engine({ oneClick: true, mode: 'paper' })
    await open(api)
    await typeOrder('43', '12')
    const before = Date.now()
    await click(one('order-submit'))
    const [r] = requests(api)
    expect(r).toMatchObject({
      profileId: 'demo',
      mode: 'paper',
      market: 'm1',
      side: 'buy',
      outcome: 'YES',
      kind: 'limit',
      priceTicks: 43,
      quantity: 12,
    })
    expect(intentIdSchema.safeParse(r?.intentId).success).toBe(true)
    expect(r?.clickedAt).toBeGreaterThanOrEqual(before)
    expect(r?.clickedAt).toBeLessThanOrEqual(Date.now())
  })
})

describe('confirmation', () => {
  it('is on by default: Send asks, and nothing goes until order-confirm', async () => {
    const api = engine()
    await open(api)
    expect(one('order-ticket').dataset.confirmations).toBe('true')
    await typeOrder()
    await click(one('order-submit'))
    expect(one('order-confirm-dialog').textContent).toContain('Buy 10 YES @ 40¢')
    expect(requests(api)).toHaveLength(0)
    // Cancel: nothing sent.
    await click(one('order-confirm-cancel'))
    expect(none('order-confirm-dialog')).toBe(true)
    expect(requests(api)).toHaveLength(0)
    // Again, and yes.
    await click(one('order-submit'))
    await click(one('order-confirm'))
    expect(requests(api)).toHaveLength(1)
    expect(none('order-confirm-dialog')).toBe(true)
  })

  it('a held Enter that opened the question cannot answer it', async () => {
    const api = engine()
    await open(api)
    await typeOrder()
    await key(input('order-qty'), 'Enter')
    const yes = one('order-confirm')
    // Focus is on the yes button now: the key's repeats land there.
    expect(document.activeElement).toBe(yes)
    for (let i = 0; i < 10; i++) {
      await act(async () => {
        const e = new KeyboardEvent('keydown', {
          key: 'Enter',
          repeat: true,
          bubbles: true,
          cancelable: true,
        })
        yes.dispatchEvent(e)
        // What a browser does with an Enter on a focused button that nothing prevented: click it.
        if (!e.defaultPrevented) yes.click()
      })
    }
    await flush()
    expect(requests(api)).toHaveLength(0)
    expect(one('order-confirm-dialog')).toBeTruthy()
  })

  it('one-click skips the question; the toggle changes it for the profile', async () => {
    const api = engine()
    api.setTrading = async (input) => {
      api.calls.push({ method: 'setTrading', args: [input] })
      const view = accountOf({ oneClick: input.oneClick ?? false }).trading
      return ok(view)
    }
    await open(api)
    const toggle = one('order-one-click')
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    await click(toggle)
    expect(api.callsOf('setTrading')).toEqual([[{ oneClick: true }]])
    expect(one('order-one-click').getAttribute('aria-pressed')).toBe('true')
    expect(one('order-ticket').dataset.confirmations).toBe('false')
    await typeOrder()
    await click(one('order-submit'))
    expect(none('order-confirm-dialog')).toBe(true)
    expect(requests(api)).toHaveLength(1)
  })
})

describe('refusals', () => {
  const refusing = (error: ApiError) => engine({ oneClick: true }, async () => fail(error))

  it('shows the venue’s code and what to do, and keeps what was typed', async () => {
    // As the engine words VoxFi's error body (en/api/errors).
    const api = refusing(tradeError('place', 400, { error: 'insufficient balance', error_code: 'PO3' }))
    await open(api)
    await typeOrder('45', '999')
    await click(one('order-submit'))
    const error = one('order-error')
    expect(error.dataset.code).toBe('PO3')
    expect(error.textContent).toContain('Not enough balance for this order (PO3')
    expect(input('order-price').value).toBe('45')
    expect(input('order-qty').value).toBe('999')
  })

  it('names the field at fault', async () => {
    const api = refusing(tradeError('place', 400, { error: 'invalid price', error_code: 'PO1' }))
    await open(api)
    await typeOrder()
    await click(one('order-submit'))
    expect(one('order-error').dataset.code).toBe('PO1')
    expect(input('order-price').getAttribute('aria-invalid')).toBe('true')
    expect(input('order-qty').getAttribute('aria-invalid')).toBeNull()
  })

  it('a rate limit says how long to wait', async () => {
    const api = refusing({ code: 'rate_limited', message: 'rate limit exceeded', retryAfterMs: 30_000 })
    await open(api)
    await typeOrder()
    await click(one('order-submit'))
    expect(one('order-error').dataset.code).toBe('rate_limited')
    expect(one('order-error').textContent).toContain('30 s')
  })

  it('what the ticket itself refuses is named the same way, and nothing is sent', async () => {
    const api = engine({ oneClick: true })
    await open(api)
    await typeOrder('40.5', '10')
    await click(one('order-submit'))
    expect(one('order-error').dataset.code).toBe('invalid_argument')
    expect(input('order-price').getAttribute('aria-invalid')).toBe('true')
    expect(requests(api)).toHaveLength(0)
  })

  it('a warning the engine asks about is asked, and yes re-sends the same intent with it accepted', async () => {
    let n = 0
    const api = engine({ oneClick: true }, async (r) =>
      ++n === 1
        ? fail({ code: 'confirm', message: 'the same order a moment ago', confirm: ['duplicate'] })
        : ok(orderOf(r)),
    )
    await open(api)
    await typeOrder()
    await click(one('order-submit'))
    const dialog = one('order-confirm-dialog')
    expect(dialog.dataset.reasons).toBe('duplicate')
    expect(one('order-warning').dataset.reason).toBe('duplicate')
    expect(none('order-error')).toBe(true)
    await click(one('order-confirm'))
    const [first, second] = requests(api)
    expect(requests(api)).toHaveLength(2)
    expect(second?.intentId).toBe(first?.intentId)
    expect(first?.confirmed).toBeUndefined()
    expect(second?.confirmed).toEqual(['duplicate'])
    expect({ ...second, confirmed: undefined, clickedAt: 0 }).toEqual({
      ...first,
      confirmed: undefined,
      clickedAt: 0,
    })
    expect(one('ticket-order').dataset.state).toBe('pending')
  })
})

describe('the mode and the key', () => {
  it('off: the ticket says so and how to turn it on, and sends nothing', async () => {
    const api = engine({ mode: 'off' })
    await open(api)
    expect(one('order-ticket').dataset.mode).toBe('off')
    expect(one('ticket-off').textContent).toContain('Paper')
    expect((one('order-submit') as HTMLButtonElement).disabled).toBe(true)
    await typeOrder()
    await key(input('order-qty'), 'Enter')
    expect(requests(api)).toHaveLength(0)
    await click(one('ticket-paper-on'))
    expect(api.callsOf('setTrading')).toEqual([[{ mode: 'paper' }]])
  })

  it('a key that cannot create orders: disabled, with the reason', async () => {
    const reason =
      'this key cannot create orders; create a key with that permission on VoxFi under Profile → Security'
    const view = accountOf({ oneClick: true })
    const api = createFakeApi({
      getAccount: async () =>
        ok({ ...view, trading: { ...view.trading, blocked: { code: 'permission', message: reason } } }),
    })
    await open(api)
    expect(one('ticket-blocked').dataset.code).toBe('permission')
    expect(one('ticket-blocked').textContent).toContain('cannot create orders')
    expect(one('ticket-blocked').textContent).toContain('Profile → Security')
    expect((one('order-submit') as HTMLButtonElement).disabled).toBe(true)
    await typeOrder()
    await key(input('order-qty'), 'Enter')
    expect(requests(api)).toHaveLength(0)
  })

  it('the title and colour say the mode: PAPER', async () => {
    await open(engine({ mode: 'paper' }))
    expect(one('order-ticket').classList.contains('mode-paper')).toBe(true)
    expect(one('ticket-title').textContent).toBe('PAPER')
  })
})

describe('before and after', () => {
  it('shows the cost with the fee, the position it leaves, and the fill against the book on screen', async () => {
    const api = engine({}, undefined, {
      positions: [
        {
          market: 'm1',
          size: 30,
          avgPrice: 0.5,
          pnl: null,
          realizedPnl: null,
          updatedAt: 1,
          outcome: 'yes',
          contracts: 30,
        },
      ],
    })
    await open(api)
    // YES asks 0.58 ×70, 0.60 ×30.
    await act(async () => api.push({ books: [book()] }))
    await typeOrder('60', '80')
    const cost = one('ticket-cost')
    // What fills at once, 70 at 58¢ and 10 at 60¢ (R$46.60), plus the taker fee on it.
    const fee = takerFeeCents(58, 70) + takerFeeCents(60, 10)
    expect(Number(cost.dataset.feeCents)).toBe(fee)
    expect(Number(cost.dataset.totalCents)).toBe(70 * 58 + 10 * 60 + fee)
    expect(one('ticket-position').dataset.after).toBe('110')
    const fill = one('ticket-fill')
    expect(Number(fill.dataset.avg)).toBeCloseTo((70 * 0.58 + 10 * 0.6) / 80, 6)
    expect(Number(fill.dataset.slippage)).toBeCloseTo((70 * 0.58 + 10 * 0.6) / 80 - 0.58, 6)
    // A resting limit fills nothing at once: no fill line, no fee.
    await setField(input('order-price'), '50')
    expect(none('ticket-fill')).toBe(true)
    expect(one('ticket-cost').dataset.feeCents).toBe('0')
    // Selling more than is held is named before it goes.
    await setField(one('order-side') as HTMLSelectElement, 'sell')
    await setField(input('order-qty'), '40')
    expect(one('ticket-position').dataset.after).toBe('-10')
    expect(one('ticket-position').textContent).toContain('held too few')
  })

  it('the price reads in the unit the app shows, and data-price is always 0–1', async () => {
    await open(engine())
    await typeOrder('7', '1')
    expect(input('order-price').dataset.price).toBe('0.07')
    await act(async () => setPriceUnit('probability'))
    expect(input('order-price').value).toBe('0.07')
    expect(input('order-price').dataset.price).toBe('0.07')
  })

  it('after sending: the order’s state and round trip, as the engine’s account says', async () => {
    const api = engine({ oneClick: true })
    await open(api)
    await typeOrder()
    await click(one('order-submit'))
    const sent = requests(api)[0] as OrderRequest
    expect(one('ticket-order').dataset.state).toBe('pending')
    await act(async () =>
      api.push({
        account: accountOf({ oneClick: true }, { orders: [orderOf(sent, { state: 'open', rttMs: 42 })] }),
      }),
    )
    expect(one('ticket-order').dataset.state).toBe('open')
    expect(one('ticket-order').dataset.rtt).toBe('42')
    expect(one('ticket-order').textContent).toContain('42 ms')
    expect(useMonitor.getState().account?.orders).toHaveLength(1)
  })
})
