// Shared helpers for the engine integration tests: bounded waits and a capturing logger.
import type { LogFields, Logger } from '../../src/main/services/base/types'

/** Polls `check` every `intervalMs` until it is true or `ms` have passed; whether it was true. */
async function poll(
  check: () => boolean | Promise<boolean>,
  ms: number,
  intervalMs: number,
): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

/** Polls until `predicate` is true; throws with `what` after `timeoutMs` (generous: this is not a timing test). */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<void> {
  if (!(await poll(predicate, timeoutMs, intervalMs))) throw new Error(`timed out waiting for ${what}`)
}

/**
 * Watches for `what` for `ms` and throws as soon as `seen` is true: the bounded window a test gives something that
 * must not happen. Use it only after the same test has seen that thing through the same channel (a positive
 * control), so that a watch which could not see it fails instead of passing for the wrong reason.
 */
export async function never(
  seen: () => boolean | Promise<boolean>,
  what: string,
  ms: number,
  intervalMs = 20,
): Promise<void> {
  if (await poll(seen, ms, intervalMs)) throw new Error(`${what}, within ${ms} ms`)
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

/**
 * `run`'s wall time and the CPU time this process spent meanwhile (user and system, every thread: zlib's
 * work on the libuv pool included). A bound on work done holds on a loaded machine, where a wall-clock bound
 * measures how long the test waited for a core (vitest runs each file in its own process).
 */
export async function cpuTime<T>(
  run: () => Promise<T>,
): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const value = await run()
  const wallMs = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  return { value, cpuMs: (cpu.user + cpu.system) / 1_000, wallMs }
}
