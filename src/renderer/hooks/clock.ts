// Clocks for ages and countdowns on screen. One shared clock ticks on the wall clock's whole seconds, and only
// while some component shows a value that changes with it (an age past its threshold, a running countdown);
// every such value on the page then changes in the same tick, so they cost one render pass and one frame a
// second together, and nothing at all once none is shown. A second shared clock ticks on whole minutes for
// countdowns hours or days long (an event's time to resolution), so a list of them costs one pass a minute.
// A hidden window's clocks stand still: a tick due while it is hidden comes when it is shown, at once.
import { useEffect, useState, useSyncExternalStore } from 'react'
import { visibleTimeout } from '../store/page-visibility'

interface SharedClock {
  subscribe(listener: () => void): () => void
  read(): number
  subscribers(): number
}

/** A clock that ticks on the wall clock's whole periods while anything listens, and sleeps otherwise. */
function sharedClock(periodMs: number): SharedClock {
  let now = Date.now()
  let cancel: (() => void) | null = null
  const listeners = new Set<() => void>()
  const arm = (): void => {
    cancel = visibleTimeout(tick, periodMs - (Date.now() % periodMs))
  }
  const tick = (): void => {
    now = Date.now()
    for (const listener of [...listeners]) listener()
    if (listeners.size > 0) arm()
    else cancel = null
  }
  return {
    subscribe(listener) {
      // A value that starts being shown starts from the current time, not from the last tick (nor from whenever
      // the clock went to sleep): React reads the time again right after subscribing.
      now = Date.now()
      if (listeners.size === 0) arm()
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && cancel !== null) {
          cancel()
          cancel = null
        }
      }
    },
    read: () => now,
    subscribers: () => listeners.size,
  }
}

const seconds = sharedClock(1_000)
/** Countdowns to moments hours or days ahead (an event's resolution) change once a minute, not once a second. */
const minutes = sharedClock(60_000)

const asleep = () => () => {}
const subscribeSeconds = seconds.subscribe
const readSeconds = seconds.read
const subscribeMinutes = minutes.subscribe
const readMinutes = minutes.read

/** How many components keep the shared clock ticking (tests). */
export function clockSubscribers(): number {
  return seconds.subscribers()
}

/** How many components keep the shared minute clock ticking (tests). */
export function minuteClockSubscribers(): number {
  return minutes.subscribers()
}

/**
 * The shared clock's time, ticking each whole second while `active`. Inactive, it is whatever the clock last
 * read (it may be old): compare it only with moments that were checked against it.
 */
export function useSecondClock(active: boolean): number {
  return useSyncExternalStore(active ? subscribeSeconds : asleep, readSeconds, readSeconds)
}

/**
 * The shared minute clock's time, ticking on each whole minute while `active` (one tick for every countdown on
 * the page). Inactive, it is whatever the clock last read: compare it only with moments checked against it.
 */
export function useMinuteClock(active: boolean): number {
  return useSyncExternalStore(active ? subscribeMinutes : asleep, readMinutes, readMinutes)
}

/**
 * The time to show a countdown to `until` in minutes (formatTimeLeft): the shared minute clock while it runs,
 * nothing once it is over or while `until` is null.
 */
export function useMinuteCountdownNow(until: number | null): number {
  const clock = useMinuteClock(false)
  return useMinuteClock(until !== null && clock < until)
}

/**
 * The time to show an age (`now - since`) with formatAge, from `from` on (default: `since`). No timer while
 * `since` or `from` is null; one timer up to `from` while it lies ahead; then the shared clock's tick each
 * second. Before `from` the value is not kept current, so compare it with `from` rather than trusting it.
 */
export function useAgeNow(since: number | null, from: number | null = since): number {
  const [reached, setReached] = useState<number | null>(null)
  const clock = useSecondClock(false)
  const due = since !== null && from !== null && (reached === from || clock >= from)
  useEffect(() => {
    if (since === null || from === null || due) return
    return visibleTimeout(() => setReached(from), Math.max(0, from - Date.now()))
  }, [since, from, due])
  return useSecondClock(due)
}

/**
 * The time to show a countdown to `until` with formatCountdown: the shared clock while it runs, nothing once
 * it is over or while `until` is null.
 */
export function useCountdownNow(until: number | null): number {
  const clock = useSecondClock(false)
  return useSecondClock(until !== null && clock < until)
}
