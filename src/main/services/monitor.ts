// createMonitor(): the composition root of the engine. It builds each room through its wiring (wiring/<room>.ts,
// in the order their constructors need each other), starts the connection, and hands the shells a
// MonitorEngine. Behaviour lives in the rooms (docs/architecture.md); this file and wiring/ only wire.
import { DEMO_PROFILE_ID, type Profile, type WindowLayout } from '../../shared/model'
import type { InstallUpdateHandler, MonitorEngine } from './base/types'
import { ClientHub } from './clients'
import { createKeyringStore, createMemoryStore, type CredentialStore } from './credentials/store'
import { DemoHost } from './feed/demo-host'
import { SecretRedactor } from './feed/redact'
import { defaultLogger, type CreateMonitorOptions } from './options'
import { alertHistoryPath, createAlertHistoryFile } from './settings/alert-history-file'
import { activeProfileOf } from './settings/profiles'
import { createSettingsStore } from './settings/store'
import { wireAccount } from './wiring/account'
import { wireAlerts } from './wiring/alerts'
import type { Engine, Wiring } from './wiring/engine'
import { wireFeed } from './wiring/feed'
import { wireFrames } from './wiring/frames'
import { wireHealth } from './wiring/health'
import { shutDown } from './wiring/lifecycle'
import { wireMarket } from './wiring/market'
import { wireOrders } from './wiring/orders'
import { wireRecording } from './wiring/recording'
import { wireSettings } from './wiring/settings'

export type { StreamTuning } from './feed/connection'

/** Every part of Engine is built by exactly one wiring below (a part left out fails typecheck here). */
type Wired = ReturnType<typeof wireHealth> &
  ReturnType<typeof wireFeed> &
  ReturnType<typeof wireMarket> &
  ReturnType<typeof wireAccount> &
  ReturnType<typeof wireOrders> &
  ReturnType<typeof wireAlerts> &
  ReturnType<typeof wireFrames> &
  ReturnType<typeof wireRecording> &
  ReturnType<typeof wireSettings> &
  Pick<Engine, 'clients'>
const _everyPartWired: [keyof Engine] extends [keyof Wired] ? true : never = true
export type { CreateMonitorOptions } from './options'

export async function createMonitor(options: CreateMonitorOptions): Promise<MonitorEngine> {
  // Every key the engine handles is remembered here and scrubbed from frames and log lines (see redact.ts).
  const secrets = new SecretRedactor()
  const log = secrets.wrapLogger(options.logger ?? defaultLogger())
  const demoMode = options.demo === true || typeof options.demo === 'object'
  let closed = false

  const settings = createSettingsStore({ path: options.settingsPath, logger: log })
  const loaded = await settings.load()
  if (loaded.warning) log.warn('monitor: settings', { warning: String(loaded.warning) })
  const historyFile = createAlertHistoryFile(alertHistoryPath(options.settingsPath), log)
  const history = await historyFile.load()

  const credentials =
    options.credentials ?? (demoMode ? createMemoryStore() : createKeyringStore({ logger: log }))
  // The demo profile's key (the simulator's demo key, or whatever the user enters there) never touches the keychain.
  const demoCredentials = createMemoryStore()
  const demo = new DemoHost(
    {
      ...(options.simulatorWorkerEntry !== undefined ? { workerEntry: options.simulatorWorkerEntry } : {}),
      ...(typeof options.demo === 'object' ? options.demo : {}),
    },
    options.demo !== false,
    log,
  )

  // Filled room by room below; a callback reads it only when it runs, after every part exists.
  const p = {} as Engine
  const w: Wiring = {
    options,
    log,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    secrets,
    settings,
    alertHistory: { file: historyFile, entries: history.entries },
    credentials,
    storeFor: (profile: Profile): CredentialStore => (profile.demo ? demoCredentials : credentials),
    demo,
    isClosed: () => closed,
    parts: p,
    statusChanged: () => {
      if (closed) return
      p.fanout.statusChanged()
      p.relay.shellMaybeChanged()
    },
    bookChanged: (market) => {
      p.fanout.bookChanged(market)
      p.fanout.tickerChanged(market)
    },
    maybeVoxfi: () => p.venue.mayRead('voxfi'),
    replayAdapter: { name: undefined },
  }
  // Each room needs only the rooms before it at construction.
  Object.assign(p, wireHealth(w))
  Object.assign(p, wireFeed(w))
  Object.assign(p, wireMarket(w))
  Object.assign(p, wireAccount(w))
  Object.assign(p, wireOrders(w))
  Object.assign(p, wireAlerts(w))
  Object.assign(p, wireFrames(w))
  Object.assign(p, wireRecording(w))
  Object.assign(p, wireSettings(w))
  // The shell's updater (src/main/updater.ts) installs; the engine only relays a window's request to it.
  let installUpdate: InstallUpdateHandler | null = null
  p.clients = new ClientHub({
    ...p,
    trading: p.orders,
    log,
    updateInstaller: () => installUpdate,
    adapters: () => p.venue.choices(),
    isClosed: () => closed,
  })
  const close = async (): Promise<void> => {
    closed = true
    await shutDown(w)
  }

  // ---- start
  if (loaded.warning) p.status.notice(loaded.warning)
  if (history.warning) p.status.notice(history.warning)
  if (demoMode && !p.connection.profile.demo) {
    const r = await settings.update((s) => ({ ...s, activeProfileId: DEMO_PROFILE_ID }))
    if (!r.ok) log.warn('monitor: could not select the demo profile', { code: r.error.code })
  }
  if (demoMode && !(await demo.ensure())) {
    await close()
    throw new Error('the embedded simulator failed to start')
  }
  await p.connection.connect(activeProfileOf(settings))
  p.alerts.start()

  return {
    attachClient: (attach) => p.clients.attach(attach),
    reconnectNow: () => p.connection.reconnectNow(),
    getWindowLayouts: () => settings.get().windows.map((layout) => ({ ...layout })),
    injectDemoFault: (kind) => demo.fault(kind),
    watchShell: (listener) => p.relay.watch(listener),
    shellState: () => p.relay.shellState(),
    pauseAlerts: (paused) => p.alerts.pause(paused),
    setUpdateStatus: (update) => p.status.setUpdate(update),
    onInstallUpdate: (handler) => {
      installUpdate = handler
      return () => {
        if (installUpdate === handler) installUpdate = null
      }
    },
    async saveWindowLayouts(layouts: WindowLayout[]) {
      const r = await settings.update((s) => ({ ...s, windows: layouts }))
      if (!r.ok) log.warn('monitor: could not save window layouts', { code: r.error.code })
    },
    async close() {
      if (closed) return
      await close()
      log.info('monitor: closed')
    },
  }
}
