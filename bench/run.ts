// `npm run bench [-- --json] [-- --seconds N] [-- --pairs N] [-- --alert-pairs N] [-- --only raw|engine|latency|alerts|decoder]`:
// the engine benchmark (README.md). This file is the command: it reads the arguments, starts the processes once
// for every phase, runs the phases in order on them and prints one report (text or one JSON line). One run
// measures, against two simulators in separate processes (one per consumer):
//   1. raw ceiling: a bare ws client that only JSON.parses (in its own process, raw-child.ts), at saturation
//   2. the full engine (decode, books, tapes, fan-out to 4 clients; in this process) at saturation
//      1 and 2 alternate in pairs of short windows (raw, engine, engine, raw, ...); every figure is reported as
//      the median over the pairs with its spread, and the ratios are computed pair by pair
//   3. frame-receipt -> batch latency (p50/p99, from TradeView.receivedAt to ViewBatch.at) at a fixed offered load
//      (lib/latency-phase.ts)
//   4. heap growth over the engine's run (after forced GC)
//   5. alerts: the engine at saturation without rules and with 1,000 armed alert rules over the 100 markets, in
//      alternating pairs of windows on the same engine (rules saved before a with-window, deleted after it),
//      and a window at the 50k msgs/s offered load with the rules armed (lib/alerts-phase.ts)
//   6. decoder: the engine at saturation reading with the simulator's adapter and with the built-in tolerant
//      decoder, switched between windows of the same engine (lib/decoder-phase.ts)
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Incident } from '../src/shared/model'
import { firehoseId } from '../src/sim/firehose'
import { alertsJson, alertsPhase, alertsText, type AlertsPhase } from './lib/alerts-phase'
import { decoderJson, decoderPhase, decoderText, type DecoderPhase } from './lib/decoder-phase'
import { startEngine, type EngineHarness } from './lib/engine-harness'
import { latencyPhase, type LatencyResult } from './lib/latency-phase'
import { consumerFlags } from './lib/node-flags'
import { watchGc } from './lib/probe'
import { spawnRawChild, type RawChild } from './lib/raw-control'
import { fmt, limitNote, pct, range, windowJson } from './lib/report'
import { drain, measureSaturation, saturateFor, type SaturationResult } from './lib/saturate'
import { spawnSimChild, type SimChild } from './lib/sim-control'
import { median, spread } from './lib/spread'
import { round } from './lib/stats'
import { CLIENTS, ENGINE_TRICKLE_RATE, MARKETS, OFFERED_RATE, WINDOW_WARMUP_MS } from './lib/workload'

/** The raw client reads in bursts (see RawClient.burst): paused this long in every period. */
const RAW_PAUSE_MS = Number(process.env.BENCH_RAW_PAUSE_MS ?? 10)
const RAW_PERIOD_MS = Number(process.env.BENCH_RAW_PERIOD_MS ?? 20)
/**
 * About one firehose message in nine is a trade (measured), so 100 markets x 2000-trade tapes fill after about
 * 1.85M messages. Hence 2.5M. (The heap plateau between 1.8M and 2.4M was measured before the firehose traded in
 * every market; see bench/README.md.)
 */
const WARM_MESSAGES = 2_500_000
/** The warm-up stops here even short of WARM_MESSAGES (a busy machine), to keep the run near 90 s. */
const WARM_MAX_MS = 15_000

const USAGE =
  'usage: npm run bench [-- --json] [-- --seconds N] [-- --pairs N] [-- --alert-pairs N] [-- --only raw|engine|latency|alerts|decoder]'

const PHASES = ['raw', 'engine', 'latency', 'alerts', 'decoder'] as const
type Phase = (typeof PHASES)[number]

interface Args {
  json: boolean
  /** Length of each raw or engine window; the latency window is three times this. */
  seconds: number
  pairs: number
  /** Without-rules / with-rules window pairs of the alerts phase. */
  alertPairs: number
  only: Phase | null
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = { json: false, seconds: 2, pairs: 8, alertPairs: 6, only: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    // `npm run bench -- --json -- --seconds 5` passes the second `--` through.
    if (a === '--') continue
    if (a === '--json') args.json = true
    else if (a === '--seconds') {
      const n = Number(argv[++i])
      if (!(n >= 1 && n <= 120)) throw new UsageError('--seconds must be a number in [1, 120]')
      args.seconds = n
    } else if (a === '--pairs') {
      const n = Number(argv[++i])
      if (!(Number.isInteger(n) && n >= 1 && n <= 50))
        throw new UsageError('--pairs must be an integer in [1, 50]')
      args.pairs = n
    } else if (a === '--alert-pairs') {
      const n = Number(argv[++i])
      if (!(Number.isInteger(n) && n >= 1 && n <= 50))
        throw new UsageError('--alert-pairs must be an integer in [1, 50]')
      args.alertPairs = n
    } else if (a === '--only') {
      const p = argv[++i]
      const phase = PHASES.find((x) => x === p)
      if (phase === undefined) throw new UsageError(`--only must be ${PHASES.join(', ')}`)
      args.only = phase
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n`)
      process.exit(0)
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}`)
  }
  return args
}

/**
 * Forced GC needs --expose-gc, and the engine runs with the consumers' heap flags (lib/node-flags.ts); without
 * them, re-run this script under the same loader with the flags added.
 */
function ensureFlags(): (() => void) | null {
  const gc = (globalThis as { gc?: () => void }).gc
  const missing = ['--expose-gc', ...consumerFlags()].filter((f) => !process.execArgv.includes(f))
  if (typeof gc === 'function' && missing.length === 0) return gc
  if (process.env.BENCH_GC_RESPAWNED === '1') return typeof gc === 'function' ? gc : null
  const script = process.argv[1]
  if (script === undefined) return null
  const r = spawnSync(process.execPath, [...process.execArgv, ...missing, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_GC_RESPAWNED: '1' },
  })
  process.exit(r.status ?? 1)
}

function summariseIncidents(list: readonly Incident[]): string {
  const byKind = new Map<string, number>()
  for (const i of list) byKind.set(i.kind, (byKind.get(i.kind) ?? 0) + 1)
  return [...byKind].map(([k, n]) => `${k} x${n}`).join(', ')
}

function heapMb(gc: (() => void) | null): number {
  if (gc) {
    gc()
    gc()
  }
  return process.memoryUsage().heapUsed / (1024 * 1024)
}

interface Pair {
  raw: SaturationResult | null
  engine: SaturationResult | null
  batchesPerClientPerSec: number | null
}

function pairRatio(p: Pair, perCpu: boolean): number | null {
  if (p.raw === null || p.engine === null) return null
  const r = perCpu ? p.raw.msgsPerCpuSec : p.raw.msgsPerSec
  const e = perCpu ? p.engine.msgsPerCpuSec : p.engine.msgsPerSec
  return r !== null && e !== null && r > 0 ? e / r : null
}

async function rawWindow(sim: SimChild, raw: RawChild, seconds: number): Promise<SaturationResult> {
  const count = async (): Promise<number> => (await raw.count()).count
  await raw.burst(RAW_PAUSE_MS, RAW_PERIOD_MS)
  const r = await measureSaturation({
    sim,
    markets: MARKETS,
    count,
    warmupMs: WINDOW_WARMUP_MS,
    measureMs: seconds * 1000,
    // It reads in bursts, which builds the backlog; holding this thread (not the raw client's) would not.
    primeMs: 0,
    consumer: { pid: raw.pid, meter: raw.meter },
  })
  await raw.burst(0, 0)
  const { parseErrors } = await raw.count()
  if (parseErrors > 0) throw new Error(`raw client saw ${parseErrors} invalid frames`)
  return r
}

async function engineWindow(
  sim: SimChild,
  h: EngineHarness,
  seconds: number,
  onWindow?: (edge: 'start' | 'end') => void,
): Promise<{ r: SaturationResult; batchesPerClientPerSec: number | null }> {
  // Written from a callback, so an object (TypeScript does not track closure assignments to locals).
  const batches: { n: number; t: number; rate: number | null } = { n: 0, t: 0, rate: null }
  const r = await measureSaturation({
    sim,
    markets: MARKETS,
    count: () => h.frames(),
    warmupMs: WINDOW_WARMUP_MS,
    onWindow: (edge) => {
      if (edge === 'start') {
        batches.n = h.totals.batches
        batches.t = performance.now()
      } else {
        const secs = (performance.now() - batches.t) / 1000
        batches.rate = (h.totals.batches - batches.n) / CLIENTS / secs
      }
      onWindow?.(edge)
    },
    measureMs: seconds * 1000,
  })
  return { r, batchesPerClientPerSec: batches.rate }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const gc = ensureFlags()
  watchGc()
  const startedAt = performance.now()
  const log = (s: string): void => {
    process.stderr.write(`[${((performance.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${s}\n`)
  }
  const cores = cpus().length
  const load = loadavg()[0] ?? 0
  const ids = Array.from({ length: MARKETS }, (_, i) => firehoseId(i))
  const wanted = (p: Phase): boolean => args.only === null || args.only === p
  const pairsWanted = wanted('raw') || wanted('engine')

  log(
    `bench: ${cores} CPU cores (simulators and the raw client in separate processes, engine in this one), load average ${load.toFixed(2)}`,
  )
  // One simulator per consumer: each only runs its firehose while its own window is measured, so the raw client
  // and the engine can stay connected (and warm) through every pair without receiving each other's load.
  const [rawSim, engineSim] = await Promise.all([
    wanted('raw') ? spawnSimChild() : Promise.resolve(null),
    wanted('engine') || wanted('latency') || wanted('alerts') || wanted('decoder')
      ? spawnSimChild()
      : Promise.resolve(null),
  ])
  const pairs: Pair[] = []
  let latency: LatencyResult | null = null
  let alerts: AlertsPhase | null = null
  let decoder: DecoderPhase | null = null
  let heapAfterAlerts: number | null = null
  let heapBefore: number | null = null
  let heapWarm: number | null = null
  let heapAfter: number | null = null
  let warmMessages = 0
  let heapMid: number | null = null
  let engineInfo = {
    batches: 0,
    trades: 0,
    reconnects: 0,
    problems: [] as string[],
    incidents: '',
    counters: '',
  }
  let raw: RawChild | null = null
  let h: EngineHarness | null = null
  try {
    if (rawSim !== null) {
      raw = await spawnRawChild(rawSim.wsUrl)
      await raw.subscribe(ids)
    }
    if (engineSim !== null) {
      heapBefore = heapMb(gc)
      const engine = await startEngine({
        wsUrl: engineSim.wsUrl,
        baseUrl: engineSim.baseUrl,
        markets: ids,
        clients: CLIENTS,
      })
      h = engine
      // Fill the bounded stores (trade tapes, see WARM_MESSAGES) before the heap baseline, so heap growth
      // afterwards means unbounded growth, not stores reaching their size. Also warms the JIT.
      log(`engine: warming up (filling trade tapes) ...`)
      warmMessages = await saturateFor(
        { sim: engineSim, markets: MARKETS, count: () => engine.frames() },
        WARM_MESSAGES,
        WARM_MAX_MS,
      )
      heapWarm = heapMb(gc)
      await engineSim.firehose(ENGINE_TRICKLE_RATE, MARKETS)
    }
    if (pairsWanted) {
      log(
        `raw and engine alternate: ${args.pairs} pairs of ${args.seconds} s windows ` +
          `(bare ws + JSON.parse; engine with ${CLIENTS} clients x ${MARKETS} markets) ...`,
      )
      for (let i = 0; i < args.pairs; i++) {
        const pair: Pair = { raw: null, engine: null, batchesPerClientPerSec: null }
        const doRaw = async (): Promise<void> => {
          if (rawSim !== null && raw !== null && wanted('raw'))
            pair.raw = await rawWindow(rawSim, raw, args.seconds)
        }
        const doEngine = async (): Promise<void> => {
          if (engineSim === null || h === null || !wanted('engine')) return
          const e = await engineWindow(engineSim, h, args.seconds)
          await engineSim.firehose(ENGINE_TRICKLE_RATE, MARKETS)
          pair.engine = e.r
          pair.batchesPerClientPerSec = e.batchesPerClientPerSec
        }
        // ABBA order (raw-engine, engine-raw, ...): a load that drifts during the run biases no side.
        if (i % 2 === 0) {
          await doRaw()
          await doEngine()
        } else {
          await doEngine()
          await doRaw()
        }
        pairs.push(pair)
        const us = (r: SaturationResult | null): string =>
          r?.msgsPerCpuSec != null ? `${(1e6 / r.msgsPerCpuSec).toFixed(2)} us/msg` : '-'
        const rc = pairRatio(pair, true)
        log(
          `  pair ${i + 1}: raw ${fmt(pair.raw?.msgsPerSec ?? null)} msgs/s (${us(pair.raw)}), ` +
            `engine ${fmt(pair.engine?.msgsPerSec ?? null)} msgs/s (${us(pair.engine)})` +
            (rc !== null ? `, ratio per CPU-s ${rc.toFixed(3)}` : ''),
        )
      }
      if (h !== null && wanted('engine')) heapMid = heapMb(gc)
    }
    if (engineSim !== null && h !== null) {
      if (wanted('latency')) latency = await latencyPhase(engineSim, h, args.seconds * 3, log)
      else await engineSim.stop()
      await drain(() => (h as EngineHarness).frames())
      await sleep(100)
      heapAfter = heapMb(gc)
      if (wanted('alerts')) {
        // After the heap figures above, so they keep their meaning; this phase has its own (rules deleted).
        await engineSim.firehose(ENGINE_TRICKLE_RATE, MARKETS)
        await sleep(300)
        alerts = await alertsPhase(engineSim, h, ids, args.alertPairs, args.seconds, log)
        await engineSim.stop()
        await drain(() => (h as EngineHarness).frames())
        await sleep(100)
        heapAfterAlerts = heapMb(gc)
      }
      if (wanted('decoder')) {
        decoder = await decoderPhase(engineSim, h, args.pairs, args.seconds, log)
        await engineSim.stop()
        await drain(() => (h as EngineHarness).frames())
      }
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
    }
  } finally {
    await h?.close()
    await raw?.close()
    await Promise.all([rawSim?.close(), engineSim?.close()])
  }

  const raws = pairs.map((p) => p.raw).filter((r) => r !== null)
  const engines = pairs.map((p) => p.engine).filter((r) => r !== null)
  const rawRate = raws.map((r) => r.msgsPerSec)
  const engineRate = engines.map((r) => r.msgsPerSec)
  const rawCpu = raws.map((r) => r.msgsPerCpuSec)
  const engineCpu = engines.map((r) => r.msgsPerCpuSec)
  const ratios = pairs.map((p) => pairRatio(p, false))
  const ratiosCpu = pairs.map((p) => pairRatio(p, true))
  const ratio = median(ratios)
  const ratioCpu = median(ratiosCpu)
  const med = (xs: (number | null)[]): number | null => {
    const m = median(xs)
    return m === null ? null : Math.round(m)
  }
  const medRound = (xs: (number | null)[], digits = 2): number | null => round(median(xs), digits)
  const heapGrowth = heapWarm !== null && heapAfter !== null ? heapAfter - heapWarm : null
  // All windows of a side together (CPU and messages summed): includes the occasional window with a major GC at
  // its weight, where the medians mostly leave it out.
  const amortized = (rs: SaturationResult[]): number | null => {
    const cpu = rs.reduce((a, r) => a + r.processCpuSeconds, 0)
    const msgs = rs.reduce((a, r) => a + r.messages, 0)
    return cpu > 0 ? msgs / cpu : null
  }
  const rawAmortized = amortized(raws)
  const engineAmortized = amortized(engines)
  const batchRate = median(pairs.map((p) => p.batchesPerClientPerSec))
  const alertsOut = alerts !== null ? alertsJson(alerts, heapAfter, heapAfterAlerts) : null
  const result = {
    // The original fields, now medians over the pairs (ratios: the median of the pair-by-pair ratios).
    raw_msgs_per_sec: med(rawRate),
    engine_msgs_per_sec: med(engineRate),
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
    raw_msgs_per_cpu_sec: med(rawCpu),
    engine_msgs_per_cpu_sec: med(engineCpu),
    ratio_per_cpu_sec: round(ratioCpu, 3),
    raw_thread_idle: medRound(raws.map((r) => r.consumer?.idle ?? null)),
    raw_thread_waiting_for_cpu: medRound(raws.map((r) => r.consumer?.waiting ?? null)),
    engine_thread_idle: medRound(engines.map((r) => r.consumer?.idle ?? null)),
    engine_thread_waiting_for_cpu: medRound(engines.map((r) => r.consumer?.waiting ?? null)),
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
    pair_count: pairs.length,
    cpu_cores: cores,
    load_average_1m: round(load),
    load_average_1m_at_end: round(loadavg()[0] ?? 0),
    engine_batches: engineInfo.batches,
    batches_per_client_per_sec_at_saturation: round(batchRate, 1),
    engine_reconnects: engineInfo.reconnects,
    engine_incidents: engineInfo.incidents,
    // Spreads over the pairs: min, q1, median, q3, max and (max - min) / median in percent.
    raw_msgs_per_sec_spread: spread(rawRate, 0),
    engine_msgs_per_sec_spread: spread(engineRate, 0),
    ratio_spread: spread(ratios),
    raw_msgs_per_cpu_sec_spread: spread(rawCpu, 0),
    engine_msgs_per_cpu_sec_spread: spread(engineCpu, 0),
    ratio_per_cpu_sec_spread: spread(ratiosCpu),
    raw_us_cpu_per_msg_spread: spread(
      rawCpu.map((v) => (v !== null && v > 0 ? 1e6 / v : null)),
      3,
    ),
    engine_us_cpu_per_msg_spread: spread(
      engineCpu.map((v) => (v !== null && v > 0 ? 1e6 / v : null)),
      3,
    ),
    engine_gc_share_of_cpu_spread: spread(
      engines.map((r) => (r.processCpuSeconds > 0 ? r.probe.gcMs / 1000 / r.processCpuSeconds : null)),
    ),
    // Amortized over all windows of a side (sum of messages / sum of CPU seconds), and their ratio.
    raw_msgs_per_cpu_sec_amortized: rawAmortized !== null ? Math.round(rawAmortized) : null,
    engine_msgs_per_cpu_sec_amortized: engineAmortized !== null ? Math.round(engineAmortized) : null,
    ratio_per_cpu_sec_amortized:
      rawAmortized !== null && engineAmortized !== null ? round(engineAmortized / rawAmortized, 3) : null,
    /**
     * Windows with old-generation GC work (gc_major_ms > 0: a mark-compact or incremental marking steps); they
     * often cost 10-35% more per message.
     */
    engine_windows_with_major_gc: engines.filter((r) => r.probe.gcMajorMs > 0).length,
    engine_msgs_per_read_spread: spread(
      engines.map((r) => r.probe.msgsPerRead),
      1,
    ),
    // In run order; odd pairs ran raw then engine, even pairs engine then raw.
    pairs: pairs.map((p) => ({
      ratio: round(pairRatio(p, false), 3),
      ratio_per_cpu_sec: round(pairRatio(p, true), 3),
      raw: windowJson(p.raw),
      engine: windowJson(p.engine, p.batchesPerClientPerSec),
    })),
    // The alerts phase (issue 11 item 5): with / without 1,000 rules, pair by pair; details in `alerts`.
    alerts_ratio: alertsOut?.ratio ?? null,
    alerts_ratio_per_cpu_sec: alertsOut?.ratio_per_cpu_sec ?? null,
    alerts: alertsOut,
    // The decoder phase (issue 16 item 6): the simulator's adapter / the built-in tolerant decoder, pair by pair.
    decoder_ratio_per_cpu_sec: decoder !== null ? decoderJson(decoder).ratio : null,
    decoder: decoder !== null ? decoderJson(decoder) : null,
    total_seconds: round((performance.now() - startedAt) / 1000, 1),
    node: process.version,
  }

  if (args.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`)
    return
  }
  const out: string[] = []
  out.push(
    `Trading Monitor engine benchmark (${process.version}, ${cores} CPU cores shared by engine, raw client and simulators;`,
  )
  out.push(
    `  load average ${load.toFixed(2)} at start, ${result.load_average_1m_at_end} at end; ` +
      `${pairs.length} raw/engine pairs` +
      (alerts !== null ? ` and ${alerts.pairs.length} alerts pairs` : '') +
      ` of ${args.seconds} s windows)`,
  )
  const usMed = (xs: (number | null)[]): string => {
    const m = median(xs)
    return m !== null && m > 0 ? `${(1e6 / m).toFixed(2)} us CPU/msg` : ''
  }
  if (raws.length > 0) {
    out.push(
      `raw ceiling     ${fmt(result.raw_msgs_per_sec).padStart(9)} msgs/s ${range(result.raw_msgs_per_sec_spread)}  bare ws + JSON.parse, ${MARKETS} markets; ${usMed(rawCpu)}`,
    )
    out.push(`                  (${limitNote(raws, true)})`)
  }
  if (engines.length > 0) {
    out.push(
      `engine          ${fmt(result.engine_msgs_per_sec).padStart(9)} msgs/s ${range(result.engine_msgs_per_sec_spread)}  decode + books + tapes + fan-out to ${CLIENTS} clients; ${usMed(engineCpu)}`,
    )
    out.push(`                  (${limitNote(engines)})`)
  }
  if (ratio !== null) {
    out.push(
      `ratio           ${ratio.toFixed(3).padStart(9)} ${range(result.ratio_spread, 3)}  engine / raw, pair by pair (target >= 0.7: ${ratio >= 0.7 ? 'met' : 'NOT met'})`,
    )
  }
  if (ratioCpu !== null)
    out.push(
      `ratio per CPU-s ${ratioCpu.toFixed(3).padStart(9)} ${range(result.ratio_per_cpu_sec_spread, 3)}  same, per CPU-second of the consuming process: the contention-free estimate`,
    )
  if (result.ratio_per_cpu_sec_amortized !== null)
    out.push(
      `  amortized     ${result.ratio_per_cpu_sec_amortized.toFixed(3).padStart(9)}         all windows summed (CPU and messages); ${result.engine_windows_with_major_gc} of ${engines.length} engine windows had old-generation GC work`,
    )
  if (engines.length > 0) {
    const gcShare = result.engine_gc_share_of_cpu_spread
    const reads = result.engine_msgs_per_read_spread
    out.push(
      `engine windows  GC pauses ${gcShare ? `${pct(gcShare.median)} of CPU [${pct(gcShare.min)}–${pct(gcShare.max)}]` : '-'}; ` +
        `${reads ? reads.median : '-'} msgs per socket read ${range(reads, 1)} (medians [min–max])`,
    )
  }
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
  if (engines.length > 0 || latency) {
    out.push(
      `engine reconnects during run: ${engineInfo.reconnects}; batches delivered: ${fmt(engineInfo.batches)}` +
        (batchRate !== null
          ? `; at saturation ${batchRate.toFixed(1)} batches/s per client (~60 wanted)`
          : ''),
    )
    out.push(`engine incidents: ${engineInfo.incidents || 'none'}; counters ${engineInfo.counters}`)
    for (const p of engineInfo.problems) out.push(`engine log: ${p}`)
  }
  if (alerts !== null && alertsOut !== null) out.push(...alertsText(alerts, alertsOut))
  if (decoder !== null) out.push(...decoderText(decoder))
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
