// The engine against the real simulator over loopback sockets: start both, attach recording clients.
import type { ViewBatch } from '../../src/shared/ipc'
import { batchJson } from '../../src/main/services/fanout/batch-json'
import type { BookView, StreamStatus } from '../../src/shared/model'
import { createSimulator, type SimConfig, type Simulator } from '../../src/sim/index'
import { createMemoryStore, type CredentialStore } from '../../src/main/services/credentials/store'
import { createMonitor, type StreamTuning } from '../../src/main/services/monitor'
import type { MonitorClient, MonitorEngine } from '../../src/main/services/base/types'
import type { ResyncConfig } from '../../src/main/services/health/thresholds'
import { captureLogger, waitFor, type CapturedLog } from './helpers'

/** Short timeouts so that faults heal within a test; nothing asserts on timing. */
export const FAST_STREAM: StreamTuning = {
  silenceMs: 1500,
  backoff: { baseMs: 50, capMs: 500, stableMs: 5000 },
  pingIntervalMs: 1000,
  pongTimeoutMs: 1500,
  connectTimeoutMs: 3000,
}

export class Recorder {
  readonly batches: ViewBatch[] = []
  /** Every batch serialised as it arrived, as the transports do (leak checks see exactly what a window would). */
  readonly serialised: string[] = []
  /** Batches whose shared-view text (batchJson) differed from JSON.stringify: must stay 0. */
  encodingMismatches = 0
  constructor(private readonly keepText = false) {}

  readonly sink = (batch: ViewBatch): void => {
    this.batches.push(batch)
    if (!this.keepText) return
    const text = batchJson(batch)
    if (text !== JSON.stringify(batch)) this.encodingMismatches++
    this.serialised.push(text)
  }

  mark(): number {
    return this.batches.length
  }

  private since(mark: number): ViewBatch[] {
    return this.batches.slice(mark)
  }

  /** A trade, or a live book view, for `market` after `mark`. */
  marketData(market: string, mark: number): boolean {
    return this.since(mark).some(
      (b) =>
        (b.trades ?? []).some((t) => t.market === market) ||
        (b.books ?? []).some((v) => v.market === market && v.state === 'live'),
    )
  }

  /** Data the stream (not REST) delivered for `market` after `mark`: a trade, or a live book it sent. */
  streamed(market: string, mark: number): boolean {
    return this.since(mark).some(
      (b) =>
        (b.trades ?? []).some((t) => t.market === market) ||
        (b.books ?? []).some((v) => v.market === market && v.state === 'live' && v.source !== 'rest'),
    )
  }

  /** A book view for `market` after `mark` with the given state. */
  bookState(market: string, state: BookView['state'], mark = 0): boolean {
    return this.since(mark).some((b) => (b.books ?? []).some((v) => v.market === market && v.state === state))
  }

  userData(mark: number): boolean {
    return this.since(mark).some((b) => (b.user ?? []).length > 0)
  }

  latestBook(market: string): BookView | undefined {
    for (let i = this.batches.length - 1; i >= 0; i--) {
      const v = this.batches[i]?.books?.find((x) => x.market === market)
      if (v) return v
    }
    return undefined
  }

  status(): StreamStatus | undefined {
    for (let i = this.batches.length - 1; i >= 0; i--) {
      const s = this.batches[i]?.status
      if (s) return s
    }
    return undefined
  }

  sawState(state: StreamStatus['state'], mark = 0): boolean {
    return this.since(mark).some((b) => b.status?.state === state)
  }
}

export interface Harness {
  sim: Simulator
  engine: MonitorEngine
  log: CapturedLog
  credentials: CredentialStore
  profileId: string
  attach(label?: string, keepText?: boolean): { client: MonitorClient; rec: Recorder }
  close(): Promise<void>
}

export async function startSim(config?: SimConfig, seed = 7): Promise<Simulator> {
  return createSimulator({ seed, tickMs: 50, pingMs: 1000, ...(config ? { config } : {}) })
}

export async function startHarness(
  options: {
    sim?: Simulator
    config?: SimConfig
    stream?: StreamTuning
    eventsCacheMs?: number
    /** Resync pacing over the harness's own (a first retry after 1 s). */
    resync?: Partial<ResyncConfig>
    settingsPath?: string
    /** Where the engine connects instead of the simulator itself (a fault proxy in front of it). */
    endpoint?: { baseUrl: string; wsUrl: string }
  } = {},
): Promise<Harness> {
  const sim = options.sim ?? (await startSim(options.config))
  const log = captureLogger(process.env.ENGINE_LOG === '1')
  const credentials = createMemoryStore()
  const engine = await createMonitor({
    settingsPath: options.settingsPath ?? null,
    credentials,
    demo: false,
    logger: log.logger,
    fanoutIntervalMs: 10,
    resync: { baseMs: 1000, ...options.resync },
    stream: options.stream ?? FAST_STREAM,
    ...(options.eventsCacheMs !== undefined ? { eventsCacheMs: options.eventsCacheMs } : {}),
  })
  const clients: MonitorClient[] = []
  const attach = (label?: string, keepText = false) => {
    const rec = new Recorder(keepText)
    const client = engine.attachClient({ label: label ?? 'test', sink: rec.sink })
    clients.push(client)
    return { client, rec }
  }
  // Point the engine at this simulator through the public API, as a user would.
  const setup = attach('setup')
  const endpoint = options.endpoint ?? { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl }
  const saved = await setup.client.saveProfile({ name: 'sim', ...endpoint })
  if (!saved.ok) throw new Error(`saveProfile failed: ${saved.error.message}`)
  const selected = await setup.client.selectProfile(saved.value.id)
  if (!selected.ok) throw new Error(`selectProfile failed: ${selected.error.message}`)
  setup.client.dispose()
  return {
    sim,
    engine,
    log,
    credentials,
    profileId: saved.value.id,
    attach,
    close: async () => {
      for (const c of clients) c.dispose()
      await engine.close()
      if (!options.sim) await sim.close()
    },
  }
}

/** The simulator's listing: a few market ids and an event whose markets are distinct from them. */
export function pickTargets(sim: Simulator): { market: string; event: string; eventMarket: string } {
  const events = sim.listing().events
  const first = events[0]
  const second = events[1]
  if (!first || !second) throw new Error('the simulator lists fewer than two events')
  const market = first.markets[0]?.id
  const eventMarket = second.markets[0]?.id
  if (!market || !eventMarket) throw new Error('events without markets')
  return { market, event: second.id, eventMarket }
}

export async function waitForAll(
  rec: Recorder,
  mark: number,
  targets: { market: string; eventMarket: string },
  what: string,
): Promise<void> {
  await waitFor(() => rec.marketData(targets.market, mark), `${what}: market data`, 15_000)
  await waitFor(() => rec.marketData(targets.eventMarket, mark), `${what}: event market data`, 15_000)
  await waitFor(() => rec.userData(mark), `${what}: user data`, 15_000)
}
