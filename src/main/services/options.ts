// What createMonitor accepts, and the defaults that follow from it (where adapters and recordings live, the
// logger when none is given). Kept apart from monitor.ts so the composition root reads as wiring only.
import { dirname, join } from 'node:path'
import type { LogFields, Logger } from './base/types'
import type { CredentialStore } from './credentials/store'
import type { StreamTuning } from './feed/connection'
import type { DemoOptions } from './feed/demo'
import type { LivenessConfig, ResyncConfig } from './health/thresholds'

export interface CreateMonitorOptions {
  /** Settings file; null keeps settings in memory (tests, throwaway runs). */
  settingsPath: string | null
  /** Default: the OS keychain, or memory in demo mode. The demo profile always uses memory. */
  credentials?: CredentialStore
  /**
   * true / { seed }: start the embedded simulator now and make the demo profile active.
   * undefined: start it lazily when the demo profile becomes active. false: never (the demo profile is offline).
   */
  demo?: boolean | DemoOptions
  /** The simulator worker's script in bundled builds (also used when the demo profile starts it lazily). */
  simulatorWorkerEntry?: string
  logger?: Logger
  fanoutIntervalMs?: number
  /** A window sent nothing for this long gets a heartbeat batch (default ENGINE_HEARTBEAT_MS; 0: none). */
  fanoutHeartbeatMs?: number
  stream?: StreamTuning
  /** Market liveness thresholds (defaults: LIVENESS_DEFAULTS, docs/liveness.md). */
  liveness?: Partial<Pick<LivenessConfig, 'marketQuiet' | 'marketStale' | 'marketCheckMs'>>
  /** Resync backoff (defaults: RESYNC_DEFAULTS). */
  resync?: Partial<ResyncConfig>
  now?: () => number
  random?: () => number
  /** How long an events listing is reused (default 30 s). */
  eventsCacheMs?: number
  restTimeoutMs?: number
  /** The user's own venue adapter files (docs/adapters.md). Default: `adapters/` beside the settings file. */
  adaptersDir?: string | null
  /** Where recordings are written and read (docs/recording.md). Default: `recordings/` beside the settings file. */
  recordingsDir?: string | null
  /** A recording stops at this many compressed bytes (default 256 MiB). */
  recordingLimitBytes?: number
  /** The order journal (docs/trading.md). Default: `journal/` beside the settings file; null keeps none on disk. */
  journalDir?: string | null
}

/** A folder given in the options, or the default one beside the settings file (none without a file). */
export function folderBesideSettings(
  options: CreateMonitorOptions,
  given: string | null | undefined,
  name: string,
): string | null {
  if (given !== undefined) return given
  return options.settingsPath !== null ? join(dirname(options.settingsPath), name) : null
}

export function defaultLogger(): Logger {
  const write = (level: string) => (message: string, fields?: LogFields) => {
    process.stderr.write(`[monitor] ${level} ${message}${fields ? ' ' + JSON.stringify(fields) : ''}\n`)
  }
  return { info: write('info'), warn: write('warn'), error: write('error') }
}
