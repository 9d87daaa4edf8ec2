// Reconnect pacing and liveness of the stream (DESIGN §4) against real loopback sockets: quick retry after a
// working connection, escalating backoff and Retry-After on refused upgrades, a half-open link behind a TCP
// proxy that stops forwarding, and the adaptive data-silence watchdog. Bounds are generous: machines are noisy.
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import * as http from 'node:http'
import * as net from 'node:net'
import type { AddressInfo } from 'node:net'
import {
  createStreamConnection,
  STREAM_DEFAULTS,
  type StreamCloseInfo,
  type StreamOptions,
} from '../../../src/main/services/feed/stream'
import { LIVENESS_DEFAULTS, RECONNECT_DEFAULTS } from '../../../src/main/services/health/thresholds'
import type { StreamState } from '../../../src/main/services/base/types'
import { captureLogger, waitFor } from '../helpers'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

interface WsServer {
  port: number
  url: string
  sockets: ServerSocket[]
}

/** A ws server on 127.0.0.1; `onConnection` may start traffic. Closed (with every client) after the test. */
async function wsServer(onConnection: (ws: ServerSocket) => void = () => {}): Promise<WsServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const port = (wss.address() as AddressInfo).port
  const server: WsServer = { port, url: `ws://127.0.0.1:${port}/ws`, sockets: [] }
  wss.on('connection', (ws) => {
    server.sockets.push(ws)
    ws.on('error', () => {})
    onConnection(ws)
  })
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of wss.clients) s.terminate()
        wss.close(() => resolve())
      }),
  )
  return server
}

/** Sends a frame every `everyMs` until `stop()`; the timer is cleared after the test either way. */
function ticker(ws: ServerSocket, everyMs: number): { stop(): void; sent(): number } {
  let sent = 0
  const timer = setInterval(() => {
    if (ws.readyState === ws.OPEN) {
      ws.send(`{"n":${sent}}`)
      sent += 1
    }
  }, everyMs)
  cleanups.push(() => clearInterval(timer))
  return { stop: () => clearInterval(timer), sent: () => sent }
}

/** Frames the tickers have sent, all of them on the stream's one socket until it is torn down. */
const sentSoFar = (feeds: ReadonlyArray<{ sent(): number }>): number =>
  feeds.reduce((n, f) => n + f.sent(), 0)

interface Refuser {
  url: string
  /** When each upgrade request arrived (ms since epoch). */
  attempts: number[]
}

/** An HTTP server that answers every WebSocket upgrade with `status` (and optional extra header lines). */
async function refuser(
  status: number,
  headers: string[] = [],
  opts: { hangBody?: boolean } = {},
): Promise<Refuser> {
  const server = http.createServer((_req, res) => res.writeHead(404).end())
  const sockets = new Set<net.Socket>()
  const r: Refuser = { url: '', attempts: [] }
  server.on('upgrade', (_req: http.IncomingMessage, socket: net.Socket) => {
    r.attempts.push(Date.now())
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
    const head = [`HTTP/1.1 ${status} Refused`, ...headers]
    if (opts.hangBody) {
      // A body that never ends: the client must abort the request itself, not wait for it.
      socket.write([...head, 'Content-Type: text/plain', 'Content-Length: 1000', '', 'partial'].join('\r\n'))
    } else {
      const body = 'come back later'
      socket.end([...head, `Content-Length: ${body.length}`, 'Connection: close', '', body].join('\r\n'))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  r.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  )
  return r
}

interface Proxy {
  url: string
  /** Stop forwarding both ways; every socket stays open (a half-open link: no bytes, no FIN, no RST). */
  blackhole(): void
}

/** A TCP proxy in front of `targetPort` that can silently stop forwarding. */
async function tcpProxy(targetPort: number): Promise<Proxy> {
  let holed = false
  const sockets = new Set<net.Socket>()
  const track = (s: net.Socket) => {
    sockets.add(s)
    s.on('error', () => {})
    s.on('close', () => sockets.delete(s))
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1')
    track(client)
    track(upstream)
    client.on('data', (d) => {
      if (!holed) upstream.write(d)
    })
    upstream.on('data', (d) => {
      if (!holed) client.write(d)
    })
    // Until the link is cut, a close on one side is passed on; once it is cut, nothing is.
    client.on('close', () => {
      if (!holed) upstream.destroy()
    })
    upstream.on('close', () => {
      if (!holed) client.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  )
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`,
    blackhole: () => {
      holed = true
    },
  }
}

interface Observed {
  states: Array<StreamState & { at: number }>
  closes: Array<StreamCloseInfo & { at: number }>
  opens: number[]
  frames: number[]
  conn: ReturnType<typeof createStreamConnection>
}

function observe(url: string, extra: Partial<StreamOptions> = {}): Observed {
  const log = captureLogger()
  const o: Omit<Observed, 'conn'> = { states: [], closes: [], opens: [], frames: [] }
  const conn = createStreamConnection({
    url,
    logger: log.logger,
    onFrame: () => o.frames.push(Date.now()),
    onOpen: () => o.opens.push(Date.now()),
    onClose: (i) => o.closes.push({ ...i, at: Date.now() }),
    onStateChange: (s) => o.states.push({ ...s, at: Date.now() }),
    ...extra,
  })
  cleanups.push(() => conn.close())
  return { ...o, conn }
}

describe('stream defaults', () => {
  it('come from the liveness and reconnect configuration', () => {
    expect(STREAM_DEFAULTS.pingIntervalMs).toBe(LIVENESS_DEFAULTS.pingActiveMs)
    expect(STREAM_DEFAULTS.idlePingIntervalMs).toBe(LIVENESS_DEFAULTS.pingIdleMs)
    expect(STREAM_DEFAULTS.pongTimeoutMs).toBe(LIVENESS_DEFAULTS.pongTimeoutMs)
    expect(STREAM_DEFAULTS.silence).toEqual(LIVENESS_DEFAULTS.connectionSilence)
    expect(STREAM_DEFAULTS.backoff.baseMs).toBe(RECONNECT_DEFAULTS.baseMs)
    expect(STREAM_DEFAULTS.backoff.capMs).toBe(RECONNECT_DEFAULTS.capMs)
    expect(STREAM_DEFAULTS.quickRetryMs).toBe(RECONNECT_DEFAULTS.quickRetryMs)
  })
})

describe('reconnect pacing', () => {
  it('retries at once after a connection that delivered data, every time, with the counter at 0', async () => {
    const srv = await wsServer((ws) => ws.send('{"hello":1}'))
    // A failed-attempt backoff would wait ≥ 4.9 s here; the quick retry must not.
    const s = observe(srv.url, { random: () => 0.99, backoff: { baseMs: 5000, capMs: 5000 } })
    for (let drop = 1; drop <= 3; drop++) {
      await waitFor(() => s.opens.length === drop && s.frames.length === drop, `open ${drop} with a frame`)
      const before = Date.now()
      srv.sockets[drop - 1]?.terminate()
      await waitFor(() => s.opens.length === drop + 1, `reopen after drop ${drop}`)
      expect(s.opens[drop]! - before).toBeLessThan(1500)
      expect(s.closes[drop - 1]?.wasOpen).toBe(true)
    }
    const waits = s.states.filter((st) => st.phase === 'waiting')
    expect(waits).toHaveLength(3)
    for (const w of waits) {
      expect(w.attempt).toBe(0)
      expect(w.nextRetryAt! - w.at).toBeLessThanOrEqual(RECONNECT_DEFAULTS.quickRetryMs + 5)
    }
    expect(s.conn.state().attempt).toBe(0)
  })

  it('counts a socket that opened but closed before any frame as a failed attempt', async () => {
    const srv = await wsServer((ws) => setTimeout(() => ws.terminate(), 30))
    const s = observe(srv.url, { random: () => 0.99, backoff: { baseMs: 50, capMs: 5000 } })
    await waitFor(() => s.closes.length >= 3, '3 closes')
    expect(s.closes.slice(0, 3).every((c) => c.wasOpen)).toBe(true)
    const waits = s.states.filter((st) => st.phase === 'waiting').slice(0, 3)
    expect(waits.map((w) => w.attempt)).toEqual([1, 2, 3])
  })

  it('stops retrying quickly when a venue keeps hanging up right after a frame', async () => {
    const srv = await wsServer((ws) => {
      ws.send('{"type":"error","message":"too many connections"}')
      setTimeout(() => ws.close(), 20)
    })
    const s = observe(srv.url, { random: () => 0.99, backoff: { baseMs: 5000, capMs: 5000 } })
    await waitFor(() => s.states.filter((st) => st.phase === 'waiting').length >= 6, '6 closes')
    const waits = s.states.filter((st) => st.phase === 'waiting')
    expect(waits.slice(0, 5).every((w) => w.attempt === 0)).toBe(true)
    expect(waits[5]?.attempt).toBe(1)
    expect(waits[5]!.nextRetryAt! - waits[5]!.at).toBeGreaterThan(4000)
  })

  it('escalates the backoff over refused upgrades (HTTP 503) and reports the status', async () => {
    const srv = await refuser(503)
    const s = observe(srv.url, { random: () => 0.99, backoff: { baseMs: 100, capMs: 5000 } })
    await waitFor(() => s.closes.length >= 4, '4 refused attempts')
    const waits = s.states.filter((st) => st.phase === 'waiting').slice(0, 4)
    expect(waits.map((w) => w.attempt)).toEqual([1, 2, 3, 4])
    const delays = waits.map((w) => w.nextRetryAt! - w.at)
    // 0.99 × 100, 200, 400, 800 ms (a ms of slack for the clock read between the two).
    expect(delays[0]).toBeGreaterThanOrEqual(98)
    for (let i = 1; i < delays.length; i++) expect(delays[i]!).toBeGreaterThan(delays[i - 1]! * 1.8)
    const first = s.closes[0]!
    expect(first.wasOpen).toBe(false)
    expect(first.cause).toBe('error')
    expect(first.httpStatus).toBe(503)
    expect(first.error).toBe('server refused the connection (HTTP 503)')
  })

  it('honours Retry-After on a refused upgrade, never sooner than it says', async () => {
    const srv = await refuser(503, ['Retry-After: 2'])
    const s = observe(srv.url, { random: () => 0.5, backoff: { baseMs: 50, capMs: 500 } })
    await waitFor(() => srv.attempts.length >= 2, 'second attempt', 8000)
    expect(srv.attempts[1]! - srv.attempts[0]!).toBeGreaterThanOrEqual(1900)
    expect(s.closes[0]?.retryAfterMs).toBe(2000)
    expect(s.closes[0]?.error).toBe('server refused the connection (HTTP 503), retry after 2 s')
  })

  it('caps Retry-After, and aborts a refusal whose body never ends', async () => {
    const srv = await refuser(429, ['Retry-After: 3600'], { hangBody: true })
    const s = observe(srv.url, {
      retryAfterCapMs: 300,
      random: () => 0.5,
      backoff: { baseMs: 50, capMs: 500 },
    })
    await waitFor(() => srv.attempts.length >= 3, 'third attempt', 5000)
    expect(s.closes[0]?.httpStatus).toBe(429)
    expect(s.closes[0]?.retryAfterMs).toBe(300)
    expect(srv.attempts[1]! - srv.attempts[0]!).toBeGreaterThanOrEqual(250)
    expect(srv.attempts[1]! - srv.attempts[0]!).toBeLessThan(2000)
  })
})

describe('half-open link (production defaults)', () => {
  it('is rebuilt within ~6 s on an active feed', async () => {
    const srv = await wsServer((ws) => ticker(ws, 50))
    const proxy = await tcpProxy(srv.port)
    const s = observe(proxy.url)
    await waitFor(() => s.frames.length >= 40, 'traffic through the proxy')
    const cut = Date.now()
    proxy.blackhole()
    await waitFor(() => s.closes.length >= 1, 'the stream to notice', 8000)
    expect(['ping-timeout', 'silence']).toContain(s.closes[0]?.cause)
    expect(s.closes[0]!.at - cut).toBeLessThan(6000)
  })

  it('is found by ping/pong alone when no data flows, also right after subscriptions appear', async () => {
    const srv = await wsServer()
    const proxy = await tcpProxy(srv.port)
    let expecting = false
    let asked = 0
    const s = observe(proxy.url, { expectsData: () => (asked++, expecting) })
    await waitFor(() => s.opens.length === 1, 'open')
    // Idle: the ping is armed at the idle interval (15 s), and the link watch has looked again since and left it
    // there; subscribing must bring it forward.
    await waitFor(() => asked >= 2, 'the link watch finding the socket idle')
    expecting = true
    const cut = Date.now()
    proxy.blackhole()
    await waitFor(() => s.closes.length >= 1, 'the stream to notice', 8000)
    // No frame was ever seen, so the silence limit is still its 120 s bound: only the pong timeout can fire.
    expect(s.closes[0]?.cause).toBe('ping-timeout')
    expect(s.closes[0]!.at - cut).toBeLessThan(6000)
  })
})

describe('adaptive data-silence watchdog', () => {
  it('flags a fast feed that stops (pings still answered) at the lower bound, not the upper', async () => {
    const feeds: Array<ReturnType<typeof ticker>> = []
    const srv = await wsServer((ws) => feeds.push(ticker(ws, 50)))
    const s = observe(srv.url)
    await waitFor(() => s.frames.length >= 30, 'a second of traffic')
    const state = s.conn.state()
    expect(state.usualGapMs).toBeGreaterThan(20)
    expect(state.usualGapMs).toBeLessThan(200)
    expect(state.silenceLimitMs).toBe(LIVENESS_DEFAULTS.connectionSilence.minMs)
    for (const f of feeds) f.stop()
    await waitFor(() => s.frames.length === sentSoFar(feeds), 'the frames in flight')
    const last = s.frames[s.frames.length - 1]!
    await waitFor(() => s.closes.length >= 1, 'silence', 8000)
    expect(s.closes[0]?.cause).toBe('silence')
    // One connection until the silence was flagged; the quick retry may already have opened the next one by the
    // time this poll runs, so count opens up to the close, not the server's sockets now.
    expect(s.opens.filter((t) => t <= s.closes[0]!.at)).toHaveLength(1)
    const after = s.closes[0]!.at - last
    expect(after).toBeGreaterThanOrEqual(LIVENESS_DEFAULTS.connectionSilence.minMs - 50)
    expect(after).toBeLessThan(LIVENESS_DEFAULTS.connectionSilence.minMs + 1500)
    // A stalled feed that worked is retried quickly, and the learnt rhythm survives the reconnect.
    await waitFor(() => s.opens.length === 2, 'reopen')
    expect(s.conn.state().attempt).toBe(0)
    expect(s.conn.state().usualGapMs).toBeLessThan(200)
  })

  it('waits silenceScale times its learnt limit before rebuilding a silent socket again', async () => {
    // The first socket streams until told to stop; later sockets stay silent. The engine scales the limit while
    // the venue stays silent (health/venue-silence.ts), so a long stall is not torn down every few seconds.
    const feeds: Array<ReturnType<typeof ticker>> = []
    const srv = await wsServer((ws) => {
      if (srv.sockets.length === 1) feeds.push(ticker(ws, 50))
    })
    let scale = 1
    const limits = { minMs: 600, multiple: 10, maxMs: 10_000 }
    const s = observe(srv.url, { silence: limits, silenceScale: () => scale })
    await waitFor(() => s.frames.length >= 30, 'a second of traffic')
    for (const f of feeds) f.stop()
    await waitFor(() => s.closes.length >= 1 && s.opens.length >= 2, 'silence, then a new socket', 8000)
    expect(s.closes[0]?.cause).toBe('silence')
    // The learnt limit (no frame came since, so it stays), then three times it.
    const learnt = s.conn.state().silenceLimitMs
    expect(learnt).toBeGreaterThanOrEqual(limits.minMs)
    scale = 3
    // (Both are rounded to the millisecond.)
    expect(Math.abs(s.conn.state().silenceLimitMs - Math.min(limits.maxMs, 3 * learnt))).toBeLessThanOrEqual(
      2,
    )
    await waitFor(() => s.closes.length >= 2, 'the silent successor rebuilt too', 12_000)
    expect(s.closes[1]?.cause).toBe('silence')
    const waited = s.closes[1]!.at - s.opens[1]!
    expect(waited).toBeGreaterThanOrEqual(3 * learnt - 50)
    // Never past the limit's upper bound, whatever the scale.
    scale = 100
    expect(s.conn.state().silenceLimitMs).toBe(limits.maxMs)
  })

  it('does not flag a slow feed whose gaps exceed the lower bound, and still flags it when it stops', async () => {
    const feeds: Array<ReturnType<typeof ticker>> = []
    const srv = await wsServer((ws) => feeds.push(ticker(ws, 600)))
    const s = observe(srv.url, { silence: { minMs: 300, multiple: 5, maxMs: 10_000 } })
    await waitFor(() => s.frames.length >= 8, 'eight slow frames', 10_000)
    expect(s.closes).toHaveLength(0)
    const state = s.conn.state()
    expect(state.usualGapMs).toBeGreaterThan(300)
    expect(state.silenceLimitMs).toBeGreaterThan(1500)
    for (const f of feeds) f.stop()
    await waitFor(() => s.frames.length === sentSoFar(feeds), 'the frames in flight')
    const last = s.frames[s.frames.length - 1]!
    await waitFor(() => s.closes.length >= 1, 'silence', 12_000)
    expect(s.closes[0]?.cause).toBe('silence')
    expect(s.closes[0]!.at - last).toBeGreaterThanOrEqual(1500)
    expect(s.closes[0]!.at - last).toBeLessThan(9000)
  })
})
