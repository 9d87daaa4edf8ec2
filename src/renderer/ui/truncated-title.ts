// A truncated cell shows its full text as a tooltip, set when the pointer reaches it rather than on render:
// streaming rows re-render many times a second, and a title rewritten with every value costs React's attribute write
// and a style recalculation of its cell (an invalidation trace of the ladder shows one per changed title), while
// only a cell under the pointer needs one. A cell with a title of its own keeps it.
import type { PointerEvent } from 'react'

/** A pointerover handler, for the element holding the cells: titles the cell matching `cells` under the pointer. */
export function titleIfTruncated(cells: string): (e: PointerEvent<HTMLElement>) => void {
  return (e) => {
    const cell = e.target instanceof Element ? e.target.closest(cells) : null
    if (!(cell instanceof HTMLElement)) return
    const auto = cell.dataset.autoTitle !== undefined
    if (cell.hasAttribute('title') && !auto) return
    const text = cell.textContent?.trim() ?? ''
    if (cell.scrollWidth > cell.clientWidth && text !== '') {
      cell.title = text
      cell.dataset.autoTitle = ''
    } else if (auto) {
      cell.removeAttribute('title')
      delete cell.dataset.autoTitle
    }
  }
}
