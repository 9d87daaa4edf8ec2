// `npm run bench:windows [-- --seconds N] [--rate R]`: 16 windows, each watching its own 25 markets (400 in all),
// while the simulator (a separate process) offers R msgs/s (default 20,000) open loop over those markets. It
// reports whether any window was starved (the longest wait between two batches of market data to one window), the
// engine's longest event-loop stall (in this process, which runs the whole engine: socket read, decode, books,
// tapes, fan-out and every window's sink) and this process's CPU time in cores. It checks that the offered load
// was delivered and read.
// `--bridge` runs the windows as real pages in Chromium through the browser host's bridge instead
// (bench/windows-bridge.ts).
import { setTimeout as sleep } from 'node:timers/promises'
import { createMemoryStore, createMonitor, type Logger, type MonitorClient } from '../src/main/services'
import { firehoseId } from '../src/sim/firehose'
import { schedSample, threadTime } from './lib/cpu'
import { spawnSimChild } from './lib/sim-control'
import { describeStall, startStallMeter } from './lib/stall-meter'
import { runBridge } from './windows-bridge'

const TRICKLE = 400

function option(name: string, fallback: number, signed = false): number {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0) return fallback
  const v = Number(process.argv[i + 1])
  if (!Number.isFinite(v) || (!signed && v <= 0))
    throw new Error(`--${name} must be a ${signed ? '' : 'positive '}number`)
  return v
}

const BRIDGE = process.argv.includes('--bridge')
const WINDOWS = option('pages', 16)
const PER_WINDOW = 25
const RATE = option('rate', 20_000)
const SECONDS = option('seconds', 15)
/** A window that waits longer than this between two batches while its markets trade is starved. */
const STARVED_MS = 1_000

async function main(): Promise<number> {
  if (BRIDGE) {
    const cpuProf = process.argv.indexOf('--cpu-prof')
    return runBridge(
      {
        pages: WINDOWS,
        perPage: PER_WINDOW,
        rate: RATE,
        seconds: SECONDS,
        starvedMs: STARVED_MS,
        cpuProfDir: cpuProf > 0 ? (process.argv[cpuProf + 1] ?? null) : null,
        hostNice: process.argv.includes('--host-nice') ? option('host-nice', 0, true) : null,
      },
      { info: () => {}, warn: () => {}, error: (m) => process.stderr.write(`${m}\n`) },
    )
  }
  const sim = await spawnSimChild(7)
  const problems: string[] = []
  const logger: Logger = {
    info: () => {},
    warn: (m) => void problems.push(`warn ${m}`),
    error: (m) => void problems.push(`error ${m}`),
  }
  const engine = await createMonitor({
    settingsPath: null,
    credentials: createMemoryStore(),
    demo: false,
    logger,
  })
  const ids = Array.from({ length: WINDOWS * PER_WINDOW }, (_, i) => firehoseId(i))
  const lastBatchAt = new Array<number>(WINDOWS).fill(0)
  const longestGap = new Array<number>(WINDOWS).fill(0)
  const batches = new Array<number>(WINDOWS).fill(0)
  let measuring = false
  const clients: MonitorClient[] = []
  for (let w = 0; w < WINDOWS; w++) {
    clients.push(
      engine.attachClient({
        label: `window-${w + 1}`,
        sink: (batch) => {
          // Only market data counts: the fan-out's heartbeats (and status-only batches) reach a window whose data
          // is held back as well, and would hide the very starvation this measures.
          if (batch.books === undefined && batch.tickers === undefined && batch.trades === undefined) return
          const now = performance.now()
          if (measuring) {
            batches[w] = (batches[w] ?? 0) + 1
            longestGap[w] = Math.max(longestGap[w] ?? 0, now - (lastBatchAt[w] ?? now))
          }
          lastBatchAt[w] = now
        },
      }),
    )
  }
  const first = clients[0] as MonitorClient
  const saved = await first.saveProfile({ name: 'bench', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl })
  if (!saved.ok) throw new Error(saved.error.message)
  await first.selectProfile(saved.value.id)
  await sim.firehose(TRICKLE, ids.length)
  for (let w = 0; w < WINDOWS; w++) {
    const mine = ids.slice(w * PER_WINDOW, (w + 1) * PER_WINDOW)
    const r = await clients[w]!.setInterests(mine.map((id) => ({ channel: 'market', id, filter: 'all' })))
    if (!r.ok) throw new Error(r.error.message)
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    const s = await first.getStatus()
    if (s.ok && s.value.state === 'live' && s.value.counters.frames >= ids.length) break
    if (Date.now() > deadline) throw new Error('the engine did not go live')
    await sleep(100)
  }

  await sim.firehose(RATE, ids.length)
  await sleep(2_000)
  const framesAt = async () => {
    const s = await first.getStatus()
    return s.ok ? s.value.counters.frames : 0
  }
  const s0 = await sim.stats()
  const f0 = await framesAt()
  const sched0 = schedSample('self')
  const cpu0 = process.cpuUsage()
  const meter = startStallMeter()
  const t0 = performance.now()
  lastBatchAt.fill(t0)
  measuring = true
  await sleep(SECONDS * 1000)
  const stalls = meter.stop()
  measuring = false
  const secs = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  const thread = threadTime(sched0, schedSample('self'))
  const s1 = await sim.stats()
  const f1 = await framesAt()
  await sim.stop()

  const offered = (s1.sent - s0.sent) / secs
  const read = (f1 - f0) / secs
  const worstGap = Math.max(...longestGap)
  const starved = longestGap.filter((g) => g > STARVED_MS).length
  const perWindow = batches.map((b) => b / secs)
  console.log(
    `windows x markets  ${WINDOWS} x ${PER_WINDOW} (${ids.length} markets), ${SECONDS} s measured after 2 s`,
  )
  console.log(
    `load               offered ${Math.round(offered)} msgs/s (target ${RATE}), engine read ${Math.round(read)} msgs/s` +
      `${offered < RATE * 0.9 ? '  << the simulator did NOT deliver the load named' : ''}` +
      `${read < offered * 0.9 ? '  << the engine fell behind' : ''}`,
  )
  console.log(
    `event-loop stall   max ${stalls.maxMs} ms, p99 ${stalls.p99Ms} ms, p50 ${stalls.p50Ms} ms` +
      ' (monitorEventLoopDelay, 5 ms resolution: the whole engine in this process); longest: ' +
      stalls.longest.map(describeStall).join(', '),
  )
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  const cores = cpuSeconds / secs
  const usPerMsg = read > 0 ? (cpuSeconds * 1e6) / (read * secs) : null
  const keptUp = read >= offered * 0.9
  // Behind on a machine that gave it no core to run on, the engine says nothing about itself: the CPU per message
  // read, times the load offered, is then the estimate (a backlog is read in larger pieces, so it flatters a bit).
  const verdict = keptUp
    ? cores < 1
      ? 'yes'
      : 'NO'
    : thread !== null && thread.waiting > 0.25
      ? `not shown: behind while its main thread waited for a CPU ${Math.round(thread.waiting * 100)}% of the time`
      : 'NO: it fell behind'
  console.log(
    `cpu                ${cores.toFixed(2)} cores (this process: the engine and the ${WINDOWS} counting sinks, all threads` +
      ` and GC)` +
      (thread
        ? `; main thread on CPU ${Math.round(thread.busy * 100)}%, waiting for a CPU ${Math.round(thread.waiting * 100)}%`
        : '') +
      (usPerMsg === null
        ? ''
        : `; ${usPerMsg.toFixed(1)} us CPU per message read, so ${((usPerMsg * offered) / 1e6).toFixed(2)} cores at the ` +
          `offered ${Math.round(offered)} msgs/s and ${((usPerMsg * RATE) / 1e6).toFixed(2)} at ${RATE}`) +
      `; under one core at the offered load: ${verdict}`,
  )
  console.log(
    `windows            batches/s per window min ${Math.min(...perWindow).toFixed(1)} max ${Math.max(...perWindow).toFixed(1)};` +
      ` longest wait between batches ${worstGap.toFixed(0)} ms; starved (> ${STARVED_MS} ms) ${starved} of ${WINDOWS}`,
  )
  if (problems.length > 0)
    console.log(`engine warnings    ${problems.length}: ${problems.slice(0, 3).join('; ')}`)
  for (const c of clients) c.dispose()
  await engine.close()
  await sim.close()
  return offered >= RATE * 0.9 && read >= offered * 0.9 ? 0 : 3
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
