// `npm run bench [-- --json] [-- --seconds N] [-- --pairs N] [-- --alert-pairs N] [-- --only raw|engine|latency|alerts]`:
// the engine benchmark (README.md). One run measures, against two simulators in separate processes (one per consumer):
//   1. raw ceiling: a bare ws client that only JSON.parses (in its own process, raw-child.ts), at saturation
//   2. the full engine (decode, books, tapes, fan-out to 4 clients; in this process) at saturation
//      1 and 2 alternate in pairs of short windows (raw, engine, engine, raw, ...); every figure is reported as
//      the median over the pairs with its spread, and the ratios are computed pair by pair
//   3. frame-receipt -> batch latency (p50/p99, from TradeView.receivedAt to ViewBatch.at) at a fixed offered load
//   4. heap growth over the engine's run (after forced GC)
//   5. alerts: the engine at saturation without rules and with 1,000 armed alert rules over the 100 markets, in
//      alternating pairs of windows on the same engine (rules saved before a with-window, deleted after it),
//      and a window at the 50k msgs/s offered load with the rules armed
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import type { Incident } from '../src/shared/model'
import { firehoseId } from '../src/sim/firehose'
import {
  armRules,
  benchRules,
  checkRules,
  deleteRules,
  FIRING_RULES_PER_10_MARKETS,
  getAlerts,
  type RuleCheck,
} from './lib/alert-rules'
import { startEngine, type EngineHarness } from './lib/engine-harness'
import { consumerFlags } from './lib/node-flags'
import { watchGc } from './lib/probe'
import { spawnRawChild, type RawChild } from './lib/raw-control'
import { drain, measureSaturation, measureWindows, saturateFor, type SaturationResult } from './lib/saturate'
import { spawnSimChild, type SimChild } from './lib/sim-control'
import { schedSample, threadTime } from './lib/cpu'
import { median, spread, type Spread } from './lib/spread'
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
/**
 * While the raw client is measured, the engine's simulator sends this trickle (4 msgs/s per market): the engine
 * would otherwise see seconds of silence, mark its books stale and rebuild the connection (LIVENESS_DEFAULTS:
 * connection silence 3 s, market stale 4 s). About 0.3% of a core, in the engine's process, not the raw client's.
 */
const ENGINE_TRICKLE_RATE = 400
/** Saturation before each window is counted (after the priming hold), so the backlog is in steady state. */
const WINDOW_WARMUP_MS = 300
/** The warm-up stops here even short of WARM_MESSAGES (a busy machine), to keep the run near 90 s. */
const WARM_MAX_MS = 15_000
/** Issue 11: 1,000 armed rules over 100 markets cost at most 10% of the engine's throughput. */
const ALERT_RATIO_TARGET = 0.9
/**
 * After saving the rules, wait this long before measuring: the engine sends the windows the new alerts view at
 * most every 250 ms and writes the rules to settings 500 ms after the last edit (alert-relay.ts), and both belong
 * to editing the rules, not to evaluating them.
 */
const ALERT_SETTLE_MS = 700
/**
 * After deleting them, longer: the deleted rules (and the index rebuilt once per delete) are old-generation
 * garbage, and with 700 ms the without-window after a delete paid for collecting it (3 of 3: 5.2-5.5 us CPU/msg
 * against 4.4-4.7 in the other without-windows; concurrent marking runs on helper threads, in this process's
 * CPU time). With 2 s, no without-window had old-generation GC work (quiet machine, 6 pairs).
 */
const ALERT_DELETE_SETTLE_MS = 2_000
/** Saturation with the rules armed before the alerts pairs, to compile the alert code. */
const ALERT_WARM_MS = 1_500

const USAGE =
  'usage: npm run bench [-- --json] [-- --seconds N] [-- --pairs N] [-- --alert-pairs N] [-- --only raw|engine|latency|alerts]'

const PHASES = ['raw', 'engine', 'latency', 'alerts'] as const
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

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

function heapMb(gc: (() => void) | null): number {
  if (gc) {
    gc()
    gc()
  }
  return process.memoryUsage().heapUsed / (1024 * 1024)
}

function fmt(n: number | null): string {
  return n === null ? '-' : Math.round(n).toLocaleString('en-US')
}

function pct(v: number): string {
  return `${Math.round(v * 100)}%`
}

/** One window's figures and what explains them (JSON: one object per window inside `pairs`). */
function windowJson(r: SaturationResult | null, batchesPerClientPerSec: number | null = null) {
  if (r === null) return null
  const p = r.probe
  return {
    msgs_per_sec: Math.round(r.msgsPerSec),
    msgs_per_cpu_sec: r.msgsPerCpuSec !== null ? Math.round(r.msgsPerCpuSec) : null,
    us_cpu_per_msg: r.msgsPerCpuSec !== null ? round(1e6 / r.msgsPerCpuSec, 3) : null,
    seconds: round(r.seconds, 2),
    messages: r.messages,
    cpu_seconds: round(r.processCpuSeconds, 3),
    thread_busy: r.consumer ? round(r.consumer.busy) : null,
    thread_waiting_for_cpu: r.consumer ? round(r.consumer.waiting) : null,
    thread_idle: r.consumer ? round(r.consumer.idle) : null,
    simulator_busy: r.simulator ? round(r.simulator.busy) : null,
    simulator_waiting_for_cpu: r.simulator ? round(r.simulator.waiting) : null,
    gc_ms: round(p.gcMs, 1),
    gc_count: p.gcCount,
    gc_major_ms: round(p.gcMajorMs, 1),
    gc_mark_compacts: p.gcMarkCompacts,
    gc_max_pause_ms: round(p.gcMaxPauseMs, 2),
    /** GC pause time as a share of this process's CPU time in the window. */
    gc_share_of_cpu: r.processCpuSeconds > 0 ? round(p.gcMs / 1000 / r.processCpuSeconds, 3) : null,
    msgs_per_read: round(p.msgsPerRead, 1),
    bytes_per_read: p.bytesPerRead !== null ? Math.round(p.bytesPerRead) : null,
    msgs_per_sim_write: round(r.msgsPerSimWrite, 1),
    voluntary_ctx_switches: p.voluntaryCtxSwitches,
    involuntary_ctx_switches: p.involuntaryCtxSwitches,
    machine_busy: round(p.machineBusy),
    machine_steal: round(p.machineSteal, 3),
    /** CPU used by other processes (not this one, not the simulator), in cores. */
    others_cores: round(p.othersCores),
    heap_delta_mb: round(p.heapDeltaMb, 1),
    ...(batchesPerClientPerSec !== null
      ? { batches_per_client_per_sec: round(batchesPerClientPerSec, 1) }
      : {}),
  }
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

/** Where the consumer's thread spent the windows (medians): evidence for (or against) "it was the bottleneck". */
function limitNote(rs: SaturationResult[], bursty = false): string {
  const cs = rs.map((r) => r.consumer).filter((c) => c !== null)
  if (cs.length === 0) return 'no scheduler stats on this OS'
  const m = (f: (c: (typeof cs)[number]) => number): number => median(cs.map(f)) ?? 0
  const idle = m((c) => c.idle)
  const who = bursty
    ? 'reads in bursts, so idle includes its pauses'
    : idle > 0.1
      ? 'NOT saturated: waited for data'
      : 'saturated'
  const sims = rs.map((r) => r.simulator).filter((c) => c !== null)
  const sim =
    sims.length > 0
      ? `; simulator thread busy ${pct(median(sims.map((s) => s.busy)) ?? 0)}, waiting ${pct(median(sims.map((s) => s.waiting)) ?? 0)}`
      : ''
  return `${who}: thread busy ${pct(m((c) => c.busy))}, waiting for a core ${pct(m((c) => c.waiting))}, idle ${pct(idle)}${sim} (medians)`
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

async function latencyPhase(
  sim: SimChild,
  h: EngineHarness,
  seconds: number,
  log: (s: string) => void,
  what = 'latency',
) {
  log(`${what}: open-loop firehose at ${fmt(OFFERED_RATE)} msgs/s for ${seconds} s ...`)
  h.frameToBatch.clear()
  h.exchangeToBatch.clear()
  await sim.firehose(OFFERED_RATE, MARKETS)
  await sleep(2_000)
  const s0 = await sim.stats()
  const f0 = await h.frames()
  const self0 = schedSample()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  h.sampling(true)
  await sleep(seconds * 1000)
  h.sampling(false)
  const s1 = await sim.stats()
  const f1 = await h.frames()
  const self1 = schedSample()
  const cpu = process.cpuUsage(cpu0)
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
    /** This process's CPU (all threads) per message processed, µs. */
    usCpuPerMsg: f1 > f0 ? (cpu.user + cpu.system) / (f1 - f0) : null,
  }
}

type LatencyResult = Awaited<ReturnType<typeof latencyPhase>>

/** One pair of the alerts phase: the engine at saturation without rules and with the bench's rule set armed. */
interface AlertPair {
  without: SaturationResult | null
  with: SaturationResult | null
  /** getAlerts just before the with-window. */
  before: RuleCheck | null
  /** Firings and held entries that reached the first client during the measured with-window (alertsFired). */
  firedInWindow: number
  heldInWindow: number
  /** Batches to the first client that carried the whole alerts view during the measured with-window. */
  alertViewsInWindow: number
}

/** One set of the 1,000 rules: saved, kept for one or two with-windows (ABBA), deleted. */
interface RuleSetRun {
  saveMs: number
  deleteMs: number
  /** getAlerts before deleting: firings of the set while it existed. */
  after: RuleCheck
}

function alertPairRatio(p: AlertPair, perCpu: boolean): number | null {
  if (p.without === null || p.with === null) return null
  const a = perCpu ? p.without.msgsPerCpuSec : p.without.msgsPerSec
  const b = perCpu ? p.with.msgsPerCpuSec : p.with.msgsPerSec
  return a !== null && b !== null && a > 0 ? b / a : null
}

interface AlertsPhase {
  rules: number
  /** Rules of the set by condition kind. */
  byKind: Record<string, number>
  pairs: AlertPair[]
  sets: RuleSetRun[]
  /** The rules armed for the open-loop window at the offered load, and what that window measured. */
  offeredBefore: RuleCheck | null
  offered: LatencyResult | null
  offeredFired: number
  /** Rules the engine had before the phase (must be 0: the without-windows are "no rules"). */
  rulesBefore: number
  rulesLeftAfter: number
}

/** Window i of the alerts phase runs with the rules: pairs alternate without-with, with-without (ABBA). */
function alertWindowHasRules(i: number): boolean {
  const first = Math.floor(i / 2) % 2 === 1
  return i % 2 === 0 ? first : !first
}

/**
 * The alerts phase: alternating pairs (ABBA) of saturation windows on the warm engine, without rules and with
 * the bench's 1,000 rules (lib/alert-rules.ts), all in one closed-loop flow, so every window reads from the
 * same standing backlog. The rules are saved through the first client before a run of with-windows and deleted
 * after it, so the without-windows run with no rules at all. Then one open-loop window at the offered load
 * with the rules armed. Expects the trickle running; leaves it running.
 */
async function alertsPhase(
  sim: SimChild,
  h: EngineHarness,
  markets: string[],
  pairCount: number,
  seconds: number,
  log: (s: string) => void,
): Promise<AlertsPhase> {
  const client = h.clients[0]
  if (client === undefined) throw new Error('no client')
  const rules = benchRules(markets)
  const rulesBefore = (await getAlerts(client)).rules.length
  if (rulesBefore !== 0) throw new Error(`alerts: the engine already has ${rulesBefore} rules`)
  log(
    `alerts: ${plural(pairCount, 'pair')} of ${seconds} s windows in one saturating flow, without rules / with ${fmt(rules.length)} rules over ${markets.length} markets ...`,
  )
  interface Armed {
    ids: string[]
    set: Set<string>
    since: number
    ms: number
    check: RuleCheck
  }
  const arm = async (): Promise<Armed> => {
    const since = Date.now()
    const { ids, ms } = await armRules(client, rules)
    await sleep(ALERT_SETTLE_MS)
    const set = new Set(ids)
    const check = checkRules(await getAlerts(client), set, since)
    if (check.rules !== rules.length)
      throw new Error(`alerts: saved ${rules.length} rules, getAlerts lists ${check.rules}`)
    return { ids, set, since, ms, check }
  }
  const disarm = async (ids: string[]): Promise<number> => {
    const ms = await deleteRules(client, ids)
    await sleep(ALERT_DELETE_SETTLE_MS)
    const left = (await getAlerts(client)).rules.length
    if (left !== 0) throw new Error(`alerts: ${left} rules left after deleting them`)
    return ms
  }
  const sets: RuleSetRun[] = []
  let current: Armed | null = null
  const close = async (a: Armed): Promise<void> => {
    const after = checkRules(await getAlerts(client), a.set, a.since)
    sets.push({ saveMs: a.ms, deleteMs: await disarm(a.ids), after })
  }
  const windows = pairCount * 2
  const checks: (RuleCheck | null)[] = []
  const inWindow: { fired: number; held: number; views: number }[] = []
  const t = h.totals
  const at0 = { fired: 0, held: 0, views: 0 }
  const pairs: AlertPair[] = []
  const us = (r: SaturationResult | null): string =>
    r?.msgsPerCpuSec != null ? `${(1e6 / r.msgsPerCpuSec).toFixed(2)} us/msg` : '-'
  const results: SaturationResult[] = []
  const pairDone = (k: number): void => {
    const w = alertWindowHasRules(2 * k) ? 2 * k : 2 * k + 1
    const wo = w === 2 * k ? 2 * k + 1 : 2 * k
    const counts = inWindow[w] ?? { fired: 0, held: 0, views: 0 }
    const pair: AlertPair = {
      without: results[wo] ?? null,
      with: results[w] ?? null,
      before: checks[w] ?? null,
      firedInWindow: counts.fired,
      heldInWindow: counts.held,
      alertViewsInWindow: counts.views,
    }
    pairs.push(pair)
    const rc = alertPairRatio(pair, true)
    log(
      `  pair ${k + 1}: without ${fmt(pair.without?.msgsPerSec ?? null)} msgs/s (${us(pair.without)}), ` +
        `with ${fmt(pair.with?.msgsPerSec ?? null)} msgs/s (${us(pair.with)})` +
        (rc !== null ? `, ratio per CPU-s ${rc.toFixed(3)}` : '') +
        `; ${pair.before?.armed ?? '-'} armed, ${pair.firedInWindow} fired in the window`,
    )
  }
  await measureWindows({
    sim,
    markets: MARKETS,
    count: () => h.frames(),
    warmupMs: WINDOW_WARMUP_MS,
    measureMs: seconds * 1000,
    windows,
    before: async (i) => {
      if (i === 0) {
        // The alert code is compiled on first use; without this the first with-window measured that too
        // (0.73-0.90 per CPU-second in 4 runs, where later pairs mostly gave 0.93-1.0).
        const warm = await arm()
        await sleep(ALERT_WARM_MS)
        await disarm(warm.ids)
      }
      const want = alertWindowHasRules(i)
      if (want && current === null) current = await arm()
      else if (!want && current !== null) {
        await close(current)
        current = null
      }
      checks[i] = null
      if (current !== null) {
        const check = checkRules(await getAlerts(client), current.set, current.since)
        if (check.rules !== rules.length)
          throw new Error(`alerts: ${rules.length} rules saved, getAlerts lists ${check.rules}`)
        checks[i] = check
      }
    },
    after: (i, r) => {
      results[i] = r
      if (i % 2 === 1) pairDone((i - 1) / 2)
    },
    onWindow: (i, edge) => {
      if (edge === 'start') {
        at0.fired = t.alertsFired
        at0.held = t.alertsHeld
        at0.views = t.alertViews
      } else {
        inWindow[i] = {
          fired: t.alertsFired - at0.fired,
          held: t.alertsHeld - at0.held,
          views: t.alertViews - at0.views,
        }
      }
    },
  })
  await sim.firehose(ENGINE_TRICKLE_RATE, MARKETS)
  if (current !== null) await close(current)
  // The literal load of the issue: the offered rate, open loop, with the rules armed.
  const armed = await arm()
  const f0 = h.totals.alertsFired
  const offered = await latencyPhase(sim, h, seconds, log, 'alerts at the offered load')
  const offeredFired = h.totals.alertsFired - f0
  await drain(() => h.frames())
  await sim.firehose(ENGINE_TRICKLE_RATE, MARKETS)
  await disarm(armed.ids)
  const rulesLeftAfter = (await getAlerts(client)).rules.length
  const byKind: Record<string, number> = {}
  for (const r of rules) byKind[r.condition.kind] = (byKind[r.condition.kind] ?? 0) + 1
  return {
    rules: rules.length,
    byKind,
    pairs,
    sets,
    offeredBefore: armed.check,
    offered,
    offeredFired,
    rulesBefore,
    rulesLeftAfter,
  }
}

function amortizedRatio(withs: SaturationResult[], withouts: SaturationResult[]): number | null {
  const rate = (rs: SaturationResult[]): number | null => {
    const cpu = rs.reduce((x, r) => x + r.processCpuSeconds, 0)
    return cpu > 0 ? rs.reduce((x, r) => x + r.messages, 0) / cpu : null
  }
  const a = rate(withs)
  const b = rate(withouts)
  return a !== null && b !== null && b > 0 ? round(a / b, 3) : null
}

/** The alerts phase as JSON (the `alerts` object): medians over the pairs, spreads, checks and every window. */
function alertsJson(a: AlertsPhase, heapBefore: number | null, heapAfter: number | null) {
  const withs = a.pairs.map((p) => p.with).filter((r) => r !== null)
  const withouts = a.pairs.map((p) => p.without).filter((r) => r !== null)
  const ratios = a.pairs.map((p) => alertPairRatio(p, false))
  const ratiosCpu = a.pairs.map((p) => alertPairRatio(p, true))
  const ratio = round(median(ratios), 3)
  const ratioCpu = round(median(ratiosCpu), 3)
  const med = (xs: (number | null)[]): number | null => {
    const m = median(xs)
    return m === null ? null : Math.round(m)
  }
  const us = (rs: SaturationResult[]) =>
    spread(
      rs.map((r) => (r.msgsPerCpuSec !== null && r.msgsPerCpuSec > 0 ? 1e6 / r.msgsPerCpuSec : null)),
      3,
    )
  const idle = (rs: SaturationResult[]): number | null =>
    round(median(rs.map((r) => r.consumer?.idle ?? null)))
  const armed = a.pairs.map((p) => p.before?.armed ?? null).filter((n) => n !== null)
  const listed = a.pairs.map((p) => p.before?.rules ?? null).filter((n) => n !== null)
  const armedMin = armed.length > 0 ? Math.min(...armed) : null
  const listedMin = listed.length > 0 ? Math.min(...listed) : null
  const withIdle = idle(withs)
  const withoutIdle = idle(withouts)
  const withMinRate = withs.length > 0 ? Math.min(...withs.map((r) => r.msgsPerSec)) : null
  const o = a.offered
  const sum = (xs: number[]): number => xs.reduce((x, y) => x + y, 0)
  const checks = {
    // Every rule listed by getAlerts before every with-window, and armed but for those cooling down after firing.
    rules_armed:
      listedMin === a.rules && armedMin !== null && armedMin >= a.rules - FIRING_RULES_PER_10_MARKETS * 10,
    // Both sides saturated: the engine, not the simulator, set the pace (thread idle under 10%, medians).
    saturated: withIdle !== null && withoutIdle !== null && withIdle < 0.1 && withoutIdle < 0.1,
    // Every with-window took in at least the issue's 50k msgs/s.
    with_rules_at_least_offered_rate: withMinRate !== null && withMinRate >= OFFERED_RATE,
    // The open-loop window delivered the offered rate (within 5%) and the engine kept up with it.
    offered_load_delivered:
      o !== null &&
      o.offered >= 0.95 * OFFERED_RATE &&
      o.processed >= 0.95 * o.offered &&
      o.backlogAtEnd < 5_000,
    rules_gone_after: a.rulesLeftAfter === 0,
  }
  return {
    ratio,
    ratio_spread: spread(ratios),
    ratio_per_cpu_sec: ratioCpu,
    ratio_per_cpu_sec_spread: spread(ratiosCpu),
    // All windows of a side summed (messages / CPU seconds), with over without: GC at its weight.
    ratio_per_cpu_sec_amortized: amortizedRatio(withs, withouts),
    target_min_ratio: ALERT_RATIO_TARGET,
    target_met: ratio !== null ? ratio >= ALERT_RATIO_TARGET : null,
    target_met_per_cpu_sec: ratioCpu !== null ? ratioCpu >= ALERT_RATIO_TARGET : null,
    rules: a.rules,
    rules_by_kind: a.byKind,
    rules_that_can_fire: (MARKETS / 10) * FIRING_RULES_PER_10_MARKETS,
    rules_listed_at_window_start_min: listedMin,
    rules_armed_at_window_start_min: armedMin,
    checks,
    delivered: Object.values(checks).every((v) => v),
    without_msgs_per_sec: med(withouts.map((r) => r.msgsPerSec)),
    with_msgs_per_sec: med(withs.map((r) => r.msgsPerSec)),
    without_msgs_per_sec_spread: spread(
      withouts.map((r) => r.msgsPerSec),
      0,
    ),
    with_msgs_per_sec_spread: spread(
      withs.map((r) => r.msgsPerSec),
      0,
    ),
    without_msgs_per_cpu_sec: med(withouts.map((r) => r.msgsPerCpuSec)),
    with_msgs_per_cpu_sec: med(withs.map((r) => r.msgsPerCpuSec)),
    without_msgs_per_cpu_sec_spread: spread(
      withouts.map((r) => r.msgsPerCpuSec),
      0,
    ),
    with_msgs_per_cpu_sec_spread: spread(
      withs.map((r) => r.msgsPerCpuSec),
      0,
    ),
    without_us_cpu_per_msg_spread: us(withouts),
    with_us_cpu_per_msg_spread: us(withs),
    without_thread_idle: withoutIdle,
    with_thread_idle: withIdle,
    // CPU used by every other process on the machine during the windows, in cores (median): above ~0.3 the
    // wall-clock ratio mostly says how the machine's load moved between the two windows of a pair.
    others_cores: round(median([...withouts, ...withs].map((r) => r.probe.othersCores))),
    without_windows_with_major_gc: withouts.filter((r) => r.probe.gcMajorMs > 0).length,
    with_windows_with_major_gc: withs.filter((r) => r.probe.gcMajorMs > 0).length,
    // Firings that reached the windows (ViewBatch.alertsFired) inside the measured with-windows.
    fired_in_windows: sum(a.pairs.map((p) => p.firedInWindow)),
    fired_per_window_spread: spread(
      a.pairs.map((p) => p.firedInWindow),
      0,
    ),
    held_in_windows: sum(a.pairs.map((p) => p.heldInWindow)),
    alert_views_in_windows: sum(a.pairs.map((p) => p.alertViewsInWindow)),
    // From the alert history: every firing while a set of rules existed (settle, priming, window, drain).
    rule_sets: a.sets.length,
    fired_while_armed: sum(a.sets.map((r) => r.after.firedSince)),
    held_while_armed: sum(a.sets.map((r) => r.after.heldSince)),
    fired_while_armed_by: a.sets.reduce<Record<string, number>>((acc, r) => {
      for (const [k, n] of Object.entries(r.after.firedBy)) acc[k] = (acc[k] ?? 0) + n
      return acc
    }, {}),
    // Saving and deleting the 1,000 rules, one call each, under saturation (between windows).
    save_rules_ms_spread: spread(
      a.sets.map((r) => r.saveMs),
      0,
    ),
    delete_rules_ms_spread: spread(
      a.sets.map((r) => r.deleteMs),
      0,
    ),
    offered: o
      ? {
          target_msgs_per_sec: OFFERED_RATE,
          offered_msgs_per_sec: Math.round(o.offered),
          processed_msgs_per_sec: Math.round(o.processed),
          backlog_at_end: o.backlogAtEnd,
          rules_armed: a.offeredBefore?.armed ?? null,
          fired: a.offeredFired,
          p50_frame_to_batch_ms: round(o.p50),
          p99_frame_to_batch_ms: round(o.p99),
          engine_thread_busy: o.engineThread ? round(o.engineThread.busy) : null,
          engine_thread_waiting_for_cpu: o.engineThread ? round(o.engineThread.waiting) : null,
          us_cpu_per_msg: round(o.usCpuPerMsg, 3),
        }
      : null,
    heap_growth_alerts_phase_mb:
      heapBefore !== null && heapAfter !== null ? round(heapAfter - heapBefore) : null,
    pair_count: a.pairs.length,
    // In run order; odd pairs ran without then with, even pairs with then without (one set of rules served
    // the with-windows of pairs 1-2, 3-4, ...).
    pairs: a.pairs.map((p) => ({
      ratio: round(alertPairRatio(p, false), 3),
      ratio_per_cpu_sec: round(alertPairRatio(p, true), 3),
      rules_armed_at_start: p.before?.armed ?? null,
      rule_states_at_start: p.before?.states ?? null,
      fired_in_window: p.firedInWindow,
      held_in_window: p.heldInWindow,
      alert_views_in_window: p.alertViewsInWindow,
      without: windowJson(p.without),
      with: windowJson(p.with),
    })),
  }
}

function alertsText(
  a: AlertsPhase,
  j: ReturnType<typeof alertsJson>,
  range: (s: Spread | null, digits?: number) => string,
): string[] {
  const out: string[] = []
  const kinds = Object.entries(j.rules_by_kind)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')
  const withs = a.pairs.map((p) => p.with).filter((r) => r !== null)
  const withouts = a.pairs.map((p) => p.without).filter((r) => r !== null)
  const us = (s: Spread | null): string => (s !== null ? `${s.median.toFixed(2)} us CPU/msg` : '')
  const met = (v: boolean | null): string => (v === null ? '-' : v ? 'met' : 'NOT met')
  out.push(
    `alerts          ${fmt(a.rules)} rules (${kinds}) over ${MARKETS} markets, ${plural(a.pairs.length, 'pair')}; ` +
      `at every with-window start ${j.rules_listed_at_window_start_min ?? '-'} listed, at least ${j.rules_armed_at_window_start_min ?? '-'} armed (the rest cooling down after firing)`,
  )
  out.push(
    `  without rules ${fmt(j.without_msgs_per_sec).padStart(9)} msgs/s ${range(j.without_msgs_per_sec_spread)}  ${us(j.without_us_cpu_per_msg_spread)}`,
  )
  out.push(
    `  with rules    ${fmt(j.with_msgs_per_sec).padStart(9)} msgs/s ${range(j.with_msgs_per_sec_spread)}  ${us(j.with_us_cpu_per_msg_spread)}`,
  )
  out.push(`                  (without: ${limitNote(withouts)})`)
  out.push(`                  (with: ${limitNote(withs)})`)
  if (j.ratio !== null)
    out.push(
      `  ratio         ${j.ratio.toFixed(3).padStart(9)} ${range(j.ratio_spread, 3)}  with / without, msgs/s, pair by pair (target >= ${ALERT_RATIO_TARGET}: ${met(j.target_met)})` +
        (j.others_cores !== null && j.others_cores > 0.3
          ? `; other processes used ${j.others_cores} cores (median): read the per CPU-s ratio`
          : ''),
    )
  if (j.ratio_per_cpu_sec !== null)
    out.push(
      `  per CPU-s     ${j.ratio_per_cpu_sec.toFixed(3).padStart(9)} ${range(j.ratio_per_cpu_sec_spread, 3)}  same per CPU-second of the engine's process (target >= ${ALERT_RATIO_TARGET}: ${met(j.target_met_per_cpu_sec)})` +
        (j.ratio_per_cpu_sec_amortized !== null
          ? `; amortized ${j.ratio_per_cpu_sec_amortized.toFixed(3)}`
          : ''),
    )
  const fs = j.fired_per_window_spread
  out.push(
    `  fired         ${j.fired_in_windows} in the measured with-windows (${fs ? `${fs.median} per window [${fs.min}–${fs.max}]` : '-'}), ` +
      `${j.fired_while_armed} while the ${plural(j.rule_sets, 'set')} of rules existed (history); held ${j.held_while_armed}; ` +
      `${j.alert_views_in_windows} whole alerts views pushed per client in the windows`,
  )
  const sv = j.save_rules_ms_spread
  const dl = j.delete_rules_ms_spread
  out.push(
    `  editing       saving the ${fmt(a.rules)} rules took ${sv ? `${sv.median} ms [${sv.min}–${sv.max}]` : '-'}, deleting them ${dl ? `${dl.median} ms [${dl.min}–${dl.max}]` : '-'} (not in the windows)`,
  )
  const o = j.offered
  if (o !== null)
    out.push(
      `  at ${fmt(OFFERED_RATE)}/s   offered ${fmt(o.offered_msgs_per_sec)} msgs/s with ${o.rules_armed ?? '-'} rules armed; processed ${fmt(o.processed_msgs_per_sec)}, ${fmt(o.backlog_at_end)} unread at the end; ` +
        `p99 frame -> batch ${o.p99_frame_to_batch_ms ?? '-'} ms; engine thread busy ${o.engine_thread_busy !== null ? pct(o.engine_thread_busy) : '-'}; ${o.us_cpu_per_msg ?? '-'} us CPU/msg; ${o.fired} fired`,
    )
  const failed = Object.entries(j.checks)
    .filter(([, v]) => !v)
    .map(([k]) => k)
  out.push(
    `  load checks   ${failed.length === 0 ? 'all met' : `NOT met: ${failed.join(', ')}`} (rules armed, both sides saturated, >= ${fmt(OFFERED_RATE)} msgs/s with rules, offered load delivered, rules gone after)` +
      (j.heap_growth_alerts_phase_mb !== null
        ? `; heap growth over the phase ${j.heap_growth_alerts_phase_mb} MB`
        : ''),
  )
  return out
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`
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
    wanted('engine') || wanted('latency') || wanted('alerts') ? spawnSimChild() : Promise.resolve(null),
  ])
  const pairs: Pair[] = []
  let latency: LatencyResult | null = null
  let alerts: AlertsPhase | null = null
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
  const range = (s: Spread | null, digits = 0): string =>
    s === null
      ? ''
      : `[${s.min.toLocaleString('en-US', { maximumFractionDigits: digits })}–${s.max.toLocaleString('en-US', { maximumFractionDigits: digits })}, ±${(s.range_pct / 2).toFixed(1)}%]`
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
  if (alerts !== null && alertsOut !== null) out.push(...alertsText(alerts, alertsOut, range))
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
