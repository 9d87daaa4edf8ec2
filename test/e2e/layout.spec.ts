// Layouts that hold, against the demo simulator: a splitter drag stops at a pane's minimum width, cells of the
// ladder, the tape, the event matrix and the account tables never run into each other (a figure that does not
// fit is cut and carries its full text as a tooltip), icon buttons draw SVG rather than font glyphs, and the
// "Stop recording" button reads clearly.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { startHost, type Host } from './host'
import { openFirstMarket, openLive, useDemoKey } from './helpers'

let dir: string
let host: Host
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tm-e2e-layout-'))
  host = await startHost({ args: ['--demo', '--settings', path.join(dir, 'settings.json')] })
})
test.afterAll(async () => {
  await host?.close()
  await rm(dir, { recursive: true, force: true })
})

const PANE = (kind: string) => `[data-testid="dock-pane"][data-pane="${kind}"]`

function pane(page: Page, kind: string): Locator {
  return page.locator(PANE(kind))
}

async function widthOf(page: Page, kind: string): Promise<number> {
  const box = await pane(page, kind).boundingBox()
  if (!box) throw new Error(`no ${kind} pane on screen`)
  return box.width
}

/** Drags the splitter nearest to x (a vertical sash between two columns) by dx. */
async function dragSash(page: Page, x: number, dx: number): Promise<void> {
  const sash = (await page.evaluate(`(() => {
    let best = null
    for (const s of document.querySelectorAll('.dv-sash')) {
      const r = s.getBoundingClientRect()
      if (r.width === 0 || r.height < 100 || r.width > r.height) continue
      const mid = r.left + r.width / 2
      if (best === null || Math.abs(mid - ${x}) < Math.abs(best.x - ${x}))
        best = { x: mid, y: r.top + r.height / 2 }
    }
    return best
  })()`)) as { x: number; y: number } | null
  if (!sash) throw new Error('no splitter on screen')
  expect(Math.abs(sash.x - x)).toBeLessThan(10)
  await page.mouse.move(sash.x, sash.y)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(sash.x + (dx * i) / 10, sash.y)
  await page.mouse.up()
}

interface CellReport {
  /** Cells whose text overflows them without a tooltip. */
  untitled: string[]
  /** Neighbouring cells of one row whose boxes overlap, or whose text paints past the cell. */
  overlapping: string[]
  cells: number
}

/**
 * Every row's cells (the children matching `cell` of each element matching `row` under the first `root`): a cell whose
 * text does not fit must carry a title (once hovered), must clip its text, and must not overlap the next cell of its row.
 */
async function checkCells(page: Page, root: string, row: string, cell: string): Promise<CellReport> {
  return page.evaluate(`(() => {
    const report = { untitled: [], overlapping: [], cells: 0 }
    const el = document.querySelector(${JSON.stringify(root)})
    if (!el) return report
    for (const r of el.querySelectorAll(${JSON.stringify(row)})) {
      const cells = [...r.querySelectorAll(${JSON.stringify(cell)})].filter((c) => c.parentElement === r)
      cells.forEach((c, i) => {
        report.cells++
        const text = (c.textContent || '').trim()
        const overflows = c.scrollWidth > c.clientWidth + 1
        const clips = getComputedStyle(c).overflowX !== 'visible'
        // A streaming cell may get its title on hover only: the pointer reaches it first.
        if (overflows) c.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
        if (overflows && !c.title && !c.closest('[title]')) report.untitled.push(text)
        if (overflows && !clips) report.overlapping.push(text + ' paints past its cell')
        const next = cells[i + 1]
        if (next) {
          const a = c.getBoundingClientRect()
          const b = next.getBoundingClientRect()
          if (a.right > b.left + 0.5 && a.left < b.right) report.overlapping.push(text + ' | ' + next.textContent)
        }
      })
    }
    return report
  })()`)
}

/** A table's cells that overflow: each, hovered, shows its full text as its title. */
async function hoverTitles(table: Locator): Promise<number> {
  const cells = table.locator('td, th')
  const n = await cells.count()
  let truncated = 0
  for (let i = 0; i < n; i++) {
    // One evaluation per cell, so the account's live updates (a new fill row shifts every row under it) cannot
    // slip between reading the cell, hovering it and reading its tooltip: each is read from the same element.
    const seen = await cells.nth(i).evaluate((e) => {
      if (!(e.scrollWidth > e.clientWidth + 1)) return null
      const own = e.getAttribute('title')
      // The e2e files typecheck without the DOM's types; in the page, PointerEvent is the browser's.
      const Pointer = (globalThis as unknown as { PointerEvent: typeof Event }).PointerEvent
      e.dispatchEvent(new Pointer('pointerover', { bubbles: true }))
      return { own, title: e.getAttribute('title'), text: e.textContent?.trim() ?? '' }
    })
    if (seen === null) continue
    truncated++
    // A tooltip the cell already had (an abbreviated header's explanation, a market's full name and id) says
    // more than its text, and stays; a cell without one gets its own text on hover.
    expect(seen.title, `the tooltip of "${seen.text}"`).toMatch(/.+/)
    if (seen.own === null) expect(seen.title, `the tooltip of "${seen.text}"`).toBe(seen.text)
  }
  return truncated
}

test('a splitter stops at a pane minimum, and the squeezed ladder and tape never run figures together', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 })
  await openLive(page, host.url)
  await openFirstMarket(page)
  await expect(page.getByTestId('orderbook')).toHaveAttribute('data-state', 'live')
  // Probabilities are the widest prices (0.322 against 32¢).
  await page.getByTestId('price-unit-probability').click()

  // The sash between the events column and the ladder's, dragged far right: the ladder stops at its minimum.
  const ladderBox = await pane(page, 'ladder').boundingBox()
  if (!ladderBox) throw new Error('no ladder')
  await dragSash(page, ladderBox.x, 500)
  await expect.poll(() => widthOf(page, 'ladder')).toBeGreaterThanOrEqual(270)
  expect(await widthOf(page, 'ladder')).toBeLessThan(ladderBox.width)
  // The trades column, squeezed from its left: it stops at the tape's minimum.
  const tapeBox = await pane(page, 'tape').boundingBox()
  if (!tapeBox) throw new Error('no tape')
  await dragSash(page, tapeBox.x, 600)
  await expect.poll(() => widthOf(page, 'tape')).toBeGreaterThanOrEqual(280)
  await page.screenshot({ path: test.info().outputPath('squeezed.png') })

  await expect.poll(() => pane(page, 'ladder').getByTestId('book-bid-row').count()).toBeGreaterThan(0)
  const ladder = await checkCells(page, PANE('ladder'), '.ladder-row:not(.placeholder)', 'span')
  expect(ladder.cells).toBeGreaterThan(6)
  expect(ladder.overlapping).toEqual([])
  expect(ladder.untitled).toEqual([])
  await expect.poll(() => pane(page, 'tape').getByTestId('trade-row').count()).toBeGreaterThan(0)
  const tape = await checkCells(page, PANE('tape'), '.tape-row', 'span')
  expect(tape.overlapping).toEqual([])
  expect(tape.untitled).toEqual([])

  // A narrower window does not squeeze the ladder below its minimum either.
  await page.setViewportSize({ width: 1150, height: 800 })
  await expect.poll(() => widthOf(page, 'ladder')).toBeGreaterThanOrEqual(270)
  const again = await checkCells(page, PANE('ladder'), '.ladder-row:not(.placeholder)', 'span')
  expect(again.overlapping).toEqual([])
  expect(again.untitled).toEqual([])
})

test('a window smaller than the minimums together scrolls the dock instead of cutting panes off', async ({
  page,
}) => {
  // Narrower than even the three-column default's minimums (about 920 px).
  await page.setViewportSize({ width: 800, height: 700 })
  await openLive(page, host.url)
  await openFirstMarket(page)
  const sizes = () =>
    page.evaluate(`(() => {
      const h = document.querySelector('[data-testid="workspace"]')
      return { scroll: h.scrollWidth, client: h.clientWidth }
    })()`) as Promise<{ scroll: number; client: number }>
  await expect.poll(async () => (await sizes()).scroll).toBeGreaterThan((await sizes()).client)
  // Every pane keeps its minimum, and the last column is reachable by scrolling.
  expect(await widthOf(page, 'ladder')).toBeGreaterThanOrEqual(270)
  expect(await widthOf(page, 'account')).toBeGreaterThanOrEqual(370)
  await page.evaluate(`(() => {
    const h = document.querySelector('[data-testid="workspace"]')
    h.scrollLeft = h.scrollWidth
  })()`)
  const rights = await page
    .getByTestId('dock-pane')
    .evaluateAll((panes) => panes.map((p) => p.getBoundingClientRect().right))
  expect(Math.max(...rights)).toBeLessThanOrEqual(801)
})

test('the event matrix from "+ Pane" keeps its name column and headers readable', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 })
  await openLive(page, host.url)
  await openFirstMarket(page)
  await page.getByTestId('add-pane').selectOption('matrix')
  const matrix = page.getByTestId('event-matrix')
  await expect(matrix).toBeVisible()
  await expect(matrix.getByTestId('market-row').first()).toBeVisible()
  // Added where the window has room: no pane pushed out of the window.
  const viewport = page.viewportSize()
  for (const el of await page.getByTestId('dock-pane').all()) {
    const box = await el.boundingBox()
    if (!box || box.width === 0) continue
    expect(box.x).toBeGreaterThanOrEqual(-1)
    expect(box.x + box.width).toBeLessThanOrEqual((viewport?.width ?? 0) + 1)
  }
  await page.screenshot({ path: test.info().outputPath('matrix.png') })

  expect(await widthOf(page, 'matrix')).toBeGreaterThanOrEqual(420)
  const nameWidth = await matrix
    .locator('thead th')
    .first()
    .evaluate((th) => th.getBoundingClientRect().width)
  expect(nameWidth).toBeGreaterThanOrEqual(160)
  const heads = await checkCells(page, '[data-testid="event-matrix"]', 'thead tr', 'th')
  expect(heads.overlapping).toEqual([])
  expect(heads.untitled).toEqual([])
  const rows = await checkCells(page, '[data-testid="event-matrix"]', 'tbody tr', 'td')
  expect(rows.overlapping).toEqual([])
  // The market names are long: some are cut, and each cut one has a tooltip already.
  expect(rows.untitled).toEqual([])
})

test('the account tables truncate with tooltips, and no icon button draws a font glyph', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 })
  await openLive(page, host.url)
  await openFirstMarket(page)
  await useDemoKey(page)
  const account = pane(page, 'account')
  await expect(account.getByTestId('positions').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 })
  await expect(account.getByTestId('fills').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 })
  let truncated = 0
  for (const id of ['positions', 'open-orders', 'fills']) {
    const table = account.getByTestId(id)
    const cells = await checkCells(page, `${PANE('account')} [data-testid="${id}"]`, 'tr', 'td, th')
    expect(cells.overlapping).toEqual([])
    truncated += await hoverTitles(table)
  }
  // The account column is narrow: some cells are cut, so the tooltips were exercised.
  expect(truncated).toBeGreaterThan(0)

  // Pictographs and symbol glyphs (🔗 📌 ⋯ ★ ☆ ✕ ↗ ▾ ◆ …) draw as boxes where no font has them.
  const glyphs = await page.evaluate(`(() => {
    const pictograph = /[\\u2190-\\u21ff\\u2300-\\u27bf\\u2b00-\\u2bff\\u22ef\\u{1f000}-\\u{1faff}]/u
    const found = []
    for (const b of document.querySelectorAll('button, [role="button"], select')) {
      const text = b.tagName === 'SELECT' ? (b.options[b.selectedIndex]?.text ?? '') : b.textContent
      if (pictograph.test(text)) found.push(text.trim())
    }
    return found
  })()`)
  expect(glyphs).toEqual([])
  // The icon-only buttons still have a name.
  for (const id of ['pane-link', 'watch-toggle']) {
    const b = page.getByTestId(id).first()
    await expect(b.locator('svg')).toHaveCount(1)
    expect((await b.getAttribute('aria-label')) ?? '').not.toBe('')
  }
  await expect(page.locator('.menu-icon svg')).toHaveCount(1)
  await expect(page.getByTestId('workspace-actions')).toHaveAccessibleName('Workspace actions')
})

interface GridNode {
  type: 'branch' | 'leaf'
  size: number
  data: GridNode[] | { views: string[] }
}

function holds(node: GridNode, view: string): boolean {
  return node.type === 'leaf'
    ? (node.data as { views: string[] }).views.includes(view)
    : (node.data as GridNode[]).some((child) => holds(child, view))
}

test('a saved layout with a squeezed pane is restored at the pane minimum', async ({ page }) => {
  const settings = path.join(dir, 'squeezed.json')
  await page.setViewportSize({ width: 1400, height: 900 })
  const first = await startHost({ args: ['--demo', '--settings', settings] })
  try {
    await openLive(page, first.url)
    await expect(pane(page, 'ladder')).toBeVisible()
    // Any change saves the workspace: a small splitter drag.
    const box = await pane(page, 'ladder').boundingBox()
    if (!box) throw new Error('no ladder')
    await dragSash(page, box.x, -20)
    await expect
      .poll(
        async () => JSON.parse(await readFile(settings, 'utf8').catch(() => '{}')).workspaces?.length ?? 0,
      )
      .toBeGreaterThan(0)
  } finally {
    await first.close()
  }
  // As a layout saved before minimums existed: the ladder 120 px wide, no minimums recorded.
  const doc = JSON.parse(await readFile(settings, 'utf8')) as {
    workspaces: {
      layout: {
        grid: { root: GridNode; orientation: string }
        panels: Record<string, Record<string, unknown>>
      }
    }[]
  }
  const layout = (doc.workspaces[0] as (typeof doc.workspaces)[number]).layout
  // The root splits the window into columns: the ladder's column is the root's child that holds it.
  expect(layout.grid.orientation).toBe('HORIZONTAL')
  const columns = layout.grid.root.data as GridNode[]
  const column = columns.find((c) => holds(c, 'ladder-1'))
  const other = columns.find((c) => !holds(c, 'ladder-1'))
  if (!column || !other) throw new Error('no ladder column in the saved layout')
  other.size += column.size - 120
  column.size = 120
  for (const panel of Object.values(layout.panels)) {
    delete panel.minimumWidth
    delete panel.minimumHeight
  }
  await writeFile(settings, JSON.stringify(doc))
  const second = await startHost({ args: ['--demo', '--settings', settings] })
  try {
    await openLive(page, second.url)
    await expect(pane(page, 'ladder')).toBeVisible()
    await expect.poll(() => widthOf(page, 'ladder')).toBeGreaterThanOrEqual(270)
  } finally {
    await second.close()
  }
})

/** WCAG contrast of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

test('"Stop recording" reads clearly, hovered or not', async ({ page }) => {
  await openLive(page, host.url)
  await page.getByTestId('recordings-button').click()
  const toggle = page.getByTestId('record-toggle')
  await toggle.click()
  await expect(toggle).toHaveAttribute('data-state', 'recording')
  await expect(toggle).toContainText('Stop recording')
  const colours = (): Promise<[string, string]> =>
    page.evaluate(`(() => {
      const b = document.querySelector('[data-testid="record-toggle"]')
      return [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]
    })()`)
  await page.mouse.move(0, 0)
  const [fg, bg] = await colours()
  expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5)
  await toggle.hover()
  const [hoverFg, hoverBg] = await colours()
  expect(contrast(hoverFg, hoverBg)).toBeGreaterThanOrEqual(4.5)
  await toggle.click()
  await expect(toggle).toHaveAttribute('data-state', 'idle')
})
