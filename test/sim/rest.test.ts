// REST per DESIGN §3.1 over real loopback sockets: listing shape, key rules (spec §5, §7), rate limits (§8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/sim'
import { httpGet } from './helpers'

const PAST = '2020-01-01T00:00:00Z'
const FUTURE = '2099-01-01T00:00:00Z'

describe('GET /v1/data/events', () => {
  let sim: Simulator
  let url: string
  beforeAll(async () => {
    sim = await createSimulator({
      seed: 11,
      config: {
        events: 5,
        marketsPerEvent: 3,
        rateLimit: { requests: 10, windowMs: 60_000 },
        keys: [
          { value: 'k-live', name: 'desk', expiresAt: FUTURE },
          { value: 'k-expired', expiresAt: PAST },
          { value: 'k-disabled', enabled: false },
          { value: 'k-revoked', revoked: true },
          { value: 'k-local', allowedIps: ['127.0.0.1'] },
          { value: 'k-mapped', allowedIps: ['::ffff:127.0.0.2'] },
          { value: 'k-rate' },
          { value: 'k-rate2' },
          { value: 'k-runtime' },
        ],
      },
    })
    url = `${sim.baseUrl}/data/events`
  })
  afterAll(() => sim.close())

  it('returns the listing: events with id, title, markets with id, title, plus extra fields', async () => {
    const r = await httpGet(url, { headers: { 'X-Api-Key': sim.demoKey } })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^application\/json/)
    const body = r.json as {
      events: Array<Record<string, unknown> & { markets: Array<Record<string, unknown>> }>
    }
    expect(body.events).toHaveLength(5)
    for (const e of body.events) {
      expect(typeof e.id).toBe('string')
      expect(typeof e.title).toBe('string')
      expect(e).toHaveProperty('category')
      expect(e).toHaveProperty('closesAt')
      expect(e.status).toBe('open')
      expect(e.markets).toHaveLength(3)
      for (const m of e.markets) {
        expect(typeof m.id).toBe('string')
        expect(typeof m.title).toBe('string')
        expect(m.bestBid as number).toBeLessThan(m.bestAsk as number)
      }
    }
    expect(body.events.map((e) => e.id)).toEqual(sim.listing().events.map((e) => e.id))
    // Far from the limit: no rate-limit headers yet.
    expect(r.headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('401 {"error":"unauthorized"} for a missing, unknown, expired, disabled or revoked key', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'X-Api-Key': '' },
      { 'X-Api-Key': 'nope' },
      { 'X-Api-Key': 'k-expired' },
      { 'X-Api-Key': 'k-disabled' },
      { 'X-Api-Key': 'k-revoked' },
    ]
    for (const headers of cases) {
      const r = await httpGet(url, { headers })
      expect(r.status, JSON.stringify(headers)).toBe(401)
      expect(r.text).toBe('{"error":"unauthorized"}')
    }
    expect((await httpGet(url, { headers: { 'X-Api-Key': 'k-live' } })).status).toBe(200)
  })

  it('403 {"error":"ip not allowed"} from an address outside the allow-list; IPv4-mapped entries match', async () => {
    const fromOther = await httpGet(url, { headers: { 'X-Api-Key': 'k-local' }, localAddress: '127.0.0.2' })
    expect(fromOther.status).toBe(403)
    expect(fromOther.text).toBe('{"error":"ip not allowed"}')
    expect(
      (await httpGet(url, { headers: { 'X-Api-Key': 'k-local' }, localAddress: '127.0.0.1' })).status,
    ).toBe(200)
    expect(
      (await httpGet(url, { headers: { 'X-Api-Key': 'k-mapped' }, localAddress: '127.0.0.2' })).status,
    ).toBe(200)
    expect(
      (await httpGet(url, { headers: { 'X-Api-Key': 'k-mapped' }, localAddress: '127.0.0.1' })).status,
    ).toBe(403)
    // An empty allow-list admits every address.
    expect(
      (await httpGet(url, { headers: { 'X-Api-Key': 'k-live' }, localAddress: '127.0.0.2' })).status,
    ).toBe(200)
  })

  it('rate limit: headers at or below 20% remaining, then 429 with Retry-After, per key', async () => {
    const get = (key: string): ReturnType<typeof httpGet> => httpGet(url, { headers: { 'X-Api-Key': key } })
    const results = []
    for (let i = 0; i < 11; i++) results.push(await get('k-rate'))
    // Limit 10: remaining after request n is 10 - n; headers from remaining <= 2, i.e. request 8 on.
    results.slice(0, 7).forEach((r, i) => {
      expect(r.status).toBe(200)
      expect(r.headers['x-ratelimit-remaining'], `request ${i + 1}`).toBeUndefined()
    })
    results.slice(7, 10).forEach((r, i) => {
      expect(r.status).toBe(200)
      expect(r.headers['x-ratelimit-limit']).toBe('10')
      expect(r.headers['x-ratelimit-remaining']).toBe(String(2 - i))
      const reset = Number(r.headers['x-ratelimit-reset'])
      expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000))
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61)
    })
    const limited = results[10]
    expect(limited?.status).toBe(429)
    expect(limited?.text).toBe('{"error":"rate limited"}')
    const retry = Number(limited?.headers['retry-after'])
    expect(Number.isInteger(retry)).toBe(true)
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(60)
    expect(limited?.headers['x-ratelimit-remaining']).toBe('0')
    // Another key has its own quota.
    expect((await get('k-rate2')).status).toBe(200)
    sim.resetRateLimits()
    expect((await get('k-rate')).status).toBe(200)
  })

  it('a key revoked, disabled or restricted at runtime is refused from the next request', async () => {
    const get = (): ReturnType<typeof httpGet> => httpGet(url, { headers: { 'X-Api-Key': 'k-runtime' } })
    expect((await get()).status).toBe(200)
    expect(sim.setKeyState('k-runtime', { allowedIps: ['10.9.9.9'] })).toBe(true)
    expect((await get()).status).toBe(403)
    sim.setKeyState('k-runtime', { allowedIps: [], enabled: false })
    expect((await get()).status).toBe(401)
    sim.setKeyState('k-runtime', { enabled: true, expiresAt: PAST })
    expect((await get()).status).toBe(401)
    sim.setKeyState('k-runtime', { expiresAt: FUTURE, revoked: true })
    expect((await get()).status).toBe(401)
    expect(sim.setKeyState('unknown-key', { revoked: true })).toBe(false)
  })

  it('unknown paths are 404 JSON, other methods 405, and garbage requests do not crash the server', async () => {
    const r = await httpGet(`${sim.baseUrl}/nope`, { headers: { 'X-Api-Key': sim.demoKey } })
    expect(r.status).toBe(404)
    expect(r.json).toEqual({ error: 'not found' })
    expect((await httpGet(url.replace('/v1', '/v2'))).status).toBe(404)
    const post = await httpGet(url, { method: 'POST', headers: { 'X-Api-Key': sim.demoKey } })
    expect(post.status).toBe(405)
    const { connect } = await import('node:net')
    await new Promise<void>((resolve) => {
      const s = connect(sim.port, '127.0.0.1', () => s.end('GARBAGE \x00\x01 not http\r\n\r\n'))
      s.on('error', () => resolve())
      s.on('close', () => resolve())
      s.resume()
    })
    expect((await httpGet(url, { headers: { 'X-Api-Key': sim.demoKey } })).status).toBe(200)
  })
})

describe('IPv4-mapped callers on a dual-stack listener', () => {
  it('a key allowing 127.0.0.1 admits ::ffff:127.0.0.1 and rejects ::ffff:127.0.0.2', async (ctx) => {
    let sim: Simulator
    try {
      sim = await createSimulator({
        host: '::',
        config: { keys: [{ value: 'k', allowedIps: ['127.0.0.1'] }] },
      })
    } catch (e) {
      const reason = `IPv6 listener unavailable: ${(e as Error).message}`
      if (process.env.CI === 'true') throw new Error(reason, { cause: e })
      console.warn(`skipping: ${reason}`)
      ctx.skip()
      return
    }
    try {
      const url = `http://127.0.0.1:${sim.port}/v1/data/events`
      expect((await httpGet(url, { headers: { 'X-Api-Key': 'k' }, localAddress: '127.0.0.1' })).status).toBe(
        200,
      )
      const r = await httpGet(url, { headers: { 'X-Api-Key': 'k' }, localAddress: '127.0.0.2' })
      expect(r.status).toBe(403)
    } finally {
      await sim.close()
    }
  })
})
