// Fault injection for tests and benchmarks (DESIGN §3.1): every way a venue misbehaves that the engine
// must survive, on demand, in both dialects (each dialect supplies its hub, gap, crossed and firehose).
import type { DeltaOut } from './market'

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
  }
}
