// @vitest-environment happy-dom
// The account across a profile switch: the window forgot the old account (timeline-resets.ts), so it reads the
// new profile's (getAccount), and a reply asked for before the switch is dropped, not shown under the new profile.
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ok } from '../../src/shared/ipc'
import type { Result } from '../../src/shared/model'
import type { AccountView } from '../../src/shared/trading'
import { AccountPane } from '../../src/renderer/features/account/AccountPane'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { startTimelineResets } from '../../src/renderer/store/timeline-resets'
import { useProfiles } from '../../src/renderer/store/profiles'
import { withDom } from './dom'
import { account, createFakeApi, orderView, status } from './fake-api'

const dom = withDom()
let stopResets: (() => void) | null = null

beforeEach(() => {
  useProfiles.setState({ profiles: [], activeId: null, error: null })
  stopResets = startTimelineResets()
})
afterEach(() => {
  stopResets?.()
})

/** The account of profile `profileId` with one open order in `market`. */
const accountWith = (profileId: string, market: string): AccountView =>
  account({ profileId, orders: [orderView(`o-${market}`, { market })] })

const flush = () => act(async () => new Promise<void>((r) => setTimeout(r, 0)))

/** The markets of the order rows on screen. */
const orderMarkets = (): string[] =>
  dom
    .byTestId('open-orders')
    .flatMap((t) => [...t.querySelectorAll('tr[data-market]')].map((r) => r.getAttribute('data-market')))
    .filter((m): m is string => m !== null)

describe('the account across a profile switch', () => {
  it('reads the new profile’s account, and drops a reply asked for before the switch', async () => {
    /** Each getAccount call's reply, resolved by the test. */
    const pending: ((r: Result<AccountView>) => void)[] = []
    const api = createFakeApi({
      getAccount: () => new Promise<Result<AccountView>>((resolve) => pending.push(resolve)),
    })
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <AccountPane onOpenKeySettings={() => {}} />
        </ServicesProvider>,
      )
    })
    const reply = async (i: number, profile: string, market: string) => {
      await act(async () => pending[i]?.(ok(accountWith(profile, market))))
      await flush()
    }
    // The window starts on the fake's status (profile "demo"), then profile A is selected.
    await act(async () => api.push({ status: status({ profileId: 'p-a', hasKey: true }) }))
    await flush()
    const a = pending.length - 1
    expect(a).toBeGreaterThan(0)
    await reply(a, 'p-a', 'market-a')
    expect(orderMarkets()).toEqual(['market-a'])
    // Any reply asked for before A was selected is not A's.
    for (let i = 0; i < a; i++) await reply(i, 'demo', 'market-demo')
    expect(orderMarkets()).toEqual(['market-a'])

    // Switch to B: A's orders go, B's account is asked for.
    await act(async () => api.push({ status: status({ profileId: 'p-b', hasKey: true }) }))
    await flush()
    expect(orderMarkets()).toEqual([])
    expect(pending).toHaveLength(a + 2)

    // Back to A before B answers, then B's late reply lands: it is not shown under A.
    await act(async () => api.push({ status: status({ profileId: 'p-a', hasKey: true }) }))
    await flush()
    expect(pending).toHaveLength(a + 3)
    await reply(a + 1, 'p-b', 'market-b')
    expect(orderMarkets()).toEqual([])
    await reply(a + 2, 'p-a', 'market-a2')
    expect(orderMarkets()).toEqual(['market-a2'])
  })
})
