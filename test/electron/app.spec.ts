// The built app on a real Electron, driven through Playwright's Electron support: launch locked down, a live
// demo book in a market window, a second market window, quit (as Cmd+Q or the tray's Quit do), find the layout
// and the settings flushed to settings.json in TM_USER_DATA_DIR, relaunch and find the same windows where they
// were. Run by scripts/electron-e2e.mjs, which skips with a printed reason where no Electron binary exists.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
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
  let marketIds: string[] = []
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

  test('a live demo book, a second market window, and quitting flushes the settings', async () => {
    const app = await launch()
    let exited = false
    try {
      const main = await windowWithView(app, 'main')
      await expect(main.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
        timeout: 60_000,
      })
      marketIds = await main.evaluate(async () => {
        const api = (globalThis as unknown as { monitor: MonitorApi }).monitor
        const listed = await api.listEvents()
        if (!listed.ok) throw new Error(listed.error.message)
        return listed.value.flatMap((e) => e.markets.map((m) => m.id)).slice(0, 2)
      })
      expect(marketIds).toHaveLength(2)
      for (const market of marketIds) {
        const opened = app.waitForEvent('window')
        await main.evaluate(
          (id) =>
            (globalThis as unknown as { monitor: MonitorApi }).monitor.openWindow({
              kind: 'market',
              market: id,
            }),
          market,
        )
        const page = await opened
        await page.waitForLoadState('domcontentloaded')
        const url = new URL(page.url())
        expect(url.searchParams.get('view')).toBe('market')
        expect(url.searchParams.get('market')).toBe(market)
        // A live book from the embedded simulator (demo mode), with levels on both sides.
        await expect(page.getByTestId('orderbook')).toHaveAttribute('data-state', 'live', { timeout: 60_000 })
        await expect.poll(() => page.getByTestId('book-bid-row').count()).toBeGreaterThan(0)
        await expect.poll(() => page.getByTestId('book-ask-row').count()).toBeGreaterThan(0)
      }
      expect(app.windows()).toHaveLength(3)
      await app.evaluate(
        ({ BrowserWindow }, { bounds, market }) => {
          const w = BrowserWindow.getAllWindows().find(
            (b) => new URL(b.webContents.getURL()).searchParams.get('market') === market,
          )
          w?.setBounds(bounds)
        },
        { bounds: marketBounds, market: marketIds[0] ?? '' },
      )
      // Written by the engine after a quiet period, or when it closes on quit: quitting right away leaves only
      // the will-quit path to write it.
      const kept = await main.evaluate(() =>
        (globalThis as unknown as { monitor: MonitorApi }).monitor.setKeepRunning('always'),
      )
      expect(kept.ok).toBe(true)
      const child = app.process()
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      // app.quit(): before-quit saves every window's layout, will-quit closes the engine, then the app exits.
      await app.close()
      await gone
      exited = true
      expect(child.exitCode).toBe(0)
    } finally {
      if (!exited) await app.close()
    }
    const settings = JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as {
      activeProfileId: string
      keepRunning: string
      windows: { target: { kind: string; market?: string }; bounds: unknown }[]
    }
    expect(settings.activeProfileId).toBe('demo')
    expect(settings.keepRunning).toBe('always')
    expect(settings.windows.map((w) => w.target)).toEqual([
      { kind: 'main' },
      { kind: 'market', market: marketIds[0] },
      { kind: 'market', market: marketIds[1] },
    ])
    expect(settings.windows[1]?.bounds).toEqual(marketBounds)
  })

  test('relaunching restores the layout', async () => {
    expect(marketIds).toHaveLength(2)
    const app = await launch()
    try {
      await windowWithView(app, 'main')
      await expect.poll(() => app.windows().length).toBe(3)
      const markets = app
        .windows()
        .map((w) => new URL(w.url()).searchParams)
        .filter((q) => q.get('view') === 'market')
        .map((q) => q.get('market'))
      expect(markets.sort()).toEqual([...marketIds].sort())
      const bounds = await app.evaluate(({ BrowserWindow }, market) => {
        const w = BrowserWindow.getAllWindows().find(
          (b) => new URL(b.webContents.getURL()).searchParams.get('market') === market,
        )
        return w ? w.getBounds() : null
      }, marketIds[0] ?? '')
      expect(bounds).toEqual(marketBounds)
    } finally {
      await app.close()
    }
  })
})
