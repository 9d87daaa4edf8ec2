// The stream connection against a tiny loopback ws server: reconnect, watchdogs, oversized frames, close().
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import type { AddressInfo } from 'node:net'
import {
  backoffDelay,
  createStreamConnection,
  type StreamCloseInfo,
  type StreamConnection,
} from '../../../src/main/services/feed/stream'
import { captureLogger, never, waitFor } from '../helpers'

interface TinyServer {
  url: string
  wss: WebSocketServer
  sockets: ServerSocket[]
  received: string[]
  connections: number
  close(): Promise<void>
}

async function tinyServer(opts: { autoPong?: boolean } = {}): Promise<TinyServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: opts.autoPong ?? true })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const server: TinyServer = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`,
    wss,
    sockets: [],
    received: [],
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of wss.clients) s.terminate()
        wss.close(() => resolve())
      }),
  }
  wss.on('connection', (ws) => {
    server.connections += 1
    server.sockets.push(ws)
    ws.on('message', (d) => server.received.push(d.toString()))
  })
  return server
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

function open(url: string, extra: Partial<Parameters<typeof createStreamConnection>[0]> = {}) {
  const log = captureLogger()
  const frames: string[] = []
  const closes: StreamCloseInfo[] = []
  let opens = 0
  const conn: StreamConnection = createStreamConnection({
    url,
    logger: log.logger,
    onFrame: (t) => frames.push(t),
    onOpen: () => (opens += 1),
    onClose: (i) => closes.push(i),
    backoff: { baseMs: 20, capMs: 200, stableMs: 60_000 },
    ...extra,
  })
  cleanups.push(() => conn.close())
  return { conn, frames, closes, log, opens: () => opens }
}

describe('backoffDelay', () => {
  it('uses full jitter under an exponential ceiling capped at capMs', () => {
    const b = { baseMs: 500, capMs: 30_000, stableMs: 30_000 }
    expect(backoffDelay(0, b, () => 0.999)).toBe(499)
    expect(backoffDelay(3, b, () => 0.5)).toBe(2000)
    expect(backoffDelay(20, b, () => 0.999)).toBe(29_970)
    expect(backoffDelay(5, b, () => 0)).toBe(0)
  })
})

describe('stream connection', () => {
  it('connects, delivers frames, and reconnects after the server drops it', async () => {
    const srv = await tinyServer()
    cleanups.push(() => srv.close())
    const s = open(srv.url)
    await waitFor(() => s.opens() === 1)
    srv.sockets[0]?.send('{"a":1}')
    await waitFor(() => s.frames.length === 1)
    expect(s.frames[0]).toBe('{"a":1}')
    expect(s.conn.send({ type: 'subscribe', channel: 'market', markets: ['m1'] })).toBe(true)
    await waitFor(() => srv.received.length === 1)
    srv.sockets[0]?.terminate()
    await waitFor(() => s.opens() === 2)
    expect(s.closes[0]?.cause).toBe('remote')
    expect(s.closes[0]?.wasOpen).toBe(true)
    expect(srv.connections).toBe(2)
  })

  it('does not queue while closed: send() returns false', async () => {
    const srv = await tinyServer()
    await srv.close()
    const s = open(srv.url)
    expect(s.conn.send({ x: 1 })).toBe(false)
    await waitFor(() => s.closes.length >= 2)
    expect(s.closes.every((c) => !c.wasOpen)).toBe(true)
    expect(s.conn.state().phase === 'waiting' || s.conn.state().phase === 'connecting').toBe(true)
  })

  it('tears down a silent connection when data is expected, not when idle', async () => {
    const srv = await tinyServer()
    cleanups.push(() => srv.close())
    let expecting = true
    let asked = 0
    const s = open(srv.url, { silenceMs: 200, expectsData: () => (asked++, expecting) })
    await waitFor(() => s.closes.some((c) => c.cause === 'silence'), 'the silent socket torn down')
    expecting = false
    await waitFor(() => s.opens() === 2, 'the next socket')
    // Idle, the same silence is judged again and again (every 50 ms for this limit), and the socket stays.
    const from = asked
    await waitFor(() => asked >= from + 10 || s.closes.length > 1, 'ten looks at the idle socket')
    expect(s.closes).toHaveLength(1)
  })

  it('terminates when pongs stop coming', async () => {
    const srv = await tinyServer({ autoPong: false })
    cleanups.push(() => srv.close())
    const s = open(srv.url, { pingIntervalMs: 50, pongTimeoutMs: 100 })
    await waitFor(() => s.closes.some((c) => c.cause === 'ping-timeout'))
    await waitFor(() => s.opens() >= 2)
  })

  it('survives an oversized frame: records it and reconnects', async () => {
    const srv = await tinyServer()
    cleanups.push(() => srv.close())
    const s = open(srv.url, { maxFrameBytes: 1000 })
    await waitFor(() => s.opens() === 1)
    srv.sockets[0]?.send('x'.repeat(5000))
    await waitFor(() => s.closes.some((c) => c.cause === 'oversized'))
    await waitFor(() => s.opens() === 2)
    srv.sockets[1]?.send('{"ok":true}')
    await waitFor(() => s.frames.includes('{"ok":true}'))
  })

  it('reconnectNow() replaces the socket at once', async () => {
    const srv = await tinyServer()
    cleanups.push(() => srv.close())
    const s = open(srv.url, { backoff: { baseMs: 60_000, capMs: 60_000, stableMs: 60_000 } })
    await waitFor(() => s.opens() === 1)
    s.conn.reconnectNow()
    await waitFor(() => s.opens() === 2)
    expect(s.closes[0]?.cause).toBe('reconnect')
  })

  it('close() stops everything: no reconnect after it', async () => {
    const srv = await tinyServer()
    cleanups.push(() => srv.close())
    // Backoff at most 200 ms: a socket the server drops is back within it.
    const s = open(srv.url)
    await waitFor(() => s.opens() === 1)
    srv.sockets[0]?.terminate()
    await waitFor(() => s.opens() === 2, 'the reconnect after a drop')
    s.conn.close()
    expect(s.conn.state().phase).toBe('closed')
    await waitFor(() => srv.wss.clients.size === 0)
    await never(() => s.opens() > 2 || srv.connections > 2, 'a reconnect after close()', 1_000)
  })
})
