// @vitest-environment happy-dom
// The ladder on a venue with a separate NO book (VoxFi): implied levels folded into the YES ladder and marked
// apart (data-outcome="NO", a distinct class, a legend), the NO-book toggle, alerts in YES terms from the NO view,
// the depth chart folded the same way, and YES/NO marks on the trade tape. Without a NO book nothing changes.
import { act, type ReactNode } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { TradeView } from '../../src/shared/model'
import { DepthChart } from '../../src/renderer/features/market/DepthChart'
import { MarketPane } from '../../src/renderer/features/market/MarketPane'
import { OrderBook } from '../../src/renderer/features/market/OrderBook'
import { TradeTape } from '../../src/renderer/features/market/TradeTape'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { resetAlertUi, useAlertUi } from '../../src/renderer/store/alerts-ui'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { withDom } from './dom'
import { book, createFakeApi, voxBook, type FakeApi } from './fake-api'

const dom = withDom()

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    dom.root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

const q = (sel: string) => Array.from(dom.container.querySelectorAll<HTMLElement>(sel))
const byTestId = dom.byTestId
const rows = (id: 'book-bid-row' | 'book-ask-row') =>
  byTestId(id).map((r) => ({
    price: r.dataset.price,
    size: r.dataset.size,
    outcome: r.dataset.outcome ?? null,
    implied: r.classList.contains('implied'),
  }))

beforeEach(() => {
  setPriceUnit('probability')
  resetAlertUi()
})

describe('the ladder with a NO book', () => {
  it('folds the NO book in as implied YES levels, marked apart, own level first at a shared price', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={5} />)
    await act(async () => api.push({ books: [voxBook()] }))
    // Asks render worst first, so the best (an implied 0.57) sits on the spread line.
    expect(rows('book-ask-row')).toEqual([
      { price: '0.6', size: '25', outcome: 'NO', implied: true },
      { price: '0.6', size: '30', outcome: null, implied: false },
      { price: '0.58', size: '70', outcome: null, implied: false },
      { price: '0.57', size: '40', outcome: 'NO', implied: true },
    ])
    expect(rows('book-bid-row')).toEqual([
      { price: '0.56', size: '100', outcome: null, implied: false },
      { price: '0.55', size: '50', outcome: null, implied: false },
      { price: '0.55', size: '35', outcome: 'NO', implied: true },
      { price: '0.52', size: '15', outcome: 'NO', implied: true },
    ])
    // An implied row says where it comes from: its NO price, and a tooltip.
    const implied = q('.ladder-row.implied[data-price="0.57"]')[0] as HTMLElement
    expect(implied.dataset.noPrice).toBe('0.43')
    expect(implied.dataset.implied).toBe('true')
    expect(implied.title).toContain('Implied from the NO book')
    expect(implied.title).toContain('a NO bid at 0.43 is a YES ask at 0.57')
    // The best of either book is the best row; totals run over both.
    expect(implied.classList.contains('best')).toBe(true)
    expect(byTestId('book-implied-legend')[0]?.textContent).toContain('implied from the NO book')
    expect(byTestId('book-implied-legend')[0]?.title).toContain('a NO bid at q is a YES ask at 1 − q')
    // The mid and spread of the best levels, implied included: 0.56 / 0.57.
    expect(byTestId('book-spread')[0]?.textContent).toContain('0.565')
    expect(byTestId('book-spread')[0]?.textContent).toContain('0.01')
    expect(byTestId('orderbook')[0]?.dataset.view).toBe('yes')
    expect(q('.ladder-foot')[0]?.textContent).toContain('NO 2/2')
    // Fixed rows per side all the same.
    expect(q('.ladder-row').length).toBe(10)
  })

  it('a toggle in the ladder header shows the NO book alone in its own prices, and back', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={5} />)
    await act(async () => api.push({ books: [voxBook()] }))
    const toggle = byTestId('book-outcome-toggle')[0] as HTMLButtonElement
    // A real button: focusable, Enter and Space press it.
    expect(toggle.tagName).toBe('BUTTON')
    expect(toggle.type).toBe('button')
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    await act(async () => toggle.click())
    expect(toggle.getAttribute('aria-pressed')).toBe('true')
    expect(byTestId('orderbook')[0]?.dataset.view).toBe('no')
    expect(rows('book-bid-row')).toEqual([
      { price: '0.43', size: '40', outcome: 'NO', implied: false },
      { price: '0.4', size: '25', outcome: 'NO', implied: false },
    ])
    expect(rows('book-ask-row')).toEqual([
      { price: '0.48', size: '15', outcome: 'NO', implied: false },
      { price: '0.45', size: '35', outcome: 'NO', implied: false },
    ])
    expect(q('.ladder-head .c-price')[0]?.textContent).toBe('NO price')
    expect(byTestId('book-spread')[0]?.textContent).toContain('0.440')
    expect(q('.ladder-foot')[0]?.textContent).toContain('NO 2 bid / 2 ask levels')
    // New levels keep the NO view.
    await act(async () => api.push({ books: [voxBook({ seq: 5 })] }))
    expect(byTestId('book-bid-row').every((r) => r.dataset.outcome === 'NO')).toBe(true)
    await act(async () => toggle.click())
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    expect(byTestId('book-bid-row').map((r) => r.dataset.price)).toEqual(['0.56', '0.55', '0.55', '0.52'])
  })

  it('an alert from a level of the NO view is set on the YES book, in YES terms', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={5} />)
    await act(async () => api.push({ books: [voxBook()] }))
    await act(async () => byTestId('book-outcome-toggle')[0]?.click())
    const body = byTestId('ladder-levels')[0] as HTMLElement
    // The NO bid at 0.43 is a YES ask at 0.57.
    const noBid = q('[data-testid="book-bid-row"][data-price="0.43"]')[0] as HTMLElement
    await act(async () => {
      noBid.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))
    })
    await act(async () => {
      body.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }))
    })
    const draft = useAlertUi.getState().form?.draft
    expect(draft?.subject).toBe('ask')
    expect(draft?.value).toBe('0.57')
    // The level's menu says both.
    await act(async () => {
      noBid.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, clientX: 5, clientY: 5 }))
    })
    // (The menu is a portal on the document's body.)
    expect(byTestId('menu-alert-level', document.body)[0]?.textContent).toContain('ask crosses')
    expect(byTestId('menu-alert-level', document.body)[0]?.textContent).toContain('0.57 (NO bid 0.43)')
  })

  it('without a NO book the ladder is as on any venue: no bar, no toggle, no marks', async () => {
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={5} />)
    await act(async () => api.push({ books: [book()] }))
    expect(byTestId('book-outcome-toggle')).toHaveLength(0)
    expect(byTestId('book-outcome-bar')).toHaveLength(0)
    expect(byTestId('orderbook')[0]?.dataset.view).toBeUndefined()
    expect(q('[data-outcome]')).toHaveLength(0)
    expect(q('.ladder-row.implied')).toHaveLength(0)
    expect(byTestId('book-bid-row').map((r) => r.dataset.price)).toEqual(['0.56', '0.55'])
    expect(q('.ladder-head .c-price')[0]?.textContent).toBe('Price')
  })

  it('shows prices in the chosen unit while data-price stays in 0–1', async () => {
    setPriceUnit('cents')
    const api = createFakeApi()
    await render(api, <OrderBook market="m1" levels={5} />)
    await act(async () => api.push({ books: [voxBook()] }))
    const best = q('[data-testid="book-ask-row"].best')[0] as HTMLElement
    expect(best.dataset.price).toBe('0.57')
    expect(best.querySelector('.c-price')?.textContent).toBe('57¢')
    await act(async () => setPriceUnit('probability'))
    expect(best.querySelector('.c-price')?.textContent).toBe('0.57')
  })
})

describe('the market header with a NO book', () => {
  it('keeps the YES book’s own quote and names a better level implied from the NO book', async () => {
    const api = createFakeApi()
    await render(api, <MarketPane market="m1" owner="t" />)
    await act(async () => api.push({ books: [voxBook()] }))
    const cells = Array.from(
      dom.container.querySelectorAll<HTMLElement>('[data-testid="market-quote"] .quote-cell'),
    )
    const ask = cells.find((c) => c.textContent?.startsWith('Ask')) as HTMLElement
    const bid = cells.find((c) => c.textContent?.startsWith('Bid')) as HTMLElement
    // Own ask 0.58; the NO bid at 0.43 makes 0.57 the ladder's best.
    expect(ask.textContent).toBe('Ask0.58')
    await act(async () => {
      for (const c of [ask, bid]) c.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    })
    expect(ask.title).toContain('0.57, implied from the NO book')
    // The own bid 0.56 is the best: nothing to say.
    expect(bid.title).toBe('')
  })
})

describe('the depth chart with a NO book', () => {
  it('draws the YES book with the NO book folded in (sizes summed per price)', async () => {
    const api = createFakeApi()
    await render(api, <DepthChart market="m1" />)
    await act(async () => api.push({ books: [voxBook()] }))
    const chart = byTestId('depth-chart')[0] as HTMLElement
    // Bids 0.56, 0.55 (own + implied), 0.52; asks 0.57, 0.58, 0.60 (own + implied).
    expect(chart.dataset.levels).toBe('6')
    expect(chart.dataset.folded).toBe('true')
    expect(chart.querySelector('canvas')?.getAttribute('aria-label')).toContain('implied from the NO book')
  })

  it('is the book itself without one', async () => {
    const api = createFakeApi()
    await render(api, <DepthChart market="m1" />)
    await act(async () => api.push({ books: [book()] }))
    const chart = byTestId('depth-chart')[0] as HTMLElement
    expect(chart.dataset.levels).toBe('4')
    expect(chart.dataset.folded).toBeUndefined()
  })
})

describe('the trade tape', () => {
  const trade = (key: string, outcome?: 'yes' | 'no'): TradeView => ({
    key,
    market: 'm1',
    price: 0.41,
    size: 5,
    side: 'buy',
    ts: 1_000,
    receivedAt: 1_000,
    ...(outcome ? { outcome } : {}),
  })

  it('marks which contract traded where the venue says, and nothing where it does not', async () => {
    const api = createFakeApi()
    await render(api, <TradeTape market="m1" />)
    await act(async () => api.push({ trades: [trade('t1', 'yes'), trade('t2', 'no'), trade('t3')] }))
    const byKey = (k: string) => q(`[data-testid="trade-row"][data-key="${k}"]`)[0] as HTMLElement
    expect(byKey('t1').dataset.outcome).toBe('YES')
    expect(byTestId('trade-outcome', byKey('t1'))[0]?.textContent).toBe('YES')
    expect(byKey('t2').dataset.outcome).toBe('NO')
    expect(byTestId('trade-outcome', byKey('t2'))[0]?.textContent).toBe('NO')
    expect(byKey('t3').dataset.outcome).toBeUndefined()
    expect(byTestId('trade-outcome', byKey('t3'))).toHaveLength(0)
    expect(byKey('t3').querySelector('.c-price')?.textContent).toBe('0.41')
  })
})
