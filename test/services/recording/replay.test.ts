// The replay clock with fake timers and an injected clock: frames fed at the recorded pace times the speed, pause and speed changes that keep the position, seeks that re-derive from the start only when going back, play after the end starting over, and a dense run that yields.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FrameStore, type RecordedFrame } from '../../../src/main/services/recording/frame-store'
import { ReplayClock } from '../../../src/main/services/recording/replay'

beforeEach(() => {
  vi.useFakeTimers({ now: 10_000 })
})
afterEach(() => {
  vi.useRealTimers()
})

const FRAMES: RecordedFrame[] = [
  { t: 0, f: 'a' },
  { t: 100, f: 'b' },
  { t: 500, f: 'c' },
]

function rig(frames = FRAMES, options: { speed: number; paused?: boolean } = { speed: 1 }) {
  const w = { fed: [] as string[], resets: 0, changes: 0 }
  const clock = new ReplayClock(
    FrameStore.from(frames),
    frames.at(-1)?.t ?? 0,
    {
      feed: (text) => void w.fed.push(text),
      reset: () => void w.resets++,
      changed: () => void w.changes++,
      now: () => Date.now(),
    },
    options,
  )
  return { w, clock }
}

describe('ReplayClock', () => {
  it('feeds each frame when it is due at the chosen speed, then ends at the recording’s end', () => {
    const r = rig(FRAMES, { speed: 2 })
    r.clock.start()
    expect(r.w.fed).toEqual(['a'])
    vi.advanceTimersByTime(49)
    expect(r.w.fed).toEqual(['a'])
    expect(r.clock.position()).toBe(98)
    vi.advanceTimersByTime(1)
    expect(r.w.fed).toEqual(['a', 'b'])
    expect(r.clock.state()).toBe('playing')
    vi.advanceTimersByTime(200)
    expect(r.w.fed).toEqual(['a', 'b', 'c'])
    expect(r.clock.state()).toBe('ended')
    expect(r.clock.position()).toBe(500)
    expect(r.clock.fed()).toBe(3)
  })

  it('pause freezes the position and the feeding; a speed change keeps the position where it was', () => {
    const r = rig()
    r.clock.start()
    vi.advanceTimersByTime(60)
    r.clock.setPaused(true)
    expect(r.clock.state()).toBe('paused')
    vi.advanceTimersByTime(1_000)
    expect(r.clock.position()).toBe(60)
    expect(r.w.fed).toEqual(['a'])
    r.clock.setPaused(false)
    r.clock.setSpeed(4)
    expect(r.clock.position()).toBe(60)
    // 40 ms of recording left to frame b: 10 ms at 4×.
    vi.advanceTimersByTime(10)
    expect(r.w.fed).toEqual(['a', 'b'])
    expect(r.clock.speed).toBe(4)
  })

  it('a seek forward feeds the frames in between at once; a seek back forgets and feeds again from the start', () => {
    const r = rig()
    r.clock.start()
    r.clock.seek(300)
    expect(r.w.fed).toEqual(['a', 'b'])
    expect(r.w.resets).toBe(0)
    expect(r.clock.position()).toBe(300)
    r.clock.seek(50)
    expect(r.w.resets).toBe(1)
    expect(r.clock.resets).toBe(1)
    expect(r.w.fed).toEqual(['a', 'b', 'a'])
    expect(r.clock.fed()).toBe(1)
    // Paced play goes on from the target: frame b is 50 ms away.
    vi.advanceTimersByTime(50)
    expect(r.w.fed.at(-1)).toBe('b')
    // A target outside the recording is clamped to it.
    r.clock.seek(-100)
    expect(r.clock.position()).toBe(0)
    r.clock.seek(10_000)
    expect(r.clock.state()).toBe('ended')
    expect(r.clock.position()).toBe(500)
  })

  it('a paused seek lands on its target and stays there', () => {
    const r = rig(FRAMES, { speed: 1, paused: true })
    r.clock.start()
    expect(r.w.fed).toEqual([])
    r.clock.seek(100)
    expect(r.w.fed).toEqual(['a', 'b'])
    vi.advanceTimersByTime(5_000)
    expect(r.clock.position()).toBe(100)
    expect(r.w.fed).toEqual(['a', 'b'])
  })

  it('play after the end starts over from the beginning', () => {
    const r = rig()
    r.clock.start()
    vi.advanceTimersByTime(500)
    expect(r.clock.state()).toBe('ended')
    r.clock.setPaused(true)
    r.clock.setPaused(false)
    expect(r.w.resets).toBe(1)
    expect(r.clock.position()).toBe(0)
    expect(r.w.fed).toEqual(['a', 'b', 'c', 'a'])
    expect(r.clock.state()).toBe('playing')
  })

  it('a dense stretch is fed 2,000 frames per turn; after stop nothing more is fed', () => {
    const dense = Array.from({ length: 5_000 }, (_, i) => ({ t: 0, f: `f${i}` }))
    const r = rig([...dense, { t: 1_000, f: 'late' }])
    r.clock.start()
    expect(r.clock.fed()).toBe(2_000)
    // Each turn yields to the event loop (an immediate) before the next 2,000.
    vi.advanceTimersToNextTimer()
    expect(r.clock.fed()).toBe(4_000)
    vi.advanceTimersToNextTimer()
    expect(r.clock.fed()).toBe(5_000)
    r.clock.stop()
    vi.advanceTimersByTime(5_000)
    expect(r.w.fed.at(-1)).toBe('f4999')
    r.clock.seek(0)
    r.clock.setSpeed(10)
    expect(r.w.resets).toBe(0)
    expect(r.clock.speed).toBe(1)
  })
})
