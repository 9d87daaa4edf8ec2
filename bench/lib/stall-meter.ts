// The event-loop stalls of the process it runs in (where the engine runs): perf_hooks.monitorEventLoopDelay for
// the distribution, and a timer asked to run every PROBE_MS for the longest stalls with the time each ended, so a
// stall can be matched with what else happened then (a trace, a CPU profile, a page's gap). On a shared machine a
// stall is either work or a wait for a core: each kept stall says how much of it the main thread spent on a CPU
// (/proc/self/schedstat, read at every tick), and the rest is the scheduler's.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { schedSample } from './cpu'

const PROBE_MS = 5
/** Stalls kept with their time, longest first. */
const KEEP = 5

export interface Stall {
  /** When the stall ended (Date.now()). */
  endedAt: number
  ms: number
  /** Of `ms`, the main thread's time on a CPU (null without /proc); the rest it waited for a core or slept. */
  onCpuMs: number | null
}

export interface StallReport {
  maxMs: number
  p99Ms: number
  p50Ms: number
  /** The longest stalls seen by the probe timer (lateness past its PROBE_MS period), longest first. */
  longest: Stall[]
}

export function startStallMeter(): { stop(): StallReport } {
  const delay = monitorEventLoopDelay({ resolution: PROBE_MS })
  const longest: Stall[] = []
  let last = performance.now()
  let lastSched = schedSample('self')
  const probe = setInterval(() => {
    const now = performance.now()
    const sched = schedSample('self')
    const late = now - last - PROBE_MS
    const before = lastSched
    last = now
    lastSched = sched
    if (longest.length === KEEP && late <= (longest[KEEP - 1] as Stall).ms) return
    const onCpuMs = before === null || sched === null ? null : Math.round((sched.cpuNs - before.cpuNs) / 1e6)
    longest.push({ endedAt: Date.now(), ms: Math.round(late), onCpuMs })
    longest.sort((a, b) => b.ms - a.ms)
    longest.length = Math.min(longest.length, KEEP)
  }, PROBE_MS)
  delay.enable()
  return {
    stop() {
      delay.disable()
      clearInterval(probe)
      const ms = (ns: number) => Math.round(ns / 1e5) / 10
      return {
        maxMs: ms(delay.max),
        p99Ms: ms(delay.percentile(99)),
        p50Ms: ms(delay.percentile(50)),
        longest,
      }
    },
  }
}

/** "623 ms (40 ms on a CPU) at 05:19:23.457" (UTC). */
export function describeStall(s: Stall): string {
  const cpu = s.onCpuMs === null ? '' : ` (${s.onCpuMs} ms on a CPU)`
  return `${s.ms} ms${cpu} at ${new Date(s.endedAt).toISOString().slice(11, 23)}`
}
