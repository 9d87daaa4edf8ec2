// Positions marked to market in the account pane (demo mode): each P&L cell is a number or an explained "—",
// live and with the stream stalled, and the fills export downloads a CSV. Saves pnl.png (the window, with
// fills), pnl-live.png and pnl-not-live.png (the pane) in the test's output folder. The pane is found by test
// ids, not by where the layout puts it.
import { readFile } from 'node:fs/promises'
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

const AMOUNT = /^-?\d{1,3}(,\d{3})*\.\d{2}$/

interface Cell {
  text: string
  title: string
  /** The text is wider than the cell (shown with an ellipsis). */
  cut: boolean
}

interface Row {
  market: string
  source: string
  live: string
  avg: Cell
  mark: Cell
  upnl: Cell
  rpnl: Cell
}

// Browser-side code is passed as source text (the e2e files typecheck without the DOM), as in helpers.ts.
const READ_ROWS = `(() => {
  const rows = document.querySelectorAll('[data-testid="account-pane"] [data-testid="position-row"]')
  const cell = (tr, id) => {
    const td = tr.querySelector('[data-testid="' + id + '"]')
    if (!td) return { text: '', title: '', cut: false }
    // A number cut off by its column ("0.5…") is as wrong as a wrong number.
    const range = document.createRange()
    range.selectNodeContents(td)
    const style = getComputedStyle(td)
    const room =
      td.getBoundingClientRect().width -
      parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) -
      parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth)
    return {
      text: td.textContent || '',
      title: td.getAttribute('title') || '',
      cut: range.getBoundingClientRect().width > room + 0.05,
    }
  }
  return Array.from(rows, (tr) => {
    const mark = tr.querySelector('[data-testid="position-mark"]')
    return {
      market: tr.getAttribute('data-market') || '',
      source: mark ? mark.getAttribute('data-source') : '',
      live: mark ? mark.getAttribute('data-live') : '',
      avg: cell(tr, 'position-avg'),
      mark: cell(tr, 'position-mark'),
      upnl: cell(tr, 'position-upnl'),
      rpnl: cell(tr, 'position-rpnl'),
    }
  })
})()`

/** Every row's mark and P&L cells: an amount, or "—" with the reason as its tooltip; none cut off. */
async function checkCells(page: Page): Promise<Row[]> {
  const cells = (await page.evaluate(READ_ROWS)) as Row[]
  expect(cells.length).toBeGreaterThan(0)
  for (const c of cells) {
    for (const v of [c.avg, c.mark, c.upnl, c.rpnl])
      expect(v.cut, `${c.market}: "${v.text}" fits its column`).toBe(false)
    for (const v of [c.upnl, c.rpnl]) {
      if (v.text === '—') expect(v.title, `${c.market}: a "—" says why`).not.toBe('')
      else expect(v.text, `${c.market}: an amount`).toMatch(AMOUNT)
    }
    if (c.source === 'none') {
      expect(c.mark.text).toBe('—')
      expect(c.mark.title).not.toBe('')
    }
    // In the unit the app shows, cents by default, as the ladder: "mid50.5¢", "last49¢".
    else expect(c.mark.text).toMatch(new RegExp(`^${c.source}\\d{1,3}(\\.\\d{1,2})?¢$`))
  }
  return cells
}

test('positions show a mark and P&L, or say why not; fills export as CSV', async ({ page }) => {
  test.setTimeout(180_000)
  await openLive(page, host.url)
  await useDemoKey(page)
  const pane = page.getByTestId('account-pane')
  const rows = pane.getByTestId('position-row')
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBeGreaterThan(0)
  // Each row watches its own market: wait until some mark comes from a live mid.
  await expect(pane.locator('[data-testid="position-mark"][data-source="mid"]').first()).toBeVisible({
    timeout: 60_000,
  })

  const cells = await checkCells(page)
  // The demo venue sends an average price and realised P&L: at least one row has both.
  expect(cells.some((c) => AMOUNT.test(c.upnl.text) && AMOUNT.test(c.rpnl.text))).toBe(true)
  await expect(pane.getByTestId('pnl-note')).toHaveCount(0)
  const total = pane.getByTestId('positions-total')
  await expect(total).toBeVisible()
  await expect(total).toContainText('Total')

  await pane.screenshot({ path: test.info().outputPath('pnl-live.png') })

  // The stream stalls: books go quiet, then stale. Marks fall back to the last trade (or to "—"), not-live.
  expect(await host.fault('stall')).toBe(200)
  try {
    await expect(pane.locator('[data-testid="position-mark"][data-live="true"]')).toHaveCount(0, {
      timeout: 30_000,
    })
    // The dot turns amber once every watched market that has spoken is quiet, or at the first rebuild for silence
    // (docs/liveness.md, "Venue silent"). The positions' busy markets go quiet first, while a slower market may still
    // be inside its own rhythm for a few seconds: so wait for the pause, then hold both to it.
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-paused', 'true', {
      timeout: 30_000,
    })
    // The engine rebuilds the silent socket every few seconds and fetches each book over REST. Such a book is
    // true as of its fetch but nothing streams behind it, so no mark may turn live again while the stall lasts:
    // watch through several rebuilds, not one moment.
    const until = Date.now() + 10_000
    while (Date.now() < until) {
      const stalled = await checkCells(page)
      const live = stalled.filter((c) => c.live !== 'false' || c.source === 'mid')
      expect(
        live.map((c) => `${c.market}: ${c.source} ${c.mark.text}`),
        'marks live during a stall',
      ).toEqual([])
      // Nor may the status bar's dot: connected but paused is amber, not the live green.
      expect(await page.getByTestId('connection-status').locator('.dot').getAttribute('class')).not.toContain(
        'dot-live',
      )
      await page.waitForTimeout(150)
    }
    await pane.screenshot({ path: test.info().outputPath('pnl-not-live.png') })
  } finally {
    expect(await host.fault('unstall')).toBe(200)
  }
  await expect(pane.locator('[data-testid="position-mark"][data-source="mid"]').first()).toBeVisible({
    timeout: 60_000,
  })

  // Fills come as the demo trader's orders fill.
  const exportButton = pane.getByTestId('fills-export')
  await expect(exportButton).toBeEnabled({ timeout: 90_000 })
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()])
  expect(download.suggestedFilename()).toMatch(/^fills-\d{8}-\d{6}\.csv$/)
  const text = await readFile(await download.path(), 'utf8')
  const lines = text.split('\r\n')
  expect(lines[0]).toBe('time,market,event,market_title,price,size,side,order_id,fill_id,mode')
  expect(lines.length).toBeGreaterThan(2)
  await checkCells(page)
  await page.screenshot({ path: test.info().outputPath('pnl.png') })
  // The filled market is listed: its event and market titles follow its id (quoted when they hold a comma).
  const title = '(?:"(?:[^"]|"")+"|[^,"]+)'
  expect(lines[1]).toMatch(
    new RegExp(
      `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z,[^,]+,${title},${title},[\\d.]+,[\\d.]+,(buy|sell),`,
    ),
  )
})
