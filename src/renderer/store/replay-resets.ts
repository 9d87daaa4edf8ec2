// A replay starting, stopping or seeking back replaces everything the engine knew of markets: the window drops
// what it holds too, instead of showing a ladder or trades from another point in time.
import { useMonitor } from './monitor'

/** Which timeline the window's market data belongs to: the live feed, or a replay at one epoch. */
function timelineOf(replay: { file: string; epoch: number } | undefined): string {
  return replay === undefined ? 'live' : `replay:${replay.file}:${replay.epoch}`
}

export function startReplayResets(): () => void {
  let timeline: string | null = null
  return useMonitor.subscribe((s) => {
    if (s.status === null) return
    const next = timelineOf(s.status.replay)
    if (timeline !== null && next !== timeline) {
      timeline = next
      s.forgetMarkets()
      return
    }
    timeline = next
  })
}
