// The window's keyboard: moving between panes, opening one by kind, starring and pinning, and the `?` overlay
// that lists every shortcut (this list is the one place they are written down for the user).
import { useEffect, useRef } from 'react'
import type { MonitorApi } from '../../../shared/ipc'
import { WINDOW_PANE_KINDS, type WindowPaneKind } from './pane-kinds'
import { Dialog } from '../../ui/Dialog'
import { PANES, paneParams } from './panes'
import { toggleWatch } from './watchlists'
import { focusPane, togglePin, workspaceController } from './Workspace'
import { requestDock, useWindowWorkspace } from './window-state'

export const SHORTCUTS: ReadonlyArray<{ keys: string; what: string }> = [
  { keys: '?', what: 'This help' },
  { keys: '/  or  Ctrl K', what: 'Quick open: markets, events and workspaces' },
  { keys: 'F6  /  Shift F6', what: 'Next / previous pane group (focus moves into it)' },
  { keys: 'Alt 1 … 9', what: 'Go to pane group 1 … 9, left to right' },
  {
    keys: 'Alt Shift E / W / L / D / T / C / A / B / R / I / M',
    what: 'Show the Events, Watchlist, Ladder, Depth, Trades, Chart, Account, Blotter, alerts (R), Inspector or Matrix pane',
  },
  { keys: 'Alt W', what: 'Star / unstar the selected market on the watchlist' },
  { keys: 'Alt P', what: 'Pin the active pane to its market, or let it follow the window again' },
  { keys: 'Alt A', what: 'Alert rules and history' },
  { keys: '↑ ↓  or  j k', what: 'Move in a list (events, watchlist)' },
  { keys: 'Enter  /  Shift Enter', what: 'Open the market here / in its own window' },
  { keys: 's', what: 'Star the market row under the cursor (events list)' },
  { keys: 'a', what: 'New alert on the market row under the cursor' },
  { keys: 'Alt ↑ / Alt ↓', what: 'Move a watchlist row up / down' },
  { keys: 'Delete', what: 'Remove the watchlist row under the cursor' },
  {
    keys: 'Click a ladder level',
    what: 'Fill the ticket: an ask as a buy, a bid as a sell (it never sends)',
  },
  { keys: 'Enter  (in the ticket)', what: 'Send the order, once per press (asks first unless one-click)' },
  { keys: 'Ctrl Shift X', what: 'Cancel every working order of this profile (asks first unless one-click)' },
  { keys: 'Esc', what: 'Close a dialog or this help' },
]

/** Alt+Shift+letter opens a pane of that kind. */
export const PANE_KEYS: Record<string, WindowPaneKind> = {
  E: 'events',
  W: 'watchlist',
  L: 'ladder',
  D: 'depth',
  T: 'tape',
  C: 'chart',
  A: 'account',
  B: 'blotter',
  R: 'alerts',
  I: 'inspector',
  M: 'matrix',
}

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el) return false
  return (
    el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable
  )
}

function moveGroup(step: number | { index: number }): void {
  const dock = workspaceController()?.dock
  if (!dock) return
  // Left to right, then top to bottom, as the eye reads the window.
  const groups = [...dock.groups].sort((a, b) => {
    const ra = a.element.getBoundingClientRect()
    const rb = b.element.getBoundingClientRect()
    return Math.abs(ra.left - rb.left) > 4 ? ra.left - rb.left : ra.top - rb.top
  })
  if (groups.length === 0) return
  let index: number
  if (typeof step === 'number') {
    // From outside every pane, F6 starts at the first group and Shift+F6 at the last.
    const at = groups.findIndex((g) => g.element.contains(document.activeElement))
    index =
      at < 0
        ? step > 0
          ? 0
          : groups.length - 1
        : (((at + step) % groups.length) + groups.length) % groups.length
  } else index = step.index
  const group = groups[index]
  if (!group) return
  group.api.setActive()
  focusPane(group.element)
}

function togglePinOfActive(): void {
  const panel = workspaceController()?.dock?.activePanel
  if (!panel) return
  togglePin(panel.api, paneParams(panel.params), useWindowWorkspace.getState().selectedMarket)
}

/** Installs the window's workspace shortcuts. `onHelp` opens the overlay. */
export function useWorkspaceKeys(api: MonitorApi, onHelp: () => void): void {
  const help = useRef(onHelp)
  useEffect(() => {
    help.current = onHelp
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return
      if (e.key === 'F6') {
        e.preventDefault()
        moveGroup(e.shiftKey ? -1 : 1)
        return
      }
      if (e.altKey && !e.ctrlKey && !e.metaKey) {
        const code = e.code
        if (/^Digit[1-9]$/.test(code) && !e.shiftKey) {
          e.preventDefault()
          moveGroup({ index: Number(code.slice(5)) - 1 })
          return
        }
        const letter = code.startsWith('Key') ? code.slice(3) : ''
        if (e.shiftKey && letter in PANE_KEYS) {
          e.preventDefault()
          requestDock({ kind: 'show-pane', pane: PANE_KEYS[letter] as WindowPaneKind })
          return
        }
        if (!e.shiftKey && letter === 'W') {
          const market = useWindowWorkspace.getState().selectedMarket
          if (market !== null) {
            e.preventDefault()
            void toggleWatch(api, market)
          }
          return
        }
        if (!e.shiftKey && letter === 'P') {
          e.preventDefault()
          togglePinOfActive()
          return
        }
      }
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target)) {
        e.preventDefault()
        help.current()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [api])
}

export function HelpOverlay({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" testId="help-overlay" className="help-overlay" onClose={onClose}>
      <table className="help-table">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Panes: {WINDOW_PANE_KINDS.map((k) => `${PANES[k].title} (${PANES[k].hint})`).join(' · ')}. Drag a tab
        to split, tab or move a pane; drag a divider to resize. Changes are saved to the workspace shown.
      </p>
    </Dialog>
  )
}
