// The exchange simulator, library form (DESIGN §3.1): REST and WebSocket on one port, seeded data, faults. Two
// dialects over the same markets: `reference` (the spec's sequenced deltas, prices 0–1) and `voxfi` (VoxFi's
// documented API: whole YES/NO books in ticks, close codes, heartbeat; see ./voxfi).
import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { DemoAccount, type AccountMarket, type AccountPrint } from './account'
import { buildCatalog, listingBody, type EventsListing } from './catalog'
import { resolveConfig, type SimConfig, type SimKeyConfig } from './config'
import { createFaults, type FaultBook, type FaultDeps, type SimulatorFaults } from './faults'
import { Firehose, isFirehoseId } from './firehose'
import { KeyStore, type KeyPatch } from './keys'
import { buildMarketBooks, type MarketBook, type StepOut } from './market'
import { createRestHandler } from './rest'
import { hexId, deriveSeed, mulberry32 } from './rng'
import type { Subscription } from './hub'
import { StreamHub } from './stream'
import {
  createVoxRuntime,
  VOXFI_MALFORMED,
  VOXFI_OVERSIZED_HEAD,
  type ListingEnvelope,
  type OrderAnswer,
  type VoxfiListing,
} from './voxfi'
import { startOfUtcDay } from './voxfi/listing'

export type { SimConfig, SimKeyConfig, Permission } from './config'
export { PERMISSIONS, parseConfig, loadConfigFile, ConfigError } from './config'
export type { SimulatorFaults, OrderFault, OrderLogEntry } from './faults'
export type { Subscription } from './hub'
export type { EventsListing, ListingEvent, ListingMarket } from './catalog'
export type { KeyPatch } from './keys'
export type { VoxfiListing, VoxEvent, VoxMarket, VoxOption, OrderAnswer } from './voxfi'
export { VOXFI_CLOSE } from './voxfi'

export type Dialect = 'voxfi' | 'reference'
export const DIALECTS: readonly Dialect[] = ['voxfi', 'reference']

export interface SimulatorOptions {
  /**
   * Which API the simulator speaks (DESIGN §3.1). Default 'reference' for the library (the CLI defaults to
   * 'voxfi'). Both dialects run the same deterministic markets and demo account for a seed.
   */
  dialect?: Dialect
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0 (ephemeral). */
  port?: number
  /** Default 1. Same seed, same listing, demo key and per-market update sequence. */
  seed?: number
  config?: SimConfig
  /** Length of one simulation step in ms (default 100). */
  tickMs?: number
  /** Upper bound between demo-account changes in ms (default 2000; each gap is drawn from half of it to all). */
  accountMs?: number
  /**
   * Server ping interval in ms. Reference: default 15000, a connection that misses a pong is dropped at the next
   * ping. VoxFi: default 10000 (docs.voxfi.com.br/en/websockets/connection), see pongTimeoutMs.
   */
  pingMs?: number
  /** VoxFi only: a client that has not answered a ping this long after it was sent is dropped (default 20000). */
  pongTimeoutMs?: number
  /**
   * VoxFi only: origin of the listing's dates (starts_at in the days before it, resolves_at in the days and weeks
   * after). Default: UTC midnight of the day the simulator starts, so a seed gives the same listing all day.
   */
  voxfiEpochMs?: number
  /**
   * VoxFi only: how GET /v1/data/events wraps its events, which the docs leave open: a bare array (default),
   * `{"data": […]}` or `{"events": […]}`. `listing()` always returns the events themselves.
   */
  voxfiListingEnvelope?: ListingEnvelope
  /**
   * VoxFi only: which documented answer POST /v1/trade/order gives (docs/voxfi.md §4.5), (a) the trades (default)
   * or (b) the dev page's order status; overrides the config's `orderAnswer`.
   */
  orderAnswer?: OrderAnswer
  /** Diagnostics (default: none). */
  log?: (line: string) => void
}

export interface Simulator<L = EventsListing> {
  dialect: Dialect
  /** http://HOST:PORT/v1 */
  baseUrl: string
  /** Reference: ws://HOST:PORT/ws. VoxFi: ws://HOST:PORT (the root path, as data-ws.voxfi.com.br). */
  wsUrl: string
  /** Always valid, all permissions, any IP. */
  demoKey: string
  port: number
  close(): Promise<void>
  /** The GET /v1/data/events body as it would be served now (VoxFi: a bare array of event objects). */
  listing(): L
  subscriptions(): Subscription[]
  connections(): number
  faults: SimulatorFaults
  /** Change a key at runtime (revoke, disable, expire, restrict IPs). False for an unknown key. */
  setKeyState(value: string, patch: KeyPatch): boolean
  addKey(key: SimKeyConfig): void
  /** Forget every key's rate-limit window. */
  resetRateLimits(): void
  /** Frames sent so far (all kinds) and firehose messages delivered, for benchmarks. */
  stats(): { framesSent: number; firehoseSent: number }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e)
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      const addr = server.address()
      resolve(typeof addr === 'object' && addr !== null ? addr.port : port)
    })
  })
}

export function createSimulator(
  options: SimulatorOptions & { dialect: 'voxfi' },
): Promise<Simulator<VoxfiListing>>
export function createSimulator(
  options?: SimulatorOptions & { dialect?: 'reference' },
): Promise<Simulator<EventsListing>>
/**
 * With a `dialect` that is not a literal type the result is typed as the library default's (reference), which is
 * what existing callers expect; check `sim.dialect` before reading `listing()` as a VoxFi body.
 */
export function createSimulator(options?: SimulatorOptions): Promise<Simulator<EventsListing>>
export async function createSimulator(
  options: SimulatorOptions = {},
): Promise<Simulator<EventsListing> | Simulator<VoxfiListing>> {
  const dialect = options.dialect ?? 'reference'
  if (!DIALECTS.includes(dialect))
    throw new RangeError(`dialect must be "voxfi" or "reference", got ${String(dialect)}`)
  const host = options.host ?? '127.0.0.1'
  const requestedPort = options.port ?? 0
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) {
    throw new RangeError(`port must be an integer in [0, 65535], got ${String(options.port)}`)
  }
  const seed = (options.seed ?? 1) >>> 0
  const tickMs = options.tickMs ?? 100
  if (!(tickMs >= 5 && tickMs <= 60_000)) throw new RangeError('tickMs must be in [5, 60000]')
  const pingMs = options.pingMs ?? (dialect === 'voxfi' ? 10_000 : 15_000)
  const pongTimeoutMs = options.pongTimeoutMs ?? 20_000
  if (!(pingMs >= 5) || !(pongTimeoutMs >= 5)) throw new RangeError('pingMs and pongTimeoutMs must be >= 5')
  const accountMs = options.accountMs ?? 2000
  const log = options.log ?? (() => {})
  const cfg = resolveConfig(options.config)

  const demoKey = `sk_demo_${hexId(mulberry32(deriveSeed(seed, 0xde70)), 32)}`
  const keys = new KeyStore([{ value: demoKey, name: 'demo' }, ...cfg.keys])
  const catalog = buildCatalog(seed, cfg.events, cfg.marketsPerEvent)
  const books = new Map<string, MarketBook>()
  for (const b of buildMarketBooks(catalog, seed)) books.set(b.id, b)
  const bookList = [...books.values()]

  const accountMarkets: AccountMarket[] = bookList.map((b) => ({
    id: b.id,
    eventId: b.eventId,
    quote: () => ({ bid: b.bestBidTick(), ask: b.bestAskTick() }),
  }))
  // Account changes come accountMs/2 to accountMs apart whatever the step length.
  const account = new DemoAccount(seed, accountMarkets, Math.max(1, Math.round(accountMs / tickMs)))

  // The hub and the firehose refer to each other only through closures, called once both exist.
  const fh: Firehose = new Firehose(
    (market, event, kind, body) => theHub.publishBody(market, event, kind, body),
    (market, event) => theHub.hasSubscribers(market, event),
  )
  const theHub: StreamHub = new StreamHub({
    keys,
    accountSnapshot: (ts) => account.snapshot(ts),
    maxBufferedBytes: 64 * 1024 * 1024,
    books: {
      book: (id) => books.get(id) ?? fh.get(id),
      eventMarkets: (eventId) => catalog.eventById.get(eventId)?.markets.map((m) => m.id),
    },
  })

  const listing = (): EventsListing =>
    listingBody(catalog, (id) => {
      const b = books.get(id)
      if (b === undefined) return { lastPrice: null, bestBid: null, bestAsk: null }
      return { lastPrice: b.lastPrice, bestBid: b.bestBidTick() / 100, bestAsk: b.bestAskTick() / 100 }
    })
  const vox =
    dialect === 'voxfi'
      ? createVoxRuntime({
          seed,
          catalog,
          books: bookList,
          account,
          keys,
          rateLimit: cfg.rateLimit,
          tradeRateLimit: cfg.tradeRateLimit,
          orderAnswer: options.orderAnswer ?? cfg.orderAnswer,
          pingMs,
          pongTimeoutMs,
          epochMs: options.voxfiEpochMs ?? startOfUtcDay(Date.now()),
          ...(options.voxfiListingEnvelope !== undefined
            ? { listingEnvelope: options.voxfiListingEnvelope }
            : {}),
          log,
        })
      : null
  const rest = vox?.rest ?? createRestHandler({ keys, rateLimit: cfg.rateLimit, listing, log })

  let refuseUntil = 0
  let server: Server
  const sockets = new Set<Socket>()
  const makeServer = (): Server => {
    const s = createServer(rest.handle)
    s.on('connection', (sock: Socket) => {
      sockets.add(sock)
      sock.on('close', () => sockets.delete(sock))
    })
    s.on('clientError', (_err, sock: Socket) => {
      if (sock.writable) sock.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
      else sock.destroy()
    })
    s.on('upgrade', (req, sock: Socket, head: Buffer) => {
      sock.on('error', () => {})
      const path = new URL(req.url ?? '/', 'http://sim.invalid').pathname
      const refuse = (status: string, body: string, extra = ''): void => {
        sock.end(
          `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`,
        )
      }
      if (path !== (vox === null ? '/ws' : '/')) {
        refuse('404 Not Found', '{"error":"not found"}')
        return
      }
      const now = Date.now()
      if (now < refuseUntil) {
        refuse(
          '503 Service Unavailable',
          '{"error":"unavailable"}',
          `Retry-After: ${Math.max(1, Math.ceil((refuseUntil - now) / 1000))}\r\n`,
        )
        return
      }
      if (vox === null) theHub.accept(req, sock, head)
      else vox.hub.accept(req, sock, head)
    })
    return s
  }

  server = makeServer()
  const port = await listen(server, requestedPort, host)

  let step = 0
  let lastPing = Date.now()
  /** Fault: the venue is quiet (nothing steps); pings and REST go on. */
  let frozen = false
  const voxStep = (v: NonNullable<typeof vox>): void => {
    step++
    const ts = Date.now()
    const prints: AccountPrint[] = []
    const outs: StepOut[] = bookList.map((b) => {
      const out = b.step(step)
      if (out.trade !== null) prints.push({ market: b.id, ...out.trade })
      return out
    })
    // After the books: the account's resting orders fill against this step's trades and quotes.
    v.onStep(step, outs, account.step(step, ts, prints))
  }
  const loop = setInterval(() => {
    if (frozen) {
      // Nothing moves, but the reference hub's pings come from this loop (VoxFi's hub pings by itself).
      const ts = Date.now()
      if (vox === null && ts - lastPing >= pingMs) {
        lastPing = ts
        theHub.ping()
      }
      return
    }
    if (vox !== null) {
      try {
        voxStep(vox)
      } catch (e) {
        log(`sim: step failed: ${String(e)}`)
      }
      return
    }
    try {
      step++
      const ts = Date.now()
      const prints: AccountPrint[] = []
      for (const b of bookList) {
        const out = b.step(step)
        if (out.trade !== null) prints.push({ market: b.id, ...out.trade })
        if (!theHub.hasSubscribers(b.id, b.eventId)) continue
        if (out.trade !== null) theHub.publishTrade(b.id, b.eventId, out.trade, ts)
        if (out.delta !== null)
          theHub.publishBook(b.id, b.eventId, out.delta.seq, out.delta.bids, out.delta.asks, ts)
      }
      // After the books: the account's resting orders fill against this step's trades and quotes.
      theHub.publishUser(account.step(step, ts, prints))
      if (ts - lastPing >= pingMs) {
        lastPing = ts
        theHub.ping()
      }
    } catch (e) {
      log(`sim: step failed: ${String(e)}`)
    }
  }, tickMs)
  loop.unref()

  const closeServer = async (): Promise<void> => {
    theHub.dropAll()
    vox?.hub.dropAll()
    for (const s of sockets) s.destroy()
    sockets.clear()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  let closed = false
  let restarting: Promise<void> | null = null
  const restart = async (): Promise<void> => {
    if (closed) throw new Error('simulator is closed')
    if (restarting !== null) return restarting
    restarting = (async () => {
      await closeServer()
      theHub.stalled = false
      if (vox !== null) vox.hub.stalled = false
      refuseUntil = 0
      server = makeServer()
      await listen(server, port, host)
      log(`sim: restarted on port ${port}`)
    })()
    try {
      await restarting
    } finally {
      restarting = null
    }
  }

  const findBook = (id: string): FaultBook | undefined =>
    books.get(id) ?? (isFirehoseId(id) ? fh.get(id) : undefined)
  const common: Pick<FaultDeps, 'refuseUntil' | 'restart' | 'freeze'> = {
    refuseUntil: (t) => {
      refuseUntil = t
    },
    restart,
    freeze: (on) => {
      frozen = on
    },
  }
  const faults = createFaults(
    vox === null
      ? {
          ...common,
          hub: theHub,
          firehose: fh,
          gap: (market) => {
            const b = findBook(market)
            if (b === undefined) return false
            b.skipSeq()
            return true
          },
          crossed: (market) => {
            const b = findBook(market)
            if (b === undefined) return false
            const delta = b.crossedDelta()
            theHub.publishBook(market, b.eventId, delta.seq, delta.bids, delta.asks, Date.now())
            return true
          },
        }
      : {
          ...common,
          hub: vox.hub,
          firehose: vox.firehose,
          gap: vox.gap,
          crossed: vox.crossed,
          malformed: VOXFI_MALFORMED,
          oversizedHead: VOXFI_OVERSIZED_HEAD,
          orders: vox.orders,
        },
  )

  const h = urlHost(host)
  log(`sim: listening on ${h}:${port} (seed ${seed}${vox === null ? '' : ', dialect voxfi'})`)
  const base: Omit<Simulator, 'listing'> = {
    dialect,
    baseUrl: `http://${h}:${port}/v1`,
    wsUrl: vox === null ? `ws://${h}:${port}/ws` : `ws://${h}:${port}`,
    demoKey,
    port,
    subscriptions: () => (vox === null ? theHub.subscriptions() : vox.hub.subscriptions()),
    connections: () => (vox === null ? theHub.connections() : vox.hub.connections()),
    faults,
    setKeyState: (value, patch) => {
      const changed = keys.update(value, patch)
      if (changed) {
        if (vox === null) theHub.revalidateUsers()
        else vox.hub.revalidateUsers()
      }
      return changed
    },
    addKey: (k) => keys.add(k),
    resetRateLimits: () => rest.resetLimits(),
    stats: () =>
      vox === null
        ? { framesSent: theHub.framesSent, firehoseSent: fh.sent }
        : { framesSent: vox.hub.framesSent, firehoseSent: vox.firehose.sent },
    close: async () => {
      if (closed) return
      closed = true
      clearInterval(loop)
      fh.stop()
      vox?.firehose.stop()
      if (restarting !== null) await restarting.catch(() => {})
      theHub.close()
      vox?.close()
      await closeServer()
    },
  }
  return vox === null ? { ...base, listing } : { ...base, listing: vox.listing }
}
