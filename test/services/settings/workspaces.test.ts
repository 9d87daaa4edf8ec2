// Workspaces and watchlists through the real engine and a real settings file: saved from one window, seen by
// the others, kept across a restart, refused when malformed (IPC validation), and a corrupt saved layout is set
// aside by name while every other workspace survives.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createMemoryStore } from '../../../src/main/services/credentials/store'
import { createMonitor } from '../../../src/main/services/monitor'
import type { MonitorEngine } from '../../../src/main/services/base/types'
import type { ViewBatch } from '../../../src/shared/ipc'
import { validateArgs } from '../../../src/shared/ipc-validate'
import {
  DEFAULT_WORKSPACE_ID,
  MARKET_WORKSPACE_ID,
  MAX_PAGE_WINDOWS,
  type WorkspaceView,
} from '../../../src/shared/workspace'
import { layoutOf } from '../../fixtures/layouts'
import { WorkspaceService } from '../../../src/main/services/settings/workspaces'
import { defaultSettings, UNCHANGED } from '../../../src/main/services/settings/store'
import { parseSettings } from '../../../src/main/services/settings/schema'
import { captureLogger, waitFor } from '../helpers'

let dir: string
let file: string
let engine: MonitorEngine | null = null
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tm-workspaces-'))
  file = path.join(dir, 'settings.json')
})
afterEach(async () => {
  await engine?.close()
  engine = null
  await rm(dir, { recursive: true, force: true })
})

async function start(): Promise<MonitorEngine> {
  engine = await createMonitor({
    settingsPath: file,
    credentials: createMemoryStore(),
    demo: false,
    logger: captureLogger().logger,
  })
  return engine
}

async function lastWorkspace(
  batches: ViewBatch[],
  test: (v: WorkspaceView) => boolean,
): Promise<WorkspaceView> {
  for (let i = 0; i < 100; i++) {
    const found = [...batches].reverse().find((b) => b.workspace !== undefined)?.workspace
    if (found && test(found)) return found
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('no matching workspace view reached the window')
}

const trading = layoutOf([
  { id: 'p-ladder', kind: 'ladder' },
  { id: 'p-tape', kind: 'tape', market: 'm-1' },
])

it('a workspace and a watchlist saved in one window reach the others and survive a restart', async () => {
  const e = await start()
  const other: ViewBatch[] = []
  e.attachClient({ sink: (b) => other.push(b) })
  const a = e.attachClient({ sink: () => {} })
  const first = await lastWorkspace(other, () => true)
  expect(first.workspaces).toEqual([])

  const saved = await a.saveWorkspace({ name: '  Trading ', layout: trading })
  if (!saved.ok) throw new Error(saved.error.message)
  expect(saved.value.name).toBe('Trading')
  const list = await a.saveWatchlist({ name: 'Elections', markets: ['m-1', 'm-2', 'm-1'] })
  if (!list.ok) throw new Error(list.error.message)
  expect(list.value.markets).toEqual(['m-1', 'm-2'])
  expect((await a.setWindowWorkspace('main', saved.value.id)).ok).toBe(true)
  expect((await a.setBigTrade('m-1', { minSize: 250, relative: 3 })).ok).toBe(true)

  const seen = await lastWorkspace(other, (v) => v.bigTrades.length === 1)
  expect(seen.workspaces.map((w) => w.name)).toEqual(['Trading'])
  expect(seen.watchlists[0]?.markets).toEqual(['m-1', 'm-2'])
  expect(seen.windows).toEqual([{ window: 'main', workspace: saved.value.id }])

  await e.close()
  const again = await start()
  const view = await again.attachClient({ sink: () => {} }).getWorkspaces()
  if (!view.ok) throw new Error(view.error.message)
  expect(view.value.workspaces[0]?.layout).toEqual(trading)
  expect(view.value.watchlists[0]?.name).toBe('Elections')
  expect(view.value.windows).toEqual([{ window: 'main', workspace: saved.value.id }])
  expect(view.value.bigTrades).toEqual([{ market: 'm-1', minSize: 250, relative: 3 }])
})

it('refuses duplicate names, unknown ids and a window pointed at no workspace, changing nothing', async () => {
  const e = await start()
  const c = e.attachClient({ sink: () => {} })
  const one = await c.saveWorkspace({ name: 'Scalping', layout: trading })
  expect(one.ok).toBe(true)
  const dup = await c.saveWorkspace({ name: 'scalping', layout: trading })
  expect(dup.ok ? null : dup.error.message).toMatch(/already called "Scalping"/)
  const ghost = await c.saveWorkspace({ id: 'ws-ghost', name: 'Ghost', layout: trading })
  expect(ghost.ok ? null : ghost.error.message).toMatch(/no workspace "ws-ghost"/)
  const nowhere = await c.setWindowWorkspace('main', 'ws-ghost')
  expect(nowhere.ok).toBe(false)
  // The built-in ids need no saved workspace.
  expect((await c.setWindowWorkspace('market:m-1', 'market')).ok).toBe(true)
  const view = await c.getWorkspaces()
  expect(view.ok && view.value.workspaces.map((w) => w.name)).toEqual(['Scalping'])
  expect(view.ok && view.value.windows).toEqual([{ window: 'market:m-1', workspace: 'market' }])
  // Deleting a workspace forgets the windows that showed it.
  if (!one.ok) throw new Error('unreachable')
  await c.setWindowWorkspace('main', one.value.id)
  expect((await c.deleteWorkspace(one.value.id)).ok).toBe(true)
  const after = await c.getWorkspaces()
  expect(after.ok && after.value.windows.map((w) => w.window)).toEqual(['market:m-1'])
})

it("each window's selected market is kept apart, survives a restart, and null forgets it", async () => {
  const e = await start()
  const other: ViewBatch[] = []
  e.attachClient({ sink: (b) => other.push(b) })
  const c = e.attachClient({ sink: () => {} })
  expect((await c.setWindowMarket('main', 'm-1')).ok).toBe(true)
  expect((await c.setWindowMarket('market:m-9', 'm-2')).ok).toBe(true)
  expect((await c.setWindowMarket('main', 'm-3')).ok).toBe(true)
  // A market the listing no longer holds is still the window's choice: the window shows it by id.
  expect((await c.setWindowMarket('event:e-1', 'gone-market')).ok).toBe(true)
  const seen = await lastWorkspace(other, (v) => v.markets.length === 3)
  expect(seen.markets).toEqual([
    { window: 'market:m-9', market: 'm-2' },
    { window: 'main', market: 'm-3' },
    { window: 'event:e-1', market: 'gone-market' },
  ])

  await e.close()
  const again = await start()
  const a = again.attachClient({ sink: () => {} })
  const view = await a.getWorkspaces()
  expect(view.ok && view.value.markets.find((m) => m.window === 'main')).toEqual({
    window: 'main',
    market: 'm-3',
  })
  expect((await a.setWindowMarket('main', null)).ok).toBe(true)
  const after = await a.getWorkspaces()
  expect(after.ok && after.value.markets.map((m) => m.window)).toEqual(['market:m-9', 'event:e-1'])
  const doc = JSON.parse(await readFile(file, 'utf8')) as { windowMarkets: unknown[] }
  expect(doc.windowMarkets).toHaveLength(2)
})

it('a burst of selections, sent without waiting, keeps the last one of each window, and a repeat writes nothing', async () => {
  const e = await start()
  const c = e.attachClient({ sink: () => {} })
  expect((await c.setWindowMarket('main', 'm-0')).ok).toBe(true)
  // Away and straight back while the first write is still going on; another window meanwhile.
  const burst = await Promise.all([
    c.setWindowMarket('main', 'm-1'),
    c.setWindowMarket('market:m-9', 'm-2'),
    c.setWindowMarket('main', 'm-0'),
    c.setWindowWorkspace('main', DEFAULT_WORKSPACE_ID),
    c.setWindowWorkspace('main', MARKET_WORKSPACE_ID),
    c.setWindowWorkspace('main', DEFAULT_WORKSPACE_ID),
  ])
  expect(burst.every((r) => r.ok)).toBe(true)
  const doc = JSON.parse(await readFile(file, 'utf8')) as {
    windowMarkets: unknown[]
    windowWorkspaces: unknown[]
  }
  // Most recent last: main's last change came after the other window's.
  expect(doc.windowMarkets).toEqual([
    { window: 'market:m-9', market: 'm-2' },
    { window: 'main', market: 'm-0' },
  ])
  expect(doc.windowWorkspaces).toEqual([{ window: 'main', workspace: DEFAULT_WORKSPACE_ID }])
  const written = (await stat(file)).mtimeMs
  await new Promise((r) => setTimeout(r, 20))
  expect((await c.setWindowMarket('main', 'm-0')).ok).toBe(true)
  expect((await stat(file)).mtimeMs).toBe(written)
  await e.close()
})

it("the pages' own keys, one per tab and relaunch, never push out the windows that come back", async () => {
  const e = await start()
  const c = e.attachClient({ sink: () => {} })
  expect((await c.setWindowMarket('market:m-9', 'm-9')).ok).toBe(true)
  expect((await c.setWindowWorkspace('market:m-9', MARKET_WORKSPACE_ID)).ok).toBe(true)
  expect((await c.setWindowMarket('main', 'm-0')).ok).toBe(true)
  const pages = Array.from(
    { length: MAX_PAGE_WINDOWS + 5 },
    (_, i) => `main:${i.toString(16).padStart(16, '0')}`,
  )
  for (const page of pages) {
    expect((await c.setWindowMarket(page, `m-${page}`)).ok).toBe(true)
    expect((await c.setWindowWorkspace(page, DEFAULT_WORKSPACE_ID)).ok).toBe(true)
  }
  const view = await c.getWorkspaces()
  if (!view.ok) throw new Error(view.error.message)
  // The newest pages' keys, at most MAX_PAGE_WINDOWS of them; the other windows' entries all kept.
  const kept = (list: readonly { window: string }[]) => list.map((w) => w.window)
  expect(kept(view.value.markets)).toEqual(['market:m-9', 'main', ...pages.slice(-MAX_PAGE_WINDOWS)])
  expect(kept(view.value.windows)).toEqual(['market:m-9', ...pages.slice(-MAX_PAGE_WINDOWS)])
})

it('the price unit is one setting of the app: set from one window, seen by all, kept, and the alert texts follow it', async () => {
  const e = await start()
  const other: ViewBatch[] = []
  e.attachClient({ sink: (b) => other.push(b) })
  const c = e.attachClient({ sink: () => {} })
  const view = await c.getWorkspaces()
  // VoxFi's own unit until the trader chooses.
  expect(view.ok && view.value.priceUnit).toBe('cents')
  const saved = await c.saveAlert({
    condition: { kind: 'price', market: 'm-1', subject: 'mid', op: 'above', value: 0.45 },
  })
  expect(saved.ok && saved.value.summary).toBe('m-1 mid above 45¢')
  await waitFor(() => other.some((b) => b.alerts?.rules[0]?.summary === 'm-1 mid above 45¢'), 'the new rule')

  expect((await c.setPriceUnit('probability')).ok).toBe(true)
  expect((await lastWorkspace(other, (v) => v.priceUnit === 'probability')).priceUnit).toBe('probability')
  const alerts = await c.getAlerts()
  expect(alerts.ok && alerts.value.rules[0]?.summary).toBe('m-1 mid above 0.45')
  // The windows hear of the rule's words in the new unit without anything else changing.
  await waitFor(
    () => other.some((b) => b.alerts?.rules[0]?.summary === 'm-1 mid above 0.45'),
    "the rule's words in the new unit",
    3_000,
  )
  expect(validateArgs('setPriceUnit', ['percent']).ok).toBe(false)

  await e.close()
  const again = await start()
  const a = again.attachClient({ sink: () => {} })
  const kept = await a.getWorkspaces()
  expect(kept.ok && kept.value.priceUnit).toBe('probability')
})

it('a change of price unit, and only a change, has the engine write its own texts again', async () => {
  let current = defaultSettings()
  let rewrites = 0
  const service = new WorkspaceService({
    settings: {
      get: () => current,
      update: async (mutate) => {
        const next = mutate(current)
        if (next === UNCHANGED) return { ok: true, value: current }
        const r = parseSettings(next)
        if (r.ok) current = r.value
        return r
      },
    },
    now: () => 0,
    changed: () => {},
    priceUnitChanged: () => rewrites++,
  })
  expect(service.priceUnit()).toBe('cents')
  expect((await service.setPriceUnit('cents')).ok).toBe(true)
  expect(rewrites).toBe(0)
  expect((await service.setPriceUnit('probability')).ok).toBe(true)
  expect(rewrites).toBe(1)
  expect(service.priceUnit()).toBe('probability')
  expect(current.ui?.priceUnit).toBe('probability')
})

it('IPC validation refuses malformed layouts and watchlists before the engine sees them', () => {
  const bad = structuredClone(trading) as unknown as { panels: Record<string, { contentComponent: string }> }
  ;(bad.panels['p-tape'] as { contentComponent: string }).contentComponent = 'script'
  const r = validateArgs('saveWorkspace', [{ name: 'X', layout: bad }])
  expect(r.ok ? null : r.message).toMatch(/contentComponent/)
  const stray = validateArgs('saveWorkspace', [
    { name: 'X', layout: layoutOf([{ id: 'p', kind: 'tape' }]), extra: 1 },
  ])
  expect(stray.ok).toBe(false)
  const deep: Record<string, unknown> = { type: 'branch', data: [] }
  let node = deep
  for (let i = 0; i < 40; i++) {
    const child: Record<string, unknown> = { type: 'branch', data: [] }
    node.data = [child]
    node = child
  }
  const tooDeep = { ...layoutOf([{ id: 'p', kind: 'tape' }]) }
  tooDeep.grid = { ...tooDeep.grid, root: deep as never }
  const d = validateArgs('saveWorkspace', [{ name: 'Deep', layout: tooDeep }])
  expect(d.ok ? null : d.message).toMatch(/nested deeper/)
  const big = validateArgs('saveWatchlist', [
    { name: 'All', markets: Array.from({ length: 501 }, (_, i) => `m-${i}`) },
  ])
  expect(big.ok).toBe(false)
  expect(validateArgs('setWindowWorkspace', ['../etc', 'default']).ok).toBe(false)
  expect(validateArgs('setWindowMarket', ['main', 'm-1']).ok).toBe(true)
  expect(validateArgs('setWindowMarket', ['main', null]).ok).toBe(true)
  expect(validateArgs('setWindowMarket', ['main', '']).ok).toBe(false)
  expect(validateArgs('setWindowMarket', ['main', 'm\u0000']).ok).toBe(false)
  expect(validateArgs('setWindowMarket', ['nowhere', 'm-1']).ok).toBe(false)
  // A page of the main view has a key of its own (docs/workspaces.md); nothing else rides on the prefix.
  expect(validateArgs('setWindowMarket', ['main:0f3a9c12de45b678', 'm-1']).ok).toBe(true)
  expect(validateArgs('setWindowMarket', ['main:', 'm-1']).ok).toBe(false)
  expect(validateArgs('setWindowMarket', ['main:../x', 'm-1']).ok).toBe(false)
  expect(validateArgs('setBigTrade', ['m-1', { minSize: -1, relative: null }]).ok).toBe(false)
  expect(validateArgs('setBigTrade', ['m-1', null]).ok).toBe(true)
})

it('a corrupt saved layout is set aside by name with a notice; the other workspaces are kept', async () => {
  const good = { id: 'ws-good', name: 'Good', layout: trading, updatedAt: 1 }
  const broken = { id: 'ws-broken', name: 'Broken', layout: { grid: 'garbage', panels: {} }, updatedAt: 1 }
  const demo = {
    id: 'demo',
    name: 'Demo (simulator)',
    baseUrl: '',
    wsUrl: '',
    demo: true,
    keyLabel: null,
    keyExpiresAt: null,
  }
  const original = JSON.stringify({
    version: 1,
    profiles: [demo],
    activeProfileId: 'demo',
    windows: [],
    workspaces: [broken, good],
    watchlists: [{ id: 'wl-1', name: 'Mine', markets: ['m-1'] }],
    windowWorkspaces: [{ window: 'main', workspace: 'ws-broken' }],
  })
  await writeFile(file, original)
  const e = await start()
  const c = e.attachClient({ sink: () => {} })
  const view = await c.getWorkspaces()
  if (!view.ok) throw new Error(view.error.message)
  expect(view.value.workspaces.map((w) => w.id)).toEqual(['ws-good'])
  expect(view.value.watchlists.map((w) => w.id)).toEqual(['wl-1'])
  const status = await c.getStatus()
  const notices = status.ok ? (status.value.notices ?? []) : []
  expect(notices.join('\n')).toMatch(/workspaces "ws-broken"/)
  // The original file is kept beside the repaired one, byte for byte.
  const backup = (await readdir(dir)).find((f) => f.startsWith('settings.json.corrupt-'))
  expect(backup).toBeDefined()
  expect(await readFile(path.join(dir, backup as string), 'utf8')).toBe(original)
})
