// MonitorApi over the browser host's WebSocket bridge. The React code cannot tell it from the Electron preload:
// every call resolves with a Result (a transport failure is a `network` or `timeout` error, never a rejection),
// calls made while (re)connecting are queued, and the window's interests are replayed after a reconnect
// because the host gives every new socket a fresh engine client.
import { fail, MONITOR_METHODS, ok } from '../../shared/ipc'
import { BRIDGE_PATH, parseHostFrame } from '../../shared/bridge'
import type { MonitorApi, MonitorMethod, ViewBatch } from '../../shared/ipc'
import type { ApiError, Result, StreamStatus, WindowTarget } from '../../shared/model'
import { windowTargetQuery } from './window-target'

/** The part of the WebSocket API used here; the DOM WebSocket and the `ws` package's both fit. */
export interface BridgeSocket {
  send(data: string): void
  close(code?: number, reason?: string): void
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

export type BridgeSocketConstructor = new (url: string) => BridgeSocket

export interface BridgeApiOptions {
  /** The page URL (http://127.0.0.1:PORT/...) or the bridge URL itself (ws://...). */
  url: string
  token: string
  WebSocketImpl?: BridgeSocketConstructor
  /** A call still unanswered after this long resolves with a `timeout` error. Default 30 s. */
  callTimeoutMs?: number
  /** Reconnect backoff: doubles from baseMs up to maxMs, with jitter. Defaults 250 ms / 5 s. */
  reconnect?: { baseMs?: number; maxMs?: number }
  /** Opens a URL in a new window; default window.open(url, '_blank', 'noopener'). */
  openUrl?: (url: string) => void
}

export interface BridgeApi extends MonitorApi {
  /** Whether the bridge socket is open right now. */
  readonly connected: boolean
  /** Stops reconnecting and resolves every outstanding call with a `network` error. */
  close(): void
  /**
   * Called when the socket opens and when an open socket closes, before anything the close delivers: a closed
   * bridge means this page has lost its engine (store/engine-link.ts).
   */
  onConnectionChange(listener: (open: boolean) => void): () => void
}

/** Window state the host forgets when a socket drops; the latest value is replayed on reconnect. */
const REPLAYED = new Set<MonitorMethod>(['setInterests', 'setBookDepth', 'setInspector', 'setVisibility'])
const MAX_QUEUED = 1000

interface Call {
  id: number
  method: MonitorMethod
  frame: string
  settle: (result: Result<unknown>) => void
}

export function bridgeUrl(url: string, token: string): string {
  const target = new URL(url)
  target.protocol = target.protocol === 'https:' || target.protocol === 'wss:' ? 'wss:' : 'ws:'
  target.pathname = BRIDGE_PATH
  target.search = ''
  target.hash = ''
  target.searchParams.set('token', token)
  return target.toString()
}

function defaultOpenUrl(url: string): void {
  const open = (globalThis as { open?: (url: string, target: string, features: string) => unknown }).open
  if (typeof open !== 'function') throw new Error('this environment cannot open windows')
  open(url, '_blank', 'noopener')
}

export function createBridgeApi(options: BridgeApiOptions): BridgeApi {
  const Impl =
    options.WebSocketImpl ?? (globalThis.WebSocket as unknown as BridgeSocketConstructor | undefined)
  const callTimeoutMs = options.callTimeoutMs ?? 30_000
  const baseMs = options.reconnect?.baseMs ?? 250
  const maxMs = options.reconnect?.maxMs ?? 5000
  const openUrl = options.openUrl ?? defaultOpenUrl
  const token = options.token

  const listeners = new Set<(batch: ViewBatch) => void>()
  const connectionListeners = new Set<(open: boolean) => void>()
  const queued: Call[] = []
  const sent = new Map<number, Call>()
  const remembered = new Map<MonitorMethod, unknown[]>()
  let socket: BridgeSocket | null = null
  let isOpen = false
  let everOpened = false
  let disposed = false
  let attempt = 0
  let retryTimer: ReturnType<typeof setTimeout> | null = null
  let nextId = 1
  let batchSeq = 0
  /** Batches the current socket has delivered (its acknowledgements, BRIDGE's `ack`). */
  let acked = 0
  let lastStatus: StreamStatus | null = null

  const unusable: ApiError | null = !token
    ? {
        code: 'network',
        message: 'This page was opened without its access token: open the URL printed by `npm run web`.',
      }
    : !Impl
      ? { code: 'network', message: 'This browser has no WebSocket support.' }
      : null

  function announce(open: boolean): void {
    for (const listener of [...connectionListeners]) {
      try {
        listener(open)
      } catch (error) {
        console.error('monitor: connection listener failed', error)
      }
    }
  }

  function deliver(batch: ViewBatch): void {
    // The host numbers batches per socket; renumbering keeps them increasing across reconnects for the page.
    const renumbered = { ...batch, seq: ++batchSeq }
    for (const listener of [...listeners]) {
      try {
        listener(renumbered)
      } catch (error) {
        console.error('monitor: batch listener failed', error)
      }
    }
  }

  function onMessage(from: BridgeSocket, event: { data: unknown }): void {
    const frame = parseHostFrame(event.data)
    if (frame === null) return
    if ('batch' in frame) {
      if (frame.batch.status) lastStatus = frame.batch.status
      deliver(frame.batch)
      acknowledge(from)
      return
    }
    if ('id' in frame) {
      const call = sent.get(frame.id)
      if (!call) return
      sent.delete(frame.id)
      call.settle(frame.result)
    }
  }

  /**
   * Tells the host this socket's batches up to here are taken in: it sends a page only a few ahead of what its
   * script has read and merges the rest, so a busy page catches up on the newest state, never on a backlog.
   */
  function acknowledge(from: BridgeSocket): void {
    try {
      from.send(`{"ack":${++acked}}`)
    } catch {
      // A socket that cannot send is closing: the next socket starts its own count.
    }
  }

  function transmit(call: Call): void {
    sent.set(call.id, call)
    try {
      socket?.send(call.frame)
    } catch {
      sent.delete(call.id)
      call.settle(fail({ code: 'network', message: 'could not send to the browser host' }))
    }
  }

  function frameFor(id: number, method: MonitorMethod, args: unknown[]): string {
    // JSON turns a trailing undefined into null, which the host's argument schemas rightly refuse.
    const trimmed = [...args]
    while (trimmed.length > 0 && trimmed[trimmed.length - 1] === undefined) trimmed.pop()
    return JSON.stringify({ id, method, args: trimmed })
  }

  /** A call the page did not make itself (replay, status refresh): its reply goes to `onResult` only. */
  function internalCall(
    method: MonitorMethod,
    args: unknown[],
    onResult: (result: Result<unknown>) => void,
  ): void {
    const id = nextId++
    transmit({ id, method, frame: frameFor(id, method, args), settle: onResult })
  }

  function onOpen(): void {
    isOpen = true
    attempt = 0
    announce(true)
    if (everOpened) {
      for (const [method, args] of remembered) {
        if (!queued.some((call) => call.method === method)) internalCall(method, args, () => {})
      }
      internalCall('getStatus', [], (result) => {
        if (result.ok) deliver({ seq: 0, at: Date.now(), status: result.value as StreamStatus })
      })
    }
    everOpened = true
    for (const call of queued.splice(0)) transmit(call)
  }

  function onClose(): void {
    const wasOpen = isOpen
    isOpen = false
    socket = null
    // Calls already sent may or may not have run: they fail rather than being sent twice.
    for (const call of [...sent.values()]) {
      call.settle(fail({ code: 'network', message: 'lost the connection to the browser host' }))
    }
    sent.clear()
    if (wasOpen) announce(false)
    if (wasOpen && lastStatus) {
      deliver({
        seq: 0,
        at: Date.now(),
        status: {
          ...lastStatus,
          state: 'offline',
          lastError: { code: 'network', message: 'Lost the connection to the browser host; reconnecting.' },
        },
      })
    }
    scheduleReconnect()
  }

  function scheduleReconnect(): void {
    if (disposed || retryTimer !== null) return
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20))
    attempt++
    retryTimer = setTimeout(
      () => {
        retryTimer = null
        connect()
      },
      ceiling / 2 + (Math.random() * ceiling) / 2,
    )
  }

  function connect(): void {
    if (disposed || socket || !Impl || unusable) return
    let next: BridgeSocket
    try {
      next = new Impl(bridgeUrl(options.url, token))
    } catch {
      scheduleReconnect()
      return
    }
    socket = next
    acked = 0
    next.addEventListener('open', () => {
      if (socket === next) onOpen()
    })
    next.addEventListener('message', (event) => {
      if (socket === next) onMessage(next, event)
    })
    // A failed handshake reports 'error' then 'close'; the close does the work.
    next.addEventListener('error', () => {})
    next.addEventListener('close', () => {
      if (socket === next) onClose()
    })
  }

  function call(method: MonitorMethod, args: unknown[]): Promise<Result<unknown>> {
    if (unusable) return Promise.resolve(fail(unusable))
    if (disposed) return Promise.resolve(fail({ code: 'network', message: 'the bridge is closed' }))
    if (REPLAYED.has(method)) remembered.set(method, args)
    return new Promise((resolve) => {
      const id = nextId++
      const timer = setTimeout(() => {
        const at = queued.indexOf(entry)
        if (at >= 0) queued.splice(at, 1)
        sent.delete(id)
        resolve(fail({ code: 'timeout', message: `${method}: the browser host did not answer` }))
      }, callTimeoutMs)
      const entry: Call = {
        id,
        method,
        frame: frameFor(id, method, args),
        settle: (result) => {
          clearTimeout(timer)
          resolve(result)
        },
      }
      if (isOpen) transmit(entry)
      else if (queued.length >= MAX_QUEUED) {
        entry.settle(fail({ code: 'network', message: 'too many calls waiting for the browser host' }))
      } else queued.push(entry)
    })
  }

  function openWindow(target: WindowTarget): Promise<Result<void>> {
    try {
      openUrl(`/?${windowTargetQuery(target, token)}`)
      return Promise.resolve(ok(undefined))
    } catch (error) {
      return Promise.resolve(fail({ code: 'internal', message: (error as Error).message }))
    }
  }

  const api = {} as Record<MonitorMethod, (...args: unknown[]) => Promise<Result<unknown>>>
  for (const method of MONITOR_METHODS) api[method] = (...args) => call(method, args)
  api.openWindow = (target) => openWindow(target as WindowTarget)

  connect()

  return {
    ...(api as unknown as Omit<MonitorApi, 'onBatch' | 'onMenuCommand'>),
    onBatch(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener)
      return () => {
        connectionListeners.delete(listener)
      }
    },
    // A browser tab has no application menu, so no command ever arrives.
    onMenuCommand() {
      return () => {}
    },
    get connected() {
      return isOpen
    },
    close() {
      if (disposed) return
      disposed = true
      if (retryTimer !== null) clearTimeout(retryTimer)
      retryTimer = null
      const current = socket
      socket = null
      isOpen = false
      for (const entry of [...queued.splice(0), ...sent.values()]) {
        entry.settle(fail({ code: 'network', message: 'the bridge is closed' }))
      }
      sent.clear()
      current?.close(1000, 'closed by the page')
    },
  }
}
