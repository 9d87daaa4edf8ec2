// How the bench writes its figures, shared by run.ts and the alerts phase so that both reports format numbers,
// spreads and windows alike, and a window's JSON means the same in \`pairs\` and in \`alerts.pairs\`.
import type { SaturationResult } from './saturate'
import { median, type Spread } from './spread'
import { round } from './stats'

export function fmt(n: number | null): string {
  return n === null ? '-' : Math.round(n).toLocaleString('en-US')
}

export function pct(v: number): string {
  return `${Math.round(v * 100)}%`
}

export function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`
}

/** A spread as `[min–max, ±half the range in percent]`, after a median. */
export function range(s: Spread | null, digits = 0): string {
  return s === null
    ? ''
    : `[${s.min.toLocaleString('en-US', { maximumFractionDigits: digits })}–${s.max.toLocaleString('en-US', { maximumFractionDigits: digits })}, ±${(s.range_pct / 2).toFixed(1)}%]`
}

/** One window's figures and what explains them (JSON: one object per window inside `pairs`). */
export function windowJson(r: SaturationResult | null, batchesPerClientPerSec: number | null = null) {
  if (r === null) return null
  const p = r.probe
  return {
    msgs_per_sec: Math.round(r.msgsPerSec),
    msgs_per_cpu_sec: r.msgsPerCpuSec !== null ? Math.round(r.msgsPerCpuSec) : null,
    us_cpu_per_msg: r.msgsPerCpuSec !== null ? round(1e6 / r.msgsPerCpuSec, 3) : null,
    seconds: round(r.seconds, 2),
    messages: r.messages,
    cpu_seconds: round(r.processCpuSeconds, 3),
    thread_busy: r.consumer ? round(r.consumer.busy) : null,
    thread_waiting_for_cpu: r.consumer ? round(r.consumer.waiting) : null,
    thread_idle: r.consumer ? round(r.consumer.idle) : null,
    simulator_busy: r.simulator ? round(r.simulator.busy) : null,
    simulator_waiting_for_cpu: r.simulator ? round(r.simulator.waiting) : null,
    gc_ms: round(p.gcMs, 1),
    gc_count: p.gcCount,
    gc_major_ms: round(p.gcMajorMs, 1),
    gc_mark_compacts: p.gcMarkCompacts,
    gc_max_pause_ms: round(p.gcMaxPauseMs, 2),
    /** GC pause time as a share of this process's CPU time in the window. */
    gc_share_of_cpu: r.processCpuSeconds > 0 ? round(p.gcMs / 1000 / r.processCpuSeconds, 3) : null,
    msgs_per_read: round(p.msgsPerRead, 1),
    bytes_per_read: p.bytesPerRead !== null ? Math.round(p.bytesPerRead) : null,
    msgs_per_sim_write: round(r.msgsPerSimWrite, 1),
    voluntary_ctx_switches: p.voluntaryCtxSwitches,
    involuntary_ctx_switches: p.involuntaryCtxSwitches,
    machine_busy: round(p.machineBusy),
    machine_steal: round(p.machineSteal, 3),
    /** CPU used by other processes (not this one, not the simulator), in cores. */
    others_cores: round(p.othersCores),
    heap_delta_mb: round(p.heapDeltaMb, 1),
    ...(batchesPerClientPerSec !== null
      ? { batches_per_client_per_sec: round(batchesPerClientPerSec, 1) }
      : {}),
  }
}

/** Where the consumer's thread spent the windows (medians): evidence for (or against) "it was the bottleneck". */
export function limitNote(rs: SaturationResult[], bursty = false): string {
  const cs = rs.map((r) => r.consumer).filter((c) => c !== null)
  if (cs.length === 0) return 'no scheduler stats on this OS'
  const m = (f: (c: (typeof cs)[number]) => number): number => median(cs.map(f)) ?? 0
  const idle = m((c) => c.idle)
  const who = bursty
    ? 'reads in bursts, so idle includes its pauses'
    : idle > 0.1
      ? 'NOT saturated: waited for data'
      : 'saturated'
  const sims = rs.map((r) => r.simulator).filter((c) => c !== null)
  const sim =
    sims.length > 0
      ? `; simulator thread busy ${pct(median(sims.map((s) => s.busy)) ?? 0)}, waiting ${pct(median(sims.map((s) => s.waiting)) ?? 0)}`
      : ''
  return `${who}: thread busy ${pct(m((c) => c.busy))}, waiting for a core ${pct(m((c) => c.waiting))}, idle ${pct(idle)}${sim} (medians)`
}
