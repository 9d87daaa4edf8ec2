import type { EventEmitter as EventEmitterType } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const fake = vi.hoisted(() => {
  // Defined inside vi.hoisted so the electron mock below can use it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter: Emitter } = require('node:events') as { EventEmitter: typeof EventEmitterType }
  let nextId = 1
  class FakeContents extends Emitter {
    id = nextId++
    destroyed = false
    loading = false
    sent: { channel: string; payload: unknown }[] = []
    isDestroyed(): boolean {
      return this.destroyed
    }
    isLoading(): boolean {
      return this.loading
    }
    /** What Electron does when the page (and its preload) has loaded. */
    finishLoad(): void {
      this.loading = false
      this.emit('did-finish-load')
    }
    send(channel: string, payload: unknown): void {
      if (this.destroyed) throw new Error('Object has been destroyed')
      this.sent.push({ channel, payload })
    }
  }
  class FakeWindow extends Emitter {
    static all: FakeWindow[] = []
    webContents = new FakeContents()
    bounds: { x: number; y: number; width: number; height: number }
    maximized = false
    destroyed = false
    focused = false
    loaded: string | null = null
    constructor(readonly options: Record<string, unknown>) {
      super()
      const { x, y, width, height } = options as { x: number; y: number; width: number; height: number }
      this.bounds = { x, y, width, height }
      FakeWindow.all.push(this)
    }
    loadURL(url: string): Promise<void> {
      this.loaded = url
      this.webContents.loading = true
      return Promise.resolve()
    }
    getBounds() {
      return { ...this.bounds }
    }
    getNormalBounds() {
      return { ...this.bounds }
    }
    isMaximized(): boolean {
      return this.maximized
    }
    isMinimized(): boolean {
      return false
    }
    isDestroyed(): boolean {
      return this.destroyed
    }
    maximize(): void {
      this.maximized = true
    }
    isFocused(): boolean {
      return this.focused
    }
    show(): void {}
    focus(): void {
      for (const w of FakeWindow.all) w.focused = w === this
    }
    restore(): void {}
    /** What Electron does when the user closes the window. */
    userClose(): void {
      this.emit('close', {})
      this.destroyed = true
      this.webContents.destroyed = true
      this.emit('closed')
    }
  }
  const displays = [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]
  return { FakeWindow, FakeContents, displays }
})

vi.mock('electron', () => ({
  BrowserWindow: fake.FakeWindow,
  screen: {
    getAllDisplays: () => fake.displays,
    getPrimaryDisplay: () => fake.displays[0],
    getDisplayMatching: () => fake.displays[0],
  },
}))

import { WindowManager } from '../../src/main/windows'
import type {
  AttachOptions,
  MonitorClient,
  MonitorEngine,
  ShellState,
} from '../../src/main/services/base/types'
import type { ViewBatch } from '../../src/shared/ipc'
import { IPC_BATCH_CHANNEL, IPC_COMMAND_CHANNEL } from '../../src/shared/ipc'
import type { WindowLayout } from '../../src/shared/model'

class FakeEngine implements MonitorEngine {
  clients: { options: AttachOptions; disposed: boolean }[] = []
  saved: WindowLayout[][] = []
  layouts: WindowLayout[] = []
  attachClient(options: AttachOptions): MonitorClient {
    const record = { options, disposed: false }
    this.clients.push(record)
    return {
      id: `c${this.clients.length}`,
      dispose: () => {
        record.disposed = true
      },
    } as unknown as MonitorClient
  }
  reconnectNow(): void {}
  watchShell(): () => void {
    return () => undefined
  }
  shellState(): ShellState {
    return { connection: 'live', alerts: { armed: 0, unread: 0, paused: false, keepRunning: 'auto' } }
  }
  pauseAlerts(): void {}
  setUpdateStatus(): void {}
  onInstallUpdate(): () => void {
    return () => undefined
  }
  injectDemoFault(): boolean {
    return false
  }
  getWindowLayouts(): WindowLayout[] {
    return this.layouts
  }
  async saveWindowLayouts(layouts: WindowLayout[]): Promise<void> {
    this.saved.push(layouts)
  }
  async close(): Promise<void> {}
}

type Win = InstanceType<typeof fake.FakeWindow>
let engine: FakeEngine
let manager: WindowManager
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined }

function win(index: number): Win {
  const w = fake.FakeWindow.all[index]
  if (!w) throw new Error(`no window ${index}`)
  return w
}

beforeEach(() => {
  fake.FakeWindow.all = []
  engine = new FakeEngine()
  manager = new WindowManager({
    engine,
    preloadPath: '/app/out/preload/index.js',
    pageUrl: (t) => `app://bundle/index.html?view=${t.kind}`,
    logger: quiet,
    saveDelayMs: 1,
  })
})

describe('window factory', () => {
  it('creates every window with the locked-down web preferences and the preload', () => {
    manager.open({ kind: 'main' })
    expect(win(0).options['webPreferences']).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: '/app/out/preload/index.js',
    })
    expect(win(0).loaded).toBe('app://bundle/index.html?view=main')
  })
})

describe('one window = one engine client', () => {
  it('sends batches to its own window only and disposes the client on close', () => {
    manager.open({ kind: 'main' })
    manager.open({ kind: 'market', market: 'M1' })
    expect(engine.clients).toHaveLength(2)
    const batch: ViewBatch = { seq: 1, at: 1 }
    engine.clients[1]?.options.sink(batch)
    // Sent as its JSON text (batch-json.ts); the preload parses it.
    expect(win(1).webContents.sent).toEqual([{ channel: IPC_BATCH_CHANNEL, payload: JSON.stringify(batch) }])
    expect(win(0).webContents.sent).toEqual([])

    win(1).userClose()
    expect(engine.clients[1]?.disposed).toBe(true)
    expect(engine.clients[0]?.disposed).toBe(false)
    expect(manager.clientFor(win(1).webContents as never)).toBeUndefined()
    // A late batch for the closed window is dropped without disturbing anyone.
    expect(() => engine.clients[1]?.options.sink({ seq: 2, at: 2 })).not.toThrow()
    engine.clients[0]?.options.sink({ seq: 1, at: 3 })
    expect(win(0).webContents.sent).toHaveLength(1)
  })

  it('a batch that fails to reach a live window is said, once; one closing meanwhile is dropped quietly', () => {
    const errors: unknown[][] = []
    manager = new WindowManager({
      engine,
      preloadPath: '/app/out/preload/index.js',
      pageUrl: (t) => `app://bundle/index.html?view=${t.kind}`,
      logger: { ...quiet, error: (...a: unknown[]) => void errors.push(a) },
      saveDelayMs: 1,
    })
    manager.open({ kind: 'main' })
    const contents = win(0).webContents
    contents.send = () => {
      throw new Error('could not clone')
    }
    const sink = engine.clients[0]?.options.sink
    expect(() => sink?.({ seq: 1, at: 1 })).not.toThrow()
    expect(() => sink?.({ seq: 2, at: 2 })).not.toThrow()
    expect(errors).toHaveLength(1)
    expect(JSON.stringify(errors[0])).toContain('could not clone')
    // Disposed between the check and the send: nothing to say.
    manager.open({ kind: 'market', market: 'M1' })
    const closing = win(1).webContents
    closing.send = () => {
      closing.destroyed = true
      throw new Error('Object has been destroyed')
    }
    expect(() => engine.clients[1]?.options.sink({ seq: 1, at: 3 })).not.toThrow()
    expect(errors).toHaveLength(1)
  })

  it('a crashed or reloaded page gets a fresh client', () => {
    manager.open({ kind: 'main' })
    const contents = win(0).webContents
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false })
    expect(engine.clients).toHaveLength(1)
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false })
    expect(engine.clients).toHaveLength(2)
    expect(engine.clients[0]?.disposed).toBe(true)
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true })
    contents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false })
    expect(engine.clients).toHaveLength(2)
    contents.emit('render-process-gone', {}, { reason: 'crashed' })
    expect(engine.clients).toHaveLength(3)
    expect(engine.clients[1]?.disposed).toBe(true)
    expect(manager.clientFor(contents as never)).toBeDefined()
  })

  it('focuses an open market window instead of duplicating it', () => {
    manager.open({ kind: 'market', market: 'M1' })
    manager.open({ kind: 'market', market: 'M1' })
    manager.open({ kind: 'market', market: 'M2' })
    expect(fake.FakeWindow.all).toHaveLength(2)
  })
})

describe('layouts', () => {
  it('restores saved windows clamped to the current displays, always with a main window', () => {
    engine.layouts = [
      {
        target: { kind: 'event', event: 'E1' },
        bounds: { x: 5000, y: 100, width: 800, height: 600 },
        displayId: 2,
        maximized: false,
      },
    ]
    manager.restore()
    expect(fake.FakeWindow.all.map((w) => w.loaded)).toEqual([
      'app://bundle/index.html?view=main',
      'app://bundle/index.html?view=event',
    ])
    const b = win(1).bounds
    expect(b.x + b.width).toBeLessThanOrEqual(1920)
    expect(b.width).toBe(800)
  })

  it('saves on move (debounced), keeps the last window on close, and stops saving while quitting', async () => {
    manager.open({ kind: 'main' })
    manager.open({ kind: 'market', market: 'M1' })
    win(1).bounds = { x: 10, y: 20, width: 900, height: 700 }
    win(1).emit('move')
    win(1).emit('move')
    await vi.waitFor(() => expect(engine.saved.length).toBeGreaterThan(0))
    const last = engine.saved.at(-1) ?? []
    expect(last.map((l) => l.target)).toEqual([{ kind: 'main' }, { kind: 'market', market: 'M1' }])
    expect(last[1]?.bounds).toEqual({ x: 10, y: 20, width: 900, height: 700 })

    win(1).userClose()
    await vi.waitFor(() => expect(engine.saved.at(-1)?.map((l) => l.target.kind)).toEqual(['main']))
    win(0).userClose()
    expect(engine.saved.at(-1)?.map((l) => l.target.kind)).toEqual(['main'])
  })

  it('beginQuit saves every open window once and ignores the closes that follow', async () => {
    manager.open({ kind: 'main' })
    manager.open({ kind: 'event', event: 'E1' })
    await manager.beginQuit()
    const count = engine.saved.length
    expect(engine.saved.at(-1)?.map((l) => l.target.kind)).toEqual(['main', 'event'])
    win(0).userClose()
    win(1).userClose()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(engine.saved.length).toBe(count)
    expect(engine.clients.every((c) => c.disposed)).toBe(true)
  })
})

describe('second instance', () => {
  it('focuses the existing main window, or opens one', () => {
    manager.focusMain()
    expect(fake.FakeWindow.all).toHaveLength(1)
    manager.focusMain()
    expect(fake.FakeWindow.all).toHaveLength(1)
  })
})

describe('menu commands', () => {
  const command = { channel: IPC_COMMAND_CHANNEL, payload: 'new-market-window' }
  const commandsTo = (w: Win) => w.webContents.sent.filter((m) => m.channel === IPC_COMMAND_CHANNEL)
  function openLoaded(...targets: Parameters<WindowManager['open']>[0][]): void {
    for (const target of targets) manager.open(target)
    for (const w of fake.FakeWindow.all) w.webContents.finishLoad()
  }

  it('go to the focused window of ours, whatever its kind', () => {
    openLoaded({ kind: 'main' }, { kind: 'market', market: 'M1' }, { kind: 'event', event: 'E1' })
    win(1).focused = true
    manager.sendMenuCommand('new-market-window')
    expect(commandsTo(win(1))).toEqual([command])
    expect(commandsTo(win(0))).toEqual([])
    expect(commandsTo(win(2))).toEqual([])

    win(1).focused = false
    win(2).focused = true
    manager.sendMenuCommand('new-market-window')
    expect(commandsTo(win(2))).toEqual([command])
    expect(commandsTo(win(1))).toEqual([command])
    expect(fake.FakeWindow.all).toHaveLength(3)
  })

  it('go to the main window, brought forward, when none of ours is focused', () => {
    openLoaded({ kind: 'market', market: 'M1' }, { kind: 'main' })
    expect(fake.FakeWindow.all.some((w) => w.focused)).toBe(false)
    manager.sendMenuCommand('new-market-window')
    expect(commandsTo(win(1))).toEqual([command])
    expect(commandsTo(win(0))).toEqual([])
    expect(win(1).focused).toBe(true)
    expect(fake.FakeWindow.all).toHaveLength(2)
  })

  it('open a main window first when there is none, and reach it once it has loaded (once)', () => {
    manager.sendMenuCommand('new-market-window')
    expect(fake.FakeWindow.all).toHaveLength(1)
    expect(win(0).loaded).toBe('app://bundle/index.html?view=main')
    // Sent now, it would be lost: the page is not there yet.
    expect(commandsTo(win(0))).toEqual([])
    win(0).webContents.finishLoad()
    expect(commandsTo(win(0))).toEqual([command])
    // A later reload does not replay it.
    win(0).webContents.finishLoad()
    expect(commandsTo(win(0))).toEqual([command])
  })

  it('open a main window when only unfocused market windows are left', () => {
    openLoaded({ kind: 'market', market: 'M1' })
    manager.sendMenuCommand('new-market-window')
    expect(fake.FakeWindow.all).toHaveLength(2)
    expect(win(1).loaded).toBe('app://bundle/index.html?view=main')
    win(1).webContents.finishLoad()
    expect(commandsTo(win(1))).toEqual([command])
    expect(commandsTo(win(0))).toEqual([])
  })

  it('wait for a target window that is still loading, and drop the command if it closes first', () => {
    manager.open({ kind: 'main' })
    win(0).focused = true
    manager.sendMenuCommand('new-market-window')
    expect(commandsTo(win(0))).toEqual([])
    win(0).webContents.finishLoad()
    expect(commandsTo(win(0))).toEqual([command])

    manager.open({ kind: 'market', market: 'M1' })
    win(0).focused = false
    win(1).focused = true
    manager.sendMenuCommand('new-market-window')
    win(1).userClose()
    // The fake's send throws on a destroyed window, as Electron's does.
    expect(() => win(1).webContents.emit('did-finish-load')).not.toThrow()
    expect(commandsTo(win(1))).toEqual([])
  })
})
