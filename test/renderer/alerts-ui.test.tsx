// @vitest-environment happy-dom
// The alerts UI with a fake engine: the form from the ladder (menu and keyboard), the last price and an order
// row; refusals shown in the form; the status-bar badge and the manager; toasts; and browser notifications,
// which only the browser host's page raises (inside Electron, main does).
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AlertEvent, AlertRuleView } from '../../src/shared/alerts'
import { fail } from '../../src/shared/ipc'
import { resetAlertDelivery } from '../../src/renderer/api/alert-delivery'
import { AccountPane } from '../../src/renderer/features/account/AccountPane'
import { AlertsLayer } from '../../src/renderer/features/alerts/AlertsLayer'
import { openMarketAlert } from '../../src/renderer/store/alerts-ui'
import { TOAST_MS } from '../../src/renderer/features/alerts/AlertToasts'
import { MarketPane } from '../../src/renderer/features/market/MarketPane'
import { OrderBook } from '../../src/renderer/features/market/OrderBook'
import { StatusBar } from '../../src/renderer/features/status/StatusBar'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { resetAlertUi } from '../../src/renderer/store/alerts-ui'
import { useEvents } from '../../src/renderer/store/events'
import { useMonitor } from '../../src/renderer/store/monitor'
import { DEFAULT_PRICE_UNIT, setPriceUnit } from '../../src/renderer/store/prefs'
import { click, flush, key, setField } from './dom'
import {
  account,
  book,
  createFakeApi,
  emptyAlerts,
  EVENTS,
  orderView,
  ruleView,
  status,
  type FakeApi,
} from './fake-api'

// The chart draws on a canvas, which happy-dom does not have; it plays no part in alerts.
vi.mock('../../src/renderer/features/market/PriceChart', () => ({ PriceChart: () => null }))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLDivElement
let root: Root

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
  await flush()
}

const all = (sel: string) => Array.from(document.querySelectorAll<HTMLElement>(sel))
const byTestId = (id: string) => all(`[data-testid="${id}"]`)
const one = (id: string) => {
  const el = byTestId(id)[0]
  if (!el) throw new Error(`no ${id}`)
  return el
}
const field = (id: string) => one(id) as HTMLInputElement | HTMLSelectElement

function fired(id: number, partial: Partial<AlertEvent> = {}): AlertEvent {
  return {
    id,
    ruleId: 'r1',
    kind: 'fired',
    at: 1_700_000_000_000 + id,
    title: `No change — ask crossed above 0.6 (#${id})`,
    detail: 'ask 0.6 (bid 0.56)',
    value: 0.6,
    market: 'm1',
    sound: true,
    acknowledged: false,
    ...partial,
  }
}

class FakeNotification {
  static permission: NotificationPermission = 'granted'
  static requestPermission = vi.fn(async () => FakeNotification.permission)
  static made: Array<{ title: string; options: NotificationOptions | undefined; n: FakeNotification }> = []
  onclick: (() => void) | null = null
  close = vi.fn()
  constructor(title: string, options?: NotificationOptions) {
    FakeNotification.made.push({ title, options, n: this })
  }
}

beforeEach(() => {
  useMonitor.getState().reset()
  setPriceUnit(DEFAULT_PRICE_UNIT)
  resetAlertUi()
  resetAlertDelivery()
  useEvents.setState({ phase: 'ready', events: EVENTS, error: null, loadedAt: 1 })
  FakeNotification.permission = 'granted'
  FakeNotification.requestPermission.mockClear()
  FakeNotification.made = []
  vi.stubGlobal('Notification', FakeNotification)
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
  vi.unstubAllGlobals()
  Reflect.deleteProperty(window, 'monitor')
  vi.useRealTimers()
})

describe('creating an alert from where the number is', () => {
  it('a ladder level: right-click, then its menu opens the form with the market, side, direction and price', async () => {
    const api = createFakeApi()
    await render(
      api,
      <>
        <OrderBook market="m1" levels={3} />
        <AlertsLayer market="m1" />
      </>,
    )
    await act(async () => api.push({ books: [book()] }))
    const ask = byTestId('book-ask-row').find((r) => r.dataset.price === '0.6') as HTMLElement
    await act(async () => {
      ask.dispatchEvent(
        new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: 50, clientY: 60 }),
      )
    })
    expect(one('context-menu').getAttribute('role')).toBe('menu')
    expect(document.activeElement?.getAttribute('role')).toBe('menuitem')
    await click(one('menu-alert-level'))
    expect(byTestId('context-menu')).toHaveLength(0)
    expect(one('alert-form')).toBeTruthy()
    expect(field('alert-subject').value).toBe('ask')
    expect(field('alert-op').value).toBe('crosses-above')
    // In the unit the app shows: the ladder's 60¢ is typed 60.
    expect(field('alert-value').value).toBe('60')
    expect(field('alert-market').value).toBe('m1')
    // A bid level is reached from above.
    await key(one('alert-form'), 'Escape')
    expect(byTestId('alert-form')).toHaveLength(0)
    const bid = byTestId('book-bid-row').find((r) => r.dataset.price === '0.55') as HTMLElement
    await act(async () => {
      bid.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }))
    })
    await key(one('context-menu'), 'Enter')
    expect(field('alert-subject').value).toBe('bid')
    expect(field('alert-op').value).toBe('crosses-below')
    expect(field('alert-value').value).toBe('55')
    await key(one('alert-form'), 'Escape')
    // As probabilities, the same level reads 0.55.
    await act(async () => setPriceUnit('probability'))
    await act(async () => {
      bid.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }))
    })
    await key(one('context-menu'), 'Enter')
    expect(field('alert-value').value).toBe('0.55')
  })

  it('a ladder level from the keyboard: one tab stop, arrows move the level cursor, A opens the form, Shift+F10 the menu', async () => {
    const api = createFakeApi()
    await render(
      api,
      <>
        <OrderBook market="m1" levels={3} />
        <AlertsLayer market="m1" />
      </>,
    )
    await act(async () => api.push({ books: [book()] }))
    const levels = one('ladder-levels')
    expect(levels.tabIndex).toBe(0)
    await act(async () => levels.focus())
    // Entering puts the cursor on the best bid.
    const cursor = () => document.getElementById(levels.getAttribute('aria-activedescendant') ?? '')
    expect(cursor()?.dataset.price).toBe('0.56')
    await key(levels, 'ArrowUp')
    expect(cursor()?.dataset.price).toBe('0.58')
    expect(cursor()?.getAttribute('aria-selected')).toBe('true')
    await key(levels, 'ArrowUp')
    expect(cursor()?.dataset.price).toBe('0.6')
    await key(levels, 'a')
    expect(field('alert-subject').value).toBe('ask')
    expect(field('alert-value').value).toBe('60')
    await key(one('alert-form'), 'Escape')
    await key(levels, 'ArrowDown')
    await key(levels, 'ArrowDown')
    await key(levels, 'F10', { shiftKey: true })
    expect(one('context-menu')).toBeTruthy()
    await key(one('context-menu'), 'Escape')
    expect(byTestId('context-menu')).toHaveLength(0)
  })

  it("the last price and the market header's alert-new", async () => {
    const api = createFakeApi()
    await render(
      api,
      <>
        <MarketPane market="m1" owner="t" />
        <AlertsLayer market="m1" />
      </>,
    )
    await act(async () =>
      api.push({
        books: [book()],
        trades: [{ key: 't1', market: 'm1', price: 0.57, size: 3, side: 'buy', ts: 1, receivedAt: 1 }],
      }),
    )
    await click(one('quote-last'))
    expect(field('alert-subject').value).toBe('last')
    expect(field('alert-value').value).toBe('57')
    await key(one('alert-form'), 'Escape')
    // The header's alert-new starts from this market.
    await click(byTestId('alert-new')[0] as HTMLElement)
    expect(field('alert-market').value).toBe('m1')
    await key(one('alert-form'), 'Escape')
  })

  it('a dialog is focusable itself, so a click on a bare spot keeps focus (and Escape) inside it', async () => {
    const api = createFakeApi()
    await render(api, <AlertsLayer market="m1" />)
    await act(async () => openMarketAlert('m1'))
    const form = one('alert-form')
    // Browsers focus the nearest focusable ancestor of a clicked spot; without one, focus falls to <body>.
    expect(form.getAttribute('tabindex')).toBe('-1')
    await key(form, 'Escape')
    expect(byTestId('alert-form')).toHaveLength(0)
  })

  it('an order row in the account pane', async () => {
    const view = account({ orders: [orderView('o1', { market: 'm2' })] })
    const api = createFakeApi({ getAccount: async () => ({ ok: true, value: view }) })
    useMonitor.getState().applyBatch({ seq: 1, at: 1, status: status({ hasKey: true }), account: view })
    await render(
      api,
      <>
        <AccountPane onOpenKeySettings={() => {}} />
        <AlertsLayer market={null} />
      </>,
    )
    await click(one('order-alert'))
    expect(field('alert-subject').value).toBe('order-filled')
    expect(field('alert-market').value).toBe('m2')
    // Only the fields the kind needs: no condition, no threshold.
    expect(byTestId('alert-op')).toHaveLength(0)
    expect(byTestId('alert-value')).toHaveLength(0)
  })
})

describe('the alert form', () => {
  async function openForm(api: FakeApi) {
    await render(
      api,
      <>
        <OrderBook market="m1" levels={3} />
        <AlertsLayer market="m1" />
      </>,
    )
    await act(async () => api.push({ books: [book()] }))
    const levels = one('ladder-levels')
    await act(async () => levels.focus())
    await key(levels, 'a')
  }

  it('Enter in a field saves the rule; the form closes', async () => {
    const api = createFakeApi()
    await openForm(api)
    // Typed in cents, as the form's label says and the ladder shows; sent in 0–1.
    expect(one('alert-form').textContent).toContain('Price (¢)')
    expect(one('alert-current').textContent).toBe('now 56¢')
    await setField(field('alert-value'), '50')
    expect(one('alert-preview').textContent).toBe('Alert when Fed decision · No change bid crosses below 50¢')
    await key(field('alert-value'), 'Enter')
    await flush()
    expect(api.callsOf('saveAlert')).toEqual([
      [
        {
          condition: { kind: 'price', market: 'm1', subject: 'bid', op: 'crosses-below', value: 0.5 },
          mode: 'once',
          sound: true,
          label: null,
        },
      ],
    ])
    expect(byTestId('alert-form')).toHaveLength(0)
  })

  it("an obvious mistake is named before saving; the engine's refusal is shown and the form stays open", async () => {
    const api = createFakeApi({
      saveAlert: async (rule) => {
        api.calls.push({ method: 'saveAlert', args: [rule] })
        return fail({
          code: 'invalid_argument',
          message: 'Invalid alert: condition.value: value must not be negative',
          field: 'condition.value',
        })
      },
    })
    await openForm(api)
    await setField(field('alert-value'), '')
    await click(one('alert-save'))
    expect(one('alert-form-error').getAttribute('role')).toBe('alert')
    expect(one('alert-form-error').textContent).toBe('Price: enter a number.')
    expect(field('alert-value').getAttribute('aria-invalid')).toBe('true')
    expect(api.callsOf('saveAlert')).toHaveLength(0)
    // The preview never stands empty above the refusal.
    expect(one('alert-preview').textContent).toMatch(/once its condition is complete/)

    await setField(field('alert-value'), '30')
    expect(byTestId('alert-form-error')).toHaveLength(0)
    await click(one('alert-save'))
    expect(api.callsOf('saveAlert')).toHaveLength(1)
    expect(one('alert-form-error').textContent).toBe(
      'Invalid alert: condition.value: value must not be negative',
    )
    expect(field('alert-value').getAttribute('aria-invalid')).toBe('true')
    expect(one('alert-form')).toBeTruthy()
  })

  it('shows re-arm settings only for re-arm, and the kind decides the fields', async () => {
    const api = createFakeApi()
    await openForm(api)
    expect(all('input[name="cooldown"]')).toHaveLength(0)
    await act(async () => (document.querySelector('input[value="rearm"]') as HTMLInputElement).click())
    expect(all('input[name="cooldown"]')).toHaveLength(1)
    expect(all('input[name="hysteresis"]')).toHaveLength(1)
    await setField(field('alert-subject'), 'disconnected')
    expect(byTestId('alert-market')).toHaveLength(0)
    expect(byTestId('alert-op')).toHaveLength(0)
    expect(field('alert-value').value).toBe('30')
    expect(all('input[name="hysteresis"]')).toHaveLength(0)
  })
})

describe('badge, manager and history', () => {
  const rules: AlertRuleView[] = [
    ruleView({ id: 'a', condition: { kind: 'auth-error' } }),
    ruleView({ id: 'b', condition: { kind: 'disconnected', seconds: 10 } }, { state: 'fired', firedAt: 5 }),
    ruleView(
      { id: 'c', condition: { kind: 'key-expiring', days: 3 }, enabled: false },
      { state: 'disabled' },
    ),
    ruleView(
      { id: 'd', condition: { kind: 'order', market: null, status: 'filled' } },
      { state: 'snoozed', snoozedUntil: 9e12 },
    ),
  ]

  it('the badge shows the unread count (also 0); clicking it shows the manager, which marks nothing read', async () => {
    const api = createFakeApi()
    await render(
      api,
      <>
        <StatusBar />
        <AlertsLayer market="m1" />
      </>,
    )
    expect(one('alerts-badge').dataset.count).toBe('0')
    await act(async () =>
      api.push({
        alerts: emptyAlerts({ rules, history: [fired(2), fired(1, { kind: 'held' })], unread: 1 }),
      }),
    )
    expect(one('alerts-badge').dataset.count).toBe('1')
    await click(one('alerts-badge'))
    expect(one('alert-manager')).toBeTruthy()
    expect(byTestId('alert-row').map((r) => [r.dataset.id, r.dataset.state])).toEqual([
      ['a', 'armed'],
      ['b', 'fired'],
      ['c', 'disabled'],
      ['d', 'snoozed'],
    ])
    const history = byTestId('alert-history-row')
    expect(history.map((r) => r.dataset.kind)).toEqual(['fired', 'held'])
    expect(history[1]?.classList.contains('kind-held')).toBe(true)
    expect(api.callsOf('acknowledgeAlerts')).toEqual([])
    // Enter on a row reads that one; "Mark all read" reads every one.
    await key(history[0] as HTMLElement, 'Enter')
    expect(api.callsOf('acknowledgeAlerts')).toEqual([[[2]]])
    await click(one('alerts-ack-all'))
    expect(api.callsOf('acknowledgeAlerts')[1]).toEqual(['all'])
  })

  it('switches, snooze, edit, delete with a confirm, pause and keep-running', async () => {
    const api = createFakeApi()
    await render(api, <AlertsLayer market="m1" />)
    await act(async () => api.push({ alerts: emptyAlerts({ rules }) }))
    // Alt+A opens the manager from anywhere in the window.
    await act(async () => {
      window.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'a', code: 'KeyA', altKey: true, bubbles: true }),
      )
    })
    const rowOf = (id: string) => byTestId('alert-row').find((r) => r.dataset.id === id) as HTMLElement
    await click(rowOf('a').querySelector('[data-testid="alert-enabled"]') as HTMLElement)
    expect(api.callsOf('setAlertEnabled')).toEqual([['a', false]])
    await setField(rowOf('a').querySelector('select') as HTMLSelectElement, '60')
    expect(api.callsOf('snoozeAlert')).toEqual([['a', 60]])
    await click(
      Array.from(rowOf('d').querySelectorAll('button')).find(
        (b) => b.textContent === 'Un-snooze',
      ) as HTMLElement,
    )
    expect(api.callsOf('snoozeAlert')[1]).toEqual(['d', null])
    await click(rowOf('c').querySelector('[data-testid="alert-delete"]') as HTMLElement)
    expect(api.callsOf('deleteAlert')).toEqual([])
    await click(one('alert-delete-confirm'))
    expect(api.callsOf('deleteAlert')).toEqual([['c']])
    // A spent once rule is armed again with its own button (its switch is still on).
    await click(rowOf('b').querySelector('[data-testid="alert-rearm"]') as HTMLElement)
    expect(api.callsOf('setAlertEnabled')[1]).toEqual(['b', true])
    expect(rowOf('a').querySelector('[data-testid="alert-rearm"]')).toBeNull()
    await click(one('alerts-pause'))
    expect(api.callsOf('pauseAlerts')).toEqual([[true]])
    await setField(field('alerts-keep-running'), 'never')
    expect(api.callsOf('setKeepRunning')).toEqual([['never']])
    // Edit opens the form over the manager with the rule; saving sends its id.
    await click(rowOf('b').querySelector('[data-testid="alert-edit"]') as HTMLElement)
    expect(field('alert-subject').value).toBe('disconnected')
    expect(field('alert-value').value).toBe('10')
    await click(one('alert-save'))
    expect(api.callsOf('saveAlert')[0]?.[0]).toMatchObject({
      id: 'b',
      condition: { kind: 'disconnected', seconds: 10 },
    })
    // Escape closes the manager; Alt+A again toggles it.
    expect(one('alert-manager')).toBeTruthy()
    await key(one('alert-manager'), 'Escape')
    expect(byTestId('alert-manager')).toHaveLength(0)
  })
})

describe('toasts and notifications', () => {
  it('a fired alert toasts; dismissing marks it read; Open shows its market; an old one never toasts', async () => {
    const api = createFakeApi({
      getAlerts: async () => ({ ok: true, value: emptyAlerts({ history: [fired(1)] }) }),
    })
    const opened: string[] = []
    await render(api, <AlertsLayer market={null} onOpenMarket={(m) => opened.push(m)} />)
    await act(async () => api.push({ alertsFired: [fired(1), fired(2)] }))
    const toasts = byTestId('alert-toast')
    expect(toasts.map((t) => t.dataset.id)).toEqual(['2'])
    expect(toasts[0]?.textContent).toContain('No change — ask crossed above 0.6 (#2)')
    await click(one('alert-toast-open'))
    expect(opened).toEqual(['m1'])
    expect(api.callsOf('acknowledgeAlerts')).toEqual([[[2]]])
    expect(byTestId('alert-toast')).toHaveLength(0)

    await act(async () => api.push({ alertsFired: [fired(3, { market: null })] }))
    await click(one('alert-toast').querySelector('[aria-label^="Dismiss"]') as HTMLElement)
    expect(api.callsOf('acknowledgeAlerts')[1]).toEqual([[3]])
  })

  it('goes by itself after a while, but not while the pointer is on it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const api = createFakeApi()
    await act(async () =>
      root.render(
        <ServicesProvider api={api}>
          <AlertsLayer market={null} />
        </ServicesProvider>,
      ),
    )
    await act(async () => api.push({ alertsFired: [fired(5), fired(6)] }))
    const first = byTestId('alert-toast')[0] as HTMLElement
    await act(async () => first.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })))
    await act(async () => {
      vi.advanceTimersByTime(TOAST_MS)
    })
    expect(byTestId('alert-toast').map((t) => t.dataset.id)).toEqual(['5'])
    // Timing out is not reading.
    expect(api.callsOf('acknowledgeAlerts')).toEqual([])
  })

  it('the browser host raises one notification per alert (tagged), clicking it opens the market', async () => {
    const api = createFakeApi()
    const opened: string[] = []
    await render(api, <AlertsLayer market={null} onOpenMarket={(m) => opened.push(m)} />)
    // Delivered as it arrives, before any animation frame (a background tab gets none).
    await act(async () => api.deliver({ alertsFired: [fired(7), fired(8, { kind: 'held' })] }))
    expect(FakeNotification.made.map((m) => [m.title, m.options?.tag, m.options?.body])).toEqual([
      ['No change — ask crossed above 0.6 (#7)', 'alert-7', 'ask 0.6 (bid 0.56)'],
    ])
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => {})
    await act(async () => FakeNotification.made[0]?.n.onclick?.())
    expect(focus).toHaveBeenCalled()
    expect(opened).toEqual(['m1'])
    expect(api.callsOf('acknowledgeAlerts')).toEqual([[[7]]])
  })

  it('inside Electron the page raises no notification (main does)', async () => {
    const api = createFakeApi()
    ;(window as { monitor?: unknown }).monitor = api
    await render(api, <AlertsLayer market={null} />)
    await act(async () => api.push({ alertsFired: [fired(9)] }))
    expect(FakeNotification.made).toEqual([])
    expect(byTestId('alert-toast')).toHaveLength(1)
  })

  it('asks for permission when the first alert is saved, not before, and once; a refusal is explained', async () => {
    FakeNotification.permission = 'default'
    FakeNotification.requestPermission.mockImplementation(async () => {
      FakeNotification.permission = 'denied'
      return 'denied'
    })
    const api = createFakeApi()
    await render(
      api,
      <>
        <OrderBook market="m1" levels={3} />
        <AlertsLayer market="m1" />
      </>,
    )
    await act(async () => api.push({ books: [book()] }))
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled()
    const levels = one('ladder-levels')
    await act(async () => levels.focus())
    await key(levels, 'a')
    await click(one('alert-save'))
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1)
    await key(levels, 'a')
    await click(one('alert-save'))
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1)
    // Blocked: the manager says alerts show in the page only, and nothing is raised.
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', code: 'KeyA', altKey: true }))
    })
    expect(one('alert-notify-note').dataset.state).toBe('denied')
    expect(one('alert-notify-note').textContent).toContain('Notifications blocked: alerts show in-page only')
    await act(async () => api.push({ alertsFired: [fired(11)] }))
    expect(FakeNotification.made).toEqual([])
    expect(byTestId('alert-toast')).toHaveLength(1)
  })

  it('a browser without the Notifications API: the manager says so, toasts still show', async () => {
    vi.stubGlobal('Notification', undefined)
    const api = createFakeApi()
    await render(api, <AlertsLayer market={null} />)
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', code: 'KeyA', altKey: true }))
    })
    expect(one('alert-notify-note').dataset.state).toBe('unsupported')
    await act(async () => api.push({ alertsFired: [fired(12)] }))
    expect(byTestId('alert-toast')).toHaveLength(1)
  })
})
