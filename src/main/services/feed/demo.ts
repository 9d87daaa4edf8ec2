// The embedded simulator behind the demo profile. It runs in a worker thread so that its market generator never
// competes with the engine on the main event loop (a firehose there would delay our own socket's frames).
import type { Dialect } from '../../../sim/index'
import { startSimulatorWorker, type WorkerFault } from '../../../sim/worker'

export type DemoFault = WorkerFault

export interface DemoSimulator {
  baseUrl: string
  wsUrl: string
  /** Lives only in main memory: stored in the in-memory credential store when the user opts in. */
  demoKey: string
  /** Test hook for end-to-end tests: a fault injected in the embedded simulator. */
  fault(kind: DemoFault): void
  close(): Promise<void>
}

export interface DemoOptions {
  seed?: number
  /** The simulator's dialect: VoxFi's (default), or the reference dialect for benches and sequence tests. */
  dialect?: Dialect
  /** The worker script, for bundled builds (default: the simulator's worker-entry beside its source). */
  workerEntry?: string
}

export async function startDemoSimulator(options: DemoOptions = {}): Promise<DemoSimulator> {
  const sim = await startSimulatorWorker({
    host: '127.0.0.1',
    port: 0,
    dialect: options.dialect ?? 'voxfi',
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.workerEntry !== undefined ? { entry: options.workerEntry } : {}),
  })
  let closing: Promise<void> | null = null
  return {
    baseUrl: sim.baseUrl,
    wsUrl: sim.wsUrl,
    demoKey: sim.demoKey,
    fault: (kind) => sim.fault(kind),
    close() {
      closing ??= Promise.resolve(sim.close()).then(() => undefined)
      return closing
    },
  }
}
