// How the shells (Electron main, browser host) and tests drive the engine. Plain Node: never imports electron.
import type { MonitorApi, ViewBatch } from '../../../shared/ipc'
import type { AlertEvent, AlertsSummary } from '../../../shared/alerts'
import type { ConnectionState, Result, UpdateStatus, WindowLayout } from '../../../shared/model'

export interface LogFields {
  [field: string]: string | number | boolean | null | undefined
}

/** Every log line of the engine goes through one of these, so tests can capture them (key-leak test). */
export interface Logger {
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

/** A window's handle on the engine: MonitorApi minus what the shell owns (opening windows, the push listener). */
export type MonitorClientApi = Omit<MonitorApi, 'onBatch' | 'onMenuCommand' | 'openWindow'>

export interface MonitorClient extends MonitorClientApi {
  readonly id: string
  /** Releases every interest of this client; safe to call twice. */
  dispose(): void
}

export interface AttachOptions {
  /** For logs only. */
  label?: string
  /** Called with each coalesced batch. Must not throw; a slow sink only ever gets the newest state. */
  sink: (batch: ViewBatch) => void
  /**
   * Which venues this window may send live orders to (orders/api.ts): 'any' (Electron windows, the default), or
   * only the built-in simulator (a browser-host page, unless the host was started with --allow-trading).
   */
  trading?: 'any' | 'builtin-simulator'
  /**
   * The sink's batches go to a window's store, which folds book deltas (ViewBatch.bookDeltas) into the views it
   * holds: books are sent as the levels that changed. Absent: every book whole (tools, tests).
   */
  bookDeltas?: boolean
}

/** What the shell's tray and quit policy need to know, pushed on change. */
export interface ShellState {
  connection: ConnectionState
  alerts: AlertsSummary
}

export interface ShellListener {
  /** An alert fired: the shell shows an OS notification and, when the rule asks, plays the sound. */
  alertFired?(event: AlertEvent): void
  /** The connection state or the alerts summary changed. */
  stateChanged?(state: ShellState): void
}

/** The shell's "quit, install the ready update and start again", which a window's installUpdate() reaches. */
export type InstallUpdateHandler = () => Result<void>

export interface MonitorEngine {
  attachClient(options: AttachOptions): MonitorClient
  /** Tear down and reconnect every stream now (OS resume, network change). */
  reconnectNow(): void
  /** Window layouts persisted in settings (restored by the Electron shell). */
  getWindowLayouts(): WindowLayout[]
  saveWindowLayouts(layouts: WindowLayout[]): Promise<void>
  /** The shell (tray, notifications, quit policy) listens here; returns the unsubscribe function. */
  watchShell(listener: ShellListener): () => void
  shellState(): ShellState
  pauseAlerts(paused: boolean): void
  /** The shell's updater reports here; windows see it as StreamStatus.update. null: updates are off (the default). */
  setUpdateStatus(update: UpdateStatus | null): void
  /**
   * The shell registers how to install a ready update; returns the unregistration. Without one (browser host,
   * dev and demo builds) a window's installUpdate() fails with `unavailable`.
   */
  onInstallUpdate(handler: InstallUpdateHandler): () => void
  /**
   * Test hook (end-to-end tests of the demo app): inject a fault into the embedded simulator.
   * Returns false when no embedded simulator is running.
   */
  injectDemoFault(
    kind: 'drop' | 'stall' | 'unstall' | 'freeze' | 'unfreeze' | 'malformed' | 'restart',
  ): boolean
  close(): Promise<void>
}

// The stream's state lives here, not beside the socket, because health reports it and feed must not be imported
// back by health.
export type StreamPhase = 'connecting' | 'open' | 'waiting' | 'closed'

export interface StreamState {
  phase: StreamPhase
  /** Consecutive failed attempts since the last connection that worked. */
  attempt: number
  /** While waiting: when the next attempt is due (ms since epoch). */
  nextRetryAt: number | null
  connectedSince: number | null
  /** The connection's learnt usual gap between frames (ms), or null before any was seen. */
  usualGapMs: number | null
  /** How long a silence may last while data is expected before the socket is rebuilt (ms). */
  silenceLimitMs: number
}
