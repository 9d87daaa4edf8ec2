// What windows are told about the connection (StreamStatus): the engine-wide facts that are not owned by one
// other service (last message, last error, key presence, keychain trouble, reconnect count), assembled with the
// facts that are (socket state, auth error, rate limit, counters, incidents) into one status view.
import type { Result } from '../../../shared/model'
import type {
  ApiError,
  ConnectionState,
  RateLimitInfo,
  RecordingStatus,
  ReplayStatus,
  StreamCounters,
  StreamStatus,
  UpdateStatus,
} from '../../../shared/model'
import type { IncidentLog } from './incidents'
import type { StreamState } from '../base/types'

export interface StatusSources {
  profileId(): string
  connectionState(): ConnectionState
  stream(): StreamState | undefined
  authError(): ApiError | null
  rateLimit(): RateLimitInfo | null
  counters(): StreamCounters
  /** Why the profile has no stream at all (no endpoint), shown as lastError. */
  unavailable(): ApiError | null
  adapter?(): { selected: string; picked: string | null }
  /** A recording in progress, and a replay running (record-replay.ts). */
  recording?(): RecordingStatus | undefined
  replay?(): ReplayStatus | undefined
  /** Every watched market that has spoken is quiet or silent (MarketLiveness.paused()). */
  marketsPaused?(): boolean
  /** The venue's silence episode (health/venue-silence.ts), or null while data flows. */
  silence?(): { since: number; rebuilds: number } | null
}

/** Counters and lastMessageAt change with every frame; windows get them once a second, not per frame. */
export const STATUS_TICK_MS = 1000

// Every field changes through a method, so one place decides what a change means and who hears it.
export class StatusTracker {
  private reconnectCount = 0
  private lastHeardAt: number | null = null
  private error: ApiError | null = null
  private keyStored = false
  /** Sticky keychain failure: set by a keychain error, cleared by any keychain success. */
  private keychainError: ApiError | null = null
  /** Shown until the engine restarts (a repaired settings file, say). */
  private readonly noticeList: string[] = []
  /** The app's own update, as the shell's updater reports it; null while updates are off. */
  private update: UpdateStatus | null = null
  private lastTickMessageAt: number | null = null
  private lastTickPaused = false
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly sources: StatusSources,
    private readonly incidents: IncidentLog,
    private readonly onChange: () => void,
  ) {
    this.timer = setInterval(() => {
      // No frame arrives when the data pauses, so the pause itself is a change windows must hear.
      const paused = this.dataPaused()
      if (this.lastHeardAt !== this.lastTickMessageAt || paused !== this.lastTickPaused) {
        this.lastTickMessageAt = this.lastHeardAt
        this.lastTickPaused = paused
        this.onChange()
      }
    }, STATUS_TICK_MS)
    this.timer.unref()
  }

  get lastMessageAt(): number | null {
    return this.lastHeardAt
  }

  get lastError(): ApiError | null {
    return this.error
  }

  get hasKey(): boolean {
    return this.keyStored
  }

  get credentialsError(): ApiError | null {
    return this.keychainError
  }

  changed(): void {
    this.onChange()
  }

  /**
   * Whether the data is paused may have changed (a market's verdict, a silence episode begun or ended): windows
   * hear it now rather than at the next tick, so a mark that stopped being live never sits beside a live dot.
   */
  pauseMaybeChanged(): void {
    const paused = this.dataPaused()
    if (paused === this.lastTickPaused) return
    this.lastTickPaused = paused
    this.onChange()
  }

  /** A silence episode began or ended: its line changes, and with it perhaps the pause. */
  silenceChanged(): void {
    this.lastTickPaused = this.dataPaused()
    this.onChange()
  }

  /** A frame arrived: windows see it with the next tick, never per frame. */
  heard(at: number): void {
    this.lastHeardAt = at
  }

  /** Whether a frame arrived within the last `ms`. */
  heardWithin(ms: number, now: number): boolean {
    return this.lastHeardAt !== null && now - this.lastHeardAt < ms
  }

  /** A line every window shows until the engine restarts. */
  notice(text: string): void {
    this.noticeList.push(text)
    this.onChange()
  }

  /** The stream opened (again, when `reconnected`): the last error is over. */
  opened(reconnected: boolean): void {
    if (reconnected) this.reconnectCount += 1
    this.error = null
  }

  setError(error: ApiError | null): void {
    this.error = error
    this.onChange()
  }

  /** A listing arrived: any error but the link's own is over (the link's ends when the stream opens). */
  listingLoaded(): void {
    if (this.error && this.error.code !== 'network') this.error = null
  }

  setHasKey(value: boolean): void {
    if (value === this.keyStored) return
    this.keyStored = value
    this.onChange()
  }

  setUpdate(update: UpdateStatus | null): void {
    const same =
      update === this.update ||
      (update !== null &&
        this.update !== null &&
        update.state === this.update.state &&
        update.version === this.update.version &&
        update.percent === this.update.percent &&
        update.message === this.update.message)
    if (same) return
    this.update = update === null ? null : { ...update }
    this.onChange()
  }

  /** Keeps credentialsError current from any keychain operation's result. */
  noteKeychain(r: Result<unknown>): void {
    const next = r.ok ? null : r.error.code.startsWith('keyring_') ? r.error : this.keychainError
    if (next !== this.keychainError) {
      this.keychainError = next
      this.onChange()
    }
  }

  /** A new profile: its errors and key state are learnt afresh. */
  resetForProfile(): void {
    this.error = null
    this.keychainError = null
    this.keyStored = false
  }

  status(): StreamStatus {
    const s = this.sources.stream()
    return {
      profileId: this.sources.profileId(),
      state: this.sources.connectionState(),
      reconnects: this.reconnectCount,
      connectedSince: s?.connectedSince ?? null,
      lastMessageAt: this.lastHeardAt,
      nextRetryAt: s?.nextRetryAt ?? null,
      authError: this.sources.authError(),
      credentialsError: this.keychainError,
      lastError: this.error ?? this.sources.unavailable(),
      rateLimit: this.sources.rateLimit(),
      counters: this.sources.counters(),
      incidents: this.incidents.list(),
      hasKey: this.keyStored,
      ...(this.noticeList.length > 0 ? { notices: [...this.noticeList] } : {}),
      ...(this.sources.adapter ? { adapter: this.sources.adapter() } : {}),
      ...(this.update ? { update: { ...this.update } } : {}),
      ...(this.dataPaused() ? { dataPaused: true } : {}),
      ...this.venueSilent(),
      ...this.recordAndReplay(),
    }
  }

  /**
   * The socket is open, so its pings answer (one unanswered ends it), yet every watched market has gone quiet,
   * or a socket was rebuilt for silence and no data came since (an ack is not data): the venue is connected and
   * sends nothing. A REST book fetched meanwhile is true as of its fetch, but nothing streams behind it.
   */
  private dataPaused(): boolean {
    const stream = this.sources.stream()
    if (stream?.phase !== 'open') return false
    return this.sources.silence?.() != null || this.sources.marketsPaused?.() === true
  }

  private venueSilent(): Pick<StreamStatus, 'venueSilent'> {
    const episode = this.sources.silence?.() ?? null
    return episode === null ? {} : { venueSilent: episode }
  }

  private recordAndReplay(): Pick<StreamStatus, 'recording' | 'replay'> {
    const recording = this.sources.recording?.()
    const replay = this.sources.replay?.()
    return { ...(recording ? { recording } : {}), ...(replay ? { replay } : {}) }
  }

  close(): void {
    clearInterval(this.timer)
  }
}
