// A hidden or minimised window draws nothing (issue 34, item 3), and shown again it draws the current state at
// once. The main window, default workspace, with a market open on the demo venue:
//  1. while it streams, the page commits React renders, asks for animation frames and mutates the DOM (so the
//     counters below can see work);
//  2. hidden, over three seconds while the market keeps moving in the engine: no React commit, no animation
//     frame asked for, not one DOM mutation anywhere in the document;
//  3. the venue is frozen (the host's test hook), so the engine's book of the market stops moving, and a second
//     window opened on the market shows that book; shown again, the first window's ladder shows the same levels
//     at once, not the book it had when it was hidden.
// Hidden is emulated by overriding document.visibilityState and dispatching `visibilitychange` (what Chromium
// does for a background tab or a minimised window): the page's renderer keeps running animation frames, so a
// loop the app started while hidden would be counted. React commits are counted through the DevTools hook React
// calls after every commit (production builds too). Browser-side code is source text (the e2e files typecheck
// against Node's libs, without the DOM).
import { expect, test, type Page } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive } from './helpers'

let host: Host

test.beforeAll(async () => {
  host = await startHost()
})

test.afterAll(async () => {
  await host?.close()
})

/** How long the hidden window is watched for work. */
const WATCH_MS = 3_000
/** How soon after it is shown again the window must show the engine's current book. */
const SHOWN_WITHIN_MS = 2_000

const INSTRUMENT = `(() => {
  let hidden = false
  const counts = { on: false, commits: 0, frames: 0, mutations: [] }
  Object.defineProperty(window, '__work', { value: counts })
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  })
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden })
  Object.defineProperty(window, '__setHidden', {
    value: (h) => {
      hidden = h
      document.dispatchEvent(new Event('visibilitychange'))
    },
  })
  const request = window.requestAnimationFrame.bind(window)
  window.requestAnimationFrame = (callback) => {
    if (counts.on) counts.frames++
    return request(callback)
  }
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberRoot: () => {
      if (counts.on) counts.commits++
    },
    onPostCommitFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
  }
  const describe = (node) => {
    const el = node && node.nodeType === 1 ? node : node && node.parentElement
    if (!el) return '?'
    const owner = el.closest('[data-testid]')
    return (owner ? owner.getAttribute('data-testid') : '') + ' ' + String(el.className || el.tagName)
  }
  new MutationObserver((records) => {
    if (!counts.on) return
    for (const m of records)
      if (counts.mutations.length < 50)
        counts.mutations.push(m.type + ' ' + describe(m.target) + (m.attributeName ? ' @' + m.attributeName : ''))
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
})()`

interface Work {
  commits: number
  frames: number
  mutations: string[]
}

/** Counts the page's work over `ms`. */
async function watch(page: Page, ms: number): Promise<Work> {
  await page.evaluate(
    'window.__work.commits = 0; window.__work.frames = 0; window.__work.mutations = []; window.__work.on = true',
  )
  await page.waitForTimeout(ms)
  return (await page.evaluate(
    '(() => { const w = window.__work; w.on = false; return { commits: w.commits, frames: w.frames, mutations: w.mutations } })()',
  )) as Work
}

/** The ladder's levels as shown: side, price and size of every row. */
async function ladder(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="book-bid-row"], [data-testid="book-ask-row"]')
    .evaluateAll((rows) =>
      rows.map(
        (r) =>
          `${r.getAttribute('data-side')} ${r.getAttribute('data-price')} ${r.getAttribute('data-size')}`,
      ),
    )
}

/** The ladder's mark of the book version it shows (BookView.updatedAt: the engine's receipt time). */
async function version(page: Page): Promise<string | null> {
  return page.locator('.ladder-foot [elementtiming^="book:"]').getAttribute('elementtiming')
}

test('a hidden window does no drawing work, and shown again draws the current book at once', async ({
  page,
  browser,
}) => {
  await page.addInitScript(INSTRUMENT)
  await openLive(page, host.url)
  const market = await openFirstMarket(page)
  await expect(page.getByTestId('orderbook')).toHaveAttribute('data-state', 'live')
  await expect.poll(() => page.getByTestId('trade-row').count(), { timeout: 60_000 }).toBeGreaterThan(0)

  // 1. Not vacuous: streaming, the counters see work.
  const streaming = await watch(page, WATCH_MS)
  expect(streaming.commits, JSON.stringify(streaming)).toBeGreaterThan(0)
  expect(streaming.frames, JSON.stringify(streaming)).toBeGreaterThan(0)
  expect(streaming.mutations.length, JSON.stringify(streaming)).toBeGreaterThan(0)

  // 2. Hidden: nothing at all, while the market moves on in the engine.
  await page.evaluate('window.__setHidden(true)')
  const shownWhenHidden = await version(page)
  const levelsWhenHidden = await ladder(page)
  const hidden = await watch(page, WATCH_MS)
  expect(hidden, `work done while hidden: ${JSON.stringify(hidden)}`).toEqual({
    commits: 0,
    frames: 0,
    mutations: [],
  })
  expect(await version(page), 'the ladder changed while hidden').toBe(shownWhenHidden)

  // 3. The engine's book stops moving; a fresh window shows it; shown again, this one shows it at once.
  expect(await host.fault('freeze')).toBe(200)
  try {
    const other = await browser.newPage()
    try {
      await other.goto(host.page({ view: 'market', market }))
      await expect(other.getByTestId('book-bid-row').first()).toBeVisible({ timeout: 60_000 })
      // The other window's book is the engine's, once two reads a moment apart agree (the last frame before the
      // freeze may still be on its way).
      let current: string[] = []
      await expect
        .poll(
          async () => {
            const before = current
            current = await ladder(other)
            return current.length > 0 && JSON.stringify(before) === JSON.stringify(current)
          },
          { intervals: [300] },
        )
        .toBe(true)
      // Not vacuous: the book moved while the window was hidden.
      expect(current, 'the book did not move while the window was hidden').not.toEqual(levelsWhenHidden)
      await page.evaluate('window.__setHidden(false)')
      await expect.poll(() => ladder(page), { timeout: SHOWN_WITHIN_MS, intervals: [50] }).toEqual(current)
    } finally {
      await other.close()
    }
  } finally {
    expect(await host.fault('unfreeze')).toBe(200)
  }
})
