// Trading from the ladder against the demo host's built-in simulator (issue 32, docs/trading.md), in Chromium as a
// trader would: place from the ladder and see the fill; rest an order, see it on the ladder and in the orders,
// cancel it; cancel-all with several open, from the button and the hotkey; a held Enter sends one order; and the
// blotter, a tab beside the account, lists what was done. The demo profile trades live: its venue is the simulator.
import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { startHost, type Host } from './host'
import { dockPane } from './helpers'
import {
  clickLevel,
  fillTicket,
  levelRow,
  orderRow,
  send,
  setOneClick,
  ticket,
  readyToTrade,
} from './trading-helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

/** The demo account live, a market open, confirmations on; returns the market. */
const ready = (page: Page): Promise<string> => readyToTrade(page, host.url, false)

/** Fills the ticket from a bid row a few levels under the touch, as a buy there: an order that rests. */
async function restingBuy(page: Page, level: number, qty: number): Promise<number> {
  const price = await clickLevel(page, 'bid', (bids) => bids[Math.min(level, bids.length - 1)])
  await fillTicket(page, { side: 'buy', qty })
  await expect(ticket(page).getByTestId('order-price')).toHaveAttribute('data-price', String(price))
  return price
}

test('place from the ladder and see the fill', async ({ page }) => {
  const market = await ready(page)
  // Two levels through the touch: the buy crosses whatever the book does meanwhile, and fills at once.
  const price = await clickLevel(page, 'ask', (asks) => asks[2])
  const t = ticket(page)
  await expect(t.getByTestId('order-side')).toHaveValue('buy')
  await expect(t.getByTestId('order-outcome')).toHaveValue('YES')
  await expect(t.getByTestId('order-price')).toHaveAttribute('data-price', String(price))
  await fillTicket(page, { qty: 1 })
  const pressed = Date.now() - 1_000
  // What it would cost and fill at, before it goes.
  await expect(t.getByTestId('ticket-cost')).toHaveAttribute('data-total-cents', /^\d+$/)
  await expect(t.getByTestId('ticket-fill')).toHaveAttribute('data-avg', /.+/)
  await t.getByTestId('order-submit').click()
  // Confirmations are on: nothing goes before the question is answered.
  await expect(page.getByTestId('order-confirm-dialog')).toHaveAttribute('data-mode', 'live')
  await page.getByTestId('order-confirm').click()
  const sent = t.getByTestId('ticket-order')
  await expect(sent).toHaveAttribute('data-order-id', /.+/)
  const id = (await sent.getAttribute('data-order-id')) as string
  const row = orderRow(page, id)
  await expect(row).toHaveAttribute('data-state', 'filled', { timeout: 30_000 })
  await expect(row).toHaveAttribute('data-market', market)
  await expect(row).toHaveAttribute('data-mode', 'live')
  await expect(sent).toHaveAttribute('data-state', 'filled')
  // The round trip: click to the venue's answer, in ms.
  await expect(sent).toHaveAttribute('data-rtt', /^\d+(\.\d+)?$/)
  // The fill in the account: VoxFi's user frames name no order, so it is found by what it was: this market, a
  // live buy of one YES at the price or better, received after the press.
  const fills = dockPane(page, 'account').locator(
    `[data-testid="fill-row"][data-market="${market}"][data-side="buy"][data-outcome="YES"][data-size="1"]:not([data-mode="paper"])`,
  )
  await expect
    .poll(
      () =>
        fills.evaluateAll(
          (rows, [after, most]) =>
            rows.some(
              (r) =>
                Number(r.getAttribute('data-ts')) >= after && Number(r.getAttribute('data-price')) <= most,
            ),
          [pressed, price] as const,
        ),
      { timeout: 30_000 },
    )
    .toBe(true)
  await page.screenshot({ path: test.info().outputPath('ticket-filled.png') })
})

test('rest an order: it shows on the ladder and in the orders, and is cancelled from either', async ({
  page,
}) => {
  await ready(page)
  const price = await restingBuy(page, 3, 3)
  const id = await send(page)
  const row = orderRow(page, id)
  await expect(row).toHaveAttribute('data-state', 'open', { timeout: 30_000 })
  for (const [name, value] of [
    ['data-side', 'buy'],
    ['data-outcome', 'YES'],
    ['data-price', String(price)],
    ['data-qty', '3'],
    ['data-mode', 'live'],
  ] as const)
    await expect(row).toHaveAttribute(name, value)
  const mark = dockPane(page, 'ladder').locator(`[data-testid="ladder-own-order"][data-order-id="${id}"]`)
  await expect(mark).toHaveAttribute('data-qty', '3')
  await expect(levelRow(page, 'bid', price).getByTestId('ladder-own-order')).not.toHaveCount(0)
  await page.screenshot({ path: test.info().outputPath('ladder-own-order.png') })
  await row.getByTestId('order-cancel').click()
  await expect(row).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 })
  await expect(mark).toHaveCount(0)

  // Again, cancelled from its mark on the ladder.
  await restingBuy(page, 4, 2)
  const second = await send(page)
  const secondMark = dockPane(page, 'ladder').locator(
    `[data-testid="ladder-own-order"][data-order-id="${second}"]`,
  )
  await expect(secondMark).toHaveAttribute('data-qty', '2', { timeout: 30_000 })
  await secondMark.click()
  await expect(orderRow(page, second)).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 })
  await expect(secondMark).toHaveCount(0)
})

test('cancel-all cancels every open order, from the button and from Ctrl+Shift+X', async ({ page }) => {
  await ready(page)
  await setOneClick(page, true)
  const ids: string[] = []
  for (const [level, qty] of [
    [3, 4],
    [4, 5],
    [5, 6],
  ] as const) {
    await restingBuy(page, level, qty)
    ids.push(await send(page, false))
  }
  for (const id of ids)
    await expect(orderRow(page, id)).toHaveAttribute('data-state', 'open', { timeout: 30_000 })
  // With confirmations on, it asks first.
  await setOneClick(page, false)
  await dockPane(page, 'account').getByTestId('cancel-all').click()
  await expect(page.getByTestId('cancel-all-dialog')).toBeVisible()
  await page.getByTestId('cancel-all-confirm').click()
  for (const id of ids)
    await expect(orderRow(page, id)).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 })
  await expect(dockPane(page, 'account').getByTestId('cancel-all-result')).toHaveAttribute('data-ok', 'true')

  // The hotkey does the same, from anywhere in the window.
  await setOneClick(page, true)
  const more: string[] = []
  for (const [level, qty] of [
    [3, 7],
    [5, 8],
  ] as const) {
    await restingBuy(page, level, qty)
    more.push(await send(page, false))
  }
  for (const id of more)
    await expect(orderRow(page, id)).toHaveAttribute('data-state', 'open', { timeout: 30_000 })
  await setOneClick(page, false)
  await page.locator('body').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('Control+Shift+X')
  await page.getByTestId('cancel-all-confirm').click()
  for (const id of more)
    await expect(orderRow(page, id)).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 })
})

test('a held Enter sends one order', async ({ page }) => {
  await ready(page)
  const blotterSent = async () => {
    await page.locator('.dv-tab', { hasText: 'Blotter' }).click()
    // Counted once the pane has read the engine's whole journal, not from what the store held before it opened.
    await expect(dockPane(page, 'blotter').getByTestId('blotter')).toHaveAttribute('data-loaded', 'true')
    const n = await dockPane(page, 'blotter')
      .locator('[data-testid="blotter-row"][data-action="place"][data-outcome="sent"][data-qty="9"]')
      .count()
    await page.locator('.dv-tab', { hasText: 'Account' }).click()
    return n
  }
  const before = await blotterSent()
  const price = await restingBuy(page, 4, 9)
  const ours = dockPane(page, 'account').locator(
    `[data-testid="order-row"][data-qty="9"][data-price="${price}"][data-state="open"]`,
  )
  const openBefore = await ours.count()

  // Confirmations on: the held key opens the question once and answers nothing.
  await ticket(page).getByTestId('order-qty').focus()
  await page.keyboard.down('Enter')
  await expect(page.getByTestId('order-confirm-dialog')).toBeVisible()
  for (let i = 0; i < 15; i++) await page.keyboard.down('Enter')
  await page.keyboard.up('Enter')
  await expect(page.getByTestId('order-confirm-dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('order-confirm-dialog')).toHaveCount(0)

  // One-click: the held key sends one order.
  await setOneClick(page, true)
  await ticket(page).getByTestId('order-qty').focus()
  await page.keyboard.down('Enter')
  for (let i = 0; i < 15; i++) await page.keyboard.down('Enter')
  await page.keyboard.up('Enter')
  const sent = ticket(page).getByTestId('ticket-order')
  await expect(sent).toHaveAttribute('data-state', 'open', { timeout: 30_000 })
  // Whatever else was to come has come by the time the blotter has the engine's answer to the first.
  await page.locator('.dv-tab', { hasText: 'Blotter' }).click()
  await expect(
    dockPane(page, 'blotter').locator(
      `[data-testid="blotter-row"][data-action="place"][data-outcome="accepted"][data-order-id="${await sent.getAttribute('data-order-id')}"]`,
    ),
  ).toHaveCount(1, { timeout: 30_000 })
  await page.locator('.dv-tab', { hasText: 'Account' }).click()
  expect(await blotterSent()).toBe(before + 1)
  await expect(ours).toHaveCount(openBefore + 1)
  await setOneClick(page, false)
  await orderRow(page, (await sent.getAttribute('data-order-id')) as string)
    .getByTestId('order-cancel')
    .click()
})

test('the blotter, a tab beside the account, lists today’s order actions and exports them', async ({
  page,
}) => {
  await ready(page)
  const tabs = page.locator('.dv-groupview', { has: dockPane(page, 'account') }).locator('.dv-tab')
  await expect(tabs).toHaveText(['Account', 'Blotter', 'Alerts'])
  await restingBuy(page, 4, 11)
  const id = await send(page)
  await orderRow(page, id).getByTestId('order-cancel').click()
  await expect(orderRow(page, id)).toHaveAttribute('data-state', 'cancelled', { timeout: 30_000 })
  await page.locator('.dv-tab', { hasText: 'Blotter' }).click()
  const blotter = dockPane(page, 'blotter')
  const ofOrder = `[data-testid="blotter-row"][data-order-id="${id}"]`
  await expect(blotter.locator(`${ofOrder}[data-action="place"][data-outcome="accepted"]`)).toHaveCount(1)
  await expect(blotter.locator(`${ofOrder}[data-action="cancel"]`).first()).toBeVisible()
  await page.screenshot({ path: test.info().outputPath('blotter.png') })
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    blotter.getByTestId('blotter-export').click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^journal-\d{8}-\d{6}\.csv$/)
  const lines = (await readFile(await download.path(), 'utf8')).split('\r\n')
  expect(lines[0]).toBe(
    'time,mode,action,result,market,event,market_title,side,outcome,kind,price,quantity,status,code,message,rtt_ms,order_id,venue_id',
  )
  expect(lines.some((l) => l.includes(`,${id},`))).toBe(true)
  // The layout with the blotter in it is saved and restored like any other: no notice.
  await expect(page.getByTestId('workspace-notice')).toHaveCount(0)
})
