// The app's own updates (docs/updates.md): electron-updater's autoUpdater behind a small state machine that the
// engine's status carries to every window. Checks a while after start and every few hours, downloads in the
// background, and installs only when the user asks ("Restart to update"). Failures (offline, no release yet) are
// logged quietly and never shown as a dialog. No electron import, and electron-updater is only required by
// loadElectronUpdater(): the Updater gets it injected, so its behaviour is tested with a fake
// (test/shell/updater.test.ts).
import type { AppUpdater } from 'electron-updater'
import { fail, ok } from '../shared/ipc'
import type { Result, UpdateStatus } from '../shared/model'
import type { Logger } from './services'
import { errorMessage } from './services'

/** The first check waits this long after start, so that it never competes with the first window and book. */
export const UPDATE_FIRST_CHECK_MS = 15_000
/** Then a check every this often while the app runs. */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000
/** An error's message is cut to its first line and this many characters (they can quote whole HTTP responses). */
const MAX_MESSAGE = 160

/** electron-updater's logger interface: messages are strings (or errors). */
export interface AutoUpdaterLogger {
  info(message?: unknown): void
  warn(message?: unknown): void
  error(message?: unknown): void
}

/** The part of electron-updater's `autoUpdater` (an AppUpdater) this uses; the real one fits. */
export interface AutoUpdaterLike {
  autoDownload: boolean
  autoInstallOnAppQuit: boolean
  logger: AutoUpdaterLogger | null
  // The events this listens to, with the fields it reads.
  on(event: 'error', listener: (error: Error, message?: string) => void): unknown
  on(event: 'checking-for-update', listener: () => void): unknown
  on(event: 'update-not-available', listener: (info: { version: string }) => void): unknown
  on(event: 'update-available', listener: (info: { version: string }) => void): unknown
  on(event: 'download-progress', listener: (info: { percent: number }) => void): unknown
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown
  checkForUpdates(): Promise<{ downloadPromise?: Promise<unknown> | null } | null>
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void
}

export interface UpdaterOptions {
  /** Loads electron-updater's autoUpdater; called once, at the first check (it is not needed before). */
  load(): AutoUpdaterLike | Promise<AutoUpdaterLike>
  logger: Logger
  /** Every change of state; the shell hands it to the engine (MonitorEngine.setUpdateStatus). */
  onStatus(status: UpdateStatus): void
  /** Runs just before the app quits to install, while every window is still open (save the window layouts). */
  beforeInstall?(): void
  firstCheckMs?: number
  intervalMs?: number
}

/**
 * electron-updater's autoUpdater, loaded at the first check. `require`, not `import`: a static import would load
 * the library (about 80 ms) at every start, and a dynamic `import()` stays a native ESM import in the CommonJS
 * main bundle, whose view of this CommonJS package has no `autoUpdater` (a getter the ESM interop cannot see).
 * Reading the getter creates the platform's updater (NSIS, Squirrel.Mac, AppImage, deb...).
 */
export function loadElectronUpdater(): AutoUpdaterLike {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const electronUpdater = require('electron-updater') as { autoUpdater: AppUpdater }
  return electronUpdater.autoUpdater
}

/**
 * Why updates are off, or null when they are on. Off in development (not packaged: no app-update.yml, and the
 * running code is not a release), in the forced demo mode (TM_DEMO=1, a showcase that must not change under its
 * audience) and when TM_NO_UPDATES=1 (managed installs, kiosks, tests of a packaged build).
 */
export function updatesOffReason(packaged: boolean, env: NodeJS.ProcessEnv): string | null {
  if (!packaged) return 'not a packaged build'
  if (env['TM_DEMO'] === '1') return 'demo mode (TM_DEMO=1)'
  if (env['TM_NO_UPDATES'] === '1') return 'TM_NO_UPDATES=1'
  return null
}

/** One line, bounded: enough for the log and the status, never a whole HTTP response or stack. */
export function shortMessage(error: unknown): string {
  const first = (errorMessage(error).split('\n')[0] ?? '').trim() || 'update failed'
  return first.length > MAX_MESSAGE ? `${first.slice(0, MAX_MESSAGE - 1)}…` : first
}

export class Updater {
  private current: UpdateStatus = { state: 'idle' }
  private updater: AutoUpdaterLike | null = null
  private loading: Promise<AutoUpdaterLike | null> | null = null
  private firstTimer: ReturnType<typeof setTimeout> | null = null
  private intervalTimer: ReturnType<typeof setInterval> | null = null
  private installing = false
  private stopped = false

  constructor(private readonly options: UpdaterOptions) {}

  status(): UpdateStatus {
    return { ...this.current }
  }

  /** Announces the idle state, then checks after a short delay and every few hours. */
  start(): void {
    if (this.stopped || this.firstTimer || this.intervalTimer) return
    this.options.onStatus(this.status())
    this.firstTimer = setTimeout(() => {
      this.firstTimer = null
      void this.check()
    }, this.options.firstCheckMs ?? UPDATE_FIRST_CHECK_MS)
    this.intervalTimer = setInterval(
      () => void this.check(),
      this.options.intervalMs ?? UPDATE_CHECK_INTERVAL_MS,
    )
  }

  /** No more checks (the app is quitting). A download in flight is left to finish or die with the process. */
  stop(): void {
    this.stopped = true
    if (this.firstTimer) clearTimeout(this.firstTimer)
    if (this.intervalTimer) clearInterval(this.intervalTimer)
    this.firstTimer = null
    this.intervalTimer = null
  }

  /**
   * One check, which downloads a newer release in the background. Skipped while a check or download is under
   * way, and once an update is ready (the restart installs it; the next launch checks again). Never throws.
   */
  async check(): Promise<void> {
    if (this.stopped || this.installing) return
    const { state } = this.current
    if (state === 'checking' || state === 'downloading' || state === 'ready') return
    const updater = await this.ensureLoaded()
    if (!updater || this.stopped) return
    try {
      const result = await updater.checkForUpdates()
      // A failed download rejects this promise as well as emitting `error`; the event is what counts.
      result?.downloadPromise?.catch(() => undefined)
    } catch (error) {
      // electron-updater emitted `error` already; this only keeps the rejection from going unhandled.
      if (this.current.state !== 'error') this.failed(error)
    }
  }

  /** The user asked: quit, install the ready update and start the new version. */
  install(): Result<void> {
    if (this.installing) return ok(undefined)
    if (this.current.state !== 'ready' || !this.updater)
      return fail({ code: 'invalid_argument', message: 'No update is ready to install yet.' })
    this.installing = true
    try {
      this.options.beforeInstall?.()
    } catch (error) {
      this.options.logger.warn('updater: could not prepare for the restart', { error: errorMessage(error) })
    }
    this.options.logger.info('updater: quitting to install', { version: this.current.version ?? null })
    try {
      // Silent (no installer wizard on Windows, the user already said yes) and run the new version afterwards.
      this.updater.quitAndInstall(true, true)
      return ok(undefined)
    } catch (error) {
      this.installing = false
      this.failed(error)
      return fail({ code: 'internal', message: `The update could not be installed: ${shortMessage(error)}` })
    }
  }

  private async ensureLoaded(): Promise<AutoUpdaterLike | null> {
    if (this.updater) return this.updater
    this.loading ??= this.load()
    const updater = await this.loading
    // A failed load is tried again at the next check.
    if (!updater) this.loading = null
    return updater
  }

  private async load(): Promise<AutoUpdaterLike | null> {
    try {
      const updater = await this.options.load()
      this.configure(updater)
      this.updater = updater
      return updater
    } catch (error) {
      this.failed(error)
      return null
    }
  }

  private configure(updater: AutoUpdaterLike): void {
    const log = this.options.logger
    const text = (message: unknown): string => (message instanceof Error ? message.message : String(message))
    // electron-updater's own lines go to our log; its errors are warnings here (an offline check is not an error
    // of the app), and the state machine below reports them once.
    updater.logger = {
      info: (message) => log.info(`updater: ${text(message)}`),
      warn: (message) => log.warn(`updater: ${text(message)}`),
      error: (message) => log.warn(`updater: ${shortMessage(message)}`),
    }
    updater.autoDownload = true
    // Never install behind the user's back: a downloaded update waits for "Restart to update". If they quit
    // instead, the next launch finds the cached download, verifies it and offers it again.
    updater.autoInstallOnAppQuit = false

    updater.on('checking-for-update', () => this.set({ state: 'checking' }))
    updater.on('update-not-available', () => this.set({ state: 'idle' }))
    updater.on('update-available', (info) => {
      log.info('updater: update available', { version: info.version })
      this.set({ state: 'available', version: info.version })
    })
    updater.on('download-progress', (info) => {
      const percent = Math.min(100, Math.max(0, Math.floor(Number(info.percent) || 0)))
      this.set({
        state: 'downloading',
        ...(this.current.version !== undefined ? { version: this.current.version } : {}),
        percent,
      })
    })
    updater.on('update-downloaded', (info) => {
      log.info('updater: update ready', { version: info.version })
      this.set({ state: 'ready', version: info.version })
    })
    updater.on('error', (error) => {
      // An install that did not happen (no downloaded file, Squirrel.Mac refused it) leaves the app running.
      this.installing = false
      this.failed(error)
    })
  }

  private failed(error: unknown): void {
    const message = shortMessage(error)
    this.options.logger.warn('updater: check or download failed', { error: message })
    this.set({ state: 'error', message })
  }

  private set(next: UpdateStatus): void {
    const c = this.current
    if (
      c.state === next.state &&
      c.version === next.version &&
      c.percent === next.percent &&
      c.message === next.message
    )
      return
    this.current = next
    this.options.onStatus(this.status())
  }
}
