// What a trader sees under load: one window in the system Chromium (headless, software raster), fed by the
// engine and the browser host from the simulator, in four scenarios (the demo's load; 5,000 msgs/s delivered to
// the one open market; the same firehose while the virtualised tape is scrolled continuously; a 500-market
// watchlist in the main window scrolled while the firehose runs over its markets). Reports
// renderer and Chromium CPU from /proc, rAF fps (and the scrolled list's), and frame to pixel (the venue's ts, or
// the engine's receipt time where the venue sends none, to the paint of the new tape row / ladder book version, by
// Element Timing). See bench/README.md, "UI benchmark".
//   npm run bench:ui -- [--scenario demo|firehose|tape-scroll|watchlist-scroll|all] [--rate MSGS_PER_SEC] [--seconds S]
//                       [--dialect voxfi|reference] [--renderer-dir DIR] [--cpu-profile FILE] [--trace FILE]
//                       [--trace-window cpu|counted]
// --dialect: the simulator's (default voxfi, as the app's demo runs it; reference for the earlier figures).
// --cpu-profile writes a DevTools CPU profile of the page over the measurement window (read it with
// bench/lib/profile-summary.ts); the profiler's own cost is in that run's figures.
// --trace writes a Chrome trace (DevTools Performance categories) of the page over the measurement window (read it
// with bench/lib/trace-summary.ts: main-thread time by event, style / layout / paint); its cost is in the figures.
// In demo and firehose the CPU is measured over a window of its own with no rAF counter in the page (the counter
// makes every frame commit), then fps and frame to pixel over a second window with it; --seconds each.
// --trace-window: which of the two the trace and the CPU profile cover (default cpu).
// --renderer-dir serves an already built renderer (e.g. an older commit's, to compare) instead of out/renderer.
// One JSON line on stdout; progress and a human summary on stderr. Exit 3 when a scenario's load was not
// delivered, 2 on bad arguments, 1 on an error.
import { existsSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join, resolve } from 'node:path'
import type { Logger } from '../src/main/services'
import { ensureRendererBuilt } from '../src/main/web/build'
import { DIALECTS, type Dialect } from '../src/sim/index'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/e2e/chromium.mjs'
import { DELIVERED_MIN_RATIO, runScenario, type ScenarioKind, type ScenarioResult } from './ui/scenario'
import { summary } from './ui/summary'

const WARMUP_SECONDS = 3

class UsageError extends Error {}

interface Args {
  scenarios: ScenarioKind[]
  dialect: Dialect
  rate: number
  seconds: number
  rendererDir: string | null
  cpuProfile: string | null
  trace: string | null
  traceWindow: 'cpu' | 'counted'
}

function parseArgs(argv: string[]): Args {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`)
    if (i < 0) return undefined
    const v = argv[i + 1]
    if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value`)
    return v
  }
  const known = new Set([
    '--scenario',
    '--rate',
    '--seconds',
    '--dialect',
    '--renderer-dir',
    '--cpu-profile',
    '--trace',
    '--trace-window',
  ])
  for (let i = 0; i < argv.length; i += 2) {
    if (!known.has(argv[i] ?? '')) throw new UsageError(`unknown argument ${argv[i] ?? ''}`)
  }
  const positive = (name: string, fallback: number): number => {
    const raw = value(name)
    const v = raw === undefined ? fallback : Number(raw)
    if (!Number.isFinite(v) || v <= 0) throw new UsageError(`--${name} must be a positive number`)
    return v
  }
  const scenario = value('scenario') ?? 'all'
  const kinds = ['demo', 'firehose', 'tape-scroll', 'watchlist-scroll'] as const
  if (scenario !== 'all' && !(kinds as readonly string[]).includes(scenario))
    throw new UsageError(`--scenario must be ${kinds.join(', ')} or all`)
  const traceWindow = value('trace-window') ?? 'cpu'
  if (traceWindow !== 'cpu' && traceWindow !== 'counted')
    throw new UsageError('--trace-window must be cpu or counted')
  const dialect = value('dialect') ?? 'voxfi'
  if (!(DIALECTS as readonly string[]).includes(dialect))
    throw new UsageError(`--dialect must be ${DIALECTS.join(' or ')}`)
  return {
    scenarios: scenario === 'all' ? [...kinds] : [scenario as ScenarioKind],
    dialect: dialect as Dialect,
    rate: positive('rate', 5000),
    seconds: positive('seconds', 15),
    rendererDir: value('renderer-dir') ?? null,
    cpuProfile: value('cpu-profile') ?? null,
    trace: value('trace') ?? null,
    traceWindow,
  }
}

/** One scenario per file: with several scenarios, the scenario's name goes before the file's extension. */
function perScenario(file: string | null, ext: string, kind: ScenarioKind, scenarios: number): string | null {
  if (file === null || scenarios === 1) return file
  return file.endsWith(ext) ? `${file.slice(0, -ext.length)}.${kind}${ext}` : `${file}.${kind}${ext}`
}

const progress = (line: string): void => {
  process.stderr.write(`ui-bench: ${line}\n`)
}

const logger: Logger = {
  info: () => {},
  warn: () => {},
  error: (m, f) => process.stderr.write(`engine: ${m} ${JSON.stringify(f ?? {})}\n`),
}

function loadavg(): number[] {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number)
  } catch {
    return []
  }
}

async function main(): Promise<number> {
  let args: Args
  try {
    args = parseArgs(process.argv.slice(2))
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    process.stderr.write(`ui-bench: ${e.message}\n`)
    return 2
  }
  if (!existsSync(CHROMIUM)) {
    console.log(JSON.stringify({ bench: 'ui', skipped: `${CHROMIUM} not found` }))
    return 0
  }
  let rendererDir: string
  if (args.rendererDir === null) {
    const built = await ensureRendererBuilt({ logger })
    if (built.built) progress('renderer built')
    rendererDir = built.outDir
  } else {
    rendererDir = resolve(args.rendererDir)
    if (!existsSync(join(rendererDir, 'index.html'))) {
      process.stderr.write(`ui-bench: ${rendererDir}/index.html not found\n`)
      return 2
    }
  }
  let version = ''
  const loadBefore = loadavg()
  const results: ScenarioResult[] = []
  for (const kind of args.scenarios) {
    results.push(
      await runScenario({
        kind,
        dialect: args.dialect,
        rate: args.rate,
        seconds: args.seconds,
        warmupSeconds: WARMUP_SECONDS,
        rendererDir,
        cpuProfile: perScenario(args.cpuProfile, '.cpuprofile', kind, args.scenarios.length),
        trace: perScenario(args.trace, '.json', kind, args.scenarios.length),
        traceWindow: args.traceWindow,
        logger,
        progress,
        onBrowser: (v) => {
          version = v
        },
      }),
    )
  }
  const delivered = results.every((r) => r.load.status === 'ok')
  const cores = cpus().length
  const busy = (loadBefore[0] ?? 0) > cores / 2
  const notes = busy
    ? [
        `busy machine: load average ${loadBefore[0] ?? ''} on ${cores} cores before the run; figures are contended`,
      ]
    : []
  const report = {
    bench: 'ui',
    ok: delivered,
    dialect: args.dialect,
    chromium: version,
    chromium_args: CHROMIUM_ARGS,
    renderer_dir: rendererDir,
    raster: 'software (headless, --disable-gpu: SwiftShader / software compositing)',
    cores,
    loadavg_before: loadBefore,
    loadavg_after: loadavg(),
    seconds: args.seconds,
    warmup_seconds: WARMUP_SECONDS,
    rate: args.rate,
    delivered_min_ratio: DELIVERED_MIN_RATIO,
    scenarios: results,
    notes,
  }
  console.log(JSON.stringify(report))
  process.stderr.write(summary(report))
  return delivered ? 0 : 3
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`ui-bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  },
)
