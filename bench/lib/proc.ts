// Process trees and CPU time from /proc (Linux): which processes descend from a pid, what they are, and how much
// CPU they used. For benchmarks that must report the CPU of processes they did not start directly (Chromium's
// renderer, started by Playwright). Everything returns null / empty where /proc is unavailable.
import { readdirSync, readFileSync } from 'node:fs'

/** USER_HZ: /proc reports CPU times in these ticks per second (100 on every Linux this runs on). */
export const CLOCK_TICKS = 100

export interface ProcInfo {
  pid: number
  ppid: number
  /** utime + stime, all threads, in CLOCK_TICKS. */
  ticks: number
  /** Resident set, bytes. */
  rssBytes: number
}

const PAGE = 4096

/** One process's /proc/PID/stat; null if it is gone. */
export function procInfo(pid: number): ProcInfo | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may contain spaces: state is f[0], ppid f[1].
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ')
    const ppid = Number(f[1])
    const ticks = Number(f[11]) + Number(f[12])
    const rssPages = Number(f[21])
    if (!Number.isFinite(ppid) || !Number.isFinite(ticks)) return null
    return { pid, ppid, ticks, rssBytes: Number.isFinite(rssPages) ? rssPages * PAGE : 0 }
  } catch {
    return null
  }
}

/** Every live process. */
export function allProcs(): ProcInfo[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  const out: ProcInfo[] = []
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue
    const p = procInfo(Number(n))
    if (p !== null) out.push(p)
  }
  return out
}

/** Every process below `root` (not `root` itself), at the moment of the call. */
export function descendants(root: number, procs: ProcInfo[] = allProcs()): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>()
  for (const p of procs) {
    const list = children.get(p.ppid)
    if (list) list.push(p)
    else children.set(p.ppid, [p])
  }
  const out: ProcInfo[] = []
  const queue = [root]
  while (queue.length > 0) {
    const pid = queue.shift() as number
    for (const c of children.get(pid) ?? []) {
      out.push(c)
      queue.push(c.pid)
    }
  }
  return out
}

/**
 * The command line's arguments; empty if the process is gone. Chromium rewrites its children's command lines
 * as one space-separated string, so spaces separate too (good enough for flags).
 */
export function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split(/[\0 ]/)
      .filter((s) => s.length > 0)
  } catch {
    return []
  }
}

/** Chromium's process type (`--type=renderer`, `gpu-process`, `utility`, ...); 'browser' without one. */
export function chromiumType(pid: number): string {
  const args = cmdline(pid)
  const t = args.find((a) => a.startsWith('--type='))
  if (t === undefined) return 'browser'
  const type = t.slice('--type='.length)
  // Chromium's own UI pages (headless keeps one) run in renderers too; they are not the page under test.
  if (type === 'renderer' && args.includes('--top-chrome-webui')) return 'renderer-webui'
  return type
}
