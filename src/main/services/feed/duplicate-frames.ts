// The second copy of a frame. VoxFi's market channel and event channel both carry a market's frames, and its
// trades have no id to tell a resent print from a new one: a window that watches a market while another watches
// its event would get every trade twice. Both channels send the same text, so the copy that follows the first
// within a moment is dropped (docs/voxfi.md §8). Two genuine prints of the same taker against the same makers,
// at the same price and size, within that moment, would read as one: far rarer than the double count it stops.
// Only texts that were read as market data are remembered, so a copy is known by its text alone and dropped
// before it is parsed: the same text reads the same.

/** What the frame router asks of the filter (frames.ts `FrameRouterDeps.duplicate`). */
export interface DuplicateFilter {
  /** True for the copy of a remembered text within the window (the copy is dropped; a third arrival is new). */
  copy(text: string, at: number): boolean
  /** `text` was read as public market data: its copy within the window is to be dropped. */
  remember(text: string, at: number): void
}

export class DuplicateFrames implements DuplicateFilter {
  /** Texts seen within the window, oldest first (a Map keeps insertion order). */
  private readonly seen = new Map<string, number>()

  constructor(
    private readonly windowMs = 1_000,
    /** Bounds memory whatever the rate: at most this many texts are remembered. */
    private readonly cap = 512,
  ) {}

  copy(text: string, at: number): boolean {
    for (const [t, when] of this.seen) {
      if (at - when <= this.windowMs && this.seen.size < this.cap) break
      this.seen.delete(t)
    }
    return this.seen.size > 0 && this.seen.delete(text)
  }

  remember(text: string, at: number): void {
    this.seen.set(text, at)
  }

  /** The filter only where `applies()` (the frames may be VoxFi's): elsewhere nothing is a copy. */
  when(applies: () => boolean): DuplicateFilter {
    return {
      copy: (text, at) => applies() && this.copy(text, at),
      remember: (text, at) => {
        if (applies()) this.remember(text, at)
      },
    }
  }

  clear(): void {
    this.seen.clear()
  }
}
