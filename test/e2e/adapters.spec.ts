// Venue adapters as a user meets them: the inspector says which adapter reads the demo's frames (auto settles on
// VoxFi's, the dialect the demo simulator speaks), and a profile's form offers every shipped adapter, auto, and
// the tolerant reader.
import { expect, test } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive } from './helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

test('the inspector names the adapter auto picked; a profile can choose one', async ({ page }) => {
  await openLive(page, host.url)
  await openFirstMarket(page)
  await page.getByTestId('toggle-inspector').click()
  await expect(page.getByTestId('inspector-adapter')).toHaveText('adapter auto → voxfi')
  await expect.poll(() => page.getByTestId('inspector-frame').count()).toBeGreaterThan(0)
  await page.screenshot({ path: test.info().outputPath('inspector-adapter.png') })

  await page.getByTestId('header-key-settings').click()
  const settings = page.getByTestId('key-settings')
  await settings.getByTestId('new-profile').click()
  const select = settings.getByTestId('profile-adapter')
  await expect(select).toHaveValue('auto')
  const options = await select
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))
  expect(options.slice(0, 3)).toEqual(['auto', 'tolerant', 'sim'])
  for (const name of ['voxfi', 'kalshi', 'polymarket', 'betfair', 'kraken-futures', 'bitmex'])
    expect(options).toContain(name)
  await select.selectOption('kalshi')
  await expect(select).toHaveValue('kalshi')
  await settings.screenshot({ path: test.info().outputPath('profile-adapter.png') })
})
