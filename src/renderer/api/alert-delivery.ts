// What a window does when alerts fire. Every window toasts (through the monitor store). In the browser host the
// page also raises a Web Notification and plays the rule's chime; inside Electron the main process does both
// itself (with every window closed too), so the page must not or the trader would hear and see each alert twice.
// This runs on the batch as it arrives, not on the frame queue: a background tab gets no animation frames, and
// that is exactly when a notification matters.
import type { AlertEvent, AlertsView } from '../../shared/alerts'
import type { MonitorApi, ViewBatch } from '../../shared/ipc'
import { eventKey } from '../lib/alerts'
import { openMarketHandlerOf, permissionChanged } from '../store/alerts-ui'

/** Fired events remembered so that one delivered twice (a resent batch) is acted on once. */
const DELIVERED_CAP = 1000

export interface AlertIntake {
  /**
   * The batch with the fired alerts this window has not acted on yet. An entry that was in the history when the
   * window opened is never new, whatever a batch says.
   */
  filter(batch: ViewBatch): ViewBatch
  /** The history as the window first saw it (getAlerts or the first batch; the first one counts). */
  seed(view: AlertsView, firedInSameBatch?: readonly AlertEvent[]): void
}

export function createAlertIntake(): AlertIntake {
  let baseline: Set<string> | null = null
  const delivered = new Set<string>()
  const seed: AlertIntake['seed'] = (view, firedInSameBatch) => {
    if (baseline) return
    const fresh = new Set((firedInSameBatch ?? []).map(eventKey))
    baseline = new Set(view.history.map(eventKey).filter((k) => !fresh.has(k)))
  }
  return {
    seed,
    filter(batch) {
      if (batch.alerts) seed(batch.alerts, batch.alertsFired)
      const fired = batch.alertsFired
      if (!fired || fired.length === 0) return batch
      const known = baseline
      const fresh = fired.filter((e) => {
        const key = eventKey(e)
        if (known?.has(key) || delivered.has(key)) return false
        delivered.add(key)
        if (delivered.size > DELIVERED_CAP) delivered.delete(delivered.values().next().value as string)
        return true
      })
      if (fresh.length === fired.length) return batch
      const next: ViewBatch = { ...batch }
      if (fresh.length > 0) next.alertsFired = fresh
      else delete next.alertsFired
      return next
    },
  }
}

/** Electron's preload provides window.monitor; the browser host's page has none. */
export function inElectron(): boolean {
  return typeof window !== 'undefined' && window.monitor !== undefined
}

type NotificationCtor = typeof Notification

function notificationApi(): NotificationCtor | null {
  const n = (globalThis as { Notification?: NotificationCtor }).Notification
  return typeof n === 'function' ? n : null
}

export type NotificationState = 'electron' | 'unsupported' | NotificationPermission

/** Where OS notifications stand for this page (what the manager tells the trader). */
export function notificationState(): NotificationState {
  if (inElectron()) return 'electron'
  const N = notificationApi()
  return N ? N.permission : 'unsupported'
}

let askedThisSession = false

/**
 * Asks for notification permission the first time the trader saves an alert (never on page load: a prompt out
 * of nowhere is refused by people and demoted by browsers). Called from the click, so the prompt may show.
 */
export function askNotificationPermissionOnce(): void {
  if (askedThisSession || inElectron()) return
  const N = notificationApi()
  if (!N || N.permission !== 'default') return
  askedThisSession = true
  void Promise.resolve()
    .then(() => N.requestPermission())
    .catch(() => 'denied')
    .finally(permissionChanged)
}

/** The manager's "Enable" button: asks again (an explicit request, so the session flag does not apply). */
export function requestNotificationPermission(): Promise<NotificationState> {
  const N = notificationApi()
  if (!N || inElectron()) return Promise.resolve(notificationState())
  askedThisSession = true
  return Promise.resolve()
    .then(() => N.requestPermission())
    .catch(() => 'denied' as const)
    .then(() => {
      permissionChanged()
      return notificationState()
    })
}

/** Shows an alert's market: the window's own way (select it, or focus), else a market window. */
export function openAlertMarket(api: MonitorApi, market: string): void {
  const handler = openMarketHandlerOf()
  if (!handler?.(market)) void api.openWindow({ kind: 'market', market })
}

function notify(api: MonitorApi, e: AlertEvent): void {
  const N = notificationApi()
  if (!N || N.permission !== 'granted') return
  try {
    // One tag per alert: every open window raises the same notification, and the browser keeps one. Silent:
    // the chime below is the alert's sound, and only when the rule asks for one.
    const n = new N(e.title, { body: e.detail, tag: `alert-${e.id}`, silent: true })
    n.onclick = () => {
      window.focus()
      if (e.market) openAlertMarket(api, e.market)
      void api.acknowledgeAlerts([e.id])
      n.close()
    }
  } catch {
    // Some browsers allow notifications only from a service worker: the toast still shows the alert.
  }
}

/** Acts on newly fired alerts: notifications and sound in the browser host, nothing inside Electron. */
export function deliverFired(api: MonitorApi, events: readonly AlertEvent[]): void {
  if (inElectron()) return
  for (const e of events) {
    if (e.kind !== 'fired') continue
    notify(api, e)
    if (e.sound) claimAndChime(e)
  }
}

// ------------------------------------------------------------------------------------------------- sound
// A chime made with WebAudio (no asset to fetch, so the CSP keeps media-src 'none'). Several windows get the same
// firing; a Web Lock named after it is claimed without waiting and held a while, so one window plays it. Only a
// window the trader has interacted with may start audio (autoplay policy), so only such a window claims.

const CLAIM_HOLD_MS = 10_000
let audio: AudioContext | null = null

function canPlayAudio(): boolean {
  if (typeof AudioContext !== 'function') return false
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation
  return activation === undefined || activation.hasBeenActive
}

function claimAndChime(e: AlertEvent): void {
  if (!canPlayAudio()) return
  const locks = (navigator as Navigator & { locks?: LockManager }).locks
  if (!locks) {
    playChime()
    return
  }
  void locks
    .request(`tm-alert-sound-${eventKey(e)}`, { ifAvailable: true }, async (lock) => {
      if (!lock) return
      playChime()
      await new Promise((done) => setTimeout(done, CLAIM_HOLD_MS))
    })
    .catch(() => {})
}

/** Two short sine notes, about a third of a second. */
export function playChime(): void {
  try {
    audio ??= new AudioContext()
    const ctx = audio
    if (ctx.state === 'suspended') void ctx.resume()
    const start = ctx.currentTime + 0.02
    for (const [i, freq] of [880, 1320].entries()) {
      const t = start + i * 0.14
      const osc = ctx.createOscillator()
      const gain = ctx.createGain()
      osc.type = 'sine'
      osc.frequency.value = freq
      gain.gain.setValueAtTime(0.0001, t)
      gain.gain.exponentialRampToValueAtTime(0.18, t + 0.015)
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.22)
      osc.connect(gain).connect(ctx.destination)
      osc.start(t)
      osc.stop(t + 0.24)
    }
  } catch {
    // No audio device: the toast and the notification remain.
  }
}

/** Forget the per-page state (tests open many "pages" in one process). */
export function resetAlertDelivery(): void {
  askedThisSession = false
}
