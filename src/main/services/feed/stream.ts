// The one self-healing WebSocket of a connection profile: connects, reconnects with backoff, detects dead and
// stalled sockets, and hands every text frame upward. It knows nothing of subscriptions: the registry replays
// its whole desired state on every onOpen, so the stream deliberately does NOT queue messages while closed
// (send() returns false and drops the message). That way nothing is ever sent twice after a reconnect.
//
// When to try again is reconnect-policy.ts's call; whether an open socket is still alive is link-watch.ts's.
import WebSocket from 'ws'
import { GapEstimator, silenceLimit } from '../health/gap-estimator'
import { LIVENESS_DEFAULTS, RECONNECT_DEFAULTS, type SilenceLimits } from '../health/thresholds'
import { parseRetryAfter } from './rate-limit'
import { LinkWatch } from './link-watch'
import { RetryPolicy, type BackoffOptions } from './reconnect-policy'
import type { Logger, StreamPhase, StreamState } from '../base/types'

export { backoffDelay, type BackoffOptions } from './reconnect-policy'

export type StreamCloseCause =
  | 'remote' // the server closed or the network dropped
  | 'error' // could not connect (including a refused upgrade), or a socket error
  | 'ping-timeout' // no pong in time
  | 'silence' // data-silence watchdog: pings may be fine but no frame arrived
  | 'oversized' // a frame exceeded maxFrameBytes (ws closes with 1009)
  | 'reconnect' // reconnectNow() tore it down
  | 'closed' // close() was called

/**
 * The stream's own mark for an attempt that got no answer in time (ws's handshake timeout, or ours): the system
 * code a timed-out connect would carry, so link-errors.ts reads both alike.
 */
export const CONNECT_TIMEOUT = 'ETIMEDOUT'

export interface StreamCloseInfo {
  code: number
  reason: string
  cause: StreamCloseCause
  /** Whether the socket had been open (false: the connection attempt itself failed). */
  wasOpen: boolean
  /** Error text for logs and status; never contains message payloads. */
  error: string | null
  /** A failed attempt's system error code (ECONNREFUSED, ENOTFOUND, a TLS code; ETIMEDOUT for no answer). */
  errorCode?: string
  /** When the socket had been open: how long (ms). */
  openForMs: number | null
  /** A refused upgrade: the HTTP status the server answered with instead of 101. */
  httpStatus?: number
  /** A refused upgrade with Retry-After: the honoured delay (ms, already capped). */
  retryAfterMs?: number
}

export interface StreamOptions {
  url: string
  logger: Logger
  onFrame(text: string, receivedAt: number): void
  onOpen(): void
  onClose(info: StreamCloseInfo): void
  onStateChange?(state: StreamState): void
  /** Whether data is expected (subscriptions exist): the silence watchdog only bites while this is true. */
  expectsData?: () => boolean
  now?: () => number
  random?: () => number
  /** Backoff after failed attempts (full jitter). */
  backoff?: Partial<BackoffOptions>
  /** After a connection that delivered data: the next attempt comes within random() × this (ms). */
  quickRetryMs?: number
  /** A refused upgrade's Retry-After is honoured up to this long (ms). */
  retryAfterCapMs?: number
  /** Ping interval while data is expected (ms). */
  pingIntervalMs?: number
  /** Ping interval while nothing is subscribed (ms). */
  idlePingIntervalMs?: number
  pongTimeoutMs?: number
  /** Shorthand kept for compatibility: the upper bound of the silence limit (and the lower, if smaller). */
  silenceMs?: number
  /** The adaptive silence limit's parameters; silenceMs, if given, overrides maxMs. */
  silence?: Partial<SilenceLimits>
  /**
   * How many times its learnt silence limit (never past maxMs) the watchdog waits now: the engine's silence episode
   * (health/venue-silence.ts) backs off rebuilds while the venue stays silent. Default 1.
   */
  silenceScale?: () => number
  maxFrameBytes?: number
  /** Connection attempt timeout (TCP + HTTP upgrade). */
  connectTimeoutMs?: number
}

export interface StreamConnection {
  /** Sends now if open; returns false (and drops the message) otherwise — the registry replays on open. */
  send(message: unknown): boolean
  isOpen(): boolean
  state(): StreamState
  /** Tear down the current socket (if any) and connect immediately, with the backoff counter reset. */
  reconnectNow(): void
  /** Stops everything; no timer or socket is left. Safe to call twice. */
  close(): void
}

export const STREAM_DEFAULTS = {
  backoff: {
    baseMs: RECONNECT_DEFAULTS.baseMs,
    capMs: RECONNECT_DEFAULTS.capMs,
    stableMs: 30_000,
  } satisfies BackoffOptions,
  quickRetryMs: RECONNECT_DEFAULTS.quickRetryMs,
  retryAfterCapMs: RECONNECT_DEFAULTS.retryAfterCapMs,
  pingIntervalMs: LIVENESS_DEFAULTS.pingActiveMs,
  idlePingIntervalMs: LIVENESS_DEFAULTS.pingIdleMs,
  pongTimeoutMs: LIVENESS_DEFAULTS.pongTimeoutMs,
  /** The silence limit's upper bound (the adaptive limit is usually far lower: see `silence`). */
  silenceMs: LIVENESS_DEFAULTS.connectionSilence.maxMs,
  silence: { ...LIVENESS_DEFAULTS.connectionSilence } satisfies SilenceLimits,
  maxFrameBytes: 1024 * 1024,
  connectTimeoutMs: RECONNECT_DEFAULTS.connectTimeoutMs,
}

/** The URL without query or credentials, for logs (a venue might put a token in the query string). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return '<invalid url>'
  }
}

/** The silence limits in effect: defaults, then `silence`, then the legacy `silenceMs` as the upper bound. */
export function resolveSilenceLimits(silence?: Partial<SilenceLimits>, silenceMs?: number): SilenceLimits {
  const limits: SilenceLimits = { ...STREAM_DEFAULTS.silence, ...silence }
  if (silenceMs !== undefined) {
    limits.maxMs = silenceMs
    limits.minMs = Math.min(limits.minMs, silenceMs)
  }
  return limits
}

function unref<T extends { unref?: () => unknown }>(timer: T): T {
  timer.unref?.()
  return timer
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`
}

export function createStreamConnection(options: StreamOptions): StreamConnection {
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const backoff: BackoffOptions = { ...STREAM_DEFAULTS.backoff, ...options.backoff }
  const quickRetryMs = options.quickRetryMs ?? STREAM_DEFAULTS.quickRetryMs
  const retryAfterCapMs = options.retryAfterCapMs ?? STREAM_DEFAULTS.retryAfterCapMs
  const pingIntervalMs = options.pingIntervalMs ?? STREAM_DEFAULTS.pingIntervalMs
  const idlePingIntervalMs = options.idlePingIntervalMs ?? STREAM_DEFAULTS.idlePingIntervalMs
  const pongTimeoutMs = options.pongTimeoutMs ?? STREAM_DEFAULTS.pongTimeoutMs
  const limits = resolveSilenceLimits(options.silence, options.silenceMs)
  const maxFrameBytes = options.maxFrameBytes ?? STREAM_DEFAULTS.maxFrameBytes
  const connectTimeoutMs = options.connectTimeoutMs ?? STREAM_DEFAULTS.connectTimeoutMs
  const expectsData = options.expectsData ?? (() => true)
  const log = options.logger
  const where = redactUrl(options.url)
  // One estimator for the life of this connection: the rhythm of the feed survives a reconnect.
  const gaps = new GapEstimator()

  let socket: WebSocket | null = null
  let phase: StreamPhase = 'waiting'
  const retries = new RetryPolicy({ backoff, quickRetryMs, retryAfterCapMs, now, random })
  let nextRetryAt: number | null = null
  let connectedSince: number | null = null
  /** Whether the current socket delivered at least one frame: only then was the connection a success. */
  let delivered = false
  let closed = false

  let retryTimer: NodeJS.Timeout | null = null
  let connectTimer: NodeJS.Timeout | null = null
  let watch: LinkWatch | null = null
  let stableTimer: NodeJS.Timeout | null = null

  function currentSilenceLimit(): number {
    const learnt = silenceLimit(gaps.usualGap(), gaps.samples(), limits)
    const scale = options.silenceScale?.() ?? 1
    return scale > 1 ? Math.max(learnt, Math.min(limits.maxMs, learnt * scale)) : learnt
  }

  function snapshot(): StreamState {
    const gap = gaps.usualGap()
    return {
      phase,
      attempt: retries.attempt,
      nextRetryAt,
      connectedSince,
      usualGapMs: gap === null ? null : Math.round(gap),
      silenceLimitMs: Math.round(currentSilenceLimit()),
    }
  }

  function emitState(): void {
    try {
      options.onStateChange?.(snapshot())
    } catch (err) {
      log.error('stream: onStateChange threw', { error: String(err) })
    }
  }

  function clearSocketTimers(): void {
    for (const t of [connectTimer, stableTimer]) if (t) clearTimeout(t)
    connectTimer = stableTimer = null
    watch?.stop()
    watch = null
  }

  function clearRetry(): void {
    if (retryTimer) clearTimeout(retryTimer)
    retryTimer = null
    nextRetryAt = null
  }

  /** Detach and kill the current socket; its events no longer reach us. */
  function drop(ws: WebSocket): void {
    ws.removeAllListeners()
    // A late 'error' from a dying socket must not become an unhandled exception.
    ws.on('error', () => {})
    try {
      // While connecting this also aborts the HTTP request (ws's abortHandshake), e.g. after a refused upgrade.
      ws.terminate()
    } catch {
      // terminate() on a socket that never connected can throw in some ws states; it is gone either way.
    }
  }

  type EndInfo = Omit<StreamCloseInfo, 'wasOpen' | 'openForMs'>

  /** The end of one socket's life: report it, then schedule the next attempt. */
  function finish(ws: WebSocket, info: EndInfo): void {
    if (ws !== socket) return
    const wasOpen = phase === 'open'
    const openForMs = wasOpen && connectedSince !== null ? now() - connectedSince : null
    socket = null
    clearSocketTimers()
    drop(ws)
    connectedSince = null
    const full: StreamCloseInfo = { ...info, wasOpen, openForMs }
    const fields = { url: where, code: info.code, cause: info.cause, error: info.error, wasOpen }
    if (info.cause === 'closed' || info.cause === 'reconnect') log.info('stream: closed', fields)
    else log.warn('stream: connection lost', fields)
    try {
      options.onClose(full)
    } catch (err) {
      log.error('stream: onClose threw', { error: String(err) })
    }
    if (closed) {
      phase = 'closed'
      emitState()
      return
    }
    if (info.cause === 'reconnect') return // reconnectNow() connects right after
    // A socket closed for silence stayed open past the silence limit with its pings answered: the venue is
    // reachable, and the limit (doubled through a silence episode) already spaced the attempts. Counted as a
    // failure, each rebuild of a stall doubled the wait too, and a venue speaking again found no socket for
    // up to capMs.
    const reachable = delivered || info.cause === 'silence'
    const worked = retries.worked(openForMs, info.cause === 'oversized', reachable)
    scheduleRetry(retries.next(!worked, info.retryAfterMs ?? null))
  }

  function scheduleRetry(delay: number): void {
    clearRetry()
    phase = 'waiting'
    nextRetryAt = now() + delay
    retryTimer = unref(
      setTimeout(() => {
        retryTimer = null
        nextRetryAt = null
        connect()
      }, delay),
    )
    emitState()
  }

  function connect(): void {
    if (closed || socket) return
    clearRetry()
    phase = 'connecting'
    emitState()
    let ws: WebSocket
    try {
      ws = new WebSocket(options.url, {
        maxPayload: maxFrameBytes,
        perMessageDeflate: false,
        handshakeTimeout: connectTimeoutMs,
      })
    } catch (err) {
      // An invalid URL throws synchronously; treat it like a failed attempt so the state stays consistent.
      log.error('stream: cannot open socket', { url: where, error: String(err) })
      scheduleRetry(retries.next(true, null))
      return
    }
    socket = ws
    delivered = false
    let oversized = false
    connectTimer = unref(
      setTimeout(() => {
        connectTimer = null
        finish(ws, {
          code: 1006,
          reason: '',
          cause: 'error',
          error: `connect timed out after ${connectTimeoutMs} ms`,
          errorCode: CONNECT_TIMEOUT,
        })
      }, connectTimeoutMs + 1000),
    )

    // With a listener here ws no longer aborts the request itself: finish() → drop() → terminate() does.
    ws.on('unexpected-response', (_req, res) => {
      // The response may still be streaming a body when the request is aborted; its error is expected.
      res.on('error', () => {})
      const status = res.statusCode ?? 0
      const asked = parseRetryAfter(res.headers['retry-after'] ?? null, now())
      const retryAfterMs = asked === null ? undefined : Math.min(asked, retryAfterCapMs)
      const after = retryAfterMs === undefined ? '' : `, retry after ${seconds(retryAfterMs)}`
      finish(ws, {
        code: 1006,
        reason: '',
        cause: 'error',
        error: `server refused the connection (HTTP ${status})${after}`,
        httpStatus: status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      })
    })

    ws.on('open', () => {
      if (ws !== socket) return
      if (connectTimer) clearTimeout(connectTimer)
      connectTimer = null
      phase = 'open'
      connectedSince = now()
      // The gap across the reconnect is an outage, not the feed's rhythm: do not learn it.
      gaps.restartClock(connectedSince)
      log.info('stream: connected', { url: where, attempt: retries.attempt })
      watch = new LinkWatch({
        ping: () => ws.ping(),
        now,
        expectsData,
        pingIntervalMs,
        idlePingIntervalMs,
        pongTimeoutMs,
        gaps,
        silenceLimit: currentSilenceLimit,
        onDead: (cause, error) =>
          finish(ws, { code: cause === 'silence' ? 4000 : 1006, reason: '', cause, error }),
      })
      stableTimer = unref(
        setTimeout(() => {
          stableTimer = null
          retries.stable()
          emitState()
        }, backoff.stableMs),
      )
      emitState()
      try {
        options.onOpen()
      } catch (err) {
        log.error('stream: onOpen threw', { error: String(err) })
      }
    })

    ws.on('message', (data, isBinary) => {
      if (ws !== socket) return
      const receivedAt = now()
      delivered = true
      gaps.observe(receivedAt)
      const text = isBinary || !Buffer.isBuffer(data) ? rawToText(data) : data.toString('utf8')
      try {
        options.onFrame(text, receivedAt)
      } catch (err) {
        // A consumer bug must not kill the socket; it is logged and the next frame is handled normally.
        log.error('stream: onFrame threw', { error: String(err) })
      }
    })

    ws.on('pong', () => {
      if (ws === socket) watch?.pong()
    })

    ws.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') oversized = true
      // ws's own handshake timeout carries no code, only this text.
      const errorCode = err.message === 'Opening handshake has timed out' ? CONNECT_TIMEOUT : err.code
      // 'close' follows 'error' for an opened socket; for a failed handshake it may not, so end it here.
      finish(ws, {
        code: oversized ? 1009 : 1006,
        reason: '',
        cause: oversized ? 'oversized' : 'error',
        error: err.message,
        ...(errorCode !== undefined ? { errorCode } : {}),
      })
    })

    ws.on('close', (code, reason) => {
      const oversizedClose = oversized || code === 1009
      finish(ws, {
        code,
        reason: reason.toString('utf8').slice(0, 200),
        cause: oversizedClose ? 'oversized' : 'remote',
        error: oversizedClose ? `frame larger than ${maxFrameBytes} bytes` : null,
      })
    })
  }

  function rawToText(data: WebSocket.RawData): string {
    if (Buffer.isBuffer(data)) return data.toString('utf8')
    if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
    return Buffer.from(data).toString('utf8')
  }

  // Start on the next tick so the caller can finish wiring before the first callback.
  let startTimer: NodeJS.Timeout | null = unref(
    setTimeout(() => {
      startTimer = null
      connect()
    }, 0),
  )

  return {
    send(message: unknown): boolean {
      const ws = socket
      if (!ws || phase !== 'open' || ws.readyState !== WebSocket.OPEN) return false
      try {
        ws.send(typeof message === 'string' ? message : JSON.stringify(message))
        return true
      } catch (err) {
        log.warn('stream: send failed', { error: String(err) })
        return false
      }
    },
    isOpen(): boolean {
      return phase === 'open' && socket?.readyState === WebSocket.OPEN
    },
    state(): StreamState {
      return snapshot()
    },
    reconnectNow(): void {
      if (closed) return
      retries.reset()
      if (startTimer) {
        clearTimeout(startTimer)
        startTimer = null
      }
      if (socket) finish(socket, { code: 1000, reason: '', cause: 'reconnect', error: null })
      clearRetry()
      connect()
    },
    close(): void {
      if (closed) return
      closed = true
      if (startTimer) clearTimeout(startTimer)
      startTimer = null
      clearRetry()
      if (socket) finish(socket, { code: 1000, reason: '', cause: 'closed', error: null })
      clearSocketTimers()
      phase = 'closed'
      emitState()
    },
  }
}
