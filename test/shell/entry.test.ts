// The entry's wiring, with Electron and the engine replaced: lock, hardening, protocol, IPC, menu, power
// events, restore, and the quit sequence (layouts saved before the engine closes).
import type { EventEmitter as EventEmitterType } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const h = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter: Emitter } = require('node:events') as { EventEmitter: typeof EventEmitterType }
  class FakeContents extends Emitter {
    static next = 1
    id = FakeContents.next++
    session = { setPermissionRequestHandler: () => undefined, setPermissionCheckHandler: () => undefined }
    isDestroyed = () => false
    send = () => undefined
    setWindowOpenHandler = () => undefined
  }
  class FakeWindow extends Emitter {
    static all: FakeWindow[] = []
    static getAllWindows = () => FakeWindow.all
    webContents = new FakeContents()
    url = ''
    constructor(readonly options: Record<string, unknown>) {
      super()
      FakeWindow.all.push(this)
    }
    loadURL = async (url: string) => {
      this.url = url
    }
    getBounds = () => ({ x: 0, y: 0, width: 800, height: 600 })
    getNormalBounds = () => ({ x: 0, y: 0, width: 800, height: 600 })
    isMaximized = () => false
    isMinimized = () => false
    isDestroyed = () => false
    show = () => undefined
    focus = () => undefined
  }
  const app = Object.assign(new Emitter(), {
    isPackaged: true,
    lock: true,
    quitCalls: 0,
    exitCode: null as number | null,
    paths: new Map<string, string>(),
    setPath(name: string, value: string) {
      app.paths.set(name, value)
    },
    getPath: (name: string) => app.paths.get(name) ?? `/home/u/.config/tm-${name}`,
    getName: () => 'Trading Monitor',
    requestSingleInstanceLock: () => app.lock,
    whenReady: () => Promise.resolve(),
    quit() {
      app.quitCalls++
    },
    exit(code: number) {
      app.exitCode = code
    },
  })
  const handlers = new Map<string, unknown>()
  const engine = {
    reconnects: 0,
    saved: [] as unknown[][],
    closed: false,
    attachClient: () => ({ id: 'c', dispose: () => undefined }),
    reconnectNow() {
      engine.reconnects++
    },
    getWindowLayouts: () => [],
    async saveWindowLayouts(layouts: unknown[]) {
      engine.saved.push(layouts)
    },
    async close() {
      engine.closed = true
    },
  }
  const created: unknown[] = []
  return {
    FakeWindow,
    app,
    handlers,
    engine,
    created,
    power: new Emitter(),
    schemes: [] as unknown[],
    protocolHandlers: new Map<string, unknown>(),
    menu: { set: null as unknown },
    errors: [] as string[],
  }
})

vi.mock('electron', () => ({
  app: h.app,
  BrowserWindow: h.FakeWindow,
  dialog: { showErrorBox: (_title: string, message: string) => h.errors.push(message) },
  powerMonitor: h.power,
  session: {
    defaultSession: {
      setPermissionRequestHandler: () => undefined,
      setPermissionCheckHandler: () => undefined,
      webRequest: { onHeadersReceived: () => undefined },
    },
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => h.schemes.push(...schemes),
    handle: (scheme: string, handler: unknown) => h.protocolHandlers.set(scheme, handler),
  },
  ipcMain: {
    handle: (channel: string, handler: unknown) => h.handlers.set(channel, handler),
    removeHandler: (channel: string) => h.handlers.delete(channel),
  },
  Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => (h.menu.set = m) },
  screen: {
    getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    getPrimaryDisplay: () => ({ id: 1 }),
    getDisplayMatching: () => ({ id: 1 }),
  },
  shell: { openExternal: async () => undefined },
}))

vi.mock('../../src/main/services/monitor', () => ({
  createMonitor: async (options: unknown) => {
    h.created.push(options)
    return h.engine
  },
}))

async function boot(): Promise<void> {
  vi.resetModules()
  await import('../../src/main/index')
  await vi.waitFor(() => expect(h.FakeWindow.all.length + h.app.quitCalls).toBeGreaterThan(0))
}

beforeEach(() => {
  h.FakeWindow.all = []
  h.app.removeAllListeners()
  h.power.removeAllListeners()
  h.handlers.clear()
  h.created.length = 0
  h.engine.saved = []
  h.engine.closed = false
  h.engine.reconnects = 0
  h.app.lock = true
  h.app.quitCalls = 0
  h.app.exitCode = null
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
})

describe('entry', () => {
  it('a second instance quits at once, before creating anything', async () => {
    h.app.lock = false
    await boot()
    expect(h.app.quitCalls).toBe(1)
    expect(h.created).toEqual([])
    expect(h.FakeWindow.all).toEqual([])
  })

  it('wires engine, protocol, IPC, menu and one main window', async () => {
    await boot()
    expect(h.created).toEqual([
      expect.objectContaining({
        settingsPath: expect.stringMatching(/settings\.json$/),
        // Lazy demo: real profiles keep their keys in the keychain.
        demo: undefined,
        simulatorWorkerEntry: expect.stringMatching(/sim-worker\.js$/),
      }),
    ])
    expect(h.schemes).toContainEqual(expect.objectContaining({ scheme: 'app' }))
    expect(h.protocolHandlers.has('app')).toBe(true)
    expect(h.handlers.size).toBe(19)
    expect(h.menu.set).not.toBeNull()
    expect(h.FakeWindow.all).toHaveLength(1)
    expect(h.FakeWindow.all[0]?.url).toBe('app://bundle/index.html?view=main')
    expect(h.app.listenerCount('web-contents-created')).toBe(1)
  })

  it('a second launch focuses the main window instead of opening another', async () => {
    await boot()
    h.app.emit('second-instance')
    expect(h.FakeWindow.all).toHaveLength(1)
  })

  it('reconnects on resume and unlock', async () => {
    await boot()
    h.power.emit('resume')
    h.power.emit('unlock-screen')
    expect(h.engine.reconnects).toBe(2)
  })

  it('quitting saves the layout, then closes the engine, then exits', async () => {
    await boot()
    h.app.emit('before-quit', { preventDefault: () => undefined })
    let prevented = false
    h.app.emit('will-quit', { preventDefault: () => (prevented = true) })
    expect(prevented).toBe(true)
    await vi.waitFor(() => expect(h.app.exitCode).toBe(0))
    expect(h.engine.saved.at(-1)).toEqual([expect.objectContaining({ target: { kind: 'main' } })])
    expect(h.engine.closed).toBe(true)
  })
})
