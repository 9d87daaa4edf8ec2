// @vitest-environment happy-dom
// The raw surfaces that carry a market id name it from the listing: an inspector frame about one listed market
// leads with its event and market titles (the id in the tooltip), and so does a user-feed update. A frame about
// several markets, or one the listing does not hold, shows no name rather than a wrong one.
import { act, type ReactNode } from 'react'
import { expect, it } from 'vitest'
import type { InspectorFrame, UserUpdateView } from '../../src/shared/model'
import { UserFeed } from '../../src/renderer/features/account/UserFeed'
import { Inspector } from '../../src/renderer/features/status/Inspector'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useEvents } from '../../src/renderer/store/events'
import { useMonitor } from '../../src/renderer/store/monitor'
import { withDom } from './dom'
import { createFakeApi } from './fake-api'

const dom = withDom()

const OVERTIME = { id: 'm-ot', title: 'Goes to overtime' }
const RED_CARD = { id: 'm-red', title: 'Red card shown' }

async function render(node: ReactNode) {
  useEvents.setState({
    phase: 'ready',
    events: [{ id: 'e-final', title: 'Final: who wins?', markets: [OVERTIME, RED_CARD] }],
  })
  await act(async () => {
    dom.root.render(<ServicesProvider api={createFakeApi()}>{node}</ServicesProvider>)
  })
}

const frame = (seq: number, markets: (string | null)[]): InspectorFrame => ({
  seq,
  receivedAt: 1_700_000_000_000,
  raw: `{"frame":${seq}}`,
  truncated: false,
  classification: 'ok',
  decoded: markets.map((market) => ({ kind: 'ticker', market, last: 0.5 })),
})

it('an inspector frame about one listed market names it; several or an unlisted one, no name', async () => {
  useMonitor.setState({
    inspector: [
      frame(1, ['m-ot', 'm-ot', null]),
      frame(2, ['m-ot', 'm-red']),
      frame(3, ['m-gone']),
      frame(4, []),
    ],
  })
  await render(<Inspector onClose={() => {}} />)
  const row = (seq: number) =>
    dom.container.querySelector(`[data-testid="inspector-frame"][data-seq="${seq}"]`) as HTMLElement
  const named = (seq: number) => dom.byTestId('inspector-frame-market', row(seq)).map((e) => e.textContent)
  expect(named(1)).toEqual(['Final: who wins? · Goes to overtime '])
  expect(row(1).querySelector('.frame-raw')?.getAttribute('title')).toBe(
    'Final: who wins? · Goes to overtime (id m-ot)\n{"frame":1}',
  )
  expect(named(2)).toEqual([])
  expect(named(3)).toEqual([])
  expect(row(3).querySelector('.frame-raw')?.getAttribute('title')).toBe(
    'm-gone (not in the events listing)\n{"frame":3}',
  )
  expect(named(4)).toEqual([])
})

it('a user-feed update about a listed market leads with its name', async () => {
  const update = (seq: number, market: string | null): UserUpdateView => ({
    seq,
    topic: 'order',
    market,
    data: { market, size: 5 },
    receivedAt: 1_700_000_000_000,
  })
  useMonitor.setState({ user: [update(1, 'm-red'), update(2, null), update(3, 'm-gone')] })
  await render(<UserFeed hasKey />)
  const rows = dom.byTestId('user-feed-row')
  const byMarket = (m: string | null) =>
    rows.find((r) => (r.getAttribute('data-market') ?? null) === m) as HTMLElement
  expect(dom.byTestId('user-feed-market', byMarket('m-red')).map((e) => e.textContent)).toEqual([
    'Final: who wins? · Red card shown ',
  ])
  expect(dom.byTestId('user-feed-market', byMarket(null))).toHaveLength(0)
  expect(dom.byTestId('user-feed-market', byMarket('m-gone'))).toHaveLength(0)
  expect(byMarket('m-gone').querySelector('.mono')?.getAttribute('title')).toContain(
    'm-gone (not in the events listing)',
  )
})
