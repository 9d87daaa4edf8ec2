// Command-palette search over events, markets and workspaces (`/` or Ctrl/Cmd+K). Enter opens in the main
// window, Shift+Enter in a new window; a workspace is switched to. In 'new-window' mode (the menu's New Market
// Window…) it lists markets only and Enter always opens the pick in its own window.
import { useEffect, useMemo, useRef, useState } from 'react'
import type { EventSummary } from '../../../shared/model'
import { quickOpen, type QuickItem } from '../../lib/events'
import { Dialog } from '../../ui/Dialog'

export type QuickOpenMode = 'here' | 'new-window'

export interface QuickOpenProps {
  events: readonly EventSummary[]
  /** Default 'here'. */
  mode?: QuickOpenMode
  onClose(): void
  onPick(item: QuickItem, newWindow: boolean): void
  /** Workspaces to offer (not in 'new-window' mode); picking one calls onPickWorkspace. */
  workspaces?: readonly { id: string; name: string }[]
  onPickWorkspace?(id: string): void
}

type Entry =
  | { kind: 'item'; key: string; item: QuickItem }
  | { kind: 'workspace'; key: string; id: string; name: string }

const LIMIT = 60

export function QuickOpen({
  events,
  mode = 'here',
  onClose,
  onPick,
  workspaces = [],
  onPickWorkspace,
}: QuickOpenProps) {
  const [query, setQuery] = useState('')
  const [cursor, setCursor] = useState(0)
  const input = useRef<HTMLInputElement | null>(null)
  const newWindowOnly = mode === 'new-window'
  const items = useMemo<Entry[]>(() => {
    const found = newWindowOnly
      ? quickOpen(events, query, Number.POSITIVE_INFINITY)
          .filter((item) => item.kind === 'market')
          .slice(0, LIMIT)
      : quickOpen(events, query, LIMIT)
    const entries: Entry[] = found.map((item) => ({ kind: 'item', key: `${item.kind}:${item.id}`, item }))
    if (newWindowOnly || !onPickWorkspace) return entries
    const q = query.trim().toLowerCase()
    const ws: Entry[] = workspaces
      .filter((w) => q === '' || w.name.toLowerCase().includes(q) || 'workspace'.startsWith(q))
      .map((w) => ({ kind: 'workspace', key: `workspace:${w.id}`, id: w.id, name: w.name }))
    // A query that names a workspace puts it first; otherwise markets and events lead.
    const named = ws.some((w) => w.kind === 'workspace' && w.name.toLowerCase() === q)
    return named ? [...ws, ...entries] : [...entries, ...ws]
  }, [events, query, newWindowOnly, workspaces, onPickWorkspace])
  const pick = (entry: Entry | undefined, shift: boolean) => {
    if (!entry) return
    if (entry.kind === 'workspace') onPickWorkspace?.(entry.id)
    else onPick(entry.item, newWindowOnly || shift)
  }
  const active = Math.min(cursor, Math.max(0, items.length - 1))

  useEffect(() => {
    document.getElementById(`qo-${active}`)?.scrollIntoView({ block: 'nearest' })
  }, [active])

  return (
    <Dialog
      title={newWindowOnly ? 'Open a market in a new window' : 'Quick open'}
      heading={null}
      testId="quick-open"
      kind="palette"
      initialFocus={input}
      onClose={onClose}
      boxProps={{ 'data-mode': mode }}
    >
      {newWindowOnly ? (
        <div className="popover-head" data-testid="quick-open-mode">
          <span className="pane-title">Open in a new window</span>
          <span className="muted">Markets only</span>
        </div>
      ) : null}
      <input
        ref={input}
        className="palette-input"
        placeholder={newWindowOnly ? 'Type a market name…' : 'Jump to a market or event…'}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
          setCursor(0)
        }}
        onKeyDown={(e) => {
          // Escape closes the dialog (ui/Dialog).
          if (e.key === 'ArrowDown' || (e.ctrlKey && e.key === 'n')) {
            e.preventDefault()
            setCursor(Math.min(items.length - 1, active + 1))
          } else if (e.key === 'ArrowUp' || (e.ctrlKey && e.key === 'p')) {
            e.preventDefault()
            setCursor(Math.max(0, active - 1))
          } else if (e.key === 'Enter') {
            e.preventDefault()
            pick(items[active], e.shiftKey)
          }
        }}
        aria-label="Quick open"
        data-testid="quick-open-input"
      />
      <div className="palette-list" role="listbox">
        {items.length === 0 ? <div className="empty-note">Nothing matches “{query}”.</div> : null}
        {items.map((entry, i) => (
          <div
            key={entry.key}
            id={`qo-${i}`}
            role="option"
            aria-selected={i === active}
            className={`palette-item ${i === active ? 'cursor' : ''}`}
            data-testid="quick-open-item"
            data-kind={entry.kind === 'item' ? entry.item.kind : 'workspace'}
            data-id={entry.kind === 'item' ? entry.item.id : entry.id}
            onMouseMove={() => i !== active && setCursor(i)}
            onClick={(e) => pick(entry, e.shiftKey)}
          >
            {entry.kind === 'item' ? (
              <>
                <span className={`tag tag-${entry.item.kind}`}>
                  {entry.item.kind === 'market' ? 'Market' : 'Event'}
                </span>
                <span className="ellipsis">{entry.item.title}</span>
                <span className="muted ellipsis detail">{entry.item.detail}</span>
              </>
            ) : (
              <>
                <span className="tag tag-workspace">Workspace</span>
                <span className="ellipsis">{entry.name}</span>
                <span className="muted ellipsis detail">switch this window to it</span>
              </>
            )}
          </div>
        ))}
      </div>
      <div className="palette-foot muted">
        {newWindowOnly ? (
          <>
            <kbd>Enter</kbd> open in a new window · <kbd>Esc</kbd> cancel
          </>
        ) : (
          <>
            <kbd>Enter</kbd> open here · <kbd>Shift Enter</kbd> new window · <kbd>Esc</kbd> close
          </>
        )}
      </div>
    </Dialog>
  )
}
