// Page-level steps shared by the e2e specs.
import { readFile } from 'node:fs/promises'
import { expect, type Locator, type Page } from '@playwright/test'

/** Open the page and wait until the stream is live. */
export async function openLive(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', {
    timeout: 60_000,
  })
}

/** Store the demo key through the account pane's call to action (the demo profile starts without a key). */
export async function useDemoKey(page: Page): Promise<void> {
  const cta = page.getByTestId('cta-use-demo-key')
  await expect(cta).toBeVisible()
  await cta.click()
  await expect(page.getByTestId('account-cta')).toHaveCount(0)
}

/** The demo key stored once for the host: the account pane shows the account, or offers the key. */
export async function ensureDemoKey(page: Page): Promise<void> {
  const cta = page.getByTestId('account-cta')
  await expect(cta.or(page.getByTestId('balances'))).toBeVisible({ timeout: 30_000 })
  if (await cta.isVisible()) await useDemoKey(page)
}

/** The docked pane of this kind (`ladder`, `tape`, ...). */
export function dockPane(page: Page, kind: string): Locator {
  return page.locator(`[data-testid="dock-pane"][data-pane="${kind}"]`)
}

/** Expand the first event and open its first market in the main window's pane; returns the market id. */
export async function openFirstMarket(page: Page): Promise<string> {
  await expect(page.getByTestId('event-row').first()).toBeVisible()
  await page.getByTestId('event-row').first().click()
  const row = page.getByTestId('market-row').first()
  await expect(row).toBeVisible()
  const market = await row.getAttribute('data-market')
  expect(market).toBeTruthy()
  await row.click()
  await expect(page.getByTestId('market-pane')).toHaveAttribute('data-market', market as string)
  return market as string
}

/** Opens Key settings from the account pane. */
export async function openSettings(page: Page) {
  await page.getByTestId('open-key-settings').click()
  const settings = page.getByTestId('key-settings')
  await expect(settings).toBeVisible()
  return settings
}

/** Fills the new-profile form and saves it; the switch question is left open. */
export async function createProfile(page: Page, name: string, baseUrl: string, wsUrl: string) {
  const settings = await openSettings(page)
  await settings.getByTestId('new-profile').click()
  await settings.getByTestId('profile-name').fill(name)
  await settings.getByTestId('profile-base-url').fill(baseUrl)
  await settings.getByTestId('profile-ws-url').fill(wsUrl)
  await settings.getByTestId('save-profile').click()
  const ask = page.getByTestId('switch-profile')
  await expect(ask).toBeVisible()
  return { settings, ask }
}

/** Best bid and best ask from the ladder (bids render best first; asks render worst first, best last). */
export async function bestQuotes(page: Page): Promise<{ bid: number; ask: number }> {
  const bids = await page
    .getByTestId('book-bid-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-price'))))
  const asks = await page
    .getByTestId('book-ask-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-price'))))
  return { bid: Math.max(...bids), ask: Math.min(...asks) }
}

/** Candles the price chart holds (its data-candles). */
export async function chartCandles(page: Page): Promise<number> {
  return Number((await page.getByTestId('price-chart').getAttribute('data-candles')) ?? 0)
}

/** Rows of the tape's CSV export: every trade the window holds for the market. */
export async function tapeRows(page: Page): Promise<number> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('tape-export').click(),
  ])
  const text = await readFile(await download.path(), 'utf8')
  return text.split('\r\n').filter((line) => line.length > 0).length - 1
}

// Browser-side code is passed as source text: the e2e files typecheck against Node's libs, without the DOM.

/**
 * Pixels painted in the candle colours (the theme's --buy / --sell): an empty chart has grid, axes and text
 * but none of these solid fills.
 */
export async function candlePixels(page: Page): Promise<number> {
  return page.evaluate(`(() => {
    const root = document.querySelector('[data-testid="price-chart"]')
    if (!root) return 0
    const css = getComputedStyle(document.documentElement)
    const rgb = (name) => {
      const hex = css.getPropertyValue(name).trim().replace('#', '')
      return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16))
    }
    const colours = [rgb('--buy'), rgb('--sell')]
    let count = 0
    for (const canvas of root.querySelectorAll('canvas')) {
      const ctx = canvas.getContext('2d')
      if (!ctx || canvas.width === 0 || canvas.height === 0) continue
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] !== 255) continue
        for (const c of colours) if (data[i] === c[0] && data[i + 1] === c[1] && data[i + 2] === c[2]) count++
      }
    }
    return count
  })()`)
}

/** Start recording every data-state the given test ids take, so a quick transition cannot slip between polls. */
export async function recordStates(page: Page, testids: readonly string[]): Promise<void> {
  await page.evaluate(`(() => {
    const seen = {}
    window.__seen = seen
    for (const id of ${JSON.stringify(testids)}) {
      const into = (seen[id] = [])
      const el = document.querySelector('[data-testid="' + id + '"]')
      if (!el) continue
      into.push(el.getAttribute('data-state') || '')
      new MutationObserver(() => into.push(el.getAttribute('data-state') || '')).observe(el, {
        attributes: true,
        attributeFilter: ['data-state'],
      })
    }
  })()`)
}

export async function recordedStates(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate('window.__seen || {}')
}
