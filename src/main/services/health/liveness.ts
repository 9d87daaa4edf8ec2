// Per-market liveness: learns each market's usual update gap from its own traffic and flags a market whose
// silence outlasts it, first `quiet` (maybe behind) and then `stale` (resync it). A market that trades once a
// minute is judged by its minute, an active one by its milliseconds, so neither raises false alarms nor hides a
// dead feed (DESIGN §4 "Liveness, adaptive"). The connection itself is watched by the stream.
import { GapEstimator, silenceLimit } from './gap-estimator'
import type { LivenessConfig } from './thresholds'

export type Silence = 'quiet' | 'stale'

interface MarketClock {
  gaps: GapEstimator
  /** The last verdict reported, so each is reported once per silence. */
  verdict: Silence | null
}

export interface MarketLivenessOptions {
  config: Pick<LivenessConfig, 'marketQuiet' | 'marketStale'>
}

export class MarketLiveness {
  private readonly clocks = new Map<string, MarketClock>()
  /** How many clocks have a verdict (quiet or stale): paused() without a scan. */
  private silent = 0
  /** The venue's own rhythm: every market's updates together, which a market still warming up borrows. */
  private venue = new GapEstimator()

  constructor(private readonly options: MarketLivenessOptions) {}

  /**
   * An update for `market` arrived (hot path: one map lookup and a few arithmetic operations). True when the
   * market had been reported silent, so the caller can lift its quiet mark.
   */
  observe(market: string, at: number): boolean {
    let clock = this.clocks.get(market)
    if (clock === undefined) {
      clock = { gaps: new GapEstimator(), verdict: null }
      this.clocks.set(market, clock)
    }
    clock.gaps.observe(at)
    this.venue.observe(at)
    if (clock.verdict === null) return false
    clock.verdict = null
    this.silent -= 1
    return true
  }

  /**
   * The venue's REST vouched for the market's book as of `at` (rest-books.ts): its silence counts from then, and
   * no gap is learnt from it (REST answering is not the market's rhythm).
   */
  vouched(market: string, at: number): void {
    let clock = this.clocks.get(market)
    if (clock === undefined) {
      clock = { gaps: new GapEstimator(), verdict: null }
      this.clocks.set(market, clock)
    }
    const last = clock.gaps.lastAt()
    if (last === null || at > last) clock.gaps.restartClock(at)
    if (clock.verdict !== null) this.silent -= 1
    clock.verdict = null
  }

  /**
   * Every market that has spoken is silent past its own quiet limit (or stale): the data has paused, whatever
   * the connection's pings say. False while no market has spoken yet.
   */
  paused(): boolean {
    return this.clocks.size > 0 && this.silent === this.clocks.size
  }

  usualGap(market: string): number | null {
    return this.clocks.get(market)?.gaps.usualGap() ?? null
  }

  /** When any market last spoke (null before any did, or the time of the last new socket since). */
  lastDataAt(): number | null {
    return this.venue.lastAt()
  }

  /**
   * Reports each market whose silence has just crossed its quiet or stale limit. `holdStale`: the venue as a
   * whole is silent and the connection is rebuilt for it (health/venue-silence.ts), so one market's silence says
   * nothing against that market: it stays quiet rather than being resynced on its own.
   */
  check(now: number, report: (market: string, silence: Silence) => void, holdStale = false): void {
    const quiet = this.options.config.marketQuiet
    const venueQuiet = this.venueQuiet(now)
    for (const [market, clock] of this.clocks) {
      if (clock.verdict === 'stale') continue
      const last = clock.gaps.lastAt()
      if (last === null) continue
      const silent = now - last
      const { quietMs, staleMs } = this.limitsOf(clock)
      if (silent >= staleMs && !holdStale) {
        if (clock.verdict === null) this.silent += 1
        clock.verdict = 'stale'
        report(market, 'stale')
      } else if (
        clock.verdict === null &&
        (silent >= quietMs ||
          // No rhythm of its own yet: the market borrows the venue's, so a stall right after its first update
          // shows as soon as the venue is quiet, not only at the warm-up bound.
          (venueQuiet && clock.gaps.samples() < quiet.warmupSamples && silent >= quiet.minMs))
      ) {
        this.silent += 1
        clock.verdict = 'quiet'
        report(market, 'quiet')
      }
    }
  }

  /**
   * A new socket: silence is measured from now (the time across a reconnect says nothing of a market's
   * rhythm), and what was reported before is forgotten, while each market's learnt rhythm is kept.
   */
  restartClocks(at: number): void {
    for (const clock of this.clocks.values()) {
      clock.gaps.restartClock(at)
      clock.verdict = null
    }
    this.venue.restartClock(at)
    this.silent = 0
  }

  forget(market: string): void {
    const clock = this.clocks.get(market)
    if (clock === undefined) return
    if (clock.verdict !== null) this.silent -= 1
    this.clocks.delete(market)
  }

  clear(): void {
    this.clocks.clear()
    this.venue = new GapEstimator()
    this.silent = 0
  }

  /** Whether the venue as a whole has been silent past its own quiet limit (warm-up bound until known). */
  private venueQuiet(now: number): boolean {
    const last = this.venue.lastAt()
    if (last === null) return false
    const limit = silenceLimit(this.venue.usualGap(), this.venue.samples(), this.options.config.marketQuiet)
    return now - last >= limit
  }

  private limitsOf(clock: MarketClock): { quietMs: number; staleMs: number } {
    const usual = clock.gaps.usualGap()
    const samples = clock.gaps.samples()
    return {
      quietMs: silenceLimit(usual, samples, this.options.config.marketQuiet),
      staleMs: silenceLimit(usual, samples, this.options.config.marketStale),
    }
  }
}

/** Checks market silence every `checkMs` while the socket is open (a closed socket has its own states). */
export function watchLiveness(
  liveness: MarketLiveness,
  options: {
    checkMs: number
    now(): number
    isOpen(): boolean
    onSilence(market: string, silence: Silence): void
    /** The venue is silent as a whole (a silence episode): hold markets at quiet. */
    holdStale?(): boolean
    /** After a check that reported a verdict: whether the data is paused may have changed. */
    reported?(): void
  },
): () => void {
  let reports = 0
  const onSilence = (market: string, silence: Silence): void => {
    reports++
    options.onSilence(market, silence)
  }
  const timer = setInterval(() => {
    if (!options.isOpen()) return
    reports = 0
    liveness.check(options.now(), onSilence, options.holdStale?.() === true)
    if (reports > 0) options.reported?.()
  }, options.checkMs)
  timer.unref()
  return () => clearInterval(timer)
}
