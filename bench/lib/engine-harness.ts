// The full engine as a product shell drives it: createMonitor() pointed at the bench simulator, N attached
// clients (windows) with counting sinks, each watching the same markets. Latency samples are taken in the sink.
import type { ViewBatch } from '../../src/shared/ipc'
import { createMemoryStore } from '../../src/main/services'
import { createMonitor } from '../../src/main/services'
import type { Logger, MonitorClient, MonitorEngine } from '../../src/main/services'
import { SampleSet } from './stats'

export interface SinkTotals {
  batches: number
  trades: number
  books: number
  /** Counted from the first client only (every client gets the same): ViewBatch.alertsFired entries by kind. */
  alertsFired: number
  alertsHeld: number
  /** Batches to the first client that carried the whole alerts view (ViewBatch.alerts). */
  alertViews: number
}

export interface EngineHarness {
  engine: MonitorEngine
  clients: MonitorClient[]
  totals: SinkTotals
  /** Frames the engine has counted (StreamStatus.counters.frames). */
  frames(): Promise<number>
  /** While on, every TradeView in every batch adds `batch.at - trade.receivedAt` (and `batch.at - trade.ts`). */
  sampling(on: boolean): void
  /** Frame receipt -> emitted batch, ms. */
  frameToBatch: SampleSet
  /** Exchange timestamp (simulator clock, same machine) -> emitted batch, ms: includes socket queueing. */
  exchangeToBatch: SampleSet
  /** Log lines at warn/error level (should stay empty). */
  problems: string[]
  /** The bench profile, as saved (its id and endpoints), for phases that edit it. */
  profile: { id: string; name: string; baseUrl: string; wsUrl: string }
  close(): Promise<void>
}

/**
 * Epoch milliseconds with sub-millisecond resolution. Given to the engine as its clock so frame receipt and batch
 * times resolve below 1 ms; both stay epoch-based, so behaviour is the same as with Date.now.
 */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now()
}

export async function startEngine(opts: {
  wsUrl: string
  baseUrl: string
  markets: string[]
  clients: number
}): Promise<EngineHarness> {
  const problems: string[] = []
  const logger: Logger = {
    info: () => {},
    warn: (m, f) => problems.push(`warn ${m} ${JSON.stringify(f ?? {})}`),
    error: (m, f) => problems.push(`error ${m} ${JSON.stringify(f ?? {})}`),
  }
  const engine = await createMonitor({
    settingsPath: null,
    credentials: createMemoryStore(),
    demo: false,
    logger,
    now: preciseNow,
  })
  const totals: SinkTotals = { batches: 0, trades: 0, books: 0, alertsFired: 0, alertsHeld: 0, alertViews: 0 }
  const frameToBatch = new SampleSet()
  const exchangeToBatch = new SampleSet()
  let sampling = false
  const sink = (batch: ViewBatch, first: boolean): void => {
    totals.batches++
    if (first) {
      if (batch.alerts !== undefined) totals.alertViews++
      if (batch.alertsFired !== undefined)
        for (const e of batch.alertsFired) {
          if (e.kind === 'fired') totals.alertsFired++
          else totals.alertsHeld++
        }
    }
    if (batch.books !== undefined) totals.books += batch.books.length
    const trades = batch.trades
    if (trades === undefined) return
    totals.trades += trades.length
    if (!sampling) return
    for (const t of trades) {
      frameToBatch.add(batch.at - t.receivedAt)
      exchangeToBatch.add(batch.at - t.ts)
    }
  }
  const clients: MonitorClient[] = []
  for (let i = 0; i < opts.clients; i++)
    clients.push(engine.attachClient({ label: `bench-${i + 1}`, sink: (b) => sink(b, i === 0) }))
  const first = clients[0]
  if (first === undefined) throw new Error('need at least one client')

  const must = <T>(
    r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
  ): T => {
    if (!r.ok) throw new Error(`engine: ${r.error.code}: ${r.error.message}`)
    return r.value
  }
  const profile = must(await first.saveProfile({ name: 'bench', baseUrl: opts.baseUrl, wsUrl: opts.wsUrl }))
  must(await first.selectProfile(profile.id))
  const interests = opts.markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const }))
  for (const c of clients) must(await c.setInterests(interests))

  const frames = async (): Promise<number> => must(await first.getStatus()).counters.frames

  // Wait until the stream is live and every market's snapshot arrived, so measurement starts from steady state.
  const deadline = Date.now() + 20_000
  for (;;) {
    const s = must(await first.getStatus())
    if (s.state === 'live' && s.counters.frames >= opts.markets.length) break
    if (Date.now() > deadline)
      throw new Error(`engine did not go live (state ${s.state}, ${s.counters.frames} frames)`)
    await new Promise((r) => setTimeout(r, 50))
  }

  return {
    engine,
    clients,
    totals,
    frames,
    sampling: (on) => {
      sampling = on
    },
    frameToBatch,
    exchangeToBatch,
    problems,
    profile: { id: profile.id, name: profile.name, baseUrl: opts.baseUrl, wsUrl: opts.wsUrl },
    close: async () => {
      for (const c of clients) c.dispose()
      await engine.close()
    },
  }
}
