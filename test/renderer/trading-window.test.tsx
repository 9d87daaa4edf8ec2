// @vitest-environment happy-dom
// Trading across the window: the mode always in sight in the status bar (`trading-mode`, `data-mode`), changed
// with `trading-mode-select` (live only after `trading-live-confirm`), a block said in words; the blotter reading
// today's journal and following batches, exported as CSV; and the blotter pane kind, which the shared layout
// schema does not list yet, saved under a stand-in and read back as itself.
import { act } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, ok } from '../../src/shared/ipc'
import type { AccountView, JournalEntry, TradingSettings } from '../../src/shared/trading'
import { layoutSchema } from '../../src/shared/workspace'
import { StatusBar } from '../../src/renderer/features/status/StatusBar'
import { Blotter, OrderTicket } from '../../src/renderer/features/trading'
import { SHORTCUTS } from '../../src/renderer/features/workspace/keys'
import { fromSavedLayout, toSavedLayout } from '../../src/renderer/features/workspace/pane-kinds'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useEvents } from '../../src/renderer/store/events'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { captureDownloads, click, flush, setField, withDom } from './dom'
import { account, createFakeApi, EVENTS, type FakeApi } from './fake-api'

const dom = withDom()
const one = (id: string): HTMLElement => {
  const el = document.querySelector<HTMLElement>(`[data-testid="${id}"]`)
  if (!el) throw new Error(`no ${id}`)
  return el
}
const all = (id: string) => Array.from(document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`))

function accountOf(settings: Partial<TradingSettings>, partial: Partial<AccountView> = {}): AccountView {
  const base = account()
  return account({
    trading: { ...base.trading, settings: { ...base.trading.settings, ...settings } },
    ...partial,
  })
}

/** A fake engine whose setTrading answers as the engine would: the settings changed. */
function engine(view: AccountView): FakeApi {
  let current = view
  const api = createFakeApi({ getAccount: async () => ok(current) })
  api.setTrading = async (input) => {
    api.calls.push({ method: 'setTrading', args: [input] })
    if (input.mode === 'live' && input.confirmLive !== true)
      return fail({ code: 'invalid_argument', message: 'live needs confirmLive' })
    current = {
      ...current,
      trading: {
        ...current.trading,
        settings: { ...current.trading.settings, ...(input.mode ? { mode: input.mode } : {}) },
      },
    }
    return ok(current.trading)
  }
  return api
}

async function render(api: FakeApi, node: React.ReactNode) {
  await act(async () => {
    dom.root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
  await flush()
}

beforeEach(() => {
  setPriceUnit('cents')
  useEvents.setState({ events: EVENTS, phase: 'ready' })
})

describe('the mode in the status bar', () => {
  it('says the mode, and changes it; live only after the question', async () => {
    const api = engine(accountOf({ mode: 'off' }))
    await render(api, <StatusBar />)
    const mode = () => one('trading-mode').dataset.mode
    expect(mode()).toBe('off')
    await setField(one('trading-mode-select') as HTMLSelectElement, 'paper')
    expect(api.callsOf('setTrading')).toEqual([[{ mode: 'paper' }]])
    expect(mode()).toBe('paper')
    expect(one('trading-mode').classList.contains('mode-paper')).toBe(true)
    // Live asks first: nothing is sent, and the mode stays, until the trader says yes.
    await setField(one('trading-mode-select') as HTMLSelectElement, 'live')
    expect(one('trading-live-dialog')).toBeTruthy()
    expect(api.callsOf('setTrading')).toHaveLength(1)
    expect(mode()).toBe('paper')
    expect((one('trading-mode-select') as HTMLSelectElement).value).toBe('paper')
    await click(one('trading-live-confirm-cancel'))
    expect(api.callsOf('setTrading')).toHaveLength(1)
    await setField(one('trading-mode-select') as HTMLSelectElement, 'live')
    await click(one('trading-live-confirm'))
    expect(api.callsOf('setTrading').at(-1)).toEqual([{ mode: 'live', confirmLive: true }])
    expect(mode()).toBe('live')
  })

  it('says in words why live orders cannot go', async () => {
    const view = accountOf({ mode: 'live' })
    const blocked = async (code: 'permission' | 'path_refused', message: string) => {
      await render(
        engine({ ...view, trading: { ...view.trading, blocked: { code, message } } }),
        <StatusBar />,
      )
      return one('trading-blocked')
    }
    const key = await blocked('permission', 'permission denied')
    expect(key.dataset.code).toBe('permission')
    expect(key.textContent).toContain('cannot create orders')
    expect(key.textContent).toContain('Profile → Security')
    // A state the window has no words of its own for: the engine's.
    const path = await blocked('path_refused', 'the venue refused cancel at DELETE /v1/trade/order/{id}')
    expect(path.textContent).toContain('the venue refused cancel at DELETE /v1/trade/order/{id}')
  })

  it('without an account from the engine: off, and the ticket says trading is not available', async () => {
    const api = createFakeApi({
      getAccount: async () => fail({ code: 'unavailable', message: 'Trading is not available here.' }),
    })
    await render(
      api,
      <>
        <StatusBar />
        <OrderTicket market="m1" />
      </>,
    )
    expect(one('trading-mode').dataset.mode).toBe('off')
    expect(one('trading-mode').dataset.unavailable).toBe('true')
    expect(one('ticket-blocked').textContent).toContain('Trading is not available here.')
    expect((one('order-submit') as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('the blotter', () => {
  const entry = (seq: number, partial: Partial<JournalEntry> = {}): JournalEntry => ({
    seq,
    at: 1_700_000_000_000 + seq,
    profileId: 'demo',
    mode: 'live',
    action: 'place',
    outcome: 'accepted',
    orderId: `o${seq}`,
    venueId: null,
    market: 'm1',
    side: 'buy',
    outcomeOf: 'YES',
    kind: 'limit',
    priceTicks: 40,
    quantity: 10,
    status: 200,
    rttMs: 38,
    ...partial,
  })

  it('shows today’s journal from getJournal, then what batches bring, newest first', async () => {
    const api = createFakeApi({ getAccount: async () => ok(account()) })
    api.getJournal = async () => {
      api.calls.push({ method: 'getJournal', args: [] })
      return ok([
        entry(1),
        entry(2, { outcome: 'rejected', code: 'PO3', message: 'insufficient balance', status: 400 }),
      ])
    }
    await render(api, <Blotter />)
    expect(api.callsOf('getJournal')).toHaveLength(1)
    await act(async () =>
      api.push({
        journal: [
          entry(3, {
            mode: 'paper',
            action: 'cancel',
            outcome: 'accepted',
            side: undefined,
            priceTicks: undefined,
          }),
          // Another profile's entry is not this account's.
          entry(4, { profileId: 'other' }),
        ],
      }),
    )
    const rows = all('blotter-row')
    expect(rows.map((r) => `${r.dataset.action}:${r.dataset.outcome}:${r.dataset.mode}`)).toEqual([
      'cancel:accepted:paper',
      'place:rejected:live',
      'place:accepted:live',
    ])
    expect(rows[0]?.textContent).toContain('PAPER')
    const rejected = rows[1] as HTMLElement
    expect(rejected.dataset.code).toBe('PO3')
    expect(rejected.textContent).toContain('Fed decision')
    expect(rejected.textContent).toContain('No change')
    expect(rejected.textContent).toContain('buy 10 YES 40¢')
    expect(rejected.textContent).toContain('400 PO3 · insufficient balance')
    expect(rejected.textContent).toContain('38 ms')
  })

  it('exports what it holds as CSV, each entry with its mode and code', async () => {
    const api = createFakeApi({ getAccount: async () => ok(account()) })
    api.getJournal = async () =>
      ok([entry(1, { outcome: 'refused', code: 'too_large', message: 'Over the limit' })])
    await render(api, <Blotter />)
    const saved = captureDownloads()
    await click(one('blotter-export'))
    expect(saved.names[0]).toMatch(/^journal-\d{8}-\d{6}\.csv$/)
    const lines = (await saved.texts())[0]?.split('\r\n')
    expect(lines?.[0]).toBe(
      'time,mode,action,result,market,event,market_title,side,outcome,kind,price,quantity,status,code,message,rtt_ms,order_id,venue_id',
    )
    expect(lines?.[1]).toBe(
      '2023-11-14T22:13:20.001Z,live,place,refused,m1,Fed decision,No change,buy,YES,limit,0.4,10,200,too_large,Over the limit,38,o1,',
    )
    vi.restoreAllMocks()
  })
})

describe('the blotter pane kind', () => {
  const layout = {
    grid: {
      root: { type: 'leaf', data: { views: ['account-1', 'blotter-x'] } },
      width: 800,
      height: 600,
      orientation: 'HORIZONTAL',
    },
    panels: {
      'account-1': { id: 'account-1', contentComponent: 'account', params: {}, title: 'Account' },
      'blotter-x': { id: 'blotter-x', contentComponent: 'blotter', params: {}, title: 'Blotter' },
    },
  }

  it('is saved under a kind the shared schema lists, and read back as the blotter', () => {
    expect(layoutSchema.safeParse(layout).success).toBe(false)
    const saved = toSavedLayout(layout)
    const checked = layoutSchema.safeParse(saved)
    expect(checked.success).toBe(true)
    if (!checked.success) return
    const back = fromSavedLayout(checked.data)
    expect(back.panels['blotter-x']).toEqual(layout.panels['blotter-x'])
    expect(back.panels['account-1']).toEqual(layout.panels['account-1'])
  })

  it('cancel-all’s hotkey is in the ? overlay', () => {
    expect(SHORTCUTS.some((s) => s.keys === 'Ctrl Shift X')).toBe(true)
  })
})
