// @vitest-environment happy-dom
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApiError, Result } from '../../src/shared/model'
import type { KeyInfo } from '../../src/shared/ipc'
import { AccountPane } from '../../src/renderer/features/account/AccountPane'
import { EventMatrix } from '../../src/renderer/features/events/EventMatrix'
import { FreshnessBadge } from '../../src/renderer/ui/FreshnessBadge'
import { KeySettings } from '../../src/renderer/features/settings/KeySettings'
import { NoticeBanner } from '../../src/renderer/features/status/NoticeBanner'
import { OrderBook } from '../../src/renderer/features/market/OrderBook'
import { StatusBar } from '../../src/renderer/features/status/StatusBar'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useMonitor } from '../../src/renderer/store/monitor'
import { useProfiles } from '../../src/renderer/store/profiles'
import { account, createFakeApi, EVENTS, status, book, type FakeApi } from './fake-api'

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
    // Prices read in cents by default (the price preference, store/prefs.ts): mid 0.57, spread 0.02.
    expect(byTestId('book-spread')[0]?.textContent).toContain('57.0¢')
    expect(byTestId('book-spread')[0]?.textContent).toContain('2¢')
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
    await act(async () => api.push({ books: [book({ state: 'resyncing', resyncAttempt: 3 })] }))
    expect(byTestId('orderbook')[0]?.dataset.state).toBe('resyncing')
    expect(byTestId('book-stale-overlay')[0]?.textContent).toContain('Resyncing (attempt 3)…')
    await act(async () => api.push({ books: [book()] }))
    expect(byTestId('book-stale-overlay')).toHaveLength(0)
  })

  it('marks a quiet book lightly: levels stay readable, no stale overlay', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={5} />)
    await act(async () => api.push({ books: [book({ state: 'quiet', usualGapMs: 800 })] }))
    const ob = byTestId('orderbook')[0]
    expect(ob?.dataset.state).toBe('quiet')
    expect(ob?.classList.contains('state-quiet')).toBe(true)
    expect(byTestId('book-quiet-mark')[0]?.textContent).toBe('Quiet?')
    expect(byTestId('book-stale-overlay')).toHaveLength(0)
    expect(byTestId('resync-button')).toHaveLength(0)
    expect(byTestId('book-bid-row').map((r) => r.dataset.price)).toEqual(['0.56', '0.55'])
    expect(byTestId('book-spread')[0]?.textContent).toContain('2¢')
    // The next update makes it live again, and the mark goes.
    await act(async () => api.push({ books: [book()] }))
    expect(byTestId('orderbook')[0]?.dataset.state).toBe('live')
    expect(byTestId('book-quiet-mark')).toHaveLength(0)
  })
})

describe('freshness badge', () => {
  const T0 = 1_700_000_000_000
  const badge = () => byTestId('freshness')[0]

  beforeEach(() => {
    vi.useFakeTimers({
      now: T0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const advance = (ms: number) =>
    act(async () => {
      vi.advanceTimersByTime(ms)
    })

  it('live without a usual gap: plain "Live", the age counts only after 15 s', async () => {
    const api = createFakeApi()
    await render(api, <FreshnessBadge state="live" updatedAt={T0 - 5_000} />)
    expect(badge()?.textContent).toBe('Live')
    expect(badge()?.dataset.state).toBe('live')
    expect(badge()?.className).toContain('badge-live')
    // One timer, to the moment the age starts to show; no ticking before.
    expect(vi.getTimerCount()).toBe(1)
    await advance(9_900)
    expect(badge()?.textContent).toBe('Live')
    await advance(100)
    expect(badge()?.textContent).toBe('Live · 15s')
    await advance(2_000)
    expect(badge()?.textContent).toBe('Live · 17s')
    expect(badge()?.className).toContain('badge-live')
  })

  it("live with a usual gap: the age shows once the data is older than the market's own gap", async () => {
    const api = createFakeApi()
    await render(api, <FreshnessBadge state="live" updatedAt={T0} usualGapMs={2_000} />)
    expect(badge()?.textContent).toBe('Live')
    await advance(1_900)
    expect(badge()?.textContent).toBe('Live')
    await advance(600)
    // Ages count in whole seconds: the badge changes at most once a second.
    expect(badge()?.textContent).toBe('Live · 2s')
    // A new update: back to plain "Live", and no tick until it is older than the gap again.
    await render(api, <FreshnessBadge state="live" updatedAt={T0 + 2_500} usualGapMs={2_000} />)
    expect(badge()?.textContent).toBe('Live')
    expect(vi.getTimerCount()).toBe(1)
  })

  it('quiet: never "Live", with the age since the last update', async () => {
    const api = createFakeApi()
    await render(api, <FreshnessBadge state="quiet" updatedAt={T0 - 12_000} usualGapMs={1_000} />)
    await advance(0)
    expect(badge()?.textContent).toBe('Quiet? · 12s')
    expect(badge()?.textContent).not.toContain('Live')
    expect(badge()?.dataset.state).toBe('quiet')
    expect(badge()?.className).toContain('badge-quiet')
    await advance(1_000)
    expect(badge()?.textContent).toBe('Quiet? · 13s')
  })

  it('stale: the reason and the age', async () => {
    const api = createFakeApi()
    await render(api, <FreshnessBadge state="stale" updatedAt={T0 - 8_000} staleReason="gap" />)
    await advance(0)
    expect(badge()?.textContent).toBe('Stale (gap) · 8s')
    expect(badge()?.dataset.state).toBe('stale')
    expect(badge()?.className).toContain('badge-stale')
    await render(api, <FreshnessBadge state="stale" updatedAt={null} />)
    expect(badge()?.textContent).toBe('Stale')
  })

  it('resyncing shows the attempt and, like empty, runs no timer', async () => {
    const api = createFakeApi()
    await render(api, <FreshnessBadge state="resyncing" updatedAt={T0 - 8_000} resyncAttempt={3} />)
    expect(badge()?.textContent).toBe('Resyncing #3…')
    expect(badge()?.dataset.state).toBe('resyncing')
    expect(vi.getTimerCount()).toBe(0)
    await render(api, <FreshnessBadge state="resyncing" updatedAt={T0 - 8_000} />)
    expect(badge()?.textContent).toBe('Resyncing…')
    await render(api, <FreshnessBadge state={null} updatedAt={null} />)
    expect(badge()?.textContent).toBe('Waiting for data')
    expect(badge()?.dataset.state).toBe('empty')
    expect(vi.getTimerCount()).toBe(0)
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

describe('notice banner', () => {
  it('shows what the engine set aside from the settings file until dismissed', async () => {
    const api = createFakeApi()
    await render(api, <NoticeBanner />)
    expect(byTestId('settings-notice')).toHaveLength(0)
    const text = 'Some settings could not be used and were set aside: windows[1] (target.kind: invalid).'
    await act(async () => api.push({ status: status({ notices: [text] }) }))
    expect(byTestId('settings-notice')[0]?.textContent).toContain('windows[1]')
    await act(async () => container.querySelector<HTMLButtonElement>('[aria-label="Dismiss"]')?.click())
    expect(byTestId('settings-notice')).toHaveLength(0)
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

  it('with a key: subscribes to the user channel and shows the engine’s account and the raw feed', async () => {
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
    // The raw feed shows every update; the account is the engine's, not folded from them here.
    expect(byTestId('user-feed-row')).toHaveLength(2)
    expect(byTestId('balance')).toHaveLength(0)
    await act(async () =>
      api.push({
        account: account({
          balances: [{ currency: 'USDC', total: 1234.5, available: 1000, updatedAt: 1 }],
          undecoded: 1,
        }),
      }),
    )
    expect(byTestId('balance')[0]?.textContent).toContain('1,234.50')
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

  it('subdues a quiet market (not as stale) and greys out a stale one', async () => {
    const api = createFakeApi()
    await render(api, <EventMatrix event={EVENTS[0]!} />)
    const at = Date.now()
    await act(async () =>
      api.push({
        tickers: [
          {
            market: 'm1',
            bestBid: 0.4,
            bestAsk: 0.42,
            last: 0.41,
            updatedAt: at,
            state: 'quiet',
            usualGapMs: 500,
          },
          { market: 'm2', bestBid: 0.5, bestAsk: 0.52, last: 0.5, updatedAt: at, state: 'stale' },
        ],
      }),
    )
    const [quiet, stale] = byTestId('market-row')
    expect(quiet?.className).toBe('quiet-row')
    expect(stale?.className).toBe('stale-row')
    const badges = byTestId('freshness')
    expect(badges.map((b) => b.dataset.state)).toEqual(['quiet', 'stale'])
    expect(badges[0]?.textContent).toMatch(/^Quiet\?/)
  })
})
