// Paper trading against a venue of the test's own (a simulator whose REST the test reads with its key): a paper
// order never reaches the venue, fills only when a trade prints at or through its price, and is marked PAPER
// wherever it shows (issue 32). A profile other than the built-in demo starts with trading off; paper needs no
// --allow-trading, since nothing is sent.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { startHost, startSim, type Host, type Sim } from './host'
import { dockPane, openLive } from './helpers'
import {
  clickLevel,
  fillTicket,
  orderRow,
  send,
  setMode,
  setOneClick,
  simRead,
  tapePrices,
  ticket,
  useVenue,
  withQuantity,
  openTradableMarket,
} from './trading-helpers'

let dir: string
let host: Host
let sim: Sim

test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tm-e2e-paper-'))
  ;[host, sim] = await Promise.all([
    startHost({ args: ['--demo', '--settings', path.join(dir, 'settings.json')] }),
    startSim(9_101),
  ])
})

test.afterAll(async () => {
  await Promise.all([host?.close(), sim?.close()])
  await rm(dir, { recursive: true, force: true })
})

test('paper mode sends nothing to the venue and fills only on a print', async ({ page }) => {
  test.setTimeout(180_000)
  await openLive(page, host.url)
  await useVenue(page, 'Paper venue', sim, sim.demoKey)
  const status = page.getByTestId('trading-mode')
  await expect(status).not.toHaveAttribute('data-unavailable', 'true')
  await expect(status).toHaveAttribute('data-mode', 'off')
  await openTradableMarket(page)
  await expect(ticket(page).getByTestId('ticket-off')).toBeVisible()
  await setMode(page, 'paper')
  await expect(ticket(page)).toHaveAttribute('data-mode', 'paper')
  await expect(ticket(page).getByTestId('ticket-title')).toHaveText('PAPER')
  await setOneClick(page, true)

  // Far under the touch: no trade prints down there while the test watches.
  const low = await clickLevel(page, 'bid', (bids) => bids[bids.length - 1])
  await fillTicket(page, { side: 'buy', qty: 37 })
  const resting = await send(page, false)
  // At the best ask: the next trade at or under it fills it.
  const ask = await clickLevel(page, 'ask', (asks) => asks[0])
  await fillTicket(page, { qty: 41 })
  const marketable = await send(page, false)
  for (const id of [resting, marketable])
    await expect(orderRow(page, id)).toHaveAttribute('data-mode', 'paper')

  const filled = orderRow(page, marketable)
  await expect(filled).toHaveAttribute('data-state', /^(partially_filled|filled)$/, { timeout: 90_000 })
  // It filled on a print at or through its price, which the tape holds.
  expect((await tapePrices(page)).some((p) => p <= ask)).toBe(true)
  const fill = dockPane(page, 'account').locator(`[data-testid="fill-row"][data-order-id="${marketable}"]`)
  await expect(fill.first()).toHaveAttribute('data-mode', 'paper')
  await expect(fill.first()).toContainText('PAPER')
  await page.screenshot({ path: test.info().outputPath('paper.png') })

  // The one under the touch fills only if a trade prints at or under its price: while more trades print, it is
  // open exactly as long as none did (the book's best bid moving onto it is not a print).
  const seen = (await tapePrices(page)).length
  await expect
    .poll(async () => (await tapePrices(page)).length, { timeout: 60_000 })
    .toBeGreaterThan(seen + 3)
  const printedAtOrUnder = (await tapePrices(page)).some((p) => p <= low)
  await expect(orderRow(page, resting)).toHaveAttribute(
    'data-state',
    printedAtOrUnder ? /^(partially_filled|filled)$/ : 'open',
  )

  // Nothing reached the venue: it holds no order and no fill of these quantities.
  for (const qty of [37, 41]) {
    expect(withQuantity(await simRead(sim, sim.demoKey, '/data/orders'), qty)).toEqual([])
    expect(withQuantity(await simRead(sim, sim.demoKey, '/data/activity?pageSize=100'), qty)).toEqual([])
  }
  await page.keyboard.press('Control+Shift+X')
  await expect(orderRow(page, resting)).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 })
})
