// @vitest-environment happy-dom
// The price chart's throttle: a run waits for the store's next batch and happens when that batch is queued, before
// its animation frame (so a chart drawing in an animation frame draws in the batch's), at most once per interval,
// and by a timer when no batch comes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { batchFrameThrottle } from '../../src/renderer/store/batch-frame-throttle'
import { flushBatches, queueBatch, useMonitor } from '../../src/renderer/store/monitor'
import { status } from './fake-api'

/** The animation frames asked for and not yet run. */
let frames: FrameRequestCallback[] = []
let now = 1000
let visibility: DocumentVisibilityState = 'visible'

beforeEach(() => {
  useMonitor.getState().reset()
  frames = []
  now = 1000
  visibility = 'visible'
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb))
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {})
})

afterEach(() => {
  flushBatches()
  vi.useRealTimers()
  vi.restoreAllMocks()
  Reflect.deleteProperty(document, 'visibilityState')
})

/** A throttle (67 ms interval, 250 ms at most) that records the clock at each run. */
function recorder() {
  const runs: number[] = []
  return {
    runs,
    t: batchFrameThrottle(
      () => runs.push(now),
      67,
      250,
      () => now,
    ),
  }
}

const batch = () => queueBatch({ seq: 1, at: 1, status: status() })

describe('batchFrameThrottle', () => {
  it("runs when the next batch is queued, before its frame, with the frame asked for before the run's", () => {
    const order: string[] = []
    const t = batchFrameThrottle(
      () => {
        order.push('run')
        requestAnimationFrame(() => order.push('chart frame'))
      },
      67,
      250,
      () => now,
    )
    t.schedule()
    expect(order).toEqual([])
    batch()
    // Run at once, in the task that queued the batch: the store's frame was asked for first, then the run's.
    expect(order).toEqual(['run'])
    expect(frames).toHaveLength(2)
    for (const cb of frames.splice(0)) cb(now)
    expect(order).toEqual(['run', 'chart frame'])
    // Nothing pending: a later batch runs nothing.
    now += 1000
    batch()
    expect(order).toEqual(['run', 'chart frame'])
  })

  it('runs at most once per interval: a batch within it leaves the run to a later batch', () => {
    const { runs, t } = recorder()
    t.schedule()
    batch()
    expect(runs).toEqual([1000])
    frames.splice(0).forEach((cb) => cb(now))
    t.schedule()
    now = 1030
    batch()
    expect(runs).toEqual([1000])
    frames.splice(0).forEach((cb) => cb(now))
    now = 1070
    batch()
    expect(runs).toEqual([1000, 1070])
  })

  it('runs by a timer after maxLagMs when no batch comes, and cancel drops the run', () => {
    const { runs, t } = recorder()
    t.schedule()
    vi.advanceTimersByTime(249)
    expect(runs).toEqual([])
    now = 1250
    vi.advanceTimersByTime(1)
    expect(runs).toEqual([1250])
    t.schedule()
    t.cancel()
    batch()
    vi.advanceTimersByTime(1000)
    expect(runs).toEqual([1250])
  })

  it('waits for a batch with a frame: a hidden document queues batches with none', () => {
    const { runs, t } = recorder()
    visibility = 'hidden'
    t.schedule()
    batch()
    expect(runs).toEqual([])
    t.cancel()
  })
})
