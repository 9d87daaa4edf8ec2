// Watchlist edits from anywhere in the window (a market row's star, the ladder, Alt+W, the watchlist pane). The
// engine holds the lists; an edit is sent there and comes back to every window in the next batch. Edits are
// queued per window so two quick stars never race each other on a stale copy of the list.
import type { MonitorApi } from '../../../shared/ipc'
import type { Watchlist } from '../../../shared/workspace'
import { useMonitor } from '../../store/monitor'
import { useWindowWorkspace } from './window-state'

export const DEFAULT_WATCHLIST_NAME = 'Watchlist'

/** The list stars go to: the one this window's watchlist pane shows, else the first. */
export function targetWatchlist(): Watchlist | null {
  const lists = useMonitor.getState().workspace?.watchlists ?? []
  const chosen = useWindowWorkspace.getState().watchlistId
  return lists.find((l) => l.id === chosen) ?? lists[0] ?? null
}

let chain: Promise<unknown> = Promise.resolve()

function queue<T>(job: () => Promise<T>): Promise<T> {
  const next = chain.then(job, job)
  chain = next.catch(() => undefined)
  return next
}

/** Applies `change` to the current version of a list (or a new default list) and saves it. */
export function editWatchlist(
  api: MonitorApi,
  id: string | null,
  change: (markets: string[]) => string[],
): Promise<string | null> {
  return queue(async () => {
    const lists = useMonitor.getState().workspace?.watchlists ?? []
    const list = id === null ? null : (lists.find((l) => l.id === id) ?? null)
    const r = await api.saveWatchlist({
      ...(list ? { id: list.id } : {}),
      name: list?.name ?? DEFAULT_WATCHLIST_NAME,
      markets: change(list ? [...list.markets] : []),
    })
    if (!r.ok) return r.error.message
    // Apply at once (the batch confirms it): the next edit in the queue must see this one.
    const view = useMonitor.getState().workspace
    if (view) {
      const others = view.watchlists.filter((l) => l.id !== r.value.id)
      const index = view.watchlists.findIndex((l) => l.id === r.value.id)
      const watchlists =
        index < 0 ? [...others, r.value] : view.watchlists.map((l) => (l.id === r.value.id ? r.value : l))
      useMonitor.setState({ workspace: { ...view, watchlists } })
    }
    if (!list) useWindowWorkspace.setState({ watchlistId: r.value.id })
    return null
  })
}

export function isWatched(market: string): boolean {
  return targetWatchlist()?.markets.includes(market) ?? false
}

/** Stars or unstars a market in the target list; resolves to an error message or null. */
export function toggleWatch(api: MonitorApi, market: string): Promise<string | null> {
  const list = targetWatchlist()
  return editWatchlist(api, list?.id ?? null, (markets) =>
    markets.includes(market) ? markets.filter((m) => m !== market) : [...markets, market],
  )
}
