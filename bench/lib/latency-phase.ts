// The engine at a fixed offered load, open loop: how long a trade takes from frame to batch and whether the
// engine keeps up. Its own module because two phases measure this way: the latency phase (run.ts) and the
// alerts phase's window at the offered load with the rules armed (alerts-phase.ts).
import { setTimeout as sleep } from 'node:timers/promises'
import { schedSample, threadTime } from './cpu'
import type { EngineHarness } from './engine-harness'
import { fmt } from './report'
import type { SimChild } from './sim-control'
import { MARKETS, OFFERED_RATE } from './workload'

export async function latencyPhase(
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

export type LatencyResult = Awaited<ReturnType<typeof latencyPhase>>
