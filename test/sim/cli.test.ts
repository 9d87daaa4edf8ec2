// The CLI contract (DESIGN §3.1): one JSON line on stdout, logs on stderr, SIGTERM exits cleanly,
// bad flags or config -> one error line and exit 2.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WsClient, httpGet, isAck, isBook } from './helpers'

const ROOT = join(__dirname, '..', '..')
const CLI = join(ROOT, 'src', 'sim', 'cli.ts')
const children: ChildProcess[] = []

interface Run {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

function run(args: string[], viaNpm = false): Run {
  const child = viaNpm
    ? // npm does not forward signals to the script, so it runs in its own process group and the whole group is
      // signalled, as a terminal's Ctrl-C does.
      spawn('npm', ['run', '--silent', 'sim', '--', ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return { child, stdout: () => out, stderr: () => err, exit }
}

async function firstLine(r: Run): Promise<string> {
  const deadline = Date.now() + 20_000
  while (!r.stdout().includes('\n')) {
    if (Date.now() > deadline) throw new Error(`no JSON line; stderr: ${r.stderr()}`)
    if (r.child.exitCode !== null)
      throw new Error(`exited early (${r.child.exitCode}); stderr: ${r.stderr()}`)
    await new Promise((res) => setTimeout(res, 50))
  }
  return r.stdout().split('\n')[0] as string
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

afterEach(() => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    signalGroup(c, 'SIGKILL')
  }
})

const scratch: string[] = []
/** A temp folder for config files, removed after each test. */
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'))
  scratch.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('sim CLI', () => {
  it('prints exactly one JSON line, serves REST and WS, and exits 0 on SIGTERM', async () => {
    const dir = scratchDir()
    const cfg = join(dir, 'sim.json')
    writeFileSync(
      cfg,
      JSON.stringify({ keys: [{ value: 'k-live', name: 'desk' }], events: 3, marketsPerEvent: 2 }),
    )
    // The reference dialect (VoxFi's has its own CLI test, voxfi-cli.test.ts).
    const r = run([
      '--dialect',
      'reference',
      '--seed',
      '4',
      '--config',
      cfg,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
    ])
    const line = await firstLine(r)
    const info = JSON.parse(line) as { baseUrl: string; wsUrl: string; demoKey: string }
    expect(Object.keys(info)).toEqual(['baseUrl', 'wsUrl', 'demoKey'])
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(info.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/)
    expect(info.wsUrl.split(':')[2]?.split('/')[0]).toBe(info.baseUrl.split(':')[2]?.split('/')[0])
    const listing = await httpGet(`${info.baseUrl}/data/events`, { headers: { 'X-Api-Key': 'k-live' } })
    expect(listing.status).toBe(200)
    const events = (listing.json as { events: Array<{ markets: Array<{ id: string }> }> }).events
    expect(events).toHaveLength(3)
    expect(
      (await httpGet(`${info.baseUrl}/data/events`, { headers: { 'X-Api-Key': info.demoKey } })).status,
    ).toBe(200)
    const ws = await WsClient.connect(info.wsUrl)
    const market = events[0]?.markets[0]?.id as string
    await ws.request(
      { type: 'subscribe', channel: 'market', markets: [market] },
      isAck('subscribed', 'market'),
    )
    await ws.waitFor(isBook('market', market, true))
    r.child.kill('SIGTERM')
    expect(await r.exit).toEqual({ code: 0, signal: null })
    await ws.closed
    expect(r.stdout()).toBe(`${line}\n`)
  })

  it('works through `npm run --silent sim` with the same one-line contract, and SIGINT stops it', async () => {
    const r = run(['--seed', '4'], true)
    const line = await firstLine(r)
    const info = JSON.parse(line) as { baseUrl: string; demoKey: string }
    expect(
      (await httpGet(`${info.baseUrl}/data/events`, { headers: { 'X-Api-Key': info.demoKey } })).status,
    ).toBe(200)
    signalGroup(r.child, 'SIGINT')
    await r.exit
    expect(r.stderr()).toContain('SIGINT, shutting down')
    expect(r.stdout().trim().split('\n')).toHaveLength(1)
    await expect(httpGet(`${info.baseUrl}/data/events`)).rejects.toThrow()
  })

  it.each<[string, string[], RegExp]>([
    ['an unknown flag', ['--bogus'], /bogus/],
    ['a bad port', ['--port', 'eighty'], /--port/],
    ['a port out of range', ['--port', '70000'], /--port/],
    ['a bad seed', ['--seed', '1.5'], /--seed/],
    ['a missing config file', ['--config', '/nonexistent/sim.json'], /cannot read config/],
    ['a flag without its value', ['--port'], /port/],
  ])('%s -> one error line on stderr, exit 2', async (_name, args, pattern) => {
    const r = run(args)
    expect((await r.exit).code).toBe(2)
    expect(r.stdout()).toBe('')
    const lines = r.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(pattern)
  })

  it.each([
    ['not JSON', '{ nope'],
    ['a schema violation', JSON.stringify({ events: -1 })],
    ['an unknown field', JSON.stringify({ keys: [{ value: 'k', colour: 'red' }] })],
  ])('a config file with %s -> one error line, exit 2', async (_name, text) => {
    const dir = scratchDir()
    const cfg = join(dir, 'bad.json')
    writeFileSync(cfg, text)
    const r = run(['--config', cfg])
    expect((await r.exit).code).toBe(2)
    expect(r.stdout()).toBe('')
    expect(r.stderr().trim().split('\n')).toHaveLength(1)
    expect(r.stderr()).toContain(cfg)
  })
})
