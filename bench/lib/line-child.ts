// A bench child process spoken to in JSON lines: a TypeScript script run by Node through tsx's loader, which
// prints {"type":"ready",...} once and then one reply per command line, echoing the command's `id` and saying
// `ok` (or `error`). Its stderr is this process's.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'

export interface LineReply {
  id?: number
  ok?: boolean
  error?: string
  type?: string
}

export interface LineChild<R extends LineReply> {
  pid: number
  /** The ready line. */
  ready: R
  /** Sends `cmd` with a fresh id; resolves with the reply when it says ok, rejects with its error otherwise. */
  request(cmd: Record<string, unknown>): Promise<R>
  /** Sends `{cmd: 'quit'}` and waits for the exit, killing the child if it has not exited after `graceMs`. */
  close(graceMs?: number): Promise<void>
}

export function spawnLineChild<R extends LineReply>(
  name: string,
  script: string,
  args: string[],
  opts: { nodeFlags?: string[]; readyTimeoutMs?: number } = {},
): Promise<LineChild<R>> {
  const loader = pathToFileURL(require.resolve('tsx')).href
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), '--import', loader, script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const pending = new Map<number, (r: LineReply) => void>()
  let nextId = 1
  let exited = false
  const exitedP = new Promise<void>((done) =>
    child.once('exit', () => {
      exited = true
      for (const settle of pending.values()) settle({ ok: false, error: `${name} process exited` })
      pending.clear()
      done()
    }),
  )
  const request = (cmd: Record<string, unknown>): Promise<R> => {
    if (exited) return Promise.reject(new Error(`${name} process has exited`))
    const id = nextId++
    return new Promise((ok, fail) => {
      pending.set(id, (r) => (r.ok === true ? ok(r as R) : fail(new Error(`${name}: ${String(r.error)}`))))
      child.stdin.write(`${JSON.stringify({ ...cmd, id })}\n`)
    })
  }
  const close = async (graceMs = 10_000): Promise<void> => {
    if (exited) return
    await request({ cmd: 'quit' }).catch(() => undefined)
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await exitedP
    clearTimeout(kill)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${name} process not ready in time`))
    }, opts.readyTimeoutMs ?? 60_000)
    void exitedP.then(() => {
      clearTimeout(timer)
      reject(new Error(`${name} process exited before it was ready`))
    })
    createInterface({ input: child.stdout }).on('line', (line) => {
      let r: LineReply
      try {
        r = JSON.parse(line) as LineReply
      } catch {
        process.stderr.write(`${name}: ${line}\n`)
        return
      }
      if (r.type === 'ready') {
        clearTimeout(timer)
        resolve({ pid: child.pid ?? -1, ready: r as R, request, close })
      } else if (typeof r.id === 'number') {
        pending.get(r.id)?.(r)
        pending.delete(r.id)
      }
    })
  })
}
