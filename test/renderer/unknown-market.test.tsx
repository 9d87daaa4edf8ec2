// @vitest-environment happy-dom
// A market the venue never answered (its book stale with the reason UNKNOWN_MARKET): the ladder says the venue
// does not know it, with its id, instead of an endless "Resyncing"; Resync still asks again.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { OrderBook } from '../../src/renderer/features/market/OrderBook'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { UNKNOWN_MARKET } from '../../src/shared/model'
import { book, createFakeApi } from './fake-api'
import { withDom } from './dom'

const dom = withDom()

const overlay = () => dom.container.querySelector<HTMLElement>('[data-testid="book-stale-overlay"]')

describe('a market the venue does not know', () => {
  it('says so with the id, and Resync asks again', async () => {
    const api = createFakeApi()
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <OrderBook market="m-404" />
        </ServicesProvider>,
      )
    })
    const unknown = book({
      market: 'm-404',
      state: 'stale',
      staleReason: UNKNOWN_MARKET,
      bids: [],
      asks: [],
      depth: { bids: 0, asks: 0 },
      seq: null,
      updatedAt: null,
    })
    await act(async () => api.push({ books: [unknown] }))
    expect(overlay()?.textContent).toContain('The venue does not know this market (id m-404)')
    expect(overlay()?.textContent).not.toMatch(/Resyncing|Book is stale/)
    await act(async () =>
      dom.container.querySelector<HTMLButtonElement>('[data-testid="resync-button"]')?.click(),
    )
    expect(api.callsOf('resync')).toEqual([['m-404']])
  })
})
