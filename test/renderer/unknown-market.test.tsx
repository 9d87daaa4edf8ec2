// @vitest-environment happy-dom
// A market the venue never answered (its book stale with the reason UNKNOWN_MARKET): the ladder says the venue
// does not know it, with its id, instead of an endless "Resyncing"; Resync still asks again.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { OrderBook } from '../../src/renderer/features/market/OrderBook'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useMonitor } from '../../src/renderer/store/monitor'
import { UNKNOWN_MARKET } from '../../src/shared/model'
import { book, createFakeApi } from './fake-api'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLDivElement
let root: Root

beforeEach(() => {
  useMonitor.getState().reset()
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
})

const overlay = () => container.querySelector<HTMLElement>('[data-testid="book-stale-overlay"]')

describe('a market the venue does not know', () => {
  it('says so with the id, and Resync asks again', async () => {
    const api = createFakeApi()
    await act(async () => {
      root.render(
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
      container.querySelector<HTMLButtonElement>('[data-testid="resync-button"]')?.click(),
    )
    expect(api.callsOf('resync')).toEqual([['m-404']])
  })
})
