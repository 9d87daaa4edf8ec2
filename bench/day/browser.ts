// Drives bench/day/browser-child.ts (headless Chromium with the main window in its default workspace) from the engine process, and
// reads the CPU of every Chromium process below it from /proc.
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { chromiumType, cmdline, descendants, procInfo } from '../lib/proc'
import { repoPath, tsxArgs } from '../lib/repo'

export interface FrameSample {
  /** requestAnimationFrame callbacks since the page was ready (cumulative); null without the counter. */
  frames: number | null
  /** The page's clock (performance.now()), ms. */
  pageMs: number
  /** Longest frame gap and gaps over 50 ms since the previous sample. */
  maxGapMs: number
  gapsOver50: number
  /** The order book's data-state (live, stale, ...). */
  state: string | null
}

export interface ChromiumCpu {
  /** CPU ticks (utime + stime) per process kind, summed over the processes of that kind alive now. */
  ticksByType: Map<string, number>
  /** Ticks per pid, to take deltas across samples when processes come and go. */
  ticksByPid: Map<number, { type: string; ticks: number }>
  /** Resident set of the page's renderer(s), bytes. */
  rendererRssBytes: number
}

export interface BrowserChild {
  pid: number
  sample(): Promise<FrameSample>
  /** Chromium's processes (below the child) by kind, plus the child itself as 'playwright-node'. */
  cpu(): ChromiumCpu
  close(): Promise<void>
  /** Synchronous last resort (exit handlers): SIGKILL Chromium's processes and the child. */
  kill(): void
}

const READY_TIMEOUT_MS = 120_000

export function startBrowserChild(url: string, opts: { fps: boolean }): Promise<BrowserChild> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...tsxArgs(repoPath('bench', 'day', 'browser-child.ts')), url, ...(opts.fps ? [] : ['--no-fps'])],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  const stdin = child.stdin
  const stdout = child.stdout
  const pid = child.pid
  if (stdin === null || stdout === null || pid === undefined) throw new Error('browser child did not start')
  let exited = false
  const exitedP = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const waiting: ((v: FrameSample | Error) => void)[] = []
  // Chromium's pids as last seen below the child: once the child is gone they are no longer its descendants.
  const known = new Set<number>()
  const remember = (): void => {
    for (const p of descendants(pid)) known.add(p.pid)
  }

  const killAll = (): void => {
    remember()
    for (const p of known) {
      // Only what is still a Chromium process (a pid could have been reused after it exited).
      if (!(cmdline(p)[0] ?? '').includes('chrom')) continue
      try {
        process.kill(p, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    if (!exited) child.kill('SIGKILL')
  }

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killAll()
      reject(new Error('browser child: the main window did not go live in time'))
    }, READY_TIMEOUT_MS)
    child.once('exit', (code) => {
      exited = true
      clearTimeout(timer)
      for (const w of waiting.splice(0)) w(new Error(`browser child exited (code ${code})`))
      reject(new Error(`browser child exited (code ${code}) before it was ready`))
    })
    const rl = createInterface({ input: stdout })
    rl.on('line', (line) => {
      let msg: { type?: string; error?: string } & Partial<FrameSample>
      try {
        msg = JSON.parse(line) as typeof msg
      } catch {
        process.stderr.write(`browser child: ${line}\n`)
        return
      }
      if (msg.type === 'error') {
        const w = waiting.shift()
        if (w) w(new Error(`browser child: ${msg.error ?? 'error'}`))
        else process.stderr.write(`browser child: ${msg.error ?? 'error'}\n`)
        return
      }
      if (msg.type === 'sample') {
        waiting.shift()?.({
          frames: opts.fps ? (msg.frames ?? 0) : null,
          pageMs: msg.pageMs ?? 0,
          maxGapMs: msg.maxGapMs ?? 0,
          gapsOver50: msg.gapsOver50 ?? 0,
          state: msg.state ?? null,
        })
        return
      }
      if (msg.type !== 'ready') return
      clearTimeout(timer)
      remember()
      resolve({
        pid,
        sample: () =>
          new Promise<FrameSample>((res, rej) => {
            if (exited) {
              rej(new Error('browser child has exited'))
              return
            }
            waiting.push((v) => (v instanceof Error ? rej(v) : res(v)))
            stdin.write('{"cmd":"sample"}\n')
          }),
        cpu: () => {
          const ticksByType = new Map<string, number>()
          const ticksByPid = new Map<number, { type: string; ticks: number }>()
          let rendererRssBytes = 0
          const self = procInfo(pid)
          const list = [...(self ? [{ ...self, type: 'playwright-node' }] : [])]
          for (const p of descendants(pid)) {
            known.add(p.pid)
            list.push({ ...p, type: chromiumType(p.pid) })
          }
          for (const p of list) {
            ticksByType.set(p.type, (ticksByType.get(p.type) ?? 0) + p.ticks)
            ticksByPid.set(p.pid, { type: p.type, ticks: p.ticks })
            if (p.type === 'renderer') rendererRssBytes += p.rssBytes
          }
          return { ticksByType, ticksByPid, rendererRssBytes }
        },
        close: async () => {
          if (exited) return
          stdin.write('{"cmd":"quit"}\n')
          const t = setTimeout(killAll, 10_000)
          await exitedP
          clearTimeout(t)
          // Playwright closes Chromium before the child exits; anything left over would be an orphan.
          killAll()
        },
        kill: killAll,
      })
    })
  })
}
