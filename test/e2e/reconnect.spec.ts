// Faults injected into the demo simulator through the host's test hook (TM_WEB_TEST_HOOKS=1 enables
// POST /__test/fault?kind=...&token=...): a dropped connection, malformed frames.
import { expect, test } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive, recordedStates, recordStates } from './helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

test('a dropped connection: reconnecting then live, book stale then live', async ({ page }) => {
  await openLive(page, host.url)
  await openFirstMarket(page)
  await expect(page.getByTestId('orderbook')).toHaveAttribute('data-state', 'live')
  // A gap can only be marked in a tape that already has trades.
  await expect.poll(() => page.getByTestId('trade-row').count(), { timeout: 60_000 }).toBeGreaterThan(0)
  await recordStates(page, ['connection-status', 'orderbook'])

  expect(await host.fault('drop')).toBe(200)

  const seen = async () => {
    const all = await recordedStates(page)
    return { status: all['connection-status'] ?? [], book: all.orderbook ?? [] }
  }
  await expect
    .poll(async () => (await seen()).status.includes('reconnecting'), { timeout: 60_000 })
    .toBe(true)
  await expect
    .poll(async () => (await seen()).book.some((s) => s === 'stale' || s === 'resyncing'), {
      timeout: 60_000,
    })
    .toBe(true)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
    timeout: 90_000,
  })
  await expect(page.getByTestId('orderbook')).toHaveAttribute('data-state', 'live', { timeout: 90_000 })
  const s = await seen()
  expect(s.status.lastIndexOf('live')).toBeGreaterThan(s.status.indexOf('reconnecting'))
  // The tape marks where trades may be missing.
  await expect(page.getByTestId('trade-gap').first()).toBeVisible({ timeout: 60_000 })
  // The incident log records the disconnect.
  await page.getByTestId('incidents-button').click()
  await expect(page.locator('[data-testid="incident-row"][data-kind="disconnect"]').first()).toBeVisible()
})

test('malformed frames are counted and shown in the inspector while the stream continues', async ({
  page,
}) => {
  await openLive(page, host.url)
  await openFirstMarket(page)
  await page.getByTestId('toggle-inspector').click()
  const inspector = page.getByTestId('inspector')
  await expect(inspector).toBeVisible()
  await expect
    .poll(() => inspector.getByTestId('inspector-frame').count(), { timeout: 60_000 })
    .toBeGreaterThan(0)
  const before = Number(await inspector.getByTestId('counter-malformed').textContent())
  expect(await host.fault('malformed')).toBe(200)
  await expect
    .poll(async () => Number(await inspector.getByTestId('counter-malformed').textContent()), {
      timeout: 60_000,
    })
    .toBeGreaterThan(before)
  await expect(
    inspector.locator('[data-testid="inspector-frame"][data-class="malformed"]').first(),
  ).toBeVisible()
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live')
})
