// DemoHost: a disabled host never starts anything; an enabled one starts the worker simulator once, shares it,
// injects faults into it and closes it; a failed start is logged and may be retried.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DemoHost } from '../../../src/main/services/feed/demo-host'
import { captureLogger } from '../helpers'

const hosts: DemoHost[] = []
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close()
})

function host(enabled: boolean, workerEntry?: string) {
  const log = captureLogger()
  const h = new DemoHost(
    { seed: 5, ...(workerEntry !== undefined ? { workerEntry } : {}) },
    enabled,
    log.logger,
  )
  hosts.push(h)
  return { h, log }
}

describe('DemoHost', () => {
  it('disabled: ensure() gives null, nothing runs, fault() is false', async () => {
    const { h, log } = host(false)
    expect(await h.ensure()).toBeNull()
    expect(h.current()).toBeNull()
    expect(h.fault('drop')).toBe(false)
    await h.close()
    expect(log.lines).toEqual([])
  })

  it('fault() before anything was started is false', () => {
    const { h } = host(true)
    expect(h.fault('malformed')).toBe(false)
    expect(h.current()).toBeNull()
  })

  it('a start that fails is logged, gives null, and a later ensure() tries again', async () => {
    const missing = join(__dirname, 'no-such-worker-entry.js')
    const { h, log } = host(true, missing)
    expect(await h.ensure()).toBeNull()
    expect(log.lines.filter((l) => l.includes('embedded simulator failed to start'))).toHaveLength(1)
    expect(await h.ensure()).toBeNull()
    expect(log.lines.filter((l) => l.includes('embedded simulator failed to start'))).toHaveLength(2)
  })

  it('enabled: starts one simulator for concurrent callers, injects faults, closes it', async () => {
    const { h, log } = host(true)
    const [a, b] = await Promise.all([h.ensure(), h.ensure()])
    expect(a).not.toBeNull()
    expect(b).toBe(a)
    expect(h.current()).toBe(a)
    expect(a?.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/)
    expect(await h.ensure()).toBe(a)
    expect(log.lines.filter((l) => l.includes('embedded simulator started'))).toHaveLength(1)
    expect(h.fault('malformed')).toBe(true)
    expect(log.lines.some((l) => l.startsWith('warn') && l.includes('"kind":"malformed"'))).toBe(true)
    await h.close()
    expect(h.current()).toBeNull()
    expect(h.fault('drop')).toBe(false)
    expect(await h.ensure()).toBeNull()
  })

  it('closed while starting: the caller gets null and nothing stays current', async () => {
    const { h, log } = host(true)
    const starting = h.ensure()
    await h.close()
    expect(await starting).toBeNull()
    expect(h.current()).toBeNull()
    expect(await h.ensure()).toBeNull()
    expect(log.lines.some((l) => l.includes('embedded simulator started'))).toBe(false)
  })
})
