// Shared helpers for the engine integration tests: bounded waits and a capturing logger.
import type { LogFields, Logger } from '../../src/main/services/base/types'

/** Polls until `predicate` is true; throws with `what` after `timeoutMs` (generous: this is not a timing test). */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await predicate()) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

export interface CapturedLog {
  logger: Logger
  lines: string[]
}

/** A logger that keeps every line (message and fields, serialised) for leak checks. */
export function captureLogger(echo = false): CapturedLog {
  const lines: string[] = []
  const push = (level: string) => (message: string, fields?: LogFields) => {
    const line = `${level} ${message} ${fields ? JSON.stringify(fields) : ''}`
    lines.push(line)
    if (echo) console.log(line)
  }
  return { lines, logger: { info: push('info'), warn: push('warn'), error: push('error') } }
}
