// MarketLiveness and GapEstimator with an injected clock: a market is judged by its own rhythm. A quiet
// trades-only market never raises an alarm; an active one that falls silent is flagged within seconds.
import { describe, expect, it } from 'vitest'
import { GapEstimator, silenceLimit } from '../../../src/main/services/health/gap-estimator'
import { MarketLiveness, type Silence } from '../../../src/main/services/health/liveness'
import { LIVENESS_DEFAULTS } from '../../../src/main/services/health/thresholds'
import { mulberry32 } from '../../../src/sim/rng'

const CHECK_MS = LIVENESS_DEFAULTS.marketCheckMs

function tracker(): MarketLiveness {
  return new MarketLiveness({ config: LIVENESS_DEFAULTS })
}

/** Runs the checker every CHECK_MS from `from` to `to`, collecting what it reports. */
function checkBetween(
  live: MarketLiveness,
  from: number,
  to: number,
  out: Array<{ at: number; market: string; silence: Silence }>,
): void {
  for (let at = from; at <= to; at += CHECK_MS)
    live.check(at, (market, silence) => out.push({ at, market, silence }))
}

describe('GapEstimator', () => {
  it('learns a steady rhythm, rises fast on long gaps and falls slowly on short ones', () => {
    const g = new GapEstimator()
    for (let t = 0; t <= 10_000; t += 100) g.observe(t)
    expect(g.usualGap()).toBeCloseTo(100, 0)
    g.observe(10_000 + 5_000)
    expect(g.usualGap() as number).toBeGreaterThan(2_000)
    const afterLong = g.usualGap() as number
    g.observe(15_000 + 100)
    expect(g.usualGap() as number).toBeGreaterThan(afterLong * 0.9)
  })

  it('only the outer (or warm-up) bound applies until the rhythm is known', () => {
    const limits = { multiple: 4, minMs: 1000, maxMs: 60_000, warmupSamples: 3 }
    expect(silenceLimit(null, 0, limits)).toBe(60_000)
    expect(silenceLimit(100, 2, limits)).toBe(60_000)
    expect(silenceLimit(100, 2, { ...limits, warmupMaxMs: 15_000 })).toBe(15_000)
    expect(silenceLimit(5_000, 3, { ...limits, warmupMaxMs: 15_000 })).toBe(20_000)
    expect(silenceLimit(100, 3, limits)).toBe(1000)
    expect(silenceLimit(5_000, 3, limits)).toBe(20_000)
    expect(silenceLimit(50_000, 3, limits)).toBe(60_000)
  })
})

describe('MarketLiveness', () => {
  it('a trades-only market that trades about once a minute is never stale, and never quiet once its rhythm is known', () => {
    const live = tracker()
    const random = mulberry32(11)
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    let t = 0
    let gaps = 0
    let knownAt = 0
    live.observe('slow', t)
    // Thirty minutes of gaps between 40 and 80 s: the first three minutes are the case, the rest is margin.
    while (t < 30 * 60_000) {
      const next = t + 40_000 + Math.floor(random() * 40_000)
      checkBetween(live, t + CHECK_MS, next - 1, out)
      t = next
      live.observe('slow', t)
      if (++gaps === LIVENESS_DEFAULTS.marketQuiet.warmupSamples) knownAt = t
    }
    // Until three gaps were seen nothing vouches for its rhythm: it may say quiet after the 15 s warm-up bound,
    // never stale; after that, never anything.
    expect(out.filter((o) => o.silence === 'stale')).toEqual([])
    expect(out.filter((o) => o.at > knownAt)).toEqual([])
    expect(knownAt).toBeGreaterThan(0)
    expect(live.usualGap('slow') as number).toBeGreaterThan(40_000)
  })

  it('a market that stalls right after its first update is quiet within 15 s, not 120 s', () => {
    const live = tracker()
    live.observe('new', 0)
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    checkBetween(live, CHECK_MS, 30_000, out)
    expect(out[0]?.silence).toBe('quiet')
    expect(out[0]?.at as number).toBeLessThanOrEqual(LIVENESS_DEFAULTS.marketQuiet.warmupMaxMs as number)
    expect(out[0]?.at as number).toBeGreaterThan(
      (LIVENESS_DEFAULTS.marketQuiet.warmupMaxMs as number) - CHECK_MS,
    )
  })

  it('a market without a rhythm borrows the venue’s: quiet as soon as the whole venue is, not before', () => {
    const live = tracker()
    let t = 0
    for (; t < 10_000; t += 100) live.observe('busy', t)
    // A market heard once, just before the whole venue stops.
    live.observe('new', t)
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    checkBetween(live, t + CHECK_MS, t + 5_000, out)
    const quietNew = out.find((o) => o.market === 'new' && o.silence === 'quiet')
    expect(quietNew?.at as number).toBeLessThanOrEqual(t + 2_000)

    // The same market on a venue that keeps talking: judged by the warm-up bound alone.
    const talking = tracker()
    let u = 0
    for (; u < 10_000; u += 100) talking.observe('busy', u)
    talking.observe('new', u)
    const heard: Array<{ at: number; market: string; silence: Silence }> = []
    for (let at = u + CHECK_MS; at <= u + 20_000; at += CHECK_MS) {
      talking.observe('busy', at)
      talking.check(at, (market, silence) => heard.push({ at, market, silence }))
    }
    const first = heard.find((o) => o.market === 'new')
    expect(first?.silence).toBe('quiet')
    expect(first?.at as number).toBeGreaterThanOrEqual(
      u + (LIVENESS_DEFAULTS.marketQuiet.warmupMaxMs as number),
    )
  })

  it('holds markets at quiet while the venue as a whole is silent, and lets them go stale after', () => {
    const live = tracker()
    let t = 0
    for (; t < 10_000; t += 100) live.observe('busy', t)
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    for (let at = t; at <= t + 30_000; at += CHECK_MS)
      live.check(at, (market, silence) => out.push({ at, market, silence }), true)
    expect(out.map((o) => o.silence)).toEqual(['quiet'])
    live.check(t + 30_000, (market, silence) => out.push({ at: t + 30_000, market, silence }), false)
    expect(out.map((o) => o.silence)).toEqual(['quiet', 'stale'])
  })

  it('an active market that falls silent is quiet within 2 s and stale within 5 s, each reported once', () => {
    const live = tracker()
    let t = 0
    for (; t < 10_000; t += 100) live.observe('busy', t)
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    checkBetween(live, t, t + 30_000, out)
    expect(out.map((o) => o.silence)).toEqual(['quiet', 'stale'])
    const lastUpdate = t - 100
    expect((out[0]?.at as number) - lastUpdate).toBeLessThanOrEqual(2_000)
    expect((out[1]?.at as number) - lastUpdate).toBeLessThanOrEqual(5_000)
  })

  it('an update ends the silence (observe says the market had been reported), and it can be reported again', () => {
    const live = tracker()
    let t = 0
    for (; t < 5_000; t += 100) live.observe('m', t)
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    checkBetween(live, t, t + 2_000, out)
    expect(out.map((o) => o.silence)).toEqual(['quiet'])
    t += 2_000
    expect(live.observe('m', t)).toBe(true)
    expect(live.observe('m', t + 100)).toBe(false)
    // The pause itself was learnt (the usual gap rose), and a few seconds of steady updates bring it back down.
    for (t += 100; t < 20_000; t += 100) live.observe('m', t)
    checkBetween(live, t, t + 3_000, out)
    expect(out.map((o) => o.silence)).toEqual(['quiet', 'quiet'])
  })

  it('a new socket restarts the silence clocks but keeps each market its rhythm', () => {
    const live = tracker()
    let t = 0
    for (; t < 5_000; t += 100) live.observe('m', t)
    const learnt = live.usualGap('m')
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    // 20 s offline: nothing is checked then (the caller checks only while the socket is open).
    live.restartClocks(t + 20_000)
    expect(live.usualGap('m')).toBe(learnt)
    checkBetween(live, t + 20_000, t + 21_000, out)
    expect(out).toEqual([])
    checkBetween(live, t + 21_000, t + 30_000, out)
    expect(out.map((o) => o.silence)).toEqual(['quiet', 'stale'])
  })

  it('a market never heard from is the resync tracker’s business, not liveness', () => {
    const live = tracker()
    const out: Array<{ at: number; market: string; silence: Silence }> = []
    checkBetween(live, 0, 60_000, out)
    expect(out).toEqual([])
    expect(live.usualGap('nobody')).toBeNull()
  })
})
