// The charts' coalescing: the first change goes through at once, a burst becomes one run at the interval's end,
// an urgent change (a book going stale) never waits, and nothing runs once nobody listens.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { throttle, throttledView, type Store } from '../../src/renderer/lib/throttle'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('throttle', () => {
  it('runs the first call at once and folds a burst into one run at the end of the interval', () => {
    let now = 1000
    const runs: number[] = []
    const t = throttle(
      () => runs.push(now),
      67,
      () => now,
    )
    t.schedule()
    expect(runs).toEqual([1000])
    for (let i = 0; i < 10; i++) {
      now += 5
      t.schedule()
    }
    expect(runs).toEqual([1000])
    now = 1067
    vi.advanceTimersByTime(67)
    expect(runs).toEqual([1000, 1067])
    // Quiet for longer than the interval: the next call runs at once again.
    now = 2000
    t.schedule()
    expect(runs).toEqual([1000, 1067, 2000])
  })

  it('flush runs now and drops the pending run; cancel drops it', () => {
    let now = 0
    let runs = 0
    const t = throttle(
      () => void runs++,
      50,
      () => now,
    )
    t.schedule()
    now = 10
    t.schedule()
    t.flush()
    expect(runs).toBe(2)
    vi.advanceTimersByTime(100)
    expect(runs).toBe(2)
    now = 20
    t.schedule()
    t.cancel()
    vi.advanceTimersByTime(100)
    expect(runs).toBe(2)
  })
})

function store<S>(initial: S): Store<S> & { set(next: S): void } {
  let state = initial
  const listeners = new Set<(s: S, p: S) => void>()
  return {
    getState: () => state,
    subscribe(l) {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    set(next) {
      const prev = state
      state = next
      for (const l of listeners) l(state, prev)
    },
  }
}

describe('throttledView', () => {
  it('follows the store at most once per interval, at once when urgent, and lets go when unobserved', () => {
    const s = store({ seq: 1, state: 'live' })
    const view = throttledView(
      s,
      (x) => x,
      67,
      (next, shown) => next.state !== shown.state,
    )
    let notified = 0
    const off = view.subscribe(() => void notified++)
    s.set({ seq: 2, state: 'live' })
    expect(view.getSnapshot().seq).toBe(2)
    s.set({ seq: 3, state: 'live' })
    s.set({ seq: 4, state: 'live' })
    // Within the interval: still the first change.
    expect(view.getSnapshot().seq).toBe(2)
    vi.advanceTimersByTime(67)
    expect(view.getSnapshot().seq).toBe(4)
    // A state change does not wait for the interval.
    s.set({ seq: 5, state: 'stale' })
    expect(view.getSnapshot()).toEqual({ seq: 5, state: 'stale' })
    expect(notified).toBe(3)
    off()
    s.set({ seq: 6, state: 'stale' })
    vi.advanceTimersByTime(200)
    expect(view.getSnapshot().seq).toBe(5)
    expect(notified).toBe(3)
  })
})
