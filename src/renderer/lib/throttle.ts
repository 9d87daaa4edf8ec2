// Coalescing for panes that need not paint at display rate (the price and depth charts): under a firehose the
// store changes every frame, but a chart redrawn 15 times a second reads the same, and every redraw of a canvas
// costs the main thread its drawing plus a repaint and a composite of the canvas. The first change after a quiet
// spell goes through at once; later ones within the interval are folded into one at its end, so what is shown is
// never older than the interval. A change the caller calls urgent (a book going stale) goes through at once.
import { useMemo, useSyncExternalStore } from 'react'

/** How often a chart may redraw under load: 15 times a second, so it is at most ~67 ms behind the store. */
export const CHART_INTERVAL_MS = 67

export interface Throttle {
  /** Runs now if the interval since the last run is over, else once at its end (however often it is called). */
  schedule(): void
  /** Runs now (and restarts the interval). */
  flush(): void
  /** Drops a pending run. */
  cancel(): void
}

/**
 * How a throttle waits for its next run: calls `run` once, `waitMs` from now or later (`waitMs` <= 0: the interval
 * is over already); returns what cancels it. It may call `run` before returning.
 */
export type Waiter = (run: () => void, waitMs: number) => () => void

/** A run as soon as the interval is over: at once, or by a timer at its end. */
const timerWaiter: Waiter = (run, waitMs) => {
  if (waitMs <= 0) {
    run()
    return () => {}
  }
  const id = setTimeout(run, waitMs)
  return () => clearTimeout(id)
}

export function throttle(
  run: () => void,
  intervalMs: number,
  now: () => number = () => performance.now(),
  wait: Waiter = timerWaiter,
): Throttle {
  let last = -Infinity
  let pending = false
  let cancelWait: () => void = () => {}
  const cancel = () => {
    pending = false
    cancelWait()
  }
  const flush = () => {
    cancel()
    last = now()
    run()
  }
  return {
    schedule() {
      if (pending) return
      pending = true
      cancelWait = wait(flush, last + intervalMs - now())
    },
    flush,
    cancel,
  }
}

/** The part of a zustand store this needs. */
export interface Store<S> {
  getState(): S
  subscribe(listener: (state: S, prev: S) => void): () => void
}

export interface ThrottledView<T> {
  subscribe(listener: () => void): () => void
  getSnapshot(): T
}

/**
 * A view of `select(state)` that follows the store at most once per `intervalMs` (for useSyncExternalStore), at
 * once when `urgent(next, shown)` says so. Listens to the store only while something listens to it.
 */
export function throttledView<S, T>(
  store: Store<S>,
  select: (state: S) => T,
  intervalMs: number,
  urgent?: (next: T, shown: T) => boolean,
): ThrottledView<T> {
  let shown = select(store.getState())
  const listeners = new Set<() => void>()
  let unsubscribe: (() => void) | null = null
  const t = throttle(() => {
    const next = select(store.getState())
    if (Object.is(next, shown)) return
    shown = next
    for (const l of listeners) l()
  }, intervalMs)
  const changed = () => {
    const next = select(store.getState())
    if (Object.is(next, shown)) return
    if (urgent?.(next, shown)) t.flush()
    else t.schedule()
  }
  return {
    subscribe(listener) {
      listeners.add(listener)
      if (unsubscribe === null) {
        unsubscribe = store.subscribe(changed)
        // What changed between the first render and this subscription.
        changed()
      }
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) {
          unsubscribe?.()
          unsubscribe = null
          t.cancel()
        }
      }
    },
    getSnapshot: () => shown,
  }
}

/** useSyncExternalStore over a throttled view; `view` must be memoised by the caller (on what `select` reads). */
export function useThrottledView<T>(view: ThrottledView<T>): T {
  return useSyncExternalStore(view.subscribe, view.getSnapshot)
}

/** `useMemo` + `useThrottledView` in one: the view is rebuilt when `key` changes. */
export function useThrottled<S, T>(
  store: Store<S>,
  key: string,
  select: (state: S, key: string) => T,
  intervalMs: number,
  urgent?: (next: T, shown: T) => boolean,
): T {
  const view = useMemo(
    () => throttledView(store, (s) => select(s, key), intervalMs, urgent),
    [store, key, select, intervalMs, urgent],
  )
  return useThrottledView(view)
}
