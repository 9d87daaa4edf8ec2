// Starts the browser host (`tsx src/main/web/cli.ts --demo --settings none` unless told otherwise) for one test
// file and reads its one JSON line. Node runs tsx as a loader in the same process (not via npx), so SIGTERM
// reaches the host itself. A host that never reports its URL fails the file with its stderr.
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { resolve } from 'node:path'

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

export async function startHost(options: number | HostOptions = {}): Promise<Host> {
  const opts: HostOptions = typeof options === 'number' ? { timeoutMs: options } : options
  const timeoutMs = opts.timeoutMs ?? 180_000
  const args = ['--import', 'tsx', 'src/main/web/cli.ts', ...(opts.args ?? ['--demo', '--settings', 'none'])]
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env, TM_WEB_TEST_HOOKS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = opts.logFile === undefined ? null : createWriteStream(opts.logFile, { flags: 'a', mode: 0o600 })
  child.stdout?.on('data', (d: Buffer) => log?.write(d))
  let err = ''
  child.stderr?.on('data', (d: Buffer) => {
    log?.write(d)
    err = (err + d.toString()).slice(-20_000)
  })
  // The log must hold everything the host wrote before a test reads it after close().
  const logClosed = new Promise<void>((done) => {
    if (!log) return done()
    child.once('close', () => log.end(() => done()))
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = ''
    const timer = setTimeout(
      () => reject(new Error(`web host gave no URL within ${timeoutMs} ms:\n${err}`)),
      timeoutMs,
    )
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => l.trim().startsWith('{'))
      if (!line) return
      clearTimeout(timer)
      try {
        const parsed = JSON.parse(line) as { url?: unknown }
        if (typeof parsed.url !== 'string') throw new Error(`no url in ${line}`)
        resolveUrl(parsed.url)
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`web host exited (${String(code)}) before reporting its URL:\n${err}`))
    })
  })
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
    stderr: () => err,
    close: async () => {
      await stopChild(child)
      // Bounded: a stray grandchild holding the pipes must not hang the test; the log is then cut short.
      await Promise.race([logClosed, new Promise((done) => setTimeout(done, 5000).unref())])
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
