// The in-page half of the UI benchmark, as script text: this project's Node typecheck has no DOM types, and a
// function handed to Playwright would be serialised after tsx's transform (which may add helpers the page lacks).
//
// PROBE_INIT runs before the app's own scripts (page.addInitScript): an Element Timing observer that keeps every
// `trade:` and `book:` entry. PROBE_START starts counting requestAnimationFrame callbacks; PROBE_STOP ends the
// window and returns the frames and the element entries painted inside it.

export const PROBE_INIT = `(() => {
  const bench = { entries: [], observerError: null, frames: null, start: 0 }
  Object.defineProperty(window, '__uiBench', { value: bench })
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const id = e.identifier
        if (typeof id !== 'string' || !(id.startsWith('trade:') || id.startsWith('book:'))) continue
        const pt = e.presentationTime
        const paint = e.paintTime
        bench.entries.push(
          id,
          e.renderTime,
          typeof pt === 'number' && pt > 0 ? pt : -1,
          typeof paint === 'number' && paint > 0 ? paint : -1,
        )
      }
    }).observe({ type: 'element', buffered: true })
  } catch (err) {
    bench.observerError = String(err)
  }
})()`

export interface ProbeStart {
  /** performance.now() at the start of the window. */
  start: number
  timeOrigin: number
  /**
   * Page clock → epoch ms: add to timeOrigin + t. Mean of many Date.now() − (timeOrigin + performance.now())
   * samples over ~5 ms, plus 0.5 because Date.now() truncates to the millisecond.
   */
  clockOffsetMs: number
  observerError: string | null
  supportedEntryTypes: string[]
}

export const PROBE_START = `(() => {
  const bench = window.__uiBench
  let sum = 0
  let n = 0
  const until = performance.now() + 5
  while (performance.now() < until) {
    sum += Date.now() - (performance.timeOrigin + performance.now())
    n++
  }
  const frames = []
  bench.frames = frames
  const step = (t) => {
    if (bench.frames !== frames) return
    frames.push(t)
    requestAnimationFrame(step)
  }
  requestAnimationFrame(step)
  bench.start = performance.now()
  return {
    start: bench.start,
    timeOrigin: performance.timeOrigin,
    clockOffsetMs: sum / n + 0.5,
    observerError: bench.observerError,
    supportedEntryTypes: PerformanceObserver.supportedEntryTypes.slice(),
  }
})()`

export interface ProbeStop {
  /** performance.now() at the end of the window. */
  end: number
  /** requestAnimationFrame timestamps inside the window. */
  frames: number[]
  /**
   * Flat: identifier, renderTime, presentationTime (−1 when absent), paintTime (−1 when absent), … for entries
   * whose renderTime is inside the window.
   */
  entries: Array<string | number>
  /** All `trade:`/`book:` entries seen since the page loaded (inside the window or not). */
  entriesTotal: number
}

export const PROBE_STOP = `(() => {
  const bench = window.__uiBench
  const frames = bench.frames ?? []
  bench.frames = null
  const end = performance.now()
  const entries = []
  const all = bench.entries
  for (let i = 0; i < all.length; i += 4) {
    if (all[i + 1] >= bench.start && all[i + 1] <= end) entries.push(all[i], all[i + 1], all[i + 2], all[i + 3])
  }
  return { end, frames, entries, entriesTotal: all.length / 4 }
})()`

/** Busy-loops the page's main thread, so its renderer process can be told from the others by CPU time. */
export function spinScript(ms: number): string {
  return `(() => { const until = performance.now() + ${ms}; let x = 0; while (performance.now() < until) x++; return x })()`
}
