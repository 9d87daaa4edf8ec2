// The CLI speaks VoxFi by default and prints VoxFi's URLs (root WebSocket path); `--dialect reference` keeps the
// reference URLs; the demo worker passes `dialect` through.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulatorWorker } from '../../src/sim/worker'
import { WsClient, httpGet } from './helpers'

const ROOT = join(__dirname, '..', '..')
const CLI = join(ROOT, 'src', 'sim', 'cli.ts')
const children: ChildProcess[] = []

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

function run(args: string[]): {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exit: Promise<number | null>
} {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, stdout: () => out, stderr: () => err, exit }
}

async function firstLine(
  r: ReturnType<typeof run>,
): Promise<{ baseUrl: string; wsUrl: string; demoKey: string }> {
  const deadline = Date.now() + 20_000
  while (!r.stdout().includes('\n')) {
    if (Date.now() > deadline) throw new Error(`no JSON line; stderr: ${r.stderr()}`)
    if (r.child.exitCode !== null)
      throw new Error(`exited early (${r.child.exitCode}); stderr: ${r.stderr()}`)
    await new Promise((res) => setTimeout(res, 50))
  }
  return JSON.parse(r.stdout().split('\n')[0] as string) as {
    baseUrl: string
    wsUrl: string
    demoKey: string
  }
}

describe('sim CLI --dialect', () => {
  it('defaults to voxfi: prints ws://HOST:PORT (no /ws) and serves VoxFi REST and WebSocket', async () => {
    const r = run(['--seed', '4'])
    const info = await firstLine(r)
    expect(Object.keys(info)).toEqual(['baseUrl', 'wsUrl', 'demoKey'])
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(info.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/)
    expect(info.wsUrl.replace('ws://', '')).toBe(info.baseUrl.replace('http://', '').replace('/v1', ''))
    const listing = await httpGet(`${info.baseUrl}/data/events`, { headers: { 'X-Api-Key': info.demoKey } })
    expect(listing.status).toBe(200)
    const events = listing.json as Array<{ id: string; markets: Array<{ id: string }> }>
    expect(Array.isArray(events)).toBe(true)
    const ws = await WsClient.connect(info.wsUrl)
    const market = events[0]?.markets[0]?.id as string
    const ack = await ws.request(
      { type: 'subscribe', channel: 'market', markets: [market] },
      (m) => m.type === 'subscribed',
    )
    expect(ack).toEqual({
      type: 'subscribed',
      channel: 'market',
      status: 'ok',
      markets: [market],
      events: null,
    })
    await ws.waitFor((m) => m.market_id === market)
    await expect(WsClient.connect(`${info.wsUrl}/ws`)).rejects.toThrow(/404/)
    r.child.kill('SIGTERM')
    expect(await r.exit).toBe(0)
    await ws.closed
    expect(r.stdout().trim().split('\n')).toHaveLength(1)
  })

  it('--dialect reference prints the reference URLs', async () => {
    const r = run(['--dialect', 'reference', '--seed', '4'])
    const info = await firstLine(r)
    expect(info.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/)
    const listing = await httpGet(`${info.baseUrl}/data/events`, { headers: { 'X-Api-Key': info.demoKey } })
    expect(Array.isArray((listing.json as { events: unknown }).events)).toBe(true)
    r.child.kill('SIGTERM')
    expect(await r.exit).toBe(0)
  })

  it('a bad --dialect is one error line and exit 2', async () => {
    const r = run(['--dialect', 'kalshi'])
    expect(await r.exit).toBe(2)
    expect(r.stdout()).toBe('')
    const lines = r.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/--dialect/)
  })
})

describe('startSimulatorWorker({ dialect })', () => {
  it('passes the dialect through to the simulator in the worker', async () => {
    const w = await startSimulatorWorker({
      dialect: 'voxfi',
      seed: 8,
      config: { events: 2, marketsPerEvent: 2 },
    })
    try {
      expect(w.dialect).toBe('voxfi')
      expect(w.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/)
      const c = await WsClient.connect(w.wsUrl)
      await c.request({ type: 'subscribe', channel: 'user', auth: w.demoKey }, (m) => m.type === 'subscribed')
      w.fault('server-error')
      expect(await c.closed).toEqual({ code: 4003, reason: 'server error' })
    } finally {
      await w.close()
    }
    const ref = await startSimulatorWorker({ seed: 8 })
    try {
      expect(ref.dialect).toBe('reference')
      expect(ref.wsUrl).toMatch(/\/ws$/)
    } finally {
      await ref.close()
    }
  })
})
