// The depth chart and the virtualised trade tape against the demo simulator: the chart draws the live book
// (pixels in the bid and ask colours, the number of drawn levels), the tape's minimum-size filter hides smaller
// trades, the big-trade rule marks trades, and a tape scrolled away from the top keeps its rows in place while
// trades arrive, with a "N new" button back to the top. Both are panes of the docked main window.
import { expect, test, type Locator } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive } from './helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

/** Pixels of the depth canvas within a few levels of the theme's --buy and --sell colours. */
async function depthPixels(chart: Locator): Promise<{ buy: number; sell: number }> {
  return chart.evaluate((root) => {
    const doc = root.ownerDocument
    const css = doc.defaultView?.getComputedStyle(doc.documentElement)
    const rgb = (name: string) => {
      const hex = (css?.getPropertyValue(name) ?? '').trim().replace('#', '')
      return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16))
    }
    const buy = rgb('--buy')
    const sell = rgb('--sell')
    const near = (d: Uint8ClampedArray, i: number, c: number[]) =>
      Math.abs((d[i] ?? 0) - (c[0] ?? 0)) < 12 &&
      Math.abs((d[i + 1] ?? 0) - (c[1] ?? 0)) < 12 &&
      Math.abs((d[i + 2] ?? 0) - (c[2] ?? 0)) < 12
    const canvas = root.querySelector('canvas')
    const out = { buy: 0, sell: 0 }
    const ctx = canvas?.getContext('2d')
    if (!canvas || !ctx || canvas.width === 0 || canvas.height === 0) return out
    const d: Uint8ClampedArray = ctx.getImageData(0, 0, canvas.width, canvas.height).data
    for (let i = 0; i < d.length; i += 4) {
      if ((d[i + 3] ?? 0) < 250) continue
      if (near(d, i, buy)) out.buy++
      else if (near(d, i, sell)) out.sell++
    }
    return out
  })
}

const sizesOf = (rows: Locator) =>
  rows.evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-size'))))

test('the depth chart draws the live book, with a readout under the pointer', async ({ page }) => {
  await openLive(page, host.url)
  const market = await openFirstMarket(page)
  // The default workspace docks a depth pane: without one this test fails, it never skips.
  const pane = page.locator('[data-testid="dock-pane"][data-pane="depth"]')
  await expect(pane).toHaveCount(1)
  const chart = pane.getByTestId('depth-chart')
  await expect(chart).toHaveAttribute('data-market', market)
  await expect(chart).toHaveAttribute('data-state', 'live', { timeout: 60_000 })
  await expect.poll(async () => Number(await chart.getAttribute('data-levels'))).toBeGreaterThan(2)
  await expect
    .poll(async () => {
      const px = await depthPixels(chart)
      return Math.min(px.buy, px.sell)
    })
    .toBeGreaterThan(50)

  // Pointing a quarter of the way in (the bid side of a book around its mid) shows the price and the size bid.
  const box = await chart.locator('canvas').boundingBox()
  expect(box).not.toBeNull()
  if (box) await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.5)
  await expect(page.getByTestId('depth-readout')).toBeVisible()
  await expect(page.getByTestId('depth-readout')).toContainText(/\d/)
  await page.screenshot({ path: test.info().outputPath('depth-tape.png') })
})

test('the tape filters by size, marks big trades and keeps its place when scrolled', async ({ page }) => {
  test.setTimeout(180_000)
  await openLive(page, host.url)
  const market = await openFirstMarket(page)
  // The default workspace docks a tape: without one this test fails, it never skips.
  const tape = page.getByTestId('trade-tape').first()
  await expect(tape).toBeVisible()
  await expect(tape).toHaveAttribute('data-market', market)
  const rows = tape.getByTestId('trade-row')
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBeGreaterThan(8)

  // Minimum size: a threshold in the middle of what is shown; every row left is at least that big.
  const sizes = (await sizesOf(rows)).sort((a, b) => a - b)
  const threshold = sizes[Math.floor(sizes.length / 2)] as number
  expect(threshold).toBeGreaterThan(0)
  await tape.getByTestId('tape-filter-min-size').fill(String(threshold))
  await expect.poll(async () => (await sizesOf(rows)).every((s) => s >= threshold)).toBe(true)
  await expect.poll(() => rows.count()).toBeGreaterThan(0)
  await tape.getByTestId('tape-filter-min-size').fill('')

  // Big trades: the largest quarter of what is shown, by absolute size.
  const bigFrom = sizes[Math.floor(sizes.length * 0.75)] as number
  await tape.getByTestId('tape-big-toggle').click()
  await tape.getByTestId('tape-big-size').fill(String(bigFrom))
  await page.keyboard.press('Escape')
  await expect
    .poll(() => tape.locator('[data-testid="trade-row"][data-big="true"]').count())
    .toBeGreaterThan(0)
  const marks = await rows.evaluateAll((rs) =>
    rs.map((r) => [Number(r.getAttribute('data-size')), r.getAttribute('data-big') === 'true'] as const),
  )
  for (const [size, big] of marks) expect(big).toBe(size >= bigFrom)
  await page.screenshot({ path: test.info().outputPath('tape-filters.png') })

  // Scrolled away from the top: the row in view stays where it is while trades arrive, "N new" counts them,
  // and the button goes back to the newest.
  const scroller = tape.getByTestId('tape-scroll')
  await expect
    .poll(() => scroller.evaluate((el) => el.scrollHeight - el.clientHeight), { timeout: 90_000 })
    .toBeGreaterThan(60)
  // Scrolling alone shows no "N new": checked while nothing trades. The venue is frozen, and the book leaving
  // live says the page has every trade sent before (batches arrive in order), so none can land mid-check.
  expect(await host.fault('freeze')).toBe(200)
  await expect(page.getByTestId('orderbook')).not.toHaveAttribute('data-state', 'live', { timeout: 60_000 })
  // The row at the top edge of the tape's box, and its offset there.
  const probe = () =>
    scroller.evaluate((el) => {
      const r = el.getBoundingClientRect()
      const hit = el.ownerDocument
        .elementFromPoint(r.left + r.width / 2, r.top + 4)
        ?.closest('[data-testid="trade-row"]')
      return {
        key: hit ? hit.getAttribute('data-key') : null,
        top: hit ? Math.round(hit.getBoundingClientRect().top - r.top) : null,
      }
    })
  await scroller.evaluate((el) => {
    el.scrollTop = 40
  })
  await expect(tape.getByTestId('tape-new')).toHaveCount(0)
  const before = await probe()
  expect(before.key).not.toBeNull()
  expect(await host.fault('unfreeze')).toBe(200)
  await expect(tape.getByTestId('tape-new')).toBeVisible({ timeout: 60_000 })
  expect(await probe()).toEqual(before)
  await page.screenshot({ path: test.info().outputPath('tape-scrolled.png') })
  await tape.getByTestId('tape-new').click()
  await expect(tape.getByTestId('tape-new')).toHaveCount(0)
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0)
})
