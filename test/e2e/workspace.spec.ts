// The docked workspace in the main window against the demo simulator: the default layout, building a workspace
// (split, tab, move a pane) that a relaunch restores, a corrupt saved layout falling back with a notice,
// switching from quick open, the help overlay, and a watchlist with live prices.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { withSettingsHost } from './host'
import { dockPane, openFirstMarket, openLive } from './helpers'

let dir: string
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tm-e2e-workspace-'))
})
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

test('the default workspace shows every market pane for the selected market', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  const settings = path.join(dir, 'default.json')
  await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    const market = await openFirstMarket(page)
    for (const kind of ['ladder', 'depth', 'chart', 'tape'])
      await expect(dockPane(page, kind)).toHaveAttribute('data-market', market)
    await expect(page.getByTestId('orderbook')).toHaveAttribute('data-state', 'live')
    await expect(page.getByTestId('depth-chart')).toHaveAttribute('data-market', market)
    // The tape filtered by size shows only trades at least that big, of this market.
    await expect.poll(() => dockPane(page, 'tape').getByTestId('trade-row').count()).toBeGreaterThan(0)
    await page.getByTestId('tape-filter-min-size').fill('100')
    await expect
      .poll(async () => {
        const rows = await dockPane(page, 'tape')
          .getByTestId('trade-row')
          .evaluateAll((els) =>
            els.map((r) => [r.getAttribute('data-market'), Number(r.getAttribute('data-size'))]),
          )
        return rows.length > 0 && rows.every(([m, size]) => m === market && Number(size) >= 100)
      })
      .toBe(true)
    await page.screenshot({ path: test.info().outputPath('default-workspace.png') })

    // Pin the tape to this market; the other panes follow the next selection, the tape does not.
    await dockPane(page, 'tape').click({ position: { x: 10, y: 80 } })
    await page
      .locator('.dv-groupview', { has: dockPane(page, 'tape') })
      .getByTestId('pane-link')
      .click()
    await expect(
      page.locator('.dv-groupview', { has: dockPane(page, 'tape') }).getByTestId('pane-link'),
    ).toHaveAttribute('aria-pressed', 'true')
    // The pinned market's title, as the market pane's header shows it before the selection moves on.
    const pinnedTitle =
      (await dockPane(page, 'ladder').locator('.market-title h2').getAttribute('title')) ?? ''
    expect(pinnedTitle).not.toBe('')
    const other = page.getByTestId('market-row').nth(1)
    const second = (await other.getAttribute('data-market')) as string
    expect(second).not.toBe(market)
    await other.click()
    await expect(dockPane(page, 'ladder')).toHaveAttribute('data-market', second)
    await expect(dockPane(page, 'depth')).toHaveAttribute('data-market', second)
    await expect(dockPane(page, 'tape')).toHaveAttribute('data-market', market)
    // The pinned pane's tab names its market (by the listing's words, not its id).
    const pinnedTab = page.locator('.dv-tab', { hasText: /^Trades · / })
    await expect(pinnedTab).toBeVisible()
    await expect(pinnedTab).not.toContainText(market)
    await expect(pinnedTab).toContainText(pinnedTitle)
  })
})

/** Each group's tab titles, sorted: the shape of the layout, independent of sizes and ids. */
async function groups(page: Page): Promise<string[]> {
  return page.evaluate(`(() =>
    [...document.querySelectorAll('.dv-groupview')]
      .map((g) => [...g.querySelectorAll('.dv-tab')].map((t) => t.textContent.trim()).sort().join('+'))
      .filter((s) => s.length > 0)
      .sort()
  )()`)
}

function tab(page: Page, title: string) {
  return page.locator('.dv-tab', { hasText: new RegExp(`^${title}$`) })
}

async function contentBox(page: Page, kind: string) {
  const box = await dockPane(page, kind).boundingBox()
  if (!box) throw new Error(`no ${kind} pane on screen`)
  return box
}

test('a workspace built by dragging (split, tab, move) is restored after a relaunch', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  const settings = path.join(dir, 'built.json')
  const built = await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    await openFirstMarket(page)
    // Tab: the depth chart joins the chart's group.
    const chart = await contentBox(page, 'chart')
    await tab(page, 'Depth').dragTo(page.locator('.dv-groupview', { has: dockPane(page, 'chart') }), {
      targetPosition: { x: chart.width / 2, y: chart.height / 2 },
    })
    // Split: the alerts pane goes below the ladder.
    await tab(page, 'Alerts').dragTo(page.locator('.dv-groupview', { has: dockPane(page, 'ladder') }), {
      targetPosition: { x: 150, y: (await contentBox(page, 'ladder')).height - 5 },
    })
    // Move: the trades pane goes to the right of the account.
    await tab(page, 'Trades').dragTo(page.locator('.dv-groupview', { has: dockPane(page, 'account') }), {
      targetPosition: { x: (await contentBox(page, 'account')).width - 5, y: 200 },
    })
    const shape = await groups(page)
    expect(shape).toContain('Chart+Depth')
    expect(shape).toContain('Alerts')
    expect(shape).toContain('Trades')
    // Saved to the settings file (debounced), with the window's choice.
    await expect
      .poll(async () => {
        const doc = JSON.parse(await readFile(settings, 'utf8').catch(() => '{}')) as {
          workspaces?: { id: string; layout: { panels: Record<string, unknown> } }[]
        }
        return doc.workspaces?.find((w) => w.id === 'default') !== undefined
      })
      .toBe(true)
    await page.waitForTimeout(1000)
    await page.screenshot({ path: test.info().outputPath('built-before-relaunch.png') })
    return shape
  })
  await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    await expect.poll(() => groups(page)).toEqual(built)
    await openFirstMarket(page)
    await page.screenshot({ path: test.info().outputPath('built-after-relaunch.png') })
  })
})

test('save as, a corrupt saved layout falls back with a notice, switching from quick open, help', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  const settings = path.join(dir, 'corrupt.json')
  const defaultShape = await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    await expect(dockPane(page, 'ladder')).toBeVisible()
    const shape = await groups(page)
    // Save the layout on screen under a name: the window now shows it.
    await page.getByTestId('workspace-actions').selectOption('save-as')
    await page.getByTestId('workspace-name').fill('Scalping')
    await page.getByTestId('workspace-save').click()
    await expect(page.getByTestId('workspace-select').locator('option:checked')).toHaveText('Scalping')
    await expect
      .poll(async () => (await readFile(settings, 'utf8').catch(() => '')).includes('"Scalping"'))
      .toBe(true)
    return shape
  })

  // Damage: a second workspace whose grid names a pane it does not have, shown by the main window.
  const doc = JSON.parse(await readFile(settings, 'utf8')) as {
    workspaces: { id: string; name: string; layout: { grid: { root: unknown } } }[]
    windowWorkspaces: { window: string; workspace: string }[]
  }
  const scalping = doc.workspaces.find((w) => w.name === 'Scalping')
  if (!scalping) throw new Error('Scalping was not saved')
  const broken = structuredClone(scalping)
  broken.id = 'ws-broken'
  broken.name = 'Broken'
  broken.layout.grid.root = {
    type: 'branch',
    size: 600,
    data: [{ type: 'leaf', size: 600, data: { views: ['ghost-pane'], activeView: 'ghost-pane', id: '1' } }],
  }
  doc.workspaces.push(broken)
  doc.windowWorkspaces = [{ window: 'main', workspace: 'ws-broken' }]
  await writeFile(settings, JSON.stringify(doc))

  await withSettingsHost(settings, async (host) => {
    await openLive(page, host.url)
    await expect(page.getByTestId('workspace-notice')).toContainText('“Broken” could not be restored')
    await expect.poll(() => groups(page)).toEqual(defaultShape)
    await page.screenshot({ path: test.info().outputPath('corrupt-fallback.png') })
    // Both saved workspaces are still there, the broken one untouched.
    const names = await page.getByTestId('workspace-select').locator('option').allTextContents()
    expect(names).toEqual(expect.arrayContaining(['Default', 'Scalping', 'Broken']))
    const after = JSON.parse(await readFile(settings, 'utf8')) as typeof doc
    expect(after.workspaces.find((w) => w.id === 'ws-broken')).toEqual(broken)

    // Quick open switches workspaces.
    await page.keyboard.press('Control+k')
    await page.getByTestId('quick-open-input').fill('Scalping')
    await expect(page.getByTestId('quick-open-item').first()).toHaveAttribute('data-kind', 'workspace')
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('workspace-select').locator('option:checked')).toHaveText('Scalping')

    // The help overlay lists the shortcuts; Escape closes it.
    await page.locator('body').press('?')
    await expect(page.getByTestId('help-overlay')).toContainText('F6')
    await page.screenshot({ path: test.info().outputPath('help.png') })
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('help-overlay')).toHaveCount(0)
  })
})

test('three starred markets show live prices in the watchlist', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  await withSettingsHost(path.join(dir, 'watch.json'), async (host) => {
    await openLive(page, host.url)
    await page.getByTestId('event-row').first().click()
    const rows = page.getByTestId('market-row')
    await expect(rows.nth(2)).toBeVisible()
    const markets: string[] = []
    for (let i = 0; i < 3; i++) {
      const row = rows.nth(i)
      markets.push((await row.getAttribute('data-market')) as string)
      await row.getByTestId('watch-toggle').click()
      await expect(row.getByTestId('watch-toggle')).toHaveAttribute('aria-pressed', 'true')
    }
    await tab(page, 'Watchlist').click()
    const list = page.getByTestId('watchlist')
    await expect(list).toHaveAttribute('data-count', '3')
    const watchRows = list.getByTestId('watchlist-row')
    await expect
      .poll(() => watchRows.evaluateAll((r) => r.map((x) => x.getAttribute('data-market'))))
      .toEqual(markets)
    // Live prices: every row gets a bid and an ask from its own subscription, and says it is live.
    for (let i = 0; i < 3; i++) {
      const row = watchRows.nth(i)
      await expect(row).toHaveAttribute('data-state', 'live', { timeout: 20_000 })
      await expect(row.getByTestId('watch-bid')).not.toHaveText('—')
      await expect(row.getByTestId('watch-ask')).not.toHaveText('—')
    }
    // Keyboard: Alt+↓ moves the first row down; Delete removes the row under the cursor.
    await list.locator('.watch-body').focus()
    await page.keyboard.press('Alt+ArrowDown')
    await expect
      .poll(() => watchRows.evaluateAll((r) => r.map((x) => x.getAttribute('data-market'))))
      .toEqual([markets[1], markets[0], markets[2]])
    await page.screenshot({ path: test.info().outputPath('watchlist.png') })
    await page.keyboard.press('Delete')
    await expect(list).toHaveAttribute('data-count', '2')
  })
})

test('the keyboard reaches every pane: F6 walks the groups, Alt+Shift+letter shows a pane, Alt+W stars', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  await withSettingsHost(path.join(dir, 'keys.json'), async (host) => {
    await openLive(page, host.url)
    const market = await openFirstMarket(page)
    const focusedPane = () =>
      page.evaluate(
        `(() => document.activeElement?.closest('[data-testid="dock-pane"]')?.getAttribute('data-pane') ?? null)()`,
      )
    // F6 from nowhere lands in the first group (left), then walks every group once before coming back.
    await page.locator('body').click({ position: { x: 5, y: 5 } })
    const visited: unknown[] = []
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('F6')
      visited.push(await focusedPane())
    }
    expect(visited).toEqual(['events', 'ladder', 'depth', 'chart', 'tape', 'account'])
    await page.keyboard.press('Shift+F6')
    expect(await focusedPane()).toBe('tape')
    // A pane that is not in the layout is added next to the active one and focused.
    await page.keyboard.press('Alt+Shift+KeyI')
    await expect(dockPane(page, 'inspector')).toBeVisible()
    // Alt+W stars the selected market on the watchlist.
    await page.keyboard.press('Alt+KeyW')
    await expect(dockPane(page, 'ladder').getByTestId('watch-toggle')).toHaveAttribute('aria-pressed', 'true')
    await tab(page, 'Watchlist').click()
    await expect(page.getByTestId('watchlist-row')).toHaveAttribute('data-market', market)
  })
})
