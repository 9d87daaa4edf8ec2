// A throttle whose runs land in the animation frame of the store's next batch. A canvas library that draws in an
// animation frame of its own (lightweight-charts) and is fed in the batch's frame draws in the frame after: a second
// frame for every change, with its own style, paint, layerize and commit. Fed instead just before a batch's frame
// (when the batch is queued), it draws in that frame with the batch. What it is fed then is the store as the
// previous batch left it, so the drawing runs one batch behind (about 100 ms at the demo load); when no batch comes,
// a timer runs it after `maxLagMs` in a frame of its own.
import { throttle, type Throttle } from '../lib/throttle'
import { onBatchFrame } from './monitor'
import { visibleTimeout } from './page-visibility'

/**
 * Runs `run` at most once per `intervalMs`: a scheduled run waits for the first batch queued once the interval
 * since the last run is over, or `maxLagMs` (or the rest of the interval, if longer) when none comes.
 */
export function batchFrameThrottle(
  run: () => void,
  intervalMs: number,
  maxLagMs: number,
  now: () => number = () => performance.now(),
): Throttle {
  return throttle(run, intervalMs, now, (go, waitMs) => {
    const due = now() + waitMs
    const stopListening = onBatchFrame(() => {
      if (now() >= due) go()
    })
    const cancelTimer = visibleTimeout(go, Math.max(maxLagMs, waitMs))
    return () => {
      stopListening()
      cancelTimer()
    }
  })
}
