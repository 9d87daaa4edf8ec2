// `npm run bench:day -- --minutes N [--dialect voxfi|reference] [--clients 4] [--markets 20] [--renderer] [--no-fps] [--no-account] [--seed 7] [--warmup-minutes 5] [--force-gc] [--tsx | --src DIR]`
// --force-gc (a diagnosis, not the figure): a full GC right before every minute's sample, so RSS and heap show
// what the engine retains rather than what V8 keeps committed; its cost is in that run's CPU figure.
// By default the bench bundles itself with the engine by esbuild, as the app's build bundles its main process, and
// runs that with node (bench/lib/bundle.ts), so engine_cpu_pct is the shipped code's. --tsx runs it in place under
// tsx (slower hot paths: tsx's module wrappers); --src DIR bundles it against another checkout's src (e.g.
// /work/wt-base/src, a "before" figure from the same bench code); BENCH_NODE_FLAGS adds node flags to the measured
// process (e.g. --cpu-prof). Its children stay under tsx, outside the figure: the simulator, the renderer's build
// and the Playwright driver of Chromium.
// The engine at the demo load for N minutes (README.md, "All-day load"): the simulator with createSimulator's
// defaults in a child process (bench/lib/sim-child.ts --demo), in VoxFi's dialect as the app's demo runs it
// (--dialect reference for the reference dialect), M of its listed markets watched by C clients
// that ask for a window's book depth and take book deltas as windows do, and whose sinks serialise every batch as the transports do (batchJson); optionally the browser host and headless Chromium with one
// main window in its default workspace; the first client also wants the account (user channel), as a window's
// account pane does once a key is stored (--no-account: not). One JSON line per minute on stdout, then a summary
// line; progress on stderr.
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { batchJson } from '../../src/main/services'
import { createMemoryStore } from '../../src/main/services'
import { createMonitor } from '../../src/main/services'
import type { Logger, MonitorClient, MonitorEngine } from '../../src/main/services'
import { DIALECTS, type Dialect } from '../../src/sim/index'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { WINDOW_BOOK_DEPTH, type Interest, type ViewBatch } from '../../src/shared/ipc'
import { BUNDLED_ENV, buildLabel, runSelfBundled } from '../lib/bundle'
import { pickMarkets } from '../lib/demo-load'
import { CLOCK_TICKS, procInfo } from '../lib/proc'
import { repoPath, tsxArgs } from '../lib/repo'
import { spawnSimChild, type SimChild } from '../lib/sim-control'
import { round } from '../lib/stats'
import { startBrowserChild, type BrowserChild, type ChromiumCpu, type FrameSample } from './browser'

const USAGE =
  'usage: npm run bench:day -- --minutes N [--dialect voxfi|reference] [--clients 4] [--markets 20] [--renderer] [--no-fps] [--no-account] [--seed 7] [--warmup-minutes 5] [--force-gc] [--tsx | --src DIR]'
/**
 * The warm-up (default 5 minutes; CPU and RSS flatness are judged after it): JIT, first snapshots, the engine's
 * first stores filling, and V8 settling its young generation, which it resizes between 8 and 32 MB in the
 * first minutes (heap_spaces_mb shows it). The tapes (TAPE_TRADES, 500 per market) fill in about 3 minutes.
 * rss_drift_after_minute_1_mb keeps the first version's one-minute figure for comparison.
 */
const DEFAULT_WARMUP_MINUTES = 5
/** RSS and heap are also sampled this often, for their minimum and maximum. */
const MEMORY_SAMPLE_MS = 5_000
const MB = 1024 * 1024

interface Args {
  minutes: number
  /** The simulator's dialect: VoxFi's (default, as the app's demo) or the reference dialect. */
  dialect: Dialect
  /** The first client wants the user channel (the account), as a window's account pane does with a key stored. */
  account: boolean
  clients: number
  markets: number
  renderer: boolean
  fps: boolean
  seed: number
  forceGc: boolean
  warmupMinutes: number
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    minutes: NaN,
    dialect: 'voxfi',
    account: true,
    clients: 4,
    markets: 20,
    renderer: false,
    fps: true,
    seed: 7,
    forceGc: false,
    warmupMinutes: DEFAULT_WARMUP_MINUTES,
  }
  const num = (i: number, name: string, ok: (n: number) => boolean): number => {
    const n = Number(argv[i])
    if (argv[i] === undefined || !ok(n)) throw new UsageError(`bad value for ${name}`)
    return n
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') continue
    if (a === '--minutes') args.minutes = num(++i, a, (n) => n > 0 && n <= 24 * 60)
    else if (a === '--clients') args.clients = num(++i, a, (n) => Number.isInteger(n) && n >= 1 && n <= 64)
    else if (a === '--markets') args.markets = num(++i, a, (n) => Number.isInteger(n) && n >= 1)
    else if (a === '--warmup-minutes') args.warmupMinutes = num(++i, a, (n) => n >= 0 && n <= 24 * 60)
    else if (a === '--seed') args.seed = num(++i, a, (n) => Number.isInteger(n) && n >= 0)
    else if (a === '--dialect') {
      const d = argv[++i]
      if (d === undefined || !(DIALECTS as readonly string[]).includes(d))
        throw new UsageError(`--dialect must be ${DIALECTS.join(' or ')}`)
      args.dialect = d as Dialect
    } else if (a === '--renderer') args.renderer = true
    else if (a === '--tsx') continue
    else if (a === '--no-account') args.account = false
    else if (a === '--no-fps') args.fps = false
    else if (a === '--force-gc') args.forceGc = true
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n`)
      process.exit(0)
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}`)
  }
  if (!(args.minutes > 0)) throw new UsageError('--minutes is required')
  return args
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Every process this run started, so a signal or an exception can end them all (by pid). */
const resources: { sim: SimChild | null; browser: BrowserChild | null } = { sim: null, browser: null }
function killChildren(): void {
  resources.browser?.kill()
  resources.sim?.kill()
}

interface Memory {
  rssMb: number
  heapUsedMb: number
  heapTotalMb: number
  externalMb: number
  arrayBuffersMb: number
}

function memory(): Memory {
  const m = process.memoryUsage()
  return {
    rssMb: m.rss / MB,
    heapUsedMb: m.heapUsed / MB,
    heapTotalMb: m.heapTotal / MB,
    externalMb: m.external / MB,
    arrayBuffersMb: m.arrayBuffers / MB,
  }
}

/**
 * Committed size of each V8 heap space (new, old, code, large objects, ...): tells a growing young generation or
 * old-space slack apart from growth in live objects, which heap_used shows.
 */
function heapSpaces(): Record<string, number> {
  const out: Record<string, number> = {}
  for (const s of getHeapSpaceStatistics()) {
    const mb = round(s.space_size / MB, 1) ?? 0
    if (mb > 0) out[s.space_name.replace(/_space$/, '')] = mb
  }
  return out
}

/** What the sinks saw, per client and in total. */
interface SinkCounts {
  batches: number
  bytes: number
  trades: number
  books: number
}

interface Snapshot {
  at: number
  cpu: NodeJS.CpuUsage
  mem: Memory
  simTicks: number | null
  frames: number
  sinks: SinkCounts
  chromium: ChromiumCpu | null
  page: FrameSample | null
}

/** V8's gc() without restarting node with --expose-gc (the flag is read when the function is looked up). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc')
  const gc: unknown = runInNewContext('gc')
  if (typeof gc !== 'function') throw new Error('--force-gc: V8 did not expose gc()')
  return () => void (gc as () => unknown)()
}

function pctOfCore(ticks: number, ms: number): number {
  return ms > 0 ? (ticks / CLOCK_TICKS / (ms / 1000)) * 100 : 0
}

/** CPU % of one core per Chromium process kind between two samples (processes that appeared count from 0). */
function chromiumPct(a: ChromiumCpu, b: ChromiumCpu, ms: number): Record<string, number> {
  const byType = new Map<string, number>()
  for (const [pid, now] of b.ticksByPid) {
    const before = a.ticksByPid.get(pid)?.ticks ?? 0
    byType.set(now.type, (byType.get(now.type) ?? 0) + Math.max(0, now.ticks - before))
  }
  const out: Record<string, number> = {}
  let total = 0
  for (const [type, ticks] of byType) {
    if (type !== 'playwright-node') total += ticks
    out[type] = round(pctOfCore(ticks, ms)) ?? 0
  }
  out.total_chromium = round(pctOfCore(total, ms)) ?? 0
  return out
}

/** In its own process (bench/lib/build-child.ts): a build in this one stays in the RSS this bench measures. */
function buildRendererApart(): void {
  const r = spawnSync(process.execPath, tsxArgs(repoPath('bench', 'lib', 'build-child.ts')), {
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  if (r.error !== undefined) throw r.error
  if (r.status !== 0) throw new Error(`the renderer build failed (exit ${String(r.status ?? r.signal)})`)
}

/** Resolves with true when a signal cut the run short. */
async function main(): Promise<boolean> {
  const args = parseArgs(process.argv.slice(2))
  const t00 = performance.now()
  const log = (s: string): void => {
    process.stderr.write(`[${((performance.now() - t00) / 1000).toFixed(1).padStart(6)} s] ${s}\n`)
  }
  const problems: string[] = []
  let warnings = 0
  const logger: Logger = {
    info: () => {},
    warn: (m, f) => {
      warnings++
      if (problems.length < 10) problems.push(`warn ${m} ${JSON.stringify(f ?? {})}`)
    },
    error: (m, f) => {
      warnings++
      if (problems.length < 10) problems.push(`error ${m} ${JSON.stringify(f ?? {})}`)
    },
  }

  // Stop at the next minute boundary on SIGINT/SIGTERM and still print what was measured; a second signal ends
  // everything at once.
  let stop: () => void = () => {}
  const stopped = new Promise<void>((resolve) => {
    stop = resolve
  })
  let interrupted = false
  const onSignal = (sig: NodeJS.Signals): void => {
    if (interrupted) {
      killChildren()
      process.exit(130)
    }
    interrupted = true
    log(`${sig}: stopping (again to stop at once) ...`)
    stop()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  if (args.renderer) {
    log('renderer: building it if it is out of date, in a child process ...')
    buildRendererApart()
  }
  const loadStart = loadavg()[0] ?? 0
  log(`day: the engine ${buildLabel()}`)
  log(
    `day: ${cpus().length} CPU cores, load average ${loadStart.toFixed(2)}; starting the simulator ` +
      `(dialect ${args.dialect}) ...`,
  )
  const sim = await spawnSimChild(args.seed, { demo: true, dialect: args.dialect })
  resources.sim = sim
  let engine: MonitorEngine | null = null
  let host: WebHost | null = null
  const clients: MonitorClient[] = []
  try {
    const listing = await sim.listing()
    if (args.markets > listing.length)
      throw new UsageError(`--markets ${args.markets}: the simulator lists only ${listing.length} markets`)
    const markets = pickMarkets(listing, args.markets)

    // Production defaults throughout: Date.now clock, default fan-out interval, liveness and resync settings.
    engine = await createMonitor({
      settingsPath: null,
      credentials: createMemoryStore(),
      demo: false,
      logger,
    })
    const perClient: SinkCounts[] = []
    const totals: SinkCounts = { batches: 0, bytes: 0, trades: 0, books: 0 }
    for (let i = 0; i < args.clients; i++) {
      const mine: SinkCounts = { batches: 0, bytes: 0, trades: 0, books: 0 }
      perClient.push(mine)
      const sink = (batch: ViewBatch): void => {
        // What an IPC send of the batch costs in the engine process: serialising it, as the Electron windows and
        // the browser host do (batch-json.ts: a view several windows get is serialised once).
        const bytes = Buffer.byteLength(batchJson(batch))
        mine.batches++
        mine.bytes += bytes
        totals.batches++
        totals.bytes += bytes
        const t = batch.trades?.length ?? 0
        // A book whole or as a delta (a window takes deltas): one changed book either way.
        const b = (batch.books?.length ?? 0) + (batch.bookDeltas?.length ?? 0)
        mine.trades += t
        mine.books += b
        totals.trades += t
        totals.books += b
      }
      clients.push(engine.attachClient({ label: `day-${i + 1}`, sink, bookDeltas: true }))
    }
    const first = clients[0] as MonitorClient
    const must = <T>(
      r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
    ): T => {
      if (!r.ok) throw new Error(`engine: ${r.error.code}: ${r.error.message}`)
      return r.value
    }
    const profile = must(await first.saveProfile({ name: 'day', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl }))
    must(await first.selectProfile(profile.id))
    // As the demo profile with "use the demo key", and before anything is subscribed: in VoxFi's dialect every
    // REST call needs the key (the listing, and the first book of every market, which the stream does not send
    // after a subscribe), and the user channel authenticates with it.
    must(await first.setApiKey({ key: sim.demoKey, label: 'day' }))
    const interests: Interest[] = markets.map((id) => ({ channel: 'market', id, filter: 'all' }))
    for (const [i, c] of clients.entries()) {
      // Each client asks for the book depth a window asks for when it opens (App.tsx), as the window it stands for.
      must(await c.setBookDepth(WINDOW_BOOK_DEPTH))
      // The first also wants the account, as a window's account pane does when a key is stored (AccountPane.tsx):
      // the user channel, and in VoxFi's dialect the account read over REST (at start, after fills, every 30 s).
      must(await c.setInterests(i === 0 && args.account ? [...interests, { channel: 'user' }] : interests))
    }
    const frames = async (): Promise<number> => must(await first.getStatus()).counters.frames
    const liveBy = Date.now() + 30_000
    for (;;) {
      const s = must(await first.getStatus())
      if (s.state === 'live' && s.counters.frames >= markets.length) break
      if (Date.now() > liveBy) throw new Error(`engine did not go live (state ${s.state})`)
      await sleep(100)
    }
    // Every watched book live (in VoxFi's dialect its first book comes over REST, with the key), and the account
    // subscribed on the simulator when it is wanted: the load this bench names, checked before it is measured.
    for (;;) {
      const notLive: string[] = []
      for (const id of markets) {
        const snap = must(await first.getMarketSnapshot(id))
        if (snap.book?.state !== 'live') notLive.push(id)
      }
      const subs = await sim.subscriptions()
      const userSubscribed = subs.subscriptions.some((x) => x.user)
      if (notLive.length === 0 && (userSubscribed || !args.account)) break
      if (Date.now() > liveBy)
        throw new Error(
          `the load was not set up in 30 s: ${notLive.length} books not live (${notLive.slice(0, 5).join(', ')})` +
            (args.account && !userSubscribed ? '; the user channel is not subscribed on the simulator' : ''),
        )
      await sleep(250)
    }
    log(
      `engine live (${args.dialect}): ${args.clients} clients x ${markets.length} markets (${markets.join(', ')})` +
        (args.account ? ' + the account (user channel)' : ''),
    )

    let browser: BrowserChild | null = null
    if (args.renderer) {
      log('renderer: starting the browser host and Chromium ...')
      host = await startWebHost({ monitor: engine, logger, rendererDir: repoPath('out', 'renderer') })
      // The main window in its default workspace (events, watchlist, ladder, depth, chart, tape, account, alerts)
      // with the first market selected; `select` is read by the browser child, not by the app.
      const url = new URL(host.url)
      url.searchParams.set('view', 'main')
      url.searchParams.set('select', markets[0] as string)
      browser = await startBrowserChild(url.toString(), { fps: args.fps })
      resources.browser = browser
      log(`renderer: main window (default workspace) on ${markets[0]} is live`)
    }

    const fullGc = args.forceGc ? exposeGc() : null
    const snapshot = async (): Promise<Snapshot> => {
      fullGc?.()
      return sample()
    }
    const sample = async (): Promise<Snapshot> => ({
      at: performance.now(),
      cpu: process.cpuUsage(),
      mem: memory(),
      simTicks: procInfo(sim.pid)?.ticks ?? null,
      frames: await frames(),
      sinks: { ...totals },
      chromium: browser ? browser.cpu() : null,
      page: browser ? await browser.sample() : null,
    })

    const memSamples: { at: number; mem: Memory }[] = []
    const memTimer = setInterval(
      () => memSamples.push({ at: performance.now(), mem: memory() }),
      MEMORY_SAMPLE_MS,
    )
    memTimer.unref()
    const loads: number[] = [loadStart]
    const start = await snapshot()
    memSamples.push({ at: start.at, mem: start.mem })
    const endAt = start.at + args.minutes * 60_000
    log(`measuring for ${args.minutes} min (one line per minute on stdout) ...`)

    const lines: Record<string, unknown>[] = []
    let prev = start
    // With no warm-up, "after the warm-up" is the whole run.
    let afterWarmup: Snapshot | null = args.warmupMinutes === 0 ? start : null
    let afterMinute1: Snapshot | null = null
    for (let minute = 1; ; minute++) {
      const due = Math.min(endAt, start.at + minute * 60_000)
      const wait = due - performance.now()
      if (wait > 0) await Promise.race([sleep(wait), stopped])
      const now = await snapshot()
      const ms = now.at - prev.at
      const cpu = process.cpuUsage(prev.cpu)
      const secs = ms / 1000
      const load = loadavg()[0] ?? 0
      loads.push(load)
      const line: Record<string, unknown> = {
        type: 'minute',
        minute,
        seconds: round(secs, 1),
        ...(ms < 59_000 ? { partial: true } : {}),
        engine_cpu_pct: round(((cpu.user + cpu.system) / 1e3 / ms) * 100),
        engine_cpu_user_pct: round((cpu.user / 1e3 / ms) * 100),
        engine_cpu_system_pct: round((cpu.system / 1e3 / ms) * 100),
        rss_mb: round(now.mem.rssMb, 1),
        heap_used_mb: round(now.mem.heapUsedMb, 1),
        heap_total_mb: round(now.mem.heapTotalMb, 1),
        external_mb: round(now.mem.externalMb, 1),
        heap_spaces_mb: heapSpaces(),
        sim_cpu_pct:
          now.simTicks !== null && prev.simTicks !== null
            ? round(pctOfCore(now.simTicks - prev.simTicks, ms))
            : null,
        engine_frames_per_sec: round((now.frames - prev.frames) / secs, 1),
        batches_per_client_per_sec: round((now.sinks.batches - prev.sinks.batches) / args.clients / secs, 1),
        ipc_bytes_per_sec: Math.round((now.sinks.bytes - prev.sinks.bytes) / secs),
        trades_per_client_per_sec: round((now.sinks.trades - prev.sinks.trades) / args.clients / secs, 1),
        load_average_1m: round(load),
      }
      if (now.chromium && prev.chromium) {
        const c = chromiumPct(prev.chromium, now.chromium, ms)
        line.renderer_cpu_pct = c.renderer ?? 0
        line.chromium_cpu_pct = c
        line.renderer_rss_mb = round(now.chromium.rendererRssBytes / MB, 1)
      }
      if (now.page && prev.page) {
        const frameCount =
          now.page.frames !== null && prev.page.frames !== null ? now.page.frames - prev.page.frames : null
        const pageMs = now.page.pageMs - prev.page.pageMs
        line.fps = frameCount !== null && pageMs > 0 ? round((frameCount / pageMs) * 1000, 1) : null
        line.max_frame_gap_ms = now.page.frames !== null ? round(now.page.maxGapMs, 1) : null
        line.frame_gaps_over_50ms = now.page.frames !== null ? now.page.gapsOver50 : null
        line.book_state = now.page.state
      }
      process.stdout.write(`${JSON.stringify(line)}\n`)
      lines.push(line)
      if (afterWarmup === null && now.at - start.at >= args.warmupMinutes * 60_000 - 1_000) afterWarmup = now
      if (afterMinute1 === null && now.at - start.at >= 59_000) afterMinute1 = now
      prev = now
      if (now.at >= endAt - 50 || interrupted) break
    }
    clearInterval(memTimer)
    const end = prev
    memSamples.push({ at: end.at, mem: end.mem })

    const status = must(await first.getStatus())
    // The load at the end: the watched books still live, the simulator's connections and subscriptions.
    let booksLiveAtEnd = 0
    for (const id of markets)
      if (must(await first.getMarketSnapshot(id)).book?.state === 'live') booksLiveAtEnd++
    const subsAtEnd = await sim.subscriptions()
    const totalMs = end.at - start.at
    const cpuTotal = {
      user: end.cpu.user - start.cpu.user,
      system: end.cpu.system - start.cpu.system,
    }
    const pct = (c: { user: number; system: number }, ms: number): number | null =>
      ms > 0 ? round(((c.user + c.system) / 1e3 / ms) * 100) : null
    const afterMs = afterWarmup ? end.at - afterWarmup.at : 0
    const cpuAfter =
      afterWarmup && afterMs > 1_000
        ? pct(
            { user: end.cpu.user - afterWarmup.cpu.user, system: end.cpu.system - afterWarmup.cpu.system },
            afterMs,
          )
        : null
    // The largest distance of any RSS sample (every 5 s) from the one at `from`, after it.
    const driftFrom = (from: Snapshot | null): number | null => {
      if (from === null) return null
      const later = memSamples.filter((s) => s.at >= from.at)
      return later.length > 1 ? Math.max(...later.map((s) => Math.abs(s.mem.rssMb - from.mem.rssMb))) : null
    }
    const rssRef = afterWarmup?.mem.rssMb ?? null
    const rssDrift = driftFrom(afterWarmup)
    // The drift split by direction: growth (what a leak shows) and falls (V8 giving pages back).
    const afterRef = afterWarmup === null ? [] : memSamples.filter((s) => s.at >= afterWarmup.at)
    const rssRise =
      rssRef !== null && afterRef.length > 1 ? Math.max(...afterRef.map((s) => s.mem.rssMb)) - rssRef : null
    const rssFall =
      rssRef !== null && afterRef.length > 1 ? rssRef - Math.min(...afterRef.map((s) => s.mem.rssMb)) : null
    const stats = (xs: number[]): { min: number | null; max: number | null } => ({
      min: xs.length > 0 ? round(Math.min(...xs), 1) : null,
      max: xs.length > 0 ? round(Math.max(...xs), 1) : null,
    })
    const minuteCpu = lines.map((l) => l.engine_cpu_pct as number | null).filter((v) => v !== null)
    const summary: Record<string, unknown> = {
      type: 'summary',
      bench: 'day',
      dialect: args.dialect,
      account: args.account,
      minutes: round(totalMs / 60_000, 2),
      interrupted,
      clients: args.clients,
      markets: markets.length,
      market_ids: markets,
      renderer: args.renderer,
      force_gc: args.forceGc,
      build: buildLabel(),
      simulator: `child process: createSimulator defaults (seed ${args.seed}, dialect ${args.dialect}); its CPU is not in engine_cpu_pct`,
      includes:
        `the figure is engine_cpu_pct_after_warmup (the minutes after the first ${args.warmupMinutes}), the engine ` +
        `${process.env[BUNDLED_ENV] === undefined ? 'under tsx' : 'bundled as the app ships it (build)'}; ` +
        (args.renderer
          ? 'engine_cpu_pct: this process = engine + client sinks (batchJson, as the transports serialise) + the browser host serving the main window (default workspace); not the simulator, not Chromium, not Playwright'
          : 'engine_cpu_pct: this process = engine + client sinks (batchJson, as the transports serialise); not the simulator') +
        (args.account
          ? `; the account is wanted (user channel${args.dialect === 'voxfi' ? ", and VoxFi's REST account reads" : ''})`
          : '; no account (--no-account)'),
      engine_cpu_pct: pct(cpuTotal, totalMs),
      engine_cpu_pct_after_warmup: cpuAfter,
      engine_cpu_pct_per_minute: minuteCpu,
      sim_cpu_pct:
        end.simTicks !== null && start.simTicks !== null
          ? round(pctOfCore(end.simTicks - start.simTicks, totalMs))
          : null,
      rss_mb: {
        start: round(start.mem.rssMb, 1),
        after_warmup: rssRef !== null ? round(rssRef, 1) : null,
        end: round(end.mem.rssMb, 1),
        ...stats(memSamples.map((s) => s.mem.rssMb)),
      },
      warmup_minutes: args.warmupMinutes,
      rss_drift_after_warmup_mb: round(rssDrift, 1),
      rss_rise_after_warmup_mb: round(rssRise, 1),
      rss_fall_after_warmup_mb: round(rssFall, 1),
      rss_drift_after_minute_1_mb: round(driftFrom(afterMinute1), 1),
      heap_used_mb: {
        start: round(start.mem.heapUsedMb, 1),
        after_warmup: afterWarmup ? round(afterWarmup.mem.heapUsedMb, 1) : null,
        end: round(end.mem.heapUsedMb, 1),
        ...stats(memSamples.map((s) => s.mem.heapUsedMb)),
      },
      engine_frames_per_sec: round((end.frames - start.frames) / (totalMs / 1000), 1),
      batches_per_client_per_sec: round(
        (end.sinks.batches - start.sinks.batches) / args.clients / (totalMs / 1000),
        1,
      ),
      ipc_bytes_per_sec: Math.round((end.sinks.bytes - start.sinks.bytes) / (totalMs / 1000)),
      ipc_bytes_per_batch:
        end.sinks.batches > start.sinks.batches
          ? Math.round((end.sinks.bytes - start.sinks.bytes) / (end.sinks.batches - start.sinks.batches))
          : null,
      targets: {
        engine_cpu_le_2pct: cpuAfter !== null ? cpuAfter <= 2 : null,
        engine_cpu_le_1_5pct: cpuAfter !== null ? cpuAfter <= 1.5 : null,
        rss_flat_within_20mb_after_warmup: rssDrift !== null ? rssDrift <= 20 : null,
        // Growth only: what a leak shows. A fall (V8 shrinking its young generation) breaks the line above, not this.
        rss_rise_within_20mb_after_warmup: rssRise !== null ? rssRise <= 20 : null,
      },
      load_check: {
        books_live_at_end: booksLiveAtEnd,
        of_markets: markets.length,
        sim_connections_at_end: subsAtEnd.connections,
        sim_markets_subscribed_at_end: Math.max(0, ...subsAtEnd.subscriptions.map((x) => x.markets)),
        sim_user_subscribed_at_end: subsAtEnd.subscriptions.some((x) => x.user),
        includes:
          'books_live_at_end: watched markets whose book the engine had live at the end (getMarketSnapshot); ' +
          'sim_*: what the simulator saw at the end (connections, markets of the largest subscription, whether ' +
          'any connection had the user channel)',
      },
      engine_state: status.state,
      engine_reconnects: status.reconnects,
      engine_incidents: status.incidents.map((i) => i.kind),
      engine_warnings: warnings,
      engine_problems: problems,
      load_average_1m: {
        start: round(loadStart),
        end: round(loads[loads.length - 1] ?? 0),
        max: round(Math.max(...loads)),
      },
      cpu_cores: cpus().length,
      node: process.version,
    }
    if (browser && start.chromium && end.chromium) {
      const c = chromiumPct(start.chromium, end.chromium, totalMs)
      const fpsList = lines.map((l) => l.fps).filter((v): v is number => typeof v === 'number')
      summary.renderer_cpu_pct = c.renderer ?? 0
      summary.chromium_cpu_pct = c
      summary.fps_per_minute = fpsList
      summary.fps =
        start.page?.frames != null && end.page?.frames != null
          ? round(((end.page.frames - start.page.frames) / (end.page.pageMs - start.page.pageMs)) * 1000, 1)
          : null
      summary.renderer_includes =
        'renderer_cpu_pct: the page renderer process(es) of headless Chromium (/proc/PID/stat); chromium_cpu_pct: every Chromium process by kind (browser, gpu-process, utility, zygote, renderer-webui) and total_chromium; playwright-node is the driver process, not Chromium' +
        (args.fps
          ? '; a requestAnimationFrame counter runs in the page for fps'
          : '; no fps counter (--no-fps)')
    }
    process.stdout.write(`${JSON.stringify(summary)}\n`)
    log(
      `done: engine ${String(summary.engine_cpu_pct)}% of a core (after warm-up ${String(cpuAfter)}%), ` +
        `RSS ${String((summary.rss_mb as { start: number }).start)} -> ${String((summary.rss_mb as { end: number }).end)} MB`,
    )
  } finally {
    for (const c of clients) c.dispose()
    await resources.browser?.close().catch(() => undefined)
    resources.browser = null
    await host?.close().catch(() => undefined)
    await engine?.close().catch(() => undefined)
    await sim.close().catch(() => undefined)
    resources.sim = null
  }
  return interrupted
}

process.on('exit', killChildren)
runSelfBundled(process.argv[1] as string, process.argv.slice(2))
  .then((code) => (code === null ? main() : process.exit(code)))
  .then(
    (interrupted) => process.exit(interrupted ? 130 : 0),
    (e: unknown) => {
      killChildren()
      if (e instanceof UsageError) {
        process.stderr.write(`bench:day: ${e.message} (${USAGE})\n`)
        process.exit(2)
      }
      process.stderr.write(`bench:day: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
      process.exit(1)
    },
  )
