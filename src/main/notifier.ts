// OS notifications for fired alerts (and the shell's few notices). A click brings the trader to the market the
// alert is about.
import { Notification } from 'electron'
import type { AlertEvent } from '../shared/alerts'
import type { Logger } from './services'
import { errorMessage } from './services'

/**
 * Windows shows toasts only for a process whose AppUserModelID matches a Start-menu shortcut; electron-builder's
 * NSIS installer gives the shortcut the appId, so this is the appId itself, from app-identity.json
 * (test/packaging/app-identity.test.ts checks that electron-builder reads the same).
 */
export { APP_ID as APP_USER_MODEL_ID } from '../shared/app-identity'

export interface NotifierActions {
  /** Focus the window showing this market, or open one (WindowManager.open({ kind: 'market', market })). */
  openMarket(market: string): void
  /** Focus the main window, or open one. */
  openMain(): void
}

export interface NotifierOptions {
  actions: NotifierActions
  logger: Logger
  /** More than `burstMax` notifications within `burstWindowMs` and the rest are summarised. */
  burstMax?: number
  burstWindowMs?: number
  /** Notifications held alive at most (oldest let go first); `close` is not emitted on every platform. */
  retainMax?: number
  now?: () => number
}

const MAX_TITLE = 120
const MAX_BODY = 300

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

export class AlertNotifier {
  private readonly burstMax: number
  private readonly burstWindowMs: number
  private readonly retainMax: number
  private readonly now: () => number
  /**
   * Shown notifications, referenced until clicked or closed: Electron lets an unreferenced Notification be
   * garbage-collected, and its click handler with it (the notification stays on screen, the click does
   * nothing).
   */
  private readonly alive = new Set<Notification>()
  /** Arrival times of the latest alerts (at most burstMax + 1 of them): a storm is judged by what arrives. */
  private arrivals: number[] = []
  private overflow: AlertEvent[] = []
  private overflowTimer: NodeJS.Timeout | null = null
  private supported: boolean | null = null
  private readonly logged = new Set<string>()
  private disposed = false

  constructor(private readonly options: NotifierOptions) {
    this.burstMax = options.burstMax ?? 5
    this.burstWindowMs = options.burstWindowMs ?? 2_000
    this.retainMax = options.retainMax ?? 50
    this.now = options.now ?? Date.now
  }

  /** Notifications currently referenced (for tests and diagnostics). */
  get retained(): number {
    return this.alive.size
  }

  /**
   * One fired alert. The first `burstMax` of a burst are shown at once (an alert must never wait); the rest of
   * the burst become one summary at the end of the window, so that a storm is one notification per window,
   * not fifty. It is a burst while more than `burstMax` alerts arrived within the last `burstWindowMs`.
   */
  alertFired(event: AlertEvent): void {
    // `held` entries are history notes (the rule waits for live data), not firings.
    if (this.disposed || event.kind !== 'fired') return
    const now = this.now()
    this.arrivals.push(now)
    if (this.arrivals.length > this.burstMax + 1) this.arrivals.shift()
    this.arrivals = this.arrivals.filter((at) => now - at < this.burstWindowMs)
    if (this.overflowTimer || this.arrivals.length > this.burstMax) {
      this.overflow.push(event)
      this.overflowTimer ??= setTimeout(() => this.flushOverflow(), this.burstWindowMs)
      return
    }
    this.show(event.title, event.detail, () => this.open(event.market))
  }

  /** A message from the shell itself (e.g. "still running in the background"); a click opens the main window. */
  notice(title: string, body: string): void {
    if (this.disposed) return
    this.show(title, body, () => this.options.actions.openMain())
  }

  /** Quit: drop the pending summary and the references; notifications already shown stay with the OS. */
  dispose(): void {
    this.disposed = true
    if (this.overflowTimer) clearTimeout(this.overflowTimer)
    this.overflowTimer = null
    this.overflow = []
    this.alive.clear()
  }

  private flushOverflow(): void {
    this.overflowTimer = null
    const events = this.overflow
    this.overflow = []
    if (this.disposed || events.length === 0) return
    const first = events[0] as AlertEvent
    if (events.length === 1) {
      this.show(first.title, first.detail, () => this.open(first.market))
      return
    }
    const markets = new Set(events.map((e) => e.market))
    const [only] = markets
    const listed = events.slice(0, 3).map((e) => e.title)
    const rest = events.length - listed.length
    const body = listed.join('\n') + (rest > 0 ? `\n…and ${rest} more` : '')
    // All about one market: open it; otherwise the main window, where the alert history is.
    this.show(`${events.length} more alerts fired`, body, () =>
      this.open(markets.size === 1 ? (only ?? null) : null),
    )
  }

  private open(market: string | null): void {
    if (market) this.options.actions.openMarket(market)
    else this.options.actions.openMain()
  }

  private show(title: string, body: string, onClick: () => void): void {
    try {
      this.supported ??= Notification.isSupported()
      if (!this.supported) {
        this.logOnce('unsupported', 'OS notifications are not supported here; alerts show in the app only')
        return
      }
      // Always silent: the rule's own sound (SoundPlayer) is the one alert sound. The OS sound would double
      // it when the rule asks for sound, and would contradict the rule when it asks for none.
      const notification = new Notification({
        title: clip(title, MAX_TITLE),
        body: clip(body, MAX_BODY),
        silent: true,
      })
      this.retain(notification)
      const release = (): void => {
        this.alive.delete(notification)
      }
      notification.once('click', () => {
        release()
        try {
          onClick()
        } catch (error) {
          this.options.logger.warn('notification click failed', { error: errorMessage(error) })
        }
      })
      notification.once('close', release)
      notification.once('failed', (_event, error) => {
        release()
        this.logOnce('failed', 'notification not shown', { error })
      })
      notification.show()
    } catch (error) {
      this.logOnce('error', 'notification failed', { error: errorMessage(error) })
    }
  }

  private retain(notification: Notification): void {
    this.alive.add(notification)
    // Linux does not always report `close`; the oldest are long gone from the screen by now.
    while (this.alive.size > this.retainMax) {
      const [oldest] = this.alive
      if (oldest) this.alive.delete(oldest)
    }
  }

  private logOnce(key: string, text: string, fields?: Record<string, string>): void {
    if (this.logged.has(key)) return
    this.logged.add(key)
    this.options.logger.warn(text, fields)
  }
}
