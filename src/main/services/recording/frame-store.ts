// A recording's frames held compactly for a replay (docs/recording.md, "Memory"): the times in one Float64Array,
// the frames' texts as UTF-8 packed into blocks of about 1 MiB, each block deflated once it is full. A replay reads
// the frames in order, so one inflated block is kept at a time. Millions of frames cost a few bytes each plus
// their compressed text, never one JS object per frame.
import { deflateRawSync, inflateRawSync } from 'node:zlib'

/** What the replay clock needs of a recording's frames: their count, times and texts, by index. */
export interface ReplayFrames {
  readonly length: number
  /** ms since the recording started; never decreasing with the index. */
  t(index: number): number
  /** The frame's text (keys scrubbed when it was recorded). */
  text(index: number): string
}

export interface RecordedFrame {
  /** ms since the recording started. */
  t: number
  /** The frame's text, as received (keys scrubbed). */
  f: string
}

/** Texts are packed into blocks of this many bytes (a larger frame gets a block of its own). */
const BLOCK_BYTES = 1024 * 1024

export class FrameStore implements ReplayFrames {
  private times = new Float64Array(1024)
  /** End of frame i's text inside its block. */
  private ends = new Uint32Array(1024)
  private count = 0
  /** Deflated blocks, and the index of each block's first frame. */
  private readonly blocks: Buffer[] = []
  private readonly firsts: number[] = []
  private open: Buffer | null = null
  private openUsed = 0
  private openFirst = 0
  /** Whether the open block holds only ASCII so far; then per block in `ascii`. */
  private openAscii = true
  private readonly ascii: boolean[] = []
  private cachedIndex = -1
  private cached: Buffer | null = null

  static from(frames: readonly RecordedFrame[]): FrameStore {
    const store = new FrameStore()
    for (const frame of frames) store.push(frame.t, frame.f)
    return store.finish()
  }

  get length(): number {
    return this.count
  }

  /** Bytes this store holds (times, offsets and deflated blocks). */
  get heldBytes(): number {
    let n = this.times.byteLength + this.ends.byteLength + (this.open?.length ?? 0)
    for (const b of this.blocks) n += b.length
    return n
  }

  push(t: number, text: string): void {
    const size = Buffer.byteLength(text, 'utf8')
    // As many UTF-8 bytes as UTF-16 units: every character is ASCII.
    const ascii = size === text.length
    if (this.open !== null && this.openUsed + size > this.open.length) this.seal()
    if (this.open === null) {
      this.open = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, size))
      this.openUsed = 0
      this.openFirst = this.count
    }
    if (this.count === this.times.length) this.grow()
    this.openUsed += this.open.write(text, this.openUsed, 'utf8')
    this.openAscii &&= ascii
    this.times[this.count] = t
    this.ends[this.count] = this.openUsed
    this.count += 1
  }

  /** Seals the last block and trims the arrays: the store is then read-only. */
  finish(): this {
    this.seal()
    this.times = this.times.slice(0, this.count)
    this.ends = this.ends.slice(0, this.count)
    return this
  }

  t(index: number): number {
    return this.times[index] as number
  }

  text(index: number): string {
    const block = this.blockOf(index)
    if (block !== this.cachedIndex) {
      this.cached = inflateRawSync(this.blocks[block] as Buffer)
      this.cachedIndex = block
    }
    const start = index === this.firsts[block] ? 0 : (this.ends[index - 1] as number)
    // ASCII reads the same as latin1 and UTF-8; latin1 skips the UTF-8 decoder (a seek reads a million frames).
    return (this.cached as Buffer).toString(
      this.ascii[block] === true ? 'latin1' : 'utf8',
      start,
      this.ends[index],
    )
  }

  at(index: number): RecordedFrame {
    return { t: this.t(index), f: this.text(index) }
  }

  /** Every frame as an object (tests and small recordings only). */
  toArray(): RecordedFrame[] {
    const out: RecordedFrame[] = []
    for (let i = 0; i < this.count; i++) out.push(this.at(i))
    return out
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2)
    times.set(this.times)
    this.times = times
    const ends = new Uint32Array(this.ends.length * 2)
    ends.set(this.ends)
    this.ends = ends
  }

  private seal(): void {
    if (this.open === null) return
    if (this.count > this.openFirst) {
      this.blocks.push(deflateRawSync(this.open.subarray(0, this.openUsed), { level: 1 }))
      this.firsts.push(this.openFirst)
      this.ascii.push(this.openAscii)
    }
    this.open = null
    this.openUsed = 0
    this.openAscii = true
  }

  /** The block holding frame `index` (blocks are in frame order). */
  private blockOf(index: number): number {
    const cached = this.cachedIndex
    if (cached >= 0 && index >= (this.firsts[cached] as number)) {
      const next = this.firsts[cached + 1]
      if (next === undefined || index < next) return cached
    }
    let lo = 0
    let hi = this.firsts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((this.firsts[mid] as number) <= index) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}
