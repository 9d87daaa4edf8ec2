// A tooltip whose text follows streaming values (the quote's implied best, the venue's exact volume) is set when the
// pointer reaches its cell, from the values of the latest render, rather than written with every value: Chromium
// restyles an element whenever its `title` changes (its own stylesheet has `abbr[title]`, so the attribute is in
// its invalidation sets), and the market header's quote rewrote one about 11 times a second at the demo load. A
// cell names its tooltip by a `data-hint` key, which never changes.
import type { PointerEvent } from 'react'

/** A pointerover handler, for the element holding the cells: titles the `[data-hint]` cell under the pointer. */
export function titleOnHover(
  hints: Readonly<Record<string, string | undefined>>,
): (e: PointerEvent<HTMLElement>) => void {
  return (e) => {
    const cell = e.target instanceof Element ? e.target.closest('[data-hint]') : null
    if (!(cell instanceof HTMLElement) || !e.currentTarget.contains(cell)) return
    const text = hints[cell.dataset.hint ?? '']
    if (text === undefined) cell.removeAttribute('title')
    else cell.title = text
  }
}
