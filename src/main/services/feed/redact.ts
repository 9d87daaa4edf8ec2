// Strips API keys from the copies of text that leave the engine's memory: the inspector's raw frames, the
// recorder's lines, log lines and the messages shown in windows. The engine never puts a key there itself, but a
// venue may echo one back (an error quoting the key, a user update). Frames are decoded as received, never after
// the scrub, so nothing the scrub does can change what the engine reads (issue 28 §2).
//
// Only keys the venue accepted are known here (credentials/keys.ts adds one once it is verified or loaded from
// the keychain, and removes it when it is replaced, cleared or refused), and a key is replaced only where it is a
// whole token: not inside a longer run of key characters (letters, digits, `-`, `_`). So a key never touches a
// longer identifier that merely contains it. The search is indexOf with boundary checks: linear in the text,
// no pattern is ever built from a key.
import type { LogFields, Logger } from '../base/types'

export const REDACTED = '[redacted]'
/** Bounds the per-frame cost: the keys of this run, most recent first. */
const MAX_SECRETS = 8
/**
 * Shorter strings are never taken as keys. New keys are refused at input below MIN_KEY_LENGTH (shared/ipc.ts);
 * this floor only guards a key stored before that rule.
 */
const MIN_SECRET_LENGTH = 8

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
 * The first index at or after `from` where `secret` occurs as a whole token in `text`, or -1. Edges of the secret
 * that are not key characters need no boundary. Linear: after a candidate inside a run of key characters, the
 * search resumes after that run (no token can start inside it).
 */
export function findToken(text: string, secret: string, from = 0): number {
  const n = secret.length
  if (n === 0) return -1
  const boundedStart = isKeyChar(secret.charCodeAt(0))
  const boundedEnd = isKeyChar(secret.charCodeAt(n - 1))
  let i = text.indexOf(secret, from)
  while (i !== -1) {
    const end = i + n
    const startOk = !boundedStart || i === 0 || !isKeyChar(text.charCodeAt(i - 1))
    const endOk = !boundedEnd || end >= text.length || !isKeyChar(text.charCodeAt(end))
    if (startOk && endOk) return i
    let next = i + 1
    if (boundedStart) while (next < text.length && isKeyChar(text.charCodeAt(next))) next++
    i = text.indexOf(secret, next)
  }
  return -1
}

/** `text` with every whole-token occurrence of `secret` replaced by REDACTED. */
export function redactToken(text: string, secret: string): string {
  let at = findToken(text, secret)
  if (at === -1) return text
  let out = ''
  let from = 0
  while (at !== -1) {
    out += text.slice(from, at) + REDACTED
    from = at + secret.length
    at = findToken(text, secret, from)
  }
  return out + text.slice(from)
}

export class SecretRedactor {
  private secrets: string[] = []

  /** Remember a key the venue accepted (verified, stored, or the simulator's demo key). */
  add(secret: string | null | undefined): void {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return
    const i = this.secrets.indexOf(secret)
    if (i === 0) return
    if (i > 0) this.secrets.splice(i, 1)
    this.secrets.unshift(secret)
    if (this.secrets.length > MAX_SECRETS) this.secrets.length = MAX_SECRETS
  }

  /** Forget a key: it was replaced, cleared or refused. */
  remove(secret: string | null | undefined): void {
    if (typeof secret !== 'string') return
    const i = this.secrets.indexOf(secret)
    if (i >= 0) this.secrets.splice(i, 1)
  }

  /** Whether the key is one this redactor scrubs. */
  knows(secret: string): boolean {
    return this.secrets.includes(secret)
  }

  get active(): boolean {
    return this.secrets.length > 0
  }

  /** The hot-path check: one token search per known key. */
  contains(text: string): boolean {
    for (const s of this.secrets) if (findToken(text, s) !== -1) return true
    return false
  }

  redact(text: string): string {
    let out = text
    for (const s of this.secrets) out = redactToken(out, s)
    return out
  }

  /**
   * A copy of a decoded value (plain JSON: objects, arrays, strings, numbers…) with every string scrubbed, for a
   * frame that carried a key. Iterative, so a deeply nested value cannot overflow the stack.
   */
  scrubValue<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T
    if (typeof value !== 'object' || value === null) return value
    const holder: unknown[] = [undefined]
    const stack: { from: unknown; into: unknown[] | Record<string, unknown>; key: number | string }[] = [
      { from: value, into: holder, key: 0 },
    ]
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      const { from, into, key } = item
      let copy: unknown
      if (typeof from === 'string') copy = this.redact(from)
      else if (Array.isArray(from)) {
        const arr: unknown[] = new Array<unknown>(from.length)
        for (let i = 0; i < from.length; i++) stack.push({ from: from[i] as unknown, into: arr, key: i })
        copy = arr
      } else if (typeof from === 'object' && from !== null) {
        const obj: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(from)) stack.push({ from: v, into: obj, key: this.redact(k) })
        copy = obj
      } else copy = from
      if (Array.isArray(into)) into[key as number] = copy
      // Defined, not assigned: a `__proto__` field of the frame stays a plain field of the copy.
      else
        Object.defineProperty(into, key, {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        })
    }
    return holder[0] as T
  }

  /** A logger whose messages and string fields never carry a known key. */
  wrapLogger(logger: Logger): Logger {
    const clean = (fields: LogFields | undefined): LogFields | undefined => {
      if (!fields || !this.active) return fields
      let copy: LogFields | undefined
      for (const [k, v] of Object.entries(fields)) {
        if (typeof v === 'string' && this.contains(v)) {
          copy ??= { ...fields }
          copy[k] = this.redact(v)
        }
      }
      return copy ?? fields
    }
    const line =
      (write: (message: string, fields?: LogFields) => void) =>
      (message: string, fields?: LogFields): void => {
        const m = this.redact(message)
        const f = clean(fields)
        if (f === undefined) write(m)
        else write(m, f)
      }
    return {
      info: line((m, f) => logger.info(m, f)),
      warn: line((m, f) => logger.warn(m, f)),
      error: line((m, f) => logger.error(m, f)),
    }
  }
}
