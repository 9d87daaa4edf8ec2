// Bench-only: headless Chromium with the browser host's main window (default workspace, one market selected), in
// its own Node process so that Playwright's client and CDP traffic are not counted in the engine process's CPU. Started by day/run.ts as
//   node --import tsx bench/day/browser-child.ts URL [--no-fps]
// Protocol (one JSON object per line): stdout prints {"type":"ready"} once the order book is live, then one reply
// per stdin command:
//   {"cmd":"sample"}  -> {"type":"sample", frames, pageMs, maxGapMs, gapsOver50, state}
//                        requestAnimationFrame callbacks since the page was ready (cumulative), the page's clock,
//                        the longest frame gap and the gaps over 50 ms since the last sample, the book's data-state
//   {"cmd":"quit"}    -> closes the browser and exits
// Closing stdin (the parent died) also closes the browser.
import { chromium, type Browser } from '@playwright/test'
import { createInterface } from 'node:readline'
import { CHROMIUM, CHROMIUM_ARGS } from '../../test/e2e/chromium.mjs'

function send(v: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(v)}\n`)
}

// Browser-side code as text: this file typechecks against Node's libs. The counter keeps the page producing a
// frame per vsync, as any fps measurement by requestAnimationFrame does (ui-fps.ts too).
const INSTALL_COUNTER = `(() => {
  const w = window
  w.__dayFrames = 0
  w.__dayMaxGap = 0
  w.__dayOver50 = 0
  let last = -1
  const step = (t) => {
    w.__dayFrames++
    if (last >= 0) {
      const gap = t - last
      if (gap > w.__dayMaxGap) w.__dayMaxGap = gap
      if (gap > 50) w.__dayOver50++
    }
    last = t
    requestAnimationFrame(step)
  }
  requestAnimationFrame(step)
})()`

const READ_COUNTER = `(() => {
  const w = window
  const book = document.querySelector('[data-testid="orderbook"]')
  const r = {
    frames: w.__dayFrames ?? 0,
    pageMs: performance.now(),
    maxGapMs: w.__dayMaxGap ?? 0,
    gapsOver50: w.__dayOver50 ?? 0,
    state: book ? book.getAttribute('data-state') : null,
  }
  w.__dayMaxGap = 0
  w.__dayOver50 = 0
  return r
})()`

async function main(): Promise<void> {
  const url = process.argv[2]
  if (url === undefined) throw new Error('usage: browser-child.ts URL [--no-fps]')
  const countFrames = !process.argv.includes('--no-fps')
  let browser: Browser | null = null
  let closing: Promise<void> | null = null
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await browser?.close().catch(() => undefined)
    })()
    return closing
  }
  const rl = createInterface({ input: process.stdin })
  rl.on('close', () => {
    void close().finally(() => process.exit(0))
  })

  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.goto(url)
  // The main window with its default workspace: pick the market given in `select` from the events list, so
  // the ladder, depth chart, chart and tape all show it.
  const select = new URL(url).searchParams.get('select')
  if (select !== null) {
    const row = page.locator(`[data-testid="market-row"][data-market="${select}"]`)
    const events = page.getByTestId('event-row')
    await events.first().waitFor({ timeout: 60_000 })
    for (let i = 0; i < (await events.count()) && !(await row.isVisible()); i++) await events.nth(i).click()
    await row.click()
  }
  await page.locator('[data-testid="orderbook"][data-state="live"]').waitFor({ timeout: 60_000 })
  if (countFrames) await page.evaluate(INSTALL_COUNTER)

  rl.on('line', (line) => {
    let cmd: unknown
    try {
      cmd = (JSON.parse(line) as { cmd?: unknown }).cmd
    } catch {
      return
    }
    if (cmd === 'sample') {
      page.evaluate(READ_COUNTER).then(
        (r) => send({ type: 'sample', ...(r as Record<string, unknown>) }),
        (e: unknown) => send({ type: 'error', error: String(e) }),
      )
    } else if (cmd === 'quit') {
      void close().finally(() => process.exit(0))
    }
  })
  send({ type: 'ready' })
}

main().catch((e: unknown) => {
  send({ type: 'error', error: e instanceof Error ? e.message : String(e) })
  process.exit(1)
})
