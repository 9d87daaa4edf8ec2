// THE typed IPC wrapper: the only file that touches ipcMain. Every call is checked for who sent it (our
// window's main frame, on our page) and for what it carries (ipc-validate) before the engine sees it.
import { ipcMain } from 'electron'
import type { IpcMainInvokeEvent, WebContents } from 'electron'
import { IPC_PREFIX, MONITOR_METHODS, fail } from '../shared/ipc'
import type { MonitorMethod } from '../shared/ipc'
import { validateArgs } from '../shared/ipc-validate'
import type { Result, WindowTarget } from '../shared/model'
import type { Logger, MonitorClient } from './services'
import { errorMessage } from './services'

export interface IpcHost {
  /** The engine client of one of our windows; undefined for any web contents we did not create. */
  clientFor(contents: WebContents): MonitorClient | undefined
  openWindow(target: WindowTarget): Result<void> | Promise<Result<void>>
  /** True for our own pages (app:// bundle, or the dev server in development). */
  isAppUrl(url: string): boolean
  logger: Logger
}

/** The parts of an invoke event the checks read (the real event, or a test double). */
export type InvokeSender = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>

type SenderCheck = { ok: true; client: MonitorClient } | { ok: false; message: string }

export function checkSender(host: IpcHost, event: InvokeSender): SenderCheck {
  const frame = event.senderFrame
  if (frame === null) return { ok: false, message: 'the sending frame is gone' }
  if (frame !== event.sender.mainFrame || frame.parent !== null) {
    return { ok: false, message: 'calls are accepted from the main frame only' }
  }
  const client = host.clientFor(event.sender)
  if (client === undefined) return { ok: false, message: 'the sender is not a Trading Monitor window' }
  if (!host.isAppUrl(frame.url)) return { ok: false, message: 'the sender is not on a Trading Monitor page' }
  return { ok: true, client }
}

function rejected(host: IpcHost, method: string, event: InvokeSender, message: string): Result<never> {
  // Never log arguments: setApiKey carries the key.
  host.logger.warn('ipc call rejected', { method, reason: message, webContents: event.sender.id })
  return fail({ code: 'invalid_argument', message })
}

/** One call, fully checked. Exported for tests; the engine is only reached on the success path. */
export async function dispatch(
  host: IpcHost,
  method: MonitorMethod,
  event: InvokeSender,
  args: unknown[],
): Promise<Result<unknown>> {
  const sender = checkSender(host, event)
  if (!sender.ok) return rejected(host, method, event, `${method}: refused: ${sender.message}`)
  const valid = validateArgs(method, args)
  if (!valid.ok) return rejected(host, method, event, valid.message)
  try {
    if (method === 'openWindow') {
      const [target] = valid.args as Parameters<IpcHost['openWindow']>
      return await host.openWindow(target)
    }
    const call = sender.client[method] as (...a: unknown[]) => Promise<Result<unknown>>
    return await call.apply(sender.client, valid.args as unknown[])
  } catch (error) {
    host.logger.error('ipc handler failed', {
      method,
      error: errorMessage(error),
    })
    return fail({ code: 'internal', message: `${method} failed unexpectedly` })
  }
}

/** Binds one invoke handler per MonitorApi method. Returns the unbind function. */
export function bindMonitorIpc(host: IpcHost): () => void {
  for (const method of MONITOR_METHODS) {
    ipcMain.handle(IPC_PREFIX + method, (event, ...args: unknown[]) => dispatch(host, method, event, args))
  }
  return () => {
    for (const method of MONITOR_METHODS) ipcMain.removeHandler(IPC_PREFIX + method)
  }
}
