// FlushScheduler with an injected clock, timer and defer: a change for an idle window runs one deferred pass, a busy one waits for the timer (or an overdue check), arm keeps one timer, close stops it all.
import { describe, expect, it } from 'vitest'
import { FlushScheduler, type SchedulerOptions } from '../../../src/main/services/fanout/scheduler'

function rig(options: Partial<SchedulerOptions> = {}) {
  const w = {
    now: 1_000,
    /** Clock reads: the overdue check must stay off the per-change cost. */
    reads: 0,
    timers: new Map<number, { fn: () => void; ms: number }>(),
    deferred: [] as Array<() => void>,
    passes: [] as Array<[dueBy: number, at: number]>,
  }
  let nextId = 1
  const scheduler = new FlushScheduler(
    {
      intervalMs: 16,
      now: () => {
        w.reads++
        return w.now
      },
      setTimer: (fn, ms) => {
        const id = nextId++
        w.timers.set(id, { fn, ms })
        return id
      },
      clearTimer: (handle) => void w.timers.delete(handle as number),
      defer: (fn) => void w.deferred.push(fn),
      ...options,
    },
    (dueBy, at) => void w.passes.push([dueBy, at]),
  )
  /** Runs what was deferred (the end of the current socket read). */
  const drain = () => {
    for (const fn of w.deferred.splice(0)) fn()
  }
  /** Fires the one armed timer. */
  const fire = () => {
    const [id, timer] = [...w.timers][0] ?? []
    if (id === undefined || timer === undefined) throw new Error('no timer armed')
    w.timers.delete(id)
    timer.fn()
  }
  return { w, scheduler, drain, fire }
}

describe('FlushScheduler', () => {
  it('a change for an idle window runs one pass after the current work, however many changes came', () => {
    const r = rig()
    r.scheduler.changed(true)
    r.scheduler.changed(true)
    r.scheduler.changed(false)
    expect(r.w.passes).toEqual([])
    expect(r.w.deferred).toHaveLength(1)
    r.w.now = 1_003
    r.drain()
    expect(r.w.passes).toEqual([[1_003, 1_003]])
  })

  it('while the timer is armed a change for busy windows waits for it, and the timer pass counts as due', () => {
    const r = rig()
    r.scheduler.arm(1_016, 1_000)
    expect([...r.w.timers.values()].map((t) => t.ms)).toEqual([16])
    r.scheduler.changed(false)
    expect(r.w.deferred).toHaveLength(0)
    // The timer fires a hair early by the clock: the pass still treats the interval as run out.
    r.w.now = 1_015
    r.fire()
    expect(r.w.passes).toEqual([[1_016, 1_015]])
  })

  it('arm keeps one timer: the same due time leaves it, another replaces it, Infinity disarms it', () => {
    const r = rig()
    r.scheduler.arm(1_016, 1_000)
    const first = [...r.w.timers.keys()]
    r.scheduler.arm(1_016, 1_005)
    expect([...r.w.timers.keys()]).toEqual(first)
    r.scheduler.arm(1_030, 1_005)
    expect(r.w.timers.size).toBe(1)
    expect([...r.w.timers.values()][0]?.ms).toBe(25)
    // A due time already past is armed at 0, not negative.
    r.scheduler.arm(900, 1_005)
    expect([...r.w.timers.values()][0]?.ms).toBe(0)
    r.scheduler.arm(Infinity, 1_005)
    expect(r.w.timers.size).toBe(0)
    // With no timer, a change for a busy window runs a pass itself.
    r.scheduler.changed(false)
    expect(r.w.deferred).toHaveLength(1)
  })

  it('reads the clock every 16th change only, and flushes early once the timer is overdue', () => {
    const r = rig({ overdueMs: 2 })
    const s = r.scheduler
    s.arm(1_016, 1_000)
    r.w.now = 1_017 // 1 ms late: within the threshold
    r.w.reads = 0
    for (let i = 0; i < 16; i++) s.changed(false)
    expect(r.w.reads).toBe(1)
    expect(r.w.deferred).toHaveLength(0)
    r.w.now = 1_018 // 2 ms late: overdue
    for (let i = 0; i < 15; i++) s.changed(false)
    expect(r.w.deferred).toHaveLength(0)
    s.changed(false)
    expect(r.w.reads).toBe(2)
    expect(r.w.deferred).toHaveLength(1)
  })

  it('close clears the timer and later changes run nothing', () => {
    const r = rig()
    r.scheduler.arm(1_016, 1_000)
    r.scheduler.close()
    expect(r.w.timers.size).toBe(0)
    r.scheduler.changed(true)
    expect(r.w.deferred).toHaveLength(0)
  })

  it('refuses a negative or non-finite interval', () => {
    expect(() => rig({ intervalMs: -1 })).toThrow(RangeError)
    expect(() => rig({ intervalMs: Number.POSITIVE_INFINITY })).toThrow(RangeError)
    expect(rig({ intervalMs: 0 }).scheduler.intervalMs).toBe(0)
  })
})
