// Turns a keychain failure into an ApiError with a stable code and a message that says what to do.
// @napi-rs/keyring reports everything as a GenericFailure with keyring-rs' text, so the text is all
// there is to go on; the strings matched here were observed against gnome-keyring 42 (see
// test/credentials/keyring.test.ts, which reproduces each case for real).
import type { ApiError } from '../../shared/model'

/** Longest library detail appended to a message; D-Bus policy errors can be several hundred characters. */
const DETAIL_MAX = 300

// Order matters: a D-Bus policy rejection quotes the refused call (which may be "Unlock"), and a dismissed
// unlock prompt means "still locked" rather than "denied".
const DENIED_BY_POLICY: RegExp[] = [
  /rejected send message/i,
  /access ?denied/i,
  /not ?authori[sz]ed/i,
  /permission denied/i,
  /operation not permitted/i,
]
const LOCKED: RegExp[] = [/unlock prompt/i, /\block(ed)?\b/i, /IsLocked/]
const DENIED_BY_USER: RegExp[] = [/\b(dismissed|cancel+ed|aborted?)\b/i]
const UNAVAILABLE: RegExp[] = [
  /d-?bus/i,
  /failed to connect/i,
  /no such file/i,
  /not provided by any \.service/i,
  /ServiceUnknown/i,
  /autolaunch/i,
  /no result found/i,
  /platform failure/i,
  /couldn'?t access platform storage/i,
  /no (platform|default) (storage|store|credential store)/i,
  /secret service/i,
]

const HINT = {
  keyring_locked:
    'The system keyring is locked. Unlock your login keyring (for example in "Passwords and Keys" / Seahorse, ' +
    'or KWallet) and try again.',
  keyring_denied:
    'Access to the system keyring was denied or the request was cancelled. Allow Trading Monitor to use the ' +
    'keyring (answer the keyring prompt, or check sandbox / D-Bus policy permissions) and try again.',
  keyring_unavailable:
    'No usable system keyring was found. Trading Monitor stores API keys only in the OS keychain (Secret ' +
    'Service on Linux): install and start gnome-keyring or KWallet, make sure a D-Bus session is running and a ' +
    'default "login" keyring exists, then try again. Demo mode works without a keyring.',
} as const

type KeyringCode = keyof typeof HINT

export function classifyKeyringText(text: string): KeyringCode {
  if (DENIED_BY_POLICY.some((re) => re.test(text))) return 'keyring_denied'
  if (LOCKED.some((re) => re.test(text))) return 'keyring_locked'
  if (DENIED_BY_USER.some((re) => re.test(text))) return 'keyring_denied'
  if (UNAVAILABLE.some((re) => re.test(text))) return 'keyring_unavailable'
  // An unrecognised failure still means the keychain could not be used; "unavailable" tells the user
  // where to look, and the detail carries the library's own words.
  return 'keyring_unavailable'
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? err.cause.message : ''
    return cause && !err.message.includes(cause) ? `${err.message}: ${cause}` : err.message
  }
  return typeof err === 'string' ? err : 'unknown error'
}

/** Removes every occurrence of each secret, so that no key can leak through a library message. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join('[redacted]')
  }
  return out
}

export function keyringError(err: unknown, secrets: readonly string[] = []): ApiError {
  const raw = describe(err)
  const code = classifyKeyringText(raw)
  let detail = redact(raw, secrets).replace(/\s+/g, ' ').trim()
  if (detail.length > DETAIL_MAX) detail = `${detail.slice(0, DETAIL_MAX)}…`
  return { code, message: detail ? `${HINT[code]} (${detail})` : HINT[code] }
}
