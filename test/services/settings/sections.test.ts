import type { Workspace } from '../../../src/shared/workspace'
import { layoutOf } from '../../fixtures/layouts'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { DEMO_PROFILE_ID, type Profile, type WindowLayout } from '../../../src/shared/model'
import type { AlertRule } from '../../../src/shared/alerts'
import {
  createSettingsStore,
  defaultSettings,
  demoProfile,
  type Settings,
} from '../../../src/main/services/settings/store'
import { parseSettings, repairSettings } from '../../../src/main/services/settings/schema'
import { listSection, readSections, valueSection } from '../../../src/main/services/settings/sections'

let dir: string
let file: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tm-sections-'))
  file = path.join(dir, 'settings.json')
})

afterEach(async () => {
  vi.useRealTimers()
  await fs.rm(dir, { recursive: true, force: true })
})

const desk: Profile = {
  id: 'desk',
  name: 'Desk',
  baseUrl: 'https://api.example.com/v1',
  wsUrl: 'wss://api.example.com/ws',
  demo: false,
  keyLabel: 'desk key',
  keyExpiresAt: '2030-01-01',
}
const backup: Profile = { ...desk, id: 'backup', name: 'Backup', keyLabel: null, keyExpiresAt: null }
const mainWindow: WindowLayout = {
  target: { kind: 'main' },
  bounds: { x: 10, y: 20, width: 800, height: 600 },
  displayId: 1,
  maximized: false,
}
const marketWindow: WindowLayout = {
  target: { kind: 'market', market: 'm-1' },
  bounds: null,
  displayId: null,
  maximized: true,
}

const priceRule: AlertRule = {
  v: 1,
  id: 'a-price',
  label: 'breakout',
  condition: { kind: 'price', market: 'm-1', subject: 'mid', op: 'crosses-above', value: 0.45 },
  mode: 'rearm',
  hysteresis: 0.01,
  cooldownSec: 60,
  sound: true,
  enabled: true,
  snoozedUntil: null,
  createdAt: 1_700_000_000_000,
  firedAt: null,
}
const healthRule: AlertRule = {
  ...priceRule,
  id: 'a-health',
  label: null,
  condition: { kind: 'disconnected', seconds: 30 },
  mode: 'once',
  sound: false,
}

const trading: Workspace = {
  id: 'ws-trading',
  name: 'Trading',
  layout: layoutOf([
    { id: 'p-ladder', kind: 'ladder' },
    { id: 'p-tape', kind: 'tape', market: 'm-1' },
  ]),
  updatedAt: 1_700_000_000_000,
}
const scanning: Workspace = {
  id: 'ws-scan',
  name: 'Scanning',
  layout: layoutOf([{ id: 'p-watch', kind: 'watchlist' }]),
  updatedAt: 1_700_000_000_000,
}

/** A document with something in every section, so each test can show the others survive. */
function goodDoc(): Settings {
  return {
    version: 1,
    profiles: [demoProfile(), desk, backup],
    activeProfileId: 'desk',
    windows: [mainWindow, marketWindow],
    ui: { theme: 'dark' },
    alertRules: [priceRule, healthRule],
    keepRunning: 'always',
    workspaces: [trading, scanning],
    watchlists: [{ id: 'wl-1', name: 'Elections', markets: ['m-1', 'm-2'] }],
    windowWorkspaces: [{ window: 'main', workspace: 'ws-trading' }],
    windowMarkets: [{ window: 'main', market: 'm-1' }],
    bigTrades: [{ market: 'm-1', minSize: 500, relative: null }],
    trading: [
      {
        profileId: 'desk',
        mode: 'paper',
        oneClick: true,
        limits: { maxContracts: 50, maxOrderValue: 200, maxOpenOrders: 5, farTicks: 3 },
      },
    ],
  }
}

async function listDir(): Promise<string[]> {
  return (await fs.readdir(dir)).sort()
}

type Damage = {
  label: string
  damage: (doc: Record<string, unknown>) => void
  expected: (good: Settings) => Settings
  named: RegExp[]
}

const damages: Damage[] = [
  {
    label: 'a corrupt workspace layout (a pane of an unknown kind)',
    damage: (doc) => {
      const broken = structuredClone(trading)
      ;(broken.layout.panels['p-tape'] as { contentComponent: string }).contentComponent = 'rm -rf'
      doc.workspaces = [{ ...broken, id: 'ws-broken' }, trading, scanning]
    },
    expected: (good) => good,
    named: [/workspaces "ws-broken" \(layout\.panels\.p-tape\.contentComponent: /],
  },
  {
    label: 'a workspace whose layout is not a layout at all',
    damage: (doc) => {
      doc.workspaces = [trading, { ...scanning, layout: 'not json' }]
    },
    expected: (good) => ({ ...good, workspaces: [trading] }),
    named: [/workspaces "ws-scan" \(layout: /],
  },
  {
    label: 'a watchlist listing a market twice, and a bad big-trade rule',
    damage: (doc) => {
      doc.watchlists = [...goodDoc().watchlists, { id: 'wl-2', name: 'Dup', markets: ['m-1', 'm-1'] }]
      doc.bigTrades = [...goodDoc().bigTrades, { market: 'm-2', minSize: -5, relative: null }]
    },
    expected: (good) => good,
    named: [/watchlists "wl-2" \(markets: a market is listed twice\)/, /bigTrades "m-2" \(minSize: /],
  },
  {
    label: 'a bad profile entry',
    damage: (doc) => {
      doc.profiles = [...goodDoc().profiles, { ...desk, id: 'p-1234', baseUrl: 'not a url' }]
    },
    expected: (good) => good,
    named: [/profiles "p-1234" \(The REST base URL is not a valid URL\)/],
  },
  {
    label: 'a duplicate profile id',
    damage: (doc) => {
      doc.profiles = [...goodDoc().profiles, { ...desk, name: 'Impostor' }]
    },
    expected: (good) => good,
    named: [/profiles "desk" \(duplicate id/],
  },
  {
    label: 'a bad window entry',
    damage: (doc) => {
      doc.windows = [mainWindow, marketWindow, { ...mainWindow, target: { kind: 'nope' } }]
    },
    expected: (good) => good,
    named: [/windows\[2\] \(target\.kind: /],
  },
  {
    label: 'windows of the wrong type',
    damage: (doc) => {
      doc.windows = 5
    },
    expected: (good) => ({ ...good, windows: [] }),
    named: [/windows \(expected a list, got a number\)/],
  },
  {
    label: 'a corrupt alert rule (a NaN-like threshold written as a string)',
    damage: (doc) => {
      doc.alertRules = [
        priceRule,
        { ...priceRule, id: 'a-bad', condition: { ...priceRule.condition, value: 'NaN' } },
        healthRule,
      ]
    },
    expected: (good) => good,
    named: [/alertRules "a-bad" \(condition\.value: value must be a number\)/],
  },
  {
    label: 'an alert rule of a newer format',
    damage: (doc) => {
      doc.alertRules = [priceRule, { ...healthRule, id: 'a-future', v: 2 }, healthRule]
    },
    expected: (good) => good,
    named: [/alertRules "a-future" \(v: unknown rule format version/],
  },
  {
    label: 'a bad keepRunning value',
    damage: (doc) => {
      doc.keepRunning = 'sometimes'
    },
    expected: (good) => ({ ...good, keepRunning: 'auto' }),
    named: [/keepRunning \(/],
  },
  {
    label: 'a bad ui section',
    damage: (doc) => {
      doc.ui = { theme: 'neon' }
    },
    expected: ({ ui: _ui, ...rest }) => rest,
    named: [/ui \(theme: /],
  },
  {
    label: 'an activeProfileId of the wrong type',
    damage: (doc) => {
      doc.activeProfileId = 42
    },
    expected: (good) => ({ ...good, activeProfileId: DEMO_PROFILE_ID }),
    named: [/activeProfileId \(/],
  },
  {
    label: 'an activeProfileId naming no profile',
    damage: (doc) => {
      doc.activeProfileId = 'ghost'
    },
    expected: (good) => ({ ...good, activeProfileId: DEMO_PROFILE_ID }),
    named: [/activeProfileId "ghost" \(no such profile/],
  },
  {
    label: 'a missing demo profile',
    damage: (doc) => {
      doc.profiles = [desk, backup]
    },
    expected: (good) => good,
    named: [/profiles "demo" \(missing; the default was put back\)/],
  },
  {
    label: 'an invalid demo profile',
    damage: (doc) => {
      doc.profiles = [{ ...demoProfile(), demo: false }, desk, backup]
    },
    expected: (good) => good,
    named: [/profiles "demo" \(.*the default was put back\)/],
  },
]

describe('loading a settings file with damage in one section', () => {
  it.each(damages)('keeps everything else when it has $label', async ({ damage, expected, named }) => {
    const doc: Record<string, unknown> = { ...goodDoc(), apiKey: 'sk-stray' }
    damage(doc)
    const original = JSON.stringify(doc, null, 2)
    await fs.writeFile(file, original)

    const { settings, warning, dropped } = await createSettingsStore({ path: file }).load()
    expect(settings).toEqual(expected(goodDoc()))
    expect(settings).not.toHaveProperty('apiKey')

    expect(dropped).toHaveLength(named.length)
    named.forEach((re, i) => expect(dropped[i]).toMatch(re))
    expect(warning).toMatch(/^Some settings could not be used and were set aside: /)
    for (const item of dropped) expect(warning).toContain(item)

    // The original is copied aside byte for byte; the file itself now holds the repaired settings.
    const files = await listDir()
    expect(files).toHaveLength(2)
    const [kept, aside] = files
    expect(kept).toBe('settings.json')
    expect(aside).toMatch(/^settings\.json\.corrupt-\d{4}-\d{2}-\d{2}T[\d-]+Z$/)
    expect(warning).toContain(`The original file was kept as ${path.join(dir, aside ?? '')}.`)
    expect(await fs.readFile(path.join(dir, aside ?? ''), 'utf8')).toBe(original)
    const written = await fs.readFile(file, 'utf8')
    expect(JSON.parse(written)).toEqual(settings)
    expect(written).not.toContain('sk-stray')

    // The repaired file loads cleanly: no second warning, no second backup.
    const again = await createSettingsStore({ path: file }).load()
    expect(again).toEqual({ settings, warning: null, dropped: [] })
    expect(await listDir()).toEqual(files)
  })

  it('reports several damaged sections at once', async () => {
    const doc: Record<string, unknown> = { ...goodDoc() }
    doc.profiles = [desk, { ...backup, wsUrl: 'http://h/ws' }]
    doc.windows = [marketWindow, { ...mainWindow, target: { kind: 'event' } }]
    doc.ui = 'dark'
    await fs.writeFile(file, JSON.stringify(doc))
    const { settings, dropped } = await createSettingsStore({ path: file }).load()
    expect(settings).toEqual({
      version: 1,
      profiles: [demoProfile(), desk],
      activeProfileId: 'desk',
      windows: [marketWindow],
      alertRules: [priceRule, healthRule],
      keepRunning: 'always',
      workspaces: [trading, scanning],
      watchlists: goodDoc().watchlists,
      windowWorkspaces: goodDoc().windowWorkspaces,
      windowMarkets: goodDoc().windowMarkets,
      bigTrades: goodDoc().bigTrades,
      trading: goodDoc().trading,
    })
    expect(dropped).toEqual([
      'profiles "backup" (The WebSocket URL must start with ws or wss:// (got "http"))',
      'profiles "demo" (missing; the default was put back)',
      'windows[1] (target.event: Invalid input: expected string, received undefined)',
      'ui (Invalid input: expected object, received string)',
    ])
  })

  it('keeps the first entries up to the limit and says how many went', async () => {
    const windows = Array.from({ length: 70 }, (_, i) => ({ ...mainWindow, displayId: i }))
    await fs.writeFile(file, JSON.stringify({ ...goodDoc(), windows }))
    const { settings, dropped } = await createSettingsStore({ path: file }).load()
    expect(settings.windows.map((w) => w.displayId)).toEqual(windows.slice(0, 64).map((w) => w.displayId))
    expect(dropped).toEqual(['windows: 6 entries over the limit of 64'])
  })

  it('never overwrites an earlier backup of the same second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2031-02-03T04:05:06.789Z'))
    const earlier = `${file}.corrupt-2031-02-03T04-05-06-789Z`
    await fs.writeFile(earlier, 'earlier')
    const original = JSON.stringify({ ...goodDoc(), windows: 5 })
    await fs.writeFile(file, original)

    const { warning } = await createSettingsStore({ path: file }).load()
    expect(warning).toContain(`${earlier}-1.`)
    expect(await fs.readFile(earlier, 'utf8')).toBe('earlier')
    expect(await fs.readFile(`${earlier}-1`, 'utf8')).toBe(original)
  })

  it('writes nothing and refuses updates when the original cannot be backed up', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2031-02-03T04:05:06.789Z'))
    const base = `${file}.corrupt-2031-02-03T04-05-06-789Z`
    // Every name the backup may take is already used.
    await Promise.all(
      Array.from({ length: 1001 }, (_, n) => fs.writeFile(n === 0 ? base : `${base}-${n}`, '')),
    )
    const original = JSON.stringify({ ...goodDoc(), windows: 5 })
    await fs.writeFile(file, original)

    const store = createSettingsStore({ path: file })
    const { settings, warning } = await store.load()
    expect(settings.activeProfileId).toBe('desk')
    expect(warning).toMatch(/could not be backed up/)
    expect(await fs.readFile(file, 'utf8')).toBe(original)
    const r = await store.update((s) => ({ ...s, ui: { theme: 'light' } }))
    expect(r.ok).toBe(false)
    expect(await fs.readFile(file, 'utf8')).toBe(original)
  })
})

describe('loading a settings file that needs no repair', () => {
  it('does not rewrite it, even when it is not formatted as this version would write it', async () => {
    const text = JSON.stringify({ ...goodDoc(), futureField: 1 })
    await fs.writeFile(file, text)
    const before = await fs.stat(file)
    const { settings, warning, dropped } = await createSettingsStore({ path: file }).load()
    expect(settings).toEqual(goodDoc())
    expect(warning).toBeNull()
    expect(dropped).toEqual([])
    expect(await listDir()).toEqual(['settings.json'])
    expect(await fs.readFile(file, 'utf8')).toBe(text)
    expect((await fs.stat(file)).mtimeMs).toBe(before.mtimeMs)
  })

  it('fills sections an older file does not have without a warning', async () => {
    const text = JSON.stringify({ version: 1, profiles: [demoProfile(), desk], activeProfileId: 'desk' })
    await fs.writeFile(file, text)
    const { settings, warning } = await createSettingsStore({ path: file }).load()
    expect(warning).toBeNull()
    expect(settings).toEqual({
      ...defaultSettings(),
      profiles: [demoProfile(), desk],
      activeProfileId: 'desk',
    })
    expect(await fs.readFile(file, 'utf8')).toBe(text)
  })
})

describe('a file that cannot be interpreted at all is still set aside whole', () => {
  it.each([
    ['invalid JSON', `${JSON.stringify(goodDoc()).slice(0, -1)},`, /not valid JSON/],
    ['a newer format version', JSON.stringify({ ...goodDoc(), version: 2 }), /newer version \(format 2\)/],
    ['no version', JSON.stringify({ ...goodDoc(), version: undefined }), /version: expected 1/],
    ['a list', JSON.stringify([goodDoc()]), /expected a JSON object, got a list/],
  ])('%s', async (_label, text, reason) => {
    await fs.writeFile(file, text)
    const { settings, warning, dropped } = await createSettingsStore({ path: file }).load()
    expect(settings).toEqual(defaultSettings())
    expect(dropped).toEqual([])
    expect(warning).toMatch(reason)
    const files = await listDir()
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^settings\.json\.corrupt-/)
    expect(await fs.readFile(path.join(dir, files[0] ?? ''), 'utf8')).toBe(text)
  })
})

describe('updates stay all-or-nothing', () => {
  it('refuses an update with one bad window, naming the field, and keeps the file', async () => {
    await fs.writeFile(file, JSON.stringify(goodDoc()))
    const store = createSettingsStore({ path: file })
    await store.load()
    const before = await fs.readFile(file, 'utf8')
    const r = await store.update((s) => ({
      ...s,
      windows: [...s.windows, { ...mainWindow, bounds: { x: 0, y: 0, width: 0, height: 1 } }],
    }))
    expect(r.ok).toBe(false)
    expect(!r.ok && r.error.message).toMatch(/^Invalid settings: windows\.2\.bounds\.width: /)
    expect(await fs.readFile(file, 'utf8')).toBe(before)
    expect(store.get()).toEqual(goodDoc())
  })

  it('strict messages still name the profile; lenient ones name it once', () => {
    const doc = { ...goodDoc(), profiles: [demoProfile(), { ...desk, baseUrl: 'x' }] }
    const strict = parseSettings(doc)
    expect(!strict.ok && strict.error.message).toBe(
      'Invalid settings: profiles.1: profile "desk": The REST base URL is not a valid URL.',
    )
    const lenient = repairSettings(doc)
    expect(lenient.ok && lenient.value.dropped).toEqual([
      'profiles "desk" (The REST base URL is not a valid URL)',
      'activeProfileId "desk" (no such profile; the demo profile is active instead)',
    ])
  })
})

describe('section table', () => {
  // A later section (alerts here) plugs in as one more line of the table.
  const alertSchema = z.object({ id: z.string().min(1), market: z.string().min(1), above: z.number() })
  const table = {
    alerts: listSection({ entrySchema: alertSchema, maxEntries: 3, idKey: 'id' }),
    sound: valueSection({ schema: z.boolean(), default: () => true }),
  }

  it('reads each section leniently and takes defaults for missing ones', () => {
    const dropped: string[] = []
    const value = readSections(
      table,
      {
        alerts: [
          { id: 'a', market: 'm', above: 1 },
          { id: 'b', market: '', above: 2 },
          { id: 'a', market: 'm2', above: 3 },
          'junk',
        ],
      },
      (item) => dropped.push(item),
    )
    expect(value).toEqual({ alerts: [{ id: 'a', market: 'm', above: 1 }], sound: true })
    expect(dropped).toEqual([
      'alerts "b" (market: Too small: expected string to have >=1 characters)',
      'alerts "a" (duplicate id; the first one was kept)',
      'alerts[3] (Invalid input: expected object, received string)',
    ])
  })

  it('summarises a flood of bad entries instead of listing them all', () => {
    const dropped: string[] = []
    readSections(table, { alerts: Array.from({ length: 50 }, () => 1), sound: 'loud' }, (item) =>
      dropped.push(item),
    )
    expect(dropped).toHaveLength(22)
    expect(dropped[20]).toBe('alerts: 30 more')
    expect(dropped[21]).toMatch(/^sound \(/)
  })
})
