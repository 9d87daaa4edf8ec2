// `npm run bench:orders`: the figures of issue 32's Targets table, each phase on a fresh simulator (VoxFi's
// dialect, in this process) and a fresh engine (createMonitor, production defaults), bench/README.md "Orders":
//   submit      ticket submit → request on the wire, p50 / p99 (target ≤ 5 / ≤ 20 ms)        orders/submit.ts
//   cancel-all  cancel-all of 50 resting orders: all cancelled ≤ 2 s, inside the rate limit   orders/cancel-all.ts
//   faults      1,000 orders under seeded drops, delays and errors: 0 duplicates, 0 lost      orders/faults.ts
//   paper       paper fills over a 10-minute replay without a print at or through: 0          orders/paper.ts
//   npm run bench:orders [-- --json] [--only PHASE] [--seed 7] [--submit-orders 300] [--fault-orders 1000]
//                        [--fault-rounds 4] [--paper-minutes 10] [--speed 50]
// Figures and what each includes go to stdout, progress to stderr; --json prints one JSON line instead. Exit 3 when
// a phase did not deliver the load it names, 2 on bad arguments, 1 on an error. Targets are reported, not asserted.
import { cpus, loadavg } from 'node:os'
import { schedSample, threadTime, type ThreadTime } from './lib/cpu'
import { round, SampleSet } from './lib/stats'
import { cancelAllPhase } from './orders/cancel-all'
import { FAULTS_LIMITS, faultsPhase } from './orders/faults'
import { paperPhase } from './orders/paper'
import { submitPhase } from './orders/submit'
import { Deadline, within } from './orders/venue'

const PHASES = ['submit', 'cancel-all', 'faults', 'paper'] as const
type Phase = (typeof PHASES)[number]

const USAGE =
  'usage: npm run bench:orders [-- --json] [--only submit|cancel-all|faults|paper] [--seed 7] ' +
  '[--submit-orders 300] [--fault-orders 1000] [--fault-rounds 4] [--paper-minutes 10] [--speed 50]'

class UsageError extends Error {}

interface Args {
  json: boolean
  phases: Phase[]
  seed: number
  submitOrders: number
  faultOrders: number
  faultRounds: number
  paperMinutes: number
  speed: number
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    json: false,
    phases: [...PHASES],
    seed: 7,
    submitOrders: 300,
    faultOrders: 1_000,
    faultRounds: 4,
    paperMinutes: 10,
    speed: 50,
  }
  const int = (i: number, name: string, lo: number, hi: number): number => {
    const n = Number(argv[i])
    if (argv[i] === undefined || !Number.isInteger(n) || n < lo || n > hi)
      throw new UsageError(`${name} takes a whole number from ${lo} to ${hi}`)
    return n
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') continue
    else if (arg === '--json') a.json = true
    else if (arg === '--seed') a.seed = int(++i, arg, 0, 2 ** 31)
    else if (arg === '--submit-orders') a.submitOrders = int(++i, arg, 10, 10_000)
    else if (arg === '--fault-orders') a.faultOrders = int(++i, arg, 10, 10_000)
    else if (arg === '--fault-rounds') a.faultRounds = int(++i, arg, 1, 100)
    else if (arg === '--paper-minutes') a.paperMinutes = int(++i, arg, 1, 60)
    else if (arg === '--speed') a.speed = int(++i, arg, 1, 50)
    else if (arg === '--only') {
      const p = argv[++i]
      if (!(PHASES as readonly string[]).includes(p ?? ''))
        throw new UsageError(`--only takes ${PHASES.join(', ')}`)
      a.phases = [p as Phase]
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`)
      process.exit(0)
    } else throw new UsageError(`unknown argument ${JSON.stringify(arg)}`)
  }
  return a
}

/** One figure: its value, the target where the issue sets one, and what it includes. */
interface Figure {
  name: string
  value: number | string | null
  unit?: string
  target?: string
  met?: boolean | null
  includes: string
}

interface PhaseReport {
  phase: Phase
  description: string
  figures: Figure[]
  /** Whether the phase delivered the load it names, and the counts that say so. */
  load: { delivered: boolean; checks: Record<string, boolean>; counts: Record<string, unknown> }
  seconds: number
  /** This process's main thread (engine, simulator and tap) during the phase: on a CPU, waiting for one, idle. */
  thread: { busy: number | null; waiting: number | null; idle: number | null } | null
  details: Record<string, unknown>
  problems: string[]
}

const t00 = performance.now()
const progress = (s: string): void => {
  process.stderr.write(`[${((performance.now() - t00) / 1000).toFixed(1).padStart(6)} s] orders: ${s}\n`)
}

const ms = (v: number | null): number | null => round(v, 2)

/**
 * The most a phase may take, from its load: several times what it takes on a loaded 2-core machine. Every wait inside
 * a phase has its own deadline too; this one is the backstop that keeps the run from hanging.
 */
function phaseMs(p: Phase, a: Args): number {
  if (p === 'submit') return 60_000 + (a.submitOrders + 20) * 200
  if (p === 'cancel-all') return 120_000
  if (p === 'faults') return 120_000 + a.faultOrders * 300
  return 120_000 + ((a.paperMinutes * 60_000) / a.speed) * 4
}

async function runPhase(p: Phase, a: Args): Promise<PhaseReport> {
  const before = schedSample()
  const t0 = performance.now()
  let report: Measured
  try {
    report = await within(measure(p, a), phaseMs(p, a), `phase ${p} to finish`)
  } catch (e) {
    if (!(e instanceof Deadline)) throw e
    report = {
      description: `gave up: ${e.message}`,
      figures: [],
      load: { delivered: false, checks: { finished: false }, counts: {} },
      details: {},
      problems: [e.message],
    }
  }
  const thread: ThreadTime | null = threadTime(before, schedSample())
  return {
    ...report,
    phase: p,
    seconds: round((performance.now() - t0) / 1000, 1) ?? 0,
    thread:
      thread === null
        ? null
        : { busy: round(thread.busy), waiting: round(thread.waiting), idle: round(thread.idle) },
  }
}

type Measured = Omit<PhaseReport, 'phase' | 'seconds' | 'thread'>

async function measure(p: Phase, a: Args): Promise<Measured> {
  if (p === 'submit') {
    const r = await submitPhase({ seed: a.seed, orders: a.submitOrders, warmup: 20, perSecond: 25 })
    const p50 = r.onWire.percentile(50)
    const p99 = r.onWire.percentile(99)
    const includes =
      'placeOrder(request) as a window makes it: JSON encode/decode of the call, the shared IPC validation, the ' +
      "client's own validation, the order service's checks (profile, mode, limits, the book estimate, duplicate), " +
      'the journal line written to disk, the key read (in-memory store), the body and the fetch, over loopback to ' +
      'the tap, to the moment the whole POST is there. Not the renderer, not the Electron process hop, not the OS ' +
      "keychain, not a real network; the simulator's steps share this process."
    return {
      description:
        `${r.onWire.count} live limit buys (after 20 warm-up ones), one at a time, ${25} a second, each resting ` +
        'several ticks below the touch on one of 4 markets, YES and NO.',
      figures: [
        {
          name: 'submit → on the wire p50',
          value: ms(p50),
          unit: 'ms',
          target: '≤ 5',
          met: p50 !== null && p50 <= 5,
          includes,
        },
        {
          name: 'submit → on the wire p99',
          value: ms(p99),
          unit: 'ms',
          target: '≤ 20',
          met: p99 !== null && p99 <= 20,
          includes,
        },
        { name: 'submit → on the wire max', value: ms(r.onWire.max()), unit: 'ms', includes: 'as above' },
        {
          name: 'submit → answer in the window p50 / p99',
          value: `${ms(r.answered.percentile(50))} / ${ms(r.answered.percentile(99))}`,
          unit: 'ms',
          includes:
            "as above, plus the venue's work and the answer back, decoded as the window would (context)",
        },
      ],
      load: {
        delivered: r.posts === a.submitOrders && r.rested === a.submitOrders && r.tradeRateLimited === 0,
        checks: {
          every_order_reached_the_venue_once: r.posts === a.submitOrders,
          every_order_rested: r.rested === a.submitOrders,
          no_429: r.tradeRateLimited === 0,
        },
        counts: { measured: r.onWire.count, posts: r.posts, rested: r.rested, trade_429: r.tradeRateLimited },
      },
      details: {
        not_rested: r.refused,
        data_gets: r.dataGets,
        data_429: r.data429,
        seconds: round(r.seconds, 1),
      },
      problems: r.problems,
    }
  }
  if (p === 'cancel-all') {
    const r = await cancelAllPhase({ seed: a.seed, orders: 50 })
    const inside = r.maxPerSecond <= r.bucket.requests && r.rateLimited === 0
    return {
      description:
        '50 live limit buys resting at the venue (4 markets, YES and NO), then one cancelAllOrders() call. The demo ' +
        `account's own trader keeps ${r.traderOpenBefore} orders open too (orders placed on VoxFi's site, as it ` +
        "were): the account's key cancels them like its own (docs/voxfi.md §8 item 35), so cancel-all cancels them " +
        'as well and leaves nothing open.',
      figures: [
        {
          name: 'all 50 cancelled',
          value: ms(r.allCancelledMs),
          unit: 'ms',
          target: '≤ 2,000',
          met: r.allCancelledMs !== null && r.allCancelledMs <= 2_000 && r.stillOpenAtVenue === 0,
          includes:
            "the call to the venue's answer to the last of the 50 DELETEs (the tap's clock): reading the venue's open " +
            'orders first, then the cancels as the engine paces them (CANCEL_RATE_PER_S a second, CANCEL_CONCURRENCY ' +
            "at once, orders/service.ts), the demo trader's among them",
        },
        {
          name: 'shown cancelled in the window',
          value: ms(r.shownCancelledMs),
          unit: 'ms',
          includes: "the call to the first account view in the window's batches with all 50 cancelled",
        },
        {
          name: 'cancel-all returned',
          value: ms(r.returnedMs),
          unit: 'ms',
          includes: "the call to its answer, the demo trader's cancels included",
        },
        {
          name: 'most trade requests in any 1 s',
          value: r.maxPerSecond,
          target: `≤ ${r.bucket.requests} (the trade bucket), no 429`,
          met: inside,
          includes: "the venue's own trade log during the call (arrival times), against its default bucket",
        },
        {
          name: '429 answered',
          value: r.rateLimited,
          includes: 'trade requests the venue answered 429 during the call',
        },
        {
          name: 'left open at the venue',
          value: `${r.stillOpenAtVenue} of 50, ${r.anyOpenAfter} in all`,
          target: '0',
          met: r.anyOpenAfter === 0,
          includes:
            "the venue's open orders after the call: of the 50, and of any kind (the demo trader's included)",
        },
        {
          name: 'cancels failed',
          value: r.result.failed,
          target: '0',
          met: r.result.failed === 0 && r.result.deferred === 0,
          includes: "cancel-all's own count of the cancels the venue refused or did not answer",
        },
      ],
      load: {
        delivered: r.restingAtVenue === 50 && r.result.asked >= 50,
        checks: {
          fifty_resting_at_the_venue: r.restingAtVenue === 50,
          cancel_all_asked_for_all_of_them: r.result.asked >= 50,
        },
        counts: {
          resting_at_venue: r.restingAtVenue,
          trader_open_before: r.traderOpenBefore,
          asked: r.result.asked,
          deletes: r.deletes,
        },
      },
      details: { result: r.result, bucket: r.bucket },
      problems: r.problems,
    }
  }
  if (p === 'faults') {
    const r = await faultsPhase({
      seed: a.seed,
      orders: a.faultOrders,
      rounds: a.faultRounds,
      faultShare: 0.3,
      concurrency: 12,
      perSecond: 30,
      progress,
    })
    const unaccounted = r.lost + r.mismatched + r.unknownLeft + r.cannotTell
    const reconcile = new SampleSet()
    for (const x of r.rounds) for (const t of x.reconcileMs) reconcile.add(t)
    return {
      description:
        `${r.intents} live limit buys in ${a.faultRounds} rounds on 8 markets, 12 at once and 30 a second, each with a ` +
        'market, outcome, price and quantity of its own (80% resting 4–14 ticks below the bid, 20% buying at or up to 4 ticks through the ask); a ' +
        'seeded 30% meet an order fault (drops with and without execution, delays incl. 9 s past the timeout, -1, ' +
        '502/503, PO1–PO5 and PO8). Each round: the venue is frozen, reconciliation settles, the account is read, each ' +
        "intent is judged against the venue's log and open orders, then cancel-all clears the round. The venue's " +
        `data limit is raised to ${FAULTS_LIMITS.rateLimit.requests}/min and its trade bucket to ` +
        `${FAULTS_LIMITS.tradeRateLimit.requests}/s for this phase (README).`,
      figures: [
        {
          name: 'duplicates',
          value: r.duplicates,
          target: '0',
          met: r.duplicates === 0,
          includes: "intents whose POST the venue's trade log holds more than once (matched by body)",
        },
        {
          name: 'lost or unaccounted',
          value: unaccounted,
          target: '0',
          met: unaccounted === 0,
          includes:
            'executed at the venue but not an app order in a matching state (working under the venue id while it ' +
            'rests, filled once it no longer does), never executed but not rejected in the app, or left unknown ' +
            '(saying why or not)',
        },
        { name: '… of which lost', value: r.lost, includes: 'no app order for an intent the venue executed' },
        {
          name: '… of which mismatched',
          value: r.mismatched,
          includes: "the app's final state says otherwise",
        },
        {
          name: '… of which left unknown',
          value: r.unknownLeft,
          includes: 'still pending or unknown after 120 s',
        },
        {
          name: '… of which "cannot tell"',
          value: r.cannotTell,
          includes:
            "left unknown by its reconciliation, saying so: executions that are this order's or another of the " +
            "app's (a wrong state avoided, but not an answer)",
        },
        {
          name: 'filled count off',
          value: r.filledCountOff,
          includes: 'the right state, but a filled count that differs from the venue (not counted above)',
        },
        {
          name: 'reconciliation p50 / max',
          value: `${ms(reconcile.percentile(50))} / ${ms(reconcile.max())}`,
          unit: 'ms',
          includes: `"unknown" to "reconciled" in the journal, ${reconcile.count} orders`,
        },
      ],
      load: {
        delivered:
          r.intents === a.faultOrders &&
          r.refusedBeforeSending === 0 &&
          r.posts - r.duplicates === r.intents &&
          r.faultsMet === r.faultsQueued,
        checks: {
          every_intent_sent: r.intents === a.faultOrders && r.refusedBeforeSending === 0,
          every_intent_reached_the_venue: r.posts - r.duplicates === r.intents,
          every_fault_met: r.faultsMet === r.faultsQueued,
        },
        counts: {
          intents: r.intents,
          posts: r.posts,
          executed: r.executed,
          faults_queued: r.faultsQueued,
          faults_met: r.faultsMet,
          faults_by_kind: r.faultsByKind,
          stray_posts: r.strayPosts,
          trade_429: r.tradeRateLimited,
        },
      },
      details: {
        app_states: r.appStates,
        data_gets: r.dataGets,
        data_gets_busiest_minute: r.dataGetsBusiestMinute,
        data_429: r.data429,
        rounds: r.rounds.map((x) => ({ ...x, reconcileMs: x.reconcileMs.length })),
        examples: r.examples,
      },
      problems: r.problems,
    }
  }
  const r = await paperPhase({ seed: a.seed, minutes: a.paperMinutes, speed: a.speed, everyMs: 40 })
  const ended = r.replay?.state === 'ended' && r.replay.positionMs >= r.recording.durationMs
  return {
    description:
      `A ${a.paperMinutes}-minute recording of the simulator's VoxFi feed (4 markets, generated offline from its ` +
      `stepped runtime, 100 ms steps), replayed at ${a.speed}× on the replay profile (paper) while the bench keeps ` +
      'paper orders at and around each book, YES and NO, buys and sells, and a few market orders.',
    figures: [
      {
        name: 'paper fills without a print at or through',
        value: r.unexplained,
        target: '0',
        met: r.unexplained === 0,
        includes:
          "fills no print explains: same market, in the order's outcome terms at or through its limit (market " +
          'orders: at the fill price), received after the order was placed and no later than the fill, and sent to ' +
          'the window no later than it',
      },
      {
        name: 'paper fills',
        value: r.fills,
        includes: `every paper fill the window saw, ${r.fillContracts} contracts`,
      },
      {
        name: 'paper orders placed',
        value: r.ordersPlaced,
        includes: `and ${r.cancels} cancelled by the bench`,
      },
    ],
    load: {
      delivered: ended && r.printsSeen === r.recording.prints && r.fills >= 1_000 && r.fillsMissed === 0,
      checks: {
        replayed_to_the_end: ended,
        every_print_reached_the_window: r.printsSeen === r.recording.prints,
        at_least_1000_fills: r.fills >= 1_000,
        no_fill_missed: r.fillsMissed === 0 && r.fillsWithoutOrder === 0,
      },
      counts: {
        recording_frames: r.recording.frames,
        recording_prints: r.recording.prints,
        recording_minutes: r.recording.durationMs / 60_000,
        recording_bytes: r.recording.bytes,
        prints_seen: r.printsSeen,
        fills_missed: r.fillsMissed,
        fills_without_order: r.fillsWithoutOrder,
        replay_seconds: round(r.replaySeconds, 1),
      },
    },
    details: { refusals: r.refusals, examples: r.examples },
    problems: r.problems,
  }
}

function printPhase(r: PhaseReport): void {
  const out: string[] = [``, `== ${r.phase} (${r.seconds} s) — ${r.description}`]
  for (const f of r.figures) {
    const value = `${f.value ?? '-'}${f.unit ? ` ${f.unit}` : ''}`
    const target = f.target === undefined ? '' : `  [target ${f.target}: ${f.met ? 'met' : 'NOT met'}]`
    out.push(`  ${f.name.padEnd(44)} ${value.padStart(16)}${target}`)
    out.push(`      ${f.includes}`)
  }
  const failed = Object.entries(r.load.checks)
    .filter(([, v]) => !v)
    .map(([k]) => k)
  out.push(
    `  load ${r.load.delivered ? 'delivered' : `NOT delivered (${failed.join(', ')})`}: ${JSON.stringify(r.load.counts)}`,
  )
  if (r.thread !== null)
    out.push(
      `  main thread: busy ${Math.round((r.thread.busy ?? 0) * 100)}%, waiting for a core ${Math.round((r.thread.waiting ?? 0) * 100)}%`,
    )
  out.push(`  details: ${JSON.stringify(r.details)}`)
  if (r.problems.length > 0) out.push(`  engine warnings: ${r.problems.length}, first: ${r.problems[0]}`)
  process.stdout.write(`${out.join('\n')}\n`)
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2))
  const loadStart = loadavg()[0] ?? 0
  progress(`${cpus().length} CPU cores, load average ${loadStart.toFixed(2)} at the start`)
  if (!args.json)
    process.stdout.write(`load average at the start: ${loadStart.toFixed(2)} (${cpus().length} cores)\n`)
  const phases: PhaseReport[] = []
  for (const p of args.phases) {
    progress(`${p} ...`)
    const r = await runPhase(p, args)
    phases.push(r)
    progress(`${p}: done in ${r.seconds} s, load ${r.load.delivered ? 'delivered' : 'NOT delivered'}`)
    if (!args.json) printPhase(r)
    // A phase that gave up may still have its simulator and engine running: the next would be measured beside them.
    if (r.load.checks.finished === false) {
      progress(`stopping after ${p}: ${r.problems[0] ?? 'it gave up'}`)
      break
    }
  }
  const loadEnd = loadavg()[0] ?? 0
  const delivered = phases.every((p) => p.load.delivered)
  if (args.json) {
    const summary = {
      type: 'summary',
      bench: 'orders',
      ok: delivered,
      seed: args.seed,
      simulator: 'createSimulator in this process, VoxFi dialect, one per phase',
      engine: 'createMonitor in this process, production defaults, one per phase',
      phases,
      load_average_1m: { start: round(loadStart), end: round(loadEnd) },
      cpu_cores: cpus().length,
      node: process.version,
    }
    process.stdout.write(`${JSON.stringify(summary)}\n`)
  } else process.stdout.write(`\nload average at the end: ${loadEnd.toFixed(2)}\n`)
  return delivered ? 0 : 3
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`bench:orders: ${e.message} (${USAGE})\n`)
      process.exit(2)
    }
    process.stderr.write(`bench:orders: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  },
)
