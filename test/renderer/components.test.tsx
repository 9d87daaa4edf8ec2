// @vitest-environment happy-dom
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApiError, BookView, Result } from '../../src/shared/model'
import type { KeyInfo } from '../../src/shared/ipc'
import { AccountPane } from '../../src/renderer/components/AccountPane'
import { EventMatrix } from '../../src/renderer/components/EventMatrix'
import { KeySettings } from '../../src/renderer/components/KeySettings'
import { OrderBook } from '../../src/renderer/components/OrderBook'
import { StatusBar } from '../../src/renderer/components/StatusBar'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useMonitor } from '../../src/renderer/store/monitor'
import { useProfiles } from '../../src/renderer/store/profiles'
import { createFakeApi, EVENTS, status, type FakeApi } from './fake-api'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLDivElement
let root: Root

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

const flush = () => act(async () => new Promise<void>((r) => setTimeout(r, 0)))

const q = (sel: string) => Array.from(container.querySelectorAll<HTMLElement>(sel))
const byTestId = (id: string) => q(`[data-testid="${id}"]`)

function book(partial: Partial<BookView> = {}): BookView {
  return {
    market: 'm1',
    state: 'live',
    staleReason: null,
    bids: [
      [0.56, 100],
      [0.55, 50],
    ],
    asks: [
      [0.58, 70],
      [0.6, 30],
    ],
    depth: { bids: 2, asks: 2 },
    seq: 4,
    updatedAt: Date.now(),
    ...partial,
  }
}

beforeEach(() => {
  useMonitor.getState().reset()
  useProfiles.setState({ profiles: [], activeId: null, error: null })
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
})

describe('order book', () => {
  it('shows bids and asks with their data attributes, best levels, spread and mid', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={5} />)
    expect(byTestId('orderbook')[0]?.dataset.state).toBe('empty')
    await act(async () => api.push({ books: [book()] }))
    const ob = byTestId('orderbook')[0]
    expect(ob?.dataset.state).toBe('live')
    const bids = byTestId('book-bid-row')
    const asks = byTestId('book-ask-row')
    expect(bids.map((r) => r.dataset.price)).toEqual(['0.56', '0.55'])
    expect(bids[0]?.dataset.size).toBe('100')
    // Asks render worst first so the best ask sits on the spread line.
    expect(asks.map((r) => r.dataset.price)).toEqual(['0.6', '0.58'])
    expect(asks[1]?.classList.contains('best')).toBe(true)
    expect(bids[0]?.classList.contains('best')).toBe(true)
    // Fixed row count per side: placeholders fill the rest, so the ladder does not move.
    expect(q('.ladder-row').length).toBe(10)
    expect(byTestId('book-spread')[0]?.textContent).toContain('0.57')
    expect(byTestId('book-spread')[0]?.textContent).toContain('0.02')
  })

  it('flashes a level whose size changed', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={3} />)
    await act(async () => api.push({ books: [book()] }))
    expect(q('.flash-up, .flash-down')).toHaveLength(0)
    await act(async () =>
      api.push({
        books: [
          book({
            bids: [
              [0.56, 120],
              [0.55, 50],
            ],
          }),
        ],
      }),
    )
    const flashing = q('.flash-up')
    expect(flashing).toHaveLength(1)
    expect(flashing[0]?.textContent).toBe('120')
  })

  it('covers a stale book and resyncs it on request', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" />)
    await act(async () => api.push({ books: [book({ state: 'stale', staleReason: 'gap' })] }))
    expect(byTestId('orderbook')[0]?.dataset.state).toBe('stale')
    expect(byTestId('book-stale-overlay')[0]?.textContent).toContain('gap')
    await act(async () => byTestId('resync-button')[0]?.click())
    expect(api.callsOf('resync')).toEqual([['m1']])
    await act(async () => api.push({ books: [book({ state: 'resyncing' })] }))
    expect(byTestId('resync-button')).toHaveLength(0)
    expect(byTestId('book-stale-overlay')[0]?.textContent).toContain('Resyncing')
    await act(async () => api.push({ books: [book()] }))
    expect(byTestId('book-stale-overlay')).toHaveLength(0)
  })
})

describe('status bar', () => {
  it('shows the connection state, reconnects and the incident log with durations', async () => {
    const api = createFakeApi()
    await render(api, <StatusBar />)
    const now = Date.now()
    await act(async () =>
      api.push({
        status: status({
          state: 'reconnecting',
          reconnects: 3,
          incidents: [
            { id: 2, kind: 'disconnect', startedAt: now - 4_000, endedAt: null, detail: 'socket closed' },
            {
              id: 1,
              kind: 'resync',
              startedAt: now - 60_000,
              endedAt: now - 57_500,
              detail: 'gap',
              market: 'm1',
            },
          ],
        }),
      }),
    )
    const cs = byTestId('connection-status')[0]
    expect(cs?.dataset.state).toBe('reconnecting')
    expect(container.textContent).toContain('Reconnects 3')
    await act(async () => byTestId('incidents-button')[0]?.click())
    const rows = byTestId('incident-row')
    expect(rows.map((r) => r.dataset.kind)).toEqual(['disconnect', 'resync'])
    expect(rows[1]?.textContent).toContain('2.5s')
    expect(rows[0]?.textContent).toContain('…')
  })
})

describe('key settings', () => {
  it('verifies before saving and explains an unauthorized key in place', async () => {
    let answer: (r: Result<KeyInfo>) => void = () => {}
    const api = createFakeApi({
      setApiKey: (request) => {
        api.calls.push({ method: 'setApiKey', args: [request] })
        return new Promise((r) => (answer = r))
      },
    })
    await render(api, <KeySettings onClose={() => {}} />)
    await flush()
    const input = container.querySelector<HTMLInputElement>('[data-testid="key-input"]')
    expect(input?.type).toBe('password')
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
      setter?.call(input, 'wrong-key')
      input?.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await act(async () => byTestId('save-key')[0]?.click())
    expect(byTestId('save-key')[0]?.textContent).toBe('Verifying…')
    expect(api.callsOf('setApiKey')[0]?.[0]).toMatchObject({ key: 'wrong-key' })
    const error: ApiError = { code: 'unauthorized', message: 'unauthorized', status: 401 }
    await act(async () => answer({ ok: false, error }))
    const box = byTestId('key-error')[0]
    expect(box?.dataset.code).toBe('unauthorized')
    expect(box?.textContent).toContain('expired, disabled or revoked')
    expect(byTestId('key-stored')).toHaveLength(0)
  })

  it('explains ip_not_allowed with the rotate-and-revoke advice, and offers the demo key', async () => {
    const api = createFakeApi({
      setApiKey: async () => ({ ok: false, error: { code: 'ip_not_allowed', message: 'ip not allowed' } }),
    })
    await render(api, <KeySettings onClose={() => {}} />)
    await flush()
    expect(byTestId('use-demo-key')).toHaveLength(1)
    const input = container.querySelector<HTMLInputElement>('[data-testid="key-input"]')
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, 'k')
      input?.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await act(async () => byTestId('save-key')[0]?.click())
    await flush()
    const text = byTestId('key-error')[0]?.textContent ?? ''
    expect(text).toContain('allowed-IPs')
    expect(text).toContain('revoke the old key')
  })

  it('after saving shows only that a key is stored, never the key', async () => {
    const api = createFakeApi({
      getKeyInfo: async () => ({
        ok: true,
        value: { profileId: 'demo', hasKey: true, label: 'desk', expiresAt: '2020-01-01' },
      }),
    })
    await render(api, <KeySettings onClose={() => {}} />)
    await flush()
    expect(byTestId('key-stored')[0]?.textContent).toContain('A key is stored')
    expect(byTestId('key-stored')[0]?.textContent).toContain('desk')
    expect(byTestId('key-expiry')[0]?.dataset.state).toBe('expired')
    expect(q('input[type="password"]')).toHaveLength(0)
  })
})

describe('account pane', () => {
  it('without a key: a call to action; the demo key button calls useDemoKey', async () => {
    const api = createFakeApi()
    await render(api, <AccountPane onOpenKeySettings={() => {}} />)
    await act(async () => api.push({ status: status({ hasKey: false }) }))
    await flush()
    expect(byTestId('account-cta')).toHaveLength(1)
    await act(async () => byTestId('cta-use-demo-key')[0]?.click())
    expect(api.callsOf('useDemoKey')).toHaveLength(1)
  })

  it('an unusable keychain is explained in place instead of a prompt to add a key', async () => {
    const api = createFakeApi()
    await render(api, <AccountPane onOpenKeySettings={() => {}} />)
    await act(async () =>
      api.push({
        status: status({
          hasKey: false,
          credentialsError: { code: 'keyring_locked', message: 'locked' },
        }),
      }),
    )
    await flush()
    const alert = byTestId('account-keychain-error')[0]
    expect(alert?.dataset.code).toBe('keyring_locked')
    expect(alert?.textContent).toContain('keychain is locked')
    expect(byTestId('account-cta')).toHaveLength(0)
  })

  it('with a key: subscribes to the user channel and shows derived account and raw feed', async () => {
    const api = createFakeApi()
    await render(api, <AccountPane onOpenKeySettings={() => {}} />)
    await act(async () => api.push({ status: status({ hasKey: true }) }))
    await flush()
    expect(api.callsOf('setInterests').at(-1)?.[0]).toEqual([{ channel: 'user' }])
    await act(async () =>
      api.push({
        user: [
          {
            seq: 1,
            topic: 'balance',
            market: null,
            data: { currency: 'USDC', balance: 1234.5, available: 1000 },
            receivedAt: 1,
          },
          { seq: 2, topic: 'other', market: null, data: { weird: true }, receivedAt: 2 },
        ],
      }),
    )
    expect(byTestId('balance')[0]?.textContent).toContain('1,234.50')
    expect(byTestId('user-feed-row')).toHaveLength(2)
    expect(container.textContent).toContain('1 not interpreted')
  })
})

describe('event matrix', () => {
  it('shows every market and warns about a sum of mids far from 1', async () => {
    const api = createFakeApi()
    const event = EVENTS[0]!
    await render(api, <EventMatrix event={event} />)
    await flush()
    expect(api.callsOf('setInterests').at(-1)?.[0]).toEqual([{ channel: 'event', id: 'e1', filter: 'all' }])
    await act(async () =>
      api.push({
        tickers: [
          { market: 'm1', bestBid: 0.6, bestAsk: 0.62, last: 0.61, updatedAt: Date.now(), state: 'live' },
          { market: 'm2', bestBid: 0.5, bestAsk: 0.52, last: 0.5, updatedAt: Date.now(), state: 'live' },
        ],
      }),
    )
    expect(byTestId('market-row').map((r) => r.dataset.market)).toEqual(['m1', 'm2'])
    const o = byTestId('overround')[0]
    expect(o?.dataset.warn).toBe('true')
    expect(o?.textContent).toContain('1.120')
    expect(o?.textContent).toContain('Informational')
  })
})
