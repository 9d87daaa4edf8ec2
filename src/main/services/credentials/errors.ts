// Turns a keychain failure into an ApiError with a stable code and a message that says what to do.
// @napi-rs/keyring reports everything as a GenericFailure with keyring-rs' text, so the text is all
// there is to go on; the strings matched here were observed against gnome-keyring 42 (see
// test/services/credentials/store.keyring.test.ts, which reproduces each case for real) and in macOS' Security framework.
import type { ApiError } from '../../../shared/model'
import { scrubKeys } from '../base/key-scrub'

/** Longest library detail appended to a message; D-Bus policy errors can be several hundred characters. */
const DETAIL_MAX = 300

/**
 * A prompt dismissed sooner than this after the request was never seen by a person: gnome-keyring answers
 * "dismissed" in about 30 ms when it cannot show its prompter (no display, no gcr-prompter). Later than this,
 * and with a display to show it on, someone pressed Cancel.
 */
export const HUMAN_DISMISS_MS = 1000

// Order matters: a D-Bus policy rejection quotes the refused call (which may be "Unlock"); a prompt dismissed
// is "cancelled" or "still locked" depending on who dismissed it (KeyringErrorContext).
const DENIED_BY_POLICY: RegExp[] = [
  /rejected send message/i,
  /access ?denied/i,
  /not ?authori[sz]ed/i,
  /permission denied/i,
  /operation not permitted/i,
]
/** Said only when a person answered: macOS errSecUserCanceled ("User canceled the operation."), and the like. */
const CANCELLED_BY_USER: RegExp[] = [/\buser cancel+ed\b/i, /\b(cancel+ed|aborted?) by (the )?user\b/i]
/** The Secret Service's prompt came back dismissed: by a person, or by a daemon that could not show it. */
const PROMPT_DISMISSED: RegExp[] = [/prompt (was )?dismissed/i]
const LOCKED: RegExp[] = [/unlock prompt/i, /\block(ed)?\b/i, /IsLocked/, /interaction is not allowed/i]
const CANCELLED: RegExp[] = [/\b(dismissed|cancel+ed|aborted?)\b/i]
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
  keyring_cancelled:
    'The keyring prompt was cancelled, so the keyring stays locked and nothing was read or saved. Try again ' +
    'and unlock the keyring (or allow Trading Monitor access) when the system asks.',
  keyring_denied:
    'Access to the system keyring was denied. Allow Trading Monitor to use the keyring (check sandbox / D-Bus ' +
    'policy permissions or the keychain access settings) and try again.',
  keyring_unavailable:
    'No usable system keyring was found. Trading Monitor stores API keys only in the OS keychain (Secret ' +
    'Service on Linux): install and start gnome-keyring or KWallet, make sure a D-Bus session is running and a ' +
    'default "login" keyring exists, then try again. Demo mode works without a keyring.',
} as const

type KeyringCode = keyof typeof HINT

/** What is known about the failed call besides its text. */
export interface KeyringErrorContext {
  /** How long the failed call ran, in ms. */
  elapsedMs?: number
  /** Whether this session can show a keyring prompt at all (a Linux session without a display cannot). */
  canPrompt?: boolean
}

/** Whether a person can have dismissed the prompt: one could be shown, and it was up long enough to be read. */
function personDismissed(context: KeyringErrorContext): boolean {
  return context.canPrompt === true && (context.elapsedMs ?? 0) >= HUMAN_DISMISS_MS
}

export function classifyKeyringText(text: string, context: KeyringErrorContext = {}): KeyringCode {
  if (DENIED_BY_POLICY.some((re) => re.test(text))) return 'keyring_denied'
  if (CANCELLED_BY_USER.some((re) => re.test(text))) return 'keyring_cancelled'
  if (PROMPT_DISMISSED.some((re) => re.test(text)))
    return personDismissed(context) ? 'keyring_cancelled' : 'keyring_locked'
  if (LOCKED.some((re) => re.test(text))) return 'keyring_locked'
  if (CANCELLED.some((re) => re.test(text))) return 'keyring_cancelled'
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

export function keyringError(
  err: unknown,
  secrets: readonly string[] = [],
  context: KeyringErrorContext = {},
): ApiError {
  const raw = describe(err)
  const code = classifyKeyringText(raw, context)
  // No key can leak through a library message.
  let detail = scrubKeys(raw, secrets).replace(/\s+/g, ' ').trim()
  if (detail.length > DETAIL_MAX) detail = `${detail.slice(0, DETAIL_MAX)}…`
  return { code, message: detail ? `${HINT[code]} (${detail})` : HINT[code] }
}

/**
 * The keyring gave no answer in time: most often an unlock or access prompt nobody has answered (it may be
 * behind other windows, or on a screen that is off). `queued` when this request never reached the keyring
 * because an earlier one is still waiting.
 */
export function keyringTimeoutError(timeoutMs: number, queued = false): ApiError {
  const seconds = Math.max(1, Math.round(timeoutMs / 1000))
  const waiting = queued ? ' An earlier keyring request is still waiting for that answer.' : ''
  return {
    code: 'keyring_timeout',
    message:
      `The system keyring did not answer within ${seconds} s. Its unlock or access prompt may be waiting on ` +
      `screen, possibly behind other windows: answer it (or cancel it), then try again.${waiting}`,
  }
}
