// The simulator's worker-thread script (demo mode runs the exchange off the engine's event loop).
// Protocol: workerData = { options: SimulatorOptions without log, log: boolean }; posts {type:'ready', baseUrl,
// wsUrl, demoKey, port} or {type:'error', message}, {type:'log', line} when asked to, and on {type:'close'}
// closes the simulator and posts {type:'closed'}. Test hooks: {type:'fault', kind}, {type:'order-fault', fault,
// count}, {type:'market', market, open} and {type:'order-log', id}, answered with {type:'order-log', id, entries}.
import { parentPort, workerData } from 'node:worker_threads'
import type { OrderFault, OrderLogEntry } from './faults'
import { createSimulator, type Dialect, type Simulator, type SimulatorOptions } from './index'

export type WorkerReply =
  | { type: 'ready'; baseUrl: string; wsUrl: string; demoKey: string; port: number; dialect: Dialect }
  | { type: 'error'; message: string }
  | { type: 'log'; line: string }
  | { type: 'order-log'; id: number; entries: OrderLogEntry[] }
  | { type: 'closed' }

/** Test hook: faults injected from the parent thread (e2e tests of the demo app). */
export type WorkerFault =
  'drop' | 'stall' | 'unstall' | 'freeze' | 'unfreeze' | 'malformed' | 'restart' | 'server-error'

export interface WorkerInput {
  options: Omit<SimulatorOptions, 'log'>
  log: boolean
}

async function run(): Promise<void> {
  const port = parentPort
  if (port === null) throw new Error('worker-entry must run in a worker thread')
  const post = (m: WorkerReply): void => port.postMessage(m)
  let sim: Simulator
  try {
    const input = (workerData ?? { options: {}, log: false }) as WorkerInput
    sim = await createSimulator({
      ...input.options,
      log: input.log ? (line) => post({ type: 'log', line }) : undefined,
    })
  } catch (e) {
    post({ type: 'error', message: (e as Error).message })
    port.close()
    return
  }
  port.on('message', (m: unknown) => {
    if (typeof m !== 'object' || m === null) return
    const msg = m as Record<string, unknown>
    if (msg.type === 'order-log' && typeof msg.id === 'number') {
      post({ type: 'order-log', id: msg.id, entries: sim.faults.orderLog() })
      return
    }
    if (msg.type === 'order-fault' || msg.type === 'market') {
      // The parent checked the arguments (worker.ts): a refusal here can only be logged.
      try {
        if (msg.type === 'order-fault') sim.faults.orderFault(msg.fault as OrderFault, msg.count as number)
        else if (msg.open === true) sim.faults.reopenMarket(String(msg.market))
        else sim.faults.closeMarket(String(msg.market))
      } catch (e) {
        post({ type: 'log', line: `sim: fault refused: ${(e as Error).message}` })
      }
      return
    }
    if (msg.type === 'fault') {
      if (msg.kind === 'drop') sim.faults.dropAll()
      else if (msg.kind === 'stall') sim.faults.stall(true)
      else if (msg.kind === 'unstall') sim.faults.stall(false)
      else if (msg.kind === 'freeze') sim.faults.freeze(true)
      else if (msg.kind === 'unfreeze') sim.faults.freeze(false)
      else if (msg.kind === 'malformed') sim.faults.sendMalformed(1)
      else if (msg.kind === 'restart') void sim.faults.restart()
      else if (msg.kind === 'server-error') sim.faults.serverError()
      return
    }
    if (msg.type === 'close') {
      void sim.close().finally(() => {
        post({ type: 'closed' })
        port.close()
      })
    }
  })
  post({
    type: 'ready',
    baseUrl: sim.baseUrl,
    wsUrl: sim.wsUrl,
    demoKey: sim.demoKey,
    port: sim.port,
    dialect: sim.dialect,
  })
}

void run()
