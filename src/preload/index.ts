// The bridge between a sandboxed page and main: MonitorApi as intent-level functions, nothing raw.
// ipcRenderer itself never reaches the page, and neither does any IpcRendererEvent.
import { contextBridge, ipcRenderer } from 'electron'
import type { IpcRendererEvent } from 'electron'
import {
  IPC_BATCH_CHANNEL,
  IPC_COMMAND_CHANNEL,
  IPC_PREFIX,
  MONITOR_METHODS,
  isMenuCommand,
} from '../shared/ipc'
import type { MenuCommand, MonitorApi, MonitorMethod, ViewBatch } from '../shared/ipc'
import { asBatch, parseJson } from '../shared/bridge'

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

/** A command that arrives before the page subscribed waits for it; a flood of them is not worth keeping. */
const MAX_PENDING_COMMANDS = 4

/**
 * Menu commands on one permanent IPC listener. Main sends a command to a freshly opened window right after it
 * loads, which can be before React has subscribed; such commands are held for the first listener.
 */
function menuCommands(): (listener: (command: MenuCommand) => void) => () => void {
  const listeners = new Set<(command: MenuCommand) => void>()
  const pending: MenuCommand[] = []
  const deliver = (command: MenuCommand, listener: (command: MenuCommand) => void): void => {
    try {
      listener(command)
    } catch (error) {
      console.error('monitor: menu command listener failed', error)
    }
  }
  ipcRenderer.on(IPC_COMMAND_CHANNEL, (_event: IpcRendererEvent, command: unknown) => {
    // Only known commands reach the page, and never the IPC event that carried them.
    if (!isMenuCommand(command)) return
    if (listeners.size === 0) {
      if (pending.length < MAX_PENDING_COMMANDS) pending.push(command)
      return
    }
    for (const listener of [...listeners]) deliver(command, listener)
  })
  return (listener) => {
    const own = (command: MenuCommand): void => listener(command)
    listeners.add(own)
    for (const command of pending.splice(0)) deliver(command, own)
    return () => {
      listeners.delete(own)
    }
  }
}

/** A batch from the main process's JSON text; null (dropped) for anything that is not a batch's text. */
export function parseBatchText(text: unknown): ViewBatch | null {
  return asBatch(parseJson(text))
}

export function createMonitorApi(): MonitorApi {
  const onMenuCommand = menuCommands()
  return {
    ...buildInvokers(),
    onBatch(listener: (batch: ViewBatch) => void): () => void {
      // The main process sends each batch as its JSON text (src/main/services/fanout/batch-json.ts).
      const relay = (_event: IpcRendererEvent, text: unknown): void => {
        const batch = parseBatchText(text)
        if (batch !== null) listener(batch)
      }
      ipcRenderer.on(IPC_BATCH_CHANNEL, relay)
      return () => {
        ipcRenderer.removeListener(IPC_BATCH_CHANNEL, relay)
      }
    },
    onMenuCommand(listener: (command: MenuCommand) => void): () => void {
      return onMenuCommand(listener)
    },
  }
}

contextBridge.exposeInMainWorld('monitor', createMonitorApi())
