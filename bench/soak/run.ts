// `npm run soak -- --minutes N [--dialect voxfi|reference] [--markets M] [--seed S] [--faults k1,k2] [--json]`:
// the engine, with production defaults, behind a TCP fault proxy, against the simulator speaking VoxFi's dialect
// (default) or the reference one, with faults injected in a seeded random order and every view judged against a
// ground-truth client connected straight to the simulator (README.md, "Soak").
// Prints one JSON line on stdout (progress on stderr); exit 0 only when every failure count is 0, 1 otherwise,
// 2 for bad arguments.
import { setTimeout as delay } from 'node:timers/promises'
import { receiveBooks, type HeldBooks } from '../../src/shared/book-delta'
import type { ViewBatch } from '../../src/shared/ipc'
import type { BookView, StreamStatus } from '../../src/shared/model'
import {
  createSimulator,
  DIALECTS,
  type Dialect,
  type Simulator,
  type VoxfiListing,
} from '../../src/sim/index'
import { deriveSeed, mulberry32, randInt } from '../../src/sim/rng'
import { createMemoryStore } from '../../src/main/services'
import { createMonitor } from '../../src/main/services'
import type { LogFields, Logger, MonitorClient, MonitorEngine } from '../../src/main/services'
import { round, type SampleSet } from '../lib/stats'
import { BEHIND_MS, Checker, CURRENT_MS, HEAL_DEADLINE_MS, MATCH_WINDOW_MS, type Failures } from './checks'
import { createFaultProxy, type FaultProxy } from './fault-proxy'
import {
  CALM_MS,
  FAULT_KINDS,
  faultKinds,
  FaultSchedule,
  isFaultKind,
  SHORT_RUN_MS,
  SLOW_DELAY_MS,
  type FaultKind,
  type FaultPlan,
} from './schedule'
import { startTruth, TRUTH_DEPTH, TRUTH_HISTORY, type Truth } from './truth'
import { REST_HISTORY, startVoxTruth, tapRestBooks, type VoxTruth } from './vox-truth'

// Timing (ms). Deadlines for the checks are in checks.ts, fault parameters in schedule.ts.
const SIM_TICK_MS = 100
/** Views are polled this often (getMarketSnapshot per market, then getStatus). */
const POLL_MS = 250
/** The engine and the truth must have every watched book live within this long of subscribing. */
const STARTUP_MS = 20_000
/** After startup, before the heap baseline and the first fault. */
const WARMUP_MS = 3000
/** Teardown may take this long before the process exits anyway. */
const CLOSE_TIMEOUT_MS = 5000
const PROGRESS_EVERY_MS = 10_000
const DEFAULT_MARKETS = 8
const DEFAULT_MINUTES = 1.25
const DEFAULT_SEED = 1
const DEFAULT_DIALECT: Dialect = 'voxfi'

const USAGE =
  'usage: npm run --silent soak -- --minutes N [--dialect voxfi|reference] [--markets M] [--seed S]\n' +
  '         [--faults kind,kind] [--json]\n' +
  `  dialect: ${DIALECTS.join(', ')} (default ${DEFAULT_DIALECT})\n` +
  `  fault kinds (voxfi): ${faultKinds('voxfi').join(', ')}\n` +
  `  fault kinds (reference): ${faultKinds('reference').join(', ')}\n`

class UsageError extends Error {}

interface Args {
  dialect: Dialect
  minutes: number
  markets: number
  seed: number
  json: boolean
  kinds: FaultKind[]
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    dialect: DEFAULT_DIALECT,
    minutes: DEFAULT_MINUTES,
    markets: DEFAULT_MARKETS,
    seed: DEFAULT_SEED,
    json: false,
    kinds: [],
  }
  let kinds: FaultKind[] | null = null
  const value = (i: number, flag: string): string => {
    const v = argv[i]
    if (v === undefined) throw new UsageError(`${flag} needs a value`)
    return v
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') continue
    if (a === '--json') args.json = true
    else if (a === '--dialect') {
      const d = value(++i, a)
      if (!(DIALECTS as readonly string[]).includes(d))
        throw new UsageError(`--dialect must be one of ${DIALECTS.join(', ')}`)
      args.dialect = d as Dialect
    } else if (a === '--minutes') {
      const n = Number(value(++i, a))
      if (!(n >= 0.5 && n <= 24 * 60)) throw new UsageError('--minutes must be a number in [0.5, 1440]')
      args.minutes = n
    } else if (a === '--markets') {
      const n = Number(value(++i, a))
      if (!Number.isInteger(n) || n < 1 || n > 200)
        throw new UsageError('--markets must be an integer in [1, 200]')
      args.markets = n
    } else if (a === '--seed') {
      const n = Number(value(++i, a))
      if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
        throw new UsageError('--seed must be an integer in [0, 4294967295]')
      args.seed = n
    } else if (a === '--faults') {
      const list = value(++i, a)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
      const bad = list.filter((k) => !isFaultKind(k))
      if (list.length === 0 || bad.length > 0)
        throw new UsageError(
          `--faults: unknown kind(s) ${JSON.stringify(bad)}; known: ${FAULT_KINDS.join(', ')}`,
        )
      kinds = [...new Set(list)].filter(isFaultKind)
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE)
      process.exit(0)
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}`)
  }
  const known = faultKinds(args.dialect)
  if (kinds === null) args.kinds = [...known]
  else {
    const foreign = kinds.filter((k) => !known.includes(k))
    if (foreign.length > 0)
      throw new UsageError(
        `--faults: ${JSON.stringify(foreign)} not a fault of the ${args.dialect} dialect; known: ${known.join(', ')}`,
      )
    args.kinds = kinds
  }
  return args
}

function stats(s: SampleSet): { count: number; p50: number | null; p99: number | null; max: number | null } {
  return {
    count: s.count,
    p50: round(s.percentile(50), 0),
    p99: round(s.percentile(99), 0),
    max: round(s.max(), 0),
  }
}

function heapMb(gc: (() => void) | null): number {
  if (gc) {
    gc()
    gc()
  }
  return process.memoryUsage().heapUsed / (1024 * 1024)
}

/** Each event's market ids, from either dialect's listing (VoxFi's is a bare array of events). */
function listedMarkets(sim: Simulator): string[][] {
  if (sim.dialect === 'voxfi') {
    const body = sim.listing() as unknown as VoxfiListing
    return body.map((e) => e.markets.map((x) => x.id))
  }
  return sim.listing().events.map((e) => e.markets.map((x) => x.id))
}

/** Seeded choice of M markets from the listing, spread over events (one per event per round). */
function chooseMarkets(sim: Simulator, m: number, seed: number): string[] {
  const rng = mulberry32(deriveSeed(seed, 0x3a4c))
  const perEvent = listedMarkets(sim)
  const total = perEvent.reduce((n, ids) => n + ids.length, 0)
  if (m > total) throw new UsageError(`--markets ${m}: the simulator lists only ${total} markets`)
  const out: string[] = []
  // Bounded: each round takes one market from every event that still has one, and there are `total` markets.
  while (out.length < m) {
    for (const ids of perEvent) {
      if (ids.length === 0 || out.length >= m) continue
      const [id] = ids.splice(randInt(rng, 0, ids.length - 1), 1)
      if (id !== undefined) out.push(id)
    }
  }
  return out
}

function must<T>(
  r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
  what: string,
): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.code}: ${r.error.message}`)
  return r.value
}

async function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  await Promise.race([p.catch(() => undefined), delay(ms, undefined, { ref: false })])
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2))
  const t0 = Date.now()
  const progress = (line: string): void => {
    if (!args.json)
      process.stderr.write(`[soak ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${line}\n`)
  }
  const gc = (globalThis as { gc?: () => void }).gc ?? null

  // Counted, never fatal: a soak run must survive whatever it provokes, and say so.
  let checker: Checker | null = null
  const earlyCrashes: string[] = []
  const crash = (what: string): void => {
    if (checker !== null) checker.crash(what)
    else earlyCrashes.push(what)
  }
  let uncaught = 0
  let unhandled = 0
  process.on('uncaughtException', (err) => {
    uncaught++
    crash(`uncaughtException: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  })
  process.on('unhandledRejection', (reason) => {
    unhandled++
    crash(
      `unhandledRejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    )
  })

  let engineErrors = 0
  let engineWarns = 0
  const fmt = (m: string, f?: LogFields): string => `${m}${f ? ' ' + JSON.stringify(f) : ''}`
  const logger: Logger = {
    info: () => {},
    warn: (m, f) => {
      engineWarns++
      if (process.env.SOAK_ENGINE_LOG === '1') progress(`engine warn ${fmt(m, f)}`)
    },
    error: (m, f) => {
      engineErrors++
      crash(`engine error log: ${fmt(m, f)}`)
    },
  }

  const abort = new AbortController()
  let interrupted = false
  const onSignal = (): void => {
    interrupted = true
    abort.abort()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const nap = async (ms: number): Promise<void> => {
    if (ms <= 0 || abort.signal.aborted) return
    await delay(ms, undefined, { signal: abort.signal }).catch(() => undefined)
  }

  const voxfi = args.dialect === 'voxfi'
  const sim = await createSimulator({ seed: args.seed, tickMs: SIM_TICK_MS, dialect: args.dialect })
  let proxy: FaultProxy | null = null
  let truth: Truth | VoxTruth | null = null
  let untap: (() => void) | null = null
  let engine: MonitorEngine | null = null
  let client: MonitorClient | null = null
  let polling: Promise<void> | null = null
  let stopPolling = false
  try {
    const markets = chooseMarkets(sim, args.markets, args.seed)
    proxy = await createFaultProxy({ targetPort: sim.port })
    if (voxfi) {
      const vox = startVoxTruth(sim.wsUrl, markets)
      truth = vox
      // VoxFi's first book, and every resync's, comes from REST: the truth keeps what the simulator answered.
      untap = tapRestBooks((m, body, askedAt, answeredAt) => vox.restBook(m, body, askedAt, answeredAt))
    } else truth = startTruth(sim.wsUrl, markets)
    const runMs = args.minutes * 60_000
    const endAt = t0 + runMs
    const ck = new Checker(truth, markets, t0, progress)
    checker = ck
    for (const c of earlyCrashes) ck.crash(c)

    let batches = 0
    let batchBookViews = 0
    let batchBookDeltas = 0
    // The client takes book deltas, as every window does (docs/architecture.md, "Book deltas"): each view
    // judged is the one a window would show, rebuilt from the deltas by the windows' own code.
    let held: HeldBooks = { books: {}, bases: {} }
    const sink = (batch: ViewBatch): void => {
      batches++
      if (batch.books === undefined && batch.bookDeltas === undefined) return
      // The engine catches a throwing sink and only warns: a harness bug must not pass as a quiet run.
      try {
        const received = receiveBooks(held, batch)
        held = { books: received.books, bases: received.bases }
        // In process nothing is lost or merged on the way: a delta that does not fit is the fan-out's mistake.
        if (received.lost) crash(`a book delta did not fit the view the client held (batch ${batch.seq})`)
        const markets = new Set<string>()
        for (const v of batch.books ?? []) markets.add(v.market)
        for (const d of batch.bookDeltas ?? []) markets.add(d.market)
        batchBookDeltas += batch.bookDeltas?.length ?? 0
        for (const market of markets) {
          const v = held.books[market]
          if (v === undefined) continue
          batchBookViews++
          ck.view(v, batch.at)
        }
      } catch (err) {
        crash(`harness: sink check threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
      }
    }
    engine = await createMonitor({
      settingsPath: null,
      credentials: createMemoryStore(),
      demo: false,
      logger,
    })
    client = engine.attachClient({ label: 'soak', sink, bookDeltas: true })
    const c = client
    const base = `127.0.0.1:${proxy.port}`
    const profile = must(
      await c.saveProfile(
        voxfi
          ? // As the built-in VoxFi profile: the WebSocket at the root path, the voxfi adapter.
            { name: 'soak', baseUrl: `http://${base}/v1`, wsUrl: `ws://${base}`, adapter: 'voxfi' }
          : { name: 'soak', baseUrl: `http://${base}/v1`, wsUrl: `ws://${base}/ws` },
      ),
      'saveProfile',
    )
    must(await c.selectProfile(profile.id), 'selectProfile')
    must(await c.setApiKey({ key: sim.demoKey, label: 'soak' }), 'setApiKey')
    must(await c.listEvents(), 'listEvents')
    must(
      await c.setInterests(markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const }))),
      'setInterests',
    )
    progress(
      `sim ${args.dialect} seed ${args.seed}, ${markets.length} markets via proxy :${proxy.port}; run ${args.minutes} min`,
    )

    // A holder, not a `let`: it is written inside closures, which control-flow narrowing cannot see.
    const last: { status: StreamStatus | null } = { status: null }
    const pollOnce = async (): Promise<void> => {
      // The socket events a fault caused are read before the views are: a timer can otherwise run first.
      for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r))
      const views = new Map<string, BookView | null>()
      for (const m of markets) {
        const r = await c.getMarketSnapshot(m)
        views.set(m, r.ok ? r.value.book : null)
      }
      const s = await c.getStatus()
      last.status = s.ok ? s.value : null
      ck.poll(Date.now(), views, last.status)
    }
    const allLive = async (): Promise<boolean> => {
      const s = await c.getStatus()
      if (!s.ok || s.value.state !== 'live') return false
      for (const m of markets) {
        const r = await c.getMarketSnapshot(m)
        if (!r.ok || r.value.book?.state !== 'live' || !truth?.valid(m)) return false
      }
      return true
    }
    // Bounded by stopPolling, and by the hard end of the run in case the scheduler never returns.
    const hardEnd = endAt + 60_000
    polling = (async () => {
      while (!stopPolling && Date.now() < hardEnd) {
        const started = Date.now()
        await pollOnce()
        // Not `nap`: after an interrupt that returns at once, and this loop must not spin.
        await delay(Math.max(0, POLL_MS - (Date.now() - started)))
      }
    })()

    // ---- startup and warm-up
    const startupDeadline = Date.now() + STARTUP_MS
    while (!(await allLive()) && Date.now() < startupDeadline && !abort.signal.aborted) await nap(100)
    if (!(await allLive())) {
      ck.failures.startupNotLive = 1
      progress(`engine not live ${STARTUP_MS} ms after subscribing`)
    } else progress('engine and truth live on every market')
    await nap(WARMUP_MS)
    const heapAfterWarmup = heapMb(gc)

    // ---- faults
    const schedule = new FaultSchedule(args.seed, args.kinds, markets, runMs < SHORT_RUN_MS)
    const injected: Partial<Record<FaultKind, number>> = {}
    let lastProgress = Date.now()
    // Bounded: each pass either injects (taking at least the calm period) or ends the loop.
    let skipped = 0
    while (!abort.signal.aborted && skipped < faultKinds(args.dialect).length) {
      const plan = schedule.next()
      if (Date.now() + plan.durationMs + HEAL_DEADLINE_MS > endAt) {
        skipped++ // does not fit in what is left of the run; a shorter one may
        continue
      }
      skipped = 0
      // Fresh, not the last poll's: a reconnect in between would otherwise pass for this fault's.
      const now = await c.getStatus()
      const reconnects = now.ok ? now.value.reconnects : (last.status?.reconnects ?? 0)
      const rec = ck.faultStarted(plan, Date.now(), reconnects)
      injected[plan.kind] = (injected[plan.kind] ?? 0) + 1
      progress(`fault ${rec.n}: ${describe(plan)}`)
      await inject(plan, sim, proxy, nap)
      ck.faultEnded(Date.now())
      while (!ck.settled(Date.now()) && !abort.signal.aborted) await nap(50)
      const calmUntil = Math.min(endAt, Date.now() + plan.calmMs)
      await nap(calmUntil - Date.now())
      if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now()
        progress(statusLine(last.status, ck, batches))
      }
    }
    ck.finishActive()
    // Calm to the end of the run: stuck books still count.
    await nap(endAt - Date.now())
    stopPolling = true
    await polling
    polling = null
    const heapEnd = heapMb(gc)

    const st = last.status
    const ts = truth.stats()
    const px = proxy.stats()
    const f = ck.failures
    // An interrupted run has not shown what it was asked to show.
    const ok = Object.values(f).every((n) => n === 0) && !interrupted
    const summary = {
      ok,
      dialect: args.dialect,
      seed: args.seed,
      minutes: args.minutes,
      markets: markets.length,
      marketIds: markets,
      faultKinds: args.kinds,
      interrupted,
      durationMs: Date.now() - t0,
      failures: f,
      faultsInjected: injected,
      faultCount: ck.faults.length,
      healMs: { ...stats(ck.healMs), unhealed: ck.unhealed },
      halfOpenDetectMs: { ...stats(ck.detectMs), undetected: ck.undetected },
      cutToLiveMs: stats(ck.cutToLiveMs),
      heap: {
        gc: gc !== null,
        afterWarmupMb: round(heapAfterWarmup, 1),
        endMb: round(heapEnd, 1),
        growthMb: round(heapEnd - heapAfterWarmup, 2),
      },
      counts: {
        batches,
        batchBookViews,
        batchBookDeltas,
        polls: ck.polls,
        viewsCompared: ck.viewsCompared,
        viewsSkippedNoTruth: ck.viewsSkippedNoTruth,
        engineReconnects: st?.reconnects ?? null,
        engineFrames: st?.counters.frames ?? null,
        engineMalformed: st?.counters.malformed ?? null,
        engineOversized: st?.counters.oversized ?? null,
        engineErrorLogs: engineErrors,
        engineWarnLogs: engineWarns,
        uncaughtExceptions: uncaught,
        unhandledRejections: unhandled,
        truthFrames: ts.frames,
        truthReconnects: ts.reconnects,
        truthResubscribes: ts.resubscribes,
        truthRestBooks: 'restBooks' in ts ? ts.restBooks : null,
        proxyConnections: px.accepted,
        proxyCuts: px.cut,
        proxyDroppedBytes: px.droppedBytes,
      },
      config: {
        simTickMs: SIM_TICK_MS,
        pollMs: POLL_MS,
        healDeadlineMs: HEAL_DEADLINE_MS,
        behindMs: BEHIND_MS,
        currentMs: CURRENT_MS,
        calmMs: CALM_MS,
        slowDelayMs: SLOW_DELAY_MS,
        truthDepth: TRUTH_DEPTH,
        truthHistory: TRUTH_HISTORY,
        ...(voxfi ? { matchWindowMs: MATCH_WINDOW_MS, truthRestHistory: REST_HISTORY } : {}),
      },
      faults: ck.faults,
      examples: ck.examples,
      notes:
        (voxfi ? VOXFI_NOTES : NOTES) +
        (gc === null ? ' Heap figures WITHOUT forced GC (run without --expose-gc): noisy.' : ''),
    }
    if (!args.json) humanSummary(summary.failures, ck, summary.heap.growthMb, gc !== null)
    process.stdout.write(JSON.stringify(summary) + '\n')
    return ok ? 0 : 1
  } finally {
    stopPolling = true
    abort.abort()
    if (polling !== null) await withTimeout(polling, CLOSE_TIMEOUT_MS)
    client?.dispose()
    if (engine !== null) await withTimeout(engine.close(), CLOSE_TIMEOUT_MS)
    untap?.()
    truth?.close()
    if (proxy !== null) await withTimeout(proxy.close(), CLOSE_TIMEOUT_MS)
    await withTimeout(sim.close(), CLOSE_TIMEOUT_MS)
  }
}

const NOTES =
  'Everything runs in this one process (engine with production defaults, simulator, proxy, truth client). ' +
  'Failure counts are episodes: wrongBooks = distinct (market, seq) whose live view (polled or pushed) differs ' +
  `in its top ${TRUTH_DEPTH} levels from the truth at the same seq, or is crossed; liveBehind = stretches where a ` +
  `live view sat at seq s while the truth had received a later seq over ${BEHIND_MS} ms before; stuckStale = ` +
  `stretches of a book non-live for over ${HEAL_DEADLINE_MS} ms, counted only outside faults and their heal ` +
  'windows, while the truth had newer data less than 3 s old; faultsNotHealed = faults not healed ' +
  `${HEAL_DEADLINE_MS} ms after they ended; crashes = uncaught exceptions + unhandled rejections + engine ` +
  'error-level log lines. healMs: fault end -> first poll (every 250 ms, none sooner than 100 ms after the end) ' +
  'where the status is live (after a reconnect, for faults that drop the connection), and every watched book ' +
  'is live, at or past the first seq the truth received after the fault (and past the injected gap/crossed ' +
  `delta), and not over ${CURRENT_MS} ms behind the truth; it includes poll granularity and each market's wait ` +
  'for its next update; late heals (after the deadline) are included, faults never healed are counted in ' +
  'unhealed. halfOpenDetectMs: blackhole start -> first poll with every book non-live or the status not live, ' +
  'during the blackhole only (else undetected). cutToLiveMs: healMs of proxy-cut and sim-dropAll. ' +
  'heap: heapUsed of the whole process after forced GC, after warm-up vs at the end (report only). ' +
  'The kinds and parameters of faults follow from the seed; how many fit in the run depends on heal times.'

const VOXFI_NOTES =
  'Everything runs in this one process (engine with production defaults and the voxfi adapter, simulator in ' +
  "VoxFi's dialect, proxy, truth client). VoxFi has no seq and sends whole books: the truth keeps, per market, the " +
  'sequence of distinct whole books its own socket received (a version per change of content, arrival time, top ' +
  `${TRUTH_DEPTH} levels of the YES and NO books, ticks/100) and every orderbook answer the simulator gave the ` +
  "engine (read off node's http client, which the engine's REST reads use, parsed by the truth). Failure counts are episodes: wrongBooks = distinct " +
  `(market, book) shown live (polled or pushed) whose top ${TRUTH_DEPTH} levels of both books match no book of the ` +
  `truth's that was current, or answered, in the ${MATCH_WINDOW_MS / 1000} s before the view (re-checked for 2 s ` +
  "after it; views from around the truth's own reconnects are skipped), or crossed; liveBehind = stretches where " +
  `a live view showed a book the truth had received a newer one over ${BEHIND_MS} ms before; stuckStale = ` +
  `stretches of a book non-live for over ${HEAL_DEADLINE_MS} ms, counted only outside faults and their heal ` +
  'windows, while the truth had a newer book less than 3 s old; faultsNotHealed = faults not healed ' +
  `${HEAL_DEADLINE_MS} ms after they ended; crashes = uncaught exceptions + unhandled rejections + engine ` +
  'error-level log lines. healMs: fault end -> first poll (every 250 ms, none sooner than 100 ms after the end) ' +
  'where the status is live (after a reconnect, for faults that drop the connection), and every watched book ' +
  'is live, showing a book the truth has that is no older than the first book the truth received after the ' +
  'fault (an orderbook answer asked for after the fault counts; after a crossed book, one seen after it), and not ' +
  `superseded at the truth over ${CURRENT_MS} ms before; it includes poll granularity and each market's wait ` +
  'for its next update; late heals (after the deadline) are included, faults never healed are counted in ' +
  'unhealed. halfOpenDetectMs: blackhole start -> first poll with every book non-live or the status not live, ' +
  'during the blackhole only (else undetected). cutToLiveMs: healMs of proxy-cut and sim-dropAll. ' +
  'heap: heapUsed of the whole process after forced GC, after warm-up vs at the end (report only). ' +
  'The kinds and parameters of faults follow from the seed; how many fit in the run depends on heal times.'

function describe(p: FaultPlan): string {
  const extra = [
    p.durationMs > 0 ? `${p.durationMs} ms` : '',
    p.market !== undefined ? `on ${p.market}` : '',
    p.count !== undefined ? `${p.count} frames` : '',
  ].filter((s) => s !== '')
  return `${p.kind}${extra.length > 0 ? ' (' + extra.join(', ') + ')' : ''}`
}

async function inject(
  plan: FaultPlan,
  sim: Simulator,
  proxy: FaultProxy,
  nap: (ms: number) => Promise<void>,
): Promise<void> {
  switch (plan.kind) {
    case 'proxy-cut':
      proxy.cut()
      return
    case 'proxy-blackhole':
      proxy.blackhole(plan.durationMs)
      await nap(plan.durationMs)
      proxy.clear()
      return
    case 'proxy-slow':
      proxy.slow(plan.durationMs, SLOW_DELAY_MS)
      await nap(plan.durationMs)
      proxy.clear()
      return
    case 'sim-dropAll':
      sim.faults.dropAll()
      return
    case 'sim-stall':
      sim.faults.stall(true)
      try {
        await nap(plan.durationMs)
      } finally {
        sim.faults.stall(false)
      }
      return
    case 'sim-malformed':
      sim.faults.sendMalformed(plan.count ?? 10)
      return
    case 'sim-oversized':
      sim.faults.sendOversized()
      return
    case 'sim-refuse':
      sim.faults.refuseConnections(plan.durationMs)
      sim.faults.dropAll()
      await nap(plan.durationMs)
      return
    case 'sim-restart':
      await sim.faults.restart()
      return
    case 'sim-gap':
      sim.faults.gap(plan.market as string)
      return
    case 'sim-crossed':
      sim.faults.crossed(plan.market as string)
      return
    case 'sim-serverError':
      sim.faults.serverError()
      return
  }
}

function statusLine(s: StreamStatus | null, ck: Checker, batches: number): string {
  const f = ck.failures
  return (
    `status ${s?.state ?? '?'}, reconnects ${s?.reconnects ?? '?'}, batches ${batches}, faults ${ck.faults.length}; ` +
    `wrongBooks ${f.wrongBooks} stuckStale ${f.stuckStale} liveBehind ${f.liveBehind} ` +
    `faultsNotHealed ${f.faultsNotHealed} crashes ${f.crashes}`
  )
}

function humanSummary(f: Failures, ck: Checker, heapGrowth: number | null, gc: boolean): void {
  const w = (s: string): boolean => process.stderr.write(s + '\n')
  w('')
  w('soak summary')
  for (const [k, v] of Object.entries(f)) w(`  ${k.padEnd(16)} ${v}${v > 0 ? '   <-- FAIL' : ''}`)
  const line = (name: string, s: SampleSet, extra = ''): void => {
    const st = stats(s)
    w(
      `  ${name.padEnd(16)} n=${st.count} p50=${st.p50 ?? '-'} p99=${st.p99 ?? '-'} max=${st.max ?? '-'} ms${extra}`,
    )
  }
  line('heal', ck.healMs, `, unhealed ${ck.unhealed}`)
  line('half-open detect', ck.detectMs, `, undetected ${ck.undetected}`)
  line('cut -> live', ck.cutToLiveMs)
  w(`  heap growth      ${heapGrowth ?? '-'} MB${gc ? '' : ' (no forced GC)'}`)
  for (const r of ck.faults) {
    const heal = r.healMs === null ? 'never healed' : `healed ${r.healMs} ms`
    const det =
      r.detectMs === undefined ? '' : `, detect ${r.detectMs === null ? 'never' : r.detectMs + ' ms'}`
    w(
      `  #${String(r.n).padEnd(3)} ${(r.atMs / 1000).toFixed(1).padStart(6)}s ${r.kind.padEnd(16)} ${heal}${det}${r.notHealedByDeadline ? '  <-- NOT HEALED BY DEADLINE' : ''}`,
    )
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`soak: ${err.message}\n${USAGE}`)
      process.exit(2)
    }
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err)
    process.stderr.write(`soak: harness failed: ${message}\n`)
    process.stdout.write(JSON.stringify({ ok: false, error: message.split('\n')[0] }) + '\n')
    process.exit(1)
  },
)
