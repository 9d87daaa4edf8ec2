// @vitest-environment happy-dom
// An event's rules one click from the market header (and the event matrix): a dialog with the venue's rules text,
// its resolution time and countdown, category, tags and status; Escape or Close closes it. The header also shows
// the venue's chance, volume and liquidity where the ticker has them.
import { act, type ReactNode } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { EventSummary, TickerView } from '../../src/shared/model'
import { EventMatrix } from '../../src/renderer/features/events/EventMatrix'
import { MarketPane } from '../../src/renderer/features/market/MarketPane'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { formatDateTime } from '../../src/renderer/lib/format'
import { useEvents } from '../../src/renderer/store/events'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { withDom } from './dom'
import { createFakeApi, type FakeApi } from './fake-api'

const dom = withDom()
const HOUR = 3_600_000

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    dom.root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

const RULES =
  'Resolves YES if the Copom cuts the Selic rate at its March meeting.\n\nSource: Banco Central do Brasil.'

/** One moment for the whole file: an event built twice across a minute's turn would read two different times. */
const RESOLVES_AT = Date.now() + 50 * HOUR

function voxEvent(partial: Partial<EventSummary> = {}): EventSummary {
  return {
    id: 'e1',
    title: 'Selic cut in March',
    markets: [{ id: 'm1', title: 'Cut' }],
    category: 'Economy',
    tags: ['Brazil', 'Central Bank'],
    status: 'Active',
    rules: RULES,
    resolvesAt: RESOLVES_AT,
    ...partial,
  }
}

function ticker(partial: Partial<TickerView> = {}): TickerView {
  return {
    market: 'm1',
    bestBid: 0.4,
    bestAsk: 0.41,
    last: 0.4,
    updatedAt: Date.now(),
    state: 'live',
    ...partial,
  }
}

beforeEach(() => {
  setPriceUnit('cents')
  useEvents.setState({ phase: 'ready', events: [voxEvent()], error: null })
})

describe('the rules dialog', () => {
  it('opens from the market header with the rules text and what decides the resolution, and closes', async () => {
    const api = createFakeApi()
    await render(api, <MarketPane market="m1" owner="t" />)
    expect(dom.byTestId('rules-dialog', document.body)).toHaveLength(0)
    const button = dom.byTestId('rules-button')[0] as HTMLButtonElement
    expect(button.textContent).toBe('Rules')
    expect(button.getAttribute('aria-haspopup')).toBe('dialog')
    await act(async () => button.click())

    // On the document's body, not in the pane (a dock pane is the containing block of fixed descendants).
    expect(dom.byTestId('rules-dialog')).toHaveLength(0)
    const dialog = dom.byTestId('rules-dialog', document.body)[0] as HTMLElement
    expect(dialog.closest('.market-pane')).toBeNull()
    expect(dialog.getAttribute('role')).toBe('dialog')
    expect(dialog.getAttribute('aria-label')).toBe('Rules · Selic cut in March')
    // The text as sent, line breaks kept (plain text, never markup).
    expect(dom.byTestId('rules-text', dialog)[0]?.textContent).toBe(RULES)
    expect(dom.byTestId('rules-category', dialog)[0]?.textContent).toBe('Economy')
    expect(dom.byTestId('rules-status', dialog)[0]?.textContent).toBe('Active')
    expect(dom.byTestId('rules-tags', dialog)[0]?.textContent).toBe('BrazilCentral Bank')
    const resolves = dom.byTestId('rules-resolves', dialog)[0]?.textContent ?? ''
    expect(resolves).toContain(formatDateTime(RESOLVES_AT))
    expect(resolves).toContain('2d 2h')

    // Escape closes it (the shared dialog behaviour), and so does Close.
    await act(async () => {
      dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    expect(dom.byTestId('rules-dialog', document.body)).toHaveLength(0)
    await act(async () => button.click())
    const close = Array.from(
      dom.byTestId('rules-dialog', document.body)[0]?.querySelectorAll('button') ?? [],
    ).find((b) => b.textContent === 'Close')
    await act(async () => close?.click())
    expect(dom.byTestId('rules-dialog', document.body)).toHaveLength(0)
  })

  it('says so when the venue sent no rules', async () => {
    useEvents.setState({ events: [voxEvent({ rules: undefined, tags: [] })] })
    const api = createFakeApi()
    await render(api, <MarketPane market="m1" owner="t" />)
    await act(async () => dom.byTestId('rules-button')[0]?.click())
    expect(dom.byTestId('rules-text', document.body)).toHaveLength(0)
    expect(dom.byTestId('rules-missing', document.body)[0]?.textContent).toContain('no rules')
    expect(dom.byTestId('rules-tags', document.body)).toHaveLength(0)
  })

  it('is offered from the event matrix too, with the event’s category, status, countdown and tags', async () => {
    const api = createFakeApi()
    await render(api, <EventMatrix event={voxEvent()} />)
    const info = dom.byTestId('event-info')[0] as HTMLElement
    expect(dom.byTestId('event-category', info)[0]?.textContent).toBe('Economy')
    expect(dom.byTestId('event-time-left', info)[0]?.textContent).toBe('2d 2h')
    expect(info.textContent).toContain('Central Bank')
    await act(async () => dom.byTestId('matrix-rules-button')[0]?.click())
    expect(dom.byTestId('rules-text', document.body)[0]?.textContent).toBe(RULES)
  })

  it('a market of an unknown event has no rules button', async () => {
    useEvents.setState({ events: [] })
    const api = createFakeApi()
    await render(api, <MarketPane market="m9" owner="t" />)
    expect(dom.byTestId('rules-button')).toHaveLength(0)
  })
})

describe('the market header', () => {
  it('shows the event’s category and time left, and the venue’s chance, volume and liquidity', async () => {
    const api = createFakeApi()
    await render(api, <MarketPane market="m1" owner="t" />)
    const head = dom.container.querySelector('.market-head') as HTMLElement
    expect(dom.byTestId('event-category', head)[0]?.textContent).toBe('Economy')
    expect(dom.byTestId('event-time-left', head)[0]?.textContent).toBe('2d 2h')
    expect(dom.byTestId('quote-chance')).toHaveLength(0)
    await act(async () => api.push({ tickers: [ticker({ chance: 0.4, volume: 29_500, liquidity: 5_000 })] }))
    expect(dom.byTestId('quote-chance')[0]?.textContent).toBe('Chance40%')
    expect(dom.byTestId('quote-chance')[0]?.dataset.chance).toBe('0.4')
    expect(dom.byTestId('quote-volume')[0]?.textContent).toBe('Vol29.5K')
    const volume = dom.byTestId('quote-volume')[0] as HTMLElement
    await act(async () => {
      volume.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    })
    expect(volume.title).toContain('29,500')
    expect(dom.byTestId('quote-liquidity')[0]?.textContent).toBe('Liq5,000')
    // Prices in the chosen unit.
    expect(dom.container.querySelector('[data-testid="market-quote"] .bid-text')?.textContent).toBe('40¢')
  })

  it('titles a streaming figure when hovered, from its latest value, and never rewrites it with the stream', async () => {
    const api = createFakeApi()
    await render(api, <MarketPane market="m1" owner="t" />)
    await act(async () => api.push({ tickers: [ticker({ volume: 29_500, liquidity: 5_000 })] }))
    const volume = dom.byTestId('quote-volume')[0] as HTMLElement
    const liquidity = dom.byTestId('quote-liquidity')[0] as HTMLElement
    // Streamed values leave the cells' attributes alone: a changed title restyles its element in Chromium.
    await act(async () => api.push({ tickers: [ticker({ volume: 31_250, liquidity: 6_000 })] }))
    expect(volume.hasAttribute('title')).toBe(false)
    expect(liquidity.hasAttribute('title')).toBe(false)
    // The pointer on the figure's value (a child of the cell) titles the cell with the latest value.
    await act(async () => {
      volume.querySelector('b')?.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    })
    expect(volume.title).toBe('Traded volume, as the venue counts it: 31,250')
    expect(liquidity.hasAttribute('title')).toBe(false)
    await act(async () => api.push({ tickers: [ticker({ volume: 40_000, liquidity: 6_000 })] }))
    await act(async () => {
      volume.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    })
    expect(volume.title).toBe('Traded volume, as the venue counts it: 40,000')
  })

  it('shows none of them for a venue that sends none', async () => {
    useEvents.setState({ events: [{ id: 'e1', title: 'Plain', markets: [{ id: 'm1', title: 'Cut' }] }] })
    const api = createFakeApi()
    await render(api, <MarketPane market="m1" owner="t" />)
    await act(async () => api.push({ tickers: [ticker()] }))
    expect(dom.byTestId('event-meta')).toHaveLength(0)
    expect(dom.byTestId('quote-chance')).toHaveLength(0)
    expect(dom.byTestId('quote-volume')).toHaveLength(0)
    expect(dom.byTestId('quote-liquidity')).toHaveLength(0)
  })
})
