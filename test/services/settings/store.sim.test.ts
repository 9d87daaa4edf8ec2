// A settings file with one bad entry: the engine starts with every good profile and tells the windows, in its
// status, what was set aside and where the original file is.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createMemoryStore } from '../../../src/main/services/credentials/store'
import { createMonitor } from '../../../src/main/services/monitor'
import type { MonitorEngine } from '../../../src/main/services/base/types'
import { captureLogger } from '../helpers'

let dir: string | null = null
let engine: MonitorEngine | null = null
afterEach(async () => {
  await engine?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
  engine = null
  dir = null
})

it('a bad window layout is set aside and named; both saved profiles survive', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tm-settings-notice-'))
  const file = path.join(dir, 'settings.json')
  const profile = (id: string) => ({
    id,
    name: id,
    baseUrl: 'http://127.0.0.1:9/v1',
    wsUrl: 'ws://127.0.0.1:9/ws',
    demo: false,
    keyLabel: null,
    keyExpiresAt: null,
  })
  const demo = { ...profile('demo'), baseUrl: '', wsUrl: '', demo: true, name: 'Demo (simulator)' }
  await writeFile(
    file,
    JSON.stringify({
      version: 1,
      profiles: [demo, profile('p-one'), profile('p-two')],
      activeProfileId: 'demo',
      windows: [
        { target: { kind: 'main' }, bounds: null, displayId: null, maximized: false },
        { target: { kind: 'chart-of-doom' }, bounds: null, displayId: null, maximized: false },
      ],
    }),
  )
  engine = await createMonitor({
    settingsPath: file,
    credentials: createMemoryStore(),
    demo: false,
    logger: captureLogger().logger,
  })
  const client = engine.attachClient({ sink: () => {} })
  const profiles = await client.listProfiles()
  expect(profiles.ok && profiles.value.profiles.map((p) => p.id)).toEqual([
    'demo',
    'p-one',
    'p-two',
    // VoxFi's built-in profiles are listed after the file's own.
    'voxfi',
    'voxfi-dev',
  ])
  expect(engine.getWindowLayouts()).toHaveLength(1)
  const status = await client.getStatus()
  const notices = status.ok ? (status.value.notices ?? []) : []
  expect(notices).toHaveLength(1)
  expect(notices[0]).toMatch(/windows\[1\]/)
  const files = await readdir(dir)
  const backup = files.find((f) => f.startsWith('settings.json.corrupt-'))
  expect(backup).toBeDefined()
  expect(notices[0]).toContain(backup as string)
})
