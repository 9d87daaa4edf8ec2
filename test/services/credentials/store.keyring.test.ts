// The keyring store against a REAL Secret Service (gnome-keyring), as set up by scripts/with-keyring.sh.
// Run: scripts/with-keyring.sh npx vitest run test/services/credentials
import { execFile, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeyringStore } from '../../../src/main/services/credentials/store'
import type { Outcome } from './fixtures/keyring-child'

const ROOT = path.resolve(__dirname, '../../..')
const CHILD = path.join(__dirname, 'fixtures', 'keyring-child.ts')
const WITH_KEYRING = path.join(ROOT, 'scripts', 'with-keyring.sh')
const HAVE_KEYRING = process.env.TM_KEYRING === '1'
const IN_CI = process.env.CI === 'true'
const CHILD_TIMEOUT_MS = 60_000
// These tests drive the Secret Service over D-Bus; macOS and Windows keychains are another backend entirely.
const LINUX = process.platform === 'linux'

if (!LINUX) {
  console.log(`SKIP Secret Service tests: they are Linux-only (this is ${process.platform})`)
} else if (!HAVE_KEYRING && !IN_CI) {
  console.log(
    'SKIP real-keyring tests: TM_KEYRING is not 1; run them as `scripts/with-keyring.sh npx vitest run test/services/credentials`',
  )
}

const KEY = `tm-test-key-${randomBytes(12).toString('hex')}`

/** Runs a command, returns the last JSON line of its stdout (the child's one report). */
function runChild(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: ROOT, env, timeout: CHILD_TIMEOUT_MS, maxBuffer: 4 << 20 },
      (err, stdout, stderr) => {
        const last = stdout.trim().split('\n').at(-1) ?? ''
        try {
          resolve(JSON.parse(last) as Record<string, unknown>)
        } catch {
          reject(new Error(`child gave no JSON (${err?.message ?? 'exit 0'}):\n${stdout}\n${stderr}`))
        }
      },
    )
  })
}

const childArgs = (scenario: string): string[] => ['--import', 'tsx', CHILD, scenario]

/** An environment with no session bus to find: not through the variable, nor through $XDG_RUNTIME_DIR/bus. */
function isolatedEnv(tmp: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_RUNTIME_DIR: path.join(tmp, 'run'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
  }
  for (const name of [
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'TM_KEYRING',
    'TM_KEYRING_PASSWORD',
    'DBUS_SESSION_BUS_ADDRESS',
  ])
    delete env[name]
  return { ...env, TM_TEST_SERVICE: `tm-test-${randomBytes(4).toString('hex')}`, TM_TEST_KEY: KEY, ...extra }
}

function expectFailure(o: unknown, code: string, hint: RegExp): void {
  const outcome = o as Outcome
  expect(outcome.ok, JSON.stringify(outcome)).toBe(false)
  expect(outcome.code, outcome.message).toBe(code)
  expect(outcome.message).toMatch(hint)
  expect(outcome.message).not.toContain(KEY)
}

function busConfig(tmp: string, policy: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${tmp}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
    ${policy}
  </policy>
</busconfig>
`
}

let tmp = ''
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'tm-cred-'))
  await fs.mkdir(path.join(tmp, 'run'), { mode: 0o700 })
  await fs.mkdir(path.join(tmp, 'data'))
})
afterAll(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true })
})

// These need no keyring at all: they prove the store refuses to work without one.
describe.skipIf(!LINUX)('keyring store without a Secret Service', () => {
  it(
    'no D-Bus session: every operation is keyring_unavailable, and set never falls back to another store',
    async () => {
      const env = isolatedEnv(tmp, {
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(tmp, 'no-such-socket')}`,
      })
      const r = await runChild(process.execPath, childArgs('ops'), env)
      for (const op of ['probe', 'set', 'get', 'delete']) {
        expectFailure(r[op], 'keyring_unavailable', /install and start gnome-keyring or KWallet/)
      }
      expect((r.set as Outcome).message).toMatch(/Failed to connect to socket/)
      // Every failure is logged with its code, never with the key.
      expect(String(r.logs).match(/keyring_unavailable/g)).toHaveLength(4)
      expect(String(r.logs)).not.toContain(KEY)
    },
    CHILD_TIMEOUT_MS,
  )

  it(
    'no bus address at all: keyring_unavailable',
    async () => {
      const r = await runChild(process.execPath, childArgs('ops'), isolatedEnv(tmp))
      for (const op of ['probe', 'set', 'get', 'delete'])
        expectFailure(r[op], 'keyring_unavailable', /D-Bus session/)
    },
    CHILD_TIMEOUT_MS,
  )
})

describe.skipIf(!LINUX || (!HAVE_KEYRING && !IN_CI))('keyring store against a real gnome-keyring', () => {
  const service = `tm-test-${randomBytes(6).toString('hex')}`
  const store = createKeyringStore({ service })

  beforeAll(() => {
    if (!HAVE_KEYRING) {
      throw new Error(
        'CI=true but TM_KEYRING is not 1: run the tests under scripts/with-keyring.sh (DESIGN §6)',
      )
    }
  })
  afterAll(async () => {
    if (!HAVE_KEYRING) return
    for (const id of ['alpha', 'beta', 'über/profil 1']) await store.delete(id)
  })

  it('probes successfully (a lookup)', async () => {
    expect(await store.probe()).toEqual({ ok: true, value: undefined })
  })

  it('probing leaves nothing behind in the keyring (it never writes)', async () => {
    const probing = createKeyringStore({ service: `${service}-probe` })
    const accounts = (): string[] => {
      const r = spawnSync('secret-tool', ['search', '--all', 'service', `${service}-probe`], {
        encoding: 'utf8',
        timeout: 10_000,
      })
      return [...`${r.stdout}${r.stderr}`.matchAll(/^attribute\.username = (.*)$/gm)].map((m) => m[1] ?? '')
    }
    expect(await probing.probe()).toEqual({ ok: true, value: undefined })
    expect(accounts()).toEqual([])
    // The search above does see entries: one stored now is listed, and still no probe entry.
    await probing.set('alpha', `${KEY}-p`)
    expect(await probing.probe()).toEqual({ ok: true, value: undefined })
    expect(accounts()).toEqual(['profile:alpha'])
    await probing.delete('alpha')
  })

  it('set, get, overwrite, delete', async () => {
    expect(await store.get('alpha')).toEqual({ ok: true, value: null })
    expect(await store.set('alpha', KEY)).toEqual({ ok: true, value: undefined })
    expect(await store.get('alpha')).toEqual({ ok: true, value: KEY })
    expect(await store.set('alpha', `${KEY}-v2`)).toEqual({ ok: true, value: undefined })
    expect(await store.get('alpha')).toEqual({ ok: true, value: `${KEY}-v2` })
    expect(await store.delete('alpha')).toEqual({ ok: true, value: undefined })
    expect(await store.get('alpha')).toEqual({ ok: true, value: null })
    // Deleting what is not there is not an error.
    expect(await store.delete('alpha')).toEqual({ ok: true, value: undefined })
  })

  it('keeps profiles and services apart, and stores non-ASCII keys and ids intact', async () => {
    const other = createKeyringStore({ service: `${service}-other` })
    await store.set('alpha', `${KEY}-a`)
    await store.set('beta', `${KEY}-b`)
    await store.set('über/profil 1', `ключ-${KEY}-ü`)
    expect(await store.get('alpha')).toEqual({ ok: true, value: `${KEY}-a` })
    expect(await store.get('beta')).toEqual({ ok: true, value: `${KEY}-b` })
    expect(await store.get('über/profil 1')).toEqual({ ok: true, value: `ключ-${KEY}-ü` })
    expect(await other.get('alpha')).toEqual({ ok: true, value: null })
    await store.delete('beta')
    expect(await store.get('alpha')).toEqual({ ok: true, value: `${KEY}-a` })
    expect(await store.get('beta')).toEqual({ ok: true, value: null })
  })

  it('stores the key in the Secret Service itself (pinned store, not the kernel keyring)', async () => {
    await store.set('alpha', `${KEY}-ss`)
    const r = spawnSync('secret-tool', ['lookup', 'service', service, 'username', 'profile:alpha'], {
      encoding: 'utf8',
      timeout: 10_000,
    })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe(`${KEY}-ss`)
  })

  it('refuses bad arguments before touching the keyring, without echoing the key', async () => {
    for (const [id, key] of [
      ['', KEY],
      ['x'.repeat(201), KEY],
      ['a\nb', KEY],
      ['alpha', ''],
      ['alpha', '   '],
      ['alpha', `${KEY}\n`],
      ['alpha', 'k'.repeat(4097)],
    ] as const) {
      const r = await store.set(id, key)
      expect(r.ok).toBe(false)
      expect(!r.ok && r.error.code).toBe('invalid_argument')
      expect(JSON.stringify(r)).not.toContain(KEY)
    }
    expect((await store.get('')).ok).toBe(false)
    expect((await store.delete('')).ok).toBe(false)
  })

  it(
    'a locked keyring is keyring_locked for every operation, and works again once unlocked',
    async () => {
      // A keyring of its own (nested with-keyring run), so locking it cannot disturb other test files.
      const env = isolatedEnv(tmp)
      const r = await runChild(WITH_KEYRING, [process.execPath, ...childArgs('locked')], env)
      expect(r.crashed).toBeUndefined()
      expect(r.keyring).toBe(true)
      expect(r.setBefore).toMatchObject({ ok: true })
      expect(r.lockedAfterLock).toBe(true)
      for (const op of ['get', 'set', 'delete']) {
        expectFailure(r[op], 'keyring_locked', /Unlock your login keyring/)
      }
      // The probe only looks up an entry that does not exist: no unlock prompt, no write, no failure.
      expect(r.probe).toMatchObject({ ok: true })
      expect((r.get as Outcome).message).toMatch(/unlock prompt was dismissed/)
      // gnome-keyring refuses a wrong password and stays locked; the right one unlocks it.
      expect(r.wrongPassword).toBe('denied')
      expect(r.lockedAfterWrongPassword).toBe(true)
      expect(r.rightPassword).toBe('ok')
      expect(r.lockedAfterUnlock).toBe(false)
      expect(r.probeAfterUnlock).toMatchObject({ ok: true })
      // The refused rotation did not change the stored key.
      expect(r.getAfterUnlock).toMatchObject({ ok: true, hasValue: true, matches: true })
      expect(r.deleteAfterUnlock).toMatchObject({ ok: true })
    },
    CHILD_TIMEOUT_MS,
  )

  it(
    'a session bus without any Secret Service is keyring_unavailable',
    async () => {
      const config = path.join(tmp, 'no-service.conf')
      await fs.writeFile(config, busConfig(tmp, ''))
      const r = await runChild(
        'dbus-run-session',
        [`--config-file=${config}`, '--', process.execPath, ...childArgs('ops')],
        isolatedEnv(tmp),
      )
      for (const op of ['probe', 'set', 'get', 'delete']) {
        expectFailure(r[op], 'keyring_unavailable', /install and start gnome-keyring or KWallet/)
      }
      expect((r.set as Outcome).message).toMatch(/org\.freedesktop\.secrets was not provided/)
    },
    CHILD_TIMEOUT_MS,
  )

  it(
    'a bus policy that refuses access to the Secret Service is keyring_denied',
    async () => {
      const config = path.join(tmp, 'deny.conf')
      await fs.writeFile(config, busConfig(tmp, '<deny send_destination="org.freedesktop.secrets"/>'))
      // Start an unlocked daemon on that bus and wait until it owns the name (bounded), then run the child.
      const script = [
        `printf 'pw' | gnome-keyring-daemon --unlock --components=secrets >/dev/null`,
        'for _ in $(seq 1 50); do',
        '  dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \\',
        '    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true && break',
        '  sleep 0.1',
        'done',
        'exec "$@"',
      ].join('\n')
      const r = await runChild(
        'dbus-run-session',
        [
          `--config-file=${config}`,
          '--',
          'bash',
          '-c',
          script,
          'deny',
          process.execPath,
          ...childArgs('ops'),
        ],
        isolatedEnv(tmp),
      )
      for (const op of ['probe', 'set', 'get', 'delete']) {
        expectFailure(r[op], 'keyring_denied', /Access to the system keyring was denied/)
      }
      expect((r.set as Outcome).message).toMatch(/Rejected send message/)
    },
    CHILD_TIMEOUT_MS,
  )
})
