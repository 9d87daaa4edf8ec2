// One endpoint rule (src/shared/endpoints.ts), enforced by the engine on every way a profile gets in: a window's
// call (IPC), the browser bridge, and a settings file edited by hand. Plain ws:// or http:// to a remote host
// must never be saved, selected or dialled.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MonitorEngine } from '../../../src/main/services/base/types'
import { createMemoryStore } from '../../../src/main/services/credentials/store'
import { createMonitor } from '../../../src/main/services/monitor'
import { startWebHost, type WebHost } from '../../../src/main/web/server'
import { openBridge, rendererFixture, type RendererFixture } from '../../web/helpers'
import { captureLogger } from '../helpers'

const REMOTE = [
  {
    name: 'remote ws',
    baseUrl: 'https://remote.example/v1',
    wsUrl: 'ws://remote.example/ws',
    field: 'wsUrl',
  },
  {
    name: 'remote http',
    baseUrl: 'http://remote.example/v1',
    wsUrl: 'wss://remote.example/ws',
    field: 'baseUrl',
  },
] as const

let engine: MonitorEngine | null = null
let host: WebHost | null = null
let fixture: RendererFixture | null = null
let dir: string | null = null
afterEach(async () => {
  await host?.close()
  await engine?.close()
  fixture?.cleanup()
  if (dir) await rm(dir, { recursive: true, force: true })
  engine = host = fixture = dir = null
})

async function start(settingsPath: string | null = null): Promise<MonitorEngine> {
  engine = await createMonitor({
    settingsPath,
    credentials: createMemoryStore(),
    demo: false,
    logger: captureLogger().logger,
  })
  return engine
}

describe('the engine refuses plain ws/http to a remote host', () => {
  it.each(REMOTE)('from a window ($name), naming the field', async ({ name, baseUrl, wsUrl, field }) => {
    const client = (await start()).attachClient({ sink: () => {} })
    const r = await client.saveProfile({ name, baseUrl, wsUrl })
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error).toMatchObject({ code: 'invalid_argument', field })
      expect(r.error.message).toMatch(/only allowed to this machine/)
    }
    const listed = await client.listProfiles()
    expect(listed.ok && listed.value.profiles.some((p) => p.name === name)).toBe(false)
  })

  it('from the browser bridge', async () => {
    const monitor = await start()
    fixture = rendererFixture()
    host = await startWebHost({ monitor, rendererDir: fixture.root, logger: captureLogger().logger })
    const page = await openBridge(host.port, host.token)
    try {
      const r = await page.call('saveProfile', [
        { name: 'x', baseUrl: 'https://h/v1', wsUrl: 'ws://remote.example' },
      ])
      expect(r.ok).toBe(false)
      expect(r.error).toMatchObject({ code: 'invalid_argument' })
      expect(r.error?.message).toMatch(/WebSocket URL must use wss/)
    } finally {
      page.ws.close()
    }
  })

  it('from a settings file edited by hand: the profile is set aside and named, never dialled', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tm-endpoints-'))
    const file = path.join(dir, 'settings.json')
    const demo = {
      id: 'demo',
      name: 'Demo',
      baseUrl: '',
      wsUrl: '',
      demo: true,
      keyLabel: null,
      keyExpiresAt: null,
    }
    const bad = {
      ...demo,
      id: 'plain',
      name: 'Plain',
      baseUrl: 'https://h/v1',
      wsUrl: 'ws://remote.example/ws',
      demo: false,
    }
    await writeFile(
      file,
      JSON.stringify({ version: 1, profiles: [demo, bad], activeProfileId: 'plain', windows: [] }),
    )
    const client = (await start(file)).attachClient({ sink: () => {} })
    const listed = await client.listProfiles()
    expect(listed.ok).toBe(true)
    if (listed.ok) {
      expect(listed.value.profiles.map((p) => p.id)).not.toContain('plain')
      expect(listed.value.activeId).not.toBe('plain')
    }
    const status = await client.getStatus()
    const notices = status.ok ? (status.value.notices ?? []) : []
    expect(notices.join('\n')).toMatch(/WebSocket URL must use wss/)
  })
})
