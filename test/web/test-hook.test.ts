// The end-to-end fault hook: off unless asked for, POST only, token required, forwarded to the engine.
import { afterEach, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { fakeEngine } from './fake-engine'
import { captureLogger, rendererFixture } from './helpers'

const hosts: WebHost[] = []
const fixtures: Array<{ cleanup(): void }> = []
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()))
  for (const f of fixtures.splice(0)) f.cleanup()
})

async function start(testHooks: boolean, injected: string[]): Promise<WebHost> {
  const engine = fakeEngine()
  engine.injectDemoFault = (kind) => {
    injected.push(kind)
    return true
  }
  const fixture = rendererFixture()
  fixtures.push(fixture)
  const host = await startWebHost({
    monitor: engine,
    rendererDir: fixture.root,
    logger: captureLogger(),
    testHooks,
  })
  hosts.push(host)
  return host
}

function faultUrl(host: WebHost, kind: string, token = host.token): string {
  return `http://127.0.0.1:${host.port}/__test/fault?kind=${kind}&token=${encodeURIComponent(token)}`
}

describe('test fault hook', () => {
  it('is absent unless enabled', async () => {
    const injected: string[] = []
    const host = await start(false, injected)
    const res = await fetch(faultUrl(host, 'drop'), { method: 'POST' })
    expect(res.status).not.toBe(200)
    expect(injected).toEqual([])
  })

  it('needs POST, the token and a known fault', async () => {
    const injected: string[] = []
    const host = await start(true, injected)
    expect((await fetch(faultUrl(host, 'drop'))).status).toBe(405)
    expect((await fetch(faultUrl(host, 'drop', 'f'.repeat(32)), { method: 'POST' })).status).toBe(403)
    expect((await fetch(faultUrl(host, 'explode'), { method: 'POST' })).status).toBe(400)
    expect(injected).toEqual([])
    expect((await fetch(faultUrl(host, 'drop'), { method: 'POST' })).status).toBe(200)
    expect(injected).toEqual(['drop'])
  })
})
