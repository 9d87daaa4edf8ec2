// Starts the browser host (`tsx src/main/web/cli.ts --demo --settings none` unless told otherwise) for one test
// file and reads its one JSON line. Node runs tsx as a loader in the same process (not via npx), so SIGTERM
// reaches the host itself. A host that never reports its URL fails the file with its stderr. startSim starts a
// simulator of its own the same way (a second venue for a second profile).
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export interface HostOptions {
  /** Host flags; default ['--demo', '--settings', 'none']. */
  args?: readonly string[]
  /** Merged over this process's environment (TM_WEB_TEST_HOOKS=1 is always set). */
  env?: NodeJS.ProcessEnv
  /** Everything the host writes, stdout and stderr, is also appended to this file. */
  logFile?: string
  timeoutMs?: number
}

export interface Host {
  /** The page URL including ?token=. */
  url: string
  origin: string
  token: string
  /** URL of the same host with a window target query (view=market|event). */
  page(query: Record<string, string>): string
  /** Inject a fault through the host's test hook (TM_WEB_TEST_HOOKS=1). Resolves to the HTTP status. */
  fault(kind: 'drop' | 'stall' | 'unstall' | 'freeze' | 'unfreeze' | 'malformed' | 'restart'): Promise<number>
  stderr(): string
  /**
   * Sends the host process a signal: SIGKILL (resolves once it is gone: a host that died), SIGSTOP / SIGCONT
   * (a host that froze and woke up).
   */
  signal(signal: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT'): Promise<void>
  close(): Promise<void>
}

const ROOT = resolve(__dirname, '../..')

/** SIGTERM, then SIGKILL if the process is still there after 10 s; resolves once it is gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      done()
    }, 10_000)
    child.once('exit', () => {
      clearTimeout(timer)
      done()
    })
    child.kill('SIGTERM')
  })
}

/** A child started by a test (`node --import tsx <args>`) that reports itself in one JSON line on stdout. */
interface Reporting {
  child: ChildProcess
  line: Record<string, unknown>
  stderr(): string
  /** Resolves once everything it wrote is in the log file (immediately without one). */
  logClosed: Promise<void>
}

async function startReporting(
  what: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; logFile?: string; timeoutMs: number },
): Promise<Reporting> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = opts.logFile === undefined ? null : createWriteStream(opts.logFile, { flags: 'a', mode: 0o600 })
  child.stdout?.on('data', (d: Buffer) => log?.write(d))
  let err = ''
  child.stderr?.on('data', (d: Buffer) => {
    log?.write(d)
    err = (err + d.toString()).slice(-20_000)
  })
  // The log must hold everything the child wrote before a test reads it after close().
  const logClosed = new Promise<void>((done) => {
    if (!log) return done()
    child.once('close', () => log.end(() => done()))
  })
  const line = await new Promise<Record<string, unknown>>((resolveLine, reject) => {
    let out = ''
    const timer = setTimeout(
      () => reject(new Error(`${what} gave no JSON line within ${opts.timeoutMs} ms:\n${err}`)),
      opts.timeoutMs,
    )
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const text = out.split('\n').find((l) => l.trim().startsWith('{'))
      if (!text) return
      clearTimeout(timer)
      try {
        const parsed = JSON.parse(text) as unknown
        if (typeof parsed !== 'object' || parsed === null) throw new Error(`not an object: ${text}`)
        resolveLine(parsed as Record<string, unknown>)
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what} exited (${String(code)}) before reporting:\n${err}`))
    })
  })
  return { child, line, stderr: () => err, logClosed }
}

export async function startHost(options: number | HostOptions = {}): Promise<Host> {
  const opts: HostOptions = typeof options === 'number' ? { timeoutMs: options } : options
  const started = await startReporting(
    'web host',
    ['src/main/web/cli.ts', ...(opts.args ?? ['--demo', '--settings', 'none'])],
    {
      env: { ...opts.env, TM_WEB_TEST_HOOKS: '1' },
      ...(opts.logFile !== undefined ? { logFile: opts.logFile } : {}),
      timeoutMs: opts.timeoutMs ?? 180_000,
    },
  )
  const { child, logClosed } = started
  const err = started.stderr
  const url = started.line.url
  if (typeof url !== 'string') throw new Error(`no url in ${JSON.stringify(started.line)}`)
  const parsed = new URL(url)
  const token = parsed.searchParams.get('token') ?? ''
  return {
    url,
    origin: parsed.origin,
    token,
    page(query) {
      const u = new URL(url)
      for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v)
      return u.toString()
    },
    async fault(kind) {
      const res = await fetch(
        `${parsed.origin}/__test/fault?kind=${kind}&token=${encodeURIComponent(token)}`,
        {
          method: 'POST',
          headers: { Origin: parsed.origin },
        },
      )
      return res.status
    },
    stderr: err,
    signal: (signal) =>
      new Promise<void>((done) => {
        if (signal !== 'SIGKILL' || child.exitCode !== null || child.signalCode !== null) {
          child.kill(signal)
          return done()
        }
        child.once('exit', () => done())
        child.kill(signal)
      }),
    close: async () => {
      // A stopped host cannot act on SIGTERM.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGCONT')
      await stopChild(child)
      // Bounded: a stray grandchild holding the pipes must not hang the test; the log is then cut short.
      await Promise.race([logClosed, new Promise((done) => setTimeout(done, 5000).unref())])
    },
  }
}

/** A simulator of its own (`src/sim/cli.ts`, VoxFi's dialect), e.g. the venue of a second profile. */
export interface Sim {
  baseUrl: string
  wsUrl: string
  demoKey: string
  /** The ids of every market it lists now. */
  markets(): Promise<string[]>
  close(): Promise<void>
}

/** `config` is the simulator's configuration file's content (DESIGN §3.1: keys, rate limit …), when given. */
export async function startSim(seed: number, config?: Record<string, unknown>): Promise<Sim> {
  const dir = config === undefined ? null : await mkdtemp(join(tmpdir(), 'tm-e2e-sim-'))
  const configArgs: string[] = []
  if (dir !== null) {
    const file = join(dir, 'sim.json')
    await writeFile(file, JSON.stringify(config), { mode: 0o600 })
    configArgs.push('--config', file)
  }
  const { child, line } = await startReporting(
    'simulator',
    ['src/sim/cli.ts', '--port', '0', '--seed', String(seed), ...configArgs],
    { timeoutMs: 60_000 },
  )
  const { baseUrl, wsUrl, demoKey } = line
  if (typeof baseUrl !== 'string' || typeof wsUrl !== 'string' || typeof demoKey !== 'string')
    throw new Error(`simulator line without its URLs: ${JSON.stringify(line)}`)
  return {
    baseUrl,
    wsUrl,
    demoKey,
    async markets() {
      const res = await fetch(`${baseUrl}/data/events`, { headers: { 'X-Api-Key': demoKey } })
      const events = (await res.json()) as { markets?: { id?: unknown }[] }[]
      return events.flatMap((e) => (e.markets ?? []).map((m) => String(m.id)))
    },
    close: async () => {
      await stopChild(child)
      if (dir !== null) await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Runs `run` against a demo host on the settings file `settings`, stopping the host afterwards. */
export async function withSettingsHost<T>(settings: string, run: (host: Host) => Promise<T>): Promise<T> {
  const host = await startHost({ args: ['--demo', '--settings', settings] })
  try {
    return await run(host)
  } finally {
    await host.close()
  }
}
