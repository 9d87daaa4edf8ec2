// The account pane and key settings: the demo key brings account updates; a wrong key is explained in place.
import { expect, test, type Page } from '@playwright/test'
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

test('the account names markets by event and market title, with the id only in the tooltip', async ({
  page,
}) => {
  // A host of its own: the one the other tests share may already hold the demo key.
  const own = await startHost()
  try {
    await openLive(page, own.url)
    await useDemoKey(page)
    await expectNamedAccount(page)
  } finally {
    await own.close()
  }
})

async function expectNamedAccount(page: Page): Promise<void> {
  const account = page.getByTestId('account-pane')
  // The simulator's demo account trades listed markets: positions, orders and fills arrive with their ids.
  const cells = account.getByTestId('market-cell')
  await expect.poll(() => cells.count(), { timeout: 60_000 }).toBeGreaterThan(0)
  const shown = await cells.evaluateAll((tds) =>
    tds.map((td) => ({
      market: td.querySelector('[data-testid="market-cell-market"]')?.textContent ?? null,
      event: td.querySelector('[data-testid="market-cell-event"]')?.textContent ?? null,
      id: td.closest('tr')?.getAttribute('data-market') ?? null,
      title: td.getAttribute('title') ?? '',
      text: td.textContent ?? '',
    })),
  )
  for (const c of shown) {
    const what = JSON.stringify(c)
    expect(c.market, what).toBeTruthy()
    expect(c.id, what).not.toBeNull()
    expect(c.text, what).not.toContain(c.id)
    // The tooltip is the full name and the id; the event is shown unless it is the market's own words.
    const event = c.event === null ? null : c.event.replace(/^ · /, '')
    expect(c.title, what).toBe(`${event === null ? '' : `${event} · `}${c.market} (id ${c.id})`)
  }
  // The demo account holds a market of a many-market event, whose event must show beside it.
  expect(shown.some((c) => c.event !== null)).toBe(true)
  // The user feed leads a market's update with its name.
  await expect(account.getByTestId('user-feed-market').first()).toBeVisible({ timeout: 60_000 })
  await page.screenshot({ path: test.info().outputPath('account-names.png') })
}
