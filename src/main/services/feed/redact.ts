// Strips API keys from the copies of text that leave the engine's memory: the inspector's raw frames, the
// recorder's lines, log lines and the messages shown in windows. The engine never puts a key there itself, but a
// venue may echo one back (an error quoting the key, a user update). Frames are decoded as received, never after
// the scrub, so nothing the scrub does can change what the engine reads (issue 28 §2). How a key is found and
// replaced, and what counts as a key, is the one rule of base/key-scrub.ts.
//
// Every well-formed key the engine was handed is scrubbed for the rest of the run (credentials/keys.ts): the
// keys in use (each profile's stored key, the demo key) for as long as they are used, and the others, entered
// and refused (for its IP: 403 or 4001, or 401), replaced or cleared, among the most recent few. A refused key
// may still be a real key, and a mistyped one is most of one.
import type { LogFields, Logger } from '../base/types'
import { findToken, scrubKeys } from '../base/key-scrub'
import { isWellFormedKey } from '../../../shared/api-key'

/** Bounds the per-frame cost: the keys no longer in use that are still scrubbed, most recent first. */
const MAX_FORMER_KEYS = 8

export class SecretRedactor {
  /** Keys in use: never let go while they are. */
  private readonly inUse: string[] = []
  /** Keys entered and refused, replaced or cleared: still real keys, most recent first. */
  private former: string[] = []

  /** A key the engine uses (a profile's stored key, the demo key): scrubbed at least until released. */
  add(key: string | null | undefined): void {
    if (!isWellFormedKey(key)) return
    this.dropFormer(key)
    if (!this.inUse.includes(key)) this.inUse.push(key)
  }

  /** A key handed to the engine but not used (entered and refused): scrubbed among the most recent former keys. */
  remember(key: string | null | undefined): void {
    if (!isWellFormedKey(key) || this.inUse.includes(key)) return
    this.dropFormer(key)
    this.former.unshift(key)
    if (this.former.length > MAX_FORMER_KEYS) this.former.length = MAX_FORMER_KEYS
  }

  /** A key no longer used (replaced, cleared): still scrubbed, now among the former keys. */
  release(key: string | null | undefined): void {
    if (typeof key !== 'string') return
    const i = this.inUse.indexOf(key)
    if (i === -1) return
    this.inUse.splice(i, 1)
    this.remember(key)
  }

  /** Whether the key is one this redactor scrubs. */
  knows(key: string): boolean {
    return this.inUse.includes(key) || this.former.includes(key)
  }

  get active(): boolean {
    return this.inUse.length > 0 || this.former.length > 0
  }

  /** The hot path's check: one token search per known key. */
  contains(text: string): boolean {
    for (const k of this.inUse) if (findToken(text, k) !== -1) return true
    for (const k of this.former) if (findToken(text, k) !== -1) return true
    return false
  }

  redact(text: string): string {
    return scrubKeys(scrubKeys(text, this.inUse), this.former)
  }

  private dropFormer(key: string): void {
    const i = this.former.indexOf(key)
    if (i >= 0) this.former.splice(i, 1)
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
