// Chromium's processes and their CPU time, from /proc (Linux only). Playwright's chromium.launch() gives no
// process handle (Browser has no process()), so the browser is found as a child of this Node process and the
// rest as its descendants: zygotes, renderers, the GPU process and utility processes (network, storage, …).
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

export type ProcKind = 'browser' | 'renderer' | 'gpu' | 'utility' | 'zygote' | 'other'

export interface ProcSample {
  pid: number
  kind: ProcKind
  /** A renderer of Chromium's own UI (--top-chrome-webui), never a page's. */
  webui: boolean
  /** utime + stime, in clock ticks (all the process's threads). */
  ticks: number
}

let clkTck: number | null = null

/** USER_HZ: the unit of utime/stime in /proc/PID/stat (100 on every usual Linux). */
export function clockTicksPerSecond(): number {
  if (clkTck !== null) return clkTck
  try {
    const v = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    clkTck = Number.isFinite(v) && v > 0 ? v : 100
  } catch {
    clkTck = 100
  }
  return clkTck
}

interface Stat {
  ppid: number
  ticks: number
}

function readStat(pid: number): Stat | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 2 (comm) is in parentheses and may contain spaces; the fields after it start with field 3 (state).
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ')
    const ppid = Number(rest[1])
    const utime = Number(rest[11])
    const stime = Number(rest[12])
    if (!Number.isFinite(ppid) || !Number.isFinite(utime) || !Number.isFinite(stime)) return null
    return { ppid, ticks: utime + stime }
  } catch {
    return null
  }
}

function cmdline(pid: number): string[] {
  try {
    // Chromium's zygote children rewrite their title: one NUL-free string with spaces between the arguments.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .flatMap((a) => a.split(' '))
      .filter((a) => a !== '')
  } catch {
    return []
  }
}

function kindOf(args: string[]): ProcKind {
  const type = args.find((a) => a.startsWith('--type='))?.slice('--type='.length)
  if (type === undefined) return 'browser'
  if (type === 'renderer') return 'renderer'
  if (type === 'gpu-process') return 'gpu'
  if (type === 'utility') return 'utility'
  if (type === 'zygote') return 'zygote'
  return 'other'
}

function isChromium(args: string[]): boolean {
  const exe = args[0] ?? ''
  return /chrom(e|ium)/i.test(exe.slice(exe.lastIndexOf('/') + 1))
}

/** Every Chromium process below `root` (default: this process), with its CPU time so far. */
export function chromiumProcesses(root: number = process.pid): ProcSample[] {
  const stats = new Map<number, Stat>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const st = readStat(Number(name))
    if (st !== null) stats.set(Number(name), st)
  }
  const children = new Map<number, number[]>()
  for (const [pid, st] of stats) {
    const list = children.get(st.ppid)
    if (list === undefined) children.set(st.ppid, [pid])
    else list.push(pid)
  }
  const out: ProcSample[] = []
  const walk = (pid: number, inside: boolean): void => {
    for (const child of children.get(pid) ?? []) {
      const args = cmdline(child)
      const chromium = inside || isChromium(args)
      if (chromium)
        out.push({
          pid: child,
          kind: kindOf(args),
          webui: args.includes('--top-chrome-webui'),
          ticks: stats.get(child)?.ticks ?? 0,
        })
      walk(child, chromium)
    }
  }
  walk(root, false)
  return out
}

/** CPU ticks of one process, or null when it is gone. */
export function processTicks(pid: number): number | null {
  return readStat(pid)?.ticks ?? null
}

export interface CpuDelta {
  pid: number
  kind: ProcKind
  /** CPU seconds over the window. A process started inside the window counts from zero. */
  seconds: number
}

/** Per-process CPU seconds between two samples. A process gone by the end is left out (its time is lost). */
export function cpuDelta(before: ProcSample[], after: ProcSample[]): CpuDelta[] {
  const hz = clockTicksPerSecond()
  const start = new Map(before.map((p) => [p.pid, p.ticks]))
  return after.map((p) => ({ pid: p.pid, kind: p.kind, seconds: (p.ticks - (start.get(p.pid) ?? 0)) / hz }))
}
