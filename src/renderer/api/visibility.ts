// Tells the engine whether this window can be seen, so that a hidden window (a background tab, a minimised or
// covered Electron window) costs main almost nothing: the engine then sends it status, events-changed and user
// updates only. Shown again, the window's next batch has every watched market's current book and ticker and
// `resume: true`; the trades made meanwhile were not sent, so the tapes are refetched here with getMarketSnapshot.
// The same code serves both hosts: Chromium sets document.visibilityState for tabs and for Electron windows.
import type { MonitorApi, ViewBatch } from '../../shared/ipc'
import type { TradeView } from '../../shared/model'
import { TAPE_CAP, useMonitor } from '../store/monitor'

/** The part of `document` used here (a stand-in in tests). */
export interface VisibilitySource {
  readonly visibilityState: string
  addEventListener(type: 'visibilitychange', listener: () => void): void
  removeEventListener(type: 'visibilitychange', listener: () => void): void
}

/**
 * Reports the window's visibility now and on every change, and refetches the tapes after a `resume` batch.
 * Call once per window, from the renderer entry. Returns the function that stops both.
 */
export function startVisibility(api: MonitorApi, source: VisibilitySource = document): () => void {
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
  const stopBatches = api.onBatch((batch) => {
    if (batch.resume) refetchTapes(api, batch)
  })
  return () => {
    source.removeEventListener('visibilitychange', report)
    stopBatches()
  }
}

/**
 * After a `resume` batch: for every market in it whose tape this window holds, fetch the engine's recent trades
 * and fold the ones the window missed into the tape. Returns the markets asked for.
 */
export function refetchTapes(api: MonitorApi, batch: ViewBatch): string[] {
  const held = useMonitor.getState().trades
  const markets = new Set<string>()
  for (const view of batch.books ?? []) markets.add(view.market)
  for (const view of batch.tickers ?? []) markets.add(view.market)
  const asked = [...markets].filter((market) => Object.prototype.hasOwnProperty.call(held, market))
  for (const market of asked) {
    void api.getMarketSnapshot(market).then((r) => {
      if (!r.ok) return
      useMonitor.setState((s) => {
        const existing = s.trades[market] ?? []
        const tape = resumedTape(existing, r.value.trades, s.lastBatchAt ?? -Infinity, TAPE_CAP)
        if (tape === existing) return {}
        return {
          trades: { ...s.trades, [market]: tape },
          // The chart rebuilds from the tape instead of appending to it.
          tapeEpoch: { ...s.tapeEpoch, [market]: (s.tapeEpoch[market] ?? 0) + 1 },
        }
      })
    })
  }
  return asked
}

/**
 * The tape after a refetch: `existing` plus the snapshot's trades it lacks, oldest first, the newest `cap` kept.
 * Snapshot trades received after the newest batch the window has applied (`deliveredUpTo`, that batch's `at`)
 * are left out: they are still on their way in a batch, and taking them now would show them twice. When the
 * snapshot does not reach back to the window's tape (more trades while hidden than the snapshot holds), its
 * oldest trade is marked `gapBefore`. Returns `existing` itself when nothing is missing.
 */
export function resumedTape(
  existing: TradeView[],
  snapshot: readonly TradeView[],
  deliveredUpTo: number,
  cap: number,
): TradeView[] {
  const seen = new Set(existing.map((t) => t.key))
  const missing = snapshot.filter((t) => !seen.has(t.key) && t.receivedAt < deliveredUpTo)
  if (missing.length === 0) return existing
  const oldest = snapshot[0]
  const first = missing[0]
  if (
    oldest !== undefined &&
    first === oldest &&
    existing.some((t) => t.receivedAt < oldest.receivedAt) &&
    first.gapBefore !== true
  )
    missing[0] = { ...first, gapBefore: true }
  // Stable: trades received in the same millisecond keep the engine's order.
  const merged = existing.concat(missing).sort((a, b) => a.receivedAt - b.receivedAt)
  return merged.length > cap ? merged.slice(merged.length - cap) : merged
}
