// Fault injection for tests and benchmarks (DESIGN §3.1): every way a venue misbehaves that the engine
// must survive, on demand, in both dialects (each dialect supplies its hub, gap, crossed and firehose).
import type { DeltaOut } from './market'

/**
 * How the venue mishandles a trade request (VoxFi's POST/DELETE under /v1/trade/): `delay` executes it at once and
 * answers `ms` later; `drop` destroys the connection without an answer, after executing it or without; `error`
 * answers `status` with `body` and executes nothing.
 */
export type OrderFault =
  | { kind: 'delay'; ms: number }
  | { kind: 'drop'; execute: boolean }
  | { kind: 'error'; status: number; body: unknown }

/** One trade request as the venue received it, in order of arrival. */
export interface OrderLogEntry {
  /** ms since epoch. */
  at: number
  method: string
  /** The path without the query. */
  path: string
  /** The parsed JSON body; null without one, or when it was not JSON. */
  body: unknown
  /** What was answered; null when the connection was dropped instead. */
  status: number | null
  answer: unknown
  /** Whether the venue acted on it: an order placed, canceled or a merge done. */
  executed: boolean
  /** The order fault applied to it, if any. */
  fault: OrderFault['kind'] | null
}

/** The VoxFi dialect's trade paths, as faults reach them. */
export interface OrderFaultTarget {
  orderFault(fault: OrderFault, count: number): void
  orderLog(): OrderLogEntry[]
  closeMarket(marketId: string): boolean
  reopenMarket(marketId: string): boolean
}

export interface SimulatorFaults {
  /** Terminate every WebSocket connection abruptly (no close frame). */
  dropAll(): void
  /** While on, sockets and ping/pong stay alive but no data frame is sent (updates are dropped, not queued). */
  stall(on: boolean): void
  /**
   * While on, the venue goes quiet: no market moves, nothing trades, the account stands still. Sockets, pings
   * and REST answer as usual (a REST book is the last one). A market "whose data stops" without a fault.
   */
  freeze(on: boolean): void
  /** Send `count` (default 1) invalid-JSON text frames to every connection. */
  sendMalformed(count?: number): void
  /** Send one valid-JSON frame of about `bytes` (default 2 MiB) to every connection. */
  sendOversized(bytes?: number): void
  /** Answer WebSocket upgrades with 503 for `ms`; REST is unaffected. */
  refuseConnections(ms: number): void
  /** Drop everything and listen again on the same port; books keep their seqs; stall/refuse are cleared. */
  restart(): Promise<void>
  /** Start synthetic load on `markets` (default 100) ids `fh-0001`…; returns the ids to subscribe. */
  firehose(opts: { msgsPerSec: number; markets?: number }): string[]
  stopFirehose(): void
  /**
   * Reference: the next delta of `market` skips one seq number. VoxFi (whole books, no seq): the next book frame
   * of `market` is not sent, so its subscribers miss one book state. False for an unknown market.
   */
  gap(market: string): boolean
  /**
   * Send one book update for `market` that crosses its book (a bid at the best ask): a delta in the reference
   * dialect, a whole update-orderbook with a crossed YES book in VoxFi. False for an unknown market.
   */
  crossed(market: string): boolean
  /** Send a text frame verbatim to every connection. */
  sendRaw(text: string): void
  /** Close every WebSocket connection with a close frame carrying `code` (1000 or 3000–4999) and `reason`. */
  closeAll(code: number, reason?: string): void
  /** VoxFi's 4003 "server error": `closeAll(4003, 'server error')`. */
  serverError(): void
  /**
   * VoxFi only: the next `count` (default 1) trade requests (place, cancel or merge) that pass the key and rate-limit
   * checks meet `fault`. Faults queue up in the order given. Throws in the reference dialect (it takes no orders).
   */
  orderFault(fault: OrderFault, count?: number): void
  /** VoxFi only: every request to a trade path so far (the last 10,000), oldest first; empty in the reference dialect. */
  orderLog(): OrderLogEntry[]
  /**
   * VoxFi only: close a market for trading (orders get 406 PO8, resting ones stop filling, the listing shows
   * closed_at) or open it again. False for an unknown market or in the reference dialect.
   */
  closeMarket(marketId: string): boolean
  reopenMarket(marketId: string): boolean
}

export interface FaultBook {
  eventId: string
  skipSeq(): void
  crossedDelta(): DeltaOut
}

export interface FaultHub {
  stalled: boolean
  dropAll(): void
  sendToAll(text: string): void
  closeAll(code: number, reason: string): void
}

export interface FaultDeps {
  hub: FaultHub
  firehose: { start(msgsPerSec: number, markets: number): string[]; stop(): void }
  gap: (market: string) => boolean
  crossed: (market: string) => boolean
  refuseUntil: (epochMs: number) => void
  restart: () => Promise<void>
  freeze: (on: boolean) => void
  /** Invalid-JSON frames for sendMalformed (default: reference-looking ones). */
  malformed?: readonly string[]
  /** Start of the oversized frame, a JSON string value follows (default: a reference-looking notice). */
  oversizedHead?: string
  /** The trade paths (VoxFi only). */
  orders?: OrderFaultTarget
}

const MALFORMED = [
  '{"channel":"market","type":"orderbook","market":',
  'not json at all',
  '{"channel":"market","type":"trade",}',
  "{'single':'quotes'}",
  '[1, 2,',
]

const OVERSIZED_HEAD = '{"type":"notice","message":"oversized test frame","padding":"'

/** Close codes a server may send: 1000, or the application ranges 3000–4999. */
function validCloseCode(code: number): boolean {
  return Number.isInteger(code) && (code === 1000 || (code >= 3000 && code <= 4999))
}

export function createFaults(d: FaultDeps): SimulatorFaults {
  const malformed = d.malformed ?? MALFORMED
  const closeAll = (code: number, reason = ''): void => {
    if (!validCloseCode(code)) throw new RangeError(`close code must be 1000 or in [3000, 4999], got ${code}`)
    if (Buffer.byteLength(reason) > 123) throw new RangeError('close reason must be at most 123 bytes')
    d.hub.closeAll(code, reason)
  }
  return {
    dropAll: () => d.hub.dropAll(),
    stall: (on) => {
      d.hub.stalled = on
    },
    freeze: (on) => d.freeze(on),
    sendMalformed: (count = 1) => {
      for (let i = 0; i < count; i++) d.hub.sendToAll(malformed[i % malformed.length] as string)
    },
    sendOversized: (bytes = 2 * 1024 * 1024) => {
      const head = d.oversizedHead ?? OVERSIZED_HEAD
      const pad = Math.max(0, Math.floor(bytes) - head.length - 2)
      d.hub.sendToAll(head + 'x'.repeat(pad) + '"}')
    },
    refuseConnections: (ms) => d.refuseUntil(Date.now() + Math.max(0, ms)),
    restart: () => d.restart(),
    firehose: ({ msgsPerSec, markets = 100 }) => {
      if (!(msgsPerSec > 0) || !Number.isFinite(msgsPerSec)) throw new RangeError('msgsPerSec must be > 0')
      if (!Number.isInteger(markets) || markets < 1 || markets > 100_000) {
        throw new RangeError('markets must be an integer in [1, 100000]')
      }
      return d.firehose.start(msgsPerSec, markets)
    },
    stopFirehose: () => d.firehose.stop(),
    gap: (market) => d.gap(market),
    crossed: (market) => d.crossed(market),
    sendRaw: (text) => d.hub.sendToAll(text),
    closeAll,
    serverError: () => closeAll(4003, 'server error'),
    orderFault: (fault, count = 1) => {
      if (d.orders === undefined) throw new Error('orderFault: the reference dialect takes no orders')
      d.orders.orderFault(checkOrderFault(fault, count), count)
    },
    orderLog: () => d.orders?.orderLog() ?? [],
    closeMarket: (id) => d.orders?.closeMarket(id) ?? false,
    reopenMarket: (id) => d.orders?.reopenMarket(id) ?? false,
  }
}

/** An order fault from a test (or across the worker boundary): a clear error for anything it cannot be. */
export function checkOrderFault(f: unknown, count: unknown): OrderFault {
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 1_000_000) {
    throw new RangeError(`orderFault: count must be an integer in [1, 1000000], got ${String(count)}`)
  }
  const o = (typeof f === 'object' && f !== null ? f : {}) as Record<string, unknown>
  if (o.kind === 'delay' && typeof o.ms === 'number' && o.ms >= 0 && o.ms <= 600_000) {
    return { kind: 'delay', ms: o.ms }
  }
  if (o.kind === 'drop' && typeof o.execute === 'boolean') return { kind: 'drop', execute: o.execute }
  if (
    o.kind === 'error' &&
    Number.isInteger(o.status) &&
    (o.status as number) >= 200 &&
    (o.status as number) <= 599
  ) {
    let body: unknown
    try {
      body = JSON.parse(JSON.stringify(o.body ?? null)) as unknown
    } catch {
      throw new RangeError('orderFault: an error fault needs a JSON body')
    }
    return { kind: 'error', status: o.status as number, body }
  }
  throw new RangeError(
    'orderFault: expected {kind:"delay",ms: 0–600000}, {kind:"drop",execute: boolean} or {kind:"error",status: 200–599,body}',
  )
}
