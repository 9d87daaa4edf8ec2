// The built-in workspaces, built with the docking library's own calls (so they stay valid whatever its
// serialisation becomes), and how a new pane gets an id and a place.
import type { DockviewApi } from 'dockview-react'
import { DEFAULT_WORKSPACE_ID, MARKET_WORKSPACE_ID } from '../../../shared/workspace'
import type { WindowLayout, WindowPaneKind } from './pane-kinds'
import { PANES, paneConstraints } from './panes'

export interface BuiltIn {
  id: string
  name: string
  build(api: DockviewApi): void
}

export function newPaneId(kind: WindowPaneKind): string {
  return `${kind}-${Math.random().toString(36).slice(2, 8)}`
}

function add(
  api: DockviewApi,
  kind: WindowPaneKind,
  position?: { ref: string; direction: 'right' | 'below' | 'within' },
  size?: { width?: number; height?: number },
  inactive = false,
): string {
  const id = `${kind}-1`
  api.addPanel({
    id,
    component: kind,
    title: PANES[kind].title,
    params: {},
    ...paneConstraints(kind),
    ...(position ? { position: { referencePanel: position.ref, direction: position.direction } } : {}),
    ...(size?.width !== undefined ? { initialWidth: size.width } : {}),
    ...(size?.height !== undefined ? { initialHeight: size.height } : {}),
    ...(inactive ? { inactive: true } : {}),
  })
  return id
}

/**
 * The main window's: events and watchlist | ladder over depth | chart over tape | account, blotter and alerts. A window
 * too narrow for four columns at their minimums (about 1,160 px) gets three, the account under the events, so
 * nothing is pushed past its edge (a 1,000 px window fits with room to spare).
 */
const mainDefault: BuiltIn = {
  id: DEFAULT_WORKSPACE_ID,
  name: 'Default',
  build(api) {
    // Columns first, then what stacks inside them: a split "below" a pane divides that pane's column only.
    const events = add(api, 'events')
    const ladder = add(api, 'ladder', { ref: events, direction: 'right' })
    const chart = add(api, 'chart', { ref: ladder, direction: 'right' })
    const wide =
      api.width === 0 || fitsBeside(api, () => add(api, 'account', { ref: chart, direction: 'right' }))
    const account = wide ? 'account-1' : add(api, 'account', { ref: events, direction: 'below' })
    add(api, 'depth', { ref: ladder, direction: 'below' })
    add(api, 'tape', { ref: chart, direction: 'below' })
    add(api, 'watchlist', { ref: events, direction: 'within' }, undefined, true)
    const blotter = add(api, 'blotter', { ref: account, direction: 'within' }, undefined, true)
    const alerts = add(api, 'alerts', { ref: account, direction: 'within' }, undefined, true)
    // The library lists a pane added behind the front one as its group's most recently used, and shows that one
    // when the front tab is dragged away: the account is made the latest used, then alerts, then the blotter.
    for (const id of [blotter, alerts, account]) api.getPanel(id)?.api.setActive()
    if (wide) {
      sizeGroup(api, events, { width: 360 })
      sizeGroup(api, ladder, { width: 330 })
      sizeGroup(api, account, { width: 330 })
    } else {
      // The first column as wide as the account needs, the rest shared by the ladder's and the chart's.
      const first = paneConstraints('account').minimumWidth
      sizeGroup(api, events, { width: first })
      sizeGroup(api, ladder, { width: Math.round((api.width - first) / 2) })
      sizeGroup(api, account, { height: Math.round(api.height / 2) })
    }
    sizeGroup(api, 'depth-1', { height: 200 })
    sizeGroup(api, 'tape-1', { height: 260 })
    api.getPanel(ladder)?.api.setActive()
  },
}

/** Adds a column with `addColumn`; false (and the column taken out again) when the window then has no room. */
function fitsBeside(api: DockviewApi, addColumn: () => string): boolean {
  const id = addColumn()
  if (api.minimumWidth <= api.width) return true
  const panel = api.getPanel(id)
  if (panel) api.removePanel(panel)
  return false
}

/** A market window's: ladder | chart over depth | tape. */
const marketDefault: BuiltIn = {
  id: MARKET_WORKSPACE_ID,
  name: 'Market',
  build(api) {
    const ladder = add(api, 'ladder')
    const chart = add(api, 'chart', { ref: ladder, direction: 'right' })
    add(api, 'tape', { ref: chart, direction: 'right' })
    add(api, 'depth', { ref: chart, direction: 'below' })
    sizeGroup(api, ladder, { width: 330 })
    sizeGroup(api, 'tape-1', { width: 340 })
    sizeGroup(api, 'depth-1', { height: 220 })
    api.getPanel(ladder)?.api.setActive()
  },
}

function sizeGroup(api: DockviewApi, panel: string, size: { width?: number; height?: number }): void {
  api.getPanel(panel)?.group.api.setSize(size)
}

/**
 * A saved layout with every pane's minimum size set from its kind: a layout saved before minimums existed, or
 * edited by hand, gets today's, and a saved number is never trusted over the app's own.
 */
export function withPaneMinimums(layout: WindowLayout): WindowLayout {
  const panels: WindowLayout['panels'] = {}
  for (const [id, panel] of Object.entries(layout.panels))
    panels[id] = { ...panel, ...paneConstraints(panel.contentComponent) }
  return { ...layout, panels }
}

export const BUILT_INS: readonly BuiltIn[] = [mainDefault, marketDefault]

export function builtIn(id: string): BuiltIn | undefined {
  return BUILT_INS.find((b) => b.id === id)
}
