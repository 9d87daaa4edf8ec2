// A small context menu: opened by right-click, or from the keyboard with the ContextMenu key or Shift+F10 on the
// focused row. Arrow keys move, Enter picks, Escape or a click elsewhere closes, and focus goes back to the row.
// Rendered into <body>: panes are `contain: strict`, which would clip a fixed-position box inside them.
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'

export interface MenuItem {
  label: string
  onSelect(): void
  testId?: string
}

export interface MenuAt {
  x: number
  y: number
  items: MenuItem[]
}

/** Whether a key event asks for a context menu (the menu key, or Shift+F10 as on Windows and GNOME). */
export function isMenuKey(e: { key: string; shiftKey: boolean }): boolean {
  return e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')
}

/** Where a keyboard-opened menu goes: just below the start of the element it is about. */
export function menuPointFor(el: Element | null): { x: number; y: number } {
  if (!el) return { x: 40, y: 40 }
  const r = el.getBoundingClientRect()
  return { x: r.left + 12, y: r.bottom }
}

export function ContextMenu({ menu, onClose, label }: { menu: MenuAt; onClose(): void; label: string }) {
  const ref = useRef<HTMLDivElement | null>(null)
  const [active, setActive] = useState(0)
  const [pos, setPos] = useState({ left: menu.x, top: menu.y })

  // Keep the menu on screen (near the right or bottom edge it opens to the other side).
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const r = el.getBoundingClientRect()
    const left = menu.x + r.width > window.innerWidth ? Math.max(0, menu.x - r.width) : menu.x
    const top = menu.y + r.height > window.innerHeight ? Math.max(0, menu.y - r.height) : menu.y
    setPos((p) => (p.left === left && p.top === top ? p : { left, top }))
  }, [menu.x, menu.y])

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const box = ref.current
    box?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose()
    }
    const onBlur = () => onClose()
    document.addEventListener('mousedown', onDown, true)
    window.addEventListener('blur', onBlur)
    return () => {
      document.removeEventListener('mousedown', onDown, true)
      window.removeEventListener('blur', onBlur)
      // Focus was in the menu (now gone, so on <body>): back to the row. A click elsewhere keeps its own focus.
      const now = document.activeElement
      if (before?.isConnected && (now === null || now === document.body || box?.contains(now))) before.focus()
    }
    // The menu is remounted for every opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const pick = (item: MenuItem | undefined) => {
    if (!item) return
    onClose()
    item.onSelect()
  }

  return createPortal(
    <div
      ref={ref}
      className="context-menu"
      role="menu"
      aria-label={label}
      data-testid="context-menu"
      style={{ left: pos.left, top: pos.top }}
      onContextMenu={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        const n = menu.items.length
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'Home' || e.key === 'End') {
          e.preventDefault()
          const next =
            e.key === 'Home'
              ? 0
              : e.key === 'End'
                ? n - 1
                : (active + (e.key === 'ArrowDown' ? 1 : -1) + n) % n
          setActive(next)
          ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[next]?.focus()
        } else if (e.key === 'Escape' || e.key === 'Tab') {
          e.preventDefault()
          e.stopPropagation()
          onClose()
        } else if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          pick(menu.items[active])
        }
      }}
    >
      {menu.items.map((item, i) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          className={`menu-item ${i === active ? 'active' : ''}`}
          tabIndex={i === active ? 0 : -1}
          data-testid={item.testId}
          onMouseEnter={() => setActive(i)}
          onClick={() => pick(item)}
        >
          {item.label}
        </button>
      ))}
    </div>,
    document.body,
  )
}
