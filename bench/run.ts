// `npm run bench [-- --json] [-- --seconds N] [-- --only raw|engine|latency]`: the engine benchmark (README.md).
// One run measures, against the simulator in a separate process:
//   1. raw ceiling: a bare ws client that only JSON.parses, at saturation
//   2. the full engine (decode, books, tapes, fan-out to 4 clients) at saturation, and the ratio of the two
//   3. frame-receipt -> batch latency (p50/p99, from TradeView.receivedAt to ViewBatch.at) at a fixed offered load
//   4. heap growth over the engine's run (after forced GC)
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import type { Incident } from '../src/shared/model'
import { firehoseId } from '../src/sim/firehose'
import { startEngine, type EngineHarness } from './lib/engine-harness'
import { connectRawClient } from './lib/raw-client'
import { drain, measureSaturation, saturateFor, type SaturationResult } from './lib/saturate'
import { spawnSimChild, type SimChild } from './lib/sim-control'
import { schedSample, threadTime } from './lib/cpu'
import { round } from './lib/stats'

const MARKETS = 100
const CLIENTS = 4
const OFFERED_RATE = 50_000
/** The raw client reads in bursts (see RawClient.burst): paused this long in every period. */
const RAW_PAUSE_MS = Number(process.env.BENCH_RAW_PAUSE_MS ?? 10)
const RAW_PERIOD_MS = Number(process.env.BENCH_RAW_PERIOD_MS ?? 20)
/**
 * About one firehose message in eight is a trade (measured), so 100 markets x 2000-trade tapes fill after about
 * 1.6M messages; the heap was measured to level off between 1.8M and 2.4M. Hence 2.5M.
 */
const WARM_MESSAGES = 2_500_000

const USAGE = 'usage: npm run bench [-- --json] [-- --seconds N] [-- --only raw|engine|latency]'

type Phase = 'raw' | 'engine' | 'latency'

interface Args {
  json: boolean
  seconds: number
  only: Phase | null
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = { json: false, seconds: 10, only: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    // `npm run bench -- --json -- --seconds 5` passes the second `--` through.
    if (a === '--') continue
    if (a === '--json') args.json = true
    else if (a === '--seconds') {
      const n = Number(argv[++i])
      if (!(n >= 1 && n <= 120)) throw new UsageError('--seconds must be a number in [1, 120]')
      args.seconds = n
    } else if (a === '--only') {
      const p = argv[++i]
      if (p !== 'raw' && p !== 'engine' && p !== 'latency')
        throw new UsageError('--only must be raw, engine or latency')
      args.only = p
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(
        'usage: npm run bench [-- --json] [-- --seconds N] [-- --only raw|engine|latency]\n',
      )
      process.exit(0)
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}`)
  }
  return args
}

/** Forced GC needs --expose-gc; without it, re-run this script under the same loader with the flag added. */
function ensureGc(): (() => void) | null {
  const gc = (globalThis as { gc?: () => void }).gc
  if (typeof gc === 'function') return gc
  if (process.env.BENCH_GC_RESPAWNED === '1') return null
  const script = process.argv[1]
  if (script === undefined) return null
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, '--expose-gc', script, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, BENCH_GC_RESPAWNED: '1' },
    },
  )
  process.exit(r.status ?? 1)
}

function summariseIncidents(list: readonly Incident[]): string {
  const byKind = new Map<string, number>()
  for (const i of list) byKind.set(i.kind, (byKind.get(i.kind) ?? 0) + 1)
  return [...byKind].map(([k, n]) => `${k} x${n}`).join(', ')
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

function heapMb(gc: (() => void) | null): number {
  if (gc) {
    gc()
    gc()
  }
  return process.memoryUsage().heapUsed / (1024 * 1024)
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

function pct(v: number): string {
  return `${Math.round(v * 100)}%`
}

/** Where the consumer's thread spent the window: the evidence for (or against) "it was the bottleneck". */
function limitNote(r: SaturationResult, bursty = false): string {
  const c = r.consumer
  if (c === null) return 'no scheduler stats on this OS'
  const who = bursty
    ? 'reads in bursts, so idle includes its pauses'
    : c.idle > 0.1
      ? 'NOT saturated: waited for data'
      : 'saturated'
  const sim = r.simulator
    ? `; simulator thread busy ${pct(r.simulator.busy)}, waiting ${pct(r.simulator.waiting)}`
    : ''
  return `${who}: thread busy ${pct(c.busy)}, waiting for a core ${pct(c.waiting)}, idle ${pct(c.idle)}${sim}`
}

async function rawPhase(sim: SimChild, ids: string[], seconds: number, log: (s: string) => void) {
  const raw = await connectRawClient(sim.wsUrl)
  try {
    await raw.subscribe(ids)
    log(`raw: bare ws client + JSON.parse, saturating for ${seconds} s ...`)
    raw.burst(RAW_PAUSE_MS, RAW_PERIOD_MS)
    const r = await measureSaturation({
      sim,
      markets: MARKETS,
      count: () => raw.frames,
      warmupMs: 2_000,
      measureMs: seconds * 1000,
    })
    raw.burst(0, 0)
    await drain(() => raw.frames)
    if (raw.parseErrors > 0) throw new Error(`raw client saw ${raw.parseErrors} invalid frames`)
    return r
  } finally {
    await raw.close()
  }
}

async function latencyPhase(sim: SimChild, h: EngineHarness, seconds: number, log: (s: string) => void) {
  log(`latency: open-loop firehose at ${fmt(OFFERED_RATE)} msgs/s for ${seconds} s ...`)
  h.frameToBatch.clear()
  h.exchangeToBatch.clear()
  await sim.firehose(OFFERED_RATE, MARKETS)
  await sleep(2_000)
  const s0 = await sim.stats()
  const f0 = await h.frames()
  const self0 = schedSample()
  const t0 = performance.now()
  h.sampling(true)
  await sleep(seconds * 1000)
  h.sampling(false)
  const s1 = await sim.stats()
  const f1 = await h.frames()
  const self1 = schedSample()
  const t1 = performance.now()
  await sim.stop()
  const secs = (t1 - t0) / 1000
  // Unread messages when the window closed: large means the engine could not keep up with the offered load.
  const backlog = s1.sent - (f1 - f0) - s0.sent
  return {
    offered: (s1.sent - s0.sent) / secs,
    processed: (f1 - f0) / secs,
    backlogAtEnd: Math.max(0, backlog),
    p50: h.frameToBatch.percentile(50),
    p99: h.frameToBatch.percentile(99),
    max: h.frameToBatch.max(),
    samples: h.frameToBatch.count,
    wireP50: h.exchangeToBatch.percentile(50),
    wireP99: h.exchangeToBatch.percentile(99),
    engineThread: threadTime(self0, self1),
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const gc = ensureGc()
  const log = (s: string): void => {
    process.stderr.write(`${s}\n`)
  }
  const cores = cpus().length
  const load = loadavg()[0] ?? 0
  const ids = Array.from({ length: MARKETS }, (_, i) => firehoseId(i))
  const startedAt = performance.now()
  const wanted = (p: Phase): boolean => args.only === null || args.only === p

  log(
    `bench: ${cores} CPU cores (simulator in a separate process, engine on this one), load average ${load.toFixed(2)}`,
  )
  const sim = await spawnSimChild()
  let raw: SaturationResult | null = null
  let engine: SaturationResult | null = null
  let latency: Awaited<ReturnType<typeof latencyPhase>> | null = null
  let heapBefore: number | null = null
  let heapWarm: number | null = null
  let heapAfter: number | null = null
  let warmMessages = 0
  let heapMid: number | null = null
  // Written from a callback, so an object (TypeScript does not track closure assignments to locals).
  const batchWindow: { n: number; t: number; rate: number | null } = { n: 0, t: 0, rate: null }
  let engineInfo = {
    batches: 0,
    trades: 0,
    reconnects: 0,
    problems: [] as string[],
    incidents: '',
    counters: '',
  }
  try {
    if (wanted('raw')) raw = await rawPhase(sim, ids, args.seconds, log)

    if (wanted('engine') || wanted('latency')) {
      heapBefore = heapMb(gc)
      const h = await startEngine({ wsUrl: sim.wsUrl, baseUrl: sim.baseUrl, markets: ids, clients: CLIENTS })
      try {
        // Fill the bounded stores (trade tapes and their dedupe sets, see WARM_MESSAGES) before
        // the heap baseline, so heap growth afterwards means unbounded growth, not stores reaching their size.
        log(`engine: warming up (filling trade tapes) ...`)
        warmMessages = await saturateFor(
          { sim, markets: MARKETS, count: () => h.frames() },
          WARM_MESSAGES,
          Math.max(20_000, args.seconds * 1000),
        )
        await drain(() => h.frames())
        heapWarm = heapMb(gc)
        if (wanted('engine')) {
          log(`engine: ${CLIENTS} clients x ${MARKETS} markets, saturating for ${args.seconds} s ...`)
          engine = await measureSaturation({
            sim,
            markets: MARKETS,
            count: () => h.frames(),
            warmupMs: 1_000,
            onWindow: (edge) => {
              if (edge === 'start') {
                batchWindow.n = h.totals.batches
                batchWindow.t = performance.now()
              } else {
                const secs = (performance.now() - batchWindow.t) / 1000
                batchWindow.rate = (h.totals.batches - batchWindow.n) / CLIENTS / secs
              }
            },
            measureMs: args.seconds * 1000,
          })
          await drain(() => h.frames())
          heapMid = heapMb(gc)
        }
        if (wanted('latency')) latency = await latencyPhase(sim, h, args.seconds, log)
        await drain(() => h.frames())
        await sleep(100)
        heapAfter = heapMb(gc)
        const status = await h.clients[0]?.getStatus()
        engineInfo = {
          batches: h.totals.batches,
          trades: h.totals.trades,
          reconnects: status?.ok ? status.value.reconnects : -1,
          problems: h.problems.slice(0, 5),
          // Incidents (resyncs, bad frames) would mean the run measured recovery, not the data path.
          incidents: status?.ok ? summariseIncidents(status.value.incidents) : '',
          counters: status?.ok ? JSON.stringify(status.value.counters) : '',
        }
      } finally {
        await h.close()
      }
    }
  } finally {
    await sim.close()
  }

  const ratio = raw !== null && engine !== null ? engine.msgsPerSec / raw.msgsPerSec : null
  const ratioCpu =
    raw?.msgsPerCpuSec != null && engine?.msgsPerCpuSec != null
      ? engine.msgsPerCpuSec / raw.msgsPerCpuSec
      : null
  const heapGrowth = heapWarm !== null && heapAfter !== null ? heapAfter - heapWarm : null
  const result = {
    raw_msgs_per_sec: raw ? Math.round(raw.msgsPerSec) : null,
    engine_msgs_per_sec: engine ? Math.round(engine.msgsPerSec) : null,
    ratio: round(ratio, 3),
    offered_msgs_per_sec: latency ? Math.round(latency.offered) : null,
    p50_frame_to_batch_ms: latency ? round(latency.p50) : null,
    p99_frame_to_batch_ms: latency ? round(latency.p99) : null,
    heap_growth_mb: round(heapGrowth),
    // Extras.
    target_offered_msgs_per_sec: OFFERED_RATE,
    processed_at_offered_msgs_per_sec: latency ? Math.round(latency.processed) : null,
    backlog_at_end_of_latency_window: latency ? latency.backlogAtEnd : null,
    max_frame_to_batch_ms: latency ? round(latency.max) : null,
    latency_samples: latency ? latency.samples : null,
    p50_exchange_ts_to_batch_ms: latency ? round(latency.wireP50) : null,
    p99_exchange_ts_to_batch_ms: latency ? round(latency.wireP99) : null,
    raw_msgs_per_cpu_sec: raw?.msgsPerCpuSec != null ? Math.round(raw.msgsPerCpuSec) : null,
    engine_msgs_per_cpu_sec: engine?.msgsPerCpuSec != null ? Math.round(engine.msgsPerCpuSec) : null,
    ratio_per_cpu_sec: round(ratioCpu, 3),
    raw_thread_idle: raw?.consumer ? round(raw.consumer.idle) : null,
    raw_thread_waiting_for_cpu: raw?.consumer ? round(raw.consumer.waiting) : null,
    engine_thread_idle: engine?.consumer ? round(engine.consumer.idle) : null,
    engine_thread_waiting_for_cpu: engine?.consumer ? round(engine.consumer.waiting) : null,
    engine_thread_busy_at_offered: latency?.engineThread ? round(latency.engineThread.busy) : null,
    engine_thread_waiting_for_cpu_at_offered: latency?.engineThread
      ? round(latency.engineThread.waiting)
      : null,
    warm_up_messages: warmMessages,
    heap_growth_latency_phase_mb: heapMid !== null && heapAfter !== null ? round(heapAfter - heapMid) : null,
    heap_engine_total_mb: heapBefore !== null && heapAfter !== null ? round(heapAfter - heapBefore) : null,
    gc_forced: gc !== null,
    markets: MARKETS,
    clients: CLIENTS,
    measure_seconds: args.seconds,
    cpu_cores: cores,
    load_average_1m: round(load),
    engine_batches: engineInfo.batches,
    batches_per_client_per_sec_at_saturation: round(batchWindow.rate, 1),
    engine_reconnects: engineInfo.reconnects,
    engine_incidents: engineInfo.incidents,
    total_seconds: round((performance.now() - startedAt) / 1000, 1),
    node: process.version,
  }

  if (args.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`)
    return
  }
  const out: string[] = []
  out.push(
    `Trading Monitor engine benchmark (${process.version}, ${cores} CPU cores shared by engine and simulator;`,
  )
  out.push(
    `  simulator in its own process; load average at start ${load.toFixed(2)}; ${args.seconds} s per phase)`,
  )
  const perMsg = (r: SaturationResult): string =>
    r.msgsPerCpuSec !== null ? `${(1e6 / r.msgsPerCpuSec).toFixed(2)} us CPU/msg` : ''
  if (raw) {
    out.push(
      `raw ceiling     ${fmt(raw.msgsPerSec).padStart(9)} msgs/s  bare ws + JSON.parse, ${MARKETS} markets; ${perMsg(raw)}`,
    )
    out.push(`                  (${limitNote(raw, true)})`)
  }
  if (engine) {
    out.push(
      `engine          ${fmt(engine.msgsPerSec).padStart(9)} msgs/s  decode + books + tapes + fan-out to ${CLIENTS} clients; ${perMsg(engine)}`,
    )
    out.push(`                  (${limitNote(engine)})`)
  }
  if (ratio !== null) {
    out.push(
      `ratio           ${ratio.toFixed(3).padStart(9)}         engine / raw (target >= 0.7: ${ratio >= 0.7 ? 'met' : 'NOT met'})`,
    )
  }
  if (ratioCpu !== null)
    out.push(
      `ratio per CPU-s ${ratioCpu.toFixed(3).padStart(9)}         same, per CPU-second of the consuming process: the contention-free estimate`,
    )
  if (latency) {
    const p99 = latency.p99
    out.push(
      `offered load    ${fmt(latency.offered).padStart(9)} msgs/s  asked for ${fmt(OFFERED_RATE)}; engine processed ${fmt(latency.processed)} msgs/s, ${fmt(latency.backlogAtEnd)} unread at the end` +
        (latency.engineThread
          ? `; engine thread busy ${pct(latency.engineThread.busy)}, waiting for a core ${pct(latency.engineThread.waiting)}`
          : ''),
    )
    out.push(
      `frame -> batch  p50 ${String(round(latency.p50)).padStart(6)} ms, p99 ${String(round(p99))} ms, max ${String(round(latency.max))} ms over ${fmt(latency.samples)} trades (target p99 <= 20 ms: ${p99 !== null && p99 <= 20 ? 'met' : 'NOT met'})`,
    )
    out.push(
      `exchange ts -> batch  p50 ${String(round(latency.wireP50))} ms, p99 ${String(round(latency.wireP99))} ms (includes simulator tick and socket queueing)`,
    )
  }
  if (heapGrowth !== null) {
    out.push(
      `heap growth     ${heapGrowth.toFixed(2).padStart(9)} MB      warm engine -> end of run (${gc ? 'after forced GC' : 'no forced GC available'}); engine total ${result.heap_engine_total_mb} MB`,
    )
    out.push(
      `                  warm-up: ${fmt(warmMessages)} messages` +
        (warmMessages < WARM_MESSAGES
          ? ` (< ${fmt(WARM_MESSAGES)}: bounded stores may still have been growing at the baseline)`
          : ' (bounded stores at working size at the baseline)') +
        (result.heap_growth_latency_phase_mb !== null
          ? `; growth during the latency phase alone ${result.heap_growth_latency_phase_mb} MB`
          : ''),
    )
  }
  if (engine || latency) {
    out.push(
      `engine reconnects during run: ${engineInfo.reconnects}; batches delivered: ${fmt(engineInfo.batches)}` +
        (batchWindow.rate !== null
          ? `; at saturation ${batchWindow.rate.toFixed(1)} batches/s per client (~60 wanted)`
          : ''),
    )
    out.push(`engine incidents: ${engineInfo.incidents || 'none'}; counters ${engineInfo.counters}`)
    for (const p of engineInfo.problems) out.push(`engine log: ${p}`)
  }
  out.push(`total ${result.total_seconds} s`)
  process.stdout.write(`${out.join('\n')}\n`)
}

main().catch((e: unknown) => {
  if (e instanceof UsageError) {
    process.stderr.write(`bench: ${e.message} (${USAGE})\n`)
    process.exit(2)
  }
  process.stderr.write(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
