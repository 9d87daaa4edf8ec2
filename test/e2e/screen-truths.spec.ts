// Small truths on screen, against the demo simulator in Chromium: every price is in the unit the status bar
// shows (the positions, an alert's toast, its browser notification and its history entry, which follows a
// switch made after it fired); an event of one market quotes it on its own row; a market window is called by
// its market's name, not its id.
import { expect, test, type Page } from '@playwright/test'
import { startHost, type Host } from './host'
import { dockPane, openFirstMarket, openLive, useDemoKey } from './helpers'

let host: Host
test.beforeAll(async () => {
  host = await startHost()
})
test.afterAll(async () => {
  await host?.close()
})

/** A price in cents as the app writes it: "45¢", "45.5¢". */
const CENTS = /^\d{1,3}(\.\d{1,2})?¢$/
/** A price as a probability: "0.45", "0.455", "1.00". */
const PROBABILITY = /^[01]\.\d{2,3}$/

/**
 * The page's Web Notifications, recorded instead of shown (granted, as a trader who allowed them). Browser-side
 * code is passed as source text: the e2e files typecheck without the DOM (as in helpers.ts).
 */
const RECORD_NOTIFICATIONS = `(() => {
  const shown = []
  window.shownNotifications = shown
  class Recorded {
    static permission = 'granted'
    static requestPermission = async () => 'granted'
    onclick = null
    constructor(title, options) {
      shown.push({ title, body: (options && options.body) || '' })
    }
    close() {}
  }
  Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true })
})()`

async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript({ content: RECORD_NOTIFICATIONS })
}

async function notifications(page: Page): Promise<{ title: string; body: string }[]> {
  return (await page.evaluate('window.shownNotifications')) as { title: string; body: string }[]
}

test('positions, an alert and its notification read in the unit shown; the history follows a later switch', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1600, height: 950 })
  await recordNotifications(page)
  await openLive(page, host.url)
  await useDemoKey(page)
  await openFirstMarket(page)
  await expect(page.getByTestId('price-unit')).toHaveAttribute('data-unit', 'cents')

  // Positions: average and mark in cents, as the ladder beside them.
  const account = dockPane(page, 'account')
  const avg = account.getByTestId('position-avg').first()
  await expect(avg).toHaveText(CENTS, { timeout: 60_000 })
  const mark = account.locator('[data-testid="position-mark"][data-source="mid"]').first()
  await expect(mark).toHaveText(/^mid\d{1,3}\.\d¢$/, { timeout: 60_000 })

  // A big-trade alert on the market (any trade of 1 or more): its texts are the engine's, in cents.
  await page.locator('.market-pane').getByTestId('alert-new').click()
  await page.getByTestId('alert-subject').selectOption('trade-size')
  await page.getByTestId('alert-value').fill('1')
  await page.getByTestId('alert-save').click()
  await expect(page.getByTestId('alert-form')).toHaveCount(0)
  const toast = page.getByTestId('alert-toast').first()
  await expect(toast).toBeVisible({ timeout: 60_000 })
  await expect(toast.locator('.toast-detail')).toHaveText(/ @ \d{1,3}(\.\d{1,2})?¢ \(at least 1\)$/)
  await expect.poll(async () => (await notifications(page)).length).toBeGreaterThan(0)
  const [note] = await notifications(page)
  expect(note?.body).toMatch(/ @ \d{1,3}(\.\d{1,2})?¢ \(at least 1\)$/)

  // Switched to probabilities: the positions and the entry that fired in cents read in 0–1 now.
  await page.getByTestId('price-unit-probability').click()
  await expect(avg).toHaveText(PROBABILITY)
  await expect(mark).toHaveText(/^mid[01]\.\d{3}$/)
  await page.getByTestId('alerts-badge').click()
  const entry = page.locator('[data-testid="alert-history-row"][data-kind="fired"]').first()
  await expect(entry.locator('.history-text > div').nth(1)).toHaveText(/ @ [01]\.\d{2,3} \(at least 1\)$/)
  await page.keyboard.press('Escape')
  await page.getByTestId('price-unit-cents').click()
  await expect(avg).toHaveText(CENTS)
})

test('an event of one market quotes its bid, ask and last on its own row, collapsed', async ({ page }) => {
  await openLive(page, host.url)
  const single = page.locator('[data-testid="event-row"][data-market]').first()
  await expect(single).toHaveAttribute('aria-expanded', 'false')
  const cells = single.locator('.c-num')
  await expect(cells).toHaveCount(3)
  // Bid, ask and last from that market's ticker, once the row has subscribed.
  for (let i = 0; i < 3; i++) await expect(cells.nth(i)).toHaveText(CENTS, { timeout: 30_000 })
  // An event of several markets is quoted on its market rows, not its own.
  const several = page.locator('[data-testid="event-row"]:not([data-market])').first()
  await expect(several.locator('.c-num')).toHaveCount(0)
  await expect(several.locator('.count')).toHaveText(/^\d+$/)
})

test("a market window is called by its market's name, in the OS title and the ladder, never by its id", async ({
  page,
  context,
}) => {
  await openLive(page, host.url)
  const market = await openFirstMarket(page)
  const event = (await page.getByTestId('event-row').first().getAttribute('title')) ?? ''
  const title = (
    (await page.getByTestId('market-row').first().locator('.c-title').textContent()) ?? ''
  ).trim()
  expect(event).not.toBe('')
  expect(title).not.toBe('')
  const win = await context.newPage()
  try {
    await win.goto(host.page({ view: 'market', market }))
    await expect(win).toHaveTitle(`${event} · ${title} · Trading Monitor`, { timeout: 30_000 })
    await expect(dockPane(win, 'ladder').locator('.market-title h2')).toHaveText(title)
    expect(await win.title()).not.toContain(market)
    await expect(win.locator('.app-head .head-title')).not.toContainText(market)
  } finally {
    await win.close()
  }
})
