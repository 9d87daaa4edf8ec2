// @vitest-environment happy-dom
// A ladder size's or total's tooltip: set when the pointer reaches a truncated cell, not written with every value
// (a title rewritten per batch restyled the cell); a cell that fits gets none, and loses one it had.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { OrderBook } from '../../src/renderer/features/market/OrderBook'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { withDom } from './dom'
import { book, createFakeApi } from './fake-api'

const dom = withDom()

/** Makes the cell read as `scroll` px of text in `client` px of box (happy-dom lays nothing out). */
function widths(cell: HTMLElement, scroll: number, client: number): void {
  Object.defineProperty(cell, 'scrollWidth', { configurable: true, get: () => scroll })
  Object.defineProperty(cell, 'clientWidth', { configurable: true, get: () => client })
}

const hover = (cell: HTMLElement) =>
  act(async () => {
    cell.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
  })

describe("the ladder's size and total cells", () => {
  it('carry no title until hovered, then their text only while truncated', async () => {
    const api = createFakeApi()
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <OrderBook market="m1" levels={5} />
        </ServicesProvider>,
      )
    })
    await act(async () => api.push({ books: [book()] }))
    const row = dom.byTestId('book-bid-row')[0] as HTMLElement
    const total = row.querySelector<HTMLElement>('.c-total') as HTMLElement
    const size = row.querySelector<HTMLElement>('.c-size') as HTMLElement
    expect(total.hasAttribute('title')).toBe(false)
    expect(size.hasAttribute('title')).toBe(false)

    widths(total, 80, 40)
    await hover(total)
    expect(total.title).toBe(total.textContent)
    widths(size, 20, 40)
    await hover(size)
    expect(size.hasAttribute('title')).toBe(false)
    // Widened: hovered again, the total fits and its tooltip goes.
    widths(total, 30, 40)
    await hover(total)
    expect(total.hasAttribute('title')).toBe(false)
  })
})
