// The REST client against a real HTTP server on 127.0.0.1 (port 0) that each test scripts.
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createRestClient,
  MAX_BODY_BYTES,
  type RestClientOptions,
} from '../../../src/main/services/feed/rest'
import type { LogFields, Logger } from '../../../src/main/services/base/types'
import { REDACTED } from '../../../src/main/services/base/key-scrub'
import { SecretRedactor } from '../../../src/main/services/feed/redact'
import { endpointErrors } from '../../../src/shared/endpoints'
import { READ_IDLE_MS } from '../../../src/main/services/feed/rest-reads'
import { waitFor } from '../helpers'

const KEY = 'k-SECRET-5f1e7c0a9b2d4e6f8a1c3e5g'

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

interface TestServer {
  baseUrl: string
  requests: { url: string; key: string | undefined }[]
  server: http.Server
  handle(h: Handler): void
  close(): Promise<void>
}

const servers: TestServer[] = []

async function startServer(initial?: Handler): Promise<TestServer> {
  let handler: Handler = initial ?? ((_req, res) => res.end('{"events":[]}'))
  const requests: TestServer['requests'] = []
  const server = http.createServer((req, res) => {
    const key = req.headers['x-api-key']
    requests.push({ url: req.url ?? '', key: typeof key === 'string' ? key : undefined })
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const s: TestServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    server,
    handle: (h) => (handler = h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  servers.push(s)
  return s
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

interface Captured {
  logger: Logger
  lines: string[]
}

function captureLogger(): Captured {
  const lines: string[] = []
  const rec = (level: string) => (message: string, fields?: LogFields) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`)
  return { logger: { info: rec('info'), warn: rec('warn'), error: rec('error') }, lines }
}

function client(s: TestServer, extra: Partial<RestClientOptions> = {}) {
  const cap = captureLogger()
  const c = createRestClient({ baseUrl: s.baseUrl, logger: cap.logger, ...extra })
  return { c, cap }
}

/** The key must never appear in an error or a log line, whatever happened. */
function expectNoKey(cap: Captured, ...values: unknown[]): void {
  for (const line of cap.lines) expect(line).not.toContain(KEY)
  for (const v of values) expect(JSON.stringify(v)).not.toContain(KEY)
}

describe('REST client: listing', () => {
  it.each([
    ['{events:[...]}', { events: [{ id: 'e1', title: 'One', markets: [{ id: 'm1', title: 'M1' }] }] }],
    ['a top-level array', [{ id: 'e1', title: 'One', markets: [{ id: 'm1', title: 'M1' }] }]],
    [
      '{data:[...]} with venue names',
      { data: [{ event_ticker: 'e1', name: 'One', markets: [{ ticker: 'm1', question: 'M1' }] }] },
    ],
  ])('GETs /v1/data/events with X-Api-Key and decodes %s', async (_name, body) => {
    const s = await startServer((_req, res) => json(res, 200, body))
    const { c, cap } = client(s)
    const r = await c.listEvents(KEY)
    expect(r).toEqual({ ok: true, value: [{ id: 'e1', title: 'One', markets: [{ id: 'm1', title: 'M1' }] }] })
    expect(s.requests).toEqual([{ url: '/v1/data/events', key: KEY }])
    expect(cap.lines.some((l) => l.startsWith('info rest: events listed'))).toBe(true)
    expectNoKey(cap, r)
  })

  it('accepts a base URL with a trailing slash', async () => {
    const s = await startServer()
    const c = createRestClient({ baseUrl: `${s.baseUrl}/` })
    expect((await c.listEvents(KEY)).ok).toBe(true)
    expect(s.requests[0]?.url).toBe('/v1/data/events')
  })

  it('verifyKey is ok for an accepted key and carries the error otherwise', async () => {
    const s = await startServer()
    const { c } = client(s)
    expect(await c.verifyKey(KEY)).toEqual({ ok: true, value: undefined })
    s.handle((_req, res) => json(res, 401, { error: 'unauthorized' }))
    const r = await c.verifyKey(KEY)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.code).toBe('unauthorized')
  })
})

describe('REST client: reads and trading requests on connections of their own', () => {
  it('the reads of a round share one connection; a trading request never rides a socket a read opened', async () => {
    const seen: { method: string; socket: Socket }[] = []
    const s = await startServer((req, res) => {
      seen.push({ method: req.method ?? '', socket: req.socket })
      req.resume()
      req.on('end', () => json(res, 200, {}))
    })
    const { c } = client(s)
    for (let i = 0; i < 3; i++) expect((await c.get('/data/wallet/balance', KEY)).ok).toBe(true)
    const reads = new Set(seen.map((r) => r.socket))
    expect(reads.size).toBe(1)
    expect((await c.send({ method: 'POST', path: '/trade/order', body: { q: 1 } }, KEY)).ok).toBe(true)
    expect((await c.send({ method: 'DELETE', path: '/trade/order/o1' }, KEY)).ok).toBe(true)
    expect((await c.get('/data/orders', KEY)).ok).toBe(true)
    const trading = seen.filter((r) => r.method !== 'GET')
    expect(trading.map((r) => r.method)).toEqual(['POST', 'DELETE'])
    for (const t of trading) expect(reads.has(t.socket)).toBe(false)
  })

  it('a read whose body runs past MAX_BODY_BYTES is refused, not buffered, with or without a length', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20)
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      let sent = 0
      const more = (): void => {
        while (sent <= MAX_BODY_BYTES && !res.destroyed) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', more)
        }
        res.end()
      }
      more()
    })
    const { c } = client(s)
    const r = await c.get('/data/activity', KEY)
    expect(!r.ok && r.error.message).toMatch(/was larger than 32 MB/)
    s.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) })
      res.end()
    })
    const declared = await c.get('/data/activity', KEY)
    expect(!declared.ok && declared.error.message).toMatch(/was larger than 32 MB/)
  })

  it('an idle read connection is closed after READ_IDLE_MS, even when the venue would keep it longer', async () => {
    const sockets: Socket[] = []
    const s = await startServer((req, res) => {
      sockets.push(req.socket)
      json(res, 200, {})
    })
    // A venue that would keep an idle connection for 30 s (and says so in its Keep-Alive header).
    s.server.keepAliveTimeout = 30_000
    const { c } = client(s)
    expect((await c.get('/data/wallet/balance', KEY)).ok).toBe(true)
    const socket = sockets[0] as Socket
    const at = Date.now()
    await waitFor(
      () => socket.destroyed || socket.readyState === 'closed',
      'the idle read socket to close',
      READ_IDLE_MS + 900,
    )
    expect(Date.now() - at).toBeGreaterThanOrEqual(READ_IDLE_MS - 100)
  }, 10_000)
})

describe('REST client: typed errors', () => {
  it('401 -> unauthorized with an actionable message', async () => {
    const s = await startServer((_req, res) => json(res, 401, { error: 'unauthorized' }))
    const { c, cap } = client(s)
    const r = await c.listEvents(KEY)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error).toMatchObject({ code: 'unauthorized', status: 401 })
    expect(r.error.message).toMatch(/wrong, expired, disabled or revoked/)
    expect(r.error.message).toMatch(/security settings/)
    expectNoKey(cap, r)
  })

  it('body error "unauthorized" wins even with another status', async () => {
    const s = await startServer((_req, res) => json(res, 400, { error: 'unauthorized' }))
    const r = await client(s).c.listEvents(KEY)
    expect(!r.ok && r.error.code).toBe('unauthorized')
  })

  it('403 "ip not allowed" -> ip_not_allowed, telling the user to create a new key', async () => {
    const s = await startServer((_req, res) => json(res, 403, { error: 'ip not allowed' }))
    const { c, cap } = client(s)
    const r = await c.listEvents(KEY)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error).toMatchObject({ code: 'ip_not_allowed', status: 403 })
    expect(r.error.message).toMatch(/allowed IPs/)
    expect(r.error.message).toMatch(/create a new key/)
    expectNoKey(cap, r)
  })

  it('403 is three states: "permission denied" (or PO7), "ip not allowed", and anything else, each in words', async () => {
    const s = await startServer((req, res) => {
      if (req.url?.includes('wallet')) return json(res, 403, { error: 'permission denied' })
      if (req.url?.includes('orders')) return json(res, 403, { error: 'not authorized', error_code: 'PO7' })
      if (req.url?.includes('pnl')) return json(res, 403, { error: 'forbidden by policy' })
      return json(res, 403, { error: 'ip not allowed' })
    })
    const { c, cap } = client(s)
    const wallet = await c.get('/data/wallet/balance', KEY)
    expect(!wallet.ok && wallet.error).toMatchObject({ code: 'permission', status: 403 })
    expect(!wallet.ok && wallet.error.message).toMatch(/Profile → Security/)
    expect(!wallet.ok && wallet.error.message).not.toMatch(/IP/)
    const orders = await c.get('/data/orders', KEY)
    expect(!orders.ok && orders.error.code).toBe('permission')
    const other = await c.get('/data/pnl', KEY)
    expect(!other.ok && other.error).toMatchObject({ code: 'forbidden', status: 403 })
    expect(!other.ok && other.error.message).toMatch(/neither an IP block nor a missing permission/)
    const ip = await c.get('/data/activity', KEY)
    expect(!ip.ok && ip.error.code).toBe('ip_not_allowed')
    for (const r of [wallet, orders, other, ip]) expectNoKey(cap, r)
  })

  it('a body nested deeper than the limit is refused whole before anything walks it', async () => {
    const deep = '['.repeat(5_000) + ']'.repeat(5_000)
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(deep)
    })
    const r = await client(s).c.get('/data/wallet/balance', KEY)
    expect(!r.ok && r.error.code).toBe('bad_response')
    expect(!r.ok && r.error.message).toMatch(/nested deeper than 32 levels/)
  })

  it('500 -> server', async () => {
    const s = await startServer((_req, res) => json(res, 503, { error: 'down' }))
    const r = await client(s).c.listEvents(KEY)
    expect(!r.ok && r.error).toMatchObject({ code: 'server', status: 503 })
  })

  it('non-JSON 200 -> bad_response', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>hello</html>')
    })
    const r = await client(s).c.listEvents(KEY)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error).toMatchObject({ code: 'bad_response', status: 200 })
      expect(r.error.message).toMatch(/not JSON.*text\/html/)
    }
  })

  it('JSON that is not a listing -> bad_response', async () => {
    const s = await startServer((_req, res) => json(res, 200, { hello: 'world' }))
    const r = await client(s).c.listEvents(KEY)
    expect(!r.ok && r.error.code).toBe('bad_response')
  })

  it('404 -> bad_response pointing at the base URL', async () => {
    const s = await startServer((_req, res) => json(res, 404, { error: 'not found' }))
    const r = await client(s).c.listEvents(KEY)
    expect(!r.ok && r.error).toMatchObject({ code: 'bad_response', status: 404 })
    expect(!r.ok && r.error.message).toMatch(/base URL/)
  })

  it('timeout when the server never answers', async () => {
    const s = await startServer(() => {
      /* never answers */
    })
    const { c, cap } = client(s, { timeoutMs: 300 })
    const r = await c.listEvents(KEY)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('timeout')
      expect(r.error.message).toMatch(/No answer from 127\.0\.0\.1:\d+ within 0\.3 s/)
    }
    expectNoKey(cap, r)
  })

  it('timeout when the body stalls after the headers', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"events":[')
    })
    const r = await client(s, { timeoutMs: 300 }).c.listEvents(KEY)
    expect(!r.ok && r.error.code).toBe('timeout')
  })

  it('network error for a closed port', async () => {
    const s = await startServer()
    const baseUrl = s.baseUrl
    await s.close()
    const cap = captureLogger()
    const c = createRestClient({ baseUrl, logger: cap.logger })
    const r = await c.listEvents(KEY)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('network')
      expect(r.error.message).toMatch(/connection refused/)
    }
    expectNoKey(cap, r)
  })

  it('network error when the server resets the connection', async () => {
    const s = await startServer((req) => req.socket.destroy())
    const r = await client(s).c.listEvents(KEY)
    expect(!r.ok && r.error.code).toBe('network')
  })

  it('does not follow a redirect, so the key never reaches another host', async () => {
    const other = await startServer()
    const s = await startServer((_req, res) => {
      res.writeHead(302, { location: `${other.baseUrl}/data/events` })
      res.end()
    })
    const r = await client(s).c.listEvents(KEY)
    expect(!r.ok && r.error).toMatchObject({ code: 'bad_response', status: 302 })
    expect(other.requests).toHaveLength(0)
  })

  it('refuses a key that cannot be a header value, without sending anything or echoing it', async () => {
    const s = await startServer()
    const { c, cap } = client(s)
    const bad = `${KEY}\r\nX-Evil: 1`
    const r = await c.listEvents(bad)
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    expect(JSON.stringify(r)).not.toContain(KEY)
    const empty = await c.listEvents('')
    expect(!empty.ok && empty.error.code).toBe('no_key')
    expect(s.requests).toHaveLength(0)
    expectNoKey(cap)
  })

  it('never logs or returns the key, even when the server echoes it', async () => {
    const s = await startServer((req, res) => {
      res.writeHead(302, { location: `http://evil.example/?k=${String(req.headers['x-api-key'])}` })
      res.end()
    })
    const { c, cap } = client(s)
    const r = await c.listEvents(KEY)
    expect(r.ok).toBe(false)
    expect(cap.lines.length).toBeGreaterThan(0)
    expectNoKey(cap, r)
  })

  it('scrubs every key the engine knows from an error text, a key refused before included', async () => {
    // Well-formed, refused earlier (for its IP, say): the engine's redactor remembers it, and the venue quotes it.
    const refused = 'sk_live_FFFFffff3333SECRETfar'
    const s = await startServer((req, res) => {
      res.writeHead(302, {
        location: `http://evil.example/?k=${String(req.headers['x-api-key'])}&was=${refused}`,
      })
      res.end()
    })
    const secrets = new SecretRedactor()
    secrets.remember(refused)
    const { c, cap } = client(s, { scrub: (text) => secrets.redact(text) })
    const r = await c.listEvents(KEY)
    expect(!r.ok && r.error.message).toContain(`?k=${REDACTED}&was=${REDACTED}`)
    expectNoKey(cap, r)
    for (const text of [...cap.lines, JSON.stringify(r)]) expect(text).not.toContain(refused)
  })
})

describe('REST client: rate limits', () => {
  it('parses X-RateLimit-* headers (reset as epoch seconds)', async () => {
    const t = 1_800_000_000_000
    const s = await startServer((_req, res) =>
      json(
        res,
        200,
        { events: [] },
        { 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '7', 'X-RateLimit-Reset': '1800000030' },
      ),
    )
    const { c } = client(s, { now: () => t })
    expect(c.rateLimit()).toBeNull()
    await c.listEvents(KEY)
    expect(c.rateLimit()).toEqual({
      limit: 120,
      remaining: 7,
      resetAt: 1_800_000_030_000,
      blockedUntil: null,
      observedAt: t,
    })
  })

  it('parses IETF RateLimit-* headers (reset as delta seconds)', async () => {
    const t = 1_800_000_000_000
    const s = await startServer((_req, res) =>
      json(
        res,
        200,
        { events: [] },
        { 'RateLimit-Limit': '100', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '12' },
      ),
    )
    const { c } = client(s, { now: () => t })
    await c.listEvents(KEY)
    expect(c.rateLimit()).toMatchObject({ limit: 100, remaining: 0, resetAt: t + 12_000, blockedUntil: null })
  })

  it('forgets stale limits when a later response carries none', async () => {
    let withHeaders = true
    const s = await startServer((_req, res) =>
      json(res, 200, { events: [] }, withHeaders ? { 'X-RateLimit-Remaining': '1' } : {}),
    )
    const { c } = client(s)
    await c.listEvents(KEY)
    expect(c.rateLimit()?.remaining).toBe(1)
    withHeaders = false
    await c.listEvents(KEY)
    expect(c.rateLimit()).toBeNull()
  })

  it('429 with Retry-After seconds: blocked without sending until it elapses, then sends again', async () => {
    let t = 1_800_000_000_000
    const s = await startServer((_req, res) =>
      json(res, 429, { error: 'rate limited' }, { 'Retry-After': '7' }),
    )
    const { c, cap } = client(s, { now: () => t })
    const first = await c.listEvents(KEY)
    expect(!first.ok && first.error).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 7000 })
    expect(s.requests).toHaveLength(1)
    expect(c.rateLimit()?.blockedUntil).toBe(t + 7000)

    t += 3000
    const second = await c.listEvents(KEY)
    expect(!second.ok && second.error).toMatchObject({ code: 'rate_limited', retryAfterMs: 4000 })
    const verify = await c.verifyKey(KEY)
    expect(!verify.ok && verify.error.code).toBe('rate_limited')
    expect(s.requests).toHaveLength(1) // no request while blocked

    t += 4001
    s.handle((_req, res) => json(res, 200, { events: [] }))
    expect((await c.listEvents(KEY)).ok).toBe(true)
    expect(s.requests).toHaveLength(2)
    expect(c.rateLimit()).toBeNull()
    expectNoKey(cap)
  })

  it('429 with Retry-After as an HTTP date', async () => {
    let t = Date.parse('2030-01-01T00:00:00Z')
    const until = new Date(t + 90_000).toUTCString()
    const s = await startServer((_req, res) =>
      json(res, 429, { error: 'rate limited' }, { 'Retry-After': until }),
    )
    const { c } = client(s, { now: () => t })
    const first = await c.listEvents(KEY)
    expect(!first.ok && first.error).toMatchObject({ code: 'rate_limited', retryAfterMs: 90_000 })
    t += 89_000
    const second = await c.listEvents(KEY)
    expect(!second.ok && second.error).toMatchObject({ code: 'rate_limited', retryAfterMs: 1000 })
    expect(s.requests).toHaveLength(1)
    t += 1000
    await c.listEvents(KEY)
    expect(s.requests).toHaveLength(2)
  })

  it('429 without Retry-After still blocks (default), and says when to try again', async () => {
    const t = 1_800_000_000_000
    const s = await startServer((_req, res) => json(res, 429, { error: 'rate limited' }))
    const { c } = client(s, { now: () => t })
    const r = await c.listEvents(KEY)
    expect(!r.ok && r.error.retryAfterMs).toBeGreaterThan(0)
    expect(!r.ok && r.error.message).toMatch(/paused for \d+ s/)
    await c.listEvents(KEY)
    expect(s.requests).toHaveLength(1)
  })
})

describe('REST client: its base URL, by the one endpoint rule (shared/endpoints.ts)', () => {
  it.each([
    '',
    'not a url',
    'ftp://x/v1',
    'ws://x/v1',
    'https://user:pw@x/v1',
    'https://x/v1?token=1',
    'https://x/v1#top',
    'http://api.example.com/v1',
    'http://10.0.0.5:8080/v1',
  ])('refuses %j with the message the profile form shows', (url) => {
    const shown = endpointErrors(url, 'wss://x').baseUrl
    expect(shown).toBeDefined()
    expect(() => createRestClient({ baseUrl: url })).toThrow(shown)
  })

  it('a plain-http remote base URL says why: unencrypted only to this machine', () => {
    expect(() => createRestClient({ baseUrl: 'http://api.example.com/v1' })).toThrow(
      'The REST base URL must use https://: unencrypted http:// is only allowed to this machine',
    )
  })

  it('accepts https anywhere and plain http to this machine, which then answers', async () => {
    expect(() => createRestClient({ baseUrl: 'https://api.example.com/v1' })).not.toThrow()
    for (const host of ['localhost', '[::1]']) {
      expect(() => createRestClient({ baseUrl: `http://${host}:1/v1` })).not.toThrow()
    }
    const s = await startServer((_req, res) => json(res, 200, { events: [] }))
    expect(s.baseUrl.startsWith('http://127.0.0.1:')).toBe(true)
    expect(await createRestClient({ baseUrl: s.baseUrl }).listEvents(KEY)).toEqual({ ok: true, value: [] })
  })
})
