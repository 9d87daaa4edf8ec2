// When the highlights that go out by themselves (a ladder size's flash, a new trade's tint) go out: in the frame
// that applies the next batch, when one comes within HIGHLIGHT_SLACK_MS of the highlight's end, so going out costs
// no frame, no React commit and no repaint of its own; else by one timer at the end plus the slack. A timer per
// highlight ended each in a frame of its own between the batches' frames (about a third of the market window's
// commits at the demo load). A highlight so lasts its time ± HIGHLIGHT_SLACK_MS.
// The state is a clock, ticked only when some watched highlight comes due: rows read "lit?" from it through
// useSyncExternalStore, so a tick re-renders only the rows whose answer changed, in the same synchronous React
// render as the batch that ticked it.
import { useEffect, useSyncExternalStore } from 'react'
import { useMonitor } from './monitor'
import { visibleTimeout } from './page-visibility'

/** How far a highlight's end may move to meet a batch's frame (either way), and the timer's lateness without one. */
export const HIGHLIGHT_SLACK_MS = 60

/** performance.now() at the last tick: a highlight lit until `until` is out once `until - slack <= tick`. */
let tick = Number.NEGATIVE_INFINITY
const listeners = new Set<() => void>()
/** The ends of the highlights lit now, each with how many share it. */
const watched = new Map<number, number>()
let cancelTimer: (() => void) | null = null
let unsubscribeStore: (() => void) | null = null

function earliest(): number {
  let first = Number.POSITIVE_INFINITY
  for (const until of watched.keys()) if (until < first) first = until
  return first
}

function advance(now: number): void {
  tick = now
  for (const until of [...watched.keys()]) if (until - HIGHLIGHT_SLACK_MS <= now) watched.delete(until)
  for (const l of [...listeners]) l()
  rearm()
}

/** One timer, for the earliest watched end plus the slack; none while nothing is lit. */
function rearm(): void {
  cancelTimer?.()
  cancelTimer = null
  const first = earliest()
  if (first === Number.POSITIVE_INFINITY) {
    unsubscribeStore?.()
    unsubscribeStore = null
    return
  }
  cancelTimer = visibleTimeout(
    () => {
      cancelTimer = null
      advance(performance.now())
    },
    Math.max(0, first + HIGHLIGHT_SLACK_MS - performance.now()),
  )
  // A store change is a batch applied (or a seed): the frame it is drawn in is the one to go out in.
  unsubscribeStore ??= useMonitor.subscribe(() => {
    const now = performance.now()
    if (earliest() - HIGHLIGHT_SLACK_MS <= now) advance(now)
  })
}

function watch(until: number): () => void {
  watched.set(until, (watched.get(until) ?? 0) + 1)
  if (until === earliest()) rearm()
  return () => {
    const n = watched.get(until)
    if (n === undefined) return
    if (n > 1) watched.set(until, n - 1)
    else watched.delete(until)
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/**
 * The end of a highlight lit now for `ms`. Read while rendering the change that lights it (the row's "adjust state
 * on prop change" step), once per change: a render repeated for the same change keeps the end it set.
 */
export function litUntil(ms: number): number {
  const now = performance.now()
  // performance.now() never goes back; a test's fake clock restarting does, and the clock restarts with it.
  if (now < tick) tick = Number.NEGATIVE_INFINITY
  return now + ms
}

/**
 * Whether a highlight lit until `until` (performance.now() ms; −Infinity for none) is still on. The caller sets a
 * new `until` for each change that lights it again.
 */
export function useLit(until: number): boolean {
  useEffect(() => (until === Number.NEGATIVE_INFINITY ? undefined : watch(until)), [until])
  return useSyncExternalStore(subscribe, () => until - HIGHLIGHT_SLACK_MS > tick)
}
