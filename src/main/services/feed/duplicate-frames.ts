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

/** A remembered text; `live` until it expires or its copy came. */
interface Seen {
  text: string
  at: number
  live: boolean
}

export class DuplicateFrames implements DuplicateFilter {
  /** Texts remembered, oldest first; entries before `head` are gone (the array is compacted now and then). */
  private queue: Seen[] = []
  private head = 0
  /**
   * The live entries by their text's length, then compared whole: a Map keyed by the text would hash each frame's
   * text (2 KB for VoxFi's whole books), which costs as much as decoding one.
   */
  private readonly byLength = new Map<number, Seen[]>()
  private live = 0

  constructor(
    private readonly windowMs = 1_000,
    /** Bounds memory whatever the rate: at most this many texts are remembered. */
    private readonly cap = 512,
  ) {}

  copy(text: string, at: number): boolean {
    const queue = this.queue
    while (this.head < queue.length) {
      const oldest = queue[this.head] as Seen
      if (oldest.live && at - oldest.at <= this.windowMs && this.live < this.cap) break
      if (oldest.live) this.unlink(oldest)
      this.head += 1
    }
    if (this.head > 1_024 && this.head * 2 > queue.length) {
      this.queue = queue.slice(this.head)
      this.head = 0
    }
    if (this.live === 0) return false
    const list = this.byLength.get(text.length)
    if (list === undefined) return false
    for (const seen of list) {
      if (seen.text !== text) continue
      this.unlink(seen)
      return true
    }
    return false
  }

  remember(text: string, at: number): void {
    const seen: Seen = { text, at, live: true }
    this.queue.push(seen)
    const list = this.byLength.get(text.length)
    if (list === undefined) this.byLength.set(text.length, [seen])
    else list.push(seen)
    this.live += 1
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
    this.queue = []
    this.head = 0
    this.byLength.clear()
    this.live = 0
  }

  /** Forgets a live entry (expired, or its copy came); its place in the queue is skipped later. */
  private unlink(seen: Seen): void {
    seen.live = false
    this.live -= 1
    const list = this.byLength.get(seen.text.length) as Seen[]
    if (list.length === 1) this.byLength.delete(seen.text.length)
    else list.splice(list.indexOf(seen), 1)
  }
}
