// EventsCatalog on its own, against a fake REST client: caching, sharing, profile switches mid-request, key
// errors and the event <-> market index.
import { describe, expect, it } from 'vitest'
import type { EventSummary, Result } from '../../../src/shared/model'
import { createCatalog, deferred, fakeRest, listing, profile } from '../fakes'

const EVENTS = listing({ e1: ['m1', 'm2'], e2: ['m3'] })

describe('EventsCatalog', () => {
  it('lists with the listing key, indexes the result and reports it loaded', async () => {
    const f = fakeRest(EVENTS)
    const { catalog, world } = createCatalog(f.rest)
    const r = await catalog.list(false)
    expect(r.ok && r.value.map((e) => e.id)).toEqual(['e1', 'e2'])
    expect(f.calls).toEqual(['key-abcdef-0123456789'])
    expect(world.loaded).toBe(1)
    expect(catalog.eventOf('m2')).toBe('e1')
    expect(catalog.eventOf('m3')).toBe('e2')
    expect(catalog.eventOf('nope')).toBeUndefined()
    expect(catalog.marketsOf('e1')).toEqual(['m1', 'm2'])
    expect(catalog.marketsOf('unknown')).toEqual([])
    expect(catalog.knows('e2')).toBe(true)
    expect(catalog.knows('e3')).toBe(false)
  })

  it('reuses a listing within cacheMs and fetches again after it', async () => {
    const f = fakeRest(EVENTS)
    const { catalog, world } = createCatalog(f.rest)
    await catalog.list(false)
    world.now += 29_999
    const cached = await catalog.list(false)
    expect(cached.ok).toBe(true)
    expect(f.calls).toHaveLength(1)
    world.now += 1
    await catalog.list(false)
    expect(f.calls).toHaveLength(2)
  })

  it('refresh bypasses the cache', async () => {
    const f = fakeRest(EVENTS)
    const { catalog } = createCatalog(f.rest)
    await catalog.list(false)
    await catalog.list(true)
    expect(f.calls).toHaveLength(2)
  })

  it('concurrent calls share one request', async () => {
    const f = fakeRest()
    const pending = deferred<Result<EventSummary[]>>()
    f.answer = () => pending.promise
    const { catalog, world } = createCatalog(f.rest)
    const a = catalog.list(false)
    const b = catalog.list(false)
    const c = catalog.list(true)
    await new Promise((r) => setImmediate(r))
    expect(f.calls).toHaveLength(1)
    pending.resolve({ ok: true, value: EVENTS })
    const results = await Promise.all([a, b, c])
    for (const r of results) expect(r.ok && r.value.length).toBe(2)
    expect(world.loaded).toBe(1)
    // Once it is over, a refresh goes to the exchange again.
    f.answer = () => ({ ok: true, value: EVENTS })
    await catalog.list(true)
    expect(f.calls).toHaveLength(2)
  })

  it('a listing that arrives after a profile switch is returned but neither cached nor indexed', async () => {
    const f = fakeRest()
    const pending = deferred<Result<EventSummary[]>>()
    f.answer = () => pending.promise
    const { catalog, world } = createCatalog(f.rest)
    const first = world.profile
    const call = catalog.list(false)
    await new Promise((r) => setImmediate(r))
    world.profile = profile('p-2')
    pending.resolve({ ok: true, value: EVENTS })
    const r = await call
    expect(r.ok).toBe(true)
    expect(world.loaded).toBe(0)
    expect(catalog.eventOf('m1')).toBeUndefined()
    expect(catalog.knows('e1')).toBe(false)
    // Nothing was cached for the first profile either.
    world.profile = first
    f.answer = () => ({ ok: true, value: EVENTS })
    await catalog.list(false)
    expect(f.calls).toHaveLength(2)
  })

  it('a failure that arrives after a profile switch is not reported', async () => {
    const f = fakeRest()
    const pending = deferred<Result<EventSummary[]>>()
    f.answer = () => pending.promise
    const { catalog, world } = createCatalog(f.rest)
    const call = catalog.list(false)
    await new Promise((r) => setImmediate(r))
    world.profile = profile('p-2')
    pending.resolve({ ok: false, error: { code: 'unauthorized', message: 'bad key key-abcdef-0123456789' } })
    const r = await call
    expect(!r.ok && r.error.message).toBe('bad key [redacted]')
    expect(world.refused).toEqual([])
    expect(world.failed).toEqual([])
  })

  it('without a key: no_key, without asking the exchange', async () => {
    const f = fakeRest(EVENTS)
    const { catalog, world } = createCatalog(f.rest, { key: null })
    const r = await catalog.list(false)
    expect(!r.ok && r.error.code).toBe('no_key')
    expect(f.calls).toEqual([])
    expect(world.loaded).toBe(0)
  })

  it('a keychain failure is the reason given rather than no_key', async () => {
    const f = fakeRest(EVENTS)
    const { catalog } = createCatalog(f.rest, {
      key: null,
      credentialsError: { code: 'keyring_locked', message: 'The keychain is locked.' },
    })
    const r = await catalog.list(false)
    expect(!r.ok && r.error.code).toBe('keyring_locked')
  })

  it('without a REST client: the reason the profile is unavailable, or a generic network error', async () => {
    const { catalog, world } = createCatalog(null, {
      unavailable: { code: 'invalid_argument', message: 'The REST base URL is empty.' },
    })
    const r = await catalog.list(false)
    expect(!r.ok && r.error.message).toBe('The REST base URL is empty.')
    world.unavailable = null
    const r2 = await catalog.list(false)
    expect(!r2.ok && r2.error.code).toBe('network')
  })

  it('401 with the stored key: onKeyRefused and onFailed, the key scrubbed from the message', async () => {
    const f = fakeRest()
    f.answer = (key) => ({ ok: false, error: { code: 'unauthorized', message: `key ${key} refused` } })
    const { catalog, world } = createCatalog(f.rest)
    const r = await catalog.list(false)
    expect(!r.ok && r.error).toEqual({ code: 'unauthorized', message: 'key [redacted] refused' })
    expect(world.refused).toEqual([{ code: 'unauthorized', message: 'key [redacted] refused' }])
    expect(world.failed.map((e) => e.code)).toEqual(['unauthorized'])
    expect(JSON.stringify([world.refused, world.failed])).not.toContain('key-abcdef-0123456789')
  })

  it('ip_not_allowed with the stored key is refused too', async () => {
    const f = fakeRest()
    f.answer = () => ({ ok: false, error: { code: 'ip_not_allowed', message: 'ip' } })
    const { catalog, world } = createCatalog(f.rest)
    await catalog.list(false)
    expect(world.refused.map((e) => e.code)).toEqual(['ip_not_allowed'])
  })

  it('401 with a key that is not the stored one (the demo key): only onFailed', async () => {
    const f = fakeRest()
    f.answer = () => ({ ok: false, error: { code: 'unauthorized', message: 'refused' } })
    const { catalog, world } = createCatalog(f.rest, { storedKey: null })
    await catalog.list(false)
    expect(world.refused).toEqual([])
    expect(world.failed.map((e) => e.code)).toEqual(['unauthorized'])
  })

  it('other failures are not a refused key, and are not cached', async () => {
    const f = fakeRest()
    f.answer = () => ({ ok: false, error: { code: 'rate_limited', message: 'slow down' } })
    const { catalog, world } = createCatalog(f.rest)
    await catalog.list(false)
    expect(world.refused).toEqual([])
    expect(world.failed.map((e) => e.code)).toEqual(['rate_limited'])
    f.answer = () => ({ ok: true, value: EVENTS })
    const r = await catalog.list(false)
    expect(r.ok).toBe(true)
    expect(f.calls).toHaveLength(2)
  })

  it('a new listing replaces the index', async () => {
    const f = fakeRest(EVENTS)
    const { catalog } = createCatalog(f.rest)
    await catalog.list(false)
    f.answer = () => ({ ok: true, value: listing({ e9: ['m1'] }) })
    await catalog.list(true)
    expect(catalog.eventOf('m1')).toBe('e9')
    expect(catalog.eventOf('m3')).toBeUndefined()
    expect(catalog.knows('e1')).toBe(false)
  })

  it('invalidate() forces the next list to the exchange and keeps the index', async () => {
    const f = fakeRest(EVENTS)
    const { catalog } = createCatalog(f.rest)
    await catalog.list(false)
    catalog.invalidate()
    expect(catalog.eventOf('m1')).toBe('e1')
    await catalog.list(false)
    expect(f.calls).toHaveLength(2)
  })

  it('clear() forgets the cache and the index', async () => {
    const f = fakeRest(EVENTS)
    const { catalog } = createCatalog(f.rest)
    await catalog.list(false)
    catalog.clear()
    expect(catalog.eventOf('m1')).toBeUndefined()
    expect(catalog.marketsOf('e1')).toEqual([])
    expect(catalog.knows('e1')).toBe(false)
    await catalog.list(false)
    expect(f.calls).toHaveLength(2)
    expect(catalog.knows('e1')).toBe(true)
  })
})
