// The second copy of a frame. VoxFi's market channel and event channel both carry a market's frames, and its
// trades have no id to tell a resent print from a new one: a window that watches a market while another watches
// its event would get every trade twice. Both channels send the same text, so the copy that follows the first
// within a moment is dropped (docs/voxfi.md §8). Two genuine prints of the same taker against the same makers,
// at the same price and size, within that moment, would read as one: far rarer than the double count it stops.
// Only texts that were read as market data are remembered, so a copy is known by its text alone and dropped
// before it is parsed: the same text reads the same. The live feed remembers them only while a copy can come (an
// event channel wanted, or just dropped: `eventChannels`); a replay, whose recording may hold both channels,
// always does.

import { TextsByLength } from '../base/texts-by-length'

/** What the frame router asks of the filter (frames.ts `FrameRouterDeps.duplicate`). */
export interface DuplicateFilter {
  /** True for the copy of a remembered text within the window (the copy is dropped; a third arrival is new). */
  copy(text: string, at: number): boolean
  /** `text` was read as public market data: its copy within the window is to be dropped. */
  remember(text: string, at: number): void
}

/**
 * How long after the last event channel stopped being wanted the live feed may still bring a copy: the unsubscribe
 * goes out on the next tick, and what the venue sent on the channel before it heard that still arrives. Far longer
 * than that takes over any link the engine stays connected on; a copy let through doubles a trade.
 */
export const EVENT_CHANNEL_TRAIL_MS = 10_000

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
  /** The live entries by their text. */
  private readonly live = new TextsByLength<Seen>()
  /** Some event channel is wanted on the live connection; else, until when its copies may still come. */
  private eventsWanted = false
  private eventsUntil = Number.NEGATIVE_INFINITY

  constructor(
    private readonly windowMs = 1_000,
    /** Bounds memory whatever the rate: at most this many texts are remembered. */
    private readonly cap = 512,
  ) {}

  copy(text: string, at: number): boolean {
    const queue = this.queue
    while (this.head < queue.length) {
      const oldest = queue[this.head] as Seen
      if (oldest.live && at - oldest.at <= this.windowMs && this.live.size < this.cap) break
      if (oldest.live) this.unlink(oldest)
      this.head += 1
    }
    if (this.head > 1_024 && this.head * 2 > queue.length) {
      this.queue = queue.slice(this.head)
      this.head = 0
    }
    const seen = this.live.get(text)
    if (seen === undefined) return false
    this.unlink(seen)
    return true
  }

  remember(text: string, at: number): void {
    const seen: Seen = { text, at, live: true }
    // The router remembers a text only once `copy` found none live; were one live, the newer entry replaces it.
    const older = this.live.get(text)
    if (older !== undefined) older.live = false
    this.queue.push(seen)
    this.live.set(text, seen)
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

  /**
   * Whether any event channel is wanted on the live connection (the subscriptions' union), as of `at`. VoxFi sends
   * a market's frames a second time only on its event's channel: with none wanted, and none dropped within
   * EVENT_CHANNEL_TRAIL_MS, no live frame has a copy to come, and remembering its text would only keep 2 KB a frame
   * alive for a second (past the young generation, at the demo load).
   */
  eventChannels(wanted: boolean, at: number): void {
    if (this.eventsWanted && !wanted) this.eventsUntil = at + EVENT_CHANNEL_TRAIL_MS
    this.eventsWanted = wanted
  }

  /** As `when`, for the live feed: texts are remembered only while a copy can come (`eventChannels`). */
  whenLive(applies: () => boolean): DuplicateFilter {
    return {
      copy: (text, at) => applies() && this.copy(text, at),
      remember: (text, at) => {
        if (applies() && (this.eventsWanted || at <= this.eventsUntil)) this.remember(text, at)
      },
    }
  }

  clear(): void {
    this.queue = []
    this.head = 0
    this.live.clear()
  }

  /** Forgets a live entry (expired, or its copy came); its place in the queue is skipped later. */
  private unlink(seen: Seen): void {
    seen.live = false
    this.live.delete(seen.text, seen)
    // The queue keeps the entry until it is compacted (seconds at a busy feed): it must not keep the text, or
    // every frame's 2 KB would outlive the young generation and be collected in the old.
    seen.text = ''
  }
}
