// A stand-in engine for the host tests that are about the host itself (HTTP, access control, frame handling):
// it records attach/dispose and calls, answers every method with ok(), and lets a test push batches.
import { MONITOR_METHODS, ok } from '../../src/shared/ipc'
import type { ViewBatch } from '../../src/shared/ipc'
import type { AttachOptions, MonitorClient, MonitorEngine } from '../../src/main/services/base/types'

export interface FakeEngine extends MonitorEngine {
  attached: number
  disposed: number
  calls: Array<{ client: string; method: string; args: unknown[] }>
  sinks: Map<string, (batch: ViewBatch) => void>
  closed: boolean
  /** Methods that never answer (to test in-flight calls when a socket drops). */
  hang: Set<string>
}

export function fakeEngine(): FakeEngine {
  const engine: FakeEngine = {
    attached: 0,
    disposed: 0,
    calls: [],
    sinks: new Map(),
    closed: false,
    hang: new Set(),
    attachClient(options: AttachOptions): MonitorClient {
      const id = `c${++engine.attached}`
      engine.sinks.set(id, options.sink)
      const methods: Record<string, unknown> = {}
      for (const method of MONITOR_METHODS) {
        methods[method] = async (...args: unknown[]) => {
          engine.calls.push({ client: id, method, args })
          if (engine.hang.has(method)) return new Promise(() => {})
          if (method === 'listEvents')
            return ok([{ id: 'e1', title: 'Fake event', markets: [{ id: 'm1', title: 'M' }] }])
          if (method === 'getStatus') throw new Error('boom')
          return ok(null)
        }
      }
      let disposed = false
      return {
        ...(methods as unknown as Omit<MonitorClient, 'id' | 'dispose'>),
        id,
        dispose() {
          if (disposed) return
          disposed = true
          engine.disposed++
          engine.sinks.delete(id)
        },
      }
    },
    reconnectNow() {},
    getWindowLayouts: () => [],
    injectDemoFault: () => false,
    watchShell: () => () => {},
    shellState: () => ({
      connection: 'live',
      alerts: { armed: 0, unread: 0, paused: false, keepRunning: 'auto' },
    }),
    pauseAlerts() {},
    setUpdateStatus() {},
    onInstallUpdate: () => () => {},
    saveWindowLayouts: async () => {},
    async close() {
      engine.closed = true
    },
  }
  return engine
}
