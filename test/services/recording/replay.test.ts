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

describe('ReplayClock seek in slices (real timers)', () => {
  /** 400 frames 10 ms apart, each costing ~0.2 ms to feed: a seek through them takes several slices. */
  const SLOW: RecordedFrame[] = Array.from({ length: 400 }, (_, i) => ({ t: i * 10, f: `s${i}` }))
  const END = 3_990

  function slowRig(frames = SLOW) {
    const w = { fed: [] as string[], stamps: [] as number[], resets: 0, sought: 0 }
    const clock = new ReplayClock(
      FrameStore.from(frames),
      frames.at(-1)?.t ?? 0,
      {
        feed: () => {
          throw new Error('a seek feeds through skim')
        },
        skim: (text, at) => {
          const until = performance.now() + 0.2
          while (performance.now() < until);
          w.fed.push(text)
          w.stamps.push(at)
        },
        sought: () => void w.sought++,
        reset: () => void w.resets++,
        changed: () => {},
        now: () => Date.now(),
      },
      { speed: 2, paused: true },
    )
    clock.start()
    return { w, clock }
  }

  /** Runs `fn` from a timer: it can only run while the event loop turns. */
  const fromTimer = (fn: () => void) =>
    new Promise<void>((done, failed) =>
      setTimeout(() => {
        try {
          fn()
          done()
        } catch (error) {
          failed(error as Error)
        }
      }, 0),
    )

  beforeEach(() => {
    vi.useRealTimers()
  })

  it('yields between slices: a timer fires while the seek feeds, and the status says it is seeking', async () => {
    // Twice as long (160 ms or more): a loaded machine has many slices to run the timer between.
    const long = Array.from({ length: 800 }, (_, i) => ({ t: i * 5, f: `l${i}` }))
    const r = slowRig(long)
    let fedWhenTimerRan = -1
    let seekingWhenTimerRan = false
    const timer = fromTimer(() => {
      fedWhenTimerRan = r.w.fed.length
      seekingWhenTimerRan = r.clock.seekInProgress
    })
    const landed = r.clock.seek(3_995)
    expect(r.clock.seekInProgress).toBe(true)
    expect(r.clock.position()).toBe(3_995)
    await Promise.all([landed, timer])
    expect(fedWhenTimerRan).toBeGreaterThan(0)
    expect(fedWhenTimerRan).toBeLessThan(long.length)
    expect(seekingWhenTimerRan).toBe(true)
    expect(r.w.fed).toHaveLength(long.length)
    expect(r.clock.seekInProgress).toBe(false)
    expect(r.w.sought).toBe(1)
    expect(r.clock.epoch).toBe(1)
    // Stamped as a straight replay at 2× would have: 5 ms of recording apart is 2.5 ms of wall time apart.
    expect((r.w.stamps[1] as number) - (r.w.stamps[0] as number)).toBe(2.5)
  })

  it('a seek during a seek: the latest wins, back or forward, without finishing the first', async () => {
    const r = slowRig()
    const first = r.clock.seek(END)
    // 400 frames take many slices: the first returns with the seek still in progress.
    expect(r.clock.seekInProgress).toBe(true)
    // Before the frames the first slice fed (at least 32 of them, to t = 310): a seek back.
    const second = r.clock.seek(100)
    await Promise.all([first, second])
    // The first seek's frames were not all fed: the second took over from the start.
    expect(r.w.resets).toBe(1)
    expect(r.w.fed.length).toBeLessThan(SLOW.length + 11)
    expect(r.w.fed.slice(-11)).toEqual(SLOW.slice(0, 11).map((f) => f.f))
    expect(r.clock.fed()).toBe(11)
    expect(r.clock.position()).toBe(100)
    // Forward during a forward seek: the frames in between are fed once, up to the later target.
    const before = r.w.fed.length
    // 300 frames take more than one slice: the first returns with the seek still in progress.
    const third = r.clock.seek(3_500)
    expect(r.clock.seekInProgress).toBe(true)
    const fourth = r.clock.seek(END)
    await Promise.all([third, fourth])
    expect(r.w.fed.slice(before)).toEqual(SLOW.slice(11).map((f) => f.f))
    expect(r.w.resets).toBe(1)
    expect(r.clock.position()).toBe(END)
    expect(r.w.sought).toBe(2)
  })

  it('stop during a seek cancels it: the seek resolves, and nothing more is fed', async () => {
    const r = slowRig()
    const landed = r.clock.seek(END)
    expect(r.clock.seekInProgress).toBe(true)
    r.clock.stop()
    await landed
    const fed = r.w.fed.length
    expect(fed).toBeLessThan(SLOW.length)
    await new Promise((done) => setTimeout(done, 50))
    expect(r.w.fed).toHaveLength(fed)
    expect(r.w.sought).toBe(0)
    expect(r.clock.seekInProgress).toBe(false)
  })
})
