// The browser host itself, over real loopback sockets: static files, security headers, access control and
// frame handling. The engine is a recording fake here; engine.test.ts runs the real one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { resolveUnderRoot } from '../../src/main/web/static'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { fakeEngine, type FakeEngine } from './fake-engine'
import {
  captureLogger,
  openBridge,
  rawGet,
  rendererFixture,
  tryBridge,
  waitFor,
  type RendererFixture,
} from './helpers'

let fixture: RendererFixture
let engine: FakeEngine
let host: WebHost
const logger = captureLogger()

beforeAll(async () => {
  fixture = rendererFixture()
  engine = fakeEngine()
  host = await startWebHost({
    monitor: engine,
    rendererDir: fixture.root,
    logger,
    bridge: { maxPayload: 64 * 1024 },
  })
})

afterAll(async () => {
  await host?.close()
  fixture?.cleanup()
})

describe('startWebHost', () => {
  it('listens on 127.0.0.1 with a 128-bit token in the URL', () => {
    const url = new URL(host.url)
    expect(url.hostname).toBe('127.0.0.1')
    expect(Number(url.port)).toBe(host.port)
    expect(host.port).toBeGreaterThan(0)
    expect(url.searchParams.get('token')).toBe(host.token)
    expect(host.token).toMatch(/^[0-9a-f]{32}$/)
  })

  it('refuses a short reused token', async () => {
    await expect(
      startWebHost({ monitor: engine, rendererDir: fixture.root, logger, token: 'short' }),
    ).rejects.toThrow(/32 characters/)
  })
})

describe('HTTP', () => {
  it('serves index.html with the CSP and security headers', async () => {
    const res = await rawGet(host.port, '/?token=whatever', { Host: `127.0.0.1:${host.port}` })
    expect(res.status).toBe(200)
    expect(res.body).toContain('<title>fixture</title>')
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    const csp = String(res.headers['content-security-policy'])
    for (const directive of [
      "default-src 'self'",
      `connect-src 'self' ws://127.0.0.1:${host.port}`,
      "img-src 'self' data:",
      "style-src 'self' 'unsafe-inline'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive)
    }
    expect(csp).not.toContain('unsafe-eval')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('serves assets with their content types', async () => {
    const js = await rawGet(host.port, '/assets/app.js')
    expect(js.status).toBe(200)
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(js.body).toContain('fixture')
    const css = await rawGet(host.port, '/assets/style.css')
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8')
    const head = await rawGet(host.port, '/index.html', {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
  })

  it('refuses path traversal in every spelling', async () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/%5c..%5csecret.txt',
      '/index.html%00.js',
      '//etc/passwd',
      '/%ZZ',
      // A symlink inside the build that points outside it.
      '/assets/link.txt',
    ]
    for (const path of attempts) {
      const res = await rawGet(host.port, path)
      expect([400, 404], path).toContain(res.status)
      expect(res.body, path).not.toContain(fixture.secretText)
      expect(res.headers['content-security-policy'], path).toBeDefined()
    }
    for (const path of [
      '/../secret.txt',
      '/a/../../secret.txt',
      '/%2e%2e/x',
      '/x\\..\\y',
      '/a\0b',
      '/%E0%A4%A',
    ]) {
      expect(resolveUnderRoot(fixture.root, path), path).toBeNull()
    }
    expect(resolveUnderRoot(fixture.root, '/')).toBe(`${fixture.root}/index.html`)
  })

  it('answers unknown files with 404, other methods with 405, /bridge without upgrade with 426', async () => {
    expect((await rawGet(host.port, '/nope.js')).status).toBe(404)
    expect((await rawGet(host.port, '/assets')).status).toBe(404)
    const post = await rawGet(host.port, '/', {}, 'POST')
    expect(post.status).toBe(405)
    expect((await rawGet(host.port, '/bridge')).status).toBe(426)
  })

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await rawGet(host.port, '/', { Host: `evil.example:${host.port}` })
    expect(res.status).toBe(403)
    expect(res.body).not.toContain('fixture')
    const localhost = await rawGet(host.port, '/', { Host: `localhost:${host.port}` })
    expect(localhost.status).toBe(200)
  })
})

describe('bridge access', () => {
  const bridgeUrl = (token: string | null, path = '/bridge'): string =>
    `ws://127.0.0.1:${host.port}${path}${token === null ? '' : `?token=${token}`}`
  const origin = (): string => `http://127.0.0.1:${host.port}`

  it('refuses a missing token, a wrong token, and a token that differs in one character', async () => {
    const before = engine.attached
    const lastChar = host.token.endsWith('0') ? '1' : '0'
    for (const token of [null, '', 'wrong', host.token.slice(0, -1) + lastChar, host.token + '0']) {
      const outcome = await tryBridge(bridgeUrl(token), { Origin: origin() })
      expect(outcome.open, String(token)).toBe(false)
      if (!outcome.open) {
        expect(outcome.status).toBe(403)
        expect(outcome.body).toBe('')
      }
    }
    expect(engine.attached).toBe(before)
    expect(logger.lines.join('\n')).not.toContain(host.token)
  })

  it('refuses a foreign, missing or look-alike Origin even with the right token', async () => {
    for (const bad of [
      'http://evil.example',
      `http://127.0.0.1:${host.port + 1}`,
      `https://127.0.0.1:${host.port}`,
      `http://127.0.0.1.evil.example:${host.port}`,
      'null',
    ]) {
      const outcome = await tryBridge(bridgeUrl(host.token), { Origin: bad })
      expect(outcome.open, bad).toBe(false)
      if (!outcome.open) expect(outcome.status).toBe(403)
    }
    const none = await tryBridge(bridgeUrl(host.token), {})
    expect(none.open).toBe(false)
  })

  it('refuses other paths and a foreign Host', async () => {
    const path = await tryBridge(bridgeUrl(host.token, '/other'), { Origin: origin() })
    expect(path.open).toBe(false)
    if (!path.open) expect(path.status).toBe(404)
    const rebind = await tryBridge(bridgeUrl(host.token), {
      Origin: origin(),
      Host: `evil.example:${host.port}`,
    })
    expect(rebind.open).toBe(false)
  })

  it('accepts the right token from 127.0.0.1 and localhost origins; closing releases the engine client', async () => {
    const attached = engine.attached
    const disposed = engine.disposed
    for (const accepted of [origin(), `http://localhost:${host.port}`]) {
      const outcome = await tryBridge(bridgeUrl(host.token), { Origin: accepted })
      expect(outcome.open, accepted).toBe(true)
      if (outcome.open) {
        const closed = new Promise((resolve) => outcome.ws.once('close', resolve))
        outcome.ws.close()
        await closed
      }
    }
    expect(engine.attached).toBe(attached + 2)
    await waitFor('both engine clients disposed', () => engine.disposed === disposed + 2)
  })
})

describe('bridge frames', () => {
  it('answers a valid call with the engine result', async () => {
    const bridge = await openBridge(host.port, host.token)
    const result = await bridge.call('listEvents', [])
    expect(result).toEqual({
      ok: true,
      value: [{ id: 'e1', title: 'Fake event', markets: [{ id: 'm1', title: 'M' }] }],
    })
    const withOptions = await bridge.call('listEvents', [{ refresh: true }])
    expect(withOptions.ok).toBe(true)
    expect(engine.calls.at(-1)).toMatchObject({ method: 'listEvents', args: [{ refresh: true }] })
    bridge.ws.close()
  })

  it('gives malformed frames an error reply and keeps serving', async () => {
    const bridge = await openBridge(host.port, host.token)
    const callsBefore = engine.calls.length
    const notJson = await bridge.sendRaw('{not json')
    expect(notJson).toMatchObject({ error: { code: 'invalid_argument' } })
    const noId = await bridge.sendRaw(JSON.stringify({ method: 'listEvents', args: [] }))
    expect(noId).toMatchObject({ error: { code: 'invalid_argument' } })
    const array = await bridge.sendRaw('[1,2,3]')
    expect(array).toMatchObject({ error: { code: 'invalid_argument' } })
    const binary = await bridge.sendRaw(Buffer.from([1, 2, 3]))
    expect(binary).toMatchObject({ error: { code: 'invalid_argument' } })
    const cases: Array<[string, unknown]> = [
      ['unknownMethod', []],
      ['__proto__', []],
      ['constructor', []],
      ['setBookDepth', ['ten']],
      ['setBookDepth', [10_000]],
      ['setInterests', [[{ channel: 'market', id: 'm1' }]]],
      ['getMarketSnapshot', 'm1'],
      ['openWindow', [{ kind: 'main' }]],
      ['setVisibility', ['hidden']],
      ['setVisibility', []],
    ]
    for (const [method, args] of cases) {
      const reply = await bridge.sendRaw(JSON.stringify({ id: 7, method, args }))
      expect(reply, method).toMatchObject({
        id: 7,
        result: { ok: false, error: { code: 'invalid_argument' } },
      })
    }
    expect(engine.calls.length).toBe(callsBefore)
    // An engine method that throws becomes an internal error, not a crash.
    expect(await bridge.call('getStatus')).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(await bridge.call('setBookDepth', [10])).toEqual({ ok: true, value: null })
    expect(await bridge.call('setVisibility', [false])).toEqual({ ok: true, value: null })
    expect(engine.calls.at(-1)).toMatchObject({ method: 'setVisibility', args: [false] })
    bridge.ws.close()
  })

  it('refuses a 10,000-deep argument by name, before the engine sees it, and keeps serving', async () => {
    const bridge = await openBridge(host.port, host.token)
    const callsBefore = engine.calls.length
    const deep = '['.repeat(10_000) + ']'.repeat(10_000)
    // Written by hand: JSON.stringify itself cannot write a value this deep.
    const reply = await bridge.sendRaw(`{"id":7,"method":"setInterests","args":[${deep}]}`)
    expect(reply).toMatchObject({ id: 7, result: { ok: false, error: { code: 'invalid_argument' } } })
    const message = (reply.result as { error: { message: string } }).error.message
    expect(message).toMatch(/^setInterests: argument 1 refused: nested deeper than 32 levels/)
    expect(engine.calls.length).toBe(callsBefore)
    expect(await bridge.call('setVisibility', [true])).toEqual({ ok: true, value: null })
    bridge.ws.close()
  })

  it('closes only the socket that sends an oversized frame', async () => {
    const victim = await openBridge(host.port, host.token)
    const bystander = await openBridge(host.port, host.token)
    victim.ws.send(JSON.stringify({ id: 1, method: 'listEvents', args: ['x'.repeat(100 * 1024)] }))
    expect(await victim.closed).toBe(1009)
    expect((await bystander.call('listEvents')).ok).toBe(true)
    const again = await openBridge(host.port, host.token)
    expect((await again.call('listEvents')).ok).toBe(true)
    bystander.ws.close()
    again.ws.close()
  })

  it('pushes the engine batches to the page', async () => {
    const bridge = await openBridge(host.port, host.token)
    const latest = [...engine.sinks.entries()].at(-1)
    expect(latest).toBeDefined()
    latest?.[1]({ seq: 1, at: 1, eventsChanged: true })
    await waitFor('the batch frame', () => bridge.frames.some((f) => 'batch' in (f as object)))
    expect(bridge.frames).toContainEqual({ batch: { seq: 1, at: 1, eventsChanged: true } })
    bridge.ws.close()
  })

  it('closes page sockets and disposes their engine clients when the host closes', async () => {
    const local = fakeEngine()
    const other = await startWebHost({ monitor: local, rendererDir: fixture.root, logger })
    const bridge = await openBridge(other.port, other.token)
    await other.close()
    expect(await bridge.closed).toBe(1001)
    expect(local.disposed).toBe(1)
    // The caller owns an engine it passed in.
    expect(local.closed).toBe(false)
    const ws = new WebSocket(`ws://127.0.0.1:${other.port}/bridge?token=${other.token}`)
    const refused = await new Promise<boolean>((resolve) => {
      ws.once('error', () => resolve(true))
      ws.once('open', () => resolve(false))
    })
    expect(refused).toBe(true)
  })
})
