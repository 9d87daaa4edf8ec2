// The account pane and key settings: the demo key brings account updates; a wrong key is explained in place.
import { expect, test } from '@playwright/test'
import { startHost, type Host } from './host'
import { openLive, useDemoKey } from './helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

test('a wrong key shows the unauthorized explanation and is not stored', async ({ page }) => {
  await openLive(page, host.url)
  await page.getByTestId('open-key-settings-cta').click()
  const settings = page.getByTestId('key-settings')
  await expect(settings).toBeVisible()
  const input = settings.getByTestId('key-input')
  await expect(input).toHaveAttribute('type', 'password')
  await input.fill('definitely-not-a-valid-key')
  await settings.getByTestId('save-key').click()
  const error = settings.getByTestId('key-error')
  await expect(error).toHaveAttribute('data-code', 'unauthorized')
  await expect(error).toContainText('expired, disabled or revoked')
  await expect(error).toContainText('security settings')
  await expect(settings.getByTestId('key-stored')).toHaveCount(0)
  await settings.getByTestId('close-key-settings').click()
  await expect(page.getByTestId('account-cta')).toBeVisible()
})

test('after "Use demo key" the account pane receives updates, and the key is never shown back', async ({
  page,
}) => {
  await openLive(page, host.url)
  await useDemoKey(page)
  const feed = page.getByTestId('user-feed').getByTestId('user-feed-row')
  await expect.poll(() => feed.count(), { timeout: 60_000 }).toBeGreaterThan(0)
  const before = await feed.count()
  await expect.poll(() => feed.count(), { timeout: 60_000 }).toBeGreaterThan(before)
  await expect(page.getByTestId('balance').first()).toBeVisible({ timeout: 60_000 })

  await page.getByTestId('open-key-settings').click()
  const settings = page.getByTestId('key-settings')
  await expect(settings.getByTestId('key-stored')).toContainText('A key is stored')
  await expect(settings.locator('input[type="password"]')).toHaveCount(0)
})
