// What was on screen comes back: the main window's selected market and a pane pinned to another survive a
// reload and a restart of the host on the same settings file; a remembered market the listing no longer holds
// is shown by id with a "not in the listing" note; a market window opened by URL keeps its own market; two pages
// of the main view each come back to their own market.
import { readFile, writeFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { withSettingsHost } from './host'
import { dockPane, openFirstMarket, openLive } from './helpers'

interface Doc {
  windowMarkets?: { window: string; market: string }[]
  workspaces?: { id: string; layout: { panels: Record<string, { params?: { market?: string } }> } }[]
}

async function readDoc(file: string): Promise<Doc> {
  return JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Doc
}

/** The main window's remembered market and the markets its saved default layout pins, from the file. */
async function saved(file: string): Promise<{ selected: string | null; pinned: string[] }> {
  const doc = await readDoc(file)
  const layout = doc.workspaces?.find((w) => w.id === 'default')?.layout
  return {
    selected: doc.windowMarkets?.find((w) => w.window === 'main')?.market ?? null,
    pinned: Object.values(layout?.panels ?? {}).flatMap((p) => (p.params?.market ? [p.params.market] : [])),
  }
}

async function expectRestored(page: Page, selected: string, pinned: string): Promise<void> {
  for (const kind of ['ladder', 'depth', 'chart'])
    await expect(dockPane(page, kind)).toHaveAttribute('data-market', selected, { timeout: 30_000 })
  await expect(dockPane(page, 'tape')).toHaveAttribute('data-market', pinned)
  await expect(page.getByTestId('market-pane-empty')).toHaveCount(0)
  await expect(page.getByTestId('pane-not-listed')).toHaveCount(0)
}

test('the selected market and a pinned pane survive a reload and a restart on the same settings file', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  const settings = test.info().outputPath('restore.json')
  const { first, second } = await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    const first = await openFirstMarket(page)
    // Pin the tape to the first market, then select another: the tape stays, the rest follow.
    await dockPane(page, 'tape').click({ position: { x: 10, y: 80 } })
    const tapePin = page.locator('.dv-groupview', { has: dockPane(page, 'tape') }).getByTestId('pane-link')
    await tapePin.click()
    await expect(tapePin).toHaveAttribute('aria-pressed', 'true')
    const other = page.getByTestId('market-row').nth(1)
    const second = (await other.getAttribute('data-market')) as string
    expect(second).not.toBe(first)
    await other.click()
    await expect(dockPane(page, 'ladder')).toHaveAttribute('data-market', second)
    await expect
      .poll(() => saved(settings), { timeout: 15_000 })
      .toEqual({ selected: second, pinned: [first] })

    await page.reload()
    await expectRestored(page, second, first)

    // A pin reloaded away at once, before the debounced save: written as the page goes.
    await dockPane(page, 'chart').click({ position: { x: 10, y: 80 } })
    const chartPin = page.locator('.dv-groupview', { has: dockPane(page, 'chart') }).getByTestId('pane-link')
    await chartPin.click()
    await expect(chartPin).toHaveAttribute('aria-pressed', 'true')
    await page.reload()
    await expect(dockPane(page, 'chart')).toHaveAttribute('data-market', second, { timeout: 30_000 })
    await expect(chartPin).toHaveAttribute('aria-pressed', 'true')
    await expect
      .poll(async () => (await saved(settings)).pinned.sort(), { timeout: 15_000 })
      .toEqual([first, second].sort())
    return { first, second }
  })

  await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    await expectRestored(page, second, first)
    // A market window opened by URL shows its own market, not the one the main window remembers.
    const win = await page.context().newPage()
    try {
      await win.goto(host.page({ view: 'market', market: first }))
      await expect(dockPane(win, 'ladder')).toHaveAttribute('data-market', first, { timeout: 30_000 })
    } finally {
      await win.close()
    }
    // Choosing nothing else leaves the main window's choice as it was.
    expect((await saved(settings)).selected).toBe(second)
  })
})

test('two pages of the main view each reload to their own market, and a new page opens on the last one picked', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  const settings = test.info().outputPath('pages.json')
  await withSettingsHost(settings, async (host) => {
    const ladderOf = (p: Page) => dockPane(p, 'ladder')
    await openLive(page, host.url)
    const first = await openFirstMarket(page)
    await expect.poll(async () => (await saved(settings)).selected).toBe(first)

    const other = await page.context().newPage()
    try {
      await other.setViewportSize({ width: 1600, height: 950 })
      await openLive(other, host.url)
      // A new page starts where the main view was last left.
      await expect(ladderOf(other)).toHaveAttribute('data-market', first, { timeout: 30_000 })
      await other.getByTestId('event-row').first().click()
      const row = other.getByTestId('market-row').nth(1)
      const second = (await row.getAttribute('data-market')) as string
      expect(second).not.toBe(first)
      await row.click()
      await expect(ladderOf(other)).toHaveAttribute('data-market', second)
      await expect.poll(async () => (await saved(settings)).selected).toBe(second)

      // Each page, reloaded, shows its own market, not the one the other picked last.
      await page.reload()
      await expect(ladderOf(page)).toHaveAttribute('data-market', first, { timeout: 30_000 })
      await other.reload()
      await expect(ladderOf(other)).toHaveAttribute('data-market', second, { timeout: 30_000 })
      await page.reload()
      await expect(ladderOf(page)).toHaveAttribute('data-market', first, { timeout: 30_000 })

      const third = await page.context().newPage()
      try {
        await openLive(third, host.url)
        await expect(ladderOf(third)).toHaveAttribute('data-market', second, { timeout: 30_000 })
      } finally {
        await third.close()
      }
    } finally {
      await other.close()
    }
  })
})

test('a remembered market the listing no longer holds is shown by id with a note, and another can be picked', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  const settings = test.info().outputPath('gone.json')
  await writeFile(
    settings,
    JSON.stringify({ version: 1, windowMarkets: [{ window: 'main', market: 'market-that-closed' }] }),
  )
  await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    await expect(dockPane(page, 'ladder')).toHaveAttribute('data-market', 'market-that-closed')
    const note = dockPane(page, 'ladder').getByTestId('pane-not-listed')
    await expect(note).toContainText('market-that-closed')
    await expect(note).toContainText('not in the events listing')
    const market = await openFirstMarket(page)
    await expect(dockPane(page, 'ladder')).toHaveAttribute('data-market', market)
    await expect(page.getByTestId('pane-not-listed')).toHaveCount(0)
    await expect.poll(async () => (await saved(settings)).selected).toBe(market)

    // A market window of an unlisted market says so once, in its banner, not again in each pane.
    const win = await page.context().newPage()
    try {
      await win.goto(host.page({ view: 'market', market: 'market-that-closed' }))
      await expect(dockPane(win, 'ladder')).toHaveAttribute('data-market', 'market-that-closed', {
        timeout: 30_000,
      })
      await expect(win.getByText('This market is not in the current events listing')).toBeVisible()
      await expect(win.getByTestId('pane-not-listed')).toHaveCount(0)
    } finally {
      await win.close()
    }
  })
})
