// ProfileService over an in-memory settings store, a memory credential store and a connection stub that
// records connects: adding, editing, selecting and deleting profiles, and the demo profile's protection.
import { describe, expect, it } from 'vitest'
import { DEMO_PROFILE_ID, type Profile } from '../../../src/shared/model'
import type { ConnectionManager } from '../../../src/main/services/feed/connection'
import { createMemoryStore } from '../../../src/main/services/credentials/store'
import { activeProfileOf, ProfileService } from '../../../src/main/services/settings/profiles'
import { createSettingsStore } from '../../../src/main/services/settings/store'
import { captureLogger } from '../helpers'

type ConnectionStub = Pick<ConnectionManager, 'profile' | 'withRuntimeUrls' | 'connect' | 'hasStream'>

async function setup() {
  const settings = createSettingsStore({ path: null })
  await settings.load()
  const credentials = createMemoryStore()
  const connects: Profile[] = []
  let stream = true
  const stub: ConnectionStub = {
    profile: activeProfileOf(settings),
    withRuntimeUrls: (p) => ({ ...p, baseUrl: p.demo ? 'http://runtime/v1' : p.baseUrl }),
    connect: async (p) => {
      connects.push(p)
      stub.profile = p
    },
    hasStream: () => stream,
  }
  const log = captureLogger()
  // The service uses only the members picked above.
  const profiles = new ProfileService(settings, stub as ConnectionManager, credentials, log.logger)
  return { profiles, settings, credentials, connects, stub, log, setStream: (v: boolean) => (stream = v) }
}

const ENDPOINTS = { baseUrl: 'http://127.0.0.1:8081/v1', wsUrl: 'ws://127.0.0.1:8081/ws' }

describe('ProfileService', () => {
  it('starts on the demo profile; list() shows runtime URLs and the active id', async () => {
    const s = await setup()
    expect(s.profiles.active().id).toBe(DEMO_PROFILE_ID)
    const l = s.profiles.list()
    expect(l.activeId).toBe(DEMO_PROFILE_ID)
    // The demo, then VoxFi's built-in venues (listed before they are ever selected).
    expect(l.profiles.map((p) => p.id)).toEqual([DEMO_PROFILE_ID, 'voxfi', 'voxfi-dev'])
    expect(l.profiles[0]?.baseUrl).toBe('http://runtime/v1')
  })

  it('adds a profile: validated, trimmed, not demo, not connected', async () => {
    const s = await setup()
    const r = await s.profiles.save({ name: '  Venue  ', ...ENDPOINTS })
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value).toMatchObject({ name: 'Venue', demo: false, keyLabel: null, ...ENDPOINTS })
    expect(r.value.id).toMatch(/^p-[0-9a-f]{8}$/)
    expect(s.settings.get().profiles.map((p) => p.id)).toEqual([DEMO_PROFILE_ID, r.value.id])
    expect(s.settings.get().activeProfileId).toBe(DEMO_PROFILE_ID)
    expect(s.connects).toEqual([])
  })

  it('refuses bad endpoints and leaves settings alone', async () => {
    const s = await setup()
    const r = await s.profiles.save({ name: 'x', baseUrl: 'ftp://nope', wsUrl: ENDPOINTS.wsUrl })
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    const r2 = await s.profiles.save({ name: 'x', baseUrl: ENDPOINTS.baseUrl, wsUrl: 'http://not-ws' })
    expect(!r2.ok && r2.error.code).toBe('invalid_argument')
    expect(s.settings.get().profiles).toHaveLength(1)
  })

  it('the demo profile cannot be edited or deleted', async () => {
    const s = await setup()
    const edit = await s.profiles.save({ id: DEMO_PROFILE_ID, name: 'mine', ...ENDPOINTS })
    expect(!edit.ok && edit.error.message).toMatch(/demo profile cannot be edited/)
    const del = await s.profiles.delete(DEMO_PROFILE_ID)
    expect(!del.ok && del.error.message).toMatch(/demo profile cannot be deleted/)
    expect(s.settings.get().profiles.map((p) => p.id)).toEqual([DEMO_PROFILE_ID])
    expect(s.connects).toEqual([])
  })

  it('unknown ids are refused by save, select and delete', async () => {
    const s = await setup()
    expect((await s.profiles.save({ id: 'p-nope', name: 'x', ...ENDPOINTS })).ok).toBe(false)
    expect((await s.profiles.select('p-nope')).ok).toBe(false)
    expect((await s.profiles.delete('p-nope')).ok).toBe(false)
  })

  it('select(): makes a profile active and connects to it, once', async () => {
    const s = await setup()
    const saved = await s.profiles.save({ name: 'Venue', ...ENDPOINTS })
    if (!saved.ok) throw new Error(saved.error.message)
    expect((await s.profiles.select(saved.value.id)).ok).toBe(true)
    expect(s.settings.get().activeProfileId).toBe(saved.value.id)
    expect(s.connects.map((p) => p.id)).toEqual([saved.value.id])
    expect(s.log.lines.some((l) => l.includes('profile selected'))).toBe(true)
    // Already active with a stream: nothing to do. Without a stream: connect again.
    await s.profiles.select(saved.value.id)
    expect(s.connects).toHaveLength(1)
    s.setStream(false)
    await s.profiles.select(saved.value.id)
    expect(s.connects).toHaveLength(2)
  })

  it('editing the active profile reconnects only when its endpoints moved', async () => {
    const s = await setup()
    const saved = await s.profiles.save({ name: 'Venue', ...ENDPOINTS })
    if (!saved.ok) throw new Error(saved.error.message)
    await s.profiles.update(saved.value.id, { keyLabel: 'trading key' })
    await s.profiles.select(saved.value.id)
    s.connects.length = 0

    const renamed = await s.profiles.save({ id: saved.value.id, name: 'Renamed', ...ENDPOINTS })
    expect(renamed.ok && renamed.value.keyLabel).toBe('trading key')
    expect(s.connects).toEqual([])
    expect(s.stub.profile.name).toBe('Renamed')

    const moved = await s.profiles.save({
      id: saved.value.id,
      name: 'Renamed',
      baseUrl: 'http://127.0.0.1:9999/v1',
      wsUrl: 'ws://127.0.0.1:9999/ws',
    })
    expect(moved.ok).toBe(true)
    expect(s.connects.map((p) => p.wsUrl)).toEqual(['ws://127.0.0.1:9999/ws'])
    expect(s.stub.profile.baseUrl).toBe('http://127.0.0.1:9999/v1')
  })

  it('editing a profile that is not active never reconnects', async () => {
    const s = await setup()
    const saved = await s.profiles.save({ name: 'Other', ...ENDPOINTS })
    if (!saved.ok) throw new Error(saved.error.message)
    await s.profiles.save({
      id: saved.value.id,
      name: 'Other',
      baseUrl: 'http://h:1/v1',
      wsUrl: 'ws://h:1/ws',
    })
    expect(s.connects).toEqual([])
    expect(s.stub.profile.id).toBe(DEMO_PROFILE_ID)
  })

  it('update(): patches settings and the live profile object when it is the active one', async () => {
    const s = await setup()
    const r = await s.profiles.update(DEMO_PROFILE_ID, { keyLabel: 'Demo key' })
    expect(r.ok && r.value.keyLabel).toBe('Demo key')
    expect(s.stub.profile.keyLabel).toBe('Demo key')
    expect(s.settings.get().profiles[0]?.keyLabel).toBe('Demo key')
  })

  it('deleting the active profile falls back to the demo profile, removes its key and reconnects', async () => {
    const s = await setup()
    const saved = await s.profiles.save({ name: 'Venue', ...ENDPOINTS })
    if (!saved.ok) throw new Error(saved.error.message)
    await s.credentials.set(saved.value.id, 'secret-key-123456')
    await s.profiles.select(saved.value.id)
    s.connects.length = 0
    expect((await s.profiles.delete(saved.value.id)).ok).toBe(true)
    expect(s.settings.get().activeProfileId).toBe(DEMO_PROFILE_ID)
    expect(s.settings.get().profiles.map((p) => p.id)).toEqual([DEMO_PROFILE_ID])
    expect(s.connects.map((p) => p.id)).toEqual([DEMO_PROFILE_ID])
    const key = await s.credentials.get(saved.value.id)
    expect(key.ok && key.value).toBeNull()
  })

  it('deleting another profile removes it and its key without reconnecting', async () => {
    const s = await setup()
    const saved = await s.profiles.save({ name: 'Venue', ...ENDPOINTS })
    if (!saved.ok) throw new Error(saved.error.message)
    await s.credentials.set(saved.value.id, 'secret-key-123456')
    expect((await s.profiles.delete(saved.value.id)).ok).toBe(true)
    expect(s.connects).toEqual([])
    const key = await s.credentials.get(saved.value.id)
    expect(key.ok && key.value).toBeNull()
  })
})
