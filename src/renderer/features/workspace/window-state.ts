// This window's side of its workspace: the selected market that linked panes follow, and what the window's
// chrome asks the dock to do (add or focus a pane, switch workspace). One renderer is one window, so one store.
import { create } from 'zustand'
import type { WindowPaneKind } from './pane-kinds'

export interface DockRequest {
  /** Increases with every request, so the same one twice is still seen. */
  n: number
  action:
    { kind: 'show-pane'; pane: WindowPaneKind } | { kind: 'switch'; workspace: string } | { kind: 'reset' }
}

export interface WindowWorkspaceState {
  /** The market linked panes show; null until one is picked. */
  selectedMarket: string | null
  /** The workspace on screen (a saved id or a built-in one). */
  workspaceId: string | null
  /** Why the saved layout could not be restored; shown until dismissed. */
  notice: string | null
  request: DockRequest | null
  /** The watchlist this window shows and stars go to; null = the first. */
  watchlistId: string | null
  /** QuickOpen asked the event list to show this event (n increases per ask). */
  reveal: { event: string; n: number } | null
}

export const useWindowWorkspace = create<WindowWorkspaceState>()(() => ({
  selectedMarket: null,
  workspaceId: null,
  notice: null,
  request: null,
  watchlistId: null,
  reveal: null,
}))

export function revealEvent(event: string): void {
  const n = (useWindowWorkspace.getState().reveal?.n ?? 0) + 1
  useWindowWorkspace.setState({ reveal: { event, n } })
}

export function selectMarket(market: string | null): void {
  if (useWindowWorkspace.getState().selectedMarket !== market)
    useWindowWorkspace.setState({ selectedMarket: market })
}

export function requestDock(action: DockRequest['action']): void {
  const n = (useWindowWorkspace.getState().request?.n ?? 0) + 1
  useWindowWorkspace.setState({ request: { n, action } })
}

export function setWorkspaceNotice(notice: string | null): void {
  useWindowWorkspace.setState({ notice })
}
