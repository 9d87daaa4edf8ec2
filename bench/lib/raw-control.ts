// Spawns bench/lib/raw-child.ts (the raw client in its own process) and talks to it, one JSON line each way.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { consumerFlags } from './node-flags'
import type { ProbeResult } from './probe'
import type { WindowMeter } from './saturate'

export interface RawChild {
  pid: number
  subscribe(markets: string[]): Promise<void>
  /** See RawClient.burst. */
  burst(pauseMs: number, periodMs: number): Promise<void>
  /** Frames received so far, and frames that were not valid JSON. */
  count(): Promise<{ count: number; parseErrors: number }>
  /** Measurement windows taken inside the child: its own count, CPU time and probe at both edges. */
  meter: WindowMeter
  close(): Promise<void>
}

interface Reply {
  id?: number
  type?: string
  ok?: boolean
  error?: string
  count?: number
  parseErrors?: number
  atMs?: number
  cpuSeconds?: number
  probe?: ProbeResult
}

export function spawnRawChild(wsUrl: string): Promise<RawChild> {
  const script = join(__dirname, 'raw-child.ts')
  const loader = pathToFileURL(require.resolve('tsx')).href
  // The same heap flags as the engine's process (node-flags.ts), so both sides are measured alike.
  const child = spawn(process.execPath, [...consumerFlags(), '--import', loader, script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const { stdin, stdout, pid } = child
  if (stdin === null || stdout === null || pid === undefined) throw new Error('raw child did not start')
  const pending = new Map<number, (r: Reply) => void>()
  let nextId = 1
  let exited = false
  const exitedP = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const request = (cmd: Record<string, unknown>): Promise<Reply> => {
    if (exited) return Promise.reject(new Error('raw child has exited'))
    const id = nextId++
    return new Promise((res, rej) => {
      pending.set(id, (r) => (r.ok === true ? res(r) : rej(new Error(`raw child: ${r.error ?? 'failed'}`))))
      stdin.write(`${JSON.stringify({ ...cmd, id })}\n`)
    })
  }
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      exited = true
      for (const done of pending.values()) done({ ok: false, error: `raw child exited (code ${code})` })
      pending.clear()
      reject(new Error(`raw child exited (code ${code}) before it was ready`))
    })
    createInterface({ input: stdout }).on('line', (line) => {
      let msg: Reply
      try {
        msg = JSON.parse(line) as Reply
      } catch {
        process.stderr.write(`raw child: ${line}\n`)
        return
      }
      if (msg.type === 'ready') {
        const handle: RawChild = {
          pid,
          subscribe: async (markets) => {
            await request({ cmd: 'subscribe', markets })
          },
          burst: async (pauseMs, periodMs) => {
            await request({ cmd: 'burst', pauseMs, periodMs })
          },
          count: async () => {
            const r = await request({ cmd: 'count' })
            return { count: r.count ?? 0, parseErrors: r.parseErrors ?? 0 }
          },
          meter: {
            open: async (simPid) => {
              const o = await request({ cmd: 'open', simPid })
              return {
                count: o.count ?? 0,
                atMs: o.atMs ?? 0,
                close: async () => {
                  const c = await request({ cmd: 'close' })
                  if (c.probe === undefined) throw new Error('raw child: no probe in reply')
                  return {
                    count: c.count ?? 0,
                    atMs: c.atMs ?? 0,
                    cpuSeconds: c.cpuSeconds ?? 0,
                    probe: c.probe,
                  }
                },
              }
            },
          },
          close: async () => {
            if (exited) return
            await request({ cmd: 'quit' }).catch(() => undefined)
            const t = setTimeout(() => child.kill('SIGKILL'), 5_000)
            await exitedP
            clearTimeout(t)
          },
        }
        request({ cmd: 'connect', wsUrl }).then(
          () => resolve(handle),
          (e: unknown) => {
            child.kill('SIGKILL')
            reject(e instanceof Error ? e : new Error(String(e)))
          },
        )
        return
      }
      if (msg.id !== undefined) {
        const done = pending.get(msg.id)
        pending.delete(msg.id)
        done?.(msg)
      } else if (msg.ok === false) process.stderr.write(`raw child: ${msg.error ?? 'error'}\n`)
    })
  })
}
