// The engine's ApiError helpers: internal and invalid build the documented shapes (a field only when named), errorMessage reads anything thrown, scrub/scrubError remove a secret.
import { describe, expect, it } from 'vitest'
import { errorMessage, internal, invalid, scrub, scrubError } from '../../../src/main/services/base/errors'

describe('internal', () => {
  it('is code internal, with a generic message unless one is given', () => {
    expect(internal()).toEqual({
      code: 'internal',
      message: 'Internal error in the monitor engine; see the log for details.',
    })
    expect(internal('the disk is full')).toEqual({ code: 'internal', message: 'the disk is full' })
  })
})

describe('invalid', () => {
  it('names the field at fault when given, and has no field key at all otherwise', () => {
    expect(invalid('Invalid alert: condition.value: too big', 'condition.value')).toEqual({
      code: 'invalid_argument',
      message: 'Invalid alert: condition.value: too big',
      field: 'condition.value',
    })
    const plain = invalid('nope')
    expect(plain).toEqual({ code: 'invalid_argument', message: 'nope' })
    // Absent, not `field: undefined`: a form reads the key's presence.
    expect('field' in plain).toBe(false)
  })
})

describe('errorMessage', () => {
  it("reads an Error's message and turns anything else thrown into text", () => {
    expect(errorMessage(new TypeError('bad type'))).toBe('bad type')
    expect(errorMessage('plain text')).toBe('plain text')
    expect(errorMessage(42)).toBe('42')
    expect(errorMessage(null)).toBe('null')
    expect(errorMessage({ toString: () => 'custom' })).toBe('custom')
  })
})

describe('scrub', () => {
  const SECRET = 'sk-live-1234'

  it('replaces every occurrence of the secret', () => {
    expect(scrub(`key ${SECRET} and again ${SECRET}!`, SECRET)).toBe('key [redacted] and again [redacted]!')
    expect(scrub('nothing secret here', SECRET)).toBe('nothing secret here')
  })

  it('leaves the text alone without a secret or with one too short to be a key (under 4 characters)', () => {
    expect(scrub('abc abcd', null)).toBe('abc abcd')
    expect(scrub('abc abcd', '')).toBe('abc abcd')
    expect(scrub('abc abcd', 'abc')).toBe('abc abcd')
    expect(scrub('abc abcd', 'abcd')).toBe('abc [redacted]')
  })

  it('scrubError scrubs the message only, keeps code and field, and leaves the original as it was', () => {
    const original = { code: 'unauthorized' as const, message: `refused ${SECRET}`, field: 'key' }
    expect(scrubError(original, SECRET)).toEqual({
      code: 'unauthorized',
      message: 'refused [redacted]',
      field: 'key',
    })
    expect(original.message).toBe(`refused ${SECRET}`)
  })
})
