// A 1,000 px window, the width of a laptop or half a wide screen, on a fresh settings file: the default workspace
// fits without sideways scrolling, the header keeps every action and its search box on one line, and the
// account's tables show every column's header.
import { expect, test } from '@playwright/test'
import { withSettingsHost } from './host'
import { dockPane, openFirstMarket, openLive, useDemoKey } from './helpers'

interface Box {
  left: number
  right: number
  width: number
}

test('at 1000×800 the default workspace fits, the search stays on one line, and the account shows its headers', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1000, height: 800 })
  // A fresh settings file: the built-in default workspace, as a new user sees it.
  await withSettingsHost(test.info().outputPath('settings.json'), async (host) => {
    await openLive(page, host.url)
    await useDemoKey(page)
    await openFirstMarket(page)
    const account = dockPane(page, 'account')
    await expect(account.getByTestId('positions').locator('tbody tr').first()).toBeVisible({
      timeout: 60_000,
    })
    await expect(account.getByTestId('fills').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 })
    await page.screenshot({ path: test.info().outputPath('narrow.png') })

    // No sideways scrolling: not the dock, not the page.
    const widths = (await page.evaluate(`(() => {
      const dock = document.querySelector('[data-testid="workspace"]')
      const head = document.querySelector('.app-head')
      return {
        dock: [dock.scrollWidth, dock.clientWidth],
        page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        head: [head.scrollWidth, head.clientWidth],
      }
    })()`)) as Record<'dock' | 'page' | 'head', [number, number]>
    for (const [what, [scroll, client]] of Object.entries(widths))
      expect(scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(client)
    // Every pane of the default workspace is on screen, none squeezed below its minimum.
    for (const kind of ['events', 'ladder', 'depth', 'chart', 'tape', 'account']) {
      const box = await dockPane(page, kind).boundingBox()
      expect(box, kind).not.toBeNull()
      expect((box?.x ?? 0) + (box?.width ?? 0), `${kind} ends inside the window`).toBeLessThanOrEqual(1001)
    }

    // The header's search box: one line of text, inside its box; every action of the header is on screen.
    const search = page.getByTestId('quick-open-button')
    const [label, box] = await Promise.all([search.locator('span').boundingBox(), search.boundingBox()])
    expect(label?.height ?? 99, 'the search label is one line').toBeLessThan(20)
    expect(box?.height ?? 99).toBeLessThanOrEqual(28)
    for (const id of ['quick-open-button', 'toggle-inspector', 'header-key-settings', 'help-button'])
      await expect(page.getByTestId(id)).toBeInViewport({ ratio: 1 })

    // Each account table's column headers: inside the pane, each with room for its text or at least a few letters.
    const pane = (await account.boundingBox()) as { x: number; width: number }
    for (const id of ['positions', 'open-orders', 'fills']) {
      const heads = (await account
        .getByTestId(id)
        .locator('thead th')
        .evaluateAll((ths) =>
          ths.map((th) => {
            const r = th.getBoundingClientRect()
            return { left: r.left, right: r.right, width: r.width, text: th.textContent ?? '' }
          }),
        )) as (Box & { text: string })[]
      expect(heads.length, id).toBeGreaterThan(2)
      for (const h of heads) {
        expect(h.left, `${id} "${h.text}" starts inside the pane`).toBeGreaterThanOrEqual(pane.x - 1)
        expect(h.right, `${id} "${h.text}" ends inside the pane`).toBeLessThanOrEqual(pane.x + pane.width + 1)
        if (h.text.trim() !== '')
          expect(h.width, `${id} "${h.text}" shows some of its text`).toBeGreaterThan(24)
      }
    }
  })
})
