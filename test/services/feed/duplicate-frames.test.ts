// The second copy of a frame (VoxFi sends a market's frames on its market and its event channel alike).
import { describe, expect, it } from 'vitest'
import { DuplicateFrames, EVENT_CHANNEL_TRAIL_MS } from '../../../src/main/services/feed/duplicate-frames'

/** What the frame router does with a market-data frame: drop it as a copy, or remember it. */
const repeat = (d: DuplicateFrames, text: string, at: number): boolean => {
  if (d.copy(text, at)) return true
  d.remember(text, at)
  return false
}

describe('duplicate frames', () => {
  it('drops the copy that follows within the window, once', () => {
    const d = new DuplicateFrames(1000)
    expect(repeat(d, 'a', 0)).toBe(false)
    expect(repeat(d, 'b', 10)).toBe(false)
    expect(repeat(d, 'a', 20)).toBe(true)
    // A third arrival is a new frame: only one copy is expected per first arrival.
    expect(repeat(d, 'a', 30)).toBe(false)
  })

  it('forgets texts older than the window, and keeps at most `cap`', () => {
    const d = new DuplicateFrames(1000, 3)
    expect(repeat(d, 'a', 0)).toBe(false)
    expect(repeat(d, 'a', 1500)).toBe(false)
    for (const t of ['x', 'y', 'z', 'w']) repeat(d, t, 1600)
    // 'a' was pushed out by the cap.
    expect(repeat(d, 'a', 1700)).toBe(false)
    expect(repeat(d, 'w', 1700)).toBe(true)
  })
})

describe('duplicate frames, indexed by length', () => {
  it('tells apart texts of one length, and drops only the copy of the one that came', () => {
    const d = new DuplicateFrames(1000)
    expect(repeat(d, 'ab', 0)).toBe(false)
    expect(repeat(d, 'cd', 1)).toBe(false)
    expect(repeat(d, 'ce', 2)).toBe(false)
    expect(repeat(d, 'cd', 3)).toBe(true)
    expect(repeat(d, 'ab', 4)).toBe(true)
    expect(repeat(d, 'ce', 5)).toBe(true)
  })

  it('keeps its window over a long run: a copy found, its place skipped when it expires, old texts forgotten', () => {
    const d = new DuplicateFrames(1000)
    // 200 texts a second for 30 s: the queue is compacted many times on the way.
    for (let i = 0; i < 6_000; i++) {
      const at = i * 5
      expect(repeat(d, `frame ${i}`, at)).toBe(false)
      if (i % 3 === 0) expect(repeat(d, `frame ${i}`, at + 1)).toBe(true)
      // A text from just over the window ago is new again; one from within it is a copy.
      if (i >= 300 && i % 7 === 0) expect(d.copy(`frame ${i - 201}`, at)).toBe(false)
      if (i >= 300 && i % 11 === 1) expect(d.copy(`frame ${i - 100}`, at)).toBe((i - 100) % 3 !== 0)
    }
  })
})

describe('duplicate frames where they apply', () => {
  it('are neither remembered nor dropped where the frames cannot be VoxFi', () => {
    const d = new DuplicateFrames(1000)
    let voxfi = false
    const filter = d.when(() => voxfi)
    filter.remember('a', 0)
    voxfi = true
    expect(filter.copy('a', 10)).toBe(false)
    filter.remember('a', 20)
    voxfi = false
    expect(filter.copy('a', 30)).toBe(false)
    voxfi = true
    expect(filter.copy('a', 40)).toBe(true)
  })
})

describe('duplicate frames on the live feed', () => {
  /** A frame through the live filter as the router takes it: dropped as a copy, or remembered. */
  const live = (f: ReturnType<DuplicateFrames['whenLive']>, text: string, at: number): boolean => {
    if (f.copy(text, at)) return true
    f.remember(text, at)
    return false
  }

  it('remember nothing while no event channel is wanted: no second channel, no copy, two identical prints are two', () => {
    const d = new DuplicateFrames(1000)
    const f = d.whenLive(() => true)
    expect(live(f, 'a', 0)).toBe(false)
    expect(live(f, 'a', 10)).toBe(false)
    d.eventChannels(false, 20)
    expect(live(f, 'a', 30)).toBe(false)
    expect(live(f, 'a', 40)).toBe(false)
  })

  it('remember while an event channel is wanted, and for the trail after the last one is dropped', () => {
    const d = new DuplicateFrames(1000)
    const f = d.whenLive(() => true)
    d.eventChannels(true, 0)
    expect(live(f, 'a', 10)).toBe(false)
    expect(live(f, 'a', 20)).toBe(true)
    d.eventChannels(false, 100)
    // The venue may still send on the dropped channel until it hears the unsubscribe.
    expect(live(f, 'b', 100 + EVENT_CHANNEL_TRAIL_MS - 5)).toBe(false)
    expect(live(f, 'b', 100 + EVENT_CHANNEL_TRAIL_MS)).toBe(true)
    // Past the trail nothing is remembered, so nothing is a copy.
    expect(live(f, 'c', 200 + EVENT_CHANNEL_TRAIL_MS)).toBe(false)
    expect(live(f, 'c', 210 + EVENT_CHANNEL_TRAIL_MS)).toBe(false)
    // Wanted again: remembered at once (its subscribe goes out after this).
    d.eventChannels(true, 300 + EVENT_CHANNEL_TRAIL_MS)
    expect(live(f, 'c', 310 + EVENT_CHANNEL_TRAIL_MS)).toBe(false)
    expect(live(f, 'c', 320 + EVENT_CHANNEL_TRAIL_MS)).toBe(true)
  })

  it('a replay remembers whatever the live feed wants: its recording may hold both channels', () => {
    const d = new DuplicateFrames(1000)
    const replay = d.when(() => true)
    expect(live(replay, 'a', 0)).toBe(false)
    expect(live(replay, 'a', 10)).toBe(true)
  })
})
