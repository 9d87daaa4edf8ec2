import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_PROFILE_ID, type Profile } from '../../../src/shared/model'
import {
  createSettingsStore,
  defaultSettings,
  type Settings,
} from '../../../src/main/services/settings/store'
import type { LogFields, Logger } from '../../../src/main/services/base/types'

let dir: string
let file: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tm-settings-'))
  file = path.join(dir, 'settings.json')
})

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

function captureLogger(): Logger & { lines: { level: string; message: string; fields?: LogFields }[] } {
  const lines: { level: string; message: string; fields?: LogFields }[] = []
  return {
    lines,
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  }
}

const desk: Profile = {
  id: 'desk',
  name: 'Desk',
  baseUrl: 'https://api.example.com/v1',
  wsUrl: 'wss://api.example.com/ws',
  demo: false,
  keyLabel: 'desk key',
  keyExpiresAt: '2030-01-01',
}

function withDesk(s: Settings): Settings {
  return { ...s, profiles: [...s.profiles, desk], activeProfileId: 'desk' }
}

async function listDir(): Promise<string[]> {
  return (await fs.readdir(dir)).sort()
}

describe('settings store', () => {
  it('starts with the demo profile active when no file exists, without creating one', async () => {
    const store = createSettingsStore({ path: file })
    const { settings, warning } = await store.load()
    expect(warning).toBeNull()
    expect(settings).toEqual(defaultSettings())
    expect(settings.activeProfileId).toBe(DEMO_PROFILE_ID)
    const demo = settings.profiles.find((p) => p.id === DEMO_PROFILE_ID)
    expect(demo).toMatchObject({ demo: true, baseUrl: '', wsUrl: '' })
    expect(await listDir()).toEqual([])
  })

  it('round-trips through the file and leaves no temp files behind', async () => {
    const store = createSettingsStore({ path: file })
    await store.load()
    const updated = await store.update((s) => ({
      ...withDesk(s),
      windows: [
        {
          target: { kind: 'main' },
          bounds: { x: 10, y: 20, width: 800, height: 600 },
          displayId: 1,
          maximized: false,
        },
        { target: { kind: 'market', market: 'm-1' }, bounds: null, displayId: null, maximized: true },
      ],
      ui: { theme: 'dark' },
    }))
    expect(updated.ok).toBe(true)
    expect(await listDir()).toEqual(['settings.json'])

    const again = createSettingsStore({ path: file })
    const { settings, warning } = await again.load()
    expect(warning).toBeNull()
    expect(settings).toEqual(updated.ok ? updated.value : null)
    expect(settings.activeProfileId).toBe('desk')
    expect(settings.windows).toHaveLength(2)
    expect(settings.ui?.theme).toBe('dark')
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(settings)
  })

  it('creates the parent directory and writes the file owner-only', async () => {
    const nested = path.join(dir, 'a', 'b', 'settings.json')
    const store = createSettingsStore({ path: nested })
    await store.load()
    expect((await store.update(withDesk)).ok).toBe(true)
    const mode = (await fs.stat(nested)).mode & 0o777
    expect(mode).toBe(0o600)
  })

  it('get() returns a copy that cannot change the store', async () => {
    const store = createSettingsStore({ path: null })
    await store.load()
    const copy = store.get()
    copy.profiles.push(desk)
    copy.activeProfileId = 'desk'
    expect(store.get()).toEqual(defaultSettings())
  })

  it('keeps settings in memory only when path is null', async () => {
    const store = createSettingsStore({ path: null })
    await store.load()
    const r = await store.update(withDesk)
    expect(r.ok).toBe(true)
    expect(store.get().activeProfileId).toBe('desk')
    expect(await listDir()).toEqual([])
  })

  it('sets a corrupt JSON file aside with a warning, logs it and loads defaults', async () => {
    const garbage = '{"version": 1, "profiles": [ oops'
    await fs.writeFile(file, garbage)
    const logger = captureLogger()
    const store = createSettingsStore({ path: file, logger })
    const { settings, warning } = await store.load()
    expect(settings).toEqual(defaultSettings())
    expect(warning).toMatch(/not valid JSON/)
    const files = await listDir()
    expect(files).toHaveLength(1)
    const aside = files[0] ?? ''
    expect(aside).toMatch(/^settings\.json\.corrupt-\d{4}-\d{2}-\d{2}T[\d-]+Z$/)
    expect(warning).toContain(aside)
    // Nothing is lost: the bad file is kept byte for byte.
    expect(await fs.readFile(path.join(dir, aside), 'utf8')).toBe(garbage)
    expect(logger.lines.some((l) => l.level === 'warn' && String(l.fields?.warning).includes(aside))).toBe(
      true,
    )

    // The next save creates a fresh file and leaves the set-aside copy alone.
    expect((await store.update(withDesk)).ok).toBe(true)
    expect(await listDir()).toEqual([aside, 'settings.json'].sort())
  })

  it('sets a schema-invalid file aside and never overwrites an earlier set-aside copy', async () => {
    const invalid = { version: 1, profiles: [{ id: 'x', name: 'X', baseUrl: 'ftp://h', wsUrl: 'ws://h' }] }
    await fs.writeFile(file, JSON.stringify(invalid))
    // Its one bad profile is dropped (the original copied aside) and the repaired file replaces it.
    const first = await createSettingsStore({ path: file }).load()
    expect(first.warning).toMatch(/profiles "x"/)
    expect(first.settings).toEqual(defaultSettings())

    await fs.writeFile(file, JSON.stringify({ hello: 'world' }))
    const second = await createSettingsStore({ path: file }).load()
    expect(second.warning).toMatch(/Invalid settings/)

    const files = (await listDir()).filter((f) => f !== 'settings.json')
    expect(files).toHaveLength(2)
    expect(files.every((f) => f.startsWith('settings.json.corrupt-'))).toBe(true)
    const contents = await Promise.all(files.map((f) => fs.readFile(path.join(dir, f), 'utf8')))
    expect(contents.sort()).toEqual([JSON.stringify(invalid), JSON.stringify({ hello: 'world' })].sort())
  })

  it.each([
    ['an empty file', ''],
    ['a JSON array', '[]'],
    ['null', 'null'],
    ['a newer format version', JSON.stringify({ ...defaultSettings(), version: 2 })],
  ])('refuses %s (set aside, defaults, warning)', async (_label, text) => {
    await fs.writeFile(file, text)
    const { settings, warning } = await createSettingsStore({ path: file }).load()
    expect(settings).toEqual(defaultSettings())
    expect(warning).toBeTruthy()
    const files = await listDir()
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^settings\.json\.corrupt-/)
  })

  // These once reset the whole file; now only the bad entry goes (test/services/settings/sections.test.ts has more).
  it.each([
    [
      'no demo profile',
      JSON.stringify({ ...defaultSettings(), profiles: [desk], activeProfileId: 'desk' }),
      [DEMO_PROFILE_ID, 'desk'],
      'desk',
    ],
    [
      'a dangling active profile',
      JSON.stringify({ ...defaultSettings(), activeProfileId: 'nope' }),
      [DEMO_PROFILE_ID],
      DEMO_PROFILE_ID,
    ],
    [
      'duplicate profile ids',
      JSON.stringify({
        ...withDesk(defaultSettings()),
        profiles: [defaultSettings().profiles[0], desk, desk],
      }),
      [DEMO_PROFILE_ID, 'desk'],
      'desk',
    ],
    [
      'a second demo profile',
      JSON.stringify(withDesk({ ...defaultSettings(), profiles: [{ ...desk, demo: true }] })),
      // withDesk appends a valid desk after the bad one, and that one is kept.
      [DEMO_PROFILE_ID, 'desk'],
      'desk',
    ],
    [
      'a bad window target',
      JSON.stringify({
        ...defaultSettings(),
        windows: [{ target: { kind: 'x' }, bounds: null, displayId: null, maximized: false }],
      }),
      [DEMO_PROFILE_ID],
      DEMO_PROFILE_ID,
    ],
    [
      'a credential in an endpoint',
      JSON.stringify(
        withDesk({
          ...defaultSettings(),
          profiles: [defaultSettings().profiles[0]!, { ...desk, baseUrl: 'https://u:p@h/v1' }],
        }),
      ),
      // withDesk appends a valid desk after the bad one, and that one is kept.
      [DEMO_PROFILE_ID, 'desk'],
      'desk',
    ],
  ])('repairs %s (bad entry dropped, original copied aside, warning)', async (_label, text, ids, active) => {
    await fs.writeFile(file, text)
    const { settings, warning, dropped } = await createSettingsStore({ path: file }).load()
    expect(settings.profiles.map((p) => p.id)).toEqual(ids)
    expect(settings.activeProfileId).toBe(active)
    expect(settings.windows).toEqual([])
    expect(warning).toBeTruthy()
    expect(dropped.length).toBeGreaterThan(0)
    const files = await listDir()
    expect(files).toHaveLength(2)
    expect(files[0]).toBe('settings.json')
    expect(files[1]).toMatch(/^settings\.json\.corrupt-/)
    expect(await fs.readFile(path.join(dir, files[1] ?? ''), 'utf8')).toBe(text)
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(settings)
    expect(JSON.stringify(settings)).not.toContain('u:p@')
  })

  it('tolerates unknown fields from a newer build but does not keep them', async () => {
    const doc = {
      ...withDesk(defaultSettings()),
      futureFeature: { enabled: true },
      ui: { theme: 'light', fontScale: 1.2 },
    }
    await fs.writeFile(file, JSON.stringify(doc))
    const store = createSettingsStore({ path: file })
    const { settings, warning } = await store.load()
    expect(warning).toBeNull()
    expect(settings.activeProfileId).toBe('desk')
    expect(settings.ui).toEqual({ theme: 'light' })
    expect(settings).not.toHaveProperty('futureFeature')
  })

  it('normalises endpoints found in the file and keeps the demo profile canonical', async () => {
    const doc = withDesk(defaultSettings())
    doc.profiles = [
      { ...defaultSettings().profiles[0]!, baseUrl: 'http://evil.example/v1', wsUrl: 'ws://evil.example/ws' },
      { ...desk, baseUrl: '  https://API.example.com/v1/  ', wsUrl: 'wss://api.example.com/ws/' },
    ]
    await fs.writeFile(file, JSON.stringify(doc))
    const { settings, warning } = await createSettingsStore({ path: file }).load()
    expect(warning).toBeNull()
    expect(settings.profiles[0]).toMatchObject({ id: DEMO_PROFILE_ID, baseUrl: '', wsUrl: '', demo: true })
    expect(settings.profiles[1]).toMatchObject({
      baseUrl: 'https://api.example.com/v1',
      wsUrl: 'wss://api.example.com/ws',
    })
  })

  it('serialises concurrent updates: none is lost and each sees the previous one', async () => {
    const store = createSettingsStore({ path: file })
    await store.load()
    const n = 25
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        store.update((s) => ({
          ...s,
          profiles: [...s.profiles, { ...desk, id: `p${i}`, name: `P ${i} after ${s.profiles.length}` }],
        })),
      ),
    )
    expect(results.every((r) => r.ok)).toBe(true)
    // Each mutator saw exactly the profiles of all earlier updates.
    results.forEach((r, i) => {
      expect(r.ok && r.value.profiles.length).toBe(i + 2)
      expect(r.ok && r.value.profiles.at(-1)?.name).toBe(`P ${i} after ${i + 1}`)
    })
    const reloaded = await createSettingsStore({ path: file }).load()
    expect(reloaded.settings.profiles.map((p) => p.id)).toEqual([
      DEMO_PROFILE_ID,
      ...Array.from({ length: n }, (_, i) => `p${i}`),
    ])
    expect(await listDir()).toEqual(['settings.json'])
  })

  it('an update before load() reads the file first instead of overwriting it', async () => {
    await createSettingsStore({ path: file }).update(withDesk)
    const store = createSettingsStore({ path: file })
    const r = await store.update((s) => ({ ...s, ui: { theme: 'light' } }))
    expect(r.ok && r.value.activeProfileId).toBe('desk')
    expect(r.ok && r.value.profiles.map((p) => p.id)).toEqual([DEMO_PROFILE_ID, 'desk'])
  })

  it('refuses an invalid update and keeps the previous state on disk and in memory', async () => {
    const store = createSettingsStore({ path: file })
    await store.load()
    await store.update(withDesk)
    const before = await fs.readFile(file, 'utf8')

    const noDemo = await store.update((s) => ({
      ...s,
      profiles: s.profiles.filter((p) => p.id !== DEMO_PROFILE_ID),
    }))
    expect(noDemo.ok).toBe(false)
    expect(!noDemo.ok && noDemo.error.code).toBe('invalid_argument')
    expect(!noDemo.ok && noDemo.error.message).toMatch(/demo profile/)

    const dangling = await store.update((s) => ({ ...s, activeProfileId: 'ghost' }))
    expect(!dangling.ok && dangling.error.message).toMatch(/ghost/)

    const badUrl = await store.update((s) => ({
      ...s,
      profiles: [...s.profiles, { ...desk, id: 'x', wsUrl: 'http://h/ws' }],
    }))
    expect(!badUrl.ok && badUrl.error.message).toMatch(/WebSocket URL/)

    const thrown = await store.update(() => {
      throw new Error('boom')
    })
    expect(!thrown.ok && thrown.error.message).toMatch(/boom/)

    expect(await fs.readFile(file, 'utf8')).toBe(before)
    expect(store.get().activeProfileId).toBe('desk')
    expect(store.get().profiles).toHaveLength(2)
    // The queue survived the failures.
    expect((await store.update((s) => ({ ...s, ui: { theme: 'dark' } }))).ok).toBe(true)
  })

  it('reports a write failure without changing the in-memory state', async () => {
    const blocker = path.join(dir, 'not-a-dir')
    await fs.writeFile(blocker, 'x')
    const store = createSettingsStore({ path: path.join(blocker, 'settings.json') })
    await store.load()
    const r = await store.update(withDesk)
    expect(r.ok).toBe(false)
    expect(!r.ok && r.error.message).toMatch(/could not be saved/)
    expect(store.get()).toEqual(defaultSettings())
  })

  it('cleans up its temp file when the final rename fails', async () => {
    const store = createSettingsStore({ path: file })
    await store.load()
    // A non-empty directory where the file should go: writing the temp file works, the rename cannot.
    await fs.mkdir(path.join(file, 'inside'), { recursive: true })
    const r = await store.update(withDesk)
    expect(r.ok).toBe(false)
    expect(await listDir()).toEqual(['settings.json'])
    expect(await fs.readdir(file)).toEqual(['inside'])
  })

  it('sets aside something that is not a regular file', async () => {
    await fs.mkdir(file)
    const { settings, warning } = await createSettingsStore({ path: file }).load()
    expect(settings).toEqual(defaultSettings())
    expect(warning).toMatch(/not a regular file/)
    const files = await listDir()
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^settings\.json\.corrupt-/)
  })

  it('never persists an API key, whatever a caller or a file tries', async () => {
    const secret = 'sk-live-DO-NOT-STORE-1234567890'
    const store = createSettingsStore({ path: file })
    await store.load()
    const r = await store.update((s) => {
      const next = withDesk(s) as Settings & Record<string, unknown>
      next.apiKey = secret
      next.profiles = next.profiles.map((p) => ({ ...p, apiKey: secret, key: secret }) as Profile)
      return next
    })
    expect(r.ok).toBe(true)
    const text = await fs.readFile(file, 'utf8')
    expect(text).not.toContain(secret)
    expect(JSON.stringify(store.get())).not.toContain(secret)

    // A hand-edited file with a key field loads without it, and the next save drops it from disk.
    await fs.writeFile(file, JSON.stringify({ ...JSON.parse(text), apiKey: secret }))
    const again = createSettingsStore({ path: file })
    const loaded = await again.load()
    expect(loaded.warning).toBeNull()
    expect(JSON.stringify(loaded.settings)).not.toContain(secret)
    await again.update((s) => s)
    expect(await fs.readFile(file, 'utf8')).not.toContain(secret)
  })
})
