// @vitest-environment happy-dom
// Prices in cents ("40¢", VoxFi's own way and the default) or as probabilities ("0.40"): the formatting, the
// setting the engine keeps and every window mirrors, and the status bar's switch.
import { act, type ReactNode } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import { MarketPane } from '../../src/renderer/features/market/MarketPane'
import { StatusBar } from '../../src/renderer/features/status/StatusBar'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import {
  formatChance,
  formatCompact,
  formatMid,
  formatPrice,
  formatPriceChange,
} from '../../src/renderer/lib/format'
import { changeOf, venueFigures } from '../../src/renderer/features/workspace/WatchlistPane'
import { choosePriceUnit, DEFAULT_PRICE_UNIT, setPriceUnit, usePrefs } from '../../src/renderer/store/prefs'
import { useMonitor } from '../../src/renderer/store/monitor'
import { fail } from '../../src/shared/ipc'
import { withDom } from './dom'
import { book, createFakeApi, status, workspaceOf, type FakeApi } from './fake-api'

const dom = withDom()

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    dom.root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

beforeEach(() => {
  setPriceUnit(DEFAULT_PRICE_UNIT)
})

describe('price formatting by unit', () => {
  it('shows cents of R$1 without trailing zeros, a finer tick with its digits', () => {
    expect(formatPrice(0.4, 'cents')).toBe('40¢')
    expect(formatPrice(0.57, 'cents')).toBe('57¢')
    expect(formatPrice(1 - 0.43, 'cents')).toBe('57¢')
    expect(formatPrice(0.535, 'cents')).toBe('53.5¢')
    expect(formatPrice(0.1 + 0.2, 'cents')).toBe('30¢')
    expect(formatPrice(0, 'cents')).toBe('0¢')
    expect(formatPrice(1, 'cents')).toBe('100¢')
    expect(formatPrice(0.02, 'cents')).toBe('2¢')
    expect(formatPrice(-0.01, 'cents')).toBe('-1¢')
    expect(formatPrice(null, 'cents')).toBe('—')
  })

  it('keeps a price that is not a probability a plain number whatever the unit', () => {
    expect(formatPrice(65_000.5, 'cents')).toBe('65,000.5')
    expect(formatPrice(12.5, 'cents')).toBe('12.50')
  })

  it('shows probabilities as before, and that is the default of a caller that names no unit', () => {
    expect(formatPrice(0.4, 'probability')).toBe('0.40')
    expect(formatPrice(0.535, 'probability')).toBe('0.535')
    expect(formatPrice(0.4)).toBe('0.40')
  })

  it('mids keep one more digit in either unit, so a column lines up', () => {
    expect(formatMid(0.575, 'cents')).toBe('57.5¢')
    expect(formatMid(0.57, 'cents')).toBe('57.0¢')
    expect(formatMid(0.575, 'probability')).toBe('0.575')
  })

  it('changes are signed in either unit', () => {
    expect(formatPriceChange(0.02, 'cents')).toBe('+2¢')
    expect(formatPriceChange(-0.015, 'cents')).toBe('-1.5¢')
    expect(formatPriceChange(0.57 - 0.57, 'cents')).toBe('0¢')
    expect(formatPriceChange(0.02, 'probability')).toBe('+0.02')
    expect(formatPriceChange(-0.01)).toBe('-0.01')
  })

  it('the chance as a whole percent, and counts compactly', () => {
    expect(formatChance(0.4)).toBe('40%')
    expect(formatChance(0.004)).toBe('<1%')
    expect(formatChance(0.996)).toBe('>99%')
    expect(formatChance(1)).toBe('100%')
    expect(formatChance(undefined)).toBe('—')
    expect(formatCompact(9_800)).toBe('9,800')
    expect(formatCompact(29_500)).toBe('29.5K')
    expect(formatCompact(1_234_567)).toBe('1.2M')
  })

  it('the watchlist reads the change and the venue’s figures in the unit', () => {
    const t = {
      market: 'm1',
      bestBid: 0.4,
      bestAsk: 0.42,
      last: 0.42,
      updatedAt: 1,
      state: 'live' as const,
      open: 0.4,
      openAt: 0,
      chance: 0.41,
      volume: 29_500,
      liquidity: 5_000,
    }
    expect(changeOf(t, 'cents').title).toContain('40¢')
    expect(venueFigures(t)).toBe(' · chance 41% · vol 29.5K · liq 5,000')
    expect(venueFigures({ ...t, chance: undefined, volume: undefined, liquidity: undefined })).toBe('')
  })
})

describe('the price preference', () => {
  it('defaults to cents, as VoxFi shows prices', () => {
    expect(DEFAULT_PRICE_UNIT).toBe('cents')
    expect(usePrefs.getState().priceUnit).toBe('cents')
  })

  it("is the engine's: every workspace view, from any window, sets what this window shows", async () => {
    const api = createFakeApi()
    await render(api, <StatusBar />)
    await act(async () => api.push({ workspace: workspaceOf('probability') }))
    expect(usePrefs.getState().priceUnit).toBe('probability')
    expect((dom.byTestId('price-unit')[0] as HTMLElement).dataset.unit).toBe('probability')
    await act(async () => api.push({ workspace: workspaceOf('cents') }))
    expect(usePrefs.getState().priceUnit).toBe('cents')
  })

  it('a choice the engine refuses is taken back', async () => {
    const api = createFakeApi({ setPriceUnit: async () => fail({ code: 'internal', message: 'disk full' }) })
    useMonitor.setState({ workspace: workspaceOf('cents') })
    await choosePriceUnit(api, 'probability')
    expect(usePrefs.getState().priceUnit).toBe('cents')
  })

  it('is switched from the status bar, and every price on screen follows', async () => {
    const api = createFakeApi()
    await render(
      api,
      <>
        <MarketPane market="m1" owner="t" />
        <StatusBar />
      </>,
    )
    await act(async () => api.push({ status: status(), books: [book()] }))
    const bid = () => dom.container.querySelector('[data-testid="market-quote"] .bid-text')?.textContent
    const ladderBest = () =>
      dom.container.querySelector('[data-testid="book-bid-row"].best .c-price')?.textContent
    expect(bid()).toBe('56¢')
    expect(ladderBest()).toBe('56¢')
    const group = dom.byTestId('price-unit')[0] as HTMLElement
    expect(group.dataset.unit).toBe('cents')
    const cents = dom.byTestId('price-unit-cents')[0] as HTMLButtonElement
    const prob = dom.byTestId('price-unit-probability')[0] as HTMLButtonElement
    expect(cents.getAttribute('aria-pressed')).toBe('true')
    expect(prob.getAttribute('aria-pressed')).toBe('false')

    await act(async () => prob.click())
    expect(group.dataset.unit).toBe('probability')
    expect(prob.getAttribute('aria-pressed')).toBe('true')
    // Asked of the engine, which keeps it for every window and its own alert texts.
    expect(api.callsOf('setPriceUnit')).toEqual([['probability']])
    expect(bid()).toBe('0.56')
    expect(ladderBest()).toBe('0.56')
    // data-price never changes with the unit.
    expect(dom.byTestId('book-bid-row')[0]?.dataset.price).toBe('0.56')

    await act(async () => cents.click())
    expect(bid()).toBe('56¢')
  })
})
