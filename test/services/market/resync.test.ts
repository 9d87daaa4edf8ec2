// ResyncTracker on its own, with an injected clock: every wanted book without a snapshot is chased with backoff
// until one arrives, escalates to one reconnect on a healthy connection, and ends its incident with the time;
// a market the venue never says a word of is marked unknown after a bounded number of requests and left alone.
import { afterEach, describe, expect, it } from 'vitest'
import { BookStore } from '../../../src/main/services/market/books'
import { IncidentLog } from '../../../src/main/services/health/incidents'
import { RESYNC_DEFAULTS } from '../../../src/main/services/health/thresholds'
import { ResyncTracker } from '../../../src/main/services/market/resync'
import { UNKNOWN_MARKET } from '../../../src/shared/model'
import { captureLogger } from '../helpers'

interface Rig {
  tracker: ResyncTracker
  books: BookStore
  incidents: IncidentLog
  clock: { t: number }
  wanted: Set<string>
  resubscribed: string[][]
  reconnects: string[]
  open: { value: boolean }
  flowing: { value: boolean }
  listed: Set<string>
  fetched: string[][]
}

const trackers: ResyncTracker[] = []
afterEach(() => {
  for (const t of trackers.splice(0)) t.close()
})

function rig(): Rig {
  const clock = { t: 1_000_000 }
  const books = new BookStore()
  const incidents = new IncidentLog(
    () => clock.t,
    () => {},
  )
  const wanted = new Set<string>()
  const resubscribed: string[][] = []
  const reconnects: string[] = []
  const open = { value: true }
  const flowing = { value: true }
  const listed = new Set<string>()
  const fetched: string[][] = []
  const tracker = new ResyncTracker({
    // The timer never fires in these tests: time moves only through tick().
    config: { ...RESYNC_DEFAULTS, checkMs: 1e9 },
    now: () => clock.t,
    random: () => 0.5,
    books,
    incidents,
    log: captureLogger().logger,
    wantedBooks: () => wanted,
    wantsBook: (m) => wanted.has(m),
    listed: (m) => listed.has(m),
    fetchSnapshots: (markets) => fetched.push([...markets]),
    resubscribe: (markets) => resubscribed.push([...markets]),
    streamOpen: () => open.value,
    dataFlowing: () => flowing.value,
    reconnect: (reason) => reconnects.push(reason),
    bookChanged: () => {},
  })
  trackers.push(tracker)
  return {
    tracker,
    books,
    incidents,
    clock,
    wanted,
    resubscribed,
    reconnects,
    open,
    flowing,
    listed,
    fetched,
  }
}

/** Advance the clock in steps of `step` ms up to `ms`, ticking at each. */
function run(r: Rig, ms: number, step = 50): void {
  for (let elapsed = 0; elapsed < ms; elapsed += step) {
    r.clock.t += step
    r.tracker.tick()
  }
}

function snapshot(r: Rig, market: string): void {
  r.books.apply(
    { kind: 'book', market, snapshot: true, bids: [[0.4, 10]], asks: [[0.6, 10]], seq: 1 },
    r.clock.t,
  )
  r.tracker.satisfied(market)
}

describe('ResyncTracker', () => {
  it('chases a wanted book that never got its first snapshot, with growing gaps, until one arrives', () => {
    const r = rig()
    r.wanted.add('m1')
    r.tracker.tick()
    expect(r.tracker.attempt('m1')).toBe(1)
    const requestTimes: number[] = []
    for (let i = 0; i < 400 && requestTimes.length < 4; i++) {
      const before = r.resubscribed.length
      run(r, 50)
      if (r.resubscribed.length > before) requestTimes.push(r.clock.t)
    }
    expect(requestTimes).toHaveLength(4)
    const gaps = requestTimes.slice(1).map((t, i) => t - (requestTimes[i] as number))
    // base 750 ms doubling: 1.5 s, 3 s, 6 s (random 0.5 means no jitter)
    expect(gaps[0]).toBeGreaterThan(1400)
    expect(gaps[1]).toBeGreaterThan(gaps[0] as number)
    expect(gaps[2]).toBeGreaterThan(gaps[1] as number)
    expect(r.books.bookView('m1', 5)?.state).toBe('resyncing')
    expect(r.books.bookView('m1', 5)?.resyncAttempt).toBe(r.tracker.attempt('m1'))
    const incident = r.incidents.list().find((i) => i.kind === 'resync' && i.market === 'm1')
    expect(incident?.endedAt).toBeNull()

    r.clock.t += 1234
    snapshot(r, 'm1')
    expect(r.tracker.attempt('m1')).toBeNull()
    const ended = r.incidents.list().find((i) => i.id === incident?.id)
    expect(ended?.endedAt).toBe(r.clock.t)
    expect(ended?.detail).toMatch(/live again after \d+\.\d s \(\d+ requests\)/)
    const count = r.resubscribed.length
    run(r, 20_000)
    expect(r.resubscribed.length).toBe(count)
  })

  it('never gives up: the gap between requests is capped, and it keeps asking', () => {
    const r = rig()
    r.wanted.add('m1')
    r.flowing.value = false
    run(r, 120_000, 100)
    const attempts = r.tracker.attempt('m1') ?? 0
    // 0.75 + 1.5 + 3 + 6 s, then every 8 s: about 15 requests in two minutes.
    expect(attempts).toBeGreaterThanOrEqual(12)
    // Every attempt after the first (the subscription itself) went out as a resubscribe.
    expect(r.resubscribed).toHaveLength(attempts - 1)
    expect(r.reconnects).toHaveLength(0)
  })

  it('rebuilds the connection once when a flowing connection never answers, then only asks again', () => {
    const r = rig()
    r.wanted.add('m1')
    // The venue knows the market (it sent its book once): it is chased for good, never marked unknown.
    snapshot(r, 'm1')
    r.tracker.need('m1', 'gap')
    run(r, 20_000)
    expect(r.reconnects).toHaveLength(1)
    expect(r.tracker.attempt('m1')).toBeGreaterThan(RESYNC_DEFAULTS.attemptsBeforeReconnect)
    r.tracker.connected()
    const sent = r.resubscribed.length
    run(r, 120_000, 100)
    expect(r.reconnects).toHaveLength(1)
    expect(r.resubscribed.length - sent).toBeGreaterThanOrEqual(10)
    expect(r.tracker.attempt('m1')).toBeGreaterThan(10)
  })

  it('asks for nothing while the socket is closed, and counts the replay on open as a request', () => {
    const r = rig()
    r.wanted.add('m1')
    r.open.value = false
    run(r, 30_000)
    expect(r.resubscribed).toHaveLength(0)
    expect(r.tracker.attempt('m1')).toBeNull()
    r.open.value = true
    r.tracker.connected()
    expect(r.tracker.attempt('m1')).toBe(1)
  })

  it('a gap marks the book resyncing at once, and a reconnect keeps the episode going', () => {
    const r = rig()
    r.wanted.add('m1')
    snapshot(r, 'm1')
    r.tracker.need('m1', 'gap')
    expect(r.resubscribed).toEqual([['m1']])
    expect(r.books.bookView('m1', 5)?.state).toBe('resyncing')
    expect(r.books.bookView('m1', 5)?.staleReason).toBe('gap')
    const incident = r.incidents.list()[0]
    expect(incident?.kind).toBe('resync')
    expect(incident?.detail).toBe('book gap; resubscribing')
    r.tracker.connected()
    expect(r.tracker.attempt('m1')).toBe(2)
    snapshot(r, 'm1')
    expect(r.incidents.list()[0]?.endedAt).not.toBeNull()
  })

  it('a delta without a snapshot asks again soon, but not more than once per two base intervals', () => {
    const r = rig()
    r.wanted.add('m1')
    r.tracker.tick()
    r.tracker.deltaWithoutSnapshot('m1')
    expect(r.resubscribed).toHaveLength(0)
    r.clock.t += 2 * RESYNC_DEFAULTS.baseMs
    r.tracker.deltaWithoutSnapshot('m1')
    r.tracker.deltaWithoutSnapshot('m1')
    expect(r.resubscribed).toEqual([['m1']])
  })

  it('forgets a book nobody wants any more and ends its incident', () => {
    const r = rig()
    r.wanted.add('m1')
    snapshot(r, 'm1')
    r.tracker.need('m1', 'crossed')
    r.wanted.delete('m1')
    r.clock.t += 60_000
    r.tracker.tick()
    expect(r.tracker.attempt('m1')).toBeNull()
    expect(r.incidents.list()[0]?.detail).toBe('book crossed; no longer watched')
  })

  describe('a market the venue never answers', () => {
    const BOUND = RESYNC_DEFAULTS.attemptsBeforeUnknown

    /** Runs until the market is marked unknown (or two minutes pass); returns how long that took. */
    function untilUnknown(r: Rig, market = 'm1'): number {
      const start = r.clock.t
      while (!r.tracker.unknown(market) && r.clock.t - start < 120_000) run(r, 100, 100)
      return r.clock.t - start
    }

    it(`is marked unknown after ${BOUND} unanswered requests, told to windows, and no longer asked for`, () => {
      const r = rig()
      r.wanted.add('m1')
      const took = untilUnknown(r)
      expect(r.tracker.unknown('m1')).toBe(true)
      // About a minute at the default pacing (one reconnect on the way, which this rig does not perform).
      expect(took).toBeGreaterThan(50_000)
      expect(took).toBeLessThan(90_000)
      expect(r.tracker.attempt('m1')).toBe(BOUND)
      const view = r.books.bookView('m1', 5)
      expect(view?.state).toBe('stale')
      expect(view?.staleReason).toBe(UNKNOWN_MARKET)
      const incident = r.incidents.list().find((i) => i.market === 'm1')
      expect(incident?.endedAt).not.toBeNull()
      expect(incident?.detail).toMatch(
        /no answer to 12 requests; the venue does not seem to know this market/,
      )
      // Before: a request every 8 s for good. Now: not one more, by stream or REST, in ten minutes.
      const asked = r.resubscribed.length
      const fetched = r.fetched.length
      run(r, 600_000, 250)
      expect(r.resubscribed.length).toBe(asked)
      expect(r.fetched.length).toBe(fetched)
      expect(r.reconnects.length).toBeLessThanOrEqual(1)
      expect(r.books.bookView('m1', 5)?.staleReason).toBe(UNKNOWN_MARKET)
    })

    it('is asked again on a new connection, and marked unknown again without another reconnect', () => {
      const r = rig()
      r.wanted.add('m1')
      untilUnknown(r)
      const reconnects = r.reconnects.length
      r.tracker.connected()
      expect(r.tracker.unknown('m1')).toBe(false)
      expect(r.tracker.attempt('m1')).toBe(1)
      expect(r.books.bookView('m1', 5)?.state).toBe('resyncing')
      expect(r.fetched.at(-1)).toContain('m1')
      untilUnknown(r)
      expect(r.tracker.unknown('m1')).toBe(true)
      expect(r.reconnects.length).toBe(reconnects)
    })

    it('is asked again when the listing names it, and a listed market is never marked unknown', () => {
      const r = rig()
      r.wanted.add('m1')
      r.wanted.add('m2')
      r.listed.add('m2')
      untilUnknown(r)
      expect(r.tracker.unknown('m2')).toBe(false)
      expect(r.tracker.attempt('m2')).toBeGreaterThan(BOUND)
      const asked = r.resubscribed.length
      r.listed.add('m1')
      r.tracker.tick()
      expect(r.tracker.unknown('m1')).toBe(false)
      expect(r.tracker.attempt('m1')).toBe(1)
      expect(r.resubscribed.slice(asked)).toContainEqual(['m1'])
    })

    it('is asked again when a window asks for a resync', () => {
      const r = rig()
      r.wanted.add('m1')
      untilUnknown(r)
      r.tracker.need('m1', 'requested')
      expect(r.tracker.unknown('m1')).toBe(false)
      expect(r.tracker.attempt('m1')).toBe(1)
      expect(r.resubscribed.at(-1)).toEqual(['m1'])
    })

    it('a delta shows the venue knows the market: never marked unknown then, and asked again at once', () => {
      const r = rig()
      r.wanted.add('m1')
      r.wanted.add('m2')
      untilUnknown(r, 'm2')
      r.tracker.deltaWithoutSnapshot('m2')
      expect(r.tracker.unknown('m2')).toBe(false)
      expect(r.resubscribed.at(-1)).toEqual(['m2'])
      r.tracker.deltaWithoutSnapshot('m1')
      run(r, 300_000, 250)
      expect(r.tracker.unknown('m1')).toBe(false)
      expect(r.tracker.attempt('m1')).toBeGreaterThan(BOUND)
    })

    it('is not marked while no data flows at all (that is the connection, not the market)', () => {
      const r = rig()
      r.wanted.add('m1')
      r.flowing.value = false
      run(r, 300_000, 250)
      expect(r.tracker.unknown('m1')).toBe(false)
      expect(r.books.bookView('m1', 5)?.state).toBe('resyncing')
    })

    it('a market the venue sent a trade or ticker for is never marked unknown', () => {
      const r = rig()
      r.wanted.add('m1')
      r.books.applyTicker({ kind: 'ticker', market: 'm1', last: 0.5 }, r.clock.t)
      run(r, 300_000, 250)
      expect(r.tracker.unknown('m1')).toBe(false)
    })
  })
})
