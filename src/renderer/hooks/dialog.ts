// Keyboard behaviour every alert dialog shares: focus moves into it when it opens and back to where it was when
// it closes, Tab stays inside, Escape closes.
import { useEffect, useRef, type RefObject } from 'react'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** The open dialogs, in the order they opened: with focus lost, the keys go to the innermost. */
const open: { box: HTMLElement; close(): void }[] = []

/**
 * The focused control went away (disabled while it works, then replaced: "Use demo key") and focus fell to
 * <body>, where the dialog's own listener never hears a key. Escape still closes the innermost dialog, and Tab
 * brings focus back into it instead of to the page behind.
 */
function onLostFocusKey(e: KeyboardEvent): void {
  // A dialog opened inside another (mounted in the same commit, its effect runs first) is still the innermost.
  const top = open.findLast((d) => !open.some((o) => o !== d && d.box.contains(o.box)))
  const active = document.activeElement
  // Keys from inside the dialog are its own listener's; focus anywhere else under a modal was lost.
  if (!top || (active !== null && top.box.contains(active))) return
  if (e.key === 'Escape') {
    e.preventDefault()
    top.close()
  } else if (e.key === 'Tab') {
    e.preventDefault()
    ;(top.box.querySelector<HTMLElement>(FOCUSABLE) ?? top.box).focus()
  }
}

export function useDialog(
  ref: RefObject<HTMLElement | null>,
  onClose: () => void,
  initialFocus?: RefObject<HTMLElement | null>,
): void {
  const close = useRef(onClose)
  useEffect(() => {
    close.current = onClose
  })
  useEffect(() => {
    const box = ref.current
    if (!box) return
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    // A click on a bare spot inside must keep focus in the dialog (not <body>), or Escape and Tab stop working.
    if (!box.hasAttribute('tabindex')) box.tabIndex = -1
    const first = initialFocus?.current ?? box.querySelector<HTMLElement>(FOCUSABLE)
    first?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        // The innermost dialog closes; the one under it stays.
        e.preventDefault()
        e.stopPropagation()
        close.current()
        return
      }
      if (e.key !== 'Tab') return
      const items = Array.from(box.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hidden)
      const head = items[0]
      const tail = items[items.length - 1]
      if (!head || !tail) return
      if (e.shiftKey && document.activeElement === head) {
        e.preventDefault()
        tail.focus()
      } else if (!e.shiftKey && document.activeElement === tail) {
        e.preventDefault()
        head.focus()
      }
    }
    box.addEventListener('keydown', onKey)
    const entry = { box, close: () => close.current() }
    open.push(entry)
    if (open.length === 1) document.addEventListener('keydown', onLostFocusKey)
    return () => {
      box.removeEventListener('keydown', onKey)
      open.splice(open.indexOf(entry), 1)
      if (open.length === 0) document.removeEventListener('keydown', onLostFocusKey)
      // Back to the ladder row, list or button the dialog was opened from, when it is still there.
      if (before?.isConnected) before.focus()
    }
    // Mount and unmount only: the dialog's element and its opener do not change while it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
}
