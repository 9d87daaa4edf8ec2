// "Data paused": the socket is open and its pings answer, yet every watched market has gone quiet. MarketLiveness
// says when every market that has spoken is silent past its own limit, and StatusTracker puts it in the status
// (and tells windows when it starts and ends, though no frame arrives to carry it).
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { StreamState } from '../../../src/main/services/base/types'
import { IncidentLog } from '../../../src/main/services/health/incidents'
import { MarketLiveness } from '../../../src/main/services/health/liveness'
import { STATUS_TICK_MS, StatusTracker } from '../../../src/main/services/health/status'
import { LIVENESS_DEFAULTS } from '../../../src/main/services/health/thresholds'

const trackers: StatusTracker[] = []
afterEach(() => {
  for (const t of trackers.splice(0)) t.close()
  vi.useRealTimers()
})

const OPEN: StreamState = {
  phase: 'open',
  attempt: 0,
  nextRetryAt: null,
  connectedSince: 1,
  usualGapMs: 100,
  silenceLimitMs: 3_000,
}

/** Two markets updating every 100 ms until `until`. */
function streamed(live: MarketLiveness, until: number): void {
  for (let t = 0; t <= until; t += 100) {
    live.observe('m1', t)
    live.observe('m2', t)
  }
}

function rig() {
  const live = new MarketLiveness({ config: LIVENESS_DEFAULTS })
  const world = {
    stream: OPEN as StreamState | undefined,
    silence: null as { since: number; rebuilds: number } | null,
  }
  let changes = 0
  const status = new StatusTracker(
    {
      profileId: () => 'p',
      connectionState: () => 'live',
      stream: () => world.stream,
      authError: () => null,
      rateLimit: () => null,
      counters: () => ({ frames: 0, updates: 0, malformed: 0, unknown: 0, oversized: 0 }),
      unavailable: () => null,
      marketsPaused: () => live.paused(),
      silence: () => world.silence,
    },
    new IncidentLog(
      () => 0,
      () => undefined,
    ),
    () => (changes += 1),
  )
  trackers.push(status)
  return { live, world, status, changes: () => changes }
}

describe('MarketLiveness.paused', () => {
  it('is true only once every market that has spoken is quiet or stale, and ends with any update', () => {
    const live = new MarketLiveness({ config: LIVENESS_DEFAULTS })
    expect(live.paused()).toBe(false)
    streamed(live, 10_000)
    live.observe('m1', 11_000)
    live.check(11_600, () => {})
    // m2 has been silent 1.6 s (quiet), m1 only 0.6 s: one market still speaks.
    expect(live.paused()).toBe(false)
    // m1's one long gap raised its own limit: later, both are silent past theirs.
    live.check(30_000, () => {})
    expect(live.paused()).toBe(true)
    live.observe('m2', 30_100)
    expect(live.paused()).toBe(false)
  })

  it('follows forget, a REST vouch, a new socket and clear', () => {
    const live = new MarketLiveness({ config: LIVENESS_DEFAULTS })
    streamed(live, 10_000)
    live.check(12_000, () => {})
    expect(live.paused()).toBe(true)
    live.vouched('m1', 12_000)
    expect(live.paused()).toBe(false)
    live.forget('m1')
    expect(live.paused()).toBe(true)
    live.restartClocks(12_100)
    expect(live.paused()).toBe(false)
    live.check(14_000, () => {})
    expect(live.paused()).toBe(true)
    live.clear()
    expect(live.paused()).toBe(false)
  })
})

describe('StatusTracker: data paused', () => {
  it('says so while the socket is open and every market is quiet; a frame ends it', () => {
    const r = rig()
    streamed(r.live, 10_000)
    expect(r.status.status().dataPaused).toBeUndefined()
    r.live.check(12_000, () => {})
    expect(r.status.status().dataPaused).toBe(true)
    r.live.observe('m1', 12_100)
    expect(r.status.status().dataPaused).toBeUndefined()
  })

  it('is said through a silence episode until data comes, whatever REST vouched, with the episode named', () => {
    const r = rig()
    streamed(r.live, 10_000)
    // A REST book vouched for every market: the markets are not silent, yet nothing streams behind them.
    r.live.vouched('m1', 12_000)
    r.live.vouched('m2', 12_000)
    r.world.silence = { since: 10_000, rebuilds: 2 }
    expect(r.status.status().dataPaused).toBe(true)
    expect(r.status.status().venueSilent).toEqual({ since: 10_000, rebuilds: 2 })
    // Reconnecting inside the episode: not paused (the connection says what it does), but the episode goes on.
    r.world.stream = { ...OPEN, phase: 'waiting' }
    expect(r.status.status().dataPaused).toBeUndefined()
    expect(r.status.status().venueSilent).toEqual({ since: 10_000, rebuilds: 2 })
    r.world.stream = OPEN
    r.world.silence = null
    expect(r.status.status().dataPaused).toBeUndefined()
    expect(r.status.status().venueSilent).toBeUndefined()
  })

  it('tells windows at once when a verdict or an episode changes the pause, not at the next tick', () => {
    const r = rig()
    streamed(r.live, 10_000)
    const before = r.changes()
    r.status.pauseMaybeChanged()
    expect(r.changes()).toBe(before)
    r.live.check(12_000, () => {})
    r.status.pauseMaybeChanged()
    expect(r.changes()).toBe(before + 1)
    // Said once: the tick that follows has nothing new to say.
    r.status.pauseMaybeChanged()
    expect(r.changes()).toBe(before + 1)
    r.world.silence = { since: 10_000, rebuilds: 1 }
    r.status.silenceChanged()
    expect(r.changes()).toBe(before + 2)
  })

  it('is not said without an open socket (then the connection is what is wrong)', () => {
    const r = rig()
    streamed(r.live, 10_000)
    r.live.check(12_000, () => {})
    r.world.stream = { ...OPEN, phase: 'waiting' }
    expect(r.status.status().dataPaused).toBeUndefined()
    r.world.stream = undefined
    expect(r.status.status().dataPaused).toBeUndefined()
  })

  it('windows hear the pause start and end on the status tick, with no frame to carry it', () => {
    vi.useFakeTimers()
    const r = rig()
    streamed(r.live, 10_000)
    vi.advanceTimersByTime(STATUS_TICK_MS * 2)
    const before = r.changes()
    r.live.check(12_000, () => {})
    vi.advanceTimersByTime(STATUS_TICK_MS)
    expect(r.changes()).toBe(before + 1)
    vi.advanceTimersByTime(STATUS_TICK_MS * 3)
    expect(r.changes()).toBe(before + 1)
    r.live.observe('m2', 12_100)
    vi.advanceTimersByTime(STATUS_TICK_MS)
    expect(r.changes()).toBe(before + 2)
  })
})
