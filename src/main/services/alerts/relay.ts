// Carries the alert service's news out of the engine: to the windows (through the fan-out), to the shell (tray,
// OS notifications, quit policy) and to the settings file. Each outlet has its own pace: a firing goes out at
// once everywhere, a changed view at most every `viewMs` (a view of 1,000 rules is not rebuilt per update), the
// shell hears only when what it shows changed, and the file is written once per burst of edits.
import type { AlertEvent, AlertRule, AlertsSummary, KeepRunning } from '../../../shared/alerts'
import type { ConnectionState } from '../../../shared/model'
import { Emitter, type Event } from '../base/events'
import type { Logger, ShellListener, ShellState } from '../base/types'
import type { SavedAlerts } from './service'

/** The alert service as the relay hears it (AlertService's events and summary). */
export interface AlertSource {
  onDidChange: Event<void>
  onDidFire: Event<AlertEvent>
  onDidChangeRules: Event<SavedAlerts>
  onDidChangeHistory: Event<AlertEvent[]>
  summary(): AlertsSummary
}

export interface AlertRelayDeps {
  log: Logger
  now(): number
  alerts: AlertSource
  connection(): ConnectionState
  /** Writes rules and the keep-running choice to settings. */
  save(state: { rules: AlertRule[]; keepRunning: KeepRunning }): Promise<void>
  /** Writes the alert history beside the settings. */
  saveHistory(entries: AlertEvent[]): Promise<void>
  viewMs?: number
  saveMs?: number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
}

export class AlertRelay {
  private readonly views = new Emitter<void>()
  private readonly firings = new Emitter<AlertEvent>()
  /** The windows' alerts view should be rebuilt (at most every `viewMs`). */
  readonly onDidChangeView = this.views.event
  /** An alert fired: every window hears it at once. */
  readonly onDidFire = this.firings.event
  private readonly unsubscribe: Array<() => void>
  private readonly listeners = new Set<ShellListener>()
  private lastShell: string | null = null
  private viewTimer: unknown = null
  private viewPending = false
  private lastViewAt = -Infinity
  private saveTimer: unknown = null
  private toSave: { rules: AlertRule[]; keepRunning: KeepRunning } | null = null
  private historyToSave: AlertEvent[] | null = null
  private saving: Promise<void> = Promise.resolve()
  private closed = false
  private readonly viewMs: number
  private readonly saveMs: number
  private readonly setTimer: (fn: () => void, ms: number) => unknown
  private readonly clearTimer: (handle: unknown) => void

  constructor(private readonly d: AlertRelayDeps) {
    this.viewMs = d.viewMs ?? 250
    this.saveMs = d.saveMs ?? 500
    this.setTimer =
      d.setTimeout ??
      ((fn, ms) => {
        const t = setTimeout(fn, ms)
        t.unref()
        return t
      })
    this.clearTimer = d.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>))
    this.unsubscribe = [
      d.alerts.onDidFire((event) => this.fired(event)),
      d.alerts.onDidChange(() => this.changed()),
      d.alerts.onDidChangeRules((state) => {
        this.toSave = state
        this.persist()
      }),
      d.alerts.onDidChangeHistory((entries) => {
        this.historyToSave = entries
        this.persist()
      }),
    ]
  }

  watch(listener: ShellListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  shellState(): ShellState {
    return { connection: this.d.connection(), alerts: this.d.alerts.summary() }
  }

  /** The alert service fired a rule: windows and shell hear now. */
  private fired(event: AlertEvent): void {
    if (this.closed) return
    this.firings.fire(event)
    this.shellMaybeChanged()
    for (const listener of this.listeners) {
      try {
        listener.alertFired?.(event)
      } catch (error) {
        this.d.log.warn('alerts: a shell listener failed', { error: String(error) })
      }
    }
  }

  /**
   * Something in the alerts view changed (a rule armed, held, edited…; may come from the hot path): windows hear
   * within `viewMs`, and the shell with them if its summary changed. Nothing is computed here.
   */
  private changed(): void {
    if (this.closed) return
    this.viewPending = true
    if (this.viewTimer === null) {
      const wait = Math.max(0, this.lastViewAt + this.viewMs - this.d.now())
      this.viewTimer = this.setTimer(() => this.sendView(), wait)
    }
  }

  /** The connection state may have changed (called with every status change; cheap when nothing did). */
  shellMaybeChanged(): void {
    if (this.closed || this.listeners.size === 0) return
    const state = this.shellState()
    const key = JSON.stringify(state)
    if (key === this.lastShell) return
    this.lastShell = key
    for (const listener of this.listeners) {
      try {
        listener.stateChanged?.(state)
      } catch (error) {
        this.d.log.warn('alerts: a shell listener failed', { error: String(error) })
      }
    }
  }

  /** Rules or history changed: saved once the burst is over (or on close). */
  private persist(): void {
    if (this.closed) return
    if (this.saveTimer !== null) return
    this.saveTimer = this.setTimer(() => {
      this.saveTimer = null
      void this.saveNow()
    }, this.saveMs)
  }

  /** Writes anything not yet saved and stops every timer. */
  async close(): Promise<void> {
    // Whatever is already waiting is written below; nothing new is accepted from here on.
    this.closed = true
    for (const off of this.unsubscribe) off()
    if (this.viewTimer !== null) this.clearTimer(this.viewTimer)
    if (this.saveTimer !== null) this.clearTimer(this.saveTimer)
    this.viewTimer = null
    this.saveTimer = null
    await this.saveNow()
    this.listeners.clear()
    this.views.dispose()
    this.firings.dispose()
  }

  private sendView(): void {
    this.viewTimer = null
    if (!this.viewPending || this.closed) return
    this.viewPending = false
    this.lastViewAt = this.d.now()
    this.views.fire()
    this.shellMaybeChanged()
  }

  private saveNow(): Promise<void> {
    const state = this.toSave
    const history = this.historyToSave
    if (state === null && history === null) return this.saving
    this.toSave = null
    this.historyToSave = null
    // Writes stay in order: a later state never lands before an earlier one.
    this.saving = this.saving.then(async () => {
      if (state !== null)
        await this.d.save(state).catch((error: unknown) => {
          this.d.log.warn('alerts: could not save the rules', { error: String(error) })
        })
      if (history !== null)
        await this.d.saveHistory(history).catch((error: unknown) => {
          this.d.log.warn('alerts: could not save the history', { error: String(error) })
        })
    })
    return this.saving
  }
}
