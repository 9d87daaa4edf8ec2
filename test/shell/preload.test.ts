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
import { IPC_BATCH_CHANNEL, IPC_COMMAND_CHANNEL, IPC_PREFIX, MONITOR_METHODS } from '../../src/shared/ipc'
import type { MenuCommand, MonitorApi, ViewBatch } from '../../src/shared/ipc'

function api(): MonitorApi {
  const value = bridge.exposed.get('monitor')
  if (!value) throw new Error('monitor was not exposed')
  return value as MonitorApi
}

describe('preload', () => {
  it('exposes exactly one object, window.monitor, with only the intended functions', () => {
    expect([...bridge.exposed.keys()]).toEqual(['monitor'])
    const keys = Object.keys(api()).sort()
    expect(keys).toEqual([...MONITOR_METHODS, 'onBatch', 'onMenuCommand'].sort())
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
    await api().setVisibility(false)
    expect(bridge.invoked).toEqual([
      { channel: 'monitor:setBookDepth', args: [12] },
      { channel: 'monitor:openWindow', args: [{ kind: 'event', event: 'E1' }] },
      { channel: 'monitor:getStatus', args: [] },
      { channel: 'monitor:setVisibility', args: [false] },
    ])
  })

  it('onBatch hands the page only the batch, never the IPC event, and unsubscribes', () => {
    const received: unknown[][] = []
    const off = api().onBatch((...args: unknown[]) => received.push(args))
    const listeners = bridge.listeners.get(IPC_BATCH_CHANNEL)
    expect(listeners?.size).toBe(1)
    const batch: ViewBatch = { seq: 1, at: 2, books: [] }
    const ipcEvent = { sender: { send: () => undefined }, ports: [] }
    // The main process sends the batch's JSON text; the page gets the batch.
    for (const listener of listeners ?? []) listener(ipcEvent, JSON.stringify(batch))
    expect(received).toEqual([[batch]])
    // Anything else on the channel is dropped, never thrown into the page's listener.
    for (const bad of [batch, '{"seq":', 'null', '{"at":1}', 42])
      for (const listener of listeners ?? []) listener(ipcEvent, bad)
    expect(received).toEqual([[batch]])
    off()
    expect(bridge.listeners.get(IPC_BATCH_CHANNEL)?.size).toBe(0)
  })

  describe('onMenuCommand', () => {
    const ipcEvent = { sender: { send: () => undefined }, ports: [] }
    function sendFromMain(value: unknown): void {
      for (const listener of bridge.listeners.get(IPC_COMMAND_CHANNEL) ?? []) listener(ipcEvent, value)
    }
    function subscribe(api: MonitorApi): { received: unknown[][]; off: () => void } {
      const received: unknown[][] = []
      if (!api.onMenuCommand) throw new Error('the preload has no onMenuCommand')
      const off = api.onMenuCommand((...args: unknown[]) => received.push(args))
      return { received, off }
    }

    it('holds a command that arrives before the page subscribed, for the first listener only', () => {
      // One permanent relay, registered when the preload ran.
      expect(bridge.listeners.get(IPC_COMMAND_CHANNEL)?.size).toBe(1)
      sendFromMain('new-market-window')
      const first = subscribe(api())
      expect(first.received).toEqual([['new-market-window']])
      const second = subscribe(api())
      expect(second.received).toEqual([])
      first.off()
      second.off()
      expect(bridge.listeners.get(IPC_COMMAND_CHANNEL)?.size).toBe(1)
    })

    it('hands the page only known commands, never the IPC event, and unsubscribes', () => {
      const { received, off } = subscribe(api())
      for (const junk of [
        'reload',
        'New-Market-Window',
        'new-market-window ',
        '',
        42,
        null,
        undefined,
        {},
        ['new-market-window'],
        { command: 'new-market-window' },
      ]) {
        sendFromMain(junk)
      }
      expect(received).toEqual([])
      sendFromMain('new-market-window')
      expect(received).toEqual([['new-market-window']])
      const [args] = received
      expect(args).toHaveLength(1)
      expect(args).not.toContain(ipcEvent)

      off()
      sendFromMain('new-market-window')
      expect(received).toHaveLength(1)
      // Junk is not held for a later listener either.
      const later = subscribe(api())
      expect(later.received).toEqual([['new-market-window']])
      later.off()
    })

    it('a listener that throws does not keep the command from the others', () => {
      const seen: MenuCommand[] = []
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined)
      const offBad = api().onMenuCommand?.(() => {
        throw new Error('boom')
      })
      const offGood = api().onMenuCommand?.((command) => seen.push(command))
      sendFromMain('new-market-window')
      expect(seen).toEqual(['new-market-window'])
      expect(quiet).toHaveBeenCalledTimes(1)
      offBad?.()
      offGood?.()
      quiet.mockRestore()
    })

    it('keeps only a few commands while nobody listens', () => {
      for (let i = 0; i < 50; i++) sendFromMain('new-market-window')
      const { received, off } = subscribe(api())
      expect(received.length).toBeGreaterThan(0)
      expect(received.length).toBeLessThanOrEqual(4)
      off()
    })
  })
})
