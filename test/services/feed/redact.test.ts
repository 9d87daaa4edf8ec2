import { describe, expect, it } from 'vitest'
import { REDACTED, SecretRedactor } from '../../../src/main/services/feed/redact'
import { captureLogger } from '../helpers'

describe('SecretRedactor', () => {
  it('replaces every occurrence of every known key, and ignores strings too short to be keys', () => {
    const r = new SecretRedactor()
    expect(r.active).toBe(false)
    r.add('abc')
    r.add(null)
    expect(r.active).toBe(false)
    r.add('key-one-123')
    r.add('key-two-456')
    expect(r.contains('x key-two-456 y')).toBe(true)
    expect(r.redact('key-one-123/key-two-456/key-one-123')).toBe(`${REDACTED}/${REDACTED}/${REDACTED}`)
    expect(r.contains('nothing here')).toBe(false)
  })

  it('keeps the most recent keys only', () => {
    const r = new SecretRedactor()
    for (let i = 0; i < 12; i++) r.add(`secret-key-${i}`)
    expect(r.contains('secret-key-11')).toBe(true)
    expect(r.contains('secret-key-0')).toBe(false)
  })

  it('wraps a logger: messages and string fields are scrubbed', () => {
    const log = captureLogger()
    const r = new SecretRedactor()
    const wrapped = r.wrapLogger(log.logger)
    r.add('sk_live_secret')
    wrapped.warn('server said sk_live_secret is bad', { detail: 'auth=sk_live_secret', n: 1 })
    wrapped.info('plain', { ok: true })
    expect(log.lines.join('\n')).not.toContain('sk_live_secret')
    expect(log.lines.join('\n')).toContain(REDACTED)
    expect(log.lines.some((l) => l.includes('plain'))).toBe(true)
  })
})
