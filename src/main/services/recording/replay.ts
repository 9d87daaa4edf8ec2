// The replay clock (docs/recording.md): hands a recording's frames to the engine's frame path at 1× to 50× the
// recorded pace, with pause and seek. Seeking back forgets everything the frames built (books, tapes, account)
// and feeds the frames again from the start up to the target without pacing, so the books there are exactly
// what a straight replay to that point builds; seeking forward feeds the frames in between without pacing.
// A seek feeds in slices of at most SEEK_SLICE_MS and yields between them, so the engine (IPC, other windows,
// timers) never stops for the seconds a seek through a large recording takes; the latest seek wins, stop cancels.
// Waits are bounded: a gap of more than MAX_GAP_MS in the recording is jumped over (counted in `skipped`), and no
// timer is ever set for more than MAX_TIMER_MS, so a far-future frame can neither overflow setTimeout nor spin.
import type { ReplayState } from '../../../shared/model'
import type { ReplayFrames } from './frame-store'

export interface ReplayClockDeps {
  /** One frame into the engine (the same path the live socket's frames take). */
  feed(text: string, receivedAt: number): void
  /**
   * One frame of a seek: into the same state, but windows hear nothing of it until `sought()` (default `feed`).
   */
  skim?(text: string, receivedAt: number): void
  /** A seek landed: windows may hear what its frames changed. */
  sought?(): void
  /**
   * A seek starts: the frames it feeds do not follow the ones fed before (the duplicate filter must not compare
   * them); a seek back calls `reset` too.
   */
  jumped?(): void
  /** Forget what the frames built so far (a seek back starts from the beginning of the recording). */
  reset(): void
  /** The replay's own state changed (position jumps, pause, speed, end). */
  changed(): void
  now(): number
}

/** Frames fed in one go before the clock yields to the event loop (a dense recording at 50×). */
const MAX_FRAMES_PER_TURN = 2_000
/** The longest a seek feeds frames before it yields to the event loop (the engine's longest stall in a seek). */
export const SEEK_SLICE_MS = 10
/** Frames fed between two clock reads in a seek (a frame costs a few µs). */
const SEEK_CLOCK_EVERY = 32
/** A silence in the recording longer than this (recording time) is skipped: the position jumps to the next frame. */
export const MAX_GAP_MS = 10 * 60_000
/** The longest timer the clock sets; a longer wait (only at slow speed) wakes and sleeps again. */
export const MAX_TIMER_MS = 60_000

export class ReplayClock {
  /** The next frame to feed. */
  private index = 0
  /** The position (ms into the recording) at wall time `baseWall`. */
  private basePos = 0
  private baseWall = 0
  private speedValue: number
  private pausedValue: boolean
  private ended = false
  private stopped = false
  private timer: NodeJS.Timeout | null = null
  private immediate: NodeJS.Immediate | null = null
  /** The seek in progress: its target (the latest asked), its next slice, and the calls waiting for it to land. */
  private seeking: { target: number; slice: NodeJS.Immediate | null; waiting: Array<() => void> } | null =
    null
  /** Gaps jumped over, and the recording time they held. */
  private skippedGaps = 0
  private skippedMsValue = 0

  constructor(
    private readonly frames: ReplayFrames,
    readonly durationMs: number,
    private readonly d: ReplayClockDeps,
    options: { speed: number; paused?: boolean },
  ) {
    this.speedValue = options.speed
    this.pausedValue = options.paused ?? false
  }

  get speed(): number {
    return this.speedValue
  }

  get paused(): boolean {
    return this.pausedValue
  }

  state(): ReplayState {
    return this.ended ? 'ended' : this.pausedValue ? 'paused' : 'playing'
  }

  /** Whether a seek is feeding its frames (the position is its target meanwhile). */
  get seekInProgress(): boolean {
    return this.seeking !== null
  }

  /** ms into the recording. */
  position(): number {
    if (this.seeking !== null) return this.seeking.target
    if (this.pausedValue || this.ended || this.stopped) return this.basePos
    return Math.min(this.durationMs, this.basePos + (this.d.now() - this.baseWall) * this.speedValue)
  }

  /** The silences longer than MAX_GAP_MS the replay jumped over, and their total length (ms of recording). */
  skipped(): { gaps: number; ms: number } {
    return { gaps: this.skippedGaps, ms: this.skippedMsValue }
  }

  /** Frames fed so far. */
  fed(): number {
    return this.index
  }

  start(): void {
    this.baseWall = this.d.now()
    this.run()
  }

  setSpeed(speed: number): void {
    if (this.stopped || speed === this.speedValue) return
    this.rebase()
    this.speedValue = speed
    this.reschedule()
    this.d.changed()
  }

  setPaused(paused: boolean): void {
    if (this.stopped || paused === this.pausedValue) return
    this.rebase()
    this.pausedValue = paused
    // Play after the end starts again from the beginning.
    if (!paused && this.ended) this.seek(0)
    else this.reschedule()
    this.d.changed()
  }

  /**
   * How many seeks landed: windows drop what they hold of markets and the account and read them again, since the
   * engine re-derived them (a seek back) or moved them on without telling windows each change (any seek).
   */
  epoch = 0
  /** How many times a seek back made the replay forget what it built. */
  resets = 0

  /**
   * Jump to `ms` into the recording (clamped); the books are re-derived as described above, in slices. Resolves
   * once the replay has landed, on this target or a later seek's, or was stopped.
   */
  seek(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve()
    const target = Math.max(0, Math.min(this.durationMs, ms))
    this.cancel()
    this.d.jumped?.()
    if (this.index > 0 && this.frames.t(this.index - 1) > target) {
      this.d.reset()
      this.index = 0
      this.resets += 1
    }
    const landed = new Promise<void>((resolve) => {
      if (this.seeking === null) {
        this.seeking = { target, slice: null, waiting: [resolve] }
        this.d.changed()
        this.slice()
      } else {
        // The latest seek wins: the slices in progress go on towards this target (from the start after a reset).
        this.seeking.target = target
        this.seeking.waiting.push(resolve)
      }
    })
    return landed
  }

  /** Feeds the seek's frames for at most SEEK_SLICE_MS, then yields; lands when the target is reached. */
  private slice(): void {
    const seeking = this.seeking
    if (seeking === null || this.stopped) return
    seeking.slice = null
    const skim = this.d.skim ?? this.d.feed
    const { target } = seeking
    // Each frame is stamped as a straight replay to the target at this speed would have stamped it, so what
    // depends on the time between frames (the duplicate filter, ages, liveness) reads the same.
    const now = this.d.now()
    const end = performance.now() + SEEK_SLICE_MS
    let n = 0
    while (this.index < this.frames.length) {
      const t = this.frames.t(this.index)
      if (t > target) break
      skim(this.frames.text(this.index), now - (target - t) / this.speedValue)
      this.index += 1
      if (++n % SEEK_CLOCK_EVERY === 0 && performance.now() >= end) {
        seeking.slice = setImmediate(() => this.slice())
        return
      }
    }
    this.seeking = null
    this.basePos = target
    this.baseWall = this.d.now()
    this.ended = false
    this.epoch += 1
    this.d.sought?.()
    this.run()
    this.d.changed()
    for (const resolve of seeking.waiting) resolve()
  }

  stop(): void {
    this.stopped = true
    this.cancel()
    const seeking = this.seeking
    this.seeking = null
    if (seeking === null) return
    if (seeking.slice !== null) clearImmediate(seeking.slice)
    for (const resolve of seeking.waiting) resolve()
  }

  private rebase(): void {
    this.basePos = this.position()
    this.baseWall = this.d.now()
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    if (this.immediate !== null) clearImmediate(this.immediate)
    this.timer = null
    this.immediate = null
  }

  private reschedule(): void {
    this.cancel()
    this.run()
  }

  /** Feeds every frame that is due, then sleeps until the next one is. */
  private run(): void {
    this.timer = null
    this.immediate = null
    // A seek in progress plays on from its target once it lands.
    if (this.stopped || this.pausedValue || this.ended || this.seeking !== null) return
    let pos = this.position()
    let budget = MAX_FRAMES_PER_TURN
    for (;;) {
      while (this.index < this.frames.length && budget > 0) {
        if (this.frames.t(this.index) > pos) break
        const text = this.frames.text(this.index)
        this.index += 1
        budget -= 1
        this.d.feed(text, this.d.now())
        if (this.stopped) return
      }
      if (this.index >= this.frames.length) {
        this.ended = true
        this.basePos = this.durationMs
        this.d.changed()
        return
      }
      if (budget === 0) {
        this.immediate = setImmediate(() => this.run())
        return
      }
      const next = this.frames.t(this.index)
      if (next - pos <= MAX_GAP_MS) break
      // A silence too long to wait through (or an impossible time): jump to the next frame, and say so.
      this.skippedGaps += 1
      this.skippedMsValue += next - pos
      this.basePos = next
      this.baseWall = this.d.now()
      pos = next
      this.d.changed()
    }
    const wait = Math.ceil((this.frames.t(this.index) - pos) / this.speedValue)
    this.timer = setTimeout(() => this.run(), Math.max(0, Math.min(MAX_TIMER_MS, wait)))
  }
}
