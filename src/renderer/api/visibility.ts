// Tells the engine whether this window can be seen, so that a hidden window (a background tab, a minimised or
// covered Electron window) costs main almost nothing: the engine then sends it status, events-changed and user
// updates only. Shown again, the window's next batch has every watched market's current book, ticker and tape and
// `resume: true`; the store folds the tapes in (reduceBatch), so nothing is asked for here.
// The same code serves both hosts: Chromium sets document.visibilityState for tabs and for Electron windows.
import type { MonitorApi } from '../../shared/ipc'

/** The part of `document` used here (a stand-in in tests). */
export interface VisibilitySource {
  readonly visibilityState: string
  addEventListener(type: 'visibilitychange', listener: () => void): void
  removeEventListener(type: 'visibilitychange', listener: () => void): void
}

/**
 * Reports the window's visibility now and on every change. Call once per window, from the renderer entry.
 * Returns the function that stops it.
 */
export function startVisibility(
  api: Pick<MonitorApi, 'setVisibility'>,
  source: VisibilitySource = document,
): () => void {
  let reported: boolean | null = null
  const report = (): void => {
    const visible = source.visibilityState === 'visible'
    if (visible === reported) return
    reported = visible
    void api.setVisibility(visible).then((r) => {
      if (!r.ok) console.warn('setVisibility failed:', r.error.message)
    })
  }
  source.addEventListener('visibilitychange', report)
  report()
  return () => source.removeEventListener('visibilitychange', report)
}
