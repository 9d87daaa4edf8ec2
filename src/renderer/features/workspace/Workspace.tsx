// The window's docked panes (dockview): restores the window's last workspace at start, saves every change to it
// (debounced), switches, saves-as and resets on request, and falls back to the built-in layout with a notice
// when a saved one cannot be restored (the saved one is left as it was). The layout is the library's own
// serialisation, checked against the shared schema before it is trusted either way.
import {
  DockviewReact,
  themeDark,
  type DockviewApi,
  type DockviewReadyEvent,
  type IDockviewHeaderActionsProps,
  type IDockviewPanelProps,
} from 'dockview-react'
import 'dockview-react/dist/styles/dockview.css'
import { useEffect, useRef, useState, type FunctionComponent } from 'react'
import type { MonitorApi } from '../../../shared/ipc'
import { layoutSchema, type Workspace as SavedWorkspace, type WorkspaceView } from '../../../shared/workspace'
import { useApi } from '../../hooks/context'
import { marketHint, marketLabel, marketNamesOf } from '../../lib/market-names'
import { useEvents, useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { builtIn, newPaneId, withPaneMinimums, type BuiltIn } from './layouts'
import { fromSavedLayout, isWindowPaneKind, toSavedLayout, type WindowPaneKind } from './pane-kinds'
import { PANE_COMPONENTS, PANES, paneConstraints, paneParams, paneStartWidth } from './panes'
import { selectMarket, setWorkspaceNotice, useWindowWorkspace, type DockRequest } from './window-state'
import { LinkIcon, PinIcon } from '../../ui/icons'

/** Layout changes come in bursts (a drag resizes many times); one save after the burst. */
const SAVE_DEBOUNCE_MS = 600

export interface WorkspaceProps {
  /** `main:<page>` or `market:<id>`: where the window's choice of workspace (and market) is remembered. */
  windowKey: string
  /**
   * `main` for a page of the main view: what a page without its own choice yet starts from (a new tab, a
   * relaunch), and what every such page's choices are written to as well, so the next new one opens on the last.
   */
  sharedKey?: string
  /** The built-in workspace this kind of window starts with and falls back to. */
  fallback: string
  /**
   * Whether the window's selected market is kept for its next start (reload or relaunch). A market window's
   * market is its URL's, so only the main window remembers one.
   */
  remembersMarket?: boolean
}

/** The pin on a market pane's tab bar: follow the window's market, or stay on this one. */
function HeaderActions({ activePanel }: IDockviewHeaderActionsProps) {
  const selected = useWindowWorkspace((s) => s.selectedMarket)
  const names = useMarketNames()
  // The library re-renders this on group changes only; a pin changes the panel's params.
  const [, bump] = useState(0)
  useEffect(() => {
    if (!activePanel) return
    const sub = activePanel.api.onDidParametersChange(() => bump((n) => n + 1))
    return () => sub.dispose()
  }, [activePanel])
  if (!activePanel) return null
  const kind = activePanel.api.component
  if (!isWindowPaneKind(kind) || !PANES[kind].market) return null
  const params = paneParams(activePanel.params)
  const pin = params.market
  const pinned = pin !== undefined
  return (
    <div className="dock-actions">
      <button
        type="button"
        className={`dock-pin ${pinned ? 'on' : ''}`}
        data-testid="pane-link"
        data-pinned={pinned}
        aria-pressed={pinned}
        aria-label={
          pin !== undefined ? `Pinned to ${marketLabel(names, pin)}` : "Follows the window's market"
        }
        disabled={!pinned && selected === null}
        title={
          pin !== undefined
            ? `Pinned to ${marketHint(names.get(pin), pin)}: click to follow the window's market again (Alt+P)`
            : "Follows the window's market: click to pin this pane to it (Alt+P)"
        }
        onClick={() => togglePin(activePanel.api, params, selected)}
      >
        {pinned ? <PinIcon /> : <LinkIcon />}
      </button>
    </div>
  )
}

/** Pins a market pane to the window's selected market, or lets a pinned one follow the window again. */
export function togglePin(
  panel: { updateParameters(p: object): void; setTitle(t: string): void; component: string },
  params: ReturnType<typeof paneParams>,
  selected: string | null,
): void {
  const kind = panel.component
  if (!isWindowPaneKind(kind) || !PANES[kind].market) return
  if (params.market !== undefined) {
    const { market: _drop, ...rest } = params
    panel.updateParameters(rest)
    panel.setTitle(PANES[kind].title)
  } else if (selected !== null) {
    panel.updateParameters({ ...params, market: selected })
    panel.setTitle(
      `${PANES[kind].title} · ${marketLabel(marketNamesOf(useEvents.getState().events), selected)}`,
    )
  }
}

const components: Record<string, FunctionComponent<IDockviewPanelProps>> = PANE_COMPONENTS

/**
 * Lays the dock out again at its own size. The library applies a minimum that changed (a new pane, another tab
 * in front, a restored layout saved with smaller panes) only at its next layout, which may be a while away.
 */
function holdMinimums(dock: DockviewApi): void {
  dock.layout(dock.width, dock.height, true)
}

/** Why a saved layout cannot be used, or null when it loaded. */
function restore(dock: DockviewApi, saved: SavedWorkspace): string | null {
  const parsed = layoutSchema.safeParse(saved.layout)
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'invalid layout'
  try {
    dock.fromJSON(withPaneMinimums(fromSavedLayout(parsed.data)) as never)
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
  return dock.panels.length === 0 ? 'it has no panes' : null
}

class Controller {
  dock: DockviewApi | null = null
  current: { id: string; name: string } | null = null
  private loading = false
  private saveTimer: ReturnType<typeof setTimeout> | null = null
  private disposed = false
  private listeners: { dispose(): void }[] = []
  private stopMarket: (() => void) | null = null
  /** A reload unmounts nothing: the pending layout (a pin just set) is written as the page goes. */
  private readonly onPageHide = () => this.flush()

  constructor(
    private readonly api: MonitorApi,
    private readonly props: WorkspaceProps,
  ) {}

  async start(dock: DockviewApi): Promise<void> {
    this.dock = dock
    this.listeners = [
      dock.onDidLayoutChange(() => this.changed()),
      // A group is held to its front pane's minimum: another tab in front can need more room.
      dock.onDidActivePanelChange(() => holdMinimums(dock)),
    ]
    const r = await this.api.getWorkspaces()
    if (this.disposed) return
    if (r.ok) useMonitor.setState({ workspace: r.value })
    const view = r.ok ? r.value : useMonitor.getState().workspace
    const remembered = this.ownOrShared(view?.windows ?? [])?.workspace
    this.load(remembered ?? this.props.fallback, false)
    if (this.props.remembersMarket) this.rememberMarket(view)
    window.addEventListener('pagehide', this.onPageHide)
  }

  dispose(): void {
    this.flush()
    this.disposed = true
    for (const l of this.listeners) l.dispose()
    this.stopMarket?.()
    window.removeEventListener('pagehide', this.onPageHide)
  }

  /**
   * Selects the market the window had last, unless one was picked while the workspaces loaded, then keeps the
   * engine told of every new selection. A market gone from the listing is still selected: panes show its id.
   */
  private rememberMarket(view: WorkspaceView | null): void {
    const stored = this.ownOrShared(view?.markets ?? [])?.market ?? null
    const picked = useWindowWorkspace.getState().selectedMarket
    if (picked === null && stored !== null) selectMarket(stored)
    else if (picked !== stored) this.rememberAs((key) => this.api.setWindowMarket(key, picked))
    this.stopMarket = useWindowWorkspace.subscribe((s, prev) => {
      if (s.selectedMarket !== prev.selectedMarket)
        this.rememberAs((key) => this.api.setWindowMarket(key, s.selectedMarket))
    })
  }

  /** The window's own entry of a per-window list, else the shared key's (a page with no choice of its own yet). */
  private ownOrShared<T extends { window: string }>(list: readonly T[]): T | undefined {
    const { windowKey, sharedKey } = this.props
    return list.find((w) => w.window === windowKey) ?? list.find((w) => w.window === sharedKey)
  }

  /** A choice is remembered under the window's own key and, for a page of the main view, the shared one. */
  private rememberAs(write: (key: string) => Promise<unknown>): void {
    const { windowKey, sharedKey } = this.props
    void write(windowKey)
    if (sharedKey !== undefined && sharedKey !== windowKey) void write(sharedKey)
  }

  /** Shows workspace `id`: saved, built-in, or the fallback with a notice. */
  load(id: string, remember: boolean): void {
    const dock = this.dock
    if (!dock) return
    this.flush()
    const view = useMonitor.getState().workspace
    const saved = view?.workspaces.find((w) => w.id === id)
    this.loading = true
    try {
      dock.clear()
      let notice: string | null = null
      if (saved) {
        const problem = restore(dock, saved)
        if (problem === null) this.current = { id: saved.id, name: saved.name }
        else {
          dock.clear()
          const fb = this.fallbackBuiltIn()
          fb.build(dock)
          this.current = { id: fb.id, name: fb.name }
          notice = `Workspace “${saved.name}” could not be restored (${problem}), so the ${fb.name} layout is shown. The saved one was left as it was: switch to it again, save over it, or delete it.`
        }
      } else {
        const b = builtIn(id)
        const fb = b ?? this.fallbackBuiltIn()
        fb.build(dock)
        this.current = { id: fb.id, name: fb.name }
        if (!b) notice = `The workspace this window showed no longer exists; the ${fb.name} layout is shown.`
      }
      holdMinimums(dock)
      setWorkspaceNotice(notice)
      useWindowWorkspace.setState({ workspaceId: this.current?.id ?? null })
    } finally {
      this.loading = false
    }
    const current = this.current
    if (remember && current) this.rememberAs((key) => this.api.setWindowWorkspace(key, current.id))
  }

  /** Saves the layout on screen as a new workspace and shows it. */
  async saveAs(name: string): Promise<string | null> {
    const dock = this.dock
    if (!dock) return 'The layout is not ready yet.'
    const r = await this.api.saveWorkspace({ name, layout: toSavedLayout(dock.toJSON()) as never })
    if (!r.ok) return r.error.message
    this.flushCancel()
    this.current = { id: r.value.id, name: r.value.name }
    useWindowWorkspace.setState({ workspaceId: r.value.id })
    setWorkspaceNotice(null)
    this.rememberAs((key) => this.api.setWindowWorkspace(key, r.value.id))
    return null
  }

  /** Rebuilds the current workspace's built-in layout (or the window's) and saves it over the current one. */
  reset(): void {
    const dock = this.dock
    if (!dock || !this.current) return
    const b = builtIn(this.current.id) ?? this.fallbackBuiltIn()
    this.loading = true
    try {
      dock.clear()
      b.build(dock)
      holdMinimums(dock)
    } finally {
      this.loading = false
    }
    setWorkspaceNotice(null)
    this.changed()
  }

  /** Focuses a pane of this kind, adding one beside the active pane when there is none. */
  showPane(kind: WindowPaneKind): void {
    const dock = this.dock
    if (!dock) return
    const existing = dock.panels.find((p) => p.api.component === kind)
    if (existing) {
      existing.api.setActive()
      focusPane(existing.group.element)
      return
    }
    const base = {
      id: newPaneId(kind),
      component: kind,
      title: PANES[kind].title,
      params: {},
      ...paneConstraints(kind),
    }
    const active = dock.activePanel
    if (!active) {
      focusPane(dock.addPanel(base).group.element)
      return
    }
    // Beside the active pane when the window has room for both, else below it, else as a tab of its group: a new
    // pane never squeezes the others below their minimums or pushes them out of the window when it can help it.
    let panel: ReturnType<DockviewApi['addPanel']> | null = null
    for (const direction of ['right', 'below', 'within'] as const) {
      if (panel) dock.removePanel(panel)
      panel = dock.addPanel({
        ...base,
        position: { referencePanel: active.id, direction },
        // More than half the active pane's width where the minimum alone reads poorly (the event matrix).
        ...(direction === 'right' ? { initialWidth: paneStartWidth(kind) } : {}),
      })
      if (dock.minimumWidth <= dock.width && dock.minimumHeight <= dock.height) break
    }
    holdMinimums(dock)
    if (panel) focusPane(panel.group.element)
  }

  request(req: DockRequest): void {
    const a = req.action
    if (a.kind === 'show-pane') this.showPane(a.pane)
    else if (a.kind === 'reset') this.reset()
    else this.load(a.workspace, true)
  }

  private fallbackBuiltIn(): BuiltIn {
    return builtIn(this.props.fallback) ?? (builtIn('default') as BuiltIn)
  }

  private changed(): void {
    if (this.loading || this.disposed) return
    if (this.saveTimer !== null) clearTimeout(this.saveTimer)
    this.saveTimer = setTimeout(() => this.flush(), SAVE_DEBOUNCE_MS)
  }

  private flushCancel(): void {
    if (this.saveTimer !== null) clearTimeout(this.saveTimer)
    this.saveTimer = null
  }

  /** Writes a pending change now (before a switch, on close). */
  private flush(): void {
    if (this.saveTimer === null) return
    this.flushCancel()
    const dock = this.dock
    const current = this.current
    // An empty dock is not a workspace anyone wants back; the window shows how to add panes instead.
    if (!dock || !current || dock.panels.length === 0) return
    void this.api
      .saveWorkspace({ id: current.id, name: current.name, layout: toSavedLayout(dock.toJSON()) as never })
      .then((r) => {
        if (!r.ok) setWorkspaceNotice(`The layout could not be saved: ${r.error.message}`)
      })
  }
}

/** Moves keyboard focus into a pane: its first focusable element, else the pane itself. */
export function focusPane(group: HTMLElement): void {
  const pane = group.querySelector<HTMLElement>('.dv-content-container .dock-pane')
  if (!pane) return
  const target = pane.querySelector<HTMLElement>(
    'input, select, textarea, button, [tabindex]:not([tabindex="-1"])',
  )
  ;(target ?? pane).focus()
}

let controller: Controller | null = null

/** The window's workspace controller, for the switcher and shortcuts; null before the dock is ready. */
export function workspaceController(): Pick<Controller, 'saveAs' | 'current' | 'dock'> | null {
  return controller
}

function Watermark() {
  return (
    <div className="state-block center" data-testid="dock-empty">
      <b>No panes</b>
      <span className="muted">
        Add one with <b>+ Pane</b>, or reset the layout from the workspace menu.
      </span>
    </div>
  )
}

export function Workspace(props: WorkspaceProps) {
  const api = useApi()
  const ref = useRef<Controller | null>(null)
  const { windowKey, sharedKey, fallback, remembersMarket } = props
  const request = useWindowWorkspace((s) => s.request)
  const handled = useRef(useWindowWorkspace.getState().request?.n ?? 0)
  // The library calls onReady from its own effect, which runs before this component's: keep the dock, then
  // start from an effect of ours.
  const [dock, setDock] = useState<DockviewApi | null>(null)

  useEffect(() => {
    if (!dock) return
    const c = new Controller(api, { windowKey, sharedKey, fallback, remembersMarket })
    ref.current = c
    controller = c
    void c.start(dock)
    return () => {
      c.dispose()
      if (controller === c) controller = null
      ref.current = null
    }
  }, [api, dock, windowKey, sharedKey, fallback, remembersMarket])

  useEffect(() => {
    if (!request || request.n === handled.current) return
    handled.current = request.n
    ref.current?.request(request)
  }, [request])

  const onReady = (event: DockviewReadyEvent) => setDock(event.api)

  // A window smaller than the panes' minimums together scrolls the dock, rather than cutting off the panes
  // past its edge: the dock is laid out at least that large.
  const [least, setLeast] = useState({ width: 0, height: 0 })
  useEffect(() => {
    if (!dock) return
    const update = () =>
      setLeast((l) =>
        l.width === dock.minimumWidth && l.height === dock.minimumHeight
          ? l
          : { width: dock.minimumWidth, height: dock.minimumHeight },
      )
    update()
    const sub = dock.onDidLayoutChange(update)
    return () => sub.dispose()
  }, [dock])

  return (
    <div className="dock-host" data-testid="workspace">
      <div className="dock-frame" style={{ minWidth: least.width, minHeight: least.height }}>
        <DockviewReact
          components={components}
          onReady={onReady}
          theme={themeDark}
          rightHeaderActionsComponent={HeaderActions}
          watermarkComponent={Watermark}
          disableFloatingGroups
        />
      </div>
    </div>
  )
}
