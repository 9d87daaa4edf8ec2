// What happens when the last window closes: the quit policy (pure) and its binding to app's window-all-closed.
import { existsSync, writeFileSync } from 'node:fs'
import type { AlertsSummary } from '../shared/alerts'
import type { Logger } from './services'
import { errorMessage } from './services'

/**
 * stay: macOS convention, the app lives on in the dock (and the menu bar) until Cmd+Q, whatever the setting.
 * background: Windows/Linux, the app keeps watching alerts with no window; the tray icon is the way back.
 * quit: the ordinary end of a Windows/Linux app.
 */
export type AllClosedAction = 'stay' | 'background' | 'quit'

/**
 * `alerts` null: the engine is not up yet (a failed start), so there is nothing to watch. Without a tray icon
 * there is no visible way back or out on Windows/Linux, so the app quits rather than linger invisibly.
 * Paused alerts still count as armed under 'auto': quitting would silently lose them once the trader resumes
 * (from the tray, which needs the app running).
 */
export function allWindowsClosedAction(
  platform: NodeJS.Platform,
  alerts: AlertsSummary | null,
  trayShown: boolean,
): AllClosedAction {
  if (platform === 'darwin') return 'stay'
  if (!alerts || !trayShown) return 'quit'
  if (alerts.keepRunning === 'always') return 'background'
  if (alerts.keepRunning === 'auto' && alerts.armed > 0) return 'background'
  return 'quit'
}

/** A "shown once" flag that survives restarts: an empty file in the user-data directory. */
export interface OnceFlag {
  isSet(): boolean
  set(): void
}

export function fileFlag(path: string, logger: Logger): OnceFlag {
  return {
    isSet: () => existsSync(path),
    set: () => {
      try {
        writeFileSync(path, '')
      } catch (error) {
        // Worst case the notice is shown again next time.
        logger.warn('could not record the background notice', {
          error: errorMessage(error),
        })
      }
    },
  }
}

/** The part of Electron's `app` this needs (the real one fits). */
export interface QuitTarget {
  on(event: 'window-all-closed', listener: () => void): unknown
  removeListener(event: 'window-all-closed', listener: () => void): unknown
  quit(): void
}

export interface KeepRunningOptions {
  app: QuitTarget
  platform: NodeJS.Platform
  /** engine.shellState().alerts, or null before the engine exists. */
  alerts: () => AlertsSummary | null
  trayShown: () => boolean
  /** The first time ever the app goes to the background: tell the trader it still runs and how to quit. */
  firstBackground: () => void
  noticeFlag: OnceFlag
  logger: Logger
}

export const BACKGROUND_NOTICE = {
  title: 'Trading Monitor is still running',
  body: 'Trading Monitor keeps watching your alerts; quit from the tray.',
}

/** Registers the window-all-closed handler; returns its removal. */
export function installKeepRunning(options: KeepRunningOptions): () => void {
  const onAllClosed = (): void => {
    let alerts: AlertsSummary | null = null
    try {
      alerts = options.alerts()
    } catch (error) {
      options.logger.warn('alert state unreadable at window-all-closed', {
        error: errorMessage(error),
      })
    }
    const action = allWindowsClosedAction(options.platform, alerts, options.trayShown())
    if (action === 'quit') {
      options.app.quit()
      return
    }
    if (action === 'background') {
      options.logger.info('all windows closed; running in the background', {
        keepRunning: alerts?.keepRunning,
        armed: alerts?.armed,
      })
      if (!options.noticeFlag.isSet()) {
        options.noticeFlag.set()
        options.firstBackground()
      }
    }
  }
  options.app.on('window-all-closed', onAllClosed)
  return () => {
    options.app.removeListener('window-all-closed', onAllClosed)
  }
}
