// History on open: a market the engine has watched for a while opens in a second page with the trades the engine
// holds on its tape and the candles it built, not from the moment it was opened.
import { expect, test } from '@playwright/test'
import { startHost, type Host } from './host'
import { chartCandles as candles, openFirstMarket, openLive, tapeRows } from './helpers'

let host: Host
test.beforeAll(async () => {
  host = await startHost()
})
test.afterAll(async () => {
  await host?.close()
})

test('a second page opens a watched market with the held trades and the candles built so far', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1400, height: 900 })
  await openLive(page, host.url)
  const market = await openFirstMarket(page)
  await expect(page.getByTestId('price-chart')).toHaveAttribute('data-interval', '1m')
  // Watched long enough for two one-minute candles.
  await expect.poll(() => candles(page), { timeout: 100_000, intervals: [1_000] }).toBeGreaterThanOrEqual(2)
  // Two candles can be a minute's turn with a trade either side of it: wait for a tape worth comparing too.
  await expect.poll(() => tapeRows(page), { timeout: 100_000, intervals: [2_000] }).toBeGreaterThan(5)
  const held = await tapeRows(page)
  const built = await candles(page)

  const second = await page.context().newPage()
  await second.setViewportSize({ width: 1400, height: 900 })
  await openLive(second, host.url)
  expect(await openFirstMarket(second)).toBe(market)
  await expect(second.getByTestId('price-chart')).toHaveAttribute('data-market', market)
  await expect.poll(() => candles(second), { timeout: 10_000 }).toBeGreaterThanOrEqual(built)
  await expect(second.getByTestId('tape-export')).toBeEnabled()
  expect(await tapeRows(second)).toBeGreaterThanOrEqual(held)
  await second.getByTestId('interval-5m').click()
  await expect.poll(() => candles(second), { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
})
