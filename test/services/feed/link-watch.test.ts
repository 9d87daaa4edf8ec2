// LinkWatch with fake timers: pings at the active or idle interval, a missing pong or a failing ping ends the link, data silence past the limit ends it while data is expected and never while idle, and it reports once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LinkWatch, type LinkWatchOptions } from '../../../src/main/services/feed/link-watch'
import { GapEstimator } from '../../../src/main/services/health/gap-estimator'

beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})
afterEach(() => {
  vi.useRealTimers()
})

function rig(patch: Partial<LinkWatchOptions> = {}, expects = true) {
  const w = { expects, pings: 0, dead: [] as string[], gaps: new GapEstimator(), limit: 1_000 }
  w.gaps.restartClock(Date.now())
  const watch = new LinkWatch({
    ping: () => void w.pings++,
    now: () => Date.now(),
    expectsData: () => w.expects,
    pingIntervalMs: 2_000,
    idlePingIntervalMs: 15_000,
    pongTimeoutMs: 500,
    gaps: w.gaps,
    silenceLimit: () => w.limit,
    onDead: (cause, error) => void w.dead.push(`${cause}: ${error}`),
    ...patch,
  })
  /** Data arrives every `every` ms for `forMs` ms (as the stream feeds the estimator). */
  const flow = (forMs: number, every = 100) => {
    for (let t = 0; t < forMs; t += every) {
      vi.advanceTimersByTime(every)
      w.gaps.observe(Date.now())
    }
  }
  return { w, watch, flow }
}

describe('LinkWatch', () => {
  it('pings at the active interval while answered, and ends the link when a pong does not come in time', () => {
    const r = rig()
    r.flow(2_000)
    expect(r.w.pings).toBe(1)
    r.watch.pong()
    r.flow(2_000)
    expect(r.w.pings).toBe(2)
    // No pong this time: the link is dead once the pong timeout runs out, though data still flows.
    r.flow(400)
    expect(r.w.dead).toEqual([])
    r.flow(100)
    expect(r.w.dead).toEqual(['ping-timeout: no pong within 500 ms'])
  })

  it('a ping that throws ends the link at once with cause error', () => {
    const r = rig({
      ping: () => {
        throw new Error('socket not open')
      },
    })
    r.flow(2_000)
    expect(r.w.dead).toEqual(['error: ping failed: Error: socket not open'])
  })

  it('data silence past the limit ends the link while data is expected', () => {
    const r = rig()
    r.flow(500)
    vi.advanceTimersByTime(900)
    expect(r.w.dead).toEqual([])
    vi.advanceTimersByTime(250)
    expect(r.w.dead).toHaveLength(1)
    expect(r.w.dead[0]).toMatch(/^silence: no data for 1\d{3} ms \(limit 1000 ms\)$/)
  })

  it('without subscriptions silence is expected, and the idle time is not counted once data is expected again', () => {
    const r = rig({}, false)
    vi.advanceTimersByTime(10_000)
    expect(r.w.dead).toEqual([])
    expect(r.w.pings).toBe(0)
    r.w.expects = true
    vi.advanceTimersByTime(500)
    expect(r.w.dead).toEqual([])
  })

  it('pings at the idle interval without subscriptions, and brings the ping forward when they appear', () => {
    const r = rig({}, false)
    vi.advanceTimersByTime(15_000)
    expect(r.w.pings).toBe(1)
    r.watch.pong()
    vi.advanceTimersByTime(3_000)
    r.w.expects = true
    r.flow(300)
    // The idle ping was armed 3 s ago: at the active interval it is overdue, so it goes at the next check,
    // not 12 s later.
    expect(r.w.pings).toBe(2)
  })

  it('an unsolicited pong arms no second ping; after stop, or once dead, nothing more happens', () => {
    const r = rig()
    r.watch.pong()
    r.watch.pong()
    r.flow(2_000)
    expect(r.w.pings).toBe(1)
    r.watch.stop()
    vi.advanceTimersByTime(60_000)
    expect(r.w.dead).toEqual([])
    expect(r.w.pings).toBe(1)
    expect(vi.getTimerCount()).toBe(0)
  })
})
