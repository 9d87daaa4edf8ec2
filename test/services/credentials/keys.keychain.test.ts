// A locked or missing OS keychain is a visible, sticky state (StreamStatus.credentialsError), never a silent
// "no key": a locked keyring answers lookups with "not found", so opening a profile probes it.
import { afterEach, describe, expect, it } from 'vitest'
import { createMonitor } from '../../../src/main/services/monitor'
import type { CredentialStore } from '../../../src/main/services/credentials/store'
import type { MonitorEngine } from '../../../src/main/services/base/types'
import type { ApiError, Result } from '../../../src/shared/model'
import { createSimulator, type Simulator } from '../../../src/sim'
import { captureLogger, waitFor } from '../helpers'
import { Recorder } from '../harness'

const LOCKED: ApiError = { code: 'keyring_locked', message: 'The system keychain is locked.' }

/** A keychain that behaves like a locked Secret Service until unlocked: lookups say "absent", writes fail. */
function lockableKeychain(): CredentialStore & { unlock(): void } {
  let locked = true
  const items = new Map<string, string>()
  const guard = <T>(value: T): Result<T> => (locked ? { ok: false, error: LOCKED } : { ok: true, value })
  return {
    kind: 'keyring',
    unlock: () => {
      locked = false
    },
    get: async (id) => ({ ok: true, value: locked ? null : (items.get(id) ?? null) }),
    set: async (id, key) => {
      const r = guard(undefined)
      if (r.ok) items.set(id, key)
      return r
    },
    delete: async (id) => {
      const r = guard(undefined)
      if (r.ok) items.delete(id)
      return r
    },
    probe: async () => guard(undefined),
  }
}

let engine: MonitorEngine | null = null
let sim: Simulator | null = null
afterEach(async () => {
  await engine?.close()
  await sim?.close()
  engine = null
  sim = null
})

describe('keychain state', () => {
  it('a locked keychain is reported when a profile opens, and clears once a key is stored', async () => {
    sim = await createSimulator({ seed: 5 })
    const keychain = lockableKeychain()
    engine = await createMonitor({
      settingsPath: null,
      credentials: keychain,
      demo: false,
      logger: captureLogger().logger,
      fanoutIntervalMs: 10,
    })
    const rec = new Recorder()
    const client = engine.attachClient({ sink: rec.sink })
    const saved = await client.saveProfile({ name: 'sim', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl })
    if (!saved.ok) throw new Error(saved.error.message)
    expect((await client.selectProfile(saved.value.id)).ok).toBe(true)
    await waitFor(() => rec.status()?.credentialsError?.code === 'keyring_locked', 'keychain shown as locked')
    // The events listing names the keychain as the reason, not a missing key.
    const listing = await client.listEvents({ refresh: true })
    expect(!listing.ok && listing.error.code).toBe('keyring_locked')

    // Storing a key while locked fails with the keychain's own error, and the state stays.
    const refused = await client.setApiKey({ key: sim.demoKey })
    expect(!refused.ok && refused.error.code).toBe('keyring_locked')

    keychain.unlock()
    const stored = await client.setApiKey({ key: sim.demoKey })
    expect(stored.ok).toBe(true)
    await waitFor(() => rec.status()?.credentialsError === null && rec.status()?.hasKey === true, 'cleared')
  })

  it('switching to the demo profile drops the previous profile keychain error', async () => {
    sim = await createSimulator({ seed: 6 })
    engine = await createMonitor({
      settingsPath: null,
      credentials: lockableKeychain(),
      demo: false,
      logger: captureLogger().logger,
      fanoutIntervalMs: 10,
    })
    const rec = new Recorder()
    const client = engine.attachClient({ sink: rec.sink })
    const saved = await client.saveProfile({ name: 'sim', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl })
    if (!saved.ok) throw new Error(saved.error.message)
    await client.selectProfile(saved.value.id)
    await waitFor(() => rec.status()?.credentialsError?.code === 'keyring_locked', 'locked')
    await client.selectProfile('demo')
    await waitFor(
      () => rec.status()?.profileId === 'demo' && rec.status()?.credentialsError === null,
      'demo profile without the keychain error',
    )
  })
})
