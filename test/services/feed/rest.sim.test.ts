// REST errors against the real simulator: 401 and 403 become clear, typed states; 429 honours Retry-After.
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../helpers'
import { startHarness, type Harness } from '../harness'

const GOOD = 'sk_test_good_0000000000000001'
const FAR = 'sk_test_far_00000000000000002'
const GONE = 'sk_test_gone_0000000000000003'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

describe('REST errors', () => {
  it('no key: listEvents says no_key', async () => {
    h = await startHarness()
    const { client } = h.attach('rest')
    const r = await client.listEvents()
    expect(!r.ok && r.error.code).toBe('no_key')
  })

  it('401: a stored key the venue refuses becomes a sticky auth error (auth-error state) until the key changes', async () => {
    h = await startHarness({ config: { keys: [{ value: GOOD }, { value: GONE }] } })
    const { client, rec } = h.attach('rest')
    expect((await client.setApiKey({ key: GONE })).ok).toBe(true)
    expect((await client.listEvents()).ok).toBe(true)
    h.sim.setKeyState(GONE, { revoked: true })
    const r = await client.listEvents({ refresh: true })
    expect(!r.ok && r.error.code).toBe('unauthorized')
    expect(!r.ok && r.error.status).toBe(401)
    await waitFor(() => rec.status()?.authError?.code === 'unauthorized', 'sticky auth error')
    await waitFor(() => rec.status()?.state === 'auth-error', 'auth-error state')
    const s = await client.getStatus()
    expect(s.ok && s.value.incidents.some((i) => i.kind === 'auth')).toBe(true)
    expect((await client.setApiKey({ key: GOOD })).ok).toBe(true)
    await waitFor(
      () => rec.status()?.authError === null && rec.status()?.state === 'live',
      'cleared by the new key',
    )
    expect((await client.listEvents({ refresh: true })).ok).toBe(true)
  })

  it('403: a key restricted to other IPs gives ip_not_allowed and is not stored', async () => {
    h = await startHarness({ config: { keys: [{ value: FAR, allowedIps: ['10.20.30.40'] }] } })
    const { client } = h.attach('rest')
    const r = await client.setApiKey({ key: FAR })
    expect(!r.ok && r.error.code).toBe('ip_not_allowed')
    expect(!r.ok && r.error.status).toBe(403)
    expect(!r.ok && r.error.message).toMatch(/IP/)
    const info = await client.getKeyInfo()
    expect(info.ok && info.value.hasKey).toBe(false)
    const stored = await h.credentials.get(h.profileId)
    expect(stored.ok && stored.value).toBeNull()
  })

  it('429: rate_limited with Retry-After; requests are held back until then; status shows it', async () => {
    h = await startHarness({
      config: { keys: [{ value: GOOD }], rateLimit: { requests: 3, windowMs: 60_000 } },
    })
    const { client } = h.attach('rest')
    expect((await client.setApiKey({ key: GOOD })).ok).toBe(true) // request 1 (verification)
    let limited: Awaited<ReturnType<typeof client.listEvents>> | null = null
    for (let i = 0; i < 6 && limited === null; i++) {
      const r = await client.listEvents({ refresh: true })
      if (!r.ok) limited = r
    }
    expect(limited && !limited.ok && limited.error.code).toBe('rate_limited')
    const retryAfterMs = limited && !limited.ok ? limited.error.retryAfterMs : undefined
    expect(retryAfterMs).toBeGreaterThan(0)
    // Held back by the client: the next call fails at once, without reaching the venue.
    const again = await client.listEvents({ refresh: true })
    expect(!again.ok && again.error.code).toBe('rate_limited')
    const s = await client.getStatus()
    expect(s.ok && s.value.rateLimit?.blockedUntil).toBeGreaterThan(Date.now())
    expect(s.ok && s.value.incidents.some((i) => i.kind === 'rate_limit')).toBe(true)
    // The market stream is unaffected by REST limits.
    expect(s.ok && s.value.state).toBe('live')
  })

  it('listEvents is cached briefly and deduplicated in flight', async () => {
    h = await startHarness({
      config: { keys: [{ value: GOOD }], rateLimit: { requests: 3, windowMs: 60_000 } },
    })
    const { client } = h.attach('rest')
    expect((await client.setApiKey({ key: GOOD })).ok).toBe(true) // 1
    const burst = await Promise.all([
      client.listEvents(),
      client.listEvents(),
      client.listEvents(),
      client.listEvents(),
    ]) // 2
    expect(burst.every((r) => r.ok)).toBe(true)
    for (let i = 0; i < 5; i++) expect((await client.listEvents()).ok).toBe(true) // cached
    expect((await client.listEvents({ refresh: true })).ok).toBe(true) // 3
    const over = await client.listEvents({ refresh: true })
    expect(!over.ok && over.error.code).toBe('rate_limited')
  })
})
