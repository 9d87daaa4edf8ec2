// The one self-healing WebSocket of a connection profile: connects, reconnects with backoff, detects dead and
// stalled sockets, and hands every text frame upward. It knows nothing of subscriptions: the registry replays
// its whole desired state on every onOpen, so the stream deliberately does NOT queue messages while closed
// (send() returns false and drops the message). That way nothing is ever sent twice after a reconnect.
import WebSocket from 'ws'
import type { Logger } from './types'

export interface BackoffOptions {
  baseMs: number
  capMs: number
  /** A connection open this long resets the attempt counter. */
  stableMs: number
}

export type StreamCloseCause =
  | 'remote' // the server closed or the network dropped
  | 'error' // could not connect, or a socket error
  | 'ping-timeout' // no pong in time
  | 'silence' // data-silence watchdog: pings may be fine but no frame arrived
  | 'oversized' // a frame exceeded maxFrameBytes (ws closes with 1009)
  | 'reconnect' // reconnectNow() tore it down
  | 'closed' // close() was called

export interface StreamCloseInfo {
  code: number
  reason: string
  cause: StreamCloseCause
  /** Whether the socket had been open (false: the connection attempt itself failed). */
  wasOpen: boolean
  /** Error text for logs and status; never contains message payloads. */
  error: string | null
  /** When the socket had been open: how long (ms). */
  openForMs: number | null
}

export type StreamPhase = 'connecting' | 'open' | 'waiting' | 'closed'

export interface StreamState {
  phase: StreamPhase
  /** Consecutive failed attempts since the last stable connection. */
  attempt: number
  /** While waiting: when the next attempt is due (ms since epoch). */
  nextRetryAt: number | null
  connectedSince: number | null
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
  backoff?: Partial<BackoffOptions>
  pingIntervalMs?: number
  pongTimeoutMs?: number
  silenceMs?: number
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
  backoff: { baseMs: 500, capMs: 30_000, stableMs: 30_000 } satisfies BackoffOptions,
  pingIntervalMs: 15_000,
  pongTimeoutMs: 10_000,
  silenceMs: 20_000,
  maxFrameBytes: 1024 * 1024,
  connectTimeoutMs: 10_000,
}

/** Full-jitter exponential backoff: random() * min(cap, base * 2^attempt). */
export function backoffDelay(attempt: number, backoff: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.min(attempt, 30))
  return Math.floor(random() * ceiling)
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

function unref<T extends { unref?: () => unknown }>(timer: T): T {
  timer.unref?.()
  return timer
}

export function createStreamConnection(options: StreamOptions): StreamConnection {
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const backoff: BackoffOptions = { ...STREAM_DEFAULTS.backoff, ...options.backoff }
  const pingIntervalMs = options.pingIntervalMs ?? STREAM_DEFAULTS.pingIntervalMs
  const pongTimeoutMs = options.pongTimeoutMs ?? STREAM_DEFAULTS.pongTimeoutMs
  const silenceMs = options.silenceMs ?? STREAM_DEFAULTS.silenceMs
  const maxFrameBytes = options.maxFrameBytes ?? STREAM_DEFAULTS.maxFrameBytes
  const connectTimeoutMs = options.connectTimeoutMs ?? STREAM_DEFAULTS.connectTimeoutMs
  const expectsData = options.expectsData ?? (() => true)
  const log = options.logger
  const where = redactUrl(options.url)

  let socket: WebSocket | null = null
  let phase: StreamPhase = 'waiting'
  let attempt = 0
  let nextRetryAt: number | null = null
  let connectedSince: number | null = null
  let lastFrameAt = 0
  let closed = false

  let retryTimer: NodeJS.Timeout | null = null
  let connectTimer: NodeJS.Timeout | null = null
  let pingTimer: NodeJS.Timeout | null = null
  let pongTimer: NodeJS.Timeout | null = null
  let silenceTimer: NodeJS.Timeout | null = null
  let stableTimer: NodeJS.Timeout | null = null

  function emitState(): void {
    try {
      options.onStateChange?.({ phase, attempt, nextRetryAt, connectedSince })
    } catch (err) {
      log.error('stream: onStateChange threw', { error: String(err) })
    }
  }

  function clearSocketTimers(): void {
    for (const t of [connectTimer, pingTimer, pongTimer, silenceTimer, stableTimer]) if (t) clearTimeout(t)
    connectTimer = pingTimer = pongTimer = silenceTimer = stableTimer = null
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
      ws.terminate()
    } catch {
      // terminate() on a socket that never connected can throw in some ws states; it is gone either way.
    }
  }

  /** The end of one socket's life: report it, then schedule the next attempt. */
  function finish(ws: WebSocket, info: Omit<StreamCloseInfo, 'wasOpen' | 'openForMs'>): void {
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
    scheduleRetry()
  }

  function scheduleRetry(): void {
    clearRetry()
    const delay = backoffDelay(attempt, backoff, random)
    attempt += 1
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

  function armPing(ws: WebSocket): void {
    pingTimer = unref(
      setTimeout(() => {
        pingTimer = null
        if (ws !== socket || ws.readyState !== WebSocket.OPEN) return
        try {
          ws.ping()
        } catch (err) {
          finish(ws, { code: 1006, reason: '', cause: 'error', error: `ping failed: ${String(err)}` })
          return
        }
        pongTimer = unref(
          setTimeout(() => {
            pongTimer = null
            finish(ws, {
              code: 1006,
              reason: '',
              cause: 'ping-timeout',
              error: `no pong within ${pongTimeoutMs} ms`,
            })
          }, pongTimeoutMs),
        )
      }, pingIntervalMs),
    )
  }

  // A periodic check rather than a timer reset per frame: cheap at firehose rates.
  function armSilence(ws: WebSocket): void {
    const checkEvery = Math.max(25, Math.floor(silenceMs / 4))
    silenceTimer = unref(
      setTimeout(() => {
        silenceTimer = null
        if (ws !== socket) return
        if (!expectsData())
          lastFrameAt = now() // no subscription: silence is expected, restart the clock
        else if (now() - lastFrameAt >= silenceMs) {
          finish(ws, { code: 4000, reason: '', cause: 'silence', error: `no data for ${silenceMs} ms` })
          return
        }
        armSilence(ws)
      }, checkEvery),
    )
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
      scheduleRetry()
      return
    }
    socket = ws
    let oversized = false
    connectTimer = unref(
      setTimeout(() => {
        connectTimer = null
        finish(ws, {
          code: 1006,
          reason: '',
          cause: 'error',
          error: `connect timed out after ${connectTimeoutMs} ms`,
        })
      }, connectTimeoutMs + 1000),
    )

    ws.on('open', () => {
      if (ws !== socket) return
      if (connectTimer) clearTimeout(connectTimer)
      connectTimer = null
      phase = 'open'
      connectedSince = now()
      lastFrameAt = now()
      log.info('stream: connected', { url: where, attempt })
      armPing(ws)
      armSilence(ws)
      stableTimer = unref(
        setTimeout(() => {
          stableTimer = null
          attempt = 0
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
      lastFrameAt = receivedAt
      const text = isBinary || !Buffer.isBuffer(data) ? rawToText(data) : data.toString('utf8')
      try {
        options.onFrame(text, receivedAt)
      } catch (err) {
        // A consumer bug must not kill the socket; it is logged and the next frame is handled normally.
        log.error('stream: onFrame threw', { error: String(err) })
      }
    })

    ws.on('pong', () => {
      if (ws !== socket) return
      if (pongTimer) clearTimeout(pongTimer)
      pongTimer = null
      armPing(ws)
    })

    ws.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') oversized = true
      // 'close' follows 'error' for an opened socket; for a failed handshake it may not, so end it here.
      finish(ws, {
        code: oversized ? 1009 : 1006,
        reason: '',
        cause: oversized ? 'oversized' : 'error',
        error: err.message,
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
      return { phase, attempt, nextRetryAt, connectedSince }
    },
    reconnectNow(): void {
      if (closed) return
      attempt = 0
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
