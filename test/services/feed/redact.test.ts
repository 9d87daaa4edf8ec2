import { describe, expect, it } from 'vitest'
import { findToken, REDACTED, redactToken, SecretRedactor } from '../../../src/main/services/feed/redact'
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

  it('scrubs a real key echoed in an error or in JSON, and skips a longer run to find a later token', () => {
    const r = new SecretRedactor()
    r.add('abcd1234efgh')
    expect(r.redact('invalid key abcd1234efgh')).toBe(`invalid key ${REDACTED}`)
    expect(r.redact('{"key":"abcd1234efgh"}')).toBe(`{"key":"${REDACTED}"}`)
    expect(r.redact('auth=abcd1234efgh&x=1')).toBe(`auth=${REDACTED}&x=1`)
    expect(r.redact('xabcd1234efgh abcd1234efgh')).toBe(`xabcd1234efgh ${REDACTED}`)
    expect(findToken('abcd1234efghabcd1234efgh abcd1234efgh', 'abcd1234efgh')).toBe(25)
    // A key whose edges are not key characters needs no boundary there.
    expect(redactToken('x"type":"book"y', '"type":"book"')).toBe(`x${REDACTED}y`)
  })

  it('runs in linear time on hostile text', () => {
    const r = new SecretRedactor()
    r.add('a'.repeat(16))
    r.add('ab'.repeat(8))
    const texts = [
      'a'.repeat(2_000_000),
      'ab'.repeat(1_000_000),
      `${'a'.repeat(1_000_000)} ${'a'.repeat(16)}`,
    ]
    const started = performance.now()
    for (const t of texts) r.redact(t)
    expect(r.redact(texts[2]!).endsWith(` ${REDACTED}`)).toBe(true)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('forgets a removed key', () => {
    const r = new SecretRedactor()
    r.add('sk_live_0123456789abcdef')
    expect(r.knows('sk_live_0123456789abcdef')).toBe(true)
    r.remove('sk_live_0123456789abcdef')
    expect(r.knows('sk_live_0123456789abcdef')).toBe(false)
    expect(r.active).toBe(false)
    expect(r.redact('echo sk_live_0123456789abcdef')).toBe('echo sk_live_0123456789abcdef')
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
