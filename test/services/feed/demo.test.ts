// Demo mode: createMonitor({ demo: true }) runs the simulator in a worker thread and streams from it.
import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_PROFILE_ID } from '../../../src/shared/model'
import { createMonitor } from '../../../src/main/services/monitor'
import type { MonitorEngine } from '../../../src/main/services/base/types'
import { captureLogger, waitFor } from '../helpers'
import { Recorder } from '../harness'

let engine: MonitorEngine | null = null
afterEach(async () => {
  await engine?.close()
  engine = null
})

describe('demo mode', () => {
  it('streams from the embedded simulator in a worker, lists events and opts into the user channel', async () => {
    const log = captureLogger()
    engine = await createMonitor({
      settingsPath: null,
      demo: { seed: 3 },
      logger: log.logger,
      fanoutIntervalMs: 10,
    })
    const rec = new Recorder(true)
    const client = engine.attachClient({ label: 'demo', sink: rec.sink })

    const profiles = await client.listProfiles()
    expect(profiles.ok && profiles.value.activeId).toBe(DEMO_PROFILE_ID)
    const demo = profiles.ok ? profiles.value.profiles.find((p) => p.id === DEMO_PROFILE_ID) : undefined
    expect(demo?.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/)
    expect(demo?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)

    // The listing works before the user opts into the demo key (the engine uses it internally).
    const listing = await client.listEvents()
    expect(listing.ok).toBe(true)
    const market = listing.ok ? listing.value[0]?.markets[0]?.id : undefined
    expect(market).toBeDefined()
    expect((await client.getKeyInfo()).ok && rec.status()?.hasKey).toBe(false)

    await client.setInterests([
      { channel: 'market', id: market as string, filter: 'all' },
      { channel: 'user' },
    ])
    await waitFor(() => rec.marketData(market as string, 0), 'market data from the worker simulator', 20_000)
    expect(rec.userData(0)).toBe(false)

    const key = await client.useDemoKey()
    expect(key.ok && key.value.hasKey).toBe(true)
    await waitFor(() => rec.userData(0), 'user data after useDemoKey', 20_000)
    await waitFor(() => rec.status()?.state === 'live', 'live')

    // The end-to-end test hook drops the worker simulator's connections: the engine reconnects and resumes.
    const before = rec.status()?.reconnects ?? 0
    expect(engine.injectDemoFault('drop')).toBe(true)
    await waitFor(
      () => (rec.status()?.reconnects ?? 0) > before,
      'a reconnect after the injected drop',
      20_000,
    )
    await waitFor(() => rec.status()?.state === 'live', 'live again after the drop', 20_000)

    // The demo key never reaches a window either.
    const demoKeyFragment = /sk_demo_[0-9a-f]{8}/
    for (const text of [...rec.serialised, ...log.lines]) expect(demoKeyFragment.test(text)).toBe(false)
    expect(rec.encodingMismatches).toBe(0)

    const other = await client.saveProfile({
      name: 'x',
      baseUrl: 'http://127.0.0.1:1/v1',
      wsUrl: 'ws://127.0.0.1:1/ws',
    })
    expect(other.ok).toBe(true)
    expect((await client.deleteProfile(DEMO_PROFILE_ID)).ok).toBe(false)
    const notDemo = other.ok ? await client.selectProfile(other.value.id) : null
    expect(notDemo?.ok).toBe(true)
    const k = await client.useDemoKey()
    expect(!k.ok && k.error.code).toBe('invalid_argument')
  })
})
