// Learns how long a stream of arrivals (one market, or the whole connection) usually goes between updates, so
// silence can be judged against the source's own rhythm instead of one global timeout (DESIGN §4 "Liveness").
//
// The estimate tracks the long gaps more than the short ones: it rises fast when a gap is longer than the
// estimate and falls slowly when it is shorter. A bursty source (five frames at once, then a minute of nothing)
// is therefore judged by its minute, not by its bursts, which is what keeps a quiet market from false alarms.

export interface GapEstimatorOptions {
  /** Weight of a gap longer than the estimate (0..1]. */
  riseWeight?: number
  /** Weight of a gap shorter than the estimate (0..1]. */
  fallWeight?: number
  /** Gaps below this are bursts inside one venue write and are not learnt from (ms). */
  minGapMs?: number
}

export class GapEstimator {
  private readonly rise: number
  private readonly fall: number
  private readonly minGap: number
  private last: number | null = null
  private estimate: number | null = null
  private count = 0

  constructor(options: GapEstimatorOptions = {}) {
    this.rise = options.riseWeight ?? 0.5
    this.fall = options.fallWeight ?? 0.05
    this.minGap = options.minGapMs ?? 1
  }

  /** One arrival at `at` (ms). */
  observe(at: number): void {
    const last = this.last
    this.last = at
    if (last === null) return
    const gap = at - last
    if (!(gap >= this.minGap)) return
    this.count++
    const e = this.estimate
    if (e === null) this.estimate = gap
    else this.estimate = e + (gap > e ? this.rise : this.fall) * (gap - e)
  }

  /** The usual gap (ms), or null before the first gap was seen. */
  usualGap(): number | null {
    return this.estimate
  }

  /** Gaps learnt from so far. */
  samples(): number {
    return this.count
  }

  /** When the last arrival was, or null before any. */
  lastAt(): number | null {
    return this.last
  }

  /** Forget the arrival clock (a reconnect: the gap across it says nothing of the source) but keep what was learnt. */
  restartClock(at: number): void {
    this.last = at
  }
}

/** How long a silence may last before it is suspicious: `multiple` × the usual gap, within [min, max]. */
export function silenceLimit(
  usualGap: number | null,
  samples: number,
  limits: { multiple: number; minMs: number; maxMs: number; warmupSamples: number; warmupMaxMs?: number },
): number {
  // Until a few gaps have been seen nothing is known of the rhythm: only the outer (or warm-up) bound applies.
  if (usualGap === null || samples < limits.warmupSamples) return limits.warmupMaxMs ?? limits.maxMs
  return Math.min(limits.maxMs, Math.max(limits.minMs, limits.multiple * usualGap))
}
