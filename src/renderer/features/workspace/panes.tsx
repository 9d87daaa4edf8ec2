// Every kind of pane a workspace can hold, as the docking library's components. A pane shows the window's
// selected market unless its params pin one; its interests are owned by the pane (released when it closes).
// Params come from a saved layout, so they are parsed here again: a pane never trusts them blindly.
import type { IDockviewPanelProps } from 'dockview-react'
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type ComponentType,
  type FunctionComponent,
  type ReactNode,
} from 'react'
import type { ChannelFilter, WindowTarget } from '../../../shared/model'
import { paneParamsSchema, type PaneParams } from '../../../shared/workspace'
import { AccountPane } from '../account'
import { AlertsPane } from '../alerts'
import { EventMatrix, EventsColumn } from '../events'
import { DepthChart, MarketPane, PriceChart, TradeTape, useMarketFeed, type TapeFilters } from '../market'
import { Inspector } from '../status'
import { Blotter } from '../trading'
import { currentWindowTarget } from '../../api'
import { useApi } from '../../hooks/context'
import { findMarket } from '../../lib/events'
import { useEvents } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import type { WindowPaneKind } from './pane-kinds'
import { WatchlistPane } from './WatchlistPane'
import { requestDock, selectMarket, useWindowWorkspace } from './window-state'

export interface PaneInfo {
  title: string
  /** Follows the selected market (or a pinned one). */
  market: boolean
  /** Shown in the help overlay and the add-pane menu. */
  hint: string
}

export const PANES: Record<WindowPaneKind, PaneInfo> = {
  events: { title: 'Events', market: false, hint: 'every event and market; Enter opens, s stars' },
  watchlist: { title: 'Watchlist', market: false, hint: 'your markets with live prices' },
  ladder: { title: 'Ladder', market: true, hint: 'the order book with the quote' },
  depth: { title: 'Depth', market: true, hint: 'cumulative bid and ask depth' },
  tape: { title: 'Trades', market: true, hint: 'the trade tape with filters' },
  chart: { title: 'Chart', market: true, hint: 'candles and volume' },
  account: { title: 'Account', market: false, hint: 'balances, positions with P&L, orders, fills' },
  alerts: { title: 'Alerts', market: false, hint: 'your alert rules and their state' },
  inspector: { title: 'Inspector', market: false, hint: 'raw frames and counters' },
  matrix: { title: 'Event matrix', market: true, hint: "every market of the selected market's event" },
  blotter: {
    title: 'Blotter',
    market: false,
    hint: "today's order actions, with their outcome and round trip",
  },
}

/**
 * The smallest size (px) at which a pane's content is still readable, its columns fit without running together;
 * and, where that minimum would read poorly, the width a new one starts at.
 */
const PANE_SIZES: Record<WindowPaneKind, { width: number; height: number; start?: number }> = {
  events: { width: 240, height: 160 },
  watchlist: { width: 220, height: 120 },
  ladder: { width: 270, height: 220 },
  depth: { width: 220, height: 120 },
  tape: { width: 280, height: 140 },
  chart: { width: 240, height: 160 },
  // The fills table's columns (time, market, side, outcome, price, size, fee) at their least.
  account: { width: 370, height: 200 },
  alerts: { width: 240, height: 140 },
  inspector: { width: 300, height: 160 },
  matrix: { width: 420, height: 160, start: 620 },
  blotter: { width: 300, height: 140, start: 520 },
}

/**
 * A pane's size limits in the docking library's terms. The library keeps a group no smaller than its active pane's
 * minimum, so a splitter drag or a window resize stops there instead of squeezing the content into overlap.
 */
export function paneConstraints(kind: WindowPaneKind): { minimumWidth: number; minimumHeight: number } {
  const { width, height } = PANE_SIZES[kind]
  return { minimumWidth: width, minimumHeight: height }
}

/** The width a new pane of this kind starts at: its minimum, or more where that reads poorly. */
export function paneStartWidth(kind: WindowPaneKind): number {
  return PANE_SIZES[kind].start ?? PANE_SIZES[kind].width
}

/** What panes ask of the window around them. */
export interface WindowActions {
  openWindow(target: WindowTarget): void
  openKeySettings(): void
}

const ActionsContext = createContext<WindowActions | null>(null)

export function WindowActionsProvider({
  actions,
  children,
}: {
  actions: WindowActions
  children: ReactNode
}) {
  return <ActionsContext.Provider value={actions}>{children}</ActionsContext.Provider>
}

function useWindowActions(): WindowActions {
  const a = useContext(ActionsContext)
  if (!a) throw new Error('WindowActionsProvider is missing')
  return a
}

export function paneParams(raw: unknown): PaneParams {
  const parsed = paneParamsSchema.safeParse(raw ?? {})
  return parsed.success ? parsed.data : {}
}

/** The market a pane shows: its pinned one, else the window's selection. */
function usePaneMarket(params: PaneParams): string | null {
  const selected = useWindowWorkspace((s) => s.selectedMarket)
  return params.market ?? selected
}

function Frame({
  kind,
  market,
  children,
}: {
  kind: WindowPaneKind
  market?: string | null
  children: ReactNode
}) {
  return (
    // tabIndex -1: the keyboard's pane navigation can focus a pane that has no control of its own (depth chart).
    <div
      className="dock-pane"
      data-testid="dock-pane"
      data-pane={kind}
      data-market={market ?? undefined}
      tabIndex={-1}
    >
      {market ? <NotListed market={market} /> : null}
      {children}
    </div>
  )
}

/**
 * A selected or pinned market the listing does not hold (closed, or restored from a layout saved before it
 * went) is still shown by id, with this said above it rather than a pane that silently waits. A market
 * window's own market is left to the window's banner, which says it once for all its panes.
 */
function NotListed({ market }: { market: string }) {
  const missing = useEvents((s) => s.phase === 'ready' && findMarket(s.events, market) === null)
  const target = currentWindowTarget()
  if (!missing || (target.kind === 'market' && target.market === market)) return null
  return (
    <div className="alert warn banner pane-note" data-testid="pane-not-listed" title={market}>
      <span>
        <b>{market}</b> is not in the events listing: it may have closed.
      </span>
    </div>
  )
}

/** The ladder's empty state keeps the id the main window's market pane always had. */
function NoMarket({ testId = 'pane-no-market' }: { testId?: string }) {
  return (
    <div className="state-block center" data-testid={testId}>
      <b>No market selected</b>
      <span className="muted">
        Pick one in Events or the watchlist, or press <kbd>/</kbd> to jump to one.
      </span>
    </div>
  )
}

type Props = IDockviewPanelProps

/** Whether the pane is on screen (not a tab behind another): hidden panes subscribe to nothing they need not. */
function usePaneVisible(api: Props['api']): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const sub = api.onDidVisibilityChange(changed)
      return () => sub.dispose()
    },
    [api],
  )
  return useSyncExternalStore(subscribe, () => api.isVisible)
}

function EventsPaneView({ api }: Props) {
  const actions = useWindowActions()
  const visible = usePaneVisible(api)
  const selected = useWindowWorkspace((s) => s.selectedMarket)
  const reveal = useWindowWorkspace((s) => s.reveal)
  const searchRef = useMemo(() => ({ current: null as HTMLInputElement | null }), [])
  return (
    <Frame kind="events">
      <EventsColumn
        selectedMarket={selected}
        onOpenMarket={(id, newWindow) =>
          newWindow ? actions.openWindow({ kind: 'market', market: id }) : selectMarket(id)
        }
        onOpenEvent={(id) => actions.openWindow({ kind: 'event', event: id })}
        onOpenKeySettings={actions.openKeySettings}
        reveal={reveal}
        searchRef={searchRef}
        subscribe={visible}
      />
    </Frame>
  )
}

function WatchlistPaneView({ api }: Props) {
  const actions = useWindowActions()
  const visible = usePaneVisible(api)
  return (
    <Frame kind="watchlist">
      <WatchlistPane
        owner={`pane:${api.id}`}
        subscribe={visible}
        onOpenMarket={(id, newWindow) =>
          newWindow ? actions.openWindow({ kind: 'market', market: id }) : selectMarket(id)
        }
      />
    </Frame>
  )
}

function LadderPaneView({ api, params }: Props) {
  const market = usePaneMarket(paneParams(params))
  return (
    <Frame kind="ladder" market={market}>
      {market === null ? (
        <NoMarket testId="market-pane-empty" />
      ) : (
        <MarketPane key={market} market={market} owner={`pane:${api.id}`} />
      )}
    </Frame>
  )
}

/** A pane that draws one market: the part of its feed the drawing needs, then the drawing or "no market". */
function drawingPane(
  kind: WindowPaneKind,
  filter: ChannelFilter,
  Drawing: ComponentType<{ market: string }>,
) {
  return function DrawingPane({ api, params }: Props) {
    const market = usePaneMarket(paneParams(params))
    useMarketFeed(market, `pane:${api.id}`, filter)
    return (
      <Frame kind={kind} market={market}>
        {market === null ? <NoMarket /> : <Drawing key={market} market={market} />}
      </Frame>
    )
  }
}

const DepthPaneView = drawingPane('depth', 'orderbook', DepthChart)
const ChartPaneView = drawingPane('chart', 'trades', PriceChart)

function TapePaneView({ api, params }: Props) {
  const p = paneParams(params)
  const market = usePaneMarket(p)
  useMarketFeed(market, `pane:${api.id}`, 'trades')
  const client = useApi()
  const rule = useMonitor((s) => s.workspace?.bigTrades.find((b) => b.market === market) ?? null)
  const filters: TapeFilters = { side: p.side ?? 'all', minSize: p.minSize ?? null }
  return (
    <Frame kind="tape" market={market}>
      {market === null ? (
        <NoMarket />
      ) : (
        <TradeTape
          key={market}
          market={market}
          filters={filters}
          onFiltersChange={(f) => api.updateParameters({ ...p, side: f.side, minSize: f.minSize })}
          bigTrade={rule ? { minSize: rule.minSize, relative: rule.relative } : null}
          onBigTradeChange={(r) => void client.setBigTrade(market, r)}
        />
      )}
    </Frame>
  )
}

/** A position's close fills its market's ticket: show that market in the window's ladder. */
function showLadderOf(market: string): void {
  selectMarket(market)
  requestDock({ kind: 'show-pane', pane: 'ladder' })
}

function AccountPaneView(_: Props) {
  const actions = useWindowActions()
  return (
    <Frame kind="account">
      <AccountPane onOpenKeySettings={actions.openKeySettings} onOpenMarket={showLadderOf} />
    </Frame>
  )
}

function BlotterPaneView(_: Props) {
  return (
    <Frame kind="blotter">
      <Blotter />
    </Frame>
  )
}

function AlertsPaneView(_: Props) {
  return (
    <Frame kind="alerts">
      <AlertsPane />
    </Frame>
  )
}

function InspectorPaneView({ api }: Props) {
  // The engine keeps raw frames only while an inspector is open: a tab behind another is not open.
  const visible = usePaneVisible(api)
  return <Frame kind="inspector">{visible ? <Inspector onClose={() => api.close()} /> : null}</Frame>
}

function MatrixPaneView({ api, params }: Props) {
  const market = usePaneMarket(paneParams(params))
  const events = useEvents((s) => s.events)
  const found = market === null ? undefined : findMarket(events, market)
  // The matrix subscribes to its event's markets itself; the pane only keeps its title in step.
  useEffect(() => {
    api.setTitle(found ? `Matrix · ${found.event.title}` : PANES.matrix.title)
  }, [api, found])
  return (
    <Frame kind="matrix" market={market}>
      {found ? (
        <EventMatrix event={found.event} />
      ) : market === null ? (
        <NoMarket />
      ) : (
        <div className="state-block center">The selected market is not in the events listing.</div>
      )}
    </Frame>
  )
}

export const PANE_COMPONENTS: Record<WindowPaneKind, FunctionComponent<Props>> = {
  events: EventsPaneView,
  watchlist: WatchlistPaneView,
  ladder: LadderPaneView,
  depth: DepthPaneView,
  tape: TapePaneView,
  chart: ChartPaneView,
  account: AccountPaneView,
  alerts: AlertsPaneView,
  inspector: InspectorPaneView,
  matrix: MatrixPaneView,
  blotter: BlotterPaneView,
}
