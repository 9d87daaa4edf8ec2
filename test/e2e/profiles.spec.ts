// Profiles as a user expects (issue 27): Escape closes Key settings after "Use demo key"; creating a profile asks
// before switching to it; a venue that cannot be reached says why in the status bar; and each profile shows
// only its own account: the host's demo simulator and a second simulator started here, switched back and forth.
import { createServer } from 'node:net'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { createProfile, openLive, openSettings } from './helpers'
import { startHost, startSim, type Host, type Sim } from './host'

let host: Host
let sim: Sim

test.beforeAll(async () => {
  ;[host, sim] = await Promise.all([startHost(), startSim(9_001)])
})

test.afterAll(async () => {
  await Promise.all([host?.close(), sim?.close()])
})

/** Answers "switch now" and closes Key settings. */
async function switchNow(page: Page, ask: Locator) {
  await ask.getByTestId('switch-profile-now').click()
  await expect(ask).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('key-settings')).toHaveCount(0)
}

/** Selects a profile by the start of its name in Key settings, and closes them. */
async function selectProfile(page: Page, name: string) {
  const settings = await openSettings(page)
  const select = settings.getByTestId('profile-select')
  const value = await select.locator('option', { hasText: name }).first().getAttribute('value')
  await select.selectOption(value ?? '')
  await expect(select).toHaveValue(value ?? '')
  await page.keyboard.press('Escape')
  await expect(settings).toHaveCount(0)
}

/** The markets of every account row the window shows: the raw feed, positions and open orders. */
async function accountMarkets(page: Page): Promise<string[]> {
  return page
    .locator(
      '[data-testid="user-feed-row"][data-market], [data-testid="position-row"][data-market], [data-testid="open-orders"] tr[data-market]',
    )
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-market') ?? ''))
}

test('Escape closes Key settings after "Use demo key", though the button that had focus is gone', async ({
  page,
}) => {
  await openLive(page, host.url)
  const settings = await openSettings(page)
  const demoKey = settings.getByTestId('use-demo-key')
  await expect(demoKey).toBeVisible()
  await demoKey.click()
  await expect(settings.getByTestId('key-stored')).toBeVisible()
  // The button was disabled while it worked and then left the page: focus fell out of the dialog.
  await expect(demoKey).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(settings).toHaveCount(0)
})

test('creating a profile asks before switching; staying keeps the demo feed', async ({ page }) => {
  await openLive(page, host.url)
  const status = page.getByTestId('connection-status')
  const { settings, ask } = await createProfile(page, 'Asked venue', sim.baseUrl, sim.wsUrl)
  await expect(ask.getByTestId('switch-profile-now')).toHaveText('Switch to Asked venue')
  // Not switched meanwhile: the demo profile is still the active one, and live.
  await expect(ask.getByTestId('switch-profile-later')).toHaveText(/^Stay on Demo/)
  await expect(status).toHaveAttribute('data-state', 'live')
  await ask.getByTestId('switch-profile-later').click()
  await expect(ask).toHaveCount(0)
  await expect(settings.getByTestId('profile-select').locator('option:checked')).toContainText('(demo)')
  await expect(
    settings.getByTestId('profile-select').locator('option', { hasText: 'Asked venue' }),
  ).toHaveCount(1)
  // The question's own Escape closes only itself; the settings' closes them.
  await page.keyboard.press('Escape')
  await expect(settings).toHaveCount(0)
})

test('each profile shows only its own orders, positions and fills, switching back and forth', async ({
  page,
}) => {
  const simMarkets = new Set(await sim.markets())
  expect(simMarkets.size).toBeGreaterThan(0)
  await openLive(page, host.url)
  const ofSim = async () => (await accountMarkets(page)).filter((m) => simMarkets.has(m))
  const notOfSim = async () => (await accountMarkets(page)).filter((m) => !simMarkets.has(m))
  // The demo account (its key stored by the first test, or here).
  if (await page.getByTestId('cta-use-demo-key').isVisible())
    await page.getByTestId('cta-use-demo-key').click()
  await expect.poll(async () => (await notOfSim()).length, { timeout: 60_000 }).toBeGreaterThan(0)

  const { ask } = await createProfile(page, 'Second venue', sim.baseUrl, sim.wsUrl)
  await ask.getByTestId('switch-profile-now').click()
  await expect(ask).toHaveCount(0)
  const settings = page.getByTestId('key-settings')
  await expect(settings.getByTestId('profile-select').locator('option:checked')).toContainText('Second venue')
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
    timeout: 60_000,
  })
  // No key for this profile yet: nothing of the demo account may remain.
  expect(await accountMarkets(page)).toEqual([])
  await settings.getByTestId('key-input').fill(sim.demoKey)
  await settings.getByTestId('save-key').click()
  await expect(settings.getByTestId('key-stored')).toBeVisible({ timeout: 30_000 })
  await page.keyboard.press('Escape')
  await expect(settings).toHaveCount(0)

  for (let round = 0; round < 2; round++) {
    await expect.poll(async () => (await ofSim()).length, { timeout: 60_000 }).toBeGreaterThan(0)
    expect(await notOfSim()).toEqual([])
    await expect(page.getByTestId('position-row').first()).toBeVisible({ timeout: 60_000 })

    await selectProfile(page, 'Demo')
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
      timeout: 60_000,
    })
    await expect.poll(async () => (await notOfSim()).length, { timeout: 60_000 }).toBeGreaterThan(0)
    expect(await ofSim()).toEqual([])

    await selectProfile(page, 'Second venue')
  }
  // A few seconds on the second venue: nothing of the demo account arrives late.
  await expect.poll(async () => (await ofSim()).length, { timeout: 60_000 }).toBeGreaterThan(0)
  await page.waitForTimeout(3_000)
  expect(await notOfSim()).toEqual([])
  await selectProfile(page, 'Demo')
})

test('a venue that cannot be reached says why in the status bar: refused, host not found', async ({
  page,
}) => {
  const probe = createServer()
  const port = await new Promise<number>((done) =>
    probe.listen(0, '127.0.0.1', () => done((probe.address() as { port: number }).port)),
  )
  await new Promise<void>((done) => probe.close(() => done()))
  await openLive(page, host.url)
  const reason = page.getByTestId('connection-error')
  await expect(reason).toHaveCount(0)

  const refused = await createProfile(
    page,
    'Closed port',
    `http://127.0.0.1:${port}/v1`,
    `ws://127.0.0.1:${port}`,
  )
  await switchNow(page, refused.ask)
  await expect(reason).toHaveAttribute('data-link', 'refused', { timeout: 30_000 })
  await expect(reason).toContainText('Connection refused')
  await expect(reason).toBeVisible()

  const dns = await createProfile(page, 'No such host', 'https://venue.invalid/v1', 'wss://venue.invalid')
  await switchNow(page, dns.ask)
  await expect(reason).toHaveAttribute('data-link', 'dns', { timeout: 30_000 })
  await expect(reason).toContainText('Host not found')

  await selectProfile(page, 'Demo')
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
    timeout: 60_000,
  })
  await expect(reason).toHaveCount(0)
})
