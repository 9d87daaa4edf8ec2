// The main window: its docked workspace (events, watchlist, ladder, depth, chart, tape, account, alerts …),
// with quick open, the workspace menu, key settings, the help overlay and the status bar around it.
import { useEffect, useMemo, useState } from 'react'
import type { WindowTarget } from '../../shared/model'
import { AlertsLayer } from '../features/alerts/AlertsLayer'
import { TradingLayer } from '../features/trading'
import { KeySettings } from '../features/settings/KeySettings'
import { NoticeBanner } from '../features/status/NoticeBanner'
import { QuickOpen, type QuickOpenMode } from '../features/events/QuickOpen'
import { ReplayBar } from '../features/recording/ReplayBar'
import { StatusBar } from '../features/status/StatusBar'
import { useApi } from '../hooks/context'
import { useEvents } from '../store/events'
import { HelpOverlay, isTyping, useWorkspaceKeys } from '../features/workspace/keys'
import { WindowActionsProvider, type WindowActions } from '../features/workspace/panes'
import { Workspace } from '../features/workspace/Workspace'
import { useWorkspaceChoices, WorkspaceSwitcher } from '../features/workspace/WorkspaceSwitcher'
import { WorkspaceNotice } from '../features/workspace/WorkspaceNotice'
import { pageWindowKey, SHARED_MAIN_KEY } from '../features/workspace/page-key'
import {
  requestDock,
  revealEvent,
  selectMarket,
  useWindowWorkspace,
} from '../features/workspace/window-state'
import { Header, KeysAndHelp } from './Header'
import { RecordButton, RecordDialog } from '../features/recording/RecordDialog'
import { useMenuCommand } from './NewMarketWindow'

export function MainView() {
  const api = useApi()
  const [pageKey] = useState(pageWindowKey)
  const market = useWindowWorkspace((s) => s.selectedMarket)
  const [quickOpen, setQuickOpen] = useState<QuickOpenMode | null>(null)
  const [keySettings, setKeySettings] = useState(false)
  const [help, setHelp] = useState(false)
  const [recordings, setRecordings] = useState(false)
  const [windowError, setWindowError] = useState<string | null>(null)
  const events = useEvents((s) => s.events)
  const workspaces = useWorkspaceChoices()
  const ready = useWindowWorkspace((s) => s.workspaceId !== null)

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        setQuickOpen('here')
      } else if (e.key === '/' && !isTyping(e.target)) {
        e.preventDefault()
        setQuickOpen('here')
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  useWorkspaceKeys(api, () => setHelp(true))
  useMenuCommand('new-market-window', () => setQuickOpen('new-window'))
  // Back online after a network change: reconnect now instead of waiting out the backoff (DESIGN §4). Only the
  // main window asks, so several open windows don't each tear the one connection down.
  useEffect(() => {
    const onOnline = () => void api.reconnectNow()
    window.addEventListener('online', onOnline)
    return () => window.removeEventListener('online', onOnline)
  }, [api])

  const actions = useMemo<WindowActions>(
    () => ({
      openWindow: (target: WindowTarget) => {
        setWindowError(null)
        void api.openWindow(target).then((r) => {
          if (!r.ok) setWindowError(r.error.message)
        })
      },
      openKeySettings: () => setKeySettings(true),
    }),
    [api],
  )

  return (
    <div className="app main-view">
      <Header title={null}>
        <button
          className="quick-open-btn"
          onClick={() => setQuickOpen('here')}
          data-testid="quick-open-button"
        >
          <span>Search markets and events</span>
          <kbd>/</kbd>
          <kbd>Ctrl K</kbd>
        </button>
        <WorkspaceSwitcher />
        <button
          className="btn ghost"
          onClick={() => requestDock({ kind: 'show-pane', pane: 'inspector' })}
          disabled={!ready}
          data-testid="toggle-inspector"
          title="Show the inspector pane (Alt+Shift+I)"
        >
          Inspector
        </button>
        <RecordButton onClick={() => setRecordings(true)} />
        <KeysAndHelp onKeySettings={() => setKeySettings(true)} onHelp={() => setHelp(true)} />
      </Header>
      {windowError ? (
        <div className="alert error banner">
          Could not open the window: {windowError}
          <button className="icon-btn" onClick={() => setWindowError(null)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ) : null}
      <ReplayBar />
      <NoticeBanner />
      <WorkspaceNotice />
      <WindowActionsProvider actions={actions}>
        <Workspace windowKey={pageKey} sharedKey={SHARED_MAIN_KEY} fallback="default" remembersMarket />
      </WindowActionsProvider>
      <StatusBar onOpenInspector={() => requestDock({ kind: 'show-pane', pane: 'inspector' })} />
      {quickOpen ? (
        <QuickOpen
          events={events}
          mode={quickOpen}
          workspaces={workspaces}
          onPickWorkspace={(id) => {
            setQuickOpen(null)
            requestDock({ kind: 'switch', workspace: id })
          }}
          onClose={() => setQuickOpen(null)}
          onPick={(item, newWindow) => {
            setQuickOpen(null)
            if (item.kind === 'market') {
              if (newWindow) actions.openWindow({ kind: 'market', market: item.id })
              else selectMarket(item.id)
              revealEvent(item.eventId)
            } else if (newWindow) actions.openWindow({ kind: 'event', event: item.id })
            else {
              requestDock({ kind: 'show-pane', pane: 'events' })
              revealEvent(item.id)
            }
          }}
        />
      ) : null}
      {keySettings ? <KeySettings onClose={() => setKeySettings(false)} /> : null}
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
      {recordings ? <RecordDialog onClose={() => setRecordings(false)} /> : null}
      <AlertsLayer market={market} onOpenMarket={selectMarket} />
      <TradingLayer />
    </div>
  )
}
