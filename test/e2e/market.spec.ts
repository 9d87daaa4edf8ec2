// The main window against the demo simulator: events list, a market's ladder, tape and chart, the event view.
import { expect, test } from '@playwright/test'
import { startHost, type Host } from './host'
import { bestQuotes, candlePixels, openFirstMarket, openLive } from './helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

test('the events list loads', async ({ page }) => {
  await openLive(page, host.url)
  await expect(page.getByTestId('event-list')).toBeVisible()
  await expect.poll(() => page.getByTestId('event-row').count()).toBeGreaterThan(0)
  // Instant search narrows the list to the typed event.
  const title = (await page.getByTestId('event-row').first().getAttribute('title')) ?? ''
  await page.getByTestId('event-search').fill(title)
  await expect.poll(() => page.getByTestId('event-row').count()).toBeGreaterThanOrEqual(1)
  await expect(page.getByTestId('event-row').first()).toHaveAttribute('title', title)
})

test("each row of the events list lays out on its own, at the virtualiser's height", async ({ page }) => {
  await openLive(page, host.url)
  await expect.poll(() => page.getByTestId('event-row').count()).toBeGreaterThan(0)
  // Layout and size containment make a row a relayout boundary, so a streamed quote lays out its row, not the
  // window (the events pane is none: a <select> in its tools). Size containment must not change the row's box.
  const rows = await page.evaluate<
    { contain: string; height: number; set: string; width: number; list: number }[]
  >(`
    Array.from(document.querySelectorAll('[data-testid="event-list"] .list-row')).map((r) => ({
      contain: getComputedStyle(r).contain,
      height: r.getBoundingClientRect().height,
      set: r.style.height,
      width: r.getBoundingClientRect().width,
      list: r.offsetParent ? r.offsetParent.clientWidth : -1,
    }))
  `)
  expect(rows.length).toBeGreaterThan(0)
  for (const r of rows) {
    expect(r.contain.split(' ')).toEqual(expect.arrayContaining(['layout', 'size']))
    expect(`${r.height}px`).toBe(r.set)
    expect(r.width).toBe(r.list)
  }
})

test('opening a market shows a live ladder, a growing tape and a drawn chart', async ({ page }) => {
  await openLive(page, host.url)
  const market = await openFirstMarket(page)

  const book = page.getByTestId('orderbook')
  await expect(book).toHaveAttribute('data-state', 'live')
  await expect.poll(() => page.getByTestId('book-bid-row').count()).toBeGreaterThan(0)
  await expect.poll(() => page.getByTestId('book-ask-row').count()).toBeGreaterThan(0)
  const { bid, ask } = await bestQuotes(page)
  expect(bid).toBeLessThan(ask)
  await expect(page.getByTestId('book-bid-row').first()).toHaveAttribute('data-market', market)

  // The tape grows: a newer trade appears on top and no row is lost.
  const tape = page.getByTestId('trade-row')
  await expect.poll(() => tape.count(), { timeout: 60_000 }).toBeGreaterThan(0)
  const firstKey = await tape.first().getAttribute('data-key')
  const firstCount = await tape.count()
  await expect.poll(() => tape.first().getAttribute('data-key'), { timeout: 60_000 }).not.toBe(firstKey)
  expect(await tape.count()).toBeGreaterThanOrEqual(firstCount)
  await expect(tape.first()).toHaveAttribute('data-market', market)

  // The chart's canvases hold candles (pixels in the candle colours), not just a background and axes.
  await expect(page.getByTestId('price-chart').locator('canvas').first()).toBeVisible()
  await expect.poll(() => candlePixels(page), { timeout: 30_000 }).toBeGreaterThan(20)
  await page.getByTestId('interval-1s').click()
  await expect(page.getByTestId('price-chart')).toHaveAttribute('data-interval', '1s')
  await expect.poll(() => candlePixels(page), { timeout: 30_000 }).toBeGreaterThan(20)
})

test('quick open and the list keyboard open markets', async ({ page }) => {
  await openLive(page, host.url)
  await expect(page.getByTestId('event-row').first()).toBeVisible()
  await page.keyboard.press('/')
  await expect(page.getByTestId('quick-open')).toBeVisible()
  const id = await page
    .locator('[data-testid="quick-open-item"][data-kind="market"]')
    .nth(1)
    .getAttribute('data-id')
  await page.getByTestId('quick-open-input').fill(id as string)
  await expect(page.getByTestId('quick-open-item').first()).toHaveAttribute('data-id', id as string)
  await page.getByTestId('quick-open-input').press('Enter')
  await expect(page.getByTestId('quick-open')).toHaveCount(0)
  await expect(page.getByTestId('market-pane')).toHaveAttribute('data-market', id as string)

  // In the list: the revealed event is under the cursor; j moves to its first market, Enter opens it.
  const list = page.getByTestId('event-list')
  await list.focus()
  await page.keyboard.press('j')
  await page.keyboard.press('Enter')
  const cursorRow = list.locator('[data-testid="market-row"][aria-selected="true"]')
  const next = await cursorRow.getAttribute('data-market')
  await expect(page.getByTestId('market-pane')).toHaveAttribute('data-market', next as string)
})

test('a market window and the event view', async ({ page }) => {
  await openLive(page, host.url)
  const market = await openFirstMarket(page)
  const event = await page.getByTestId('event-row').first().getAttribute('data-event')

  await openLive(page, host.page({ view: 'market', market }))
  await expect(page.getByTestId('orderbook')).toHaveAttribute('data-state', 'live')
  await expect.poll(() => page.getByTestId('book-bid-row').count()).toBeGreaterThan(0)

  await openLive(page, host.page({ view: 'event', event: event as string }))
  const rows = page.getByTestId('market-row')
  await expect.poll(() => rows.count()).toBeGreaterThan(0)
  // Every market of the event gets a two-sided quote, and the sum of mids is computed from them.
  await expect
    .poll(
      () =>
        rows.evaluateAll((rs) => rs.every((r) => r.hasAttribute('data-bid') && r.hasAttribute('data-ask'))),
      {
        timeout: 60_000,
      },
    )
    .toBe(true)
  await expect(page.getByTestId('overround')).toHaveAttribute('data-sum', /\d/)
})
