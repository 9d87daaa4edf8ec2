// The redactor: which keys it scrubs (in use, or handed over and refused, replaced or cleared), its bound, and
// what it scrubs (log lines, decoded values). How a key is found is the rule of base/key-scrub.ts (its tests).
import { describe, expect, it } from 'vitest'
import { REDACTED } from '../../../src/main/services/base/key-scrub'
import { SecretRedactor } from '../../../src/main/services/feed/redact'
import { captureLogger } from '../helpers'

describe('SecretRedactor', () => {
  it('replaces every occurrence of every known key, and ignores strings that are no key', () => {
    const r = new SecretRedactor()
    expect(r.active).toBe(false)
    r.add('abc')
    r.add(null)
    r.remember('marketmarket')
    expect(r.active).toBe(false)
    r.add('key-one-123456789')
    r.remember('key-two-456789012')
    expect(r.contains('x key-two-456789012 y')).toBe(true)
    expect(r.redact('key-one-123456789/key-two-456789012/key-one-123456789')).toBe(
      `${REDACTED}/${REDACTED}/${REDACTED}`,
    )
    expect(r.contains('nothing here')).toBe(false)
  })

  it('keeps the most recent former keys only, and never lets go of a key in use', () => {
    const r = new SecretRedactor()
    const refused = (i: number): string => `refused-key-${String(i).padStart(8, '0')}`
    r.add('in-use-key-000000001')
    for (let i = 0; i < 12; i++) r.remember(refused(i))
    expect(r.contains(`x ${refused(11)}`)).toBe(true)
    expect(r.knows(refused(4))).toBe(true)
    expect(r.knows(refused(3))).toBe(false)
    expect(r.knows('in-use-key-000000001')).toBe(true)
    // Remembering a key in use does not make it a former key that could be let go.
    r.remember('in-use-key-000000001')
    for (let i = 100; i < 112; i++) r.remember(refused(i))
    expect(r.knows('in-use-key-000000001')).toBe(true)
  })

  it('a released key stays scrubbed, as a former key', () => {
    const r = new SecretRedactor()
    r.add('sk_live_0123456789abcdef')
    r.release('sk_live_0123456789abcdef')
    expect(r.knows('sk_live_0123456789abcdef')).toBe(true)
    expect(r.redact('echo sk_live_0123456789abcdef')).toBe(`echo ${REDACTED}`)
    for (let i = 0; i < 8; i++) r.remember(`later-key-000000000${i}`)
    expect(r.knows('sk_live_0123456789abcdef')).toBe(false)
  })

  it('wraps a logger: messages and string fields are scrubbed', () => {
    const log = captureLogger()
    const r = new SecretRedactor()
    const wrapped = r.wrapLogger(log.logger)
    r.add('sk_live_secret_0001')
    wrapped.warn('server said sk_live_secret_0001 is bad', { detail: 'auth=sk_live_secret_0001', n: 1 })
    wrapped.info('plain', { ok: true })
    expect(log.lines.join('\n')).not.toContain('sk_live_secret_0001')
    expect(log.lines.join('\n')).toContain(REDACTED)
    expect(log.lines.some((l) => l.includes('plain'))).toBe(true)
  })

  it('matches a whole token only: a key never touches a longer identifier that contains it (issue 28 §2)', () => {
    const r = new SecretRedactor()
    r.add('marketmarketmarket')
    for (const text of [
      '{"marketmarketmarketId":"x"}',
      'xmarketmarketmarket',
      'marketmarketmarket_2',
      'pre-marketmarketmarket',
      'marketmarketmarketmarketmarketmarket',
    ]) {
      expect(r.contains(text), text).toBe(false)
      expect(r.redact(text)).toBe(text)
    }
    // Delimited by anything but a key character: scrubbed.
    expect(r.redact('marketmarketmarket')).toBe(REDACTED)
    expect(r.redact('{"market":"marketmarketmarket"}')).toBe(`{"market":"${REDACTED}"}`)
    expect(r.redact('a marketmarketmarket.b/marketmarketmarket')).toBe(`a ${REDACTED}.b/${REDACTED}`)
  })

  it('scrubValue: a scrubbed copy of a decoded value, however deep, with the original untouched', () => {
    const r = new SecretRedactor()
    const key = 'sk_live_0123456789abcdef'
    r.add(key)
    const value = { id: 'o1', note: `auth=${key}`, list: [1, null, key, { [key]: true }], ok: false }
    const copy = r.scrubValue(value)
    expect(copy).toEqual({
      id: 'o1',
      note: `auth=${REDACTED}`,
      list: [1, null, REDACTED, { [REDACTED]: true }],
      ok: false,
    })
    expect(value.note).toBe(`auth=${key}`)
    const proto = r.scrubValue(JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>)
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype)
    expect(Object.keys(proto)).toEqual(['__proto__'])
    let deep: unknown = key
    for (let i = 0; i < 100_000; i++) deep = [deep]
    let out = r.scrubValue(deep)
    for (let i = 0; i < 100_000; i++) out = (out as unknown[])[0]
    expect(out).toBe(REDACTED)
  })
})
