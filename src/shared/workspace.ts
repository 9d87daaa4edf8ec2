// Workspaces, watchlists, per-market tape rules and the price unit: the shapes the engine keeps in settings and windows edit.
// One schema serves the settings file, the IPC arguments and the window that restores a layout, so a layout
// that reaches a docking library has passed the same checks wherever it came from. A layout is the docking
// library's own serialisation; these checks bound its size and nesting and pin every pane to a known kind with
// known parameters, which is all the engine needs to vouch for (the library judges the geometry itself).
import { z } from 'zod'
import { PRICE_UNITS, type PriceUnit } from './price-format'

export const PANE_KINDS = [
  'events',
  'watchlist',
  'ladder',
  'depth',
  'tape',
  'chart',
  'account',
  'alerts',
  'inspector',
  'matrix',
] as const
export type PaneKind = (typeof PANE_KINDS)[number]

export const MAX_WORKSPACES = 50
export const MAX_WATCHLISTS = 50
export const MAX_WATCHLIST_MARKETS = 500
export const MAX_BIG_TRADE_RULES = 2000
export const MAX_WINDOW_WORKSPACES = 64
/** A serialised layout of a few dozen panes is a few kilobytes; this leaves room and bounds the settings file. */
export const MAX_LAYOUT_BYTES = 128 * 1024
export const MAX_LAYOUT_PANES = 64
const MAX_LAYOUT_DEPTH = 24
const ID_MAX = 200
const NAME_MAX = 60

/** The workspaces built into the app: always listed, restorable whatever settings hold. */
export const DEFAULT_WORKSPACE_ID = 'default'
export const MARKET_WORKSPACE_ID = 'market'

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/
/** An id kept in settings (a profile's, a workspace's, a market's): non-empty, bounded, printable. */
export const idSchema = z
  .string()
  .min(1)
  .max(ID_MAX)
  .refine((s) => !CONTROL.test(s), 'must not contain control characters')
const name = z
  .string()
  .trim()
  .min(1, 'the name is empty')
  .max(NAME_MAX, `the name is longer than ${NAME_MAX} characters`)
  .refine((s) => !CONTROL.test(s), 'must not contain control characters')

export const tapeSideFilter = z.enum(['all', 'buy', 'sell'])
export type TapeSideFilter = z.infer<typeof tapeSideFilter>
const positiveOrNull = z.number().finite().positive().max(1e15).nullable()

/**
 * What a pane remembers. No `market`: the pane follows the window's selected market; with one: pinned to it.
 * The tape's filters travel with its pane, so a workspace restores them.
 */
export const paneParamsSchema = z
  .object({
    market: idSchema.optional(),
    watchlist: idSchema.optional(),
    side: tapeSideFilter.optional(),
    minSize: positiveOrNull.optional(),
  })
  .strict()
export type PaneParams = z.infer<typeof paneParamsSchema>

const paneKind = z.enum(PANE_KINDS)
const layoutPanel = z.looseObject({
  id: idSchema,
  contentComponent: paneKind,
  params: paneParamsSchema.optional(),
  title: z.string().max(200).optional(),
})

function depthOf(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0
  if (limit <= 0) return Infinity
  let deepest = 0
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, limit - 1))
  return deepest + 1
}

/** A docked layout: the library's serialisation, bounded and with every pane of a known kind. */
export const layoutSchema = z
  .looseObject({
    grid: z.looseObject({
      root: z.looseObject({ type: z.enum(['branch', 'leaf']) }),
      width: z.number().finite().min(0),
      height: z.number().finite().min(0),
      orientation: z.enum(['HORIZONTAL', 'VERTICAL']),
    }),
    panels: z
      .record(idSchema, layoutPanel)
      .refine((p) => Object.keys(p).length > 0, 'a layout needs at least one pane')
      .refine((p) => Object.keys(p).length <= MAX_LAYOUT_PANES, `at most ${MAX_LAYOUT_PANES} panes`),
  })
  .superRefine((layout, ctx) => {
    let bytes: number
    try {
      bytes = JSON.stringify(layout).length
    } catch {
      ctx.addIssue({ code: 'custom', message: 'the layout is not plain JSON' })
      return
    }
    if (bytes > MAX_LAYOUT_BYTES)
      ctx.addIssue({ code: 'custom', message: `the layout is larger than ${MAX_LAYOUT_BYTES / 1024} KB` })
    if (depthOf(layout.grid.root, MAX_LAYOUT_DEPTH + 1) > MAX_LAYOUT_DEPTH)
      ctx.addIssue({ code: 'custom', message: `the layout is nested deeper than ${MAX_LAYOUT_DEPTH}` })
    for (const [key, panel] of Object.entries(layout.panels))
      if (panel.id !== key)
        ctx.addIssue({ code: 'custom', path: ['panels', key], message: 'the pane id does not match its key' })
  })
export type Layout = z.infer<typeof layoutSchema>

export const workspaceSchema = z.object({
  id: idSchema,
  name,
  layout: layoutSchema,
  updatedAt: z.number().int().min(0),
})
export type Workspace = z.infer<typeof workspaceSchema>

export const watchlistSchema = z
  .object({ id: idSchema, name, markets: z.array(idSchema).max(MAX_WATCHLIST_MARKETS) })
  .refine((w) => new Set(w.markets).size === w.markets.length, {
    message: 'a market is listed twice',
    path: ['markets'],
  })
export type Watchlist = z.infer<typeof watchlistSchema>

/** Highlight a market's trades at or above an absolute size, or a multiple of the recent average, or both. */
export const bigTradeRuleSchema = z
  .object({ minSize: positiveOrNull, relative: z.number().finite().min(1).max(1000).nullable() })
  .strict()
export type BigTradeRule = z.infer<typeof bigTradeRuleSchema>
export const bigTradeEntrySchema = bigTradeRuleSchema.extend({ market: idSchema })
export type BigTradeEntry = z.infer<typeof bigTradeEntrySchema>

/**
 * `main`, `main:<page>` for one page of the main view (docs/workspaces.md: what survives its reload), or
 * `market:<id>` / `event:<id>` for the windows of one market or event.
 */
export const windowKeySchema = z
  .string()
  .regex(
    /^(main(:[0-9a-z]{1,32})?|(market|event):.{1,200})$/s,
    'expected main, main:<page>, market:<id> or event:<id>',
  )
  .refine((s) => !CONTROL.test(s), 'must not contain control characters')

export const PAGE_WINDOW_PREFIX = 'main:'
/**
 * A page's own key lives as long as its tab (a relaunch or a new tab makes another), so at most this many are
 * kept, the oldest going first: they never push out the entries of the windows that do come back.
 */
export const MAX_PAGE_WINDOWS = 16
export const windowWorkspaceSchema = z.object({ window: windowKeySchema, workspace: idSchema })
export type WindowWorkspace = z.infer<typeof windowWorkspaceSchema>
/** The market a window's linked panes showed last: what a reload or a restart opens them on again. */
export const windowMarketSchema = z.object({ window: windowKeySchema, market: idSchema })
export type WindowMarket = z.infer<typeof windowMarketSchema>

// ---- what a window may send

export const workspaceInputSchema = z.object({ id: idSchema.optional(), name, layout: layoutSchema }).strict()
export type WorkspaceInput = z.infer<typeof workspaceInputSchema>
export const watchlistInputSchema = z
  .object({ id: idSchema.optional(), name, markets: z.array(idSchema).max(MAX_WATCHLIST_MARKETS) })
  .strict()
export type WatchlistInput = z.infer<typeof watchlistInputSchema>

/** Everything about workspaces a window needs; pushed to every window when any of it changes. */
export interface WorkspaceView {
  workspaces: Workspace[]
  watchlists: Watchlist[]
  /** Which workspace each window (by key) showed last. */
  windows: WindowWorkspace[]
  /** Which market each window (by key) had selected last. */
  markets: WindowMarket[]
  bigTrades: BigTradeEntry[]
  /** The unit every window shows prices in, and the engine writes its alert texts in (setPriceUnit). */
  priceUnit: PriceUnit
}

export const priceUnitSchema = z.enum(PRICE_UNITS, { error: `expected ${PRICE_UNITS.join(' or ')}` })

export function windowKeyOf(
  target: { kind: 'main' } | { kind: 'market'; market: string } | { kind: 'event'; event: string },
): string {
  return target.kind === 'main'
    ? 'main'
    : target.kind === 'market'
      ? `market:${target.market}`
      : `event:${target.event}`
}
