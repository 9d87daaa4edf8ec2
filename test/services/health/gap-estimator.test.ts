// GapEstimator's bookkeeping beyond the rise/fall of liveness.test.ts: the first gap is taken as is, bursts and backwards clocks are not learnt, and restartClock keeps the rhythm but not the gap across it.
import { describe, expect, it } from 'vitest'
import { GapEstimator } from '../../../src/main/services/health/gap-estimator'

describe('GapEstimator', () => {
  it('knows nothing before two arrivals, then takes the first gap as the estimate', () => {
    const g = new GapEstimator()
    expect(g.usualGap()).toBeNull()
    expect(g.lastAt()).toBeNull()
    g.observe(1_000)
    expect(g.usualGap()).toBeNull()
    expect(g.samples()).toBe(0)
    expect(g.lastAt()).toBe(1_000)
    g.observe(1_250)
    expect(g.usualGap()).toBe(250)
    expect(g.samples()).toBe(1)
    expect(g.lastAt()).toBe(1_250)
  })

  it('moves by riseWeight towards a longer gap and by fallWeight towards a shorter one', () => {
    const g = new GapEstimator({ riseWeight: 0.5, fallWeight: 0.1 })
    g.observe(0)
    g.observe(100) // 100
    g.observe(400) // gap 300: 100 + 0.5 × 200
    expect(g.usualGap()).toBe(200)
    g.observe(500) // gap 100: 200 − 0.1 × 100
    expect(g.usualGap()).toBe(190)
    expect(g.samples()).toBe(3)
  })

  it('a burst below minGapMs is not learnt from, but the next gap is measured from it', () => {
    const g = new GapEstimator({ riseWeight: 0.5, minGapMs: 5 })
    g.observe(0)
    g.observe(100)
    g.observe(102) // a 2 ms burst inside one venue write
    expect(g.usualGap()).toBe(100)
    expect(g.samples()).toBe(1)
    g.observe(302) // gap 200 from the burst (not 202 from 100): 100 + 0.5 × 100
    expect(g.usualGap()).toBe(150)
  })

  it('a clock that goes backwards teaches nothing', () => {
    const g = new GapEstimator()
    g.observe(1_000)
    g.observe(1_100)
    g.observe(900)
    expect(g.usualGap()).toBe(100)
    expect(g.samples()).toBe(1)
    expect(g.lastAt()).toBe(900)
  })

  it('restartClock keeps what was learnt; the gap across the restart is not learnt', () => {
    const g = new GapEstimator({ riseWeight: 0.5 })
    g.observe(0)
    g.observe(100)
    // A reconnect a minute later: the silence was the network's, not the source's.
    g.restartClock(60_000)
    expect(g.lastAt()).toBe(60_000)
    expect(g.usualGap()).toBe(100)
    g.observe(60_100)
    expect(g.usualGap()).toBe(100)
    expect(g.samples()).toBe(2)
  })
})
