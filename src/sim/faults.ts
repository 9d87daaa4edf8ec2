// Fault injection for tests and benchmarks (DESIGN §3.1): every way a venue misbehaves that the engine
// must survive, on demand.
import type { DeltaOut } from './market'
import type { StreamHub } from './stream'
import type { Firehose } from './firehose'

export interface SimulatorFaults {
  /** Terminate every WebSocket connection abruptly (no close frame). */
  dropAll(): void
  /** While on, sockets and ping/pong stay alive but no data frame is sent (updates are dropped, not queued). */
  stall(on: boolean): void
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
  /** The next delta of `market` skips one seq number. False for an unknown market. */
  gap(market: string): boolean
  /** Send one delta for `market` that crosses its book (a bid at the best ask). False for an unknown market. */
  crossed(market: string): boolean
  /** Send a text frame verbatim to every connection. */
  sendRaw(text: string): void
}

export interface FaultBook {
  eventId: string
  skipSeq(): void
  crossedDelta(): DeltaOut
}

export interface FaultDeps {
  hub: StreamHub
  firehose: Firehose
  findBook: (id: string) => FaultBook | undefined
  refuseUntil: (epochMs: number) => void
  restart: () => Promise<void>
}

const MALFORMED = [
  '{"channel":"market","type":"orderbook","market":',
  'not json at all',
  '{"channel":"market","type":"trade",}',
  "{'single':'quotes'}",
  '[1, 2,',
]

export function createFaults(d: FaultDeps): SimulatorFaults {
  return {
    dropAll: () => d.hub.dropAll(),
    stall: (on) => {
      d.hub.stalled = on
    },
    sendMalformed: (count = 1) => {
      for (let i = 0; i < count; i++) d.hub.sendToAll(MALFORMED[i % MALFORMED.length] as string)
    },
    sendOversized: (bytes = 2 * 1024 * 1024) => {
      const head = '{"type":"notice","message":"oversized test frame","padding":"'
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
    gap: (market) => {
      const b = d.findBook(market)
      if (b === undefined) return false
      b.skipSeq()
      return true
    },
    crossed: (market) => {
      const b = d.findBook(market)
      if (b === undefined) return false
      const delta = b.crossedDelta()
      d.hub.publishBook(market, b.eventId, delta.seq, delta.bids, delta.asks, Date.now())
      return true
    },
    sendRaw: (text) => d.hub.sendToAll(text),
  }
}
