// Opening a market in its own window from the main window: Shift+Enter in the events list, and the market
// pane's "Window ↗" button. In the browser host a window is a new page of the same browser context.
import { expect, test, type Page } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive } from './helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

/** The new window shows `market`'s live order book, on its own, with the same host token. */
async function expectMarketWindow(popup: Page, market: string): Promise<void> {
  await popup.waitForLoadState('domcontentloaded')
  const url = new URL(popup.url())
  expect(url.origin).toBe(host.origin)
  expect(url.searchParams.get('view')).toBe('market')
  expect(url.searchParams.get('market')).toBe(market)
  await expect(popup.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
    timeout: 60_000,
  })
  await expect(popup.getByTestId('market-pane')).toHaveAttribute('data-market', market)
  await expect(popup.getByTestId('event-list')).toHaveCount(0)
  const book = popup.getByTestId('orderbook')
  await expect(book).toHaveAttribute('data-state', 'live', { timeout: 60_000 })
  await expect.poll(() => popup.getByTestId('book-bid-row').count(), { timeout: 60_000 }).toBeGreaterThan(0)
  await expect.poll(() => popup.getByTestId('book-ask-row').count(), { timeout: 60_000 }).toBeGreaterThan(0)
  await expect(popup.getByTestId('book-bid-row').first()).toHaveAttribute('data-market', market)
}

test('Shift+Enter on a market row opens that market in a new window', async ({ page, context }) => {
  await openLive(page, host.url)
  const list = page.getByTestId('event-list')
  await expect(page.getByTestId('event-row').first()).toBeVisible()
  // Keyboard only: focus the list, expand the first event, move the cursor onto its first market.
  await list.focus()
  await page.keyboard.press('Enter')
  const row = page.getByTestId('market-row').first()
  await expect(row).toBeVisible()
  const market = (await row.getAttribute('data-market')) ?? ''
  expect(market).not.toBe('')
  await page.keyboard.press('ArrowDown')
  await expect(row).toHaveAttribute('aria-selected', 'true')

  const pages = context.pages().length
  const opened = context.waitForEvent('page', { timeout: 30_000 })
  await page.keyboard.press('Shift+Enter')
  const popup = await opened
  await expectMarketWindow(popup, market)
  expect(context.pages().length).toBe(pages + 1)
  // The main window stays as it was: no market opened in its own pane.
  await expect(page.getByTestId('market-pane-empty')).toBeVisible()
  await popup.close()
})

test('the market pane\'s "Window ↗" button opens the market in a new window', async ({ page, context }) => {
  await openLive(page, host.url)
  const market = await openFirstMarket(page)
  const opened = context.waitForEvent('page', { timeout: 30_000 })
  await page.getByTestId('open-market-window').click()
  const popup = await opened
  await expectMarketWindow(popup, market)
  // The main window keeps its own view of the same market.
  await expect(page.getByTestId('market-pane')).toHaveAttribute('data-market', market)
  await popup.close()
})
