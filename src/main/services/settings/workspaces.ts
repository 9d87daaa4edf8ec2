// Workspaces, watchlists, each window's last workspace and per-market big-trade rules, kept in settings. Every
// change goes through the settings store's strict check before it is written, then every window hears of it
// (the same view for all: a watchlist edited in one window shows in the others). Inputs arrive already
// shape-checked by the IPC validation; this module adds what needs the current state (limits, unknown ids).
import { randomUUID } from 'node:crypto'
import { fail, ok } from '../../../shared/ipc'
import type { Result } from '../../../shared/model'
import { DEFAULT_PRICE_UNIT, type PriceUnit } from '../../../shared/price-format'
import {
  DEFAULT_WORKSPACE_ID,
  MARKET_WORKSPACE_ID,
  MAX_PAGE_WINDOWS,
  MAX_WATCHLISTS,
  MAX_WINDOW_WORKSPACES,
  PAGE_WINDOW_PREFIX,
  MAX_WORKSPACES,
  type BigTradeRule,
  type Watchlist,
  type WatchlistInput,
  type Workspace,
  type WorkspaceInput,
  type WorkspaceView,
} from '../../../shared/workspace'
import { invalid } from '../base/errors'
import { UNCHANGED, type Settings, type SettingsStore } from './store'

export interface WorkspaceServiceDeps {
  settings: Pick<SettingsStore, 'get' | 'update'>
  now(): number
  /** Every window gets the new view. */
  changed(): void
  /** The price unit changed: the engine's own texts that name prices are written again. */
  priceUnitChanged(): void
}

export class WorkspaceService {
  private cached: WorkspaceView | null = null

  constructor(private readonly d: WorkspaceServiceDeps) {}

  view(): WorkspaceView {
    if (this.cached) return this.cached
    const s = this.d.settings.get()
    this.cached = {
      workspaces: s.workspaces,
      watchlists: s.watchlists,
      windows: s.windowWorkspaces,
      markets: s.windowMarkets,
      bigTrades: s.bigTrades,
      priceUnit: s.ui?.priceUnit ?? DEFAULT_PRICE_UNIT,
    }
    return this.cached
  }

  /** The unit prices are shown in, in every window and in the engine's alert texts. */
  priceUnit(): PriceUnit {
    return this.view().priceUnit
  }

  async setPriceUnit(unit: PriceUnit): Promise<Result<void>> {
    let changed = false
    const r = await this.write((s) => {
      changed = (s.ui?.priceUnit ?? DEFAULT_PRICE_UNIT) !== unit
      return changed ? { ...s, ui: { ...s.ui, priceUnit: unit } } : UNCHANGED
    })
    if (r.ok && changed) this.d.priceUnitChanged()
    return r
  }

  async saveWorkspace(input: WorkspaceInput): Promise<Result<Workspace>> {
    const current = this.d.settings.get().workspaces
    const existing = input.id === undefined ? undefined : current.find((w) => w.id === input.id)
    if (input.id !== undefined && !existing && !isBuiltIn(input.id)) return noSuch('workspace', input.id)
    const clash = current.find(
      (w) => w.id !== input.id && w.name.toLowerCase() === input.name.trim().toLowerCase(),
    )
    if (clash) return fail(invalid(`A workspace is already called "${clash.name}".`))
    if (!existing && current.length >= MAX_WORKSPACES)
      return fail(invalid(`At most ${MAX_WORKSPACES} workspaces can be saved; delete one first.`))
    const saved: Workspace = {
      id: input.id ?? `ws-${randomUUID()}`,
      name: input.name.trim(),
      layout: input.layout,
      updatedAt: this.d.now(),
    }
    return this.writeSaved(saved, (s) => ({
      ...s,
      workspaces: upsert(s.workspaces, saved, existing !== undefined),
    }))
  }

  async deleteWorkspace(id: string): Promise<Result<void>> {
    if (!this.d.settings.get().workspaces.some((w) => w.id === id)) return noSuch('workspace', id)
    // Windows that showed it fall back to their built-in layout at their next start.
    return this.write((s) => ({
      ...s,
      workspaces: s.workspaces.filter((w) => w.id !== id),
      windowWorkspaces: s.windowWorkspaces.filter((w) => w.workspace !== id),
    }))
  }

  // The window's entry is compared and replaced inside the update, against the settings as they are when the
  // write runs: a burst of selections must not decide from a copy an earlier write is about to change.
  async setWindowWorkspace(window: string, workspace: string): Promise<Result<void>> {
    if (!isBuiltIn(workspace) && !this.d.settings.get().workspaces.some((w) => w.id === workspace))
      return noSuch('workspace', workspace)
    return this.write((x) =>
      x.windowWorkspaces.some((w) => w.window === window && w.workspace === workspace)
        ? UNCHANGED
        : { ...x, windowWorkspaces: [...recentOthers(x.windowWorkspaces, window), { window, workspace }] },
    )
  }

  /** Any id is accepted: the listing comes and goes, and a window shows a market it no longer lists by id. */
  async setWindowMarket(window: string, market: string | null): Promise<Result<void>> {
    return this.write((x) => {
      const current = x.windowMarkets.find((w) => w.window === window)?.market ?? null
      if (current === market) return UNCHANGED
      const others = recentOthers(x.windowMarkets, window)
      return { ...x, windowMarkets: market === null ? others : [...others, { window, market }] }
    })
  }

  async saveWatchlist(input: WatchlistInput): Promise<Result<Watchlist>> {
    const current = this.d.settings.get().watchlists
    const existing = input.id === undefined ? undefined : current.find((w) => w.id === input.id)
    if (input.id !== undefined && !existing) return noSuch('watchlist', input.id)
    if (!existing && current.length >= MAX_WATCHLISTS)
      return fail(invalid(`At most ${MAX_WATCHLISTS} watchlists can be kept; delete one first.`))
    const markets = [...new Set(input.markets)]
    const saved: Watchlist = { id: input.id ?? `wl-${randomUUID()}`, name: input.name.trim(), markets }
    return this.writeSaved(saved, (s) => ({
      ...s,
      watchlists: upsert(s.watchlists, saved, existing !== undefined),
    }))
  }

  async deleteWatchlist(id: string): Promise<Result<void>> {
    if (!this.d.settings.get().watchlists.some((w) => w.id === id)) return noSuch('watchlist', id)
    return this.write((s) => ({ ...s, watchlists: s.watchlists.filter((w) => w.id !== id) }))
  }

  async setBigTrade(market: string, rule: BigTradeRule | null): Promise<Result<void>> {
    const off = rule === null || (rule.minSize === null && rule.relative === null)
    return this.write((s) => {
      const others = s.bigTrades.filter((b) => b.market !== market)
      return { ...s, bigTrades: off ? others : [...others, { market, ...rule }] }
    })
  }

  /** A save answers with what it saved, once that is written. */
  private async writeSaved<T>(saved: T, mutate: (s: Settings) => Settings): Promise<Result<T>> {
    const r = await this.write(mutate)
    return r.ok ? ok(saved) : r
  }

  private async write(mutate: (s: Settings) => Settings | typeof UNCHANGED): Promise<Result<void>> {
    let changed = false
    const r = await this.d.settings.update((s) => {
      const next = mutate(s)
      changed = next !== UNCHANGED
      return next
    })
    if (!r.ok || !changed) return r.ok ? ok(undefined) : r
    this.cached = null
    this.d.changed()
    return ok(undefined)
  }
}

/**
 * A per-window list without `window`'s entry, most recent last: the oldest windows' entries go first when the
 * list is full, leaving room for one more. A page's own key makes room among the pages' keys first.
 */
function recentOthers<T extends { window: string }>(list: readonly T[], window: string): T[] {
  let others = list.filter((w) => w.window !== window)
  if (window.startsWith(PAGE_WINDOW_PREFIX)) {
    const pages = others.filter((w) => w.window.startsWith(PAGE_WINDOW_PREFIX))
    const gone = new Set(pages.slice(0, Math.max(0, pages.length - (MAX_PAGE_WINDOWS - 1))))
    others = others.filter((w) => !gone.has(w))
  }
  return others.slice(Math.max(0, others.length - (MAX_WINDOW_WORKSPACES - 1)))
}

/** The built-in layouts exist without being saved; saving one under its id makes the user's version of it. */
function isBuiltIn(id: string): boolean {
  return id === DEFAULT_WORKSPACE_ID || id === MARKET_WORKSPACE_ID
}

/** `saved` in place of the entry with its id when that one was saved before, else after the others. */
function upsert<T extends { id: string }>(list: readonly T[], saved: T, replaces: boolean): T[] {
  return replaces ? list.map((x) => (x.id === saved.id ? saved : x)) : [...list, saved]
}

/** The refusal of an id that names nothing saved. */
function noSuch<T>(kind: 'workspace' | 'watchlist', id: string): Result<T> {
  return fail(invalid(`There is no ${kind} "${id}".`))
}
