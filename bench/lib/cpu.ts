// Where a thread's wall time went, from Linux's per-task scheduler statistics (/proc/PID/schedstat: ns on CPU,
// ns runnable but waiting for a CPU). On a shared 2-core machine this separates "the consumer was busy" from
// "it waited for a core" (other processes) and from "it was idle" (nothing to read: the producer was the limit).
// The /proc/PID file describes the process's main thread, which is where the engine and the simulator run.
import { readFileSync } from 'node:fs'

export interface SchedSample {
  cpuNs: number
  waitNs: number
  wallNs: number
}

export interface ThreadTime {
  /** Share of wall time on a CPU. */
  busy: number
  /** Share of wall time runnable but waiting for a CPU (contention). */
  waiting: number
  /** The rest: blocked, i.e. waiting for input. */
  idle: number
  cpuSeconds: number
}

/** null where /proc is unavailable (non-Linux): callers report the wall-clock figures only. */
export function schedSample(pid: number | 'self' = 'self'): SchedSample | null {
  try {
    const [cpu, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number)
    if (cpu === undefined || wait === undefined || !Number.isFinite(cpu) || !Number.isFinite(wait))
      return null
    return { cpuNs: cpu, waitNs: wait, wallNs: Number(process.hrtime.bigint()) }
  } catch {
    return null
  }
}

export function threadTime(a: SchedSample | null, b: SchedSample | null): ThreadTime | null {
  if (a === null || b === null) return null
  const wall = b.wallNs - a.wallNs
  if (!(wall > 0)) return null
  const busy = (b.cpuNs - a.cpuNs) / wall
  const waiting = (b.waitNs - a.waitNs) / wall
  return { busy, waiting, idle: Math.max(0, 1 - busy - waiting), cpuSeconds: (b.cpuNs - a.cpuNs) / 1e9 }
}
