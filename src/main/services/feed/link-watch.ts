// Watches one open socket for death (DESIGN §4 "Liveness"): two independent signals, because venues keep
// answering pings while data stops. Ping/pong runs fast while data is expected and catches a half-open link;
// the data-silence check judges silence against the connection's learnt rhythm and catches a stalled feed.
// A periodic check rather than a timer reset per frame keeps the per-frame cost at nothing.
import type { GapEstimator } from '../health/gap-estimator'

export interface LinkWatchOptions {
  /** The socket's ping; throws when the socket cannot send. */
  ping(): void
  now(): number
  /** Whether data is expected (subscriptions exist). */
  expectsData(): boolean
  pingIntervalMs: number
  idlePingIntervalMs: number
  pongTimeoutMs: number
  /** The connection's arrival rhythm (fed by the stream for every frame). */
  gaps: GapEstimator
  /** The silence limit in force now (ms). */
  silenceLimit(): number
  /** The link is dead: the stream ends the socket with this cause. Called at most once. */
  onDead(cause: 'error' | 'ping-timeout' | 'silence', error: string): void
}

function unref<T extends { unref?: () => unknown }>(timer: T): T {
  timer.unref?.()
  return timer
}

export class LinkWatch {
  private pingTimer: NodeJS.Timeout | null = null
  private pingArmedAt = 0
  private pingArmedIdle = false
  private pongTimer: NodeJS.Timeout | null = null
  private watchTimer: NodeJS.Timeout | null = null
  private stopped = false

  constructor(private readonly o: LinkWatchOptions) {
    this.armNextPing()
    this.armWatch()
  }

  /** A pong arrived. An unsolicited one (no ping outstanding) must not arm a second ping timer. */
  pong(): void {
    if (this.stopped || !this.pongTimer) return
    clearTimeout(this.pongTimer)
    this.pongTimer = null
    this.armNextPing()
  }

  stop(): void {
    this.stopped = true
    for (const t of [this.pingTimer, this.pongTimer, this.watchTimer]) if (t) clearTimeout(t)
    this.pingTimer = this.pongTimer = this.watchTimer = null
  }

  private dead(cause: 'error' | 'ping-timeout' | 'silence', error: string): void {
    if (this.stopped) return
    this.stop()
    this.o.onDead(cause, error)
  }

  private armPing(delayMs: number, idle: boolean): void {
    this.pingArmedAt = this.o.now()
    this.pingArmedIdle = idle
    this.pingTimer = unref(
      setTimeout(() => {
        this.pingTimer = null
        if (this.stopped) return
        try {
          this.o.ping()
        } catch (err) {
          this.dead('error', `ping failed: ${String(err)}`)
          return
        }
        this.pongTimer = unref(
          setTimeout(() => {
            this.pongTimer = null
            this.dead('ping-timeout', `no pong within ${this.o.pongTimeoutMs} ms`)
          }, this.o.pongTimeoutMs),
        )
      }, delayMs),
    )
  }

  private armNextPing(): void {
    const active = this.o.expectsData()
    this.armPing(active ? this.o.pingIntervalMs : this.o.idlePingIntervalMs, !active)
  }

  // It also moves a ping that was armed at the idle interval forward when subscriptions appear, so a half-open
  // link is found quickly right after the first subscribe.
  private armWatch(): void {
    const checkEvery = Math.max(25, Math.min(250, Math.floor(this.o.silenceLimit() / 4)))
    this.watchTimer = unref(
      setTimeout(() => {
        this.watchTimer = null
        if (this.stopped) return
        const t = this.o.now()
        if (!this.o.expectsData()) {
          // No subscription: silence is expected, and a gap spanning it says nothing of the feed's rhythm.
          this.o.gaps.restartClock(t)
        } else {
          if (this.pingTimer && this.pingArmedIdle) {
            clearTimeout(this.pingTimer)
            this.armPing(Math.max(0, this.pingArmedAt + this.o.pingIntervalMs - t), false)
          }
          const silentFor = t - (this.o.gaps.lastAt() ?? t)
          const limit = this.o.silenceLimit()
          if (silentFor >= limit) {
            this.dead('silence', `no data for ${silentFor} ms (limit ${Math.round(limit)} ms)`)
            return
          }
        }
        this.armWatch()
      }, checkEvery),
    )
  }
}
