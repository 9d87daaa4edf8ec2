// Nothing on screen says "Live" when it is not (docs/liveness.md, "The engine link" and "The badge rule"): a
// window whose browser host froze or died shows every view as not live within 2 s, and one whose profile was
// switched to a venue that cannot be reached shows none of the old profile's data as live.
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive } from './helpers'

/** How soon after the engine is gone every view must have stopped saying live. */
const NOT_LIVE_WITHIN_MS = 2_000

let dir: string
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tm-e2e-fresh-'))
})
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

// Every claim of liveness on the page: freshness badges, watchlist dots, and the status bar's connection state
// while it is shown. Browser-side code is passed as source text (the e2e files typecheck without the DOM).
const LIVE_CLAIMS = `(() => {
  const claims = []
  for (const el of document.querySelectorAll('[data-testid="freshness"]'))
    if (el.getAttribute('data-state') === 'live' || /\\bLive\\b/.test(el.textContent)) claims.push('badge ' + el.textContent)
  for (const el of document.querySelectorAll('[data-testid="watchlist-row"][data-state="live"]')) claims.push('watch row')
  const bar = document.querySelector('[data-testid="connection-status"]')
  if (bar && !bar.hidden && /\\bLive\\b/.test(bar.textContent)) claims.push('status bar ' + bar.textContent)
  return claims
})()`

function liveClaims(page: Page): Promise<string[]> {
  return page.evaluate(LIVE_CLAIMS)
}

/**
 * Starts watching the page, every 25 ms from now on, for the first moment it makes no live claim; the time
 * (Date.now(), the same clock as this process's) is then in window.__notLiveAt.
 */
async function watchForNotLive(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__notLiveAt = null
    const id = setInterval(() => {
      if (${LIVE_CLAIMS}.length > 0) return
      window.__notLiveAt = Date.now()
      clearInterval(id)
    }, 25)
  })()`)
}

async function notLiveAt(page: Page): Promise<number> {
  await expect.poll(() => page.evaluate('window.__notLiveAt'), { timeout: 10_000 }).not.toBeNull()
  return Number(await page.evaluate('window.__notLiveAt'))
}

/** A main window with a market open, and an event window with its markets' tickers, each showing live data. */
async function openLivePages(host: Host, main: Page, event: Page): Promise<void> {
  await openLive(main, host.url)
  await openFirstMarket(main)
  const eventId = await main.getByTestId('event-row').first().getAttribute('data-event')
  expect(eventId).toBeTruthy()
  await event.goto(host.page({ view: 'event', event: eventId as string }))
  for (const page of [main, event])
    await expect
      .poll(() => liveClaims(page), { timeout: 60_000 })
      .toContainEqual(expect.stringMatching(/^badge Live/))
}

test.describe('a window that loses its engine', () => {
  let host: Host
  test.beforeAll(async () => {
    host = await startHost()
  })
  test.afterAll(async () => {
    await host?.close()
  })

  /** Opens both pages live, sends the host the signal, and checks both stop saying live within 2 s of it. */
  async function loseEngine(signal: 'SIGSTOP' | 'SIGKILL', pages: readonly [Page, Page]): Promise<void> {
    await openLivePages(host, ...pages)
    for (const p of pages) await watchForNotLive(p)
    const sentAt = Date.now()
    await host.signal(signal)
    for (const p of pages) expect((await notLiveAt(p)) - sentAt).toBeLessThanOrEqual(NOT_LIVE_WITHIN_MS)
  }

  test('a frozen host (SIGSTOP): every view is not live within 2 s, and live again once it wakes', async ({
    page,
    context,
  }) => {
    test.setTimeout(180_000)
    try {
      await loseEngine('SIGSTOP', [page, await context.newPage()])
      // The bridge socket is still open: only the missing heartbeats tell.
      await expect(page.getByTestId('engine-link')).toHaveText('Engine lost — waiting for it')
      await expect(page.getByTestId('freshness').first()).toHaveText('Engine lost')
      await expect(page.getByTestId('book-stale-overlay')).toHaveAttribute('data-state', 'lost')
      await page.screenshot({ path: test.info().outputPath('frozen-host.png') })
    } finally {
      await host.signal('SIGCONT')
    }
    await expect(page.getByTestId('engine-link')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('connection-status')).toBeVisible()
    await expect
      .poll(() => liveClaims(page), { timeout: 60_000 })
      .toContainEqual(expect.stringMatching(/^badge Live/))
  })

  test('a host that died (SIGKILL): every view is not live within 2 s, and the status bar says the engine is lost', async ({
    page,
    context,
  }) => {
    test.setTimeout(180_000)
    const event = await context.newPage()
    await loseEngine('SIGKILL', [page, event])
    await expect(page.getByTestId('engine-link')).toHaveText('Engine lost — reconnecting')
    await expect(page.getByTestId('connection-status')).toBeHidden()
    for (const p of [page, event]) {
      // And it stays so: nothing comes back to life while the host is gone.
      await p.waitForTimeout(1_000)
      expect(await liveClaims(p)).toEqual([])
      await expect(p.getByTestId('freshness').first()).toHaveText('Engine lost')
    }
    await event.screenshot({ path: test.info().outputPath('dead-host-event.png') })
  })
})

/** A loopback port nobody listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

test('after switching to a profile whose venue cannot be reached, no view says live', async ({ page }) => {
  test.setTimeout(180_000)
  const host = await startHost({ args: ['--demo', '--settings', path.join(dir, 'settings.json')] })
  try {
    await page.setViewportSize({ width: 1600, height: 950 })
    await openLive(page, host.url)
    await openFirstMarket(page)
    // The market is on the watchlist too, whose row says live.
    await page.getByTestId('market-row').first().getByTestId('watch-toggle').click()
    await page.locator('.dv-tab', { hasText: /^Watchlist$/ }).click()
    await expect
      .poll(() => liveClaims(page), { timeout: 60_000 })
      .toEqual(expect.arrayContaining([expect.stringMatching(/^badge Live/), 'watch row']))

    const port = await deadPort()
    await page.getByTestId('header-key-settings').click()
    const settings = page.getByTestId('key-settings')
    await settings.getByTestId('new-profile').click()
    await settings.getByTestId('profile-name').fill('Nobody home')
    await settings.getByTestId('profile-base-url').fill(`http://127.0.0.1:${port}/v1`)
    await settings.getByTestId('profile-ws-url').fill(`ws://127.0.0.1:${port}/ws`)
    await watchForNotLive(page)
    await settings.getByTestId('save-profile').click()
    // Creating a profile asks whether to switch to it.
    const ask = page.getByTestId('switch-profile')
    await ask.getByTestId('switch-profile-now').click()
    await expect(ask).toHaveCount(0)
    await expect(settings.getByTestId('profile-select')).toContainText('Nobody home')
    await settings.getByTestId('close-key-settings').click()
    await expect(page.getByTestId('connection-status')).not.toHaveAttribute('data-state', 'live')
    await notLiveAt(page)
    // Over the next seconds (retries, status ticks, panes reading their markets again) it stays so.
    for (let i = 0; i < 10; i++) {
      expect(await liveClaims(page)).toEqual([])
      await page.waitForTimeout(500)
    }
    await page.screenshot({ path: test.info().outputPath('unreachable-profile.png') })
  } finally {
    await host.close()
  }
})
