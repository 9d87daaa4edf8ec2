// The application menu's New Market Window…: main pushes the command to one window, which asks for the market
// with its quick-open palette and opens the pick in a window of its own.
import { useEffect, useRef, useState } from 'react'
import type { MenuCommand } from '../../shared/ipc'
import type { EventSummary } from '../../shared/model'
import { QuickOpen } from '../features/events/QuickOpen'
import { useApi } from '../hooks/context'

/** Runs `handler` whenever the application menu sends `command` to this window. */
export function useMenuCommand(command: MenuCommand, handler: () => void): void {
  const api = useApi()
  const latest = useRef(handler)
  useEffect(() => {
    latest.current = handler
  })
  useEffect(
    () =>
      api.onMenuCommand((received) => {
        if (received === command) latest.current()
      }),
    [api, command],
  )
}

/** For the market and event windows, which have no palette of their own. */
export function NewMarketWindowPalette({ events }: { events: readonly EventSummary[] }) {
  const api = useApi()
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useMenuCommand('new-market-window', () => setOpen(true))
  return (
    <>
      {error ? (
        <div className="alert error banner" data-testid="open-window-error">
          Could not open the window: {error}
          <button className="icon-btn" onClick={() => setError(null)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ) : null}
      {open ? (
        <QuickOpen
          events={events}
          mode="new-window"
          onClose={() => setOpen(false)}
          onPick={(item) => {
            setOpen(false)
            if (item.kind !== 'market') return
            setError(null)
            void api.openWindow({ kind: 'market', market: item.id }).then((r) => {
              if (!r.ok) setError(r.error.message)
            })
          }}
        />
      ) : null}
    </>
  )
}
