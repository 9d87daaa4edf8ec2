// What the exchange says about its rate limit: X-RateLimit-* / IETF RateLimit-* headers, and Retry-After
// on a 429. Kept apart from the REST client so the parsing is testable on its own.
import type { RateLimitInfo } from '../../../shared/model'

/** Header lookup as fetch's Headers provides it (case-insensitive). */
export interface HeaderSource {
  get(name: string): string | null
}

/** Longest we hold requests back for one 429, whatever the server says (guards clock skew and typos). */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000
/** Used when a 429 names no Retry-After and no reset time. */
export const DEFAULT_RETRY_AFTER_MS = 5_000

function leadingNumber(v: string | null): number | null {
  if (v === null) return null
  // Draft IETF values may carry parameters: "100, 100;w=60".
  const m = /^\s*(\d+(?:\.\d+)?)/.exec(v)
  return m && m[1] !== undefined ? Number(m[1]) : null
}

/** Reset is epoch seconds or delta seconds (IETF); values below 1e9 can only be deltas. */
function resetToEpochMs(value: number, now: number): number {
  if (value < 1e9) return now + value * 1000
  if (value < 1e11) return value * 1000
  return value
}

/** Structured-field form `RateLimit: limit=100, remaining=50, reset=5` or `"default";r=50;t=30`. */
function combined(v: string | null): {
  limit: number | null
  remaining: number | null
  reset: number | null
} {
  const out = { limit: null as number | null, remaining: null as number | null, reset: null as number | null }
  if (v === null) return out
  for (const part of v.split(/[;,]/)) {
    const m = /^\s*([a-z]+)\s*=\s*(\d+(?:\.\d+)?)\s*$/i.exec(part)
    if (!m || m[1] === undefined || m[2] === undefined) continue
    const key = m[1].toLowerCase()
    const n = Number(m[2])
    if (key === 'limit' || key === 'l' || key === 'q') out.limit = n
    else if (key === 'remaining' || key === 'r') out.remaining = n
    else if (key === 'reset' || key === 't') out.reset = n
  }
  return out
}

/** Rate-limit headers of a response, or null when it carried none. `blockedUntil` is left to the caller. */
export function parseRateLimitHeaders(headers: HeaderSource, now: number): RateLimitInfo | null {
  const c = combined(headers.get('ratelimit'))
  const limit =
    leadingNumber(headers.get('x-ratelimit-limit')) ??
    leadingNumber(headers.get('ratelimit-limit')) ??
    c.limit
  const remaining =
    leadingNumber(headers.get('x-ratelimit-remaining')) ??
    leadingNumber(headers.get('ratelimit-remaining')) ??
    c.remaining
  const reset =
    leadingNumber(headers.get('x-ratelimit-reset')) ??
    leadingNumber(headers.get('ratelimit-reset')) ??
    c.reset
  if (limit === null && remaining === null && reset === null) return null
  return {
    limit,
    remaining,
    resetAt: reset === null ? null : resetToEpochMs(reset, now),
    blockedUntil: null,
    observedAt: now,
  }
}

/** Retry-After as delay-seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null
  const v = value.trim()
  if (/^\d+(\.\d+)?$/.test(v)) return clampDelay(Number(v) * 1000)
  const date = Date.parse(v)
  return Number.isFinite(date) ? clampDelay(date - now) : null
}

function clampDelay(ms: number): number {
  return Math.min(Math.max(0, Math.ceil(ms)), MAX_RETRY_AFTER_MS)
}

/**
 * How long to hold requests back after a 429: Retry-After, else the announced reset, else a default.
 * Never negative, never more than MAX_RETRY_AFTER_MS.
 */
export function blockDelayMs(
  headers: HeaderSource,
  info: RateLimitInfo | null,
  now: number,
  /** A body's own wait in seconds (VoxFi's `retry_after`), used when no Retry-After header came. */
  bodySeconds: number | null = null,
): number {
  const retryAfter = parseRetryAfter(headers.get('retry-after'), now)
  if (retryAfter !== null) return retryAfter
  if (bodySeconds !== null) return clampDelay(bodySeconds * 1000)
  if (info?.resetAt != null && info.resetAt > now) return clampDelay(info.resetAt - now)
  return DEFAULT_RETRY_AFTER_MS
}
