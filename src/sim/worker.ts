// Start the simulator in a worker thread. Under tsx/vitest the entry is worker-entry.ts and the worker
// loads tsx's CommonJS hook (`--import tsx` does not reach worker threads on Node 20); a bundled build passes
// its compiled entry explicitly.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { checkOrderFault, type OrderFault, type OrderLogEntry } from './faults'
import type { Dialect, SimulatorOptions } from './index'
import type { WorkerFault, WorkerInput, WorkerReply } from './worker-entry'

export type { WorkerFault }

export interface SimulatorWorker {
  /** The dialect the simulator in the worker speaks (from the `dialect` option, else the library default). */
  dialect: Dialect
  baseUrl: string
  wsUrl: string
  demoKey: string
  /** Test hook: inject a fault into the simulator running in the worker. */
  fault(kind: WorkerFault): void
  /** Test hooks of the VoxFi dialect's trade paths, as SimulatorFaults has them; a malformed fault throws here. */
  orderFault(fault: OrderFault, count?: number): void
  closeMarket(marketId: string): void
  reopenMarket(marketId: string): void
  /** Every trade request the simulator received so far (SimulatorFaults.orderLog). */
  orderLog(): Promise<OrderLogEntry[]>
  close(): Promise<void>
}

/** Every simulator option crosses to the worker (`dialect` included) except `log`, which comes back as messages. */
export type SimulatorWorkerOptions = SimulatorOptions & {
  /** Path to the worker script; default: worker-entry.ts beside this file. */
  entry?: string
  /** How long to wait for the simulator to listen (default 20 s). */
  startTimeoutMs?: number
}

export function startSimulatorWorker(options: SimulatorWorkerOptions = {}): Promise<SimulatorWorker> {
  const { entry = join(__dirname, 'worker-entry.ts'), startTimeoutMs = 20_000, log, ...simOptions } = options
  // Functions cannot cross to a worker: log lines come back as messages instead.
  const workerData: WorkerInput = { options: simOptions, log: log !== undefined }
  const execArgv = /\.[cm]?ts$/.test(entry) ? ['--require', createRequire(entry).resolve('tsx/cjs')] : []
  return new Promise((resolve, reject) => {
    let worker: Worker
    try {
      worker = new Worker(entry, { workerData, execArgv })
    } catch (e) {
      reject(e as Error)
      return
    }
    let settled = false
    const fail = (e: Error): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      reject(e)
    }
    const timer = setTimeout(() => fail(new Error('simulator worker did not start in time')), startTimeoutMs)
    const exited = new Promise<void>((res) => worker.once('exit', () => res()))
    worker.once('error', (e) => fail(e))
    worker.once('exit', (code) =>
      fail(new Error(`simulator worker exited (code ${code}) before it was ready`)),
    )
    const logRequests = new Map<number, (entries: OrderLogEntry[]) => void>()
    let logRequestNo = 0
    worker.on('message', (m: WorkerReply) => {
      if (m.type === 'log') {
        log?.(m.line)
        return
      }
      if (m.type === 'order-log') {
        logRequests.get(m.id)?.(m.entries)
        logRequests.delete(m.id)
        return
      }
      if (settled) return
      if (m.type === 'error') {
        fail(new Error(`simulator worker failed: ${m.message}`))
        return
      }
      if (m.type !== 'ready') return
      settled = true
      clearTimeout(timer)
      let closing: Promise<void> | null = null
      resolve({
        dialect: m.dialect,
        baseUrl: m.baseUrl,
        wsUrl: m.wsUrl,
        demoKey: m.demoKey,
        fault: (kind) => worker.postMessage({ type: 'fault', kind }),
        orderFault: (fault, count = 1) =>
          worker.postMessage({ type: 'order-fault', fault: checkOrderFault(fault, count), count }),
        closeMarket: (market) => worker.postMessage({ type: 'market', market, open: false }),
        reopenMarket: (market) => worker.postMessage({ type: 'market', market, open: true }),
        orderLog: () =>
          new Promise((resolveLog, rejectLog) => {
            const id = ++logRequestNo
            logRequests.set(id, resolveLog)
            void exited.then(() => rejectLog(new Error('simulator worker exited')))
            worker.postMessage({ type: 'order-log', id })
          }),
        close: () => {
          closing ??= (async () => {
            worker.postMessage({ type: 'close' })
            // A worker that does not wind down by itself is terminated.
            const t = setTimeout(() => void worker.terminate(), 5_000)
            await exited
            clearTimeout(t)
          })()
          return closing
        },
      })
    })
  })
}
