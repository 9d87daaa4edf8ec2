import { describe, expect, it, vi } from 'vitest'

type Listener = (event: unknown, ...args: unknown[]) => void
const bridge = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as { channel: string; args: unknown[] }[],
  listeners: new Map<string, Set<Listener>>(),
}))
vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => bridge.exposed.set(key, api),
  },
  ipcRenderer: {
    invoke: async (channel: string, ...args: unknown[]) => {
      bridge.invoked.push({ channel, args })
      return { ok: true, value: channel }
    },
    on: (channel: string, listener: Listener) => {
      const set = bridge.listeners.get(channel) ?? new Set<Listener>()
      set.add(listener)
      bridge.listeners.set(channel, set)
    },
    removeListener: (channel: string, listener: Listener) => bridge.listeners.get(channel)?.delete(listener),
  },
}))

import '../../src/preload/index'
import { IPC_BATCH_CHANNEL, IPC_PREFIX, MONITOR_METHODS } from '../../src/shared/ipc'
import type { MonitorApi, ViewBatch } from '../../src/shared/ipc'

function api(): MonitorApi {
  const value = bridge.exposed.get('monitor')
  if (!value) throw new Error('monitor was not exposed')
  return value as MonitorApi
}

describe('preload', () => {
  it('exposes exactly one object, window.monitor, with only the intended functions', () => {
    expect([...bridge.exposed.keys()]).toEqual(['monitor'])
    const keys = Object.keys(api()).sort()
    expect(keys).toEqual([...MONITOR_METHODS, 'onBatch'].sort())
    for (const key of keys) expect(typeof (api() as unknown as Record<string, unknown>)[key]).toBe('function')
    expect(keys).not.toContain('ipcRenderer')
    expect(keys).not.toContain('invoke')
    expect(keys).not.toContain('send')
  })

  it('each function invokes its own channel with the arguments as given', async () => {
    bridge.invoked.length = 0
    expect(await api().setBookDepth(12)).toEqual({ ok: true, value: IPC_PREFIX + 'setBookDepth' })
    await api().openWindow({ kind: 'event', event: 'E1' })
    await api().getStatus()
    expect(bridge.invoked).toEqual([
      { channel: 'monitor:setBookDepth', args: [12] },
      { channel: 'monitor:openWindow', args: [{ kind: 'event', event: 'E1' }] },
      { channel: 'monitor:getStatus', args: [] },
    ])
  })

  it('onBatch hands the page only the batch, never the IPC event, and unsubscribes', () => {
    const received: unknown[][] = []
    const off = api().onBatch((...args: unknown[]) => received.push(args))
    const listeners = bridge.listeners.get(IPC_BATCH_CHANNEL)
    expect(listeners?.size).toBe(1)
    const batch: ViewBatch = { seq: 1, at: 2 }
    const ipcEvent = { sender: { send: () => undefined }, ports: [] }
    for (const listener of listeners ?? []) listener(ipcEvent, batch)
    expect(received).toEqual([[batch]])
    off()
    expect(bridge.listeners.get(IPC_BATCH_CHANNEL)?.size).toBe(0)
  })
})
