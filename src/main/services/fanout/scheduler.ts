// When the fan-out runs a pass. Leading edge: a change for an idle window (no batch for one interval) runs a pass
// once the current synchronous work (one socket read, every update of its frames) is done. Otherwise a timer runs
// it when the earliest busy window's interval runs out, or sooner when that timer is overdue because the event
// loop is busy reading a firehose.
export type TimerHandle = unknown

export interface SchedulerOptions {
  /** Minimum time between two batches to one window (default 16 ms). */
  intervalMs?: number
  now?: () => number
  /** Injected for tests; the default timer is unref'd so it never keeps the process alive. */
  setTimer?: (fn: () => void, ms: number) => TimerHandle
  clearTimer?: (handle: TimerHandle) => void
  /**
   * How late the timer may be before a change notification flushes in its place (default 2 ms). Under a firehose
   * Node reads many socket chunks, tens of ms of frames, before it runs timers; without this the windows would
   * get their batches that much less often.
   */
  overdueMs?: number
  /**
   * Runs a pass once the current synchronous work (one socket chunk) is done: the leading-edge send to an idle
   * window, or an overdue flush. Default queueMicrotask; injected for tests.
   */
  defer?: (fn: () => void) => void
}

/** Notifications between two clock reads while a timer is pending: keeps the overdue check off the per-frame cost. */
const CLOCK_CHECK_EVERY = 16

export function defaultSetTimer(fn: () => void, ms: number): TimerHandle {
  const t = setTimeout(fn, ms)
  t.unref()
  return t
}

export function defaultClearTimer(handle: TimerHandle): void {
  clearTimeout(handle as ReturnType<typeof setTimeout>)
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`)
  return value
}

export class FlushScheduler {
  readonly intervalMs: number
  readonly now: () => number
  private readonly setTimer: (fn: () => void, ms: number) => TimerHandle
  private readonly clearTimer: (handle: TimerHandle) => void
  private readonly overdueMs: number
  private readonly defer: (fn: () => void) => void
  /** Armed while any window is busy: fires when the earliest busy window's interval runs out. */
  private timer: TimerHandle | null = null
  /** When the armed timer fires. */
  private dueAt = -Infinity
  private notesSinceClockCheck = 0
  /** A pass has been handed to `defer` (leading edge, or an overdue timer) and has not run yet. */
  private deferred = false
  private closed = false
  private readonly onTimer: () => void
  private readonly onDeferred: () => void

  /** `pass(dueBy, at)` sends to the windows whose interval ran out by `dueBy`, then calls `arm`. */
  constructor(options: SchedulerOptions, pass: (dueBy: number, at: number) => void) {
    this.intervalMs = nonNegative(options.intervalMs ?? 16, 'intervalMs')
    this.now = options.now ?? Date.now
    this.setTimer = options.setTimer ?? defaultSetTimer
    this.clearTimer = options.clearTimer ?? defaultClearTimer
    this.overdueMs = nonNegative(options.overdueMs ?? 2, 'overdueMs')
    this.defer = options.defer ?? queueMicrotask
    this.onTimer = () => {
      this.timer = null
      // The timer is trusted to mean "the interval has run out" even if it fires a hair early by Date.now().
      const at = this.now()
      pass(Math.max(at, this.dueAt), at)
    }
    this.onDeferred = () => {
      this.deferred = false
      const at = this.now()
      pass(at, at)
    }
  }

  /**
   * A change was recorded. If it concerns an idle window it goes out at once, but never from inside the
   * notification. Otherwise the timer sends it when the busy windows' interval runs out.
   */
  changed(forIdle: boolean): void {
    if (this.closed) return
    if (forIdle || this.timer === null) {
      this.runSoon()
      return
    }
    // The timer is pending. If it is overdue, the event loop is busy reading the socket: flush as soon as the
    // current chunk of frames is done (a frame's updates stay in one batch), still at most once per interval.
    if (this.deferred || ++this.notesSinceClockCheck < CLOCK_CHECK_EVERY) return
    this.notesSinceClockCheck = 0
    if (this.now() < this.dueAt + this.overdueMs) return
    this.runSoon()
  }

  /** Arms the timer for `next`, the earliest busy window's end of interval (Infinity: none is busy). */
  arm(next: number, at: number): void {
    if (next === Infinity) {
      this.disarm()
      return
    }
    if (this.timer !== null) {
      if (next === this.dueAt) return
      this.clearTimer(this.timer)
    }
    this.dueAt = next
    this.notesSinceClockCheck = 0
    this.timer = this.setTimer(this.onTimer, Math.max(0, next - at))
  }

  /** Stops the timer; later changes run nothing. */
  close(): void {
    this.closed = true
    this.disarm()
  }

  private disarm(): void {
    if (this.timer === null) return
    this.clearTimer(this.timer)
    this.timer = null
  }

  private runSoon(): void {
    if (this.deferred) return
    this.deferred = true
    this.defer(this.onDeferred)
  }
}
