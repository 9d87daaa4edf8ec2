// The browser host: the built renderer over HTTP and the engine over a WebSocket bridge, on one loopback port.
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger, MonitorEngine } from '../services'
import { createToken, hostAllowed, tokenMatches } from './access'
import { createBridge, type Bridge } from './bridge'
import { RENDERER_OUT_DIR } from './build'
import { createStderrLogger } from './logger'
import { BRIDGE_PATH } from '../../shared/bridge'
import { securityHeaders, sendText, serveStatic } from './static'

const TEST_FAULT_PATH = '/__test/fault'
const TEST_FAULTS = ['drop', 'stall', 'unstall', 'freeze', 'unfreeze', 'malformed', 'restart'] as const
type TestFault = (typeof TEST_FAULTS)[number]
function isTestFault(kind: string | null): kind is TestFault {
  return (TEST_FAULTS as readonly (string | null)[]).includes(kind)
}

/** Never configurable: the host must not be reachable from other machines. */
export const HOST = '127.0.0.1'

export interface WebHostOptions {
  /** 0 (default) = an ephemeral port. */
  port?: number
  /**
   * When `port` is taken by another program, listen on an ephemeral one instead of failing (a port kept from an
   * earlier run is a wish, not a requirement). The engine is built once either way.
   */
  portFallback?: boolean
  /** Run the engine on its embedded simulator. Ignored when `monitor` is given. */
  demo?: boolean | { seed?: number }
  /** An engine to serve instead of creating one; the host then leaves closing it to the caller. */
  monitor?: MonitorEngine
  /** Engine settings file; null = in memory. Ignored when `monitor` is given. */
  settingsPath?: string | null
  /** Pages may send live orders to a venue other than the built-in simulator (--allow-trading). */
  allowTrading?: boolean
  /** Directory of the built renderer (default out/renderer). Building it is the caller's job (build.ts). */
  rendererDir?: string
  logger?: Logger
  /** Reuse a token (at least 32 characters), e.g. so open pages survive a host restart; default a fresh one. */
  token?: string
  /**
   * End-to-end test hook (the CLI enables it with TM_WEB_TEST_HOOKS=1): `POST /__test/fault?kind=K&token=T`
   * injects a fault into the embedded simulator. Off by default; the token is required as for the bridge.
   */
  testHooks?: boolean
  /** Bridge tuning, for tests. */
  bridge?: { maxPayload?: number; highWaterBytes?: number; heartbeatMs?: number }
}

export interface WebHost {
  /** The page URL, token included. */
  url: string
  token: string
  port: number
  close(): Promise<void>
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error)
    server.once('error', onError)
    server.listen({ host: HOST, port, exclusive: true }, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

export async function startWebHost(options: WebHostOptions = {}): Promise<WebHost> {
  const logger = options.logger ?? createStderrLogger()
  const requestedPort = options.port ?? 0
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) {
    throw new Error(`invalid port: ${String(requestedPort)}`)
  }
  if (options.token !== undefined && options.token.length < 32)
    throw new Error('a token needs at least 32 characters')
  const rendererDir = options.rendererDir ?? RENDERER_OUT_DIR
  const ownsEngine = options.monitor === undefined
  let engine: MonitorEngine
  if (options.monitor) {
    engine = options.monitor
  } else {
    // Loaded lazily so that a host serving a caller's engine does not pull in the engine's module graph.
    const { createMonitor } = await import('../services')
    engine = await createMonitor({
      settingsPath: options.settingsPath ?? null,
      demo: options.demo ?? false,
      logger,
    })
  }

  const token = options.token ?? createToken()
  const handleTestFault = (method: string | undefined, rawUrl: string, res: ServerResponse): void => {
    const query = new URL(rawUrl, 'http://host').searchParams
    if (method !== 'POST') return sendText(res, 405, 'method not allowed', headers)
    if (!tokenMatches(token, query.get('token'))) return sendText(res, 403, 'forbidden', headers)
    const kind = query.get('kind')
    if (!isTestFault(kind)) return sendText(res, 400, `unknown fault: ${String(kind)}`, headers)
    const injected = engine.injectDemoFault(kind)
    sendText(res, injected ? 200 : 409, injected ? 'ok' : 'no embedded simulator', headers)
  }
  let bridge: Bridge | null = null
  let headers: Record<string, string> = {}
  let port = 0

  const server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, port)) {
      sendText(res, 403, 'forbidden', headers)
      return
    }
    if (options.testHooks === true && (req.url ?? '').startsWith(TEST_FAULT_PATH)) {
      handleTestFault(req.method, req.url ?? '', res)
      return
    }
    if ((req.url ?? '').split('?')[0] === BRIDGE_PATH) {
      sendText(res, 426, 'upgrade required', headers)
      return
    }
    serveStatic(req, res, { root: rendererDir, headers }).catch(() => {
      if (!res.headersSent) sendText(res, 500, 'internal error', headers)
      else res.destroy()
    })
  })
  server.on('clientError', (_error, socket) => socket.destroy())
  server.on('upgrade', (req, socket, head: Buffer) => {
    if (bridge) bridge.handleUpgrade(req, socket, head)
    else socket.destroy()
  })

  try {
    port = await listen(server, requestedPort).catch((error: unknown) => {
      const taken = (error as { code?: unknown }).code === 'EADDRINUSE'
      if (!taken || options.portFallback !== true || requestedPort === 0) throw error
      logger.warn('web: the kept port is taken, using a new one', { port: requestedPort })
      return listen(server, 0)
    })
  } catch (error) {
    if (ownsEngine) await engine.close()
    throw error
  }
  headers = securityHeaders(port)
  bridge = createBridge({
    engine,
    token,
    port,
    logger,
    ...(options.allowTrading === true ? { allowTrading: true } : {}),
    ...options.bridge,
  })
  const url = `http://${HOST}:${port}/?token=${encodeURIComponent(token)}`
  logger.info('web: listening', { host: HOST, port, rendererDir })

  let closed: Promise<void> | null = null
  return {
    url,
    token,
    port,
    close() {
      closed ??= (async () => {
        await bridge?.close()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
        if (ownsEngine) await engine.close()
        logger.info('web: stopped', { port })
      })()
      return closed
    },
  }
}
