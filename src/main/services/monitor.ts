// createMonitor(): composes the engine (settings, credentials, REST, the one stream, the registry, books, tapes,
// user feed, inspector, fan-out) behind MonitorClient. Every window is a client; every call is validated here
// too (defence in depth). The API key lives only in the credential store and, for the length of one call, in
// a local variable: it never reaches a batch, a log line, an error message or the settings file.
//
// Connection state shown to windows (StreamStatus.state) combines the socket with the sticky auth error:
//   socket open, no auth error      -> 'live'
//   socket open, auth error set     -> 'auth-error'   (market data keeps flowing; each BookView has its own state)
//   never opened for this profile   -> 'connecting'   ('offline' after 3 failed attempts, or with no URL)
//   opened before, now down         -> 'reconnecting'
//   engine closed / no endpoint     -> 'offline'
// Socket trouble wins over the auth error: while reconnecting the status says so; the auth error reappears once
// the socket is back (authError stays set throughout, so the UI can show both).
import { randomUUID } from 'node:crypto'
import {
  fail,
  ok,
  type Interest,
  type KeyInfo,
  type MethodArgs,
  type MethodResult,
  type MonitorMethod,
} from '../../shared/ipc'
import { validateArgs } from '../../shared/ipc-validate'
import { decodeFrame } from '../../shared/decode'
import { filterAllows } from '../../shared/protocol'
import {
  DEMO_PROFILE_ID,
  type ApiError,
  type ConnectionState,
  type EventSummary,
  type Incident,
  type IncidentKind,
  type Profile,
  type Result,
  type StreamStatus,
  type Update,
  type WindowLayout,
} from '../../shared/model'
import { BookStore } from './books'
import { createKeyringStore, createMemoryStore, type CredentialStore } from './credentials'
import { startDemoSimulator, type DemoOptions, type DemoSimulator } from './demo'
import { Fanout } from './fanout'
import { createInspector } from './inspector'
import { createRegistry, type RegistryChange } from './registry'
import { createRestClient } from './rest'
import { createSettingsStore, validateEndpoints } from './settings'
import {
  createStreamConnection,
  type StreamCloseInfo,
  type StreamConnection,
  type StreamOptions,
} from './stream'
import { SecretRedactor } from './redact'
import { TapeStore } from './tapes'
import type { AttachOptions, LogFields, Logger, MonitorClient, MonitorEngine } from './types'
import { UserFeed } from './user-feed'

export type StreamTuning = Partial<
  Pick<
    StreamOptions,
    | 'backoff'
    | 'pingIntervalMs'
    | 'pongTimeoutMs'
    | 'silenceMs'
    | 'maxFrameBytes'
    | 'connectTimeoutMs'
    | 'random'
  >
>

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
  stream?: StreamTuning
  now?: () => number
  /** How long an events listing is reused (default 30 s). */
  eventsCacheMs?: number
  restTimeoutMs?: number
  /** A book still waiting for its resync snapshot after this long (data flowing) is resubscribed again. */
  resyncRetryMs?: number
}

const INCIDENT_CAP = 100
const HISTORY_TRADES = 500
const DEFAULT_DEPTH = 25
const STATUS_TICK_MS = 1000

/** Narrows an update to one placed in a market without copying it: route() runs for every update. */
function hasMarket<U extends { market: string | null }>(update: U): update is U & { market: string } {
  return update.market !== null
}

function defaultLogger(): Logger {
  const write = (level: string) => (message: string, fields?: LogFields) => {
    process.stderr.write(`[monitor] ${level} ${message}${fields ? ' ' + JSON.stringify(fields) : ''}\n`)
  }
  return { info: write('info'), warn: write('warn'), error: write('error') }
}

function internal(message = 'Internal error in the monitor engine; see the log for details.'): ApiError {
  return { code: 'internal', message }
}

function invalid(message: string): ApiError {
  return { code: 'invalid_argument', message }
}

/** Replace every occurrence of the secret in a text (defensive: messages should never contain it anyway). */
function scrub(text: string, secret: string | null): string {
  if (!secret || secret.length < 4) return text
  return text.split(secret).join('[redacted]')
}

function scrubError(error: ApiError, secret: string | null): ApiError {
  return { ...error, message: scrub(error.message, secret) }
}

interface Connection {
  profile: Profile
  stream: StreamConnection | null
  rest: ReturnType<typeof createRestClient> | null
  everOpened: boolean
  /** Why there is no stream (no endpoint): shown as lastError. */
  unavailable: ApiError | null
}

interface ClientState {
  id: string
  label: string
  interests: Interest[]
  depth: number
  inspector: boolean
  disposed: boolean
}

export async function createMonitor(options: CreateMonitorOptions): Promise<MonitorEngine> {
  // Every key the engine handles is remembered here and scrubbed from frames and log lines (see redact.ts).
  const secrets = new SecretRedactor()
  const log = secrets.wrapLogger(options.logger ?? defaultLogger())
  const now = options.now ?? Date.now
  const demoMode = options.demo === true || typeof options.demo === 'object'
  const demoOptions: DemoOptions = {
    ...(options.simulatorWorkerEntry !== undefined ? { workerEntry: options.simulatorWorkerEntry } : {}),
    ...(typeof options.demo === 'object' ? options.demo : {}),
  }
  const eventsCacheMs = options.eventsCacheMs ?? 30_000
  const resyncRetryMs = options.resyncRetryMs ?? 5_000

  const settings = createSettingsStore({ path: options.settingsPath, logger: log })
  const loaded = await settings.load()
  if (loaded.warning) log.warn('monitor: settings', { warning: String(loaded.warning) })

  const credentials =
    options.credentials ?? (demoMode ? createMemoryStore() : createKeyringStore({ logger: log }))
  // The demo profile's key (the simulator's demo key, or whatever the user enters there) never touches the keychain.
  const demoCredentials = createMemoryStore()
  const storeFor = (profile: Profile): CredentialStore => (profile.demo ? demoCredentials : credentials)

  let demo: DemoSimulator | null = null
  let demoStarting: Promise<DemoSimulator | null> | null = null
  let closed = false

  const books = new BookStore()
  const tapes = new TapeStore()
  const userFeed = new UserFeed()
  const inspector = createInspector()
  const clients = new Map<string, ClientState>()
  let nextClient = 0

  // ---- status
  const incidents: Incident[] = []
  let nextIncident = 1
  let reconnects = 0
  let lastMessageAt: number | null = null
  let lastStatusMessageAt: number | null = null
  let lastError: ApiError | null = null
  let hasKey = false
  let credentialsError: ApiError | null = null
  let openDisconnect: Incident | null = null
  const openResyncs = new Map<string, Incident>()
  const resyncSentAt = new Map<string, number>()

  // ---- events listing: event -> markets, for routing event-channel data and for windows' market sets
  const eventMarkets = new Map<string, string[]>()
  const marketEvent = new Map<string, string>()
  let eventsCache: { profileId: string; at: number; value: EventSummary[] } | null = null
  let eventsInFlight: { profileId: string; promise: Promise<Result<EventSummary[]>> } | null = null

  let conn: Connection = {
    profile: activeProfile(),
    stream: null,
    rest: null,
    everOpened: false,
    unavailable: null,
  }

  function activeProfile(): Profile {
    const s = settings.get()
    const found = s.profiles.find((p) => p.id === s.activeProfileId) ?? s.profiles.find((p) => p.demo)
    if (!found) throw new Error('settings have no usable profile')
    return found
  }

  /** The profile as windows see it: the demo profile carries the embedded simulator's URLs when running. */
  function withRuntimeUrls(p: Profile): Profile {
    if (!p.demo || !demo) return { ...p }
    return { ...p, baseUrl: demo.baseUrl, wsUrl: demo.wsUrl }
  }

  function addIncident(kind: IncidentKind, detail: string, market?: string, open = false): Incident {
    const incident: Incident = {
      id: nextIncident++,
      kind,
      startedAt: now(),
      endedAt: open ? null : now(),
      detail,
    }
    if (market !== undefined) incident.market = market
    incidents.unshift(incident)
    if (incidents.length > INCIDENT_CAP) incidents.length = INCIDENT_CAP
    statusChanged()
    return incident
  }

  function endIncident(incident: Incident | null): void {
    if (incident && incident.endedAt === null) {
      incident.endedAt = now()
      statusChanged()
    }
  }

  function connectionState(): ConnectionState {
    if (closed || !conn.stream) return 'offline'
    const s = conn.stream.state()
    if (s.phase === 'open') return registry.authError() ? 'auth-error' : 'live'
    if (s.phase === 'closed') return 'offline'
    if (conn.everOpened) return 'reconnecting'
    return s.attempt >= 3 ? 'offline' : 'connecting'
  }

  function status(): StreamStatus {
    const s = conn.stream?.state()
    return {
      profileId: conn.profile.id,
      state: connectionState(),
      reconnects,
      connectedSince: s?.connectedSince ?? null,
      lastMessageAt,
      nextRetryAt: s?.nextRetryAt ?? null,
      authError: registry.authError(),
      credentialsError,
      lastError: lastError ?? conn.unavailable,
      rateLimit: conn.rest?.rateLimit() ?? null,
      counters: inspector.counters(),
      incidents: incidents.map((i) => ({ ...i })),
      hasKey,
    }
  }

  const fanout = new Fanout({
    ...(options.fanoutIntervalMs !== undefined ? { intervalMs: options.fanoutIntervalMs } : {}),
    logger: log,
    now,
    provider: {
      bookView: (market, depth) => books.bookView(market, depth),
      ticker: (market) => books.ticker(market),
      status,
    },
  })

  function statusChanged(): void {
    if (!closed) fanout.statusChanged()
  }

  // Counters and lastMessageAt change with every frame; windows get them once a second, not per frame.
  const statusTimer = setInterval(() => {
    if (lastMessageAt !== lastStatusMessageAt) {
      lastStatusMessageAt = lastMessageAt
      statusChanged()
    }
  }, STATUS_TICK_MS)
  statusTimer.unref()

  // ---- credentials

  async function storedKey(profile: Profile): Promise<string | null> {
    const r = await storeFor(profile).get(profile.id)
    // "Not found" proves nothing (a locked keyring says it too); a failure or a key found does.
    if (!r.ok || r.value !== null) noteKeychain(r)
    if (!r.ok) {
      lastError = r.error
      statusChanged()
      throw new Error(`credential store: ${r.error.code}`)
    }
    secrets.add(r.value)
    return r.value
  }

  /** Keeps credentialsError current: set by a keychain failure, cleared by any keychain success. */
  function noteKeychain(r: Result<unknown>): void {
    const next = r.ok ? null : r.error.code.startsWith('keyring_') ? r.error : credentialsError
    if (next !== credentialsError) {
      credentialsError = next
      statusChanged()
    }
  }

  async function refreshHasKey(options: { probe?: boolean } = {}): Promise<void> {
    const profile = conn.profile
    const store = storeFor(profile)
    const r = await store.get(profile.id)
    if (profile !== conn.profile) return
    const next = r.ok && r.value !== null
    if (!r.ok) lastError = r.error
    // A locked keyring answers "no such key" for a lookup; only a write tells locked from absent, so when a
    // profile is opened and no key is found, the keychain is probed and a locked or missing one is shown as such.
    if (options.probe && r.ok && r.value === null && store.kind === 'keyring') {
      const probe = await store.probe()
      if (profile === conn.profile) noteKeychain(probe)
    } else if (!r.ok || r.value !== null) noteKeychain(r)
    if (next !== hasKey) {
      hasKey = next
      statusChanged()
    }
  }

  // ---- registry

  const registry = createRegistry({
    logger: log,
    send: (message) => conn.stream?.send(message) ?? false,
    isOpen: () => conn.stream?.isOpen() ?? false,
    getUserKey: () => storedKey(conn.profile),
    onChange: onRegistryChange,
    onAuthChange: (error) => {
      if (error) addIncident('auth', `${error.code}: ${error.message}`)
      statusChanged()
    },
  })

  function marketRouted(market: string): boolean {
    if (registry.desired('market').has(market)) return true
    const events = registry.desired('event')
    if (events.size === 0) return false
    const ev = marketEvent.get(market)
    // A market we cannot place (listing not loaded, or newer than it) is accepted while any event is watched.
    return ev === undefined ? true : events.has(ev)
  }

  /** Whether book data is still expected for a market under the current filters. */
  function wantsBook(market: string): boolean {
    const direct = registry.desired('market').get(market)
    if (direct !== undefined && filterAllows(direct, 'orderbook')) return true
    const ev = marketEvent.get(market)
    const viaEvent = ev !== undefined ? registry.desired('event').get(ev) : undefined
    return viaEvent !== undefined && filterAllows(viaEvent, 'orderbook')
  }

  function onRegistryChange(change: RegistryChange): void {
    // Drop what nobody watches any more, so a later subscription starts clean (no ghost levels, no stale tape).
    const affected = new Set<string>([...change.market.removed, ...change.market.changed])
    for (const ev of [...change.event.removed, ...change.event.changed]) {
      for (const m of eventMarkets.get(ev) ?? []) affected.add(m)
    }
    for (const market of affected) {
      if (!marketRouted(market)) {
        books.delete(market)
        tapes.delete(market)
        endIncident(openResyncs.get(market) ?? null)
        openResyncs.delete(market)
        resyncSentAt.delete(market)
      } else if (!wantsBook(market) && books.has(market)) {
        books.delete(market)
      }
    }
    if (change.event.added.length > 0 && change.event.added.some((ev) => !eventMarkets.has(ev))) {
      // Windows watching an event need its markets; load the listing in the background.
      void listEvents(false).then(() => updateAllClientMarkets())
    }
  }

  // ---- windows' market sets (direct markets plus the markets of watched events)

  function clientMarkets(state: ClientState): Set<string> {
    const markets = new Set<string>()
    for (const i of state.interests) {
      if (i.channel === 'market') markets.add(i.id)
      else if (i.channel === 'event') for (const m of eventMarkets.get(i.id) ?? []) markets.add(m)
    }
    return markets
  }

  function updateAllClientMarkets(): void {
    for (const state of clients.values())
      if (!state.disposed) fanout.setClientMarkets(state.id, clientMarkets(state))
  }

  // ---- frames

  function onFrame(raw: string, receivedAt: number): void {
    lastMessageAt = receivedAt
    const text = secrets.active && secrets.contains(raw) ? secrets.redact(raw) : raw
    const decoded = decodeFrame(text)
    if (!decoded.ok) {
      const frame = inspector.record(text, receivedAt, 'malformed', [], decoded.error)
      if (frame) fanout.inspector(frame)
      badFrame(`malformed frame: ${decoded.error.slice(0, 120)}`)
      return
    }
    let unknown = decoded.unknown
    for (const update of decoded.updates) {
      if (!route(update, receivedAt)) unknown = true
    }
    const frame = inspector.record(text, receivedAt, unknown ? 'unknown' : 'ok', decoded.updates)
    if (frame) fanout.inspector(frame)
  }

  /** Applies one update; false when it could not be placed (counted as unknown, kept in the inspector). */
  function route(update: Update, receivedAt: number): boolean {
    switch (update.kind) {
      case 'book': {
        if (!hasMarket(update)) return false
        const market = update.market
        if (!marketRouted(market)) return false
        const outcome = books.apply(update, receivedAt)
        if (outcome === 'gap' || outcome === 'crossed') resync(market, outcome)
        else if (outcome === 'ignored') retryResync(market, receivedAt)
        else if (outcome === 'snapshot') {
          const incident = openResyncs.get(market)
          if (incident) {
            openResyncs.delete(market)
            resyncSentAt.delete(market)
            endIncident(incident)
          }
        }
        fanout.bookChanged(market)
        return true
      }
      case 'trade': {
        if (!hasMarket(update) || !marketRouted(update.market)) return false
        const view = tapes.push(update, receivedAt)
        if (view) {
          books.setLast(view.market, view.price, receivedAt)
          fanout.trade(view)
        }
        return true
      }
      case 'ticker': {
        if (!hasMarket(update) || !marketRouted(update.market)) return false
        books.applyTicker(update, receivedAt)
        fanout.tickerChanged(update.market)
        return true
      }
      case 'user': {
        fanout.user(userFeed.push(update, receivedAt))
        return true
      }
      case 'control': {
        if (update.topic === 'error') {
          const data = update.data as Record<string, unknown> | null
          const message =
            data && typeof data === 'object' && typeof data.message === 'string' ? data.message : null
          if (!registry.handleServerError(update.error, message)) {
            lastError = {
              code: 'bad_response',
              message: `The server rejected a request: ${update.error ?? 'error'}`,
            }
            statusChanged()
          }
        } else if (update.topic === 'subscribed' || update.topic === 'unsubscribed') {
          registry.handleAck(update.topic, update.data)
        }
        return true
      }
      case 'unknown':
        return false
    }
  }

  function badFrame(detail: string): void {
    // One incident per burst of bad frames, so a flood cannot push every other incident out of the list.
    const latest = incidents[0]
    if (latest && latest.kind === 'bad_frame' && now() - latest.startedAt < 10_000) {
      const m = /\((\d+) frames\)$/.exec(latest.detail)
      const count = (m ? Number(m[1]) : 1) + 1
      latest.detail = `${detail} (${count} frames)`
      latest.endedAt = now()
      statusChanged()
      return
    }
    addIncident('bad_frame', detail)
  }

  // Deltas keep coming but the resync snapshot never did (lost, or the venue ignored the re-subscribe): ask again.
  function retryResync(market: string, at: number): void {
    const incident = openResyncs.get(market)
    if (!incident || books.get(market)?.state !== 'resyncing') return
    const last = resyncSentAt.get(market) ?? incident.startedAt
    if (at - last < resyncRetryMs) return
    log.info('monitor: resync snapshot overdue, resubscribing again', { market })
    resyncSentAt.set(market, at)
    resubscribeMarket(market)
  }

  function resubscribeMarket(market: string): void {
    if (registry.desired('market').has(market)) registry.resubscribe('market', market)
    else {
      const ev = marketEvent.get(market)
      if (ev !== undefined && registry.desired('event').has(ev)) registry.resubscribe('event', ev)
      else for (const e of registry.desired('event').keys()) registry.resubscribe('event', e)
    }
  }

  function resync(market: string, reason: string): void {
    books.markStale(market, reason)
    if (!openResyncs.has(market))
      openResyncs.set(market, addIncident('resync', `book ${reason}; resubscribing`, market, true))
    books.markResyncing(market)
    log.info('monitor: resync', { market, reason })
    resyncSentAt.set(market, now())
    resubscribeMarket(market)
    fanout.bookChanged(market)
  }

  // ---- stream lifecycle

  function onOpen(connection: Connection): void {
    if (connection !== conn) return
    if (connection.everOpened) reconnects += 1
    connection.everOpened = true
    lastError = null
    endIncident(openDisconnect)
    openDisconnect = null
    registry.connected()
    statusChanged()
  }

  function onClose(connection: Connection, info: StreamCloseInfo): void {
    if (connection !== conn) return
    registry.disconnected()
    if (info.cause === 'closed') return
    if (info.cause === 'oversized') {
      const frame = inspector.recordOversized(now(), info.error ?? 'frame too large')
      fanout.inspector(frame)
      badFrame(info.error ?? 'oversized frame')
    }
    if (info.wasOpen) {
      for (const market of books.markAllStale('reconnect')) fanout.bookChanged(market)
      for (const [market, incident] of openResyncs) {
        endIncident(incident)
        openResyncs.delete(market)
        resyncSentAt.delete(market)
      }
      tapes.markGap()
      const kind: IncidentKind =
        info.cause === 'silence' || info.cause === 'ping-timeout' ? 'stall' : 'disconnect'
      if (!openDisconnect) openDisconnect = addIncident(kind, describeClose(info), undefined, true)
    }
    if (info.cause !== 'reconnect') {
      lastError = { code: 'network', message: describeClose(info) }
    }
    statusChanged()
  }

  function describeClose(info: StreamCloseInfo): string {
    switch (info.cause) {
      case 'silence':
        return `No data from the exchange (${info.error ?? 'silence'}); reconnecting.`
      case 'ping-timeout':
        return `The exchange stopped answering pings (${info.error ?? ''}); reconnecting.`
      case 'oversized':
        return `The exchange sent a frame larger than the limit; reconnecting.`
      case 'reconnect':
        return 'Reconnect requested.'
      case 'error':
        return `Cannot reach the exchange stream: ${info.error ?? 'connection failed'}.`
      default:
        return `The stream connection closed (code ${info.code}${info.reason ? `: ${info.reason}` : ''}).`
    }
  }

  async function ensureDemo(): Promise<DemoSimulator | null> {
    if (demo) return demo
    if (options.demo === false) return null
    demoStarting ??= startDemoSimulator(demoOptions).then(
      (sim) => {
        if (closed) {
          void sim.close()
          return null
        }
        demo = sim
        log.info('monitor: embedded simulator started')
        return sim
      },
      (err: unknown) => {
        demoStarting = null
        log.error('monitor: embedded simulator failed to start', { error: String(err) })
        return null
      },
    )
    return demoStarting
  }

  /** Close the current connection and open one for `profile`; windows' interests are replayed on open. */
  async function connectProfile(profile: Profile): Promise<void> {
    const old = conn
    old.stream?.close()
    registry.disconnected()
    books.clear()
    tapes.clear()
    userFeed.clear()
    openResyncs.clear()
    resyncSentAt.clear()
    endIncident(openDisconnect)
    openDisconnect = null
    eventsCache = null
    eventsInFlight = null
    eventMarkets.clear()
    marketEvent.clear()
    lastError = null
    // The keychain's state is re-learnt for the new profile (its store may differ: demo keys live in memory).
    credentialsError = null
    const next: Connection = { profile, stream: null, rest: null, everOpened: false, unavailable: null }
    conn = next
    // The sticky auth error belongs to the previous profile's key.
    registry.keyChanged()
    let endpoints: { baseUrl: string; wsUrl: string } | null = null
    if (profile.demo) {
      const sim = await ensureDemo()
      if (sim) endpoints = { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl }
      else
        next.unavailable = {
          code: 'network',
          message: 'The embedded simulator is not running (demo mode is off).',
        }
    } else {
      const v = validateEndpoints(profile.baseUrl, profile.wsUrl)
      if (v.ok) endpoints = v.value
      else next.unavailable = v.error
    }
    if (conn !== next || closed) return
    if (endpoints) {
      next.rest = createRestClient({
        baseUrl: endpoints.baseUrl,
        logger: log,
        ...(options.restTimeoutMs !== undefined ? { timeoutMs: options.restTimeoutMs } : {}),
      })
      next.stream = createStreamConnection({
        ...options.stream,
        url: endpoints.wsUrl,
        logger: log,
        now,
        expectsData: () => registry.hasAny(),
        onFrame,
        onOpen: () => onOpen(next),
        onClose: (info) => onClose(next, info),
        onStateChange: () => {
          if (next === conn) statusChanged()
        },
      })
    }
    await refreshHasKey({ probe: true })
    for (const market of books.markets()) fanout.bookChanged(market)
    fanout.eventsChanged()
    statusChanged()
  }

  // ---- events listing

  async function listingKey(profile: Profile): Promise<string | null> {
    const stored = await storedKey(profile).catch(() => null)
    if (stored) return stored
    // The simulator wants a key even for the listing; the demo profile may use its demo key internally.
    if (profile.demo && demo) {
      secrets.add(demo.demoKey)
      return demo.demoKey
    }
    return null
  }

  async function listEvents(refresh: boolean): Promise<Result<EventSummary[]>> {
    const profile = conn.profile
    const rest = conn.rest
    if (!rest)
      return fail(conn.unavailable ?? { code: 'network', message: 'No connection profile is active.' })
    if (
      !refresh &&
      eventsCache &&
      eventsCache.profileId === profile.id &&
      now() - eventsCache.at < eventsCacheMs
    ) {
      return ok(eventsCache.value)
    }
    if (eventsInFlight && eventsInFlight.profileId === profile.id) return eventsInFlight.promise
    const promise = (async (): Promise<Result<EventSummary[]>> => {
      const key = await listingKey(profile)
      if (!key) {
        // A keychain that can't be read is the reason, not a missing key: say so.
        if (credentialsError) return fail(credentialsError)
        return fail({
          code: 'no_key',
          message: 'No API key is stored for this profile. Enter one in Settings → API key to list events.',
        })
      }
      const r = await rest.listEvents(key)
      if (conn.profile !== profile) return r.ok ? r : fail(scrubError(r.error, key))
      if (r.ok) {
        eventsCache = { profileId: profile.id, at: now(), value: r.value }
        eventMarkets.clear()
        marketEvent.clear()
        for (const ev of r.value) {
          eventMarkets.set(
            ev.id,
            ev.markets.map((m) => m.id),
          )
          for (const m of ev.markets) marketEvent.set(m.id, ev.id)
        }
        if (lastError && lastError.code !== 'network') lastError = null
        updateAllClientMarkets()
        fanout.eventsChanged()
        statusChanged()
        return r
      }
      const error = scrubError(r.error, key)
      if (error.code === 'unauthorized' || error.code === 'ip_not_allowed') {
        // A stored key the exchange refuses is a sticky state until the key changes (no retry loop).
        if (await isStoredKey(profile, key)) registry.setAuthError(error)
      } else if (error.code === 'rate_limited') {
        addIncident('rate_limit', error.message)
      }
      lastError = error
      statusChanged()
      return fail(error)
    })()
    eventsInFlight = { profileId: profile.id, promise }
    try {
      return await promise
    } finally {
      if (eventsInFlight?.promise === promise) eventsInFlight = null
    }
  }

  async function isStoredKey(profile: Profile, key: string): Promise<boolean> {
    const r = await storeFor(profile).get(profile.id)
    return r.ok && r.value === key
  }

  // ---- key management (serialised: one change at a time)

  let keyQueue: Promise<unknown> = Promise.resolve()
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = keyQueue.then(task, task)
    keyQueue = run.catch(() => undefined)
    return run
  }

  function keyInfo(profile: Profile): KeyInfo {
    return { profileId: profile.id, hasKey, label: profile.keyLabel, expiresAt: profile.keyExpiresAt }
  }

  async function updateProfile(id: string, patch: Partial<Profile>): Promise<Result<Profile>> {
    const r = await settings.update((s) => ({
      ...s,
      profiles: s.profiles.map((p) => (p.id === id ? { ...p, ...patch } : p)),
    }))
    if (!r.ok) return r
    const updated = r.value.profiles.find((p) => p.id === id)
    if (!updated) return fail(internal('The profile disappeared while it was being updated.'))
    if (conn.profile.id === id) conn.profile = updated
    return ok(updated)
  }

  function afterKeyChange(): void {
    eventsCache = null
    eventsInFlight = null
    lastError = null
    registry.keyChanged()
    statusChanged()
  }

  async function setApiKey(request: {
    key: string
    label?: string | null
    expiresAt?: string | null
  }): Promise<Result<KeyInfo>> {
    const key = request.key.trim()
    // Even a key the exchange refuses may be echoed back by it; remember it before it is sent anywhere.
    secrets.add(key)
    return serial(async () => {
      const profile = conn.profile
      if (request.label && request.label.includes(key))
        return fail(invalid('The label contains the key itself. Use a name that describes the key instead.'))
      const rest = conn.rest
      if (!rest)
        return fail(conn.unavailable ?? { code: 'network', message: 'No connection profile is active.' })
      // Verify first: a key the exchange refuses never replaces one that works.
      const verified = await rest.verifyKey(key)
      if (!verified.ok) {
        log.warn('monitor: new API key rejected by the exchange', {
          code: verified.error.code,
          profile: profile.id,
        })
        return fail(scrubError(verified.error, key))
      }
      const stored = await storeFor(profile).set(profile.id, key)
      noteKeychain(stored)
      if (!stored.ok) return fail(scrubError(stored.error, key))
      const updated = await updateProfile(profile.id, {
        keyLabel: request.label ?? null,
        keyExpiresAt: request.expiresAt ?? null,
      })
      if (conn.profile.id !== profile.id)
        return fail(invalid('The active profile changed while the key was set.'))
      hasKey = true
      log.info('monitor: API key stored', { profile: profile.id })
      afterKeyChange()
      return ok(keyInfo(updated.ok ? updated.value : profile))
    })
  }

  async function clearApiKey(): Promise<Result<KeyInfo>> {
    return serial(async () => {
      const profile = conn.profile
      const r = await storeFor(profile).delete(profile.id)
      noteKeychain(r)
      if (!r.ok) return fail(r.error)
      const updated = await updateProfile(profile.id, { keyLabel: null, keyExpiresAt: null })
      hasKey = false
      log.info('monitor: API key cleared', { profile: profile.id })
      afterKeyChange()
      return ok(keyInfo(updated.ok ? updated.value : profile))
    })
  }

  async function useDemoKey(): Promise<Result<KeyInfo>> {
    return serial(async () => {
      const profile = conn.profile
      if (!profile.demo) return fail(invalid('The demo key can only be used with the demo profile.'))
      const sim = demo ?? (await ensureDemo())
      if (!sim) return fail({ code: 'network', message: 'The embedded simulator is not running.' })
      secrets.add(sim.demoKey)
      const r = await demoCredentials.set(profile.id, sim.demoKey)
      if (!r.ok) return fail(r.error)
      const updated = await updateProfile(profile.id, { keyLabel: 'Demo key', keyExpiresAt: null })
      hasKey = true
      afterKeyChange()
      return ok(keyInfo(updated.ok ? updated.value : profile))
    })
  }

  // ---- profiles

  async function saveProfile(input: {
    id?: string
    name: string
    baseUrl: string
    wsUrl: string
  }): Promise<Result<Profile>> {
    if (input.id === DEMO_PROFILE_ID) return fail(invalid('The demo profile cannot be edited.'))
    const endpoints = validateEndpoints(input.baseUrl, input.wsUrl)
    if (!endpoints.ok) return fail(endpoints.error)
    const current = settings.get().profiles
    const existing = input.id !== undefined ? current.find((p) => p.id === input.id) : undefined
    if (input.id !== undefined && !existing) return fail(invalid(`There is no profile "${input.id}".`))
    const profile: Profile = {
      id: existing?.id ?? `p-${randomUUID().slice(0, 8)}`,
      name: input.name.trim(),
      baseUrl: endpoints.value.baseUrl,
      wsUrl: endpoints.value.wsUrl,
      demo: false,
      keyLabel: existing?.keyLabel ?? null,
      keyExpiresAt: existing?.keyExpiresAt ?? null,
    }
    const r = await settings.update((s) => ({
      ...s,
      profiles: existing
        ? s.profiles.map((p) => (p.id === profile.id ? profile : p))
        : [...s.profiles, profile],
    }))
    if (!r.ok) return fail(r.error)
    const saved = r.value.profiles.find((p) => p.id === profile.id) ?? profile
    // Editing the active profile's endpoints reconnects to the new ones.
    if (existing && conn.profile.id === saved.id) {
      const moved = existing.baseUrl !== saved.baseUrl || existing.wsUrl !== saved.wsUrl
      conn.profile = saved
      if (moved) await connectProfile(saved)
    }
    return ok(saved)
  }

  async function selectProfile(id: string): Promise<Result<void>> {
    const profile = settings.get().profiles.find((p) => p.id === id)
    if (!profile) return fail(invalid(`There is no profile "${id}".`))
    const r = await settings.update((s) => ({ ...s, activeProfileId: id }))
    if (!r.ok) return fail(r.error)
    if (conn.profile.id !== id || !conn.stream) await connectProfile(profile)
    log.info('monitor: profile selected', { profile: id })
    return ok(undefined)
  }

  async function deleteProfile(id: string): Promise<Result<void>> {
    const profile = settings.get().profiles.find((p) => p.id === id)
    if (!profile) return fail(invalid(`There is no profile "${id}".`))
    if (profile.demo) return fail(invalid('The demo profile cannot be deleted.'))
    const wasActive = conn.profile.id === id
    const r = await settings.update((s) => ({
      ...s,
      profiles: s.profiles.filter((p) => p.id !== id),
      activeProfileId: s.activeProfileId === id ? DEMO_PROFILE_ID : s.activeProfileId,
    }))
    if (!r.ok) return fail(r.error)
    const removed = await credentials.delete(id)
    if (!removed.ok)
      log.warn('monitor: could not delete the key of a deleted profile', { code: removed.error.code })
    if (wasActive) await connectProfile(activeProfile())
    return ok(undefined)
  }

  // ---- engine-wide

  function reconnectNow(): void {
    if (closed) return
    if (conn.stream) conn.stream.reconnectNow()
    else void connectProfile(conn.profile)
  }

  function attachClient(attach: AttachOptions): MonitorClient {
    if (closed) throw new Error('the monitor is closed')
    const id = `c${++nextClient}`
    const state: ClientState = {
      id,
      label: attach.label ?? id,
      interests: [],
      depth: DEFAULT_DEPTH,
      inspector: false,
      disposed: false,
    }
    clients.set(id, state)
    fanout.addClient(id, attach.sink)
    log.info('monitor: client attached', { client: id, label: state.label })

    function guard<M extends MonitorMethod>(
      method: M,
      impl: (...args: MethodArgs<M>) => Promise<MethodResult<M>>,
    ): (...args: MethodArgs<M>) => Promise<MethodResult<M>> {
      return async (...args: MethodArgs<M>) => {
        const v = validateArgs(method, args)
        if (!v.ok) return fail(invalid(v.message)) as MethodResult<M>
        if (state.disposed || closed)
          return fail(invalid('This window is no longer attached.')) as MethodResult<M>
        try {
          return await impl(...v.args)
        } catch (err) {
          // The message may come from a library; it is logged by name only, and the window gets a generic error.
          log.error('monitor: call failed', { method, error: err instanceof Error ? err.name : 'error' })
          return fail(internal()) as MethodResult<M>
        }
      }
    }

    const refreshInspector = (): void => {
      inspector.setEnabled([...clients.values()].some((c) => c.inspector && !c.disposed))
    }

    const client: MonitorClient = {
      id,
      listEvents: guard('listEvents', async (opts) => listEvents(opts?.refresh === true)),
      setInterests: guard('setInterests', async (interests) => {
        state.interests = interests
        fanout.setUser(
          id,
          interests.some((i) => i.channel === 'user'),
        )
        fanout.setClientMarkets(id, clientMarkets(state))
        registry.setInterests(id, interests)
        return ok(undefined)
      }),
      setBookDepth: guard('setBookDepth', async (depth) => {
        state.depth = depth
        fanout.setDepth(id, depth)
        return ok(undefined)
      }),
      getMarketSnapshot: guard('getMarketSnapshot', async (market) =>
        ok({
          book: books.bookView(market, state.depth),
          ticker: books.ticker(market),
          trades: tapes.history(market, HISTORY_TRADES),
        }),
      ),
      getUserHistory: guard('getUserHistory', async () => ok(userFeed.history())),
      resync: guard('resync', async (market) => {
        if (!marketRouted(market)) return fail(invalid(`Market "${market}" is not being watched.`))
        books.delete(market)
        resync(market, 'requested')
        return ok(undefined)
      }),
      reconnectNow: guard('reconnectNow', async () => {
        reconnectNow()
        return ok(undefined)
      }),
      getStatus: guard('getStatus', async () => ok(status())),
      setInspector: guard('setInspector', async (enabled) => {
        state.inspector = enabled
        fanout.setInspector(id, enabled)
        refreshInspector()
        return ok(undefined)
      }),
      getKeyInfo: guard('getKeyInfo', async () => {
        await refreshHasKey()
        return ok(keyInfo(conn.profile))
      }),
      setApiKey: guard('setApiKey', async (request) => setApiKey(request)),
      clearApiKey: guard('clearApiKey', async () => clearApiKey()),
      useDemoKey: guard('useDemoKey', async () => useDemoKey()),
      listProfiles: guard('listProfiles', async () =>
        ok({ profiles: settings.get().profiles.map(withRuntimeUrls), activeId: conn.profile.id }),
      ),
      saveProfile: guard('saveProfile', async (input) => saveProfile(input)),
      selectProfile: guard('selectProfile', async (profileId) => selectProfile(profileId)),
      deleteProfile: guard('deleteProfile', async (profileId) => deleteProfile(profileId)),
      dispose() {
        if (state.disposed) return
        state.disposed = true
        clients.delete(id)
        registry.removeClient(id)
        fanout.removeClient(id)
        refreshInspector()
        log.info('monitor: client detached', { client: id })
      },
    }
    return client
  }

  // ---- start

  if (demoMode && !conn.profile.demo) {
    const r = await settings.update((s) => ({ ...s, activeProfileId: DEMO_PROFILE_ID }))
    if (!r.ok) log.warn('monitor: could not select the demo profile', { code: r.error.code })
  }
  if (demoMode) {
    const sim = await ensureDemo()
    if (!sim) {
      clearInterval(statusTimer)
      fanout.close()
      throw new Error('the embedded simulator failed to start')
    }
  }
  await connectProfile(activeProfile())

  return {
    attachClient,
    reconnectNow,
    getWindowLayouts: () => settings.get().windows.map((w) => ({ ...w })),
    injectDemoFault(kind) {
      if (!demo) return false
      log.warn('monitor: test hook injected a simulator fault', { kind })
      demo.fault(kind)
      return true
    },
    async saveWindowLayouts(layouts: WindowLayout[]) {
      const r = await settings.update((s) => ({ ...s, windows: layouts }))
      if (!r.ok) log.warn('monitor: could not save window layouts', { code: r.error.code })
    },
    async close() {
      if (closed) return
      closed = true
      clearInterval(statusTimer)
      conn.stream?.close()
      registry.close()
      for (const state of clients.values()) state.disposed = true
      clients.clear()
      fanout.close()
      const sim = demo ?? (demoStarting ? await demoStarting : null)
      demo = null
      if (sim) await sim.close()
      log.info('monitor: closed')
    },
  }
}
