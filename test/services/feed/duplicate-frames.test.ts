// The second copy of a frame (VoxFi sends a market's frames on its market and its event channel alike).
import { describe, expect, it } from 'vitest'
import { DuplicateFrames } from '../../../src/main/services/feed/duplicate-frames'

describe('duplicate frames', () => {
  it('drops the copy that follows within the window, once', () => {
    const d = new DuplicateFrames(1000)
    expect(d.repeat('a', 0)).toBe(false)
    expect(d.repeat('b', 10)).toBe(false)
    expect(d.repeat('a', 20)).toBe(true)
    // A third arrival is a new frame: only one copy is expected per first arrival.
    expect(d.repeat('a', 30)).toBe(false)
  })

  it('forgets texts older than the window, and keeps at most `cap`', () => {
    const d = new DuplicateFrames(1000, 3)
    expect(d.repeat('a', 0)).toBe(false)
    expect(d.repeat('a', 1500)).toBe(false)
    for (const t of ['x', 'y', 'z', 'w']) d.repeat(t, 1600)
    // 'a' was pushed out by the cap.
    expect(d.repeat('a', 1700)).toBe(false)
    expect(d.repeat('w', 1700)).toBe(true)
  })
})
