// The main window: events | market pane | account, with quick open, key settings and the inspector.
import { useEffect, useRef, useState } from 'react'
import { AccountPane } from '../components/AccountPane'
import { AlertsLayer } from '../components/AlertsLayer'
import { Inspector } from '../components/Inspector'
import { KeySettings } from '../components/KeySettings'
import { MarketPane } from '../components/MarketPane'
import { NoticeBanner } from '../components/NoticeBanner'
import { QuickOpen, type QuickOpenMode } from '../components/QuickOpen'
import { StatusBar } from '../components/StatusBar'
import { useApi } from '../hooks/context'
import { useEvents } from '../store/events'
import { EventsColumn } from './EventsColumn'
import { Header } from './Header'
import { useMenuCommand } from './NewMarketWindow'

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el) return false
  return (
    el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable
  )
}

export function MainView() {
  const api = useApi()
  const [market, setMarket] = useState<string | null>(null)
  const [quickOpen, setQuickOpen] = useState<QuickOpenMode | null>(null)
  const [keySettings, setKeySettings] = useState(false)
  const [inspector, setInspector] = useState(false)
  const [reveal, setReveal] = useState<{ event: string; n: number } | null>(null)
  const [windowError, setWindowError] = useState<string | null>(null)
  const searchRef = useRef<HTMLInputElement | null>(null)
  const events = useEvents((s) => s.events)

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
  useMenuCommand('new-market-window', () => setQuickOpen('new-window'))
  // Back online after a network change: reconnect now instead of waiting out the backoff (DESIGN §4). Only the
  // main window asks, so several open windows don't each tear the one connection down.
  useEffect(() => {
    const onOnline = () => void api.reconnectNow()
    window.addEventListener('online', onOnline)
    return () => window.removeEventListener('online', onOnline)
  }, [api])

  const openWindow = (target: Parameters<typeof api.openWindow>[0]) => {
    setWindowError(null)
    void api.openWindow(target).then((r) => {
      if (!r.ok) setWindowError(r.error.message)
    })
  }
  const openMarket = (id: string, newWindow: boolean) => {
    if (newWindow) openWindow({ kind: 'market', market: id })
    else setMarket(id)
  }
  const openEvent = (id: string) => openWindow({ kind: 'event', event: id })

  return (
    <div className={`app main-view ${inspector ? 'with-inspector' : ''}`}>
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
        <button
          className={`btn ghost ${inspector ? 'on' : ''}`}
          onClick={() => setInspector(!inspector)}
          data-testid="toggle-inspector"
        >
          Inspector
        </button>
        <button className="btn ghost" onClick={() => setKeySettings(true)} data-testid="header-key-settings">
          Key settings
        </button>
      </Header>
      {windowError ? (
        <div className="alert error banner">
          Could not open the window: {windowError}
          <button className="icon-btn" onClick={() => setWindowError(null)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ) : null}
      <NoticeBanner />
      <main className="main-grid">
        <EventsColumn
          selectedMarket={market}
          onOpenMarket={openMarket}
          onOpenEvent={openEvent}
          onOpenKeySettings={() => setKeySettings(true)}
          reveal={reveal}
          searchRef={searchRef}
        />
        {market ? (
          <MarketPane key={market} market={market} owner="main-market" />
        ) : (
          <section className="market-pane empty" data-testid="market-pane-empty">
            <div className="state-block center">
              <b>No market open</b>
              <span className="muted">
                Expand an event and pick a market, or press <kbd>/</kbd> to jump to one. <kbd>⇧ Enter</kbd>{' '}
                opens it in its own window.
              </span>
            </div>
          </section>
        )}
        <AccountPane onOpenKeySettings={() => setKeySettings(true)} />
      </main>
      {inspector ? <Inspector onClose={() => setInspector(false)} /> : null}
      <StatusBar onOpenInspector={() => setInspector(true)} />
      {quickOpen ? (
        <QuickOpen
          events={events}
          mode={quickOpen}
          onClose={() => setQuickOpen(null)}
          onPick={(item, newWindow) => {
            setQuickOpen(null)
            if (item.kind === 'market') {
              openMarket(item.id, newWindow)
              setReveal({ event: item.eventId, n: (reveal?.n ?? 0) + 1 })
            } else if (newWindow) openEvent(item.id)
            else setReveal({ event: item.id, n: (reveal?.n ?? 0) + 1 })
          }}
        />
      ) : null}
      {keySettings ? <KeySettings onClose={() => setKeySettings(false)} /> : null}
      <AlertsLayer market={market} onOpenMarket={setMarket} />
    </div>
  )
}
