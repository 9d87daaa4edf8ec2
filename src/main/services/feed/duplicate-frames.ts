// The second copy of a frame. VoxFi's market channel and event channel both carry a market's frames, and its
// trades have no id to tell a resent print from a new one: a window that watches a market while another watches
// its event would get every trade twice. Both channels send the same text, so the copy that follows the first
// within a moment is dropped (docs/voxfi.md §8). Two genuine prints of the same taker against the same makers,
// at the same price and size, within that moment, would read as one: far rarer than the double count it stops.

export class DuplicateFrames {
  /** Texts seen within the window, oldest first (a Map keeps insertion order). */
  private readonly seen = new Map<string, number>()

  constructor(
    private readonly windowMs = 1_000,
    /** Bounds memory whatever the rate: at most this many texts are remembered. */
    private readonly cap = 512,
  ) {}

  /** True for the copy of a text that arrived within the window; each first arrival is remembered once. */
  repeat(text: string, at: number): boolean {
    for (const [t, when] of this.seen) {
      if (at - when <= this.windowMs && this.seen.size < this.cap) break
      this.seen.delete(t)
    }
    if (this.seen.delete(text)) return true
    this.seen.set(text, at)
    return false
  }

  clear(): void {
    this.seen.clear()
  }
}
