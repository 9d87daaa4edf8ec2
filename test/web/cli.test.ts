// `npm run web` as a user runs it: a child process on the demo engine, one JSON line on stdout, a working
// page and bridge, and a clean exit on SIGTERM.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultSettingsPath, parseCliArgs } from '../../src/main/web/cli-args'
import { identityPath, parseIdentity } from '../../src/main/web/host-identity'
import { openBridge, rawGet, waitFor } from './helpers'

const repo = resolve(__dirname, '../..')
const tsx = join(repo, 'node_modules/.bin/tsx')
const children: ChildProcessWithoutNullStreams[] = []

interface Run {
  child: ChildProcessWithoutNullStreams
  stdout: () => string
  stderr: () => string
  exit: Promise<number | null>
}

function run(args: string[]): Run {
  const child = spawn(tsx, ['src/main/web/cli.ts', ...args], { cwd: repo, env: { ...process.env } })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  return { child, stdout: () => out, stderr: () => err, exit }
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

// Each test starts the host or the CLI through tsx: seconds each on a loaded machine, so a minute and a half in all.
describe('web CLI', { timeout: 90_000 }, () => {
  it('starts the demo host, prints one JSON line with a 128-bit token, serves and exits cleanly', async () => {
    const cli = run(['--demo', '--settings', 'none', '--no-build'])
    await waitFor(
      'the startup line',
      () => cli.stdout().includes('\n') || cli.child.exitCode !== null,
      60_000,
    )
    expect(cli.child.exitCode, cli.stderr()).toBeNull()
    const lines = cli.stdout().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    const parsed = JSON.parse(lines[0] ?? '') as { url: string }
    expect(Object.keys(parsed)).toEqual(['url'])
    const url = new URL(parsed.url)
    expect(url.protocol).toBe('http:')
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.pathname).toBe('/')
    const token = url.searchParams.get('token') ?? ''
    expect(token).toMatch(/^[0-9a-f]{32}$/)
    const port = Number(url.port)

    // The page: served when built, a clear 503 otherwise (this run skips the build); headers either way.
    const page = await rawGet(port, `/?token=${token}`)
    expect([200, 503]).toContain(page.status)
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${port}`)

    const bridge = await openBridge(port, token)
    const events = await bridge.call('listEvents')
    expect(events.ok, JSON.stringify(events.error)).toBe(true)
    expect((events.value as unknown[]).length).toBeGreaterThan(0)
    bridge.ws.close()

    cli.child.kill('SIGTERM')
    expect(await cli.exit).toBe(0)
    expect(cli.stdout().trimEnd().split('\n')).toHaveLength(1)
    expect(cli.stderr()).not.toContain(token)
  })

  it('exits 2 with the usage on a bad argument, printing nothing on stdout', async () => {
    for (const args of [['--bogus'], ['--port', '70000']]) {
      const cli = run(args)
      expect(await cli.exit, args.join(' ')).toBe(2)
      expect(cli.stdout()).toBe('')
      expect(cli.stderr()).toContain('usage:')
    }
  })

  it('keeps its URL across restarts on the same settings file (0600 beside it); a taken port gives way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-web-id-'))
    try {
      const settings = join(dir, 'web-settings.json')
      const start = async (): Promise<{ cli: Run; url: URL }> => {
        const cli = run(['--demo', '--settings', settings, '--no-build'])
        await waitFor(
          'the startup line',
          () => cli.stdout().includes('\n') || cli.child.exitCode !== null,
          60_000,
        )
        expect(cli.child.exitCode, cli.stderr()).toBeNull()
        return { cli, url: new URL((JSON.parse(cli.stdout().trim()) as { url: string }).url) }
      }
      const stop = async (cli: Run): Promise<void> => {
        cli.child.kill('SIGTERM')
        expect(await cli.exit).toBe(0)
      }
      const first = await start()
      const file = identityPath(settings)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(parseIdentity(readFileSync(file, 'utf8'))).toEqual({
        port: Number(first.url.port),
        token: first.url.searchParams.get('token'),
      })
      await stop(first.cli)

      const second = await start()
      expect(second.url.href).toBe(first.url.href)
      const bridge = await openBridge(Number(second.url.port), second.url.searchParams.get('token') ?? '')
      expect((await bridge.call('getStatus')).ok).toBe(true)
      bridge.ws.close()
      await stop(second.cli)

      // Another program holds the kept port: a new port, the same token, and the file says so.
      const squatter = createServer()
      await new Promise<void>((done) => squatter.listen(Number(first.url.port), '127.0.0.1', done))
      try {
        const third = await start()
        expect(third.url.port).not.toBe(first.url.port)
        expect(third.url.searchParams.get('token')).toBe(first.url.searchParams.get('token'))
        expect(parseIdentity(readFileSync(file, 'utf8'))?.port).toBe(Number(third.url.port))
        // The engine was built once, and only the listening moved: a second build would have found the settings
        // the first had already read (and set aside, had they been bad) and lost its notices.
        expect(third.cli.stderr().split('embedded simulator started')).toHaveLength(2)
        await stop(third.cli)
      } finally {
        await new Promise<void>((done) => squatter.close(() => done()))
      }

      // A malformed file is replaced by a fresh identity, never half-used.
      writeFileSync(file, '{"port": "80", "token": "x"}')
      const fourth = await start()
      expect(fourth.url.searchParams.get('token')).not.toBe(first.url.searchParams.get('token'))
      expect(fourth.cli.stderr()).toContain('host identity not reused')
      await stop(fourth.cli)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 240_000)

  it('reads a kept identity only when it is whole', () => {
    const token = 'a'.repeat(32)
    expect(parseIdentity(JSON.stringify({ port: 8123, token }))).toEqual({ port: 8123, token })
    for (const bad of [
      'not json',
      'null',
      JSON.stringify({ port: 0, token }),
      JSON.stringify({ port: 70000, token }),
      JSON.stringify({ port: 8123.5, token }),
      JSON.stringify({ port: 8123, token: 'short' }),
      JSON.stringify({ port: 8123, token: 'Z'.repeat(32) }),
      JSON.stringify({ port: 8123 }),
    ])
      expect(parseIdentity(bad), bad).toBeNull()
  })

  it('parses its options and defaults settings to a per-user file', () => {
    const env = { XDG_CONFIG_HOME: '/cfg', HOME: '/home/u' }
    expect(parseCliArgs([], env)).toEqual({
      port: 0,
      demo: false,
      settingsPath: '/cfg/trading-monitor/web-settings.json',
      build: true,
      allowTrading: false,
    })
    expect(
      parseCliArgs(['--port', '8080', '--demo', '--settings', 'none', '--no-build', '--allow-trading'], env),
    ).toEqual({
      port: 8080,
      demo: true,
      settingsPath: null,
      build: false,
      allowTrading: true,
    })
    expect(parseCliArgs(['--settings', 'rel/s.json'], env).settingsPath).toBe(resolve('rel/s.json'))
    expect(defaultSettingsPath({ XDG_CONFIG_HOME: '' })).toMatch(
      /\.config\/trading-monitor\/web-settings\.json$/,
    )
    expect(() => parseCliArgs(['--port', '-1'], env)).toThrow(/--port/)
    expect(() => parseCliArgs(['--port', 'eighty'], env)).toThrow(/--port/)
    expect(() => parseCliArgs(['--settings'], env)).toThrow(/needs a value/)
    expect(existsSync(tsx)).toBe(true)
  })
})
