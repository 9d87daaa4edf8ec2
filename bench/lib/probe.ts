// What else happened in this process (and on the machine) during a measurement window, to explain why the CPU
// cost per message moves from window to window: garbage collection (perf_hooks 'gc' entries), how the socket
// was read (read syscalls and bytes from /proc/self/io, so messages per read), context switches, and the
// machine's steal and busy shares (/proc/stat). Linux-only parts are null elsewhere.
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks'

interface GcTotals {
  count: number
  ms: number
  /** Scavenges (young generation). */
  minorCount: number
  minorMs: number
  /** Old-generation work: mark-compact pauses, incremental marking steps and weak callbacks. */
  majorCount: number
  majorMs: number
  /** Mark-compact pauses alone (the end of a major GC cycle). */
  markCompacts: number
  /** Longest single pause. */
  maxMs: number
}

const gc: GcTotals = {
  count: 0,
  ms: 0,
  minorCount: 0,
  minorMs: 0,
  majorCount: 0,
  majorMs: 0,
  markCompacts: 0,
  maxMs: 0,
}
let observer: PerformanceObserver | null = null
/** Open windows, each with the longest pause seen since it started. */
const openWindows = new Set<{ maxMs: number }>()

/** Starts counting GC pauses for the rest of the process's life (idempotent). */
export function watchGc(): void {
  if (observer !== null) return
  observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } | null }).detail?.kind
      gc.count++
      gc.ms += e.duration
      gc.maxMs = Math.max(gc.maxMs, e.duration)
      for (const w of openWindows) w.maxMs = Math.max(w.maxMs, e.duration)
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
        gc.minorCount++
        gc.minorMs += e.duration
      } else {
        gc.majorCount++
        gc.majorMs += e.duration
        if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) gc.markCompacts++
      }
    }
  })
  observer.observe({ entryTypes: ['gc'] })
}

export interface IoCounters {
  syscr: number
  rchar: number
  syscw: number
  wchar: number
}

/** A process's read/write syscalls and bytes (/proc/PID/io: every thread, sockets and pipes included). */
export function readIo(pid: number | 'self' = 'self'): IoCounters | null {
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8')
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(text)?.[1])
    const io = { syscr: field('syscr'), rchar: field('rchar'), syscw: field('syscw'), wchar: field('wchar') }
    return Object.values(io).every(Number.isFinite) ? io : null
  } catch {
    return null
  }
}

/** Jiffies of the whole machine: [busy (user+nice+system+irq+softirq), steal, total]. */
function readStat(): { busy: number; steal: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? ''
    const v = line.trim().split(/\s+/).slice(1).map(Number)
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = v
    return {
      busy: user + nice + system + irq + softirq,
      steal,
      total: user + nice + system + idle + iowait + irq + softirq + steal,
    }
  } catch {
    return null
  }
}

/** utime + stime of a whole process (all threads), in clock ticks (USER_HZ, 100 on Linux). */
export function processTicks(pid: number | 'self' = 'self'): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may contain spaces.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(f[11]) + Number(f[12])
    return Number.isFinite(ticks) ? ticks : null
  } catch {
    return null
  }
}

interface ProbeSample {
  gc: GcTotals
  io: IoCounters | null
  stat: { busy: number; steal: number; total: number } | null
  usage: NodeJS.ResourceUsage
  heapUsed: number
  selfTicks: number | null
  simTicks: number | null
}

export interface ProbeResult {
  gcCount: number
  /** Total GC pause time in the window, ms (all kinds). */
  gcMs: number
  gcMinorMs: number
  /** Old-generation GC work (mark-compact, incremental marking, weak callbacks), ms of pauses. */
  gcMajorMs: number
  /** Mark-compact pauses: major GC cycles that finished in the window. */
  gcMarkCompacts: number
  gcMaxPauseMs: number
  /** read(2) calls by this process in the window (nearly all of them on the consumer's socket). */
  reads: number | null
  bytesRead: number | null
  /** Messages per read call and bytes per read call: small reads cost more CPU per message. */
  msgsPerRead: number | null
  bytesPerRead: number | null
  voluntaryCtxSwitches: number
  involuntaryCtxSwitches: number
  /** Share of the machine's CPU time (all cores) that was busy, including other processes and the simulator. */
  machineBusy: number | null
  /** Share of the machine's CPU time stolen by the hypervisor. */
  machineSteal: number | null
  /**
   * CPU used by everything but this process and the simulator, in cores (0 to the core count): the neighbours
   * this window competed with. null without /proc or without a simulator pid.
   */
  othersCores: number | null
  /** heapUsed at the end minus at the start (not after forced GC). */
  heapDeltaMb: number
}

export interface Probe {
  /** Call at the end of the window; `messages` taken in during it. */
  end(messages: number): ProbeResult
}

function sample(simPid: number | null): ProbeSample {
  return {
    gc: { ...gc },
    io: readIo(),
    stat: readStat(),
    usage: process.resourceUsage(),
    heapUsed: process.memoryUsage().heapUsed,
    selfTicks: processTicks(),
    simTicks: simPid !== null ? processTicks(simPid) : null,
  }
}

/** `simPid`: the producer's process, left out of `othersCores` like this one. */
function othersCores(a: ProbeSample, b: ProbeSample, total: number): number | null {
  if (!a.stat || !b.stat || total <= 0) return null
  if (a.selfTicks === null || b.selfTicks === null || a.simTicks === null || b.simTicks === null) return null
  const ours = b.selfTicks - a.selfTicks + (b.simTicks - a.simTicks)
  const others = Math.max(0, b.stat.busy - a.stat.busy - ours)
  return (others / total) * cpus().length
}

export function startProbe(simPid: number | null = null): Probe {
  watchGc()
  const win = { maxMs: 0 }
  openWindows.add(win)
  const a = sample(simPid)
  return {
    end(messages: number): ProbeResult {
      const b = sample(simPid)
      openWindows.delete(win)
      const reads = a.io && b.io ? b.io.syscr - a.io.syscr : null
      const bytes = a.io && b.io ? b.io.rchar - a.io.rchar : null
      const total = a.stat && b.stat ? b.stat.total - a.stat.total : 0
      return {
        gcCount: b.gc.count - a.gc.count,
        gcMs: b.gc.ms - a.gc.ms,
        gcMinorMs: b.gc.minorMs - a.gc.minorMs,
        gcMajorMs: b.gc.majorMs - a.gc.majorMs,
        gcMarkCompacts: b.gc.markCompacts - a.gc.markCompacts,
        gcMaxPauseMs: win.maxMs,
        reads,
        bytesRead: bytes,
        msgsPerRead: reads !== null && reads > 0 ? messages / reads : null,
        bytesPerRead: reads !== null && bytes !== null && reads > 0 ? bytes / reads : null,
        voluntaryCtxSwitches: b.usage.voluntaryContextSwitches - a.usage.voluntaryContextSwitches,
        involuntaryCtxSwitches: b.usage.involuntaryContextSwitches - a.usage.involuntaryContextSwitches,
        machineBusy: a.stat && b.stat && total > 0 ? (b.stat.busy - a.stat.busy) / total : null,
        machineSteal: a.stat && b.stat && total > 0 ? (b.stat.steal - a.stat.steal) / total : null,
        heapDeltaMb: (b.heapUsed - a.heapUsed) / (1024 * 1024),
        othersCores: othersCores(a, b, total),
      }
    },
  }
}
