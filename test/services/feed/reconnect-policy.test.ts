// RetryPolicy on its own: failures escalate a capped full-jitter backoff, a connection that worked is retried
// at once, a flapping venue is not hammered, and Retry-After is honoured within its cap.
import { describe, expect, it } from 'vitest'
import { RetryPolicy } from '../../../src/main/services/feed/reconnect-policy'

function policy(clock: { t: number }, random = () => 1) {
  return new RetryPolicy({
    backoff: { baseMs: 500, capMs: 30_000, stableMs: 30_000 },
    quickRetryMs: 150,
    retryAfterCapMs: 60_000,
    now: () => clock.t,
    random,
  })
}

describe('RetryPolicy', () => {
  it('escalates across failed attempts up to the cap, and resets after a connection that worked', () => {
    const clock = { t: 0 }
    const p = policy(clock, () => 0.999)
    const delays = Array.from({ length: 10 }, () => p.next(true, null))
    expect(delays.slice(0, 4)).toEqual([499, 999, 1998, 3996])
    expect(Math.max(...delays)).toBeLessThan(30_000)
    expect(p.attempt).toBe(10)
    expect(p.worked(5_000, false, true)).toBe(true)
    expect(p.next(false, null)).toBeLessThan(150)
    expect(p.attempt).toBe(0)
  })

  it('an attempt that never opened, opened without a frame, or ended on an oversized frame failed', () => {
    const p = policy({ t: 0 })
    expect(p.worked(null, false, false)).toBe(false)
    expect(p.worked(1_000, false, false)).toBe(false)
    expect(p.worked(1_000, true, true)).toBe(false)
    // An idle link that stayed open past stableMs did work, even without a frame.
    expect(p.worked(31_000, false, false)).toBe(true)
  })

  it('a venue that accepts, sends one frame and hangs up gets five quick retries in 30 s, then backoff', () => {
    const clock = { t: 0 }
    const p = policy(clock)
    const verdicts: boolean[] = []
    for (let i = 0; i < 7; i++) {
      clock.t += 1_000
      verdicts.push(p.worked(200, false, true))
    }
    expect(verdicts).toEqual([true, true, true, true, true, false, false])
    clock.t += 31_000
    expect(p.worked(200, false, true)).toBe(true)
  })

  it('Retry-After is honoured, never shortened by the backoff, and capped', () => {
    const p = policy({ t: 0 }, () => 0.5)
    expect(p.next(true, 2_000)).toBe(2_000)
    expect(p.next(true, 120_000)).toBe(60_000)
    expect(p.next(true, 0)).toBe(1_000)
  })
})
