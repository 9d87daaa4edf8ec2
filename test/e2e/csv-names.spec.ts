// The tape's CSV names its market: beside the id, the event's and the market's titles from the listing, as the
// events list and the ladder show them.
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { startHost } from './host'
import { dockPane, openFirstMarket, openLive } from './helpers'

/** The fields of one CSV line (RFC 4180 quoting). */
function fields(line: string): string[] {
  const out: string[] = []
  const re = /(?:^|,)("(?:[^"]|"")*"|[^,]*)/g
  for (const m of line.matchAll(re)) {
    const raw = m[1] ?? ''
    out.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw)
  }
  return out
}

test("the tape's CSV carries the market's event and market titles beside its id", async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 950 })
  const host = await startHost()
  try {
    await openLive(page, host.url)
    const market = await openFirstMarket(page)
    const event = (await page.getByTestId('event-row').first().getAttribute('title')) ?? ''
    const title = (await dockPane(page, 'ladder').locator('.market-title h2').getAttribute('title')) ?? ''
    expect(event).not.toBe('')
    expect(title).not.toBe(market)
    const tape = dockPane(page, 'tape')
    await expect.poll(() => tape.getByTestId('trade-row').count(), { timeout: 60_000 }).toBeGreaterThan(0)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      tape.getByTestId('tape-export').click(),
    ])
    const lines = (await readFile(await download.path(), 'utf8')).split('\r\n')
    expect(lines[0]).toBe('time,market,event,market_title,price,size,side,key')
    expect(lines.length).toBeGreaterThan(2)
    // Every trade: the id, then the titles the events list and the ladder show (a title a spreadsheet would
    // run as a formula carries the CSV's leading apostrophe).
    for (const line of lines.slice(1, -1))
      expect(
        fields(line)
          .slice(1, 4)
          .map((f) => f.replace(/^'(?=[=+\-@\t\r])/, '')),
      ).toEqual([market, event, title])
  } finally {
    await host.close()
  }
})
