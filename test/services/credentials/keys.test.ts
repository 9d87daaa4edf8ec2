// KeyManager with a fake REST client (verifyKey), a memory credential store and a real status tracker:
// verify-before-store, scrubbing, the label check, serialised changes, keychain failures.
import { afterEach, describe, expect, it } from 'vitest'
import { MIN_KEY_LENGTH } from '../../../src/shared/api-key'
import { fail, ok } from '../../../src/shared/ipc'
import type { ApiError, Profile, Result } from '../../../src/shared/model'
import { createMemoryStore, type CredentialStore } from '../../../src/main/services/credentials/store'
import { DemoHost } from '../../../src/main/services/feed/demo-host'
import { IncidentLog } from '../../../src/main/services/health/incidents'
import { KeyManager } from '../../../src/main/services/credentials/keys'
import { SecretRedactor } from '../../../src/main/services/feed/redact'
import type { RestClient } from '../../../src/main/services/feed/rest'
import { StatusTracker } from '../../../src/main/services/health/status'
import { captureLogger } from '../helpers'
import { deferred, fakeRest, profile } from '../fakes'

const OLD = 'old-key-0000000001'
const NEW = 'new-key-9999999999'

const closers: Array<() => void> = []
afterEach(() => {
  for (const c of closers.splice(0)) c()
})

function setup(options: { store?: CredentialStore; rest?: RestClient | null; profile?: Profile } = {}) {
  const log = captureLogger()
  const secrets = new SecretRedactor()
  const incidents = new IncidentLog(Date.now, () => undefined)
  const status = new StatusTracker(
    {
      profileId: () => world.profile.id,
      connectionState: () => 'live',
      stream: () => undefined,
      authError: () => null,
      rateLimit: () => null,
      counters: () => ({ frames: 0, updates: 0, malformed: 0, unknown: 0, oversized: 0 }),
      unavailable: () => null,
    },
    incidents,
    () => undefined,
  )
  closers.push(() => status.close())
  const f = fakeRest()
  const store = options.store ?? createMemoryStore({ 'p-1': OLD })
  const world = {
    profile: options.profile ?? profile('p-1'),
    rest: options.rest === undefined ? f.rest : options.rest,
    unavailable: null as ApiError | null,
    keyChanged: 0,
    /** Runs inside updateProfile, to simulate a profile switch mid-call. */
    onUpdate: (): void => undefined,
  }
  const keys = new KeyManager({
    log: secrets.wrapLogger(log.logger),
    secrets,
    status,
    demo: new DemoHost({}, false, log.logger),
    storeFor: () => store,
    current: () => ({ profile: world.profile, rest: world.rest, unavailable: world.unavailable }),
    updateProfile: async (id, patch): Promise<Result<Profile>> => {
      world.onUpdate()
      const updated = { ...world.profile, ...patch, id }
      if (world.profile.id === id) world.profile = updated
      return ok(updated)
    },
    keyChanged: () => {
      world.keyChanged += 1
    },
  })
  return { keys, status, store, world, f, log, secrets }
}

async function storedKey(store: CredentialStore): Promise<string | null> {
  const r = await store.get('p-1')
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('KeyManager.set', () => {
  it('a key the exchange refuses never replaces the stored one; the error never quotes it', async () => {
    const s = setup()
    s.f.verify = (key) => fail({ code: 'unauthorized', message: `API key ${key} is not valid` })
    const r = await s.keys.set({ key: `  ${NEW}  `, label: 'new' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe('unauthorized')
    expect(r.error.message).toBe('API key [redacted] is not valid')
    expect(s.f.verifyCalls).toEqual([NEW])
    expect(await storedKey(s.store)).toBe(OLD)
    expect(s.world.keyChanged).toBe(0)
    expect(s.world.profile.keyLabel).toBeNull()
    expect(
      s.log.lines.some((l) => l.includes('rejected by the exchange') && l.includes('unauthorized')),
    ).toBe(true)
    expect(s.log.lines.join('\n')).not.toContain(NEW)
    // Scrubbed from then on all the same: it is well-formed, so it may be a real key.
    expect(s.secrets.redact(`echo ${NEW}`)).toBe('echo [redacted]')
  })

  it('a label containing the key is refused before anything is sent', async () => {
    const s = setup()
    const r = await s.keys.set({ key: NEW, label: `my key ${NEW}` })
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    expect(!r.ok && r.error.message).not.toContain(NEW)
    expect(s.f.verifyCalls).toEqual([])
    expect(await storedKey(s.store)).toBe(OLD)
  })

  it('a verified key is stored (trimmed) with its label, and the change is announced', async () => {
    const s = setup()
    const r = await s.keys.set({ key: ` ${NEW} `, label: 'trading', expiresAt: '2030-01-01' })
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value).toEqual({ profileId: 'p-1', hasKey: true, label: 'trading', expiresAt: '2030-01-01' })
    expect(await storedKey(s.store)).toBe(NEW)
    expect(s.status.hasKey).toBe(true)
    expect(s.world.keyChanged).toBe(1)
    expect(s.log.lines.join('\n')).not.toContain(NEW)
  })

  it('without a REST client: the reason the profile is unavailable', async () => {
    const s = setup({ rest: null })
    s.world.unavailable = { code: 'invalid_argument', message: 'The REST base URL is empty.' }
    const r = await s.keys.set({ key: NEW })
    expect(!r.ok && r.error.message).toBe('The REST base URL is empty.')
    expect(await storedKey(s.store)).toBe(OLD)
  })

  it('a keychain write failure is reported (scrubbed) and noted as the credentials error', async () => {
    const base = createMemoryStore({ 'p-1': OLD })
    const store: CredentialStore = {
      ...base,
      kind: 'keyring',
      set: async (_id, key) => fail({ code: 'keyring_locked', message: `locked while saving ${key}` }),
    }
    const s = setup({ store })
    const r = await s.keys.set({ key: NEW })
    expect(!r.ok && r.error).toEqual({ code: 'keyring_locked', message: 'locked while saving [redacted]' })
    expect(s.status.credentialsError?.code).toBe('keyring_locked')
    expect(s.world.keyChanged).toBe(0)
  })

  it('fails when the active profile changed while the key was being set', async () => {
    const s = setup()
    s.world.onUpdate = () => {
      s.world.profile = profile('p-2')
    }
    const r = await s.keys.set({ key: NEW })
    expect(!r.ok && r.error.message).toMatch(/active profile changed/)
    expect(s.world.keyChanged).toBe(0)
  })

  it('changes run one at a time, in order', async () => {
    const s = setup()
    const first = deferred<Result<void>>()
    const order: string[] = []
    s.f.verify = (key) => {
      order.push(`verify ${key}`)
      return key === NEW ? first.promise : ok(undefined)
    }
    const a = s.keys.set({ key: NEW })
    const b = s.keys.clear()
    await new Promise((r) => setTimeout(r, 20))
    expect(order).toEqual([`verify ${NEW}`])
    expect(await storedKey(s.store)).toBe(OLD)
    first.resolve(ok(undefined))
    expect((await a).ok).toBe(true)
    const cleared = await b
    expect(cleared.ok && cleared.value.hasKey).toBe(false)
    expect(await storedKey(s.store)).toBeNull()
    expect(s.world.keyChanged).toBe(2)
  })
})

describe('KeyManager and the key scrub', () => {
  it('a key shorter than the minimum is refused at input, naming the minimum, before anything is sent', async () => {
    const s = setup()
    const short = 'market-key-12'
    expect(short.length).toBeLessThan(MIN_KEY_LENGTH)
    const r = await s.keys.set({ key: `  ${short}  ` })
    expect(!r.ok && r.error).toMatchObject({ code: 'invalid_argument', field: 'key' })
    expect(!r.ok && r.error.message).toContain(`at least ${MIN_KEY_LENGTH} characters`)
    expect(!r.ok && r.error.message).not.toContain(short)
    expect(s.f.verifyCalls).toEqual([])
    expect(s.secrets.knows(short)).toBe(false)
    expect(await storedKey(s.store)).toBe(OLD)
  })

  it('a key in its quotes is refused at input, saying why, and never scrubbed', async () => {
    const s = setup()
    const quoted = `"${NEW}"`
    const r = await s.keys.set({ key: quoted })
    expect(!r.ok && r.error).toMatchObject({ code: 'invalid_argument', field: 'key' })
    expect(!r.ok && r.error.message).toMatch(/quotes/)
    expect(!r.ok && r.error.message).not.toContain(NEW)
    expect(s.f.verifyCalls).toEqual([])
    expect(s.secrets.knows(quoted)).toBe(false)
  })

  it('a key is scrubbed from the moment it is entered, before the venue answers; the key it replaces stays scrubbed', async () => {
    const s = setup()
    await s.keys.stored(s.world.profile)
    expect(s.secrets.knows(OLD)).toBe(true)
    let during = false
    s.f.verify = () => {
      during = s.secrets.knows(NEW)
      return ok(undefined)
    }
    expect((await s.keys.set({ key: NEW })).ok).toBe(true)
    expect(during).toBe(true)
    expect(s.secrets.knows(NEW)).toBe(true)
    expect(s.secrets.knows(OLD)).toBe(true)
  })

  it.each([
    ['for its IP (403)', { code: 'ip_not_allowed', message: `key ${NEW} not allowed from 10.0.0.1` }],
    ['as unknown (401)', { code: 'unauthorized', message: `invalid key ${NEW}` }],
    ['with no answer', { code: 'network', message: `reset while sending ${NEW}` }],
  ] as const)(
    'a well-formed key refused %s is scrubbed from then on, from the refusal onwards',
    async (_w, e) => {
      const s = setup()
      s.f.verify = () => fail({ ...e })
      const r = await s.keys.set({ key: NEW })
      expect(!r.ok && r.error.code).toBe(e.code)
      expect(JSON.stringify(r)).not.toContain(NEW)
      expect(s.secrets.knows(NEW)).toBe(true)
      expect(s.secrets.redact(`later: ${NEW}`)).toBe('later: [redacted]')
      expect(await storedKey(s.store)).toBe(OLD)
    },
  )

  it('the stored key refused on a new verification stays scrubbed, and in use', async () => {
    const s = setup()
    await s.keys.stored(s.world.profile)
    s.f.verify = () => fail({ code: 'unauthorized', message: 'expired' })
    expect((await s.keys.set({ key: OLD })).ok).toBe(false)
    expect(s.secrets.knows(OLD)).toBe(true)
    // Refused keys pushed through afterwards never push out the key in use.
    for (let i = 0; i < 12; i++) await s.keys.set({ key: `refused-key-${String(i).padStart(8, '0')}` })
    expect(s.secrets.knows(OLD)).toBe(true)
    expect(await storedKey(s.store)).toBe(OLD)
  })

  it('clearing the key leaves it scrubbed', async () => {
    const s = setup()
    await s.keys.stored(s.world.profile)
    expect((await s.keys.clear()).ok).toBe(true)
    expect(s.secrets.knows(OLD)).toBe(true)
  })
})

describe('KeyManager lookups', () => {
  it('stored(): the key, remembered for redaction; a keychain failure throws and is shown', async () => {
    const s = setup()
    expect(await s.keys.stored(s.world.profile)).toBe(OLD)
    expect(s.secrets.contains(`"${OLD}"`)).toBe(true)
    // A whole token only: the key inside a longer run of key characters is not it.
    expect(s.secrets.contains(`x${OLD}x`)).toBe(false)

    const broken: CredentialStore = {
      ...createMemoryStore(),
      kind: 'keyring',
      get: async () => fail({ code: 'keyring_unavailable', message: 'no Secret Service' }),
    }
    const b = setup({ store: broken })
    await expect(b.keys.stored(b.world.profile)).rejects.toThrow('credential store: keyring_unavailable')
    expect(b.status.status().lastError?.code).toBe('keyring_unavailable')
    expect(b.status.status().credentialsError?.code).toBe('keyring_unavailable')
  })

  it('forListing(): the stored key, else null (no demo simulator)', async () => {
    const s = setup()
    expect(await s.keys.forListing(s.world.profile)).toBe(OLD)
    const empty = setup({ store: createMemoryStore(), profile: profile('demo', { demo: true }) })
    expect(await empty.keys.forListing(empty.world.profile)).toBeNull()
  })

  it('isStored(): only the exact stored key', async () => {
    const s = setup()
    expect(await s.keys.isStored(s.world.profile, OLD)).toBe(true)
    expect(await s.keys.isStored(s.world.profile, NEW)).toBe(false)
  })

  it('refreshHasKey(): key presence; a keyring with no key is probed when asked', async () => {
    const s = setup()
    await s.keys.refreshHasKey()
    expect(s.status.hasKey).toBe(true)

    let probes = 0
    const locked: CredentialStore = {
      ...createMemoryStore(),
      kind: 'keyring',
      probe: async () => {
        probes += 1
        return fail({ code: 'keyring_locked', message: 'locked' })
      },
    }
    const l = setup({ store: locked })
    await l.keys.refreshHasKey()
    expect(probes).toBe(0)
    expect(l.status.hasKey).toBe(false)
    await l.keys.refreshHasKey({ probe: true })
    expect(probes).toBe(1)
    expect(l.status.credentialsError?.code).toBe('keyring_locked')
  })

  it('useDemo(): only for the demo profile, and only with a running simulator', async () => {
    const s = setup()
    const r = await s.keys.useDemo()
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    const d = setup({ profile: profile('demo', { demo: true }) })
    const r2 = await d.keys.useDemo()
    expect(!r2.ok && r2.error.code).toBe('network')
  })
})
