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
}

/** Counters and lastMessageAt change with every frame; windows get them once a second, not per frame. */
export const STATUS_TICK_MS = 1000

export class StatusTracker {
  reconnects = 0
  lastMessageAt: number | null = null
  lastError: ApiError | null = null
  hasKey = false
  /** Sticky keychain failure: set by a keychain error, cleared by any keychain success. */
  credentialsError: ApiError | null = null
  /** Shown until the engine restarts (a repaired settings file, say). */
  readonly notices: string[] = []
  /** The app's own update, as the shell's updater reports it; null while updates are off. */
  private update: UpdateStatus | null = null
  private lastTickMessageAt: number | null = null
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly sources: StatusSources,
    private readonly incidents: IncidentLog,
    private readonly onChange: () => void,
  ) {
    this.timer = setInterval(() => {
      if (this.lastMessageAt !== this.lastTickMessageAt) {
        this.lastTickMessageAt = this.lastMessageAt
        this.onChange()
      }
    }, STATUS_TICK_MS)
    this.timer.unref()
  }

  changed(): void {
    this.onChange()
  }

  setError(error: ApiError | null): void {
    this.lastError = error
    this.onChange()
  }

  setHasKey(value: boolean): void {
    if (value === this.hasKey) return
    this.hasKey = value
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
    const next = r.ok ? null : r.error.code.startsWith('keyring_') ? r.error : this.credentialsError
    if (next !== this.credentialsError) {
      this.credentialsError = next
      this.onChange()
    }
  }

  /** A new profile: its errors and key state are learnt afresh. */
  resetForProfile(): void {
    this.lastError = null
    this.credentialsError = null
    this.hasKey = false
  }

  status(): StreamStatus {
    const s = this.sources.stream()
    return {
      profileId: this.sources.profileId(),
      state: this.sources.connectionState(),
      reconnects: this.reconnects,
      connectedSince: s?.connectedSince ?? null,
      lastMessageAt: this.lastMessageAt,
      nextRetryAt: s?.nextRetryAt ?? null,
      authError: this.sources.authError(),
      credentialsError: this.credentialsError,
      lastError: this.lastError ?? this.sources.unavailable(),
      rateLimit: this.sources.rateLimit(),
      counters: this.sources.counters(),
      incidents: this.incidents.list(),
      hasKey: this.hasKey,
      ...(this.notices.length > 0 ? { notices: [...this.notices] } : {}),
      ...(this.sources.adapter ? { adapter: this.sources.adapter() } : {}),
      ...(this.update ? { update: { ...this.update } } : {}),
      ...this.recordAndReplay(),
    }
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
