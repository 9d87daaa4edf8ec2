// The bridge between a sandboxed page and main: MonitorApi as intent-level functions, nothing raw.
// ipcRenderer itself never reaches the page, and neither does any IpcRendererEvent.
import { contextBridge, ipcRenderer } from 'electron'
import type { IpcRendererEvent } from 'electron'
import { IPC_BATCH_CHANNEL, IPC_PREFIX, MONITOR_METHODS } from '../shared/ipc'
import type { MonitorApi, MonitorMethod, ViewBatch } from '../shared/ipc'

type Invokers = { [M in MonitorMethod]: MonitorApi[M] }

function invoker<M extends MonitorMethod>(method: M): MonitorApi[M] {
  const channel = IPC_PREFIX + method
  return ((...args: unknown[]) => ipcRenderer.invoke(channel, ...args)) as MonitorApi[M]
}

function buildInvokers(): Invokers {
  const api: Partial<Record<MonitorMethod, unknown>> = {}
  for (const method of MONITOR_METHODS) api[method] = invoker(method)
  return api as Invokers
}

export function createMonitorApi(): MonitorApi {
  return {
    ...buildInvokers(),
    onBatch(listener: (batch: ViewBatch) => void): () => void {
      const relay = (_event: IpcRendererEvent, batch: ViewBatch): void => listener(batch)
      ipcRenderer.on(IPC_BATCH_CHANNEL, relay)
      return () => {
        ipcRenderer.removeListener(IPC_BATCH_CHANNEL, relay)
      }
    },
  }
}

contextBridge.exposeInMainWorld('monitor', createMonitorApi())
