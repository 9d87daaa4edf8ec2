// The window's market data and account belong to one timeline: a profile's live feed, or a replay at one epoch.
// When the timeline changes (another profile is selected, a replay starts, stops or seeks back), the engine has
// forgotten what it knew, and the window drops what it holds too, instead of showing a ladder, trades or orders
// from another venue or another point in time under a live badge. Another profile is another venue: its events
// listing goes too, so a venue that cannot be reached shows no listing rather than the previous venue's.
import type { StreamStatus } from '../../shared/model'
import { forgetEvents } from './events'
import { useMonitor } from './monitor'

/** Which timeline a status belongs to. */
export function timelineOf(status: Pick<StreamStatus, 'profileId' | 'replay'>): string {
  const replay = status.replay
  return replay === undefined
    ? `live:${status.profileId}`
    : `replay:${status.profileId}:${replay.file}:${replay.epoch}`
}

export function startTimelineResets(): () => void {
  let timeline: string | null = null
  let profile: string | null = null
  return useMonitor.subscribe((s) => {
    if (s.status === null) return
    const next = timelineOf(s.status)
    const nextProfile = s.status.profileId
    if (profile !== null && nextProfile !== profile) forgetEvents()
    profile = nextProfile
    if (timeline !== null && next !== timeline) {
      timeline = next
      s.forgetMarkets()
      return
    }
    timeline = next
  })
}
