// The kinds of pane a window can dock: every kind the shared workspace schema knows (PANE_KINDS), and the blotter,
// which it does not list yet. The engine checks a saved layout against that schema, so a pane of a kind it does
// not list is saved under a kind it does (`account`), with its own kind beside it (`windowKind`, a field the
// schema lets a pane carry), and read back as its own. Once PANE_KINDS lists the blotter, nothing is mapped and
// layouts saved meanwhile still read back right.
import { PANE_KINDS, type Layout, type PaneKind } from '../../../shared/workspace'

export const WINDOW_PANE_KINDS = [...new Set<string>([...PANE_KINDS, 'blotter'])] as ReadonlyArray<
  PaneKind | 'blotter'
>
export type WindowPaneKind = PaneKind | 'blotter'

/** The kind a pane of a kind the schema does not list is saved as. */
const STAND_IN: PaneKind = 'account'

export function isWindowPaneKind(value: unknown): value is WindowPaneKind {
  return typeof value === 'string' && (WINDOW_PANE_KINDS as readonly string[]).includes(value)
}

function isSharedKind(value: unknown): value is PaneKind {
  return typeof value === 'string' && (PANE_KINDS as readonly string[]).includes(value)
}

/** A saved layout's pane, as the window reads it: of any kind the window can dock. */
export type WindowLayout = Omit<Layout, 'panels'> & {
  panels: Record<
    string,
    Omit<Layout['panels'][string], 'contentComponent'> & { contentComponent: WindowPaneKind }
  >
}

/** The docking library's layout as the engine keeps it: every pane of a kind the shared schema lists. */
export function toSavedLayout<T extends { panels: unknown }>(layout: T): T {
  const panels: Record<string, unknown> = {}
  for (const [id, panel] of Object.entries(layout.panels as Record<string, Record<string, unknown>>))
    panels[id] = isSharedKind(panel.contentComponent)
      ? panel
      : { ...panel, contentComponent: STAND_IN, windowKind: panel.contentComponent }
  return { ...layout, panels }
}

/** A saved (and checked) layout as the window docks it: each stand-in back to its own kind. */
export function fromSavedLayout(layout: Layout): WindowLayout {
  const panels: WindowLayout['panels'] = {}
  for (const [id, panel] of Object.entries(layout.panels)) {
    const { windowKind, ...rest } = panel
    panels[id] = isWindowPaneKind(windowKind) ? { ...rest, contentComponent: windowKind } : rest
  }
  return { ...layout, panels }
}
