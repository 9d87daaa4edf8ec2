// ResyncTracker on its own, with an injected clock: every wanted book without a snapshot is chased with backoff
// until one arrives, escalates to one reconnect on a healthy connection, and ends its incident with the time.
import { afterEach, describe, expect, it } from 'vitest'
import { BookStore } from '../../../src/main/services/market/books'
import { IncidentLog } from '../../../src/main/services/health/incidents'
import { RESYNC_DEFAULTS } from '../../../src/main/services/health/thresholds'
import { ResyncTracker } from '../../../src/main/services/market/resync'
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
    resubscribe: (markets) => resubscribed.push([...markets]),
    streamOpen: () => open.value,
    dataFlowing: () => flowing.value,
    reconnect: (reason) => reconnects.push(reason),
    bookChanged: () => {},
  })
  trackers.push(tracker)
  return { tracker, books, incidents, clock, wanted, resubscribed, reconnects, open, flowing }
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
})
