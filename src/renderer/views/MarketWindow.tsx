// A market in its own window (?view=market&market=ID): a docked workspace whose panes follow this market
// (the built-in Market layout: ladder, chart, depth, tape), with the same workspace menu as the main window.
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { WindowTarget } from '../../shared/model'
import { AlertsLayer } from '../features/alerts/AlertsLayer'
import { TradingLayer } from '../features/trading'
import { KeySettings } from '../features/settings/KeySettings'
import { ReplayBar } from '../features/recording/ReplayBar'
import { StatusBar } from '../features/status/StatusBar'
import { findMarket } from '../lib/events'
import { useEventsListing } from '../hooks/events'
import { listingAnswered } from '../store/events'
import { unnamedMarket } from '../lib/market-names'
import { useApi } from '../hooks/context'
import { HelpOverlay, useWorkspaceKeys } from '../features/workspace/keys'
import { WindowActionsProvider, type WindowActions } from '../features/workspace/panes'
import { Workspace } from '../features/workspace/Workspace'
import { WorkspaceNotice } from '../features/workspace/WorkspaceNotice'
import { WorkspaceSwitcher } from '../features/workspace/WorkspaceSwitcher'
import { selectMarket } from '../features/workspace/window-state'
import { Header, KeysAndHelp } from './Header'
import { NewMarketWindowPalette } from './NewMarketWindow'

export function MarketWindow({ market }: { market: string }) {
  const listing = useEventsListing()
  const [keySettings, setKeySettings] = useState(false)
  const [help, setHelp] = useState(false)
  const found = findMarket(listing.events, market)
  const api = useApi()
  // main.tsx selects the market before the first render; this keeps it in step if the prop ever changes.
  useEffect(() => selectMarket(market), [market])
  useWorkspaceKeys(api, () => setHelp(true))
  // An alert about this window's market brings it to the front; another market opens its own window.
  const openMarket = useCallback(
    (m: string) => {
      if (m === market) window.focus()
      else void api.openWindow({ kind: 'market', market: m })
    },
    [api, market],
  )
  const actions = useMemo<WindowActions>(
    () => ({
      openWindow: (target: WindowTarget) => void api.openWindow(target),
      openKeySettings: () => setKeySettings(true),
    }),
    [api],
  )
  return (
    <div className="app market-view">
      <Header
        title={
          found
            ? `${found.event.title} › ${found.market.title}`
            : unnamedMarket(market, listingAnswered(listing))
        }
      >
        <WorkspaceSwitcher />
        <KeysAndHelp onKeySettings={() => setKeySettings(true)} onHelp={() => setHelp(true)} />
      </Header>
      <NewMarketWindowPalette events={listing.events} />
      {listing.phase === 'ready' && !found ? (
        <div className="alert warn banner">
          This market is not in the current events listing; showing live data by id.
        </div>
      ) : null}
      <ReplayBar />
      <WorkspaceNotice />
      <WindowActionsProvider actions={actions}>
        <Workspace windowKey={`market:${market}`} fallback="market" />
      </WindowActionsProvider>
      <StatusBar />
      {keySettings ? <KeySettings onClose={() => setKeySettings(false)} /> : null}
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
      <AlertsLayer market={market} onOpenMarket={openMarket} />
      <TradingLayer />
    </div>
  )
}
