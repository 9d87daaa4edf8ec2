// Steps the trading specs share (docs/trading.md, DESIGN §3.7): the mode, the ticket of the market pane, the
// ladder's own rows, another venue as a profile with its key, and what a simulator's REST says it holds. Prices
// are typed in ¢, the app's default unit.
import { readFile } from 'node:fs/promises'
import { expect, type Locator, type Page } from '@playwright/test'
import { createProfile, dockPane, ensureDemoKey, openLive } from './helpers'
import type { Sim } from './host'

export type Mode = 'off' | 'paper' | 'live'

/** Sets the active profile's trading mode from the status bar (live is confirmed, as a trader must). */
export async function setMode(page: Page, mode: Mode): Promise<void> {
  const status = page.getByTestId('trading-mode')
  if ((await status.getAttribute('data-mode')) === mode) return
  await page.getByTestId('trading-mode-select').selectOption(mode)
  if (mode === 'live') await page.getByTestId('trading-live-confirm').click()
  await expect(status).toHaveAttribute('data-mode', mode)
}

/** Turns one-click on or off for the profile, from the ticket. */
export async function setOneClick(page: Page, on: boolean): Promise<void> {
  const toggle = ticket(page).getByTestId('order-one-click')
  if ((await toggle.getAttribute('aria-pressed')) !== String(on)) await toggle.click()
  await expect(toggle).toHaveAttribute('aria-pressed', String(on))
}

/** The ladder pane's order ticket. */
export function ticket(page: Page): Locator {
  return dockPane(page, 'ladder').getByTestId('order-ticket')
}

export interface TicketOrder {
  side?: 'buy' | 'sell'
  outcome?: 'YES' | 'NO'
  kind?: 'limit' | 'market'
  /** ¢, as typed; a limit's price (left as it is when not given: a ladder click filled it). */
  cents?: number
  qty: number
}

/** Types an order into the ticket (fields not given are left as they are). */
export async function fillTicket(page: Page, o: TicketOrder): Promise<void> {
  const t = ticket(page)
  if (o.side) await t.getByTestId('order-side').selectOption(o.side)
  if (o.outcome) await t.getByTestId('order-outcome').selectOption(o.outcome)
  if (o.kind) await t.getByTestId('order-kind').selectOption(o.kind)
  if (o.cents !== undefined) await t.getByTestId('order-price').fill(String(o.cents))
  await t.getByTestId('order-qty').fill(String(o.qty))
}

/**
 * Presses Send and, with confirmations on, answers the question; resolves to the id of the order the ticket
 * shows as sent (that order's, once the engine answered).
 */
export async function send(page: Page, confirm = true): Promise<string> {
  const t = ticket(page)
  // Read without waiting: a locator's getAttribute waits for its element, and before a first order there is none.
  const before = await t
    .getByTestId('ticket-order')
    .evaluateAll((els) => els[0]?.getAttribute('data-order-id') ?? null)
  await t.getByTestId('order-submit').click()
  if (confirm) await page.getByTestId('order-confirm').click()
  const sent = t.getByTestId('ticket-order')
  await expect(sent).toHaveAttribute('data-order-id', /.+/)
  await expect.poll(() => sent.getAttribute('data-order-id')).not.toBe(before)
  return (await sent.getAttribute('data-order-id')) as string
}

/**
 * Opens a market of the first event whose ladder holds at least `bids` of its own bid levels and `asks` ask levels
 * (a market priced near 0¢ or 100¢ has one side nearly empty); returns its id.
 */
export async function openTradableMarket(page: Page, bids = 5, asks = 3): Promise<string> {
  await expect(page.getByTestId('event-row').first()).toBeVisible()
  await page.getByTestId('event-row').first().click()
  const rows = page.getByTestId('market-row')
  await expect(rows.first()).toBeVisible()
  const ids = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-market') ?? ''))
  for (let round = 0; round < 3; round++) {
    for (const id of ids) {
      await page.locator(`[data-testid="market-row"][data-market="${id}"]`).click()
      await expect(page.getByTestId('market-pane')).toHaveAttribute('data-market', id)
      const deep = await expect
        .poll(
          async () =>
            (await ownLevels(page, 'bid')).length >= bids && (await ownLevels(page, 'ask')).length >= asks,
          {
            timeout: 5_000,
          },
        )
        .toBe(true)
        .then(
          () => true,
          () => false,
        )
      if (deep) return id
    }
  }
  throw new Error(`no market of the first event held ${bids} bid and ${asks} ask levels`)
}

/** An order's row in the account's orders. */
export function orderRow(page: Page, id: string): Locator {
  return dockPane(page, 'account').locator(`[data-testid="order-row"][data-order-id="${id}"]`)
}

/** The YES book's own levels on the ladder, best first, in 0–1 (implied NO levels left out). */
export async function ownLevels(page: Page, side: 'bid' | 'ask'): Promise<number[]> {
  const prices = await dockPane(page, 'ladder')
    .locator(`[data-testid="book-${side}-row"]:not([data-outcome])`)
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-price'))))
  return prices.sort((a, b) => (side === 'bid' ? b - a : a - b))
}

/** The ladder's own row at a price (a YES level, not an implied one). */
export function levelRow(page: Page, side: 'bid' | 'ask', price: number): Locator {
  return dockPane(page, 'ladder').locator(
    `[data-testid="book-${side}-row"][data-price="${price}"]:not([data-outcome])`,
  )
}

/**
 * Clicks the ladder's own level that `pick` chooses from the side's levels (best first) until the ticket holds its
 * price; returns it. The ladder moves under a loaded machine: a level read can be gone, or the row moved, by the
 * time the click lands, so the pick and the click are made again with the book as it is then.
 */
export async function clickLevel(
  page: Page,
  side: 'bid' | 'ask',
  pick: (levels: number[]) => number | undefined,
): Promise<number> {
  let chosen = Number.NaN
  await expect(async () => {
    const price = pick(await ownLevels(page, side))
    expect(price, `a ${side} level to click`).toBeDefined()
    chosen = price as number
    await levelRow(page, side, chosen).click({ timeout: 5_000 })
    await expect(ticket(page).getByTestId('order-price')).toHaveAttribute('data-price', String(chosen), {
      timeout: 2_000,
    })
  }).toPass({ timeout: 30_000 })
  return chosen
}

/** Every trade price the window's tape holds (its CSV export: the tape on screen is virtualised), in 0–1. */
export async function tapePrices(page: Page): Promise<number[]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('tape-export').click(),
  ])
  const lines = (await readFile(await download.path(), 'utf8')).split('\r\n').slice(1)
  // time,market,event,market_title,price,size,side,key: the titles may be quoted and hold commas.
  const field = /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g
  return lines.filter((l) => l.length > 0).map((l) => Number([...l.matchAll(field)].map((m) => m[1])[4]))
}

/** Adds a profile for another venue (a simulator of the test's own), switches to it and stores `key`. */
export async function useVenue(page: Page, name: string, sim: Sim, key: string): Promise<void> {
  const { settings, ask } = await createProfile(page, name, sim.baseUrl, sim.wsUrl)
  await ask.getByTestId('switch-profile-now').click()
  await expect(ask).toHaveCount(0)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
    timeout: 60_000,
  })
  await settings.getByTestId('key-input').fill(key)
  await settings.getByTestId('save-key').click()
  await expect(settings.getByTestId('key-stored')).toBeVisible({ timeout: 30_000 })
  await page.keyboard.press('Escape')
  await expect(settings).toHaveCount(0)
}

/** What a simulator's REST answers `path` with (`/data/orders`, `/data/activity` …) for this key. */
export async function simRead(sim: Sim, key: string, path: string): Promise<unknown> {
  const res = await fetch(`${sim.baseUrl}${path}`, { headers: { 'X-Api-Key': key } })
  expect(res.status, `${path} answered ${res.status}`).toBe(200)
  return res.json()
}

/** The venue's records (open orders, activity: bare arrays) with this quantity, which a test's order has alone. */
export function withQuantity(body: unknown, quantity: number): unknown[] {
  expect(Array.isArray(body), 'the venue answers a list').toBe(true)
  return (body as unknown[]).filter((r) => (r as { quantity?: unknown }).quantity === quantity)
}

/** The demo account live on the host at `url`, a tradable market open, one-click as asked; returns the market. */
export async function readyToTrade(page: Page, url: string, oneClick: boolean): Promise<string> {
  await openLive(page, url)
  await ensureDemoKey(page)
  const market = await openTradableMarket(page)
  // The engine's account came: the mode is the profile's, not a stand-in for none.
  await expect(page.getByTestId('trading-mode')).not.toHaveAttribute('data-unavailable', 'true')
  await setMode(page, 'live')
  await setOneClick(page, oneClick)
  return market
}
