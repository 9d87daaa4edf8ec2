// `npm run sim` stops its simulator when npm itself is signalled: SIGTERM to npm's pid alone (a process manager,
// a test harness, `kill`), not to the whole process group. npm passes the signal only to the `sh -c` it runs the
// script in, and that shell dies without passing it on; scripts/sim.mjs notices and stops the simulator.
// Loopback only (the simulator's default host); every wait is bounded.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')
const WRAPPER = join(ROOT, 'scripts', 'sim.mjs')
const POSIX = process.platform !== 'win32'
const children: ChildProcess[] = []

interface Started {
  child: ChildProcess
  port: number
  seed: string
  stderr: () => string
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

async function start(command: string, args: string[]): Promise<Started> {
  // A seed of our own marks this run's simulator among the machine's processes.
  const seed = String(100_000 + Math.floor(Math.random() * 899_999))
  // Its own process group, so that cleanup can reach every process; the tests signal single pids only.
  const child = spawn(command, [...args, '--seed', seed], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  const deadline = Date.now() + 20_000
  while (!out.includes('\n')) {
    if (Date.now() > deadline) throw new Error(`no JSON line; stderr: ${err}`)
    if (child.exitCode !== null) throw new Error(`exited early (${child.exitCode}); stderr: ${err}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  const line = JSON.parse(out.split('\n')[0] ?? '') as { baseUrl: string }
  const url = new URL(line.baseUrl)
  expect(url.hostname).toBe('127.0.0.1')
  return { child, port: Number(url.port), seed, stderr: () => err, exit }
}

/** Pids of simulator processes started with this seed (Linux: /proc; elsewhere: ps). */
function simulatorPids(seed: string): number[] {
  const match = (args: string): boolean => args.includes('src/sim/cli.ts') && args.includes(seed)
  if (process.platform === 'linux') {
    const pids: number[] = []
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      try {
        if (match(readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ')))
          pids.push(Number(name))
      } catch {
        // gone meanwhile
      }
    }
    return pids
  }
  const ps = spawnSync('ps', ['-axo', 'pid=,args='], { encoding: 'utf8' })
  return ps.stdout
    .split('\n')
    .filter(match)
    .map((l) => Number.parseInt(l.trim(), 10))
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => {
      s.destroy()
      resolve(true)
    })
    s.on('error', () => resolve(false))
  })
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

afterEach(() => {
  for (const c of children.splice(0)) {
    try {
      if (c.pid !== undefined) process.kill(-c.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
})

describe.skipIf(!POSIX)('npm run sim and signals', () => {
  it('SIGTERM to npm alone stops the simulator child', async () => {
    const s = await start('npm', ['run', '--silent', 'sim', '--'])
    expect(simulatorPids(s.seed)).toHaveLength(1)
    expect(await listening(s.port)).toBe(true)
    s.child.kill('SIGTERM')
    await s.exit
    await until('the simulator has exited', () => simulatorPids(s.seed).length === 0)
    expect(await listening(s.port)).toBe(false)
    expect(s.stderr()).toMatch(/sim: SIGTERM, shutting down/)
  }, 40_000)

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'the wrapper passes %s on to the simulator and exits with its status',
    async (signal) => {
      const s = await start(process.execPath, [WRAPPER])
      s.child.kill(signal)
      expect(await s.exit).toEqual({ code: 0, signal: null })
      expect(simulatorPids(s.seed)).toEqual([])
      expect(s.stderr()).toContain(`sim: ${signal}, shutting down`)
    },
    40_000,
  )

  it('passes bad flags through and exits 2, as the CLI does', async () => {
    const r = spawnSync(process.execPath, [WRAPPER, '--port', 'nope'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/--port must be an integer/)
  }, 40_000)
})
