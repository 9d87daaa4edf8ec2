// The packaged shape of the app, driven through Playwright's Electron support: launch, open a market
// window, quit, relaunch and find the same windows where they were.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import type { ElectronApplication, Page } from '@playwright/test'
import type { MonitorApi } from '../../src/shared/ipc'

const root = join(__dirname, '../..')
const binary = process.env['TM_ELECTRON_BINARY'] ?? process.env['ELECTRON_EXEC_PATH']
let userData = ''

test.skip(!binary, 'run through scripts/electron-e2e.mjs, which finds the Electron binary')

async function launch(): Promise<ElectronApplication> {
  // GitHub's Linux runners forbid the unprivileged user namespaces Chromium's sandbox needs; the per-window
  // sandbox setting is still what the app asks for.
  const args = process.platform === 'linux' && process.env['CI'] === 'true' ? ['--no-sandbox', root] : [root]
  return electron.launch({
    executablePath: binary,
    args,
    env: { ...process.env, TM_DEMO: '1', TM_USER_DATA_DIR: userData } as Record<string, string>,
  })
}

function monitorOf(page: Page): Promise<string> {
  return page.evaluate(() => typeof (globalThis as unknown as { monitor?: MonitorApi }).monitor)
}

async function windowWithView(app: ElectronApplication, view: string): Promise<Page> {
  await expect
    .poll(() => app.windows().some((w) => new URL(w.url()).searchParams.get('view') === view))
    .toBe(true)
  const page = app.windows().find((w) => new URL(w.url()).searchParams.get('view') === view)
  if (!page) throw new Error(`no ${view} window`)
  return page
}

test.describe.serial('Electron shell', () => {
  let marketId = ''
  const marketBounds = { x: 120, y: 90, width: 720, height: 520 }

  test.beforeAll(() => {
    userData = mkdtempSync(join(tmpdir(), 'tm-electron-e2e-'))
  })
  test.afterAll(() => {
    rmSync(userData, { recursive: true, force: true })
  })

  test('launching shows the main window, locked down, with the bridge', async () => {
    const app = await launch()
    try {
      const page = await app.firstWindow()
      await page.waitForLoadState('domcontentloaded')
      expect(new URL(page.url()).protocol).toBe('app:')
      expect(new URL(page.url()).searchParams.get('view')).toBe('main')
      await expect(page.getByTestId('connection-status')).toBeVisible()
      expect(await monitorOf(page)).toBe('object')
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
        'undefined',
      )
      expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe(
        'undefined',
      )
      // Popups never become windows.
      await page.evaluate(() =>
        (globalThis as unknown as { open(url: string): unknown }).open('https://evil.example/'),
      )
      expect(app.windows()).toHaveLength(1)
    } finally {
      await app.close()
    }
  })

  test('opening a market window', async () => {
    const app = await launch()
    try {
      const main = await windowWithView(app, 'main')
      await expect(main.getByTestId('connection-status')).toBeVisible()
      marketId = await main.evaluate(async () => {
        const api = (globalThis as unknown as { monitor: MonitorApi }).monitor
        const listed = await api.listEvents()
        if (!listed.ok) throw new Error(listed.error.message)
        const market = listed.value.flatMap((e) => e.markets)[0]
        if (!market) throw new Error('no markets in the demo listing')
        return market.id
      })
      const opened = app.waitForEvent('window')
      await main.evaluate(
        (market) =>
          (globalThis as unknown as { monitor: MonitorApi }).monitor.openWindow({ kind: 'market', market }),
        marketId,
      )
      const marketPage = await opened
      await marketPage.waitForLoadState('domcontentloaded')
      const url = new URL(marketPage.url())
      expect(url.searchParams.get('view')).toBe('market')
      expect(url.searchParams.get('market')).toBe(marketId)
      await expect(marketPage.getByTestId('orderbook')).toBeVisible()
      await app.evaluate(({ BrowserWindow }, bounds) => {
        const w = BrowserWindow.getAllWindows().find((b) => b.webContents.getURL().includes('view=market'))
        w?.setBounds(bounds)
      }, marketBounds)
    } finally {
      await app.close()
    }
  })

  test('relaunching restores the layout', async () => {
    expect(marketId).not.toBe('')
    const app = await launch()
    try {
      const marketPage = await windowWithView(app, 'market')
      await windowWithView(app, 'main')
      expect(new URL(marketPage.url()).searchParams.get('market')).toBe(marketId)
      const bounds = await app.evaluate(({ BrowserWindow }) => {
        const w = BrowserWindow.getAllWindows().find((b) => b.webContents.getURL().includes('view=market'))
        return w ? w.getBounds() : null
      })
      expect(bounds).toEqual(marketBounds)
    } finally {
      await app.close()
    }
  })
})
