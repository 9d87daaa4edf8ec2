// The events listing a window has loaded (hooks/events.ts says when), and the market names read from it.
import { create } from 'zustand'
import type { MonitorApi } from '../../shared/ipc'
import type { ApiError, EventSummary } from '../../shared/model'
import { autoRetryDelayMs } from '../lib/auto-retry'
import { marketNamesOf, type MarketNames } from '../lib/market-names'

export interface EventsState {
  phase: 'idle' | 'loading' | 'ready' | 'error'
  events: EventSummary[]
  error: ApiError | null
  loadedAt: number | null
  /** When the failed listing is read again by itself (lib/auto-retry.ts), or null when it waits for the user. */
  retryAt: number | null
  load(api: MonitorApi, refresh?: boolean): Promise<void>
}

/** Bumped by forgetEvents(): a reply to a load made before it is another venue's listing, and is dropped. */
let generation = 0
/** Failed loads in a row, and the one timer that reads the listing again after the last. */
let failures = 0
let retryTimer: ReturnType<typeof setTimeout> | null = null

function cancelRetry(): void {
  if (retryTimer !== null) clearTimeout(retryTimer)
  retryTimer = null
}

export const useEvents = create<EventsState>()((set, get) => ({
  phase: 'idle',
  events: [],
  error: null,
  loadedAt: null,
  retryAt: null,
  load: async (api, refresh = false) => {
    cancelRetry()
    const asked = generation
    // Keep showing the last good listing while a refresh is in flight.
    if (get().phase !== 'ready') set({ phase: 'loading' })
    const r = await api
      .listEvents(refresh ? { refresh: true } : undefined)
      .catch((e: unknown): { ok: false; error: ApiError } => ({
        ok: false,
        error: { code: 'internal', message: String(e) },
      }))
    if (asked !== generation) return
    if (r.ok) {
      failures = 0
      set({ phase: 'ready', events: r.value, error: null, loadedAt: Date.now(), retryAt: null })
      return
    }
    failures += 1
    const wait = autoRetryDelayMs(r.error, failures)
    cancelRetry()
    if (wait !== null) {
      retryTimer = setTimeout(() => {
        retryTimer = null
        void get().load(api, true)
      }, wait)
    }
    set({
      phase: get().events.length > 0 ? 'ready' : 'error',
      error: r.error,
      retryAt: wait === null ? null : Date.now() + wait,
    })
  },
}))

/** Market id -> its event and market titles, for panes that only know ids (account, alerts, inspector). */
export function useMarketNames(): MarketNames {
  return marketNamesOf(useEvents((s) => s.events))
}

/** Whether the listing has answered (with events or an error): a market it does not name is then not coming. */
export function listingAnswered(s: Pick<EventsState, 'phase'>): boolean {
  return s.phase === 'ready' || s.phase === 'error'
}

/** Drops the listing (another profile, another venue): the next load starts from nothing. */
export function forgetEvents(): void {
  generation++
  cancelRetry()
  failures = 0
  useEvents.setState({ phase: 'idle', events: [], error: null, loadedAt: null, retryAt: null })
}
