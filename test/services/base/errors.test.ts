// The engine's ApiError helpers: internal and invalid build the documented shapes (a field only when named), errorMessage reads anything thrown, scrubError removes a key (the rule itself: key-scrub.test.ts).
import { describe, expect, it } from 'vitest'
import { errorMessage, internal, invalid, scrubError } from '../../../src/main/services/base/errors'

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

describe('scrubError', () => {
  const KEY = 'sk-live-1234567890ab'

  it('scrubs the message only, keeps code and field, and leaves the original as it was', () => {
    const original = { code: 'unauthorized' as const, message: `refused ${KEY}`, field: 'key' }
    expect(scrubError(original, KEY)).toEqual({
      code: 'unauthorized',
      message: 'refused [redacted]',
      field: 'key',
    })
    expect(original.message).toBe(`refused ${KEY}`)
    expect(scrubError(original, null)).toEqual(original)
  })
})
