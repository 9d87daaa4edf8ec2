// Refreshes docs/*.png (1400x900, dark theme) when TM_SCREENSHOTS=1; otherwise skipped so test runs do not
// rewrite tracked files. Run: TM_SCREENSHOTS=1 node scripts/e2e.mjs test/e2e/screenshots.spec.ts
import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive, useDemoKey } from './helpers'

const enabled = process.env.TM_SCREENSHOTS === '1'
const docs = (name: string) => resolve(__dirname, '../../docs', name)

test.skip(!enabled, 'set TM_SCREENSHOTS=1 to refresh docs/*.png')
test.use({ colorScheme: 'dark', viewport: { width: 1400, height: 900 } })

let host: Host

test.beforeAll(async () => {
  if (enabled) host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

test('screenshots', async ({ page, context }) => {
  test.setTimeout(180_000)
  await openLive(page, host.url)
  await useDemoKey(page)
  const market = await openFirstMarket(page)
  const event = (await page.getByTestId('event-row').first().getAttribute('data-event')) as string
  // A watchlist with a few starred markets (its tab sits behind the events list).
  for (let i = 0; i < 3; i++) await page.getByTestId('market-row').nth(i).getByTestId('watch-toggle').click()
  await page.getByTestId('event-row').nth(1).click()
  await page.getByTestId('interval-1s').click()
  // Let the tape, chart and account fill up for a representative picture.
  // The tape is virtualised: only the rows in view exist.
  await expect.poll(() => page.getByTestId('trade-row').count(), { timeout: 60_000 }).toBeGreaterThan(10)
  await page.waitForTimeout(15_000)
  await page.getByTestId('market-row').nth(1).hover()
  await page.screenshot({ path: docs('main-window.png') })

  // The alert manager with a rule that has fired (bid at or above 1¢ holds at once) and one still armed.
  const makeAlert = async (subject: string, op: string, value: string, label: string) => {
    await page.locator('.market-pane').getByTestId('alert-new').click()
    await page.getByTestId('alert-subject').selectOption(subject)
    await page.getByTestId('alert-op').selectOption(op)
    await page.getByTestId('alert-value').fill(value)
    await page.getByLabel('Label (optional)').fill(label)
    await page.getByTestId('alert-save').click()
    await expect(page.getByTestId('alert-form')).toHaveCount(0)
  }
  await makeAlert('bid', 'above', '1', 'bid is quoted')
  await makeAlert('mid', 'crosses-above', '97', 'breakout')
  await expect(page.getByTestId('alert-toast')).toHaveCount(1, { timeout: 10_000 })
  await page.getByTestId('alerts-badge').click()
  await expect(page.getByTestId('alert-history-row')).toHaveCount(1)
  await page.screenshot({ path: docs('alerts.png') })
  await page.keyboard.press('Escape')

  // Other windows open beside the main one (which keeps the market's tape history alive in the engine).
  const marketPage = await context.newPage()
  await openLive(marketPage, host.page({ view: 'market', market }))
  await expect.poll(() => marketPage.getByTestId('book-bid-row').count()).toBeGreaterThan(0)
  await marketPage.getByTestId('interval-1s').click()
  await marketPage.waitForTimeout(5_000)
  await marketPage.screenshot({ path: docs('market-window.png') })

  const eventPage = await context.newPage()
  await openLive(eventPage, host.page({ view: 'event', event }))
  await expect
    .poll(() =>
      eventPage.getByTestId('market-row').evaluateAll((rs) => rs.every((r) => r.hasAttribute('data-bid'))),
    )
    .toBe(true)
  await eventPage.waitForTimeout(1_000)
  await eventPage.screenshot({ path: docs('event-view.png') })
})
