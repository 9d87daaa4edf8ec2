// Starts bench/ui/sim-child.ts as a separate Node process (TypeScript through tsx's loader) and drives it.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import type { Dialect } from '../../src/sim/index'

export interface SimProcess {
  wsUrl: string
  baseUrl: string
  demoKey: string
  /** The dialect the simulator speaks (as it reported it). */
  dialect: Dialect
  pid: number
  /** Open-loop load at a fixed rate over `markets` synthetic markets fh-0001…. */
  firehose(msgsPerSec: number, markets: number): Promise<void>
  stopFirehose(): Promise<void>
  /** Firehose messages sent to subscribers since the simulator started. */
  generated(): Promise<number>
  close(): Promise<void>
}

interface Reply {
  type?: unknown
  id?: unknown
  ok?: unknown
  error?: unknown
  generated?: unknown
  wsUrl?: unknown
  baseUrl?: unknown
  demoKey?: unknown
  dialect?: unknown
}

const READY_TIMEOUT_MS = 30_000

export function startSimProcess(seed: number, dialect: Dialect): Promise<SimProcess> {
  const loader = pathToFileURL(require.resolve('tsx')).href
  const child = spawn(
    process.execPath,
    ['--import', loader, join(__dirname, 'sim-child.ts'), '--seed', String(seed), '--dialect', dialect],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const { stdin, stdout } = child
  const pending = new Map<number, (r: Reply) => void>()
  let nextId = 1
  let exited = false
  const exitedP = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true
      for (const done of pending.values()) done({ ok: false, error: 'simulator process exited' })
      pending.clear()
      resolve()
    }),
  )
  const request = (cmd: Record<string, unknown>): Promise<Reply> => {
    if (exited) return Promise.reject(new Error('simulator process has exited'))
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, (r) =>
        r.ok === true ? resolve(r) : reject(new Error(`simulator: ${String(r.error)}`)),
      )
      stdin.write(`${JSON.stringify({ ...cmd, id })}\n`)
    })
  }
  const close = async (): Promise<void> => {
    if (exited) return
    await request({ cmd: 'quit' }).catch(() => undefined)
    const t = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exitedP
    clearTimeout(t)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error('simulator process not ready in time'))
    }, READY_TIMEOUT_MS)
    void exitedP.then(() => {
      clearTimeout(timer)
      reject(new Error('simulator process exited before it was ready'))
    })
    createInterface({ input: stdout }).on('line', (line) => {
      let r: Reply
      try {
        r = JSON.parse(line) as Reply
      } catch {
        process.stderr.write(`ui sim child: ${line}\n`)
        return
      }
      if (r.type === 'ready') {
        clearTimeout(timer)
        resolve({
          wsUrl: String(r.wsUrl),
          baseUrl: String(r.baseUrl),
          demoKey: String(r.demoKey),
          dialect: r.dialect === 'reference' || r.dialect === 'voxfi' ? r.dialect : dialect,
          pid: child.pid ?? -1,
          firehose: async (msgsPerSec, markets) => {
            await request({ cmd: 'firehose', msgsPerSec, markets })
          },
          stopFirehose: async () => {
            await request({ cmd: 'stop' })
          },
          generated: async () => Number((await request({ cmd: 'generated' })).generated ?? 0),
          close,
        })
        return
      }
      if (typeof r.id === 'number') {
        const done = pending.get(r.id)
        pending.delete(r.id)
        done?.(r)
      }
    })
  })
}
