// The MonitorApi and the interest registry, provided once per window so tests can inject a fake engine.
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { isHeartbeat, WINDOW_BOOK_DEPTH, type Interest, type MonitorApi } from '../../shared/ipc'
import { createAlertIntake, deliverFired } from '../api/alert-delivery'
import { createInterestRegistry, type InterestRegistry } from '../store/interests'
import { queueBatch, useMonitor } from '../store/monitor'
import { useAccountSeed } from './account'

interface Services {
  api: MonitorApi
  interests: InterestRegistry
}

const ServicesContext = createContext<Services | null>(null)

export function ServicesProvider({ api, children }: { api: MonitorApi; children: ReactNode }) {
  const services = useMemo<Services>(
    () => ({
      api,
      interests: createInterestRegistry(api, (m) => console.warn('setInterests failed:', m)),
    }),
    [api],
  )
  // Batches are queued and applied once per animation frame: every batch of a frame in one store update. Fired
  // alerts are also acted on at once (notification, sound), since a background tab gets no frames.
  useEffect(() => {
    const intake = createAlertIntake()
    const stop = api.onBatch((raw) => {
      // A heartbeat only keeps the engine link up (store/engine-link.ts): nothing to apply, no frame to ask for.
      if (isHeartbeat(raw)) return
      const batch = intake.filter(raw)
      queueBatch(batch)
      if (batch.alertsFired) deliverFired(api, batch.alertsFired)
    })
    let cancelled = false
    void api.getAlerts().then(
      (r) => {
        if (cancelled) return
        if (r.ok) intake.seed(r.value)
        useMonitor.getState().seedAlerts(r.ok ? r.value : null, r.ok ? null : r.error.message)
      },
      (e: unknown) => {
        if (!cancelled) useMonitor.getState().seedAlerts(null, String(e))
      },
    )
    return () => {
      cancelled = true
      stop()
    }
  }, [api])
  useEffect(() => {
    if (useMonitor.getState().status === null) void refreshStatus(api)
  }, [api])
  useEffect(() => askForLostBooks(api), [api])
  useAccountSeed(api)
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>
}

function useServices(): Services {
  const s = useContext(ServicesContext)
  if (!s) throw new Error('ServicesProvider is missing')
  return s
}

export function useApi(): MonitorApi {
  return useServices().api
}

/** Declare what this component watches; released on unmount. `interests` is compared by value. */
export function useInterests(owner: string, interests: readonly Interest[]): void {
  const { interests: registry } = useServices()
  const text = JSON.stringify(interests)
  useEffect(() => {
    registry.set(owner, JSON.parse(text) as Interest[])
  }, [registry, owner, text])
  useEffect(() => () => registry.clear(owner), [registry, owner])
}

/**
 * A book delta that did not fit the view held (store/monitor.ts, booksLost): the engine is asked to send every
 * book whole again, which asking for the window's depth anew does. One request at a time; a loss meanwhile asks
 * again once it is answered.
 */
function askForLostBooks(api: MonitorApi): () => void {
  let asking = false
  let again = false
  const ask = (): void => {
    asking = true
    again = false
    void api.setBookDepth(WINDOW_BOOK_DEPTH).finally(() => {
      asking = false
      if (again) ask()
    })
  }
  return useMonitor.subscribe((s, prev) => {
    if (s.booksLost === prev.booksLost) return
    if (asking) again = true
    else ask()
  })
}

/** Re-read the status now (after a key or profile change) instead of waiting for the next batch. */
export async function refreshStatus(api: MonitorApi): Promise<void> {
  const r = await api.getStatus()
  if (r.ok) useMonitor.getState().applyBatch({ seq: -1, at: Date.now(), status: r.value })
}

/**
 * A clock that ticks every `intervalMs`, for slow wall-clock reads (a key's expiry date). Ages and countdowns
 * use hooks/clock, which tick only when the shown text changes.
 */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(id)
  }, [intervalMs])
  return now
}
