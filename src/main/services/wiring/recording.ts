// Recording and replay: the recorder taps the live frames; a replay suspends the live feed, reads a recording
// with its profile's adapter, and feeds the replay router.
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
    suspendLive: () => p.connection.suspend(),
    resumeLive: () => p.connection.connect(activeProfileOf(w.settings)),
    useListing: (events) => p.catalog.useFixed(events),
    useAdapter: (adapter) => {
      w.replayAdapter.name = adapter
      p.replayVenue.connected()
    },
    feed: (text, receivedAt) => p.replayRouter.onFrame(text, receivedAt),
    resetData: () => {
      p.data.clear()
      p.userFeed.clear()
    },
    changed: w.statusChanged,
    scrub: (text) => w.secrets.redact(text),
  })
  return { recorder, recordReplay }
}
