// @vitest-environment happy-dom
// The account's market cell names a market by its own title and its event's, keeps the id for the tooltip,
// and falls back to the id (said to be unlisted) when the listing does not hold the market.
import { act } from 'react'
import { expect, it } from 'vitest'
import { MarketCell } from '../../src/renderer/features/account/cells'
import { marketNamesOf, nameOf } from '../../src/renderer/lib/market-names'
import { withDom } from './dom'

const dom = withDom()

const names = marketNamesOf([
  {
    id: 'e-btc',
    title: 'Bitcoin monthly change to Dec 30: which range?',
    markets: [{ id: 'm-btc-r2', title: '-5% to 0%' }],
  },
  { id: 'e-final', title: 'Final: who wins?', markets: [{ id: 'm-same', title: 'Final: who wins?' }] },
  { id: 'e-blank', title: 'Copom decision', markets: [{ id: 'm-blank', title: '  ' }] },
])

async function cell(id: string | null): Promise<HTMLTableCellElement> {
  await act(async () => {
    dom.root.render(
      <table>
        <tbody>
          <tr>
            <MarketCell id={id} name={nameOf(names, id)} />
          </tr>
        </tbody>
      </table>,
    )
  })
  return dom.container.querySelector('td') as HTMLTableCellElement
}

const text = (el: ParentNode, testId: string) => dom.byTestId(testId, el).map((e) => e.textContent ?? '')

it('shows the market title with its event, the id only in the tooltip', async () => {
  const td = await cell('m-btc-r2')
  expect(text(td, 'market-cell-market')).toEqual(['-5% to 0%'])
  expect(text(td, 'market-cell-event')).toEqual([' · Bitcoin monthly change to Dec 30: which range?'])
  expect(td.textContent).not.toContain('m-btc-r2')
  expect(td.title).toBe('Bitcoin monthly change to Dec 30: which range? · -5% to 0% (id m-btc-r2)')
})

it('does not repeat an event titled like its market, and names a blank market by its event', async () => {
  const same = await cell('m-same')
  expect(text(same, 'market-cell-market')).toEqual(['Final: who wins?'])
  expect(text(same, 'market-cell-event')).toEqual([])
  const blank = await cell('m-blank')
  expect(text(blank, 'market-cell-market')).toEqual(['Copom decision'])
  expect(text(blank, 'market-cell-event')).toEqual([])
  expect(blank.title).toBe('Copom decision (id m-blank)')
})

it('falls back to the id, said to be unlisted, and a dash for no market', async () => {
  const gone = await cell('m-gone')
  expect(gone.textContent).toBe('m-gone')
  expect(gone.querySelector('.mono')).not.toBeNull()
  expect(gone.title).toBe('m-gone (not in the events listing)')
  const none = await cell(null)
  expect(none.textContent).toBe('—')
  expect(none.title).toBe('')
})

it('builds one map per listing, shared by every row that asks, and a new one for a new listing', () => {
  const listing = [{ id: 'e-1', title: 'Event', markets: [{ id: 'm-1', title: 'One' }] }]
  const first = marketNamesOf(listing)
  expect(marketNamesOf(listing)).toBe(first)
  const next = [{ id: 'e-1', title: 'Event renamed', markets: [{ id: 'm-1', title: 'One' }] }]
  const second = marketNamesOf(next)
  expect(second).not.toBe(first)
  expect(second.get('m-1')?.label).toBe('Event renamed · One')
  expect(first.get('m-1')?.label).toBe('Event · One')
})
