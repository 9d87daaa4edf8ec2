// Strips API keys from text bound for a window or a log line. The engine never puts a key there itself, but
// a venue may echo one back (an error quoting the rejected key, a raw frame in the inspector); whatever the
// exchange sends is scrubbed before it is decoded, so every view built from it is clean too.
import type { LogFields, Logger } from '../base/types'

export const REDACTED = '[redacted]'
/** Bounds the per-frame cost: the keys of this run, most recent first. */
const MAX_SECRETS = 8
/** Shorter strings would match ordinary text; no real key is this short. */
const MIN_SECRET_LENGTH = 6

export class SecretRedactor {
  private secrets: string[] = []

  /** Remember a key the engine handled (stored, verified, sent). */
  add(secret: string | null | undefined): void {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return
    const i = this.secrets.indexOf(secret)
    if (i === 0) return
    if (i > 0) this.secrets.splice(i, 1)
    this.secrets.unshift(secret)
    if (this.secrets.length > MAX_SECRETS) this.secrets.length = MAX_SECRETS
  }

  get active(): boolean {
    return this.secrets.length > 0
  }

  /** The hot-path check: one substring search per known key. */
  contains(text: string): boolean {
    for (const s of this.secrets) if (text.includes(s)) return true
    return false
  }

  redact(text: string): string {
    let out = text
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED)
    return out
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
        const m = this.active && this.contains(message) ? this.redact(message) : message
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
