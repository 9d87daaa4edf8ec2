// The one rule for scrubbing an API key out of a text, for every caller: the REST client (its own key, out of
// its error texts), scrubError (the key being verified, out of a refusal), the keychain store (the key it was
// writing, out of the library's error) and the redactor (every key of the run, out of frames, recordings and
// log lines: feed/redact.ts). Only a well-formed key (shared/api-key.ts) is
// a key: a shorter string is a word of the venue's frames, and scrubbing it would blank that word everywhere.
//
// A key is replaced only where it is a whole token: not inside a longer run of key characters (letters, digits,
// `-`, `_`), so it never touches a longer identifier that merely contains it. The search is indexOf with
// boundary checks: linear in the text, and no pattern is ever built from a key.
import { isWellFormedKey } from '../../../shared/api-key'

export const REDACTED = '[redacted]'

/** A character a key's token is made of: a match next to one is part of a longer token, not the key. */
function isKeyChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 45 || // -
    code === 95 // _
  )
}

/**
 * The first index at or after `from` where `key` occurs as a whole token in `text`, or -1. Edges of the key
 * that are not key characters need no boundary. Linear: after a candidate inside a run of key characters, the
 * search resumes after that run (no token can start inside it).
 */
export function findToken(text: string, key: string, from = 0): number {
  const n = key.length
  if (n === 0) return -1
  const boundedStart = isKeyChar(key.charCodeAt(0))
  const boundedEnd = isKeyChar(key.charCodeAt(n - 1))
  let i = text.indexOf(key, from)
  while (i !== -1) {
    const end = i + n
    const startOk = !boundedStart || i === 0 || !isKeyChar(text.charCodeAt(i - 1))
    const endOk = !boundedEnd || end >= text.length || !isKeyChar(text.charCodeAt(end))
    if (startOk && endOk) return i
    let next = i + 1
    if (boundedStart) while (next < text.length && isKeyChar(text.charCodeAt(next))) next++
    i = text.indexOf(key, next)
  }
  return -1
}

/** `text` with every whole-token occurrence of `key` replaced by REDACTED; as it was when `key` is no key. */
export function scrubKey(text: string, key: string | null | undefined): string {
  if (!isWellFormedKey(key)) return text
  let at = findToken(text, key)
  if (at === -1) return text
  let out = ''
  let from = 0
  while (at !== -1) {
    out += text.slice(from, at) + REDACTED
    from = at + key.length
    at = findToken(text, key, from)
  }
  return out + text.slice(from)
}

/** `text` scrubbed of each of `keys` in turn. */
export function scrubKeys(text: string, keys: readonly string[]): string {
  let out = text
  for (const key of keys) out = scrubKey(out, key)
  return out
}
