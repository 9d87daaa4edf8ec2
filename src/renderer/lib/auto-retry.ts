// When a failed read tries again by itself. A read (never an order: the engine does not retry a POST) that met a
// rate limit waits what the venue asked; one that met a passing fault (the network, a timeout, a server error, a
// body the app could not read) waits longer after each failure. What only the user can mend (the key, its
// permissions, the IP list, the keychain) waits for the user.
import type { ApiError } from '../../shared/model'

/** The wait after the first passing fault; it doubles per failure up to AUTO_RETRY_MAX_MS. */
export const AUTO_RETRY_FIRST_MS = 2_000
export const AUTO_RETRY_MAX_MS = 60_000
/** A Retry-After is followed, but within these bounds (a venue's 0 or an hour would spin or strand the list). */
export const RETRY_AFTER_MIN_MS = 1_000
export const RETRY_AFTER_MAX_MS = 5 * 60_000
/** A 429 without Retry-After. */
const RATE_LIMITED_DEFAULT_MS = 5_000

/** How long to wait before trying the read again by itself after its `failures`-th failure in a row, or null. */
export function autoRetryDelayMs(error: ApiError, failures: number): number | null {
  switch (error.code) {
    case 'rate_limited': {
      const asked = error.retryAfterMs ?? RATE_LIMITED_DEFAULT_MS
      return Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, asked))
    }
    case 'network':
    case 'timeout':
    case 'server':
    case 'bad_response':
      return Math.min(AUTO_RETRY_MAX_MS, AUTO_RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1))
    default:
      return null
  }
}
