// Classification of keychain failures. The strings are the ones @napi-rs/keyring 2.1.2 produced against
// gnome-keyring 42 on this machine (keyring.test.ts reproduces the first five for real), and macOS'
// Security framework's texts for errSecUserCanceled and errSecInteractionNotAllowed.
import { describe, expect, it } from 'vitest'
import {
  classifyKeyringText,
  HUMAN_DISMISS_MS,
  keyringError,
  keyringTimeoutError,
} from '../../../src/main/services/credentials/errors'

describe('keyring error mapping', () => {
  it.each([
    [
      'Platform failure: DBus error: Failed to connect to socket /nonexistent/sock: No such file or directory',
      'keyring_unavailable',
    ],
    [
      'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead',
      'keyring_unavailable',
    ],
    [
      'Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files',
      'keyring_unavailable',
    ],
    ["Couldn't access platform storage: Secret Service: unlock prompt was dismissed", 'keyring_locked'],
    [
      'Platform failure: DBus error: Rejected send message, 2 matched rules; type="method_call", sender=":1.1" interface="org.freedesktop.Secret.Service" member="Unlock" destination="org.freedesktop.secrets"',
      'keyring_denied',
    ],
    ["Couldn't access platform storage: Secret Service: no result found", 'keyring_unavailable'],
    ['Platform failure: DBus error: org.freedesktop.DBus.Error.AccessDenied: not allowed', 'keyring_denied'],
    ['Secret Service: the operation was cancelled', 'keyring_cancelled'],
    ['Platform secure storage failure: User canceled the operation.', 'keyring_cancelled'],
    ['Platform secure storage failure: User interaction is not allowed.', 'keyring_locked'],
    ['SS error: prompt dismissed', 'keyring_locked'],
    ['org.freedesktop.Secret.Error.IsLocked: Cannot get secret of a locked object', 'keyring_locked'],
    ['something nobody has seen before', 'keyring_unavailable'],
  ])('%s -> %s', (text, code) => {
    expect(classifyKeyringText(text)).toBe(code)
  })

  it('a dismissed prompt is cancelled only when a person can have seen it', () => {
    const text = "Couldn't access platform storage: Secret Service: unlock prompt was dismissed"
    expect(classifyKeyringText(text)).toBe('keyring_locked')
    expect(classifyKeyringText(text, { canPrompt: true, elapsedMs: HUMAN_DISMISS_MS })).toBe(
      'keyring_cancelled',
    )
    expect(classifyKeyringText(text, { canPrompt: true, elapsedMs: 30 })).toBe('keyring_locked')
    expect(classifyKeyringText(text, { canPrompt: false, elapsedMs: 10_000 })).toBe('keyring_locked')
    // A policy refusal stays a refusal whatever the timing.
    expect(
      classifyKeyringText('Rejected send message, member="Unlock" prompt dismissed', {
        canPrompt: true,
        elapsedMs: 10_000,
      }),
    ).toBe('keyring_denied')
  })

  it('a timeout names the wait and what to do', () => {
    const e = keyringTimeoutError(60_000)
    expect(e.code).toBe('keyring_timeout')
    expect(e.message).toMatch(/^The system keyring did not answer within 60 s\. .*answer it/)
    expect(e.message).not.toMatch(/earlier keyring request/)
    expect(keyringTimeoutError(1500, true).message).toMatch(/within 2 s.*earlier keyring request/)
  })

  it('builds a message that says what to do and keeps the library detail', () => {
    const e = keyringError(
      new Error("Couldn't access platform storage: Secret Service: unlock prompt was dismissed"),
    )
    expect(e.code).toBe('keyring_locked')
    expect(e.message).toMatch(/^The system keyring is locked\. Unlock your login keyring/)
    expect(e.message).toContain(
      "(Couldn't access platform storage: Secret Service: unlock prompt was dismissed)",
    )
  })

  it('includes the cause when the message lacks it', () => {
    const err = new Error('Platform failure', {
      cause: new Error('DBus error: Failed to connect to socket /x'),
    })
    const e = keyringError(err)
    expect(e.code).toBe('keyring_unavailable')
    expect(e.message).toContain('Platform failure: DBus error: Failed to connect to socket /x')
  })

  it('redacts every secret from the detail and caps its length', () => {
    const secret = 'sk-live-abcdef-0123'
    const e = keyringError(new Error(`DBus error: weird ${secret} echo ${secret} ${'x'.repeat(1000)}`), [
      secret,
    ])
    expect(e.message).not.toContain(secret)
    expect(e.message).toContain('[redacted]')
    expect(e.message.length).toBeLessThan(1000)
  })

  it('copes with thrown non-errors', () => {
    expect(keyringError('DBus error: no bus').code).toBe('keyring_unavailable')
    expect(keyringError(undefined).code).toBe('keyring_unavailable')
    expect(keyringError({ weird: true }).message).toMatch(/unknown error/)
  })
})
