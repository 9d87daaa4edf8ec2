// Trading on a venue other than the built-in simulator (issue 32): the browser host refuses live orders there
// unless it was started with --allow-trading (the page's token alone must not be enough to trade real money),
// while paper orders, which are never sent, go; a key without create_orders leaves a lasting, named state at the
// ticket and in the status bar while market data and account reads carry on; and a rate limit says how long to
// wait. Each venue is a simulator of the test's own, read over REST with its key.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
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
  ticket,
  useVenue,
  withQuantity,
  openTradableMarket,
} from './trading-helpers'

/** A key the venue knows that may read everything but not create orders. */
const READ_ONLY_KEY = 'sk_readonly_0123456789abcdef0123'
const READ_ONLY = ['read_orders', 'cancel_orders', 'read_positions', 'read_wallet']

let dir: string

test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tm-e2e-venue-'))
})

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A host on a settings file of its own (with these extra flags) and a venue; both stopped after `run`. */
async function withVenue(
  name: string,
  flags: string[],
  config: Record<string, unknown> | undefined,
  run: (host: Host, sim: Sim) => Promise<void>,
): Promise<void> {
  const [host, sim] = await Promise.all([
    startHost({ args: ['--demo', '--settings', path.join(dir, `${name}.json`), ...flags] }),
    startSim(9_200 + flags.length * 10 + name.length, config),
  ])
  try {
    await run(host, sim)
  } finally {
    await Promise.all([host.close(), sim.close()])
  }
}

/** The venue's profile live with `key`, a market open, its levels on the ladder. */
async function liveOn(page: Page, host: Host, sim: Sim, key: string): Promise<void> {
  await openLive(page, host.url)
  await useVenue(page, 'Other venue', sim, key)
  await expect(page.getByTestId('trading-mode')).not.toHaveAttribute('data-unavailable', 'true')
  await openTradableMarket(page)
  await setMode(page, 'live')
}

/** Fills the ticket with a buy at a bid a few levels under the touch. */
async function restingBuy(page: Page, qty: number): Promise<void> {
  await clickLevel(page, 'bid', (bids) => bids[3])
  await fillTicket(page, { side: 'buy', qty })
}

test('the browser host without --allow-trading refuses live orders to another venue; paper still goes', async ({
  page,
}) => {
  await withVenue('no-allow', [], undefined, async (host, sim) => {
    await liveOn(page, host, sim, sim.demoKey)
    await setOneClick(page, true)
    await restingBuy(page, 13)
    // Refused before anything is sent: the ticket is blocked with the reason, or the press is refused.
    const submit = ticket(page).getByTestId('order-submit')
    if (await submit.isEnabled()) await submit.click()
    await expect(
      ticket(page).locator(
        '[data-testid="ticket-blocked"][data-code="trading_disabled"], [data-testid="order-error"][data-code="trading_disabled"]',
      ),
    ).toBeVisible({ timeout: 30_000 })
    await expect(ticket(page)).toContainText('--allow-trading')
    expect(withQuantity(await simRead(sim, sim.demoKey, '/data/orders'), 13)).toEqual([])
    // Paper orders are never sent, so they are allowed here.
    await setMode(page, 'paper')
    await restingBuy(page, 14)
    const id = await send(page, false)
    await expect(orderRow(page, id)).toHaveAttribute('data-mode', 'paper')
    expect(withQuantity(await simRead(sim, sim.demoKey, '/data/orders'), 14)).toEqual([])
  })
})

test('a key without create_orders: a lasting, named state; market data and account reads carry on', async ({
  page,
}) => {
  const keys = [{ value: READ_ONLY_KEY, name: 'read only', permissions: READ_ONLY }]
  await withVenue('read-only', ['--allow-trading'], { keys }, async (host, sim) => {
    await liveOn(page, host, sim, READ_ONLY_KEY)
    await setOneClick(page, true)
    await restingBuy(page, 15)
    await ticket(page).getByTestId('order-submit').click()
    await expect(ticket(page).getByTestId('order-error')).toHaveAttribute('data-code', /^(PO7|permission)$/, {
      timeout: 30_000,
    })
    // Lasting: the ticket and the status bar say what the key cannot do and where to make one that can.
    const blocked = ticket(page).getByTestId('ticket-blocked')
    await expect(blocked).toHaveAttribute('data-code', 'permission')
    await expect(blocked).toContainText('Profile → Security')
    await expect(blocked).not.toContainText('IP')
    // Said once: the refusal points at the note instead of repeating it.
    await expect(ticket(page).getByTestId('order-error')).toHaveText(
      /refused this order \(PO7\), for the reason above/,
    )
    await expect(ticket(page).getByTestId('order-submit')).toBeDisabled()
    await expect(page.getByTestId('trading-blocked')).toHaveAttribute('data-code', 'permission')
    await page.screenshot({ path: test.info().outputPath('key-without-create-orders.png') })
    // Market data and account reads carry on.
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live')
    const levels = () =>
      dockPane(page, 'ladder')
        .locator('[data-testid="book-bid-row"], [data-testid="book-ask-row"]')
        .evaluateAll((rows) =>
          rows.map((r) => `${r.getAttribute('data-price')}x${r.getAttribute('data-size')}`).join(' '),
        )
    const before = await levels()
    await expect.poll(levels, { timeout: 30_000 }).not.toBe(before)
    await expect(dockPane(page, 'account').getByTestId('balance').first()).toBeVisible({ timeout: 30_000 })
    expect(withQuantity(await simRead(sim, READ_ONLY_KEY, '/data/orders'), 15)).toEqual([])
  })
})

test('a rate limit is said at the ticket with how long to wait', async ({ page }) => {
  await withVenue(
    'rate-limited',
    ['--allow-trading'],
    // The venue's trade bucket: three orders a minute, so the fourth press meets its 429 and Retry-After.
    { tradeRateLimit: { requests: 3, windowMs: 60_000 } },
    async (host, sim) => {
      await liveOn(page, host, sim, sim.demoKey)
      await setOneClick(page, true)
      const error = ticket(page).getByTestId('order-error')
      // Each press another quantity, so none is asked about as a duplicate.
      const code = async () => ((await error.count()) > 0 ? error.getAttribute('data-code') : null)
      for (let i = 1; i <= 6 && (await code()) !== 'rate_limited'; i++) {
        await restingBuy(page, i)
        await ticket(page).getByTestId('order-submit').click()
        await expect(ticket(page).getByTestId('order-submit')).toBeEnabled({ timeout: 30_000 })
      }
      await expect(error).toHaveAttribute('data-code', 'rate_limited')
      await expect(error).toContainText(/wait \d+ s/)
      await page.keyboard.press('Control+Shift+X')
    },
  )
})
