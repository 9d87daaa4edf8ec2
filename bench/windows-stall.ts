// `npm run bench:windows [-- --seconds N]`: 16 windows, each watching its own 25 markets (400 in all), while the
// simulator (a separate process) offers 20,000 msgs/s open loop over those markets. It reports whether any window
// was starved (the longest wait between two batches of market data to one window) and the engine's longest
// event-loop stall (perf_hooks.monitorEventLoopDelay in this process, which runs the whole engine: socket read,
// decode, books, tapes, fan-out and every window's sink). It checks that the offered load was delivered and read.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { createMemoryStore, createMonitor, type Logger, type MonitorClient } from '../src/main/services'
import { firehoseId } from '../src/sim/firehose'
import { spawnSimChild } from './lib/sim-control'

const WINDOWS = 16
const PER_WINDOW = 25
const RATE = 20_000
const TRICKLE = 400
const arg = process.argv.indexOf('--seconds')
const SECONDS = arg > 0 ? Number(process.argv[arg + 1]) : 15
/** A window that waits longer than this between two batches while its markets trade is starved. */
const STARVED_MS = 1_000

async function main(): Promise<void> {
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
  const delay = monitorEventLoopDelay({ resolution: 5 })
  const t0 = performance.now()
  lastBatchAt.fill(t0)
  measuring = true
  delay.enable()
  await sleep(SECONDS * 1000)
  delay.disable()
  measuring = false
  const secs = (performance.now() - t0) / 1000
  const s1 = await sim.stats()
  const f1 = await framesAt()
  await sim.stop()

  const offered = (s1.sent - s0.sent) / secs
  const read = (f1 - f0) / secs
  const ms = (ns: number) => (ns / 1e6).toFixed(1)
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
    `event-loop stall   max ${ms(delay.max)} ms, p99 ${ms(delay.percentile(99))} ms, p50 ${ms(delay.percentile(50))} ms` +
      ' (monitorEventLoopDelay, 5 ms resolution: the whole engine in this process)',
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
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
