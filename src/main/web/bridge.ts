// The page <-> engine bridge: one WebSocket per page, one engine client per socket. Every call is validated
// with the same schemas as Electron IPC before the engine sees it; the host never trusts the page.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer, type RawData } from 'ws'
import { fail } from '../../shared/ipc'
import type { ViewBatch } from '../../shared/ipc'
import { mergeBatches, type MergeCaps } from '../../shared/batch-merge'
import { isMonitorMethod, validateArgs } from '../../shared/ipc-validate'
import type { ApiError, Result } from '../../shared/model'
import type { Logger, MonitorClient, MonitorEngine } from '../services'
import { hostAllowed, originAllowed, tokenMatches } from './access'
import { batchJson } from '../services'
import { BRIDGE_PATH, parsePageFrame, type HostFrame } from '../../shared/bridge'

export interface BridgeOptions {
  engine: MonitorEngine
  token: string
  /** The port the host listens on: the only Origin and Host accepted are this host's own. */
  port: number
  logger: Logger
  /** Largest frame a page may send (bytes). */
  maxPayload?: number
  /** Above this many unsent bytes on a socket, batches are merged instead of queued. */
  highWaterBytes?: number
  /**
   * Batches a page that acknowledges them may have sent but not yet acknowledged; later ones are merged until it
   * catches up. A page that never acknowledges is paced by `highWaterBytes` alone.
   */
  maxUnacked?: number
  /** Calls a page may have outstanding at once. */
  maxInFlight?: number
  /** Ping interval; a page that missed the previous pong is dropped and its interests released. */
  heartbeatMs?: number
  /** Pages may send live orders to any venue (--allow-trading); otherwise to the built-in simulator only. */
  allowTrading?: boolean
}

export interface Bridge {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  readonly connections: number
  close(): Promise<void>
}

/**
 * What a page that cannot keep up is sent instead of an ever-growing queue: one merged batch with the newest 2000
 * trades (the hole marked on each market's tape) and 200 inspector frames. Account updates and fired alerts are
 * never dropped (shared/batch-merge.ts).
 */
export const PAGE_MERGE_CAPS: MergeCaps = { trades: 2000, inspector: 200 }

/**
 * Batches in flight to a page that acknowledges them. Unsent bytes alone let a busy page fall seconds behind:
 * below the high-water mark, batches queue in order in the loopback socket's buffers (megabytes) and in the
 * browser, so the page shows old books long after the engine has newer ones. Its acknowledgements say how far
 * its script has read; what it has not reached is merged into one batch with the newest state.
 */
const MAX_UNACKED_BATCHES = 3

type AnyMethod = (...args: unknown[]) => Promise<Result<unknown>>

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

function refuse(socket: Duplex, status: 403 | 404): void {
  const text = status === 403 ? 'Forbidden' : 'Not Found'
  socket.once('finish', () => socket.destroy())
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

export function createBridge(options: BridgeOptions): Bridge {
  const { engine, token, port, logger } = options
  const highWater = options.highWaterBytes ?? 1024 * 1024
  const maxInFlight = options.maxInFlight ?? 64
  const maxUnacked = options.maxUnacked ?? MAX_UNACKED_BATCHES
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload ?? 1024 * 1024,
    perMessageDeflate: false,
  })
  const live = new Map<WebSocket, { client: MonitorClient; alive: boolean }>()
  let counter = 0
  let closing = false

  const heartbeat = setInterval(() => {
    for (const [ws, entry] of live) {
      if (!entry.alive) {
        ws.terminate()
        continue
      }
      entry.alive = false
      ws.ping()
    }
  }, options.heartbeatMs ?? 30_000)
  heartbeat.unref()

  function onConnection(ws: WebSocket): void {
    const label = `web#${++counter}`
    let pending: ViewBatch | null = null
    let inFlight = 0
    let batchesSent = 0
    // null until the page's first acknowledgement: only a page that acknowledges is paced by them.
    let batchesAcked: number | null = null

    // Every completed write gives a held-back batch another chance.
    const sendText = (text: string): void => {
      ws.send(text, () => flushBatch())
    }
    const send = (frame: HostFrame): void => {
      if (ws.readyState !== WebSocket.OPEN) return
      let text: string
      try {
        text = JSON.stringify(frame)
      } catch {
        if ('id' in frame)
          send({ id: frame.id, result: fail({ code: 'internal', message: 'unserialisable result' }) })
        return
      }
      sendText(text)
    }
    const flushBatch = (): void => {
      if (pending === null || ws.readyState !== WebSocket.OPEN || ws.bufferedAmount > highWater) return
      if (batchesAcked !== null && batchesSent - batchesAcked >= maxUnacked) return
      const batch = pending
      pending = null
      batchesSent++
      // The same text as send({ batch }), with the views other windows got in this flush serialised only once.
      sendText(`{"batch":${batchJson(batch)}}`)
    }
    const client = engine.attachClient({
      label,
      trading: options.allowTrading === true ? 'any' : 'builtin-simulator',
      // The page's store folds deltas, and a backed-up socket's merge composes them (shared/batch-merge.ts).
      bookDeltas: true,
      sink: (batch) => {
        if (ws.readyState !== WebSocket.OPEN) return
        pending = pending ? mergeBatches(pending, batch, PAGE_MERGE_CAPS) : batch
        flushBatch()
      },
    })
    live.set(ws, { client, alive: true })
    logger.info('bridge: page connected', { client: label, connections: live.size })

    const replyError = (id: number | null, error: ApiError): void => {
      send(id === null ? { error } : { id, result: fail(error) })
    }

    ws.on('pong', () => {
      const entry = live.get(ws)
      if (entry) entry.alive = true
    })
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        replyError(null, { code: 'invalid_argument', message: 'binary frames are not accepted' })
        return
      }
      const parsed = parsePageFrame(rawText(data))
      if (!parsed.ok) {
        replyError(parsed.id, { code: 'invalid_argument', message: parsed.message })
        return
      }
      if ('ack' in parsed) {
        if (parsed.ack > batchesSent || parsed.ack < (batchesAcked ?? 0)) {
          replyError(null, {
            code: 'invalid_argument',
            message: '"ack" must count the batches sent, in order',
          })
          return
        }
        batchesAcked = parsed.ack
        flushBatch()
        return
      }
      const { id, method, args } = parsed.call
      if (!isMonitorMethod(method)) {
        replyError(id, { code: 'invalid_argument', message: 'unknown method' })
        return
      }
      if (method === 'openWindow') {
        replyError(id, {
          code: 'invalid_argument',
          message: 'openWindow is handled by the page, not the host',
        })
        return
      }
      const checked = validateArgs(method, args)
      if (!checked.ok) {
        replyError(id, { code: 'invalid_argument', message: checked.message })
        return
      }
      if (inFlight >= maxInFlight) {
        replyError(id, { code: 'rate_limited', message: `more than ${maxInFlight} calls outstanding` })
        return
      }
      inFlight++
      const fn = client[method] as unknown as AnyMethod
      Promise.resolve()
        .then(() => fn.apply(client, checked.args as unknown[]))
        .then(
          (result) => send({ id, result }),
          (error: unknown) => {
            // Only the error's class is logged: a message could quote user input such as a key.
            logger.error('bridge: engine call threw', {
              client: label,
              method,
              error: error instanceof Error ? error.name : typeof error,
            })
            replyError(id, { code: 'internal', message: `${method} failed inside the host` })
          },
        )
        .finally(() => inFlight--)
    })
    ws.on('error', (error) => {
      logger.warn('bridge: socket error', { client: label, error: error.message })
    })
    ws.on('close', (code) => {
      live.delete(ws)
      pending = null
      client.dispose()
      logger.info('bridge: page disconnected', { client: label, code, connections: live.size })
    })
  }

  return {
    get connections() {
      return live.size
    },
    handleUpgrade(req, socket, head) {
      socket.on('error', () => socket.destroy())
      let path: string
      let candidate: string | null
      try {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1')
        path = url.pathname
        candidate = url.searchParams.get('token')
      } catch {
        refuse(socket, 404)
        return
      }
      if (closing || path !== BRIDGE_PATH) {
        refuse(socket, 404)
        return
      }
      const reason = !hostAllowed(req.headers.host, port)
        ? 'host'
        : !originAllowed(req.headers.origin, port)
          ? 'origin'
          : !tokenMatches(token, candidate)
            ? 'token'
            : null
      if (reason !== null) {
        logger.warn('bridge: connection refused', { reason, remote: req.socket.remoteAddress ?? null })
        refuse(socket, 403)
        return
      }
      wss.handleUpgrade(req, socket, head, onConnection)
    },
    async close() {
      closing = true
      clearInterval(heartbeat)
      const closed = [...live.keys()].map(
        (ws) =>
          new Promise<void>((resolve) => {
            ws.once('close', () => resolve())
            ws.close(1001, 'host shutting down')
            setTimeout(() => {
              ws.terminate()
              resolve()
            }, 1000).unref()
          }),
      )
      await Promise.all(closed)
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
