// VoxFi fault benchmark (bench/README.md, "VoxFi faults"): the engine at the demo load against the simulator in
// VoxFi's dialect, in two phases, each with a fresh simulator (its own process: bench/lib/sim-child.ts --demo
// --dialect voxfi) and a fresh engine (createMonitor, production defaults, in this process):
//   revoked-key  the demo key stored and the account wanted, then the key revoked on the simulator, which closes
//                its user subscriber with 4001 (the whole socket: VoxFi reports errors by closing). For --minutes
//                (default 2) it counts the engine's reconnects and 4001 closes and checks that market data stays
//                live (books live, trades and frames arriving). Target: at most 1 reconnect a minute.
//   heartbeat    the same load with a valid key for --heartbeat-minutes (default 10), under the simulator's
//                heartbeat (protocol pings every 10 s, a client silent 20 s after one is dropped: its defaults).
//                It counts reconnects, lost connections and disconnect/stall incidents. Target: 0.
//   npx tsx bench/voxfi-faults.ts [--minutes 2] [--heartbeat-minutes 10] [--only revoked-key|heartbeat]
//                                 [--markets 20] [--clients 4] [--seed 7]
// One JSON line on stdout (the summary); progress on stderr. Exit 3 when a phase did not deliver the load it
// names, 2 on bad arguments, 1 on an error, 130 after Ctrl-C; the targets are reported, not asserted.
import { cpus, loadavg } from 'node:os'
import WebSocket from 'ws'
import { createMemoryStore } from '../src/main/services'
import { createMonitor } from '../src/main/services'
import type { Logger, MonitorClient, MonitorEngine } from '../src/main/services'
import { WINDOW_BOOK_DEPTH, type Interest, type ViewBatch } from '../src/shared/ipc'
import type { StreamStatus } from '../src/shared/model'
import { pickMarkets } from './lib/demo-load'
import { spawnSimChild, type SimChild } from './lib/sim-control'
import { round } from './lib/stats'

const USAGE =
  'usage: npx tsx bench/voxfi-faults.ts [--minutes 2] [--heartbeat-minutes 10] [--only revoked-key|heartbeat] ' +
  '[--markets 20] [--clients 4] [--seed 7]'

type Phase = 'revoked-key' | 'heartbeat'

/** Status, and the key error, are polled this often; the sim's connections too. */
const POLL_MS = 1_000
/** Every watched book's state is sampled this often (getMarketSnapshot per market). */
const BOOK_SAMPLE_MS = 5_000
/** Frames, trades and book views are bucketed this long for the timeline and the "data kept flowing" checks. */
const BUCKET_MS = 10_000
/** The setup must be live (every book live, the account subscribed) within this long. */
const SETUP_TIMEOUT_MS = 30_000
/** revoked-key: the engine must be back (live, every book live) this long after the revocation at most. */
const RECOVERY_LIMIT_MS = 15_000
/** The share of the simulator's frames the engine must have counted for the load to count as delivered. */
const DELIVERED_MIN_RATIO = 0.95
/** The simulator's heartbeat in VoxFi's dialect (createSimulator's defaults; src/sim/index.ts). */
const SIM_PING_MS = 10_000
const SIM_PONG_TIMEOUT_MS = 20_000

class UsageError extends Error {}

interface Args {
  revokedMinutes: number
  heartbeatMinutes: number
  phases: Phase[]
  markets: number
  clients: number
  seed: number
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    revokedMinutes: 2,
    heartbeatMinutes: 10,
    phases: ['revoked-key', 'heartbeat'],
    markets: 20,
    clients: 4,
    seed: 7,
  }
  const num = (i: number, name: string, ok: (n: number) => boolean): number => {
    const n = Number(argv[i])
    if (argv[i] === undefined || !ok(n)) throw new UsageError(`bad value for ${name}`)
    return n
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') continue
    if (a === '--minutes') args.revokedMinutes = num(++i, a, (n) => n > 0 && n <= 24 * 60)
    else if (a === '--heartbeat-minutes') args.heartbeatMinutes = num(++i, a, (n) => n > 0 && n <= 24 * 60)
    else if (a === '--markets') args.markets = num(++i, a, (n) => Number.isInteger(n) && n >= 1)
    else if (a === '--clients') args.clients = num(++i, a, (n) => Number.isInteger(n) && n >= 1 && n <= 64)
    else if (a === '--seed') args.seed = num(++i, a, (n) => Number.isInteger(n) && n >= 0)
    else if (a === '--only') {
      const p = argv[++i]
      if (p !== 'revoked-key' && p !== 'heartbeat')
        throw new UsageError('--only must be revoked-key or heartbeat')
      args.phases = [p]
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n`)
      process.exit(0)
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}`)
  }
  return args
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const t00 = performance.now()
const progress = (s: string): void => {
  process.stderr.write(`[${((performance.now() - t00) / 1000).toFixed(1).padStart(6)} s] voxfi: ${s}\n`)
}

/** Every simulator this run started, so a signal or an exception ends them (by pid). */
const children = new Set<SimChild>()
function killChildren(): void {
  for (const c of children) c.kill()
}

type Must = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }) => T
const must: Must = (r) => {
  if (!r.ok) throw new Error(`engine: ${r.error.code}: ${r.error.message}`)
  return r.value
}

/** What the engine's log said about its stream and its REST calls. */
interface LogCounts {
  /** 'stream: connection lost' / 'stream: closed' lines, by close code (or cause when the code is 0). */
  closesByCode: Record<string, number>
  closes4001: number
  closesAt: number[]
  /** REST requests the engine logged as failed, by HTTP status. */
  restFailedByStatus: Record<string, number>
  warnings: number
  errors: number
  /** The first few warnings and errors, verbatim (the engine scrubs keys from its log lines). */
  problems: string[]
}

function countingLogger(): { logger: Logger; counts: LogCounts } {
  const counts: LogCounts = {
    closesByCode: {},
    closes4001: 0,
    closesAt: [],
    restFailedByStatus: {},
    warnings: 0,
    errors: 0,
    problems: [],
  }
  const seen = (level: 'info' | 'warn' | 'error', m: string, f?: Record<string, unknown>): void => {
    if (m === 'stream: connection lost' || (m === 'stream: closed' && f?.cause !== 'closed')) {
      const code = typeof f?.code === 'number' && f.code !== 0 ? String(f.code) : `cause:${String(f?.cause)}`
      counts.closesByCode[code] = (counts.closesByCode[code] ?? 0) + 1
      if (f?.code === 4001) counts.closes4001++
      counts.closesAt.push(Date.now())
    }
    if (m === 'rest: request failed') {
      const status = typeof f?.status === 'number' ? String(f.status) : String(f?.code ?? 'none')
      counts.restFailedByStatus[status] = (counts.restFailedByStatus[status] ?? 0) + 1
    }
    if (level === 'info') return
    if (level === 'warn') counts.warnings++
    else counts.errors++
    if (counts.problems.length < 12) counts.problems.push(`${level} ${m} ${JSON.stringify(f ?? {})}`)
  }
  return {
    counts,
    logger: {
      info: (m, f) => seen('info', m, f),
      warn: (m, f) => seen('warn', m, f),
      error: (m, f) => seen('error', m, f),
    },
  }
}

/** A bare client on the simulator that subscribes to nothing: counts the heartbeat pings the simulator sends. */
async function pingObserver(wsUrl: string): Promise<{ pings: () => number; close: () => void }> {
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false })
  let pings = 0
  ws.on('ping', () => pings++)
  ws.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return { pings: () => pings, close: () => ws.terminate() }
}

interface Bucket {
  /** Seconds since the phase's measurement began (the revocation, for revoked-key), at the bucket's end. */
  t: number
  frames: number
  trades: number
  book_views: number
  books_live_min: number | null
  state: string
  /** The last bucket, shorter than 10 s. */
  partial?: true
}

interface PhaseResult {
  phase: Phase
  description: string
  includes: Record<string, string>
  minutes: number
  load: Record<string, unknown>
  figures: Record<string, unknown>
  targets: Record<string, boolean | null>
  timeline: Bucket[]
  engine_incidents: { kind: string; detail: string }[]
  engine_warnings: number
  engine_errors: number
  engine_problems: string[]
  notes: string[]
}

/** Runs one phase: its own simulator and engine, closed on the way out. */
async function runPhase(phase: Phase, args: Args, stopped: () => boolean): Promise<PhaseResult> {
  const minutes = phase === 'revoked-key' ? args.revokedMinutes : args.heartbeatMinutes
  progress(`${phase}: starting the simulator (voxfi, demo listing, seed ${args.seed}) ...`)
  const sim = await spawnSimChild(args.seed, { demo: true, dialect: 'voxfi' })
  children.add(sim)
  const { logger, counts } = countingLogger()
  let engine: MonitorEngine | null = null
  const clients: MonitorClient[] = []
  let observer: { pings: () => number; close: () => void } | null = null
  const notes: string[] = []
  try {
    if (sim.dialect !== 'voxfi') throw new Error(`the simulator speaks ${sim.dialect}, not voxfi`)
    const listing = await sim.listing()
    if (args.markets > listing.length)
      throw new UsageError(`--markets ${args.markets}: the simulator lists only ${listing.length} markets`)
    const markets = pickMarkets(listing, args.markets)
    engine = await createMonitor({
      settingsPath: null,
      credentials: createMemoryStore(),
      demo: false,
      logger,
    })

    // The sinks: trades per market (first client), book views, and what every client got.
    const tradesByMarket = new Map<string, number>(markets.map((m) => [m, 0]))
    let trades = 0
    let bookViews = 0
    let batches = 0
    for (let i = 0; i < args.clients; i++) {
      const firstClient = i === 0
      const sink = (batch: ViewBatch): void => {
        batches++
        if (!firstClient) return
        for (const t of batch.trades ?? []) {
          trades++
          tradesByMarket.set(t.market, (tradesByMarket.get(t.market) ?? 0) + 1)
        }
        bookViews += batch.books?.length ?? 0
      }
      clients.push(engine.attachClient({ label: `voxfi-${i + 1}`, sink }))
    }
    const first = clients[0] as MonitorClient
    const profile = must(await first.saveProfile({ name: 'voxfi', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl }))
    must(await first.selectProfile(profile.id))
    // The key before any subscription: every VoxFi REST call needs it (the listing, each market's first book),
    // and the user channel authenticates with it.
    must(await first.setApiKey({ key: sim.demoKey, label: 'voxfi-bench' }))
    const interests: Interest[] = markets.map((id) => ({ channel: 'market', id, filter: 'all' }))
    for (const [i, c] of clients.entries()) {
      must(await c.setBookDepth(WINDOW_BOOK_DEPTH))
      // The first client also wants the account, as a window's account pane does with a key stored.
      must(await c.setInterests(i === 0 ? [...interests, { channel: 'user' }] : interests))
    }

    const status = async (): Promise<StreamStatus> => must(await first.getStatus())
    const booksLive = async (): Promise<number> => {
      let n = 0
      for (const id of markets) if (must(await first.getMarketSnapshot(id)).book?.state === 'live') n++
      return n
    }
    const engineConn = async (): Promise<{ id: number | null; user: boolean; connections: number }> => {
      const s = await sim.subscriptions()
      const mine = s.subscriptions.find((x) => x.markets > 0 || x.user)
      return { id: mine?.connection ?? null, user: mine?.user ?? false, connections: s.connections }
    }

    // Set-up: every book live and the account subscribed on the simulator.
    const setupBy = Date.now() + SETUP_TIMEOUT_MS
    let setup = { live: 0, user: false }
    for (;;) {
      const st = await status()
      setup = { live: await booksLive(), user: (await engineConn()).user }
      if (st.state === 'live' && setup.live === markets.length && setup.user) break
      if (Date.now() > setupBy)
        throw new Error(
          `${phase}: the load was not set up in ${SETUP_TIMEOUT_MS / 1000} s (state ${st.state}, ` +
            `${setup.live}/${markets.length} books live, user channel ${setup.user ? '' : 'not '}subscribed)`,
        )
      await sleep(250)
    }
    progress(`${phase}: engine live, ${args.clients} clients x ${markets.length} markets + the account`)
    if (phase === 'heartbeat') observer = await pingObserver(sim.wsUrl)

    const st0 = await status()
    const conn0 = await engineConn()
    const sim0 = await sim.stats()
    const closes0 = counts.closesAt.length
    const closes4001_0 = counts.closes4001
    const incidentIds0 = new Set(st0.incidents.map((i) => i.id))
    const trades0 = new Map(tradesByMarket)
    const batches0 = batches
    const t0 = Date.now()
    let revokedChanged: boolean | null = null
    if (phase === 'revoked-key') {
      revokedChanged = await sim.setDemoKeyState({ revoked: true })
      progress(`${phase}: demo key revoked on the simulator; measuring ${minutes} min ...`)
    } else progress(`${phase}: measuring ${minutes} min under the simulator's heartbeat ...`)

    const endAt = t0 + minutes * 60_000
    const timeline: Bucket[] = []
    const newIncidents = new Map<number, { kind: string; detail: string }>()
    let bucket = { frames: st0.counters.frames, trades, bookViews, at: t0, liveMin: null as number | null }
    let lastBookSample = 0
    let recoveredAt: number | null = null
    let reconnectsAtRecovery: number | null = null
    let firstCloseAt: number | null = null
    let liveSamples = 0
    let allLiveSamples = 0
    let allLiveSamplesAfterRecovery = 0
    let samplesAfterRecovery = 0
    let minLive = markets.length
    let minLiveAfterRecovery: number | null = null
    let lastState = st0.state
    let authError: string | null = null
    let userSubscribedAtEnd = conn0.user
    for (;;) {
      const now = Date.now()
      if (now >= endAt || stopped()) break
      // Every 200 ms until the engine is back after the revocation (recovery_ms), then every second.
      await sleep(Math.min(recoveredAt === null ? 200 : POLL_MS, endAt - now))
      const st = await status()
      lastState = st.state
      authError = st.authError?.code ?? null
      for (const i of st.incidents) {
        if (!incidentIds0.has(i.id) && !newIncidents.has(i.id))
          newIncidents.set(i.id, { kind: i.kind, detail: i.detail })
      }
      if (firstCloseAt === null && counts.closesAt.length > closes0)
        firstCloseAt = counts.closesAt[closes0] ?? null
      const at = Date.now()
      // At every poll until the engine is back after the revocation, then every 5 s.
      if (at - lastBookSample >= (recoveredAt === null ? 0 : BOOK_SAMPLE_MS)) {
        lastBookSample = at
        const live = await booksLive()
        liveSamples++
        minLive = Math.min(minLive, live)
        bucket.liveMin = bucket.liveMin === null ? live : Math.min(bucket.liveMin, live)
        if (live === markets.length) allLiveSamples++
        // 'auth-error' is an open stream whose user channel's key was refused (connection.ts).
        const open = st.state === 'live' || st.state === 'auth-error'
        if (recoveredAt === null && open && live === markets.length) {
          recoveredAt = at
          reconnectsAtRecovery = st.reconnects
        } else if (recoveredAt !== null) {
          samplesAfterRecovery++
          minLiveAfterRecovery = Math.min(minLiveAfterRecovery ?? live, live)
          if (live === markets.length) allLiveSamplesAfterRecovery++
        }
        userSubscribedAtEnd = (await engineConn()).user
      }
      if (at - bucket.at >= BUCKET_MS) {
        timeline.push({
          t: round((at - t0) / 1000, 1) ?? 0,
          frames: st.counters.frames - bucket.frames,
          trades: trades - bucket.trades,
          book_views: bookViews - bucket.bookViews,
          books_live_min: bucket.liveMin,
          state: st.state,
        })
        bucket = { frames: st.counters.frames, trades, bookViews, at, liveMin: null }
      }
    }
    const elapsedMs = Date.now() - t0
    const st1 = await status()
    if (st1.counters.frames > bucket.frames || trades > bucket.trades)
      timeline.push({
        t: round(elapsedMs / 1000, 1) ?? 0,
        frames: st1.counters.frames - bucket.frames,
        trades: trades - bucket.trades,
        book_views: bookViews - bucket.bookViews,
        books_live_min: bucket.liveMin,
        state: st1.state,
        partial: true,
      })
    const sim1 = await sim.stats()
    const liveAtEnd = await booksLive()
    const conn1 = await engineConn()
    userSubscribedAtEnd = conn1.user
    const pings = observer?.pings() ?? null
    const mins = elapsedMs / 60_000
    const secs = elapsedMs / 1000

    const reconnects = st1.reconnects - st0.reconnects
    const framesEngine = st1.counters.frames - st0.counters.frames
    const framesSim = sim1.framesSent - sim0.framesSent
    const deliveredRatio = framesSim > 0 ? framesEngine / framesSim : null
    const tradesPerMarket = markets.map((m) => (tradesByMarket.get(m) ?? 0) - (trades0.get(m) ?? 0))
    const tradesInPhase = tradesPerMarket.reduce((a, b) => a + b, 0)
    const closes = counts.closesAt.length - closes0
    const closes4001 = counts.closes4001 - closes4001_0
    const incidents = [...newIncidents.values()]
    // After the first full bucket past the recovery: every bucket had frames and trades.
    const afterRecovery = timeline.filter(
      (b) => b.partial !== true && recoveredAt !== null && t0 + b.t * 1000 - BUCKET_MS >= recoveredAt,
    )
    const bucketsWithoutTrades = afterRecovery.filter((b) => b.trades === 0).length
    const bucketsWithoutFrames = afterRecovery.filter((b) => b.frames === 0).length
    const delivered =
      deliveredRatio !== null &&
      deliveredRatio >= DELIVERED_MIN_RATIO &&
      framesEngine > 0 &&
      tradesInPhase > 0 &&
      (phase === 'revoked-key' ? revokedChanged === true : true)
    if (!delivered)
      notes.push(
        `load not delivered: engine counted ${framesEngine} of the simulator's ${framesSim} frames ` +
          `(ratio ${String(round(deliveredRatio, 3))}, at least ${DELIVERED_MIN_RATIO} needed), ${tradesInPhase} trades` +
          (phase === 'revoked-key' && revokedChanged !== true
            ? '; the simulator did not revoke the key'
            : ''),
      )
    if (stopped()) notes.push('interrupted: the phase was cut short')

    const common = {
      minutes: round(mins, 2) ?? 0,
      load: {
        delivered,
        markets: markets.length,
        clients: args.clients,
        account_wanted: true,
        market_ids: markets,
        engine_frames: framesEngine,
        sim_frames_sent: framesSim,
        delivered_ratio: round(deliveredRatio, 3),
        engine_frames_per_sec: round(framesEngine / secs, 1),
        trades_per_sec: round(tradesInPhase / secs, 1),
        batches_per_client_per_sec: round((batches - batches0) / args.clients / secs, 1),
        books_live_at_start: setup.live,
        books_live_at_end: liveAtEnd,
        sim_connections_at_end: conn1.connections,
      },
      timeline,
      engine_incidents: incidents,
      engine_warnings: counts.warnings,
      engine_errors: counts.errors,
      engine_problems: counts.problems,
      notes,
    }
    if (phase === 'revoked-key') {
      const reconnectsPerMin = mins > 0 ? reconnects / mins : null
      const recoveryMs = recoveredAt === null ? null : recoveredAt - t0
      const marketDataLive =
        recoveryMs !== null &&
        recoveryMs <= RECOVERY_LIMIT_MS &&
        liveAtEnd === markets.length &&
        allLiveSamplesAfterRecovery === samplesAfterRecovery &&
        bucketsWithoutTrades === 0 &&
        bucketsWithoutFrames === 0 &&
        Math.min(...tradesPerMarket) > 0
      return {
        phase,
        description:
          `Demo load (${args.clients} clients x ${markets.length} markets, the first also wanting the account) on ` +
          `the VoxFi simulator with its demo key stored; at t=0 the key is revoked on the simulator ` +
          `(setKeyState(demoKey, {revoked: true})), which closes the engine's socket with 4001. Measured for ` +
          `${round(mins, 2)} min from the revocation.`,
        includes: {
          reconnects: 'StreamStatus.reconnects after the revocation minus before it (every reopened stream)',
          reconnects_per_min: 'reconnects / the minutes measured from the revocation (target <= 1)',
          reconnects_after_recovery:
            'reconnects after recovery_ms: the steady state with the key refused (the one reconnect the 4001 ' +
            'forces is before it)',
          closes_4001:
            "the engine's own log: stream closes with code 4001 after the revocation ('stream: connection lost')",
          closes_by_code:
            'every stream close the engine logged after the revocation, by close code (or cause)',
          rest_failed_by_status:
            'REST requests the engine logged as failed over the whole phase, by HTTP status',
          recovery_ms:
            'revocation to the first sample (every 200 ms until then) with the stream open (state live or ' +
            'auth-error: open, the account refused) and every watched book live (limit 15 s)',
          market_data_live:
            'recovered within 15 s, then every 5 s sample had every book live, every 10 s bucket had frames and ' +
            "trades (first client's sink), every market traded at least once, and every book live at the end",
          user_subscribed_at_end:
            "whether the simulator still had the engine's user-channel subscription at the end (expected false)",
          auth_error:
            "StreamStatus.authError.code at the end (the sticky key error; expected 'unauthorized')",
        },
        ...common,
        figures: {
          reconnects,
          reconnects_per_min: round(reconnectsPerMin, 2),
          reconnects_after_recovery:
            reconnectsAtRecovery === null ? null : st1.reconnects - reconnectsAtRecovery,
          closes_4001: closes4001,
          closes: closes,
          closes_by_code: counts.closesByCode,
          first_close_after_ms: firstCloseAt === null ? null : firstCloseAt - t0,
          rest_failed_by_status: counts.restFailedByStatus,
          recovery_ms: recoveryMs,
          market_data_live: marketDataLive,
          book_samples: liveSamples,
          book_samples_all_live: allLiveSamples,
          book_samples_after_recovery: samplesAfterRecovery,
          book_samples_after_recovery_all_live: allLiveSamplesAfterRecovery,
          books_live_min: minLive,
          books_live_min_after_recovery: minLiveAfterRecovery,
          buckets_after_recovery: afterRecovery.length,
          buckets_without_trades: bucketsWithoutTrades,
          buckets_without_frames: bucketsWithoutFrames,
          trades_per_market_min: Math.min(...tradesPerMarket),
          state_at_end: lastState,
          auth_error: authError,
          user_subscribed_at_end: userSubscribedAtEnd,
          key_revoked_on_sim: revokedChanged,
        },
        targets: {
          reconnects_per_min_le_1: reconnectsPerMin === null ? null : reconnectsPerMin <= 1,
          market_data_live: marketDataLive,
        },
      }
    }
    const sameConnection = conn0.id !== null && conn0.id === conn1.id
    const expectedPings = Math.floor(elapsedMs / SIM_PING_MS)
    if (pings !== null && pings < expectedPings - 1)
      notes.push(
        `the ping observer saw ${pings} pings where about ${expectedPings} were due: check the heartbeat`,
      )
    const stallsOrDisconnects = incidents.filter((i) => i.kind === 'disconnect' || i.kind === 'stall').length
    return {
      phase,
      description:
        `Demo load (${args.clients} clients x ${markets.length} markets, the first also wanting the account, key ` +
        `valid) on the VoxFi simulator for ${round(mins, 2)} min, under its heartbeat: protocol pings every ` +
        `${SIM_PING_MS / 1000} s, a client that has not answered ${SIM_PONG_TIMEOUT_MS / 1000} s after a ping is ` +
        `dropped (createSimulator's VoxFi defaults).`,
      includes: {
        reconnects: 'StreamStatus.reconnects at the end minus at the start (target 0)',
        closes:
          "stream closes the engine logged during the phase, by code or cause ('stream: connection lost')",
        disconnect_incidents: "the engine's new incidents of kind disconnect or stall (target 0)",
        same_sim_connection:
          "whether the simulator's connection carrying the engine's subscriptions was the same one at the end " +
          '(a heartbeat drop makes the engine reconnect on a new one)',
        sim_pings_seen:
          'pings a bare observer client on the same simulator received (not subscribed to anything): shows the ' +
          'heartbeat ran; about one per 10 s',
      },
      ...common,
      figures: {
        reconnects,
        closes,
        closes_by_code: counts.closesByCode,
        disconnect_incidents: stallsOrDisconnects,
        same_sim_connection: sameConnection,
        sim_connection_id: { start: conn0.id, end: conn1.id },
        sim_pings_seen: pings,
        sim_pings_due: expectedPings,
        rest_failed_by_status: counts.restFailedByStatus,
        books_live_min: minLive,
        book_samples: liveSamples,
        book_samples_all_live: allLiveSamples,
        buckets_without_frames: timeline.filter((b) => b.frames === 0).length,
        state_at_end: lastState,
        user_subscribed_at_end: userSubscribedAtEnd,
      },
      targets: {
        no_reconnects: reconnects === 0,
        no_disconnect_incidents: stallsOrDisconnects === 0 && closes === 0,
      },
    }
  } finally {
    observer?.close()
    for (const c of clients) c.dispose()
    await engine?.close().catch(() => undefined)
    await sim.close().catch(() => undefined)
    children.delete(sim)
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2))
  let interrupted = false
  const onSignal = (sig: NodeJS.Signals): void => {
    if (interrupted) {
      killChildren()
      process.exit(130)
    }
    interrupted = true
    progress(`${sig}: stopping the phase (again to stop at once) ...`)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  const loadStart = loadavg()[0] ?? 0
  progress(`${cpus().length} CPU cores, load average ${loadStart.toFixed(2)}`)
  const phases: PhaseResult[] = []
  for (const p of args.phases) {
    if (interrupted) break
    phases.push(await runPhase(p, args, () => interrupted))
  }
  const byPhase = (p: Phase): PhaseResult | undefined => phases.find((x) => x.phase === p)
  const revoked = byPhase('revoked-key')
  const heartbeat = byPhase('heartbeat')
  const delivered = phases.every((p) => p.load.delivered === true)
  const summary = {
    type: 'summary',
    bench: 'voxfi-faults',
    dialect: 'voxfi',
    ok: delivered,
    interrupted,
    seed: args.seed,
    simulator: `child process (bench/lib/sim-child.ts --demo --dialect voxfi, seed ${args.seed}), one per phase`,
    engine: 'createMonitor in this process, production defaults (no stream, liveness or resync tuning)',
    headline: {
      revoked_key_reconnects_per_min: revoked?.figures.reconnects_per_min ?? null,
      revoked_key_closes_4001: revoked?.figures.closes_4001 ?? null,
      revoked_key_market_data_live: revoked?.figures.market_data_live ?? null,
      heartbeat_reconnects: heartbeat?.figures.reconnects ?? null,
      heartbeat_disconnect_incidents: heartbeat?.figures.disconnect_incidents ?? null,
    },
    targets: {
      revoked_key_reconnects_per_min_le_1: revoked?.targets.reconnects_per_min_le_1 ?? null,
      revoked_key_market_data_live: revoked?.targets.market_data_live ?? null,
      heartbeat_no_reconnects: heartbeat?.targets.no_reconnects ?? null,
      heartbeat_no_disconnect_incidents: heartbeat?.targets.no_disconnect_incidents ?? null,
    },
    phases,
    load_average_1m: { start: round(loadStart), end: round(loadavg()[0] ?? 0) },
    cpu_cores: cpus().length,
    node: process.version,
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`)
  for (const p of phases) {
    progress(`${p.phase}: ${JSON.stringify(p.figures)}`)
    progress(`${p.phase}: targets ${JSON.stringify(p.targets)}; load delivered: ${String(p.load.delivered)}`)
  }
  if (interrupted) return 130
  return delivered ? 0 : 3
}

process.on('exit', killChildren)
main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    killChildren()
    if (e instanceof UsageError) {
      process.stderr.write(`bench:voxfi: ${e.message} (${USAGE})\n`)
      process.exit(2)
    }
    process.stderr.write(`bench:voxfi: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  },
)
