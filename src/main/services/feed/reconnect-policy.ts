// When the stream tries again after a socket ends (DESIGN §4 "Reconnect"): attempts that failed escalate a
// full-jitter exponential backoff; a connection that worked is retried at once, because the venue was reachable
// a moment ago and waiting only lengthens the gap in the books. A refusal's Retry-After is honoured.
export interface BackoffOptions {
  baseMs: number
  capMs: number
  /** A connection open this long resets the attempt counter, even if it delivered no frame (an idle link). */
  stableMs: number
}

/**
 * A venue that accepts, sends a frame (an error, a greeting) and hangs up looks like a working connection every
 * time. More than this many quick retries within backoff.stableMs and the backoff applies again, so such a
 * server is never hammered several times a second.
 */
const MAX_QUICK_RETRIES = 5

/** Full-jitter exponential backoff: random() * min(cap, base * 2^attempt). */
export function backoffDelay(attempt: number, backoff: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.min(attempt, 30))
  return Math.floor(random() * ceiling)
}

export interface RetryPolicyOptions {
  backoff: BackoffOptions
  /** After a connection that worked: the next attempt within random() × this (ms). */
  quickRetryMs: number
  /** Retry-After is honoured up to this (ms). */
  retryAfterCapMs: number
  now(): number
  random(): number
}

export class RetryPolicy {
  /** Consecutive failed attempts since the last connection that worked. */
  attempt = 0
  /** When the recent quick retries happened (at most MAX_QUICK_RETRIES, pruned to the last stableMs). */
  private quickRetries: number[] = []

  constructor(private readonly o: RetryPolicyOptions) {}

  /** Whether the socket that just ended counts as a working connection (quick retry) or a failed attempt. */
  worked(openForMs: number | null, oversized: boolean, delivered: boolean): boolean {
    if (openForMs === null) return false
    // A frame over the limit comes back on every reconnect: escalate rather than loop on it.
    if (oversized) return false
    if (!delivered && openForMs < this.o.backoff.stableMs) return false
    const t = this.o.now()
    this.quickRetries = this.quickRetries.filter((at) => t - at < this.o.backoff.stableMs)
    if (this.quickRetries.length >= MAX_QUICK_RETRIES) return false
    this.quickRetries.push(t)
    return true
  }

  /** The delay before the next attempt (ms); counts the failure, or resets the count after a success. */
  next(failed: boolean, retryAfterMs: number | null): number {
    if (!failed) {
      this.attempt = 0
      return Math.floor(this.o.random() * this.o.quickRetryMs)
    }
    let delay = backoffDelay(this.attempt, this.o.backoff, this.o.random)
    // Never sooner than the backoff says, never sooner than the server asked.
    if (retryAfterMs !== null) delay = Math.max(delay, Math.min(retryAfterMs, this.o.retryAfterCapMs))
    this.attempt += 1
    return delay
  }

  /** A connection has stayed open long enough to count as stable. */
  stable(): void {
    this.attempt = 0
  }

  /** reconnectNow(): start afresh. */
  reset(): void {
    this.attempt = 0
    this.quickRetries = []
  }
}
