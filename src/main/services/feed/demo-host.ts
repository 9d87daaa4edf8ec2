// The embedded simulator behind the demo profile, started once on first need (or at start in demo mode) and
// shared by every later caller; closed with the engine.
import { startDemoSimulator, type DemoFault, type DemoOptions, type DemoSimulator } from './demo'
import type { Logger } from '../base/types'

export class DemoHost {
  private sim: DemoSimulator | null = null
  private starting: Promise<DemoSimulator | null> | null = null
  private closed = false

  /** `enabled: false` never starts it (the demo profile is then offline). */
  constructor(
    private readonly options: DemoOptions,
    private readonly enabled: boolean,
    private readonly log: Logger,
  ) {}

  /** The running simulator, if any (no start). */
  current(): DemoSimulator | null {
    return this.sim
  }

  async ensure(): Promise<DemoSimulator | null> {
    if (this.sim) return this.sim
    if (!this.enabled || this.closed) return null
    this.starting ??= startDemoSimulator(this.options).then(
      async (sim) => {
        // Closed while it was starting: close() is awaiting this promise, so it returns once the worker is gone.
        if (this.closed) {
          await sim.close()
          return null
        }
        this.sim = sim
        this.log.info('monitor: embedded simulator started')
        return sim
      },
      (err: unknown) => {
        this.starting = null
        this.log.error('monitor: embedded simulator failed to start', { error: String(err) })
        return null
      },
    )
    return this.starting
  }

  /** Test hook: false when no simulator runs. */
  fault(kind: DemoFault): boolean {
    if (!this.sim) return false
    this.log.warn('monitor: test hook injected a simulator fault', { kind })
    this.sim.fault(kind)
    return true
  }

  async close(): Promise<void> {
    this.closed = true
    const sim = this.sim ?? (this.starting ? await this.starting : null)
    this.sim = null
    if (sim) await sim.close()
  }
}
