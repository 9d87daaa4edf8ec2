// Record and replay as windows use it (docs/recording.md): the recordings folder (listing, names checked), starting
// and stopping a recording of the active profile, and a replay session: the live connection is set aside while a
// recording plays through the engine as a read-only profile, and reconnected when the replay ends.
import { readdir, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fail, ok, type ReplayControl, type ReplayRequest } from '../../../shared/ipc'
import type {
  EventSummary,
  RecordingInfo,
  RecordingStatus,
  ReplayStatus,
  Result,
} from '../../../shared/model'
import { errorMessage, invalid } from '../base/errors'
import type { FeedRecorder } from './recorder'
import { readRecording, type RecordingHeader } from './file'
import { ReplayClock } from './replay'
import type { Logger } from '../base/types'

/** The profile id windows see while a replay runs. */
export const REPLAY_PROFILE_ID = 'replay'
const MAX_LISTED = 200
const NAME_RE = /^[A-Za-z0-9._-]+$/
const RECORDING_FILE_RE = /\.jsonl(\.gz)?$/

export interface RecordReplayDeps {
  /** The recordings folder; null when there is no settings folder. */
  dir: string | null
  log: Logger
  now(): number
  recorder: FeedRecorder
  /** The active (live) profile as a recording header names it. */
  liveProfile(): { id: string; name: string; adapter?: string }
  /** The live profile's events listing for the header, or null when it cannot be had. */
  listing(): Promise<EventSummary[] | null>
  /** Ask the venue again for every watched book, so a recording starts with fresh snapshots. */
  refreshSnapshots(): void
  /** Close the live connection and forget its data; nothing is sent or reconnected until resumeLive(). */
  suspendLive(): void
  /** Reconnect the profile that was active before the replay. */
  resumeLive(): Promise<void>
  /** The replay ended without resumeLive() (a profile switch): what suspendLive() kept aside is not needed. */
  abandonLive?(): void
  /**
   * While replaying: the listing windows get, from the recording's header (null: the recording has none);
   * undefined ends that (the live profile's listing comes from the exchange again).
   */
  useListing(events: EventSummary[] | null | undefined): void
  /** The adapter that reads the replayed frames (the recorded profile's). */
  useAdapter(adapter: string | undefined): void
  /** One replayed frame into the engine's frame path. */
  feed(text: string, receivedAt: number): void
  /**
   * One frame of a seek into the same state, kept from the windows until `sought()` (recording/seek-changes.ts).
   * Default: `feed`.
   */
  skim?(text: string, receivedAt: number): void
  /** A seek landed: windows hear which markets its frames changed. */
  sought?(): void
  /** A seek starts: what compares a frame with the ones just before it must not compare across the jump. */
  jumped?(): void
  /** Forget what replayed frames built (books, tapes, account, resync, liveness). */
  resetData(): void
  /** The status windows see changed. */
  changed(): void
  /**
   * Strips every key the engine knows from a text read out of a recording (its header's profile name) before it
   * is shown in a status or a listing. Default: unchanged.
   */
  scrub?(text: string): string
}

interface Session {
  file: string
  header: RecordingHeader
  clock: ReplayClock
}

export class RecordReplay {
  private session: Session | null = null
  /** Set while this service itself suspends the live connection (its reset is not an interruption). */
  private entering = false
  private busy = false
  /** Counts controlReplay calls: a seek's resume is applied only if no later control came while it fed frames. */
  private controls = 0

  constructor(private readonly d: RecordReplayDeps) {}

  private scrub(text: string): string {
    return this.d.scrub ? this.d.scrub(text) : text
  }

  /** Whether a replay is running (the live connection is set aside). */
  get replaying(): boolean {
    return this.session !== null
  }

  replayStatus(): ReplayStatus | undefined {
    const s = this.session
    if (s === null) return undefined
    const skipped = s.clock.skipped()
    return {
      file: s.file,
      speed: s.clock.speed,
      paused: s.clock.paused,
      state: s.clock.state(),
      positionMs: Math.round(s.clock.position()),
      durationMs: s.clock.durationMs,
      profileName: this.scrub(s.header.profile.name),
      recordedAt: s.header.startedAt,
      epoch: s.clock.epoch,
      ...(s.clock.seekInProgress ? { seeking: true as const } : {}),
      ...(skipped.gaps > 0 ? { skipped } : {}),
    }
  }

  recordingStatus(): RecordingStatus | undefined {
    return this.d.recorder.status()
  }

  // ---- recording

  async startRecording(): Promise<Result<RecordingStatus>> {
    if (this.session !== null) return fail(invalid('A replay is running: stop it to record the live feed.'))
    if (this.d.recorder.recording) return fail(invalid('A recording is already running.'))
    const events = await this.d.listing()
    const r = await this.d.recorder.start({ profile: this.d.liveProfile(), events })
    // Every watched book is asked again, so the recording opens with snapshots it can be replayed from.
    if (r.ok) this.d.refreshSnapshots()
    return r
  }

  async stopRecording(): Promise<Result<RecordingInfo>> {
    return this.d.recorder.stop()
  }

  // ---- the folder

  async listRecordings(): Promise<Result<RecordingInfo[]>> {
    const { dir } = this.d
    if (dir === null) return ok([])
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ok([])
      return fail({ code: 'internal', message: `Cannot read the recordings folder: ${errorMessage(error)}` })
    }
    const recording = this.d.recorder.status()?.file
    const files = names
      .filter((n) => NAME_RE.test(n) && RECORDING_FILE_RE.test(n))
      .sort()
      .reverse()
    const out: RecordingInfo[] = []
    for (const name of files.slice(0, MAX_LISTED)) out.push(await this.describe(name, name === recording))
    return ok(out)
  }

  private async describe(name: string, beingRecorded: boolean): Promise<RecordingInfo> {
    const path = join(this.d.dir as string, name)
    const none = { startedAt: null, durationMs: null, frames: null, profileName: null }
    let bytes = 0
    try {
      const st = await stat(path)
      bytes = st.size
      if (!st.isFile()) return { name, bytes, ...none, error: 'Not a file.' }
    } catch (error) {
      return { name, bytes, ...none, error: errorMessage(error) }
    }
    if (beingRecorded) return { name, bytes, ...none, error: 'Being recorded now.' }
    // Only the header (the first line) is read: a listing stays fast whatever the files hold.
    const r = await readRecording(path, name, { headerOnly: true })
    if (!r.ok) return { name, bytes, ...none, error: this.scrub(r.error.message) }
    return {
      name,
      bytes,
      startedAt: r.value.header.startedAt,
      durationMs: null,
      frames: null,
      profileName: this.scrub(r.value.header.profile.name),
    }
  }

  // ---- replay

  async startReplay(request: ReplayRequest): Promise<Result<ReplayStatus>> {
    const { dir } = this.d
    const name = request.file
    if (!NAME_RE.test(name) || name.includes('..') || basename(name) !== name)
      return fail(invalid('A recording is named by its file name in the recordings folder, without a path.'))
    if (dir === null)
      return fail({
        code: 'unavailable',
        message: 'Replay needs a settings folder (settings are in memory).',
      })
    if (name === this.d.recorder.status()?.file)
      return fail(invalid(`"${name}" is being recorded now: stop the recording first.`))
    if (this.busy) return fail(invalid('A replay is being started or stopped; try again.'))
    this.busy = true
    try {
      // The file is read and checked whole before anything live is touched: a bad file changes nothing.
      const r = await readRecording(join(dir, name), name)
      if (!r.ok) return r
      const recording = r.value
      if (this.d.recorder.recording) await this.d.recorder.stop()
      if (this.session !== null) {
        // Another replay: its clock stops; the live connection stays set aside.
        this.session.clock.stop()
        this.session = null
        this.d.resetData()
      } else {
        this.entering = true
        try {
          this.d.suspendLive()
        } finally {
          this.entering = false
        }
      }
      this.d.useListing(recording.header.events)
      this.d.useAdapter(recording.header.profile.adapter)
      const clock = new ReplayClock(
        recording.frames,
        recording.durationMs,
        {
          feed: (text, at) => this.d.feed(text, at),
          skim: (text, at) => (this.d.skim ?? this.d.feed)(text, at),
          sought: () => this.d.sought?.(),
          jumped: () => this.d.jumped?.(),
          reset: () => this.d.resetData(),
          changed: () => this.d.changed(),
          now: this.d.now,
        },
        { speed: request.speed ?? 1 },
      )
      this.session = { file: name, header: recording.header, clock }
      this.d.log.info('replay: started', {
        file: name,
        frames: recording.frames.length,
        heldBytes: recording.frames.heldBytes,
        durationMs: recording.durationMs,
        truncated: recording.truncated,
      })
      this.d.changed()
      clock.start()
      return ok(this.replayStatus() as ReplayStatus)
    } finally {
      this.busy = false
    }
  }

  async controlReplay(control: ReplayControl): Promise<Result<ReplayStatus>> {
    const s = this.session
    if (s === null) return fail(invalid('No replay is running.'))
    const call = ++this.controls
    // Pausing comes before a seek and resuming after it, so a paused seek lands exactly on its target.
    if (control.speed !== undefined) s.clock.setSpeed(control.speed)
    if (control.paused === true) s.clock.setPaused(true)
    if (control.seekMs !== undefined) await s.clock.seek(control.seekMs)
    // The seek was cut short by stopReplay (or another replay): this replay has no status any more.
    if (this.session !== s) return fail(invalid('The replay was stopped before the seek landed.'))
    // A later control (another seek, a pause) came while this seek fed its frames: it decides.
    if (control.paused === false && call === this.controls) s.clock.setPaused(false)
    return ok(this.replayStatus() as ReplayStatus)
  }

  async stopReplay(): Promise<Result<void>> {
    const s = this.session
    if (s === null) return fail(invalid('No replay is running.'))
    if (this.busy) return fail(invalid('A replay is being started or stopped; try again.'))
    this.busy = true
    try {
      s.clock.stop()
      this.session = null
      this.d.useListing(undefined)
      this.d.log.info('replay: stopped', { file: s.file })
      this.d.changed()
      await this.d.resumeLive()
      return ok(undefined)
    } finally {
      this.busy = false
    }
  }

  /**
   * The live connection was (re)opened by something else (a profile was selected during the replay): the replay
   * ends without reconnecting anything itself.
   */
  interrupted(): void {
    if (this.entering || this.session === null) return
    this.session.clock.stop()
    this.d.log.info('replay: ended by a profile switch', { file: this.session.file })
    this.session = null
    this.d.abandonLive?.()
    this.d.useListing(undefined)
    this.d.changed()
  }

  async close(): Promise<void> {
    this.session?.clock.stop()
    this.session = null
    await this.d.recorder.close()
  }
}
