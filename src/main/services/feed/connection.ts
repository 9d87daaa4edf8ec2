// The active profile's connection: its REST client and its one stream, opened for a profile and replaced on a
// profile switch; what the socket's life means for the status (connection state, reconnect count, disconnect
// and stall incidents, lastError). What it means for the data (books stale, subscriptions replayed) is the
// composition's, through the hooks.
import type { ApiError, ConnectionState, Incident, IncidentKind, Profile } from '../../../shared/model'
import type { DemoHost } from './demo-host'
import type { IncidentLog } from '../health/incidents'
import { createRestClient, type RestClient } from './rest'
import { validateEndpoints } from '../../../shared/endpoints'
import type { StatusTracker } from '../health/status'
import {
  createStreamConnection,
  type StreamCloseInfo,
  type StreamConnection,
  type StreamOptions,
} from './stream'
import type { Logger, StreamState } from '../base/types'
import { venueCloseOf } from './venue-close'
import { streamError } from './link-errors'

export type StreamTuning = Partial<
  Omit<
    StreamOptions,
    | 'url'
    | 'logger'
    | 'onFrame'
    | 'onOpen'
    | 'onClose'
    | 'onStateChange'
    | 'expectsData'
    | 'silenceScale'
    | 'now'
  >
>

interface Connection {
  profile: Profile
  stream: StreamConnection | null
  rest: RestClient | null
  everOpened: boolean
  /** Why there is no stream (no endpoint): shown as lastError. */
  unavailable: ApiError | null
}

export interface ConnectionHooks {
  /** Everything of the previous profile is forgotten (books, tapes, listing, resyncs). */
  reset(): void
  /** A socket opened (the first or a reconnect). */
  opened(): void
  /** The socket is gone, or an attempt failed (info.wasOpen says which; cause 'closed' for close()). */
  dropped(info: StreamCloseInfo): void
  /** A text frame. */
  frame(text: string, receivedAt: number): void
  /** Whether any subscription exists, so silence on the socket means something. */
  expectsData(): boolean
  /** How many times its learnt silence limit the stream waits now (health/venue-silence.ts). */
  silenceScale(): number
  /** After a profile switch: learn whether it has a key (and its keychain works), tell the windows. */
  afterConnect(): Promise<void>
}

export interface ConnectionManagerOptions {
  log: Logger
  now(): number
  status: StatusTracker
  incidents: IncidentLog
  demo: DemoHost
  stream?: StreamTuning
  restTimeoutMs?: number
  /** Every key the engine knows, out of the REST client's error texts (feed/redact.ts). */
  scrub?(text: string): string
  /** Whether the user channel's key is refused (the status then says auth-error while the socket is open). */
  authError(): ApiError | null
  hooks: ConnectionHooks
}

export class ConnectionManager {
  private conn: Connection
  private openDisconnect: Incident | null = null
  private closed = false
  /** Set aside for a replay (suspend()): no stream, nothing sent, no reconnect until connect(). */
  private suspendedFlag = false

  constructor(
    private readonly o: ConnectionManagerOptions,
    initial: Profile,
  ) {
    this.conn = { profile: initial, stream: null, rest: null, everOpened: false, unavailable: null }
  }

  get profile(): Profile {
    return this.conn.profile
  }

  /** The profile object changed in settings (same id): keep the connection, use the new data. */
  set profile(profile: Profile) {
    this.conn.profile = profile
  }

  get rest(): RestClient | null {
    return this.conn.rest
  }

  get unavailable(): ApiError | null {
    return this.conn.unavailable
  }

  hasStream(): boolean {
    return this.conn.stream !== null
  }

  isOpen(): boolean {
    return this.conn.stream?.isOpen() ?? false
  }

  streamState(): StreamState | undefined {
    return this.conn.stream?.state()
  }

  send(message: unknown): boolean {
    return this.conn.stream?.send(message) ?? false
  }

  /**
   * socket open, no auth error -> live; open with auth error -> auth-error; never opened for this profile ->
   * connecting (offline after 3 failed attempts); opened before, now down -> reconnecting; closed -> offline.
   */
  state(): ConnectionState {
    const stream = this.conn.stream
    if (this.closed || !stream) return 'offline'
    const s = stream.state()
    if (s.phase === 'open') return this.o.authError() ? 'auth-error' : 'live'
    if (s.phase === 'closed') return 'offline'
    if (this.conn.everOpened) return 'reconnecting'
    return s.attempt >= 3 ? 'offline' : 'connecting'
  }

  /** The profile as windows see it: the demo profile carries the embedded simulator's URLs when running. */
  withRuntimeUrls(p: Profile): Profile {
    const sim = this.o.demo.current()
    if (!p.demo || !sim) return { ...p }
    return { ...p, baseUrl: sim.baseUrl, wsUrl: sim.wsUrl }
  }

  /** Whether the connection is set aside for a replay. */
  get suspended(): boolean {
    return this.suspendedFlag
  }

  reconnectNow(): void {
    if (this.closed || this.suspendedFlag) return
    if (this.conn.stream) this.conn.stream.reconnectNow()
    else void this.connect(this.conn.profile)
  }

  /** Close the current connection and open one for `profile`; windows' interests are replayed on open. */
  async connect(profile: Profile): Promise<void> {
    const { o } = this
    const next = this.drop(profile, false)
    let endpoints: { baseUrl: string; wsUrl: string } | null = null
    if (profile.demo) {
      const sim = await o.demo.ensure()
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
    if (this.conn !== next || this.closed) return
    if (endpoints) {
      next.rest = createRestClient({
        baseUrl: endpoints.baseUrl,
        logger: o.log,
        ...(o.restTimeoutMs !== undefined ? { timeoutMs: o.restTimeoutMs } : {}),
        ...(o.scrub ? { scrub: o.scrub } : {}),
      })
      next.stream = createStreamConnection({
        ...o.stream,
        url: endpoints.wsUrl,
        logger: o.log,
        now: o.now,
        expectsData: o.hooks.expectsData,
        silenceScale: o.hooks.silenceScale,
        // A frame the old socket had delivered already is the old profile's: never applied to the new one.
        onFrame: (text, receivedAt) => {
          if (next === this.conn) o.hooks.frame(text, receivedAt)
        },
        onOpen: () => this.onOpen(next),
        onClose: (info) => this.onClose(next, info),
        onStateChange: () => {
          if (next === this.conn) o.status.changed()
        },
      })
    }
    await o.hooks.afterConnect()
    o.status.changed()
  }

  /**
   * Record and replay: close the stream and forget the profile's data (as a profile switch does), and stay
   * without a stream (state `offline`, nothing sent, reconnectNow() ignored) until connect() is called again.
   */
  suspend(): void {
    if (this.closed) return
    this.drop(this.conn.profile, true)
    this.o.status.changed()
  }

  /**
   * Closes the stream and forgets the old profile's data and open disconnect, leaving a connection of
   * `profile` with no stream or REST client yet (`suspended`: none until connect()).
   */
  private drop(profile: Profile, suspended: boolean): Connection {
    const { o } = this
    this.suspendedFlag = suspended
    this.conn.stream?.close()
    o.hooks.reset()
    o.incidents.end(this.openDisconnect)
    this.openDisconnect = null
    o.status.resetForProfile()
    this.conn = { profile, stream: null, rest: null, everOpened: false, unavailable: null }
    return this.conn
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.conn.stream?.close()
  }

  private onOpen(connection: Connection): void {
    if (connection !== this.conn) return
    const { status } = this.o
    status.opened(connection.everOpened)
    connection.everOpened = true
    this.o.incidents.end(this.openDisconnect)
    this.openDisconnect = null
    this.o.hooks.opened()
    status.changed()
  }

  private onClose(connection: Connection, info: StreamCloseInfo): void {
    if (connection !== this.conn) return
    this.o.hooks.dropped(info)
    if (info.cause === 'closed') return
    if (info.wasOpen && !this.openDisconnect) {
      const kind: IncidentKind =
        info.cause === 'silence' || info.cause === 'ping-timeout' ? 'stall' : 'disconnect'
      this.openDisconnect = this.o.incidents.open(kind, describeClose(info))
    }
    if (info.cause !== 'reconnect') this.o.status.setError(streamError(info, describeClose(info)))
    else this.o.status.changed()
  }
}

export function describeClose(info: StreamCloseInfo): string {
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
      switch (venueCloseOf(info.code)) {
        case 'unauthorized':
          return 'The exchange closed the connection (4001 unauthorized: the API key was refused); reconnecting without the account.'
        case 'invalid-params':
          return `The exchange refused the connection's parameters (4002${info.reason ? `: ${info.reason}` : ''}); reconnecting.`
        case 'server-error':
          return 'The exchange had a server error (4003); reconnecting.'
        case 'invalid-message':
          return `The exchange refused a message of ours (4004${info.reason ? `: ${info.reason}` : ''}); reconnecting.`
        case null:
          return `The stream connection closed (code ${info.code}${info.reason ? `: ${info.reason}` : ''}).`
      }
  }
}
