// Drives bench/lib/sim-child.ts: spawns it as a separate Node process (TypeScript through tsx's loader) and talks
// to it with one JSON line per command on stdin and one reply line per command on stdout.
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { Dialect } from '../../src/sim/index'
import { repoPath, tsxArgs } from './repo'

export interface SimReply {
  id?: number
  ok?: boolean
  error?: string
  ids?: string[]
  sent?: number
  framesSent?: number
  markets?: { id: string; event: string }[]
  changed?: boolean
  connections?: number
  subscriptions?: SimSubscription[]
}

/** One simulator connection's subscriptions, counted. */
export interface SimSubscription {
  connection: number
  markets: number
  events: number
  user: boolean
}

export interface SimChild {
  wsUrl: string
  baseUrl: string
  demoKey: string
  dialect: Dialect
  pid: number
  /** Open-loop load at a fixed rate over `markets` synthetic markets; resolves with their ids. */
  firehose(msgsPerSec: number, markets: number): Promise<string[]>
  /** Closed-loop saturation (see sim-child.ts); feed it the consumer's count with ack(). */
  flow(msgsPerSec: number, markets: number, high: number, low: number): Promise<string[]>
  /** Consumer's count of firehose messages received since the last firehose()/flow(). Fire and forget. */
  ack(received: number): void
  /** Stops the firehose; resolves with the messages it sent since the last start. */
  stop(): Promise<number>
  stats(): Promise<{ sent: number; framesSent: number }>
  /** The simulator's listed markets (not the firehose's), in listing order. */
  listing(): Promise<{ id: string; event: string }[]>
  /** sim.setKeyState(demoKey, patch): revoking it closes its user subscribers (VoxFi: with 4001). */
  setDemoKeyState(patch: { revoked?: boolean; enabled?: boolean }): Promise<boolean>
  /** Open connections and what each is subscribed to. */
  subscriptions(): Promise<{ connections: number; subscriptions: SimSubscription[] }>
  close(): Promise<void>
  /** Synchronous last resort (exit handlers): SIGKILL the child. */
  kill(): void
}

const READY_TIMEOUT_MS = 30_000

/**
 * `demo`: the simulator with createSimulator's defaults, as the app's demo runs it (see sim-child.ts).
 * `dialect`: default 'reference' (the library's default, which bench/run.ts's raw client reads); the app's demo
 * runs 'voxfi'.
 */
export function spawnSimChild(seed = 7, opts: { demo?: boolean; dialect?: Dialect } = {}): Promise<SimChild> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...tsxArgs(repoPath('bench', 'lib', 'sim-child.ts')),
      '--seed',
      String(seed),
      '--dialect',
      opts.dialect ?? 'reference',
      ...(opts.demo === true ? ['--demo'] : []),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  const stdin = child.stdin
  const stdout = child.stdout
  if (stdin === null || stdout === null) throw new Error('sim child has no stdio pipes')
  const pending = new Map<number, (r: SimReply) => void>()
  let nextId = 1
  let exited = false
  const exitedP = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error('sim child did not become ready in time'))
    }, READY_TIMEOUT_MS)
    child.once('exit', (code) => {
      exited = true
      clearTimeout(timer)
      for (const done of pending.values()) done({ ok: false, error: `sim child exited (code ${code})` })
      pending.clear()
      reject(new Error(`sim child exited (code ${code}) before it was ready`))
    })

    const request = (cmd: Record<string, unknown>): Promise<SimReply> => {
      if (exited) return Promise.reject(new Error('sim child has exited'))
      const id = nextId++
      return new Promise((res, rej) => {
        pending.set(id, (r) => (r.ok === true ? res(r) : rej(new Error(`sim child: ${r.error ?? 'failed'}`))))
        stdin.write(`${JSON.stringify({ ...cmd, id })}\n`)
      })
    }

    const rl = createInterface({ input: stdout })
    rl.on('line', (line) => {
      let msg: SimReply & {
        type?: string
        wsUrl?: string
        baseUrl?: string
        demoKey?: string
        dialect?: Dialect
      }
      try {
        msg = JSON.parse(line) as typeof msg
      } catch {
        process.stderr.write(`sim child: ${line}\n`)
        return
      }
      if (msg.type === 'ready') {
        clearTimeout(timer)
        resolve({
          wsUrl: String(msg.wsUrl),
          baseUrl: String(msg.baseUrl),
          demoKey: String(msg.demoKey),
          dialect: msg.dialect ?? 'reference',
          pid: child.pid ?? -1,
          firehose: async (msgsPerSec, markets) =>
            (await request({ cmd: 'firehose', msgsPerSec, markets })).ids ?? [],
          flow: async (msgsPerSec, markets, high, low) =>
            (await request({ cmd: 'flow', msgsPerSec, markets, high, low })).ids ?? [],
          ack: (received) => {
            if (!exited) stdin.write(`{"cmd":"ack","received":${received}}\n`)
          },
          stop: async () => (await request({ cmd: 'stop' })).sent ?? 0,
          stats: async () => {
            const r = await request({ cmd: 'stats' })
            return { sent: r.sent ?? 0, framesSent: r.framesSent ?? 0 }
          },
          listing: async () => (await request({ cmd: 'listing' })).markets ?? [],
          setDemoKeyState: async (patch) => (await request({ cmd: 'keyState', ...patch })).changed === true,
          subscriptions: async () => {
            const r = await request({ cmd: 'subscriptions' })
            return { connections: r.connections ?? 0, subscriptions: r.subscriptions ?? [] }
          },
          kill: () => {
            if (!exited) child.kill('SIGKILL')
          },
          close: async () => {
            if (exited) return
            await request({ cmd: 'quit' }).catch(() => undefined)
            const t = setTimeout(() => child.kill('SIGKILL'), 5_000)
            await exitedP
            clearTimeout(t)
          },
        })
        return
      }
      if (msg.id !== undefined) {
        const done = pending.get(msg.id)
        pending.delete(msg.id)
        done?.(msg)
      } else if (msg.ok === false) process.stderr.write(`sim child: ${msg.error ?? 'error'}\n`)
    })
  })
}
