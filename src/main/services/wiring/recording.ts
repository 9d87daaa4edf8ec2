// Recording and replay: the recorder taps the live frames; a replay suspends the live feed, reads a recording
// with its profile's adapter, and feeds the replay router.
import type { HeldTapes } from '../market/tapes'
import { folderBesideSettings } from '../options'
import { RecordReplay } from '../recording/record-replay'
import { FeedRecorder } from '../recording/recorder'
import { activeProfileOf } from '../settings/profiles'
import type { Engine, Wiring } from './engine'

export function wireRecording(w: Wiring): Pick<Engine, 'recorder' | 'recordReplay'> {
  const { options, log, now, parts: p } = w
  const recorder = new FeedRecorder({
    dir: folderBesideSettings(options, options.recordingsDir, 'recordings'),
    log,
    now,
    ...(options.recordingLimitBytes !== undefined ? { limitBytes: options.recordingLimitBytes } : {}),
    changed: w.statusChanged,
    notice: (text) => p.status.notice(text),
  })
  // The live profile's tapes while a replay runs, so stopping it brings the live tape and chart back.
  let held: { profileId: string; tapes: HeldTapes } | null = null
  const recordReplay = new RecordReplay({
    dir: recorder.dir,
    log,
    now,
    recorder,
    liveProfile: () => {
      const profile = p.connection.profile
      return {
        id: profile.id,
        name: profile.name,
        ...(profile.adapter !== undefined ? { adapter: profile.adapter } : {}),
      }
    },
    listing: async () => {
      const r = await p.catalog.list(false)
      return r.ok ? r.value : null
    },
    refreshSnapshots: () => {
      for (const id of p.registry.desired('market').keys()) p.registry.resubscribe('market', id)
      for (const id of p.registry.desired('event').keys()) p.registry.resubscribe('event', id)
    },
    suspendLive: () => {
      held = { profileId: p.connection.profile.id, tapes: p.data.setAside() }
      p.connection.suspend()
    },
    resumeLive: () => {
      const profile = activeProfileOf(w.settings)
      // connect() forgets the replay's data before its first await; the live tapes go back right after, before
      // any frame of the new connection can arrive.
      const connecting = p.connection.connect(profile)
      if (held !== null && held.profileId === profile.id) p.data.restore(held.tapes)
      held = null
      return connecting
    },
    abandonLive: () => {
      held = null
    },
    useListing: (events) => p.catalog.useFixed(events),
    useAdapter: (adapter) => {
      w.replayAdapter.name = adapter
      p.replayVenue.connected()
    },
    feed: (text, receivedAt) => p.replayRouter.onFrame(text, receivedAt),
    skim: (text, receivedAt) => p.seekRouter.onFrame(text, receivedAt),
    sought: () => p.seekChanges.release(w.bookChanged),
    resetData: () => {
      p.data.clear()
      p.userFeed.clear()
    },
    // A frame after the jump is not a copy of one fed before it (those were sent at another point of the recording).
    jumped: () => p.duplicates.clear(),
    changed: w.statusChanged,
    scrub: (text) => w.secrets.redact(text),
  })
  return { recorder, recordReplay }
}
