// Measures a consumer's throughput at saturation. The simulator's firehose runs closed-loop (sim-child 'flow'):
// it keeps between `low` and `high` messages unread by the consumer, so the consumer always has work queued
// and the simulator never trips its 64 MiB slow-consumer cut-off. Whether the consumer really was the
// bottleneck is read from its scheduler statistics (idle share) rather than assumed.
import { schedSample, threadTime, type ThreadTime } from './cpu'
import type { SimChild } from './sim-control'

export interface SaturationResult {
  msgsPerSec: number
  messages: number
  seconds: number
  /** The consumer's thread (this process's main thread) over the window; null off Linux. */
  consumer: ThreadTime | null
  /** CPU time of this whole process (all threads: GC helpers included) over the window. */
  processCpuSeconds: number
  /** Messages per second of this process's CPU time: its capacity with a whole core, robust to contention. */
  msgsPerCpuSec: number | null
  /** The simulator's thread over the window. */
  simulator: ThreadTime | null
}

export interface SaturationOptions {
  sim: SimChild
  markets: number
  /** Messages the consumer has taken in (monotonic). */
  count: () => number | Promise<number>
  warmupMs: number
  measureMs: number
  /** Firehose rate while running; each 10 ms tick may burst up to a tenth of it. */
  rate?: number
  high?: number
  low?: number
  /** How long to hold this thread after starting, to build the initial backlog (default 500 ms). */
  primeMs?: number
  /** Called at the start and the end of the measurement window (e.g. to read other counters). */
  onWindow?: (edge: 'start' | 'end') => void
}

const ACK_MS = 20
const DEBUG = process.env.BENCH_DEBUG === '1'

function blockFor(ms: number): void {
  const until = Date.now() + ms
  while (Date.now() < until) {
    // Deliberately busy: the point is that this thread reads nothing for a moment.
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

export type FlowOptions = Omit<SaturationOptions, 'warmupMs' | 'measureMs'>

/** Runs `body` while the closed-loop firehose keeps the consumer saturated. */
export async function withFlow<T>(o: FlowOptions, body: () => Promise<T>): Promise<T> {
  const base = await o.count()
  await o.sim.flow(o.rate ?? 500_000, o.markets, o.high ?? 120_000, o.low ?? 50_000)
  // Prime a backlog by holding this thread. Until one exists, every frame the simulator sends is its own write
  // syscall, which makes the simulator, not the consumer, the bottleneck; with data queued it batches writes.
  // Once primed, the flow window keeps at least `low` messages queued whenever the consumer is the slower side.
  blockFor(o.primeMs ?? 500)
  let stopped = false
  const ackLoop = (async () => {
    while (!stopped) {
      o.sim.ack((await o.count()) - base)
      await sleep(ACK_MS)
    }
  })()
  try {
    return await body()
  } finally {
    stopped = true
    await ackLoop
    await o.sim.stop()
  }
}

/** Saturates until the consumer has taken in `messages` more (or `maxMs` passed); e.g. to fill bounded stores. */
export async function saturateFor(o: FlowOptions, messages: number, maxMs: number): Promise<number> {
  const start = await o.count()
  const deadline = performance.now() + maxMs
  return withFlow(o, async () => {
    for (;;) {
      const taken = (await o.count()) - start
      if (taken >= messages || performance.now() >= deadline) return taken
      await sleep(100)
    }
  })
}

export async function measureSaturation(o: SaturationOptions): Promise<SaturationResult> {
  return withFlow(o, async () => {
    await sleep(o.warmupMs)
    const c0 = await o.count()
    o.onWindow?.('start')
    const self0 = schedSample()
    const sim0 = schedSample(o.sim.pid)
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    if (DEBUG) {
      const end = t0 + o.measureMs
      while (performance.now() + 250 < end) {
        await sleep(250)
        const s = await o.sim.stats()
        process.stderr.write(`  probe: sent ${s.sent} total, consumer count ${await o.count()}\n`)
      }
      await sleep(Math.max(0, end - performance.now()))
    } else await sleep(o.measureMs)
    const c1 = await o.count()
    o.onWindow?.('end')
    const self1 = schedSample()
    const sim1 = schedSample(o.sim.pid)
    const cpu = process.cpuUsage(cpu0)
    const t1 = performance.now()
    const seconds = (t1 - t0) / 1000
    const processCpuSeconds = (cpu.user + cpu.system) / 1e6
    return {
      msgsPerSec: (c1 - c0) / seconds,
      messages: c1 - c0,
      seconds,
      consumer: threadTime(self0, self1),
      processCpuSeconds,
      msgsPerCpuSec: processCpuSeconds > 0 ? (c1 - c0) / processCpuSeconds : null,
      simulator: threadTime(sim0, sim1),
    }
  })
}

/** Waits until the consumer's count has not moved for `quietMs` (the backlog is drained), at most `maxMs`. */
export async function drain(
  count: () => number | Promise<number>,
  quietMs = 300,
  maxMs = 15_000,
): Promise<void> {
  const deadline = performance.now() + maxMs
  let last = await count()
  let stillSince = performance.now()
  while (performance.now() < deadline) {
    await sleep(50)
    const c = await count()
    if (c !== last) {
      last = c
      stillSince = performance.now()
    } else if (performance.now() - stillSince >= quietMs) return
  }
}
