// Whether this document can be seen, and work held back until it can. A hidden window (a background tab, a
// minimised or covered Electron window) draws nothing: a change that comes due while it is hidden (a highlight
// going out, an age ticking, a batch to apply) waits, and everything that waited runs in the one task that
// shows the window again, so React draws the current state in one commit. Without a document (Node tests) the
// page counts as visible.

export function pageHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden'
}

const waiting = new Set<() => void>()
let listening = false

function onVisibilityChange(): void {
  if (pageHidden()) return
  const run = [...waiting]
  waiting.clear()
  document.removeEventListener('visibilitychange', onVisibilityChange)
  listening = false
  for (const f of run) f()
}

/**
 * Runs `f` once, the next time the document is shown (at once when it is not hidden). Returns the function that
 * cancels it.
 */
export function whenShown(f: () => void): () => void {
  if (!pageHidden()) {
    f()
    return () => {}
  }
  // A function may be waiting already (the same store flush asked twice): it still runs once.
  waiting.add(f)
  if (!listening) {
    listening = true
    document.addEventListener('visibilitychange', onVisibilityChange)
  }
  return () => {
    waiting.delete(f)
  }
}

/**
 * setTimeout for work that changes what is drawn: due while the document is hidden, it runs when the document is
 * shown instead. Returns the function that cancels it.
 */
export function visibleTimeout(f: () => void, ms: number): () => void {
  let cancelShown: (() => void) | null = null
  const id = setTimeout(() => {
    cancelShown = whenShown(f)
  }, ms)
  return () => {
    clearTimeout(id)
    cancelShown?.()
  }
}
