// createMonitor(): the composition root of the engine. It builds each room's services, says who hears whom, and
// hands the shells a MonitorEngine. Behaviour lives in the rooms (docs/architecture.md); this file only wires.
import { DEMO_PROFILE_ID, type Profile, type WindowLayout } from '../../shared/model'
import { UserFeed } from './account/user-feed'
import { AccountReader } from './account/rest-reader'
import { AlertRelay } from './alerts/relay'
import { AlertService } from './alerts/service'
import type { InstallUpdateHandler, MonitorEngine } from './base/types'
import { ClientHub } from './clients'
import { KeyManager } from './credentials/keys'
import { createKeyringStore, createMemoryStore, type CredentialStore } from './credentials/store'
import { Fanout } from './fanout/fanout'
import { AdapterFiles } from './feed/adapter-files'
import { ConnectionManager } from './feed/connection'
import { DemoHost } from './feed/demo-host'
import { DuplicateFrames } from './feed/duplicate-frames'
import { SecretRedactor } from './feed/redact'
import { createRegistry, type RegistryChange } from './feed/registry'
import { VenueCloses } from './feed/venue-close'
import { AUTO, VenueDecoder } from './feed/venue-decoder'
import { FrameRouter, type FrameRouterDeps } from './frames'
import { IncidentLog } from './health/incidents'
import { createInspector } from './health/inspector'
import { MarketLiveness, watchLiveness } from './health/liveness'
import { StatusTracker } from './health/status'
import { LIVENESS_DEFAULTS, RESYNC_DEFAULTS, type ResyncConfig } from './health/thresholds'
import { BookStore } from './market/books'
import { EventsCatalog } from './market/catalog'
import { DayOpens } from './market/day-open'
import { InterestIndex } from './market/interests'
import { MarketData } from './market/market-data'
import { RestBooks } from './market/rest-books'
import { ResyncTracker } from './market/resync'
import { TapeStore } from './market/tapes'
import { defaultLogger, folderBesideSettings, type CreateMonitorOptions } from './options'
import { RecordReplay, REPLAY_PROFILE_ID } from './recording/record-replay'
import { FeedRecorder } from './recording/recorder'
import { activeProfileOf, ProfileService } from './settings/profiles'
import { createSettingsStore } from './settings/store'
import { WorkspaceService } from './settings/workspaces'

export type { StreamTuning } from './feed/connection'
export type { CreateMonitorOptions } from './options'

/** A connection that delivered a frame this recently is healthy enough to blame one silent market on itself. */
const DATA_FLOWING_MS = 5_000
/** The alert rules watch their markets under this name in the subscription registry, like one more window. */
const ALERTS_CLIENT = 'alerts'
/** Replayed data is not the market: alert rules never see it (docs/recording.md). */
const REPLAY_ALERTS = { onBook() {}, onTicker() {}, onTrade() {}, onUser() {} }

export async function createMonitor(options: CreateMonitorOptions): Promise<MonitorEngine> {
  // Every key the engine handles is remembered here and scrubbed from frames and log lines (see redact.ts).
  const secrets = new SecretRedactor()
  const log = secrets.wrapLogger(options.logger ?? defaultLogger())
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const demoMode = options.demo === true || typeof options.demo === 'object'
  const liveConfig = { ...LIVENESS_DEFAULTS, ...options.liveness }
  const resyncConfig: ResyncConfig = { ...RESYNC_DEFAULTS, ...options.resync }
  let closed = false

  const settings = createSettingsStore({ path: options.settingsPath, logger: log })
  const loaded = await settings.load()
  if (loaded.warning) log.warn('monitor: settings', { warning: String(loaded.warning) })

  const credentials =
    options.credentials ?? (demoMode ? createMemoryStore() : createKeyringStore({ logger: log }))
  // The demo profile's key (the simulator's demo key, or whatever the user enters there) never touches the keychain.
  const demoCredentials = createMemoryStore()
  const storeFor = (profile: Profile): CredentialStore => (profile.demo ? demoCredentials : credentials)
  const demo = new DemoHost(
    {
      ...(options.simulatorWorkerEntry !== undefined ? { workerEntry: options.simulatorWorkerEntry } : {}),
      ...(typeof options.demo === 'object' ? options.demo : {}),
    },
    options.demo !== false,
    log,
  )

  // ---- health and the stores (callbacks that point forward run only after start-up)
  const statusChanged = (): void => {
    if (closed) return
    fanout.statusChanged()
    relay.shellMaybeChanged()
  }
  const incidents = new IncidentLog(now, statusChanged)
  const liveness = new MarketLiveness({ config: liveConfig })
  const books = new BookStore((market) => liveness.usualGap(market), new DayOpens())
  const tapes = new TapeStore()
  const userFeed = new UserFeed()
  const inspector = createInspector()
  const adapterFiles = new AdapterFiles(folderBesideSettings(options, options.adaptersDir, 'adapters'))
  const decoderFor = (selection: () => string): VenueDecoder =>
    new VenueDecoder({
      files: adapterFiles,
      log,
      selection,
      notice: (text) => status.notice(text),
      changed: statusChanged,
    })
  const venue = decoderFor(() => connection.profile.adapter ?? AUTO)
  // A replay reads its frames with the recorded profile's adapter, not the live one's.
  let replayAdapter: string | undefined
  const replayVenue = decoderFor(() => replayAdapter ?? AUTO)
  const recorder = new FeedRecorder({
    dir: folderBesideSettings(options, options.recordingsDir, 'recordings'),
    log,
    now,
    ...(options.recordingLimitBytes !== undefined ? { limitBytes: options.recordingLimitBytes } : {}),
    changed: statusChanged,
    notice: (text) => status.notice(text),
  })
  const status = new StatusTracker(
    {
      profileId: () => (recordReplay.replaying ? REPLAY_PROFILE_ID : connection.profile.id),
      recording: () => recordReplay.recordingStatus(),
      replay: () => recordReplay.replayStatus(),
      connectionState: () => connection.state(),
      stream: () => connection.streamState(),
      authError: () => registry.authError(),
      rateLimit: () => connection.rest?.rateLimit() ?? null,
      counters: () => inspector.counters(),
      unavailable: () => connection.unavailable,
      adapter: () => venue.view(),
    },
    incidents,
    statusChanged,
  )
  const fanout = new Fanout({
    ...(options.fanoutIntervalMs !== undefined ? { intervalMs: options.fanoutIntervalMs } : {}),
    logger: log,
    now,
    provider: {
      bookView: (market, depth) => books.bookView(market, depth),
      ticker: (market) => books.ticker(market),
      status: () => status.status(),
      alerts: () => alerts.view(),
      workspace: () => workspaces.view(),
      recentTrades: (market, limit) => tapes.history(market, limit),
    },
  })

  // ---- the feed: subscriptions, the listing, venue closes, books over REST
  const registry = createRegistry({
    logger: log,
    send: (message) => {
      const sent = connection.send(message)
      if (sent) closes.sent(message)
      return sent
    },
    isOpen: () => connection.isOpen(),
    getUserKey: () => keys.stored(connection.profile),
    onChange: onRegistryChange,
    onAuthChange: (error) => {
      if (error) incidents.record('auth', `${error.code}: ${error.message}`)
      statusChanged()
    },
  })
  const current = () => ({
    profile: connection.profile,
    rest: connection.rest,
    unavailable: connection.unavailable,
  })
  const catalog = new EventsCatalog({
    now,
    cacheMs: options.eventsCacheMs ?? 30_000,
    current,
    listingKey: (profile) => keys.forListing(profile),
    credentialsError: () => status.credentialsError,
    isStoredKey: (profile, key) => keys.isStored(profile, key),
    onLoaded: () => {
      status.listingLoaded()
      clients.refreshMarkets()
      fanout.eventsChanged()
      statusChanged()
    },
    onKeyRefused: (error) => registry.setAuthError(error),
    onFailed: (error) => {
      if (error.code === 'rate_limited') incidents.record('rate_limit', error.message)
      status.setError(error)
    },
  })
  const closes = new VenueCloses({
    setAuthError: (error) => registry.setAuthError(error),
    refuse: (channel, ids) => registry.refuse(channel, ids),
    incident: (kind, detail) => incidents.record(kind, detail),
    refused: (frame) => fanout.inspector(frame),
    recordRefused: (sent, at, detail) => inspector.recordRefused(sent, at, detail),
    scrub: (text) => (secrets.active && secrets.contains(text) ? secrets.redact(text) : text),
    now,
  })
  const interests = new InterestIndex(registry, catalog)
  const bookChanged = (market: string): void => {
    fanout.bookChanged(market)
    fanout.tickerChanged(market)
  }
  const resync = new ResyncTracker({
    config: resyncConfig,
    now,
    random,
    books,
    incidents,
    log,
    wantedBooks: () => interests.wantedBooks(),
    wantsBook: (market) => interests.wantsBook(market),
    resubscribe: (markets) => interests.resubscribe(markets),
    fetchSnapshots: (markets) => restBooks.request(markets),
    streamOpen: () => connection.isOpen(),
    dataFlowing: () => status.heardWithin(DATA_FLOWING_MS, now()),
    reconnect: () => connection.reconnectNow(),
    bookChanged,
  })
  /** Whether the active venue may be VoxFi: its adapter chosen or picked, or auto before anything was picked. */
  const maybeVoxfi = (): boolean => {
    const chosen = connection.profile.adapter ?? AUTO
    if (chosen !== AUTO && chosen !== 'voxfi') return false
    // Asked for every frame (the duplicate filter): no allocation here.
    const picked = venue.pickedName()
    return picked === null || picked === 'voxfi'
  }
  const accountRest = new AccountReader({
    rest: () => connection.rest,
    key: () => keys.stored(connection.profile).catch(() => null),
    wanted: () => registry.wantsUser() && registry.authError() === null && maybeVoxfi(),
    push: (updates, at) => router.applyAccount(updates, at),
    log,
    now,
  })
  const restBooks: RestBooks = new RestBooks({
    rest: () => connection.rest,
    key: () => keys.forListing(connection.profile),
    wanted: maybeVoxfi,
    wantsBook: (market) => interests.wantsBook(market),
    apply: (market, updates, requestedAt) => router.applyRest(market, updates, requestedAt),
    unverified: (market) => resync.need(market, 'silent'),
    log,
    now,
  })
  const data: MarketData = new MarketData({
    books,
    tapes,
    liveness,
    resync,
    interests,
    catalog,
    restBooks,
    changed: bookChanged,
  })
  const stopLiveness = watchLiveness(liveness, {
    checkMs: liveConfig.marketCheckMs,
    now,
    isOpen: () => connection.isOpen(),
    onSilence: (market, silence) => data.silent(market, silence),
  })

  // ---- alerts: the service judges, the relay carries its news to the windows, the shell and the settings file
  const alerts: AlertService = new AlertService(
    {
      now,
      log,
      books,
      eventOf: (market) => catalog.eventOf(market),
      isKnownMarket: (market) => data.isKnown(market),
      marketTitle: (market) => catalog.marketTitle(market),
      connectionState: () => connection.state(),
      authError: () => registry.authError(),
      keyExpiresAt: () => connection.profile.keyExpiresAt,
      wantedBooks: () => interests.wantedBooks(),
      setInterests: (list) => registry.setInterests(ALERTS_CLIENT, list),
    },
    { rules: settings.get().alertRules, keepRunning: settings.get().keepRunning },
  )
  const relay = new AlertRelay({
    log,
    now,
    alerts,
    connection: () => connection.state(),
    save: async ({ rules, keepRunning }) => {
      const r = await settings.update((s) => ({ ...s, alertRules: rules, keepRunning }))
      if (!r.ok) log.warn('monitor: could not save alert rules', { code: r.error.code })
    },
  })
  relay.onDidChangeView(() => fanout.alertsChanged())
  relay.onDidFire((event) => fanout.alertFired(event))

  // ---- frames: live ones feed everything; replayed ones skip the alert rules and the recorder
  const duplicates = new DuplicateFrames()
  const routerDeps: Omit<FrameRouterDeps, 'decoder' | 'alerts' | 'tap'> = {
    duplicate: (text, at) => maybeVoxfi() && duplicates.repeat(text, at),
    secrets,
    inspector,
    interests,
    books,
    tapes,
    userFeed,
    registry,
    liveness,
    resync,
    status,
    incidents,
    fanout,
  }
  const router: FrameRouter = new FrameRouter({
    ...routerDeps,
    decoder: venue,
    alerts,
    tap: (text, receivedAt) => recorder.frame(text, receivedAt),
    userHeard: () => accountRest.executed(),
  })
  const replayRouter: FrameRouter = new FrameRouter({
    ...routerDeps,
    decoder: replayVenue,
    alerts: REPLAY_ALERTS,
  })

  // ---- the connection's life: what each room does when it resets, opens and drops
  const connection: ConnectionManager = new ConnectionManager(
    {
      log,
      now,
      status,
      incidents,
      demo,
      ...(options.stream !== undefined ? { stream: options.stream } : {}),
      ...(options.restTimeoutMs !== undefined ? { restTimeoutMs: options.restTimeoutMs } : {}),
      authError: () => registry.authError(),
      hooks: {
        reset: () => {
          duplicates.clear()
          restBooks.reset()
          accountRest.reset()
          registry.disconnected()
          data.clear()
          userFeed.clear()
          catalog.clear()
          alerts.reset()
          // The sticky auth error belongs to the previous profile's key.
          registry.keyChanged()
          // A profile selected during a replay ends it (its own suspend() is not an interruption).
          recordReplay.interrupted()
        },
        opened: () => {
          closes.opened()
          venue.connected()
          registry.connected()
          liveness.restartClocks(now())
          resync.connected()
          alerts.connected()
          accountRest.refresh()
        },
        dropped: (info) => {
          registry.disconnected()
          if (info.cause === 'closed') return
          closes.closed(info)
          if (info.cause === 'oversized') {
            fanout.inspector(inspector.recordOversized(now(), info.error ?? 'frame too large'))
            incidents.badFrame(info.error ?? 'oversized frame')
          }
          if (info.wasOpen) data.linkLost()
        },
        frame: router.onFrame,
        expectsData: () => registry.hasAny(),
        afterConnect: async () => {
          await keys.refreshHasKey({ probe: true })
          fanout.eventsChanged()
        },
      },
    },
    activeProfileOf(settings),
  )

  // ---- keys, profiles, recording and replay, workspaces, and the windows' API
  const keys = new KeyManager({
    log,
    secrets,
    status,
    demo,
    storeFor,
    current,
    updateProfile: (id, patch) => profiles.update(id, patch),
    keyChanged: () => {
      restBooks.reset()
      accountRest.reset()
      accountRest.refresh()
      catalog.invalidate()
      registry.keyChanged()
      status.setError(null)
    },
  })
  const profiles = new ProfileService(settings, connection, credentials, log)
  const recordReplay: RecordReplay = new RecordReplay({
    dir: recorder.dir,
    log,
    now,
    recorder,
    liveProfile: () => {
      const p = connection.profile
      return { id: p.id, name: p.name, ...(p.adapter !== undefined ? { adapter: p.adapter } : {}) }
    },
    listing: async () => {
      const r = await catalog.list(false)
      return r.ok ? r.value : null
    },
    refreshSnapshots: () => {
      for (const id of registry.desired('market').keys()) registry.resubscribe('market', id)
      for (const id of registry.desired('event').keys()) registry.resubscribe('event', id)
    },
    suspendLive: () => connection.suspend(),
    resumeLive: () => connection.connect(activeProfileOf(settings)),
    useListing: (events) => catalog.useFixed(events),
    useAdapter: (adapter) => {
      replayAdapter = adapter
      replayVenue.connected()
    },
    feed: replayRouter.onFrame,
    resetData: () => {
      data.clear()
      userFeed.clear()
    },
    changed: statusChanged,
  })
  const workspaces = new WorkspaceService({ settings, now, changed: () => fanout.workspaceChanged() })
  // The shell's updater (src/main/updater.ts) installs; the engine only relays a window's request to it.
  let installUpdate: InstallUpdateHandler | null = null
  const clients = new ClientHub({
    log,
    fanout,
    registry,
    interests,
    catalog,
    books,
    tapes,
    userFeed,
    inspector,
    status,
    keys,
    profiles,
    connection,
    resync,
    alerts,
    workspaces,
    updateInstaller: () => installUpdate,
    recordReplay,
    adapters: () => venue.choices(),
    isClosed: () => closed,
  })

  function onRegistryChange(change: RegistryChange): void {
    if (change.user) accountRest.refresh()
    if (data.subscriptionsChanged(change).needListing) {
      void catalog.list(false).then(() => clients.refreshMarkets())
    }
  }

  async function shutDown(): Promise<void> {
    closed = true
    // No frame may fire a rule (and ask for a save) after the relay's last write: the stream goes first.
    connection.close()
    await recordReplay.close()
    alerts.close()
    accountRest.close()
    await relay.close()
    stopLiveness()
    resync.close()
    status.close()
    registry.close()
    clients.closeAll()
    fanout.close()
    await demo.close()
  }

  // ---- start
  if (loaded.warning) status.notice(loaded.warning)
  if (demoMode && !connection.profile.demo) {
    const r = await settings.update((s) => ({ ...s, activeProfileId: DEMO_PROFILE_ID }))
    if (!r.ok) log.warn('monitor: could not select the demo profile', { code: r.error.code })
  }
  if (demoMode && !(await demo.ensure())) {
    await shutDown()
    throw new Error('the embedded simulator failed to start')
  }
  await connection.connect(activeProfileOf(settings))
  alerts.start()

  return {
    attachClient: (attach) => clients.attach(attach),
    reconnectNow: () => connection.reconnectNow(),
    getWindowLayouts: () => settings.get().windows.map((w) => ({ ...w })),
    injectDemoFault: (kind) => demo.fault(kind),
    watchShell: (listener) => relay.watch(listener),
    shellState: () => relay.shellState(),
    pauseAlerts: (paused) => alerts.pause(paused),
    setUpdateStatus: (update) => status.setUpdate(update),
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
      await shutDown()
      log.info('monitor: closed')
    },
  }
}
