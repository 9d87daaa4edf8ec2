// Measures a consumer's throughput at saturation. The simulator's firehose runs closed-loop (sim-child 'flow'):
// it keeps between `low` and `high` messages unread by the consumer, so the consumer always has work queued
// and the simulator never trips its 64 MiB slow-consumer cut-off. Whether the consumer really was the
// bottleneck is read from its scheduler statistics (idle share) rather than assumed.
import { schedSample, threadTime, type ThreadTime } from './cpu'
import { readIo, startProbe, type ProbeResult } from './probe'
import type { SimChild } from './sim-control'

export interface SaturationResult {
  msgsPerSec: number
  messages: number
  seconds: number
  /** The consumer's thread (its process's main thread) over the window; null off Linux. */
  consumer: ThreadTime | null
  /** CPU time of the whole consuming process (all threads: GC helpers included) over the window. */
  processCpuSeconds: number
  /** Messages per second of this process's CPU time: its capacity with a whole core, robust to contention. */
  msgsPerCpuSec: number | null
  /** The simulator's thread over the window. */
  simulator: ThreadTime | null
  /** GC, reads, context switches and machine load over the window (probe.ts). */
  probe: ProbeResult
  /** The simulator's write(2)/writev(2) calls over the window, and messages per call (its write batching). */
  simWrites: number | null
  msgsPerSimWrite: number | null
}

/** A measurement window as the consuming process sees it: its count and CPU time at both edges, and its probe. */
export interface OpenWindow {
  count: number
  /** CLOCK_MONOTONIC (process.hrtime) in ms, the same clock in every process: when `count` was read. */
  atMs: number
  close(): Promise<{ count: number; atMs: number; cpuSeconds: number; probe: ProbeResult }>
}

export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6

/** Opens windows on the consuming process (this one, or a child that measures itself: raw-control.ts). */
export interface WindowMeter {
  open(simPid: number): Promise<OpenWindow>
}

/** The consumer is this process. */
export function selfMeter(count: () => number | Promise<number>): WindowMeter {
  return {
    open: async (simPid) => {
      const c0 = await count()
      const at0 = monotonicMs()
      const probe = startProbe(simPid)
      const cpu0 = process.cpuUsage()
      return {
        count: c0,
        atMs: at0,
        close: async () => {
          const c1 = await count()
          const at1 = monotonicMs()
          const cpu = process.cpuUsage(cpu0)
          return {
            count: c1,
            atMs: at1,
            cpuSeconds: (cpu.user + cpu.system) / 1e6,
            probe: probe.end(c1 - c0),
          }
        },
      }
    },
  }
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
  /** Flow window (messages unread by the consumer); defaults FLOW_HIGH / FLOW_LOW. */
  high?: number
  low?: number
  /**
   * How long to hold this thread after starting, to build the initial backlog (default PRIME_MS). Only useful
   * when this thread is the consumer: 0 for a consumer in another process.
   */
  primeMs?: number
  /** Called at the start and the end of the measurement window (e.g. to read other counters). */
  onWindow?: (edge: 'start' | 'end') => void
  /** The consuming process, when it is not this one: its pid (scheduler stats) and how to measure it. */
  consumer?: { pid: number; meter: WindowMeter }
}

const ACK_MS = 20
/**
 * The engine pings every 2 s and gives up after 2.5 s without a pong (LIVENESS_DEFAULTS); the pong queues behind
 * every unread message. At 120k unread (the first version) a consumer slowed to 40k msgs/s by a busy machine
 * waited 3 s for it and reconnected. 50k keeps that under about 1.3 s even then, and 20k messages (about 3 MB)
 * are still far more than one 64 KiB read.
 */
const FLOW_HIGH = 50_000
const FLOW_LOW = 20_000
/** Long enough for about 50k messages to queue at the simulator's pace; the flow window takes over after. */
const PRIME_MS = 250
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
  await o.sim.flow(o.rate ?? 500_000, o.markets, o.high ?? FLOW_HIGH, o.low ?? FLOW_LOW)
  // Prime a backlog by holding this thread. Until one exists, every frame the simulator sends is its own write
  // syscall, which makes the simulator, not the consumer, the bottleneck; with data queued it batches writes.
  // Once primed, the flow window keeps at least `low` messages queued whenever the consumer is the slower side.
  blockFor(o.primeMs ?? PRIME_MS)
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
    // Then wait for the consumer to take in everything that was sent: the next window starts with nothing
    // queued for this consumer, and no time is lost waiting for a quiet period.
    const sent = await o.sim.stop()
    const deadline = performance.now() + 15_000
    while ((await o.count()) - base < sent && performance.now() < deadline) await sleep(10)
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
    return measureWindow(o, o.onWindow)
  })
}

/**
 * Several windows in one closed-loop flow: the consumer stays saturated from the first window to the last, so
 * they share one backlog (and its read sizes) instead of each building its own. `before(i)` runs ahead of
 * window i, with the firehose still running (e.g. to change what the consumer does); `onWindow(i, edge)` is
 * called at the edges of each window, `after(i, result)` when it is measured.
 */
export async function measureWindows(
  o: Omit<SaturationOptions, 'onWindow'> & {
    windows: number
    before?: (i: number) => Promise<void>
    onWindow?: (i: number, edge: 'start' | 'end') => void
    /** Window i's result, as soon as it is measured (e.g. to report progress). */
    after?: (i: number, r: SaturationResult) => void
  },
): Promise<SaturationResult[]> {
  const { windows, before, onWindow, after, ...flow } = o
  return withFlow(flow, async () => {
    await sleep(flow.warmupMs)
    const out: SaturationResult[] = []
    for (let i = 0; i < windows; i++) {
      await before?.(i)
      const r = await measureWindow(flow, onWindow ? (edge) => onWindow(i, edge) : undefined)
      out.push(r)
      after?.(i, r)
    }
    return out
  })
}

/** One window, the flow already running and the consumer saturated. */
async function measureWindow(
  o: Omit<SaturationOptions, 'onWindow'>,
  onWindow: ((edge: 'start' | 'end') => void) | undefined,
): Promise<SaturationResult> {
  const pid = o.consumer?.pid ?? 'self'
  const meter = o.consumer?.meter ?? selfMeter(o.count)
  const win = await meter.open(o.sim.pid)
  const c0 = win.count
  onWindow?.('start')
  const self0 = schedSample(pid)
  const sim0 = schedSample(o.sim.pid)
  const simIo0 = readIo(o.sim.pid)
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
  const closed = await win.close()
  const c1 = closed.count
  onWindow?.('end')
  const self1 = schedSample(pid)
  const sim1 = schedSample(o.sim.pid)
  const probed = closed.probe
  const simIo1 = readIo(o.sim.pid)
  // The counts' own timestamps: a request to a busy child can take a while to be answered.
  const seconds = (closed.atMs - win.atMs) / 1000
  const processCpuSeconds = closed.cpuSeconds
  const simWrites = simIo0 && simIo1 ? simIo1.syscw - simIo0.syscw : null
  return {
    probe: probed,
    simWrites,
    msgsPerSimWrite: simWrites !== null && simWrites > 0 ? (c1 - c0) / simWrites : null,
    msgsPerSec: (c1 - c0) / seconds,
    messages: c1 - c0,
    seconds,
    consumer: threadTime(self0, self1),
    processCpuSeconds,
    msgsPerCpuSec: processCpuSeconds > 0 ? (c1 - c0) / processCpuSeconds : null,
    simulator: threadTime(sim0, sim1),
  }
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
