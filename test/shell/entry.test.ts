// The entry's wiring, with Electron and the engine replaced: lock, hardening, protocol, IPC, menu, power
// events, restore, and the quit sequence (layouts saved before the engine closes).
import type { EventEmitter as EventEmitterType } from 'node:events'
import { join } from 'node:path'
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
    badge: 0,
    setBadgeCount(count: number) {
      app.badge = count
      return true
    },
    lock: true,
    quitCalls: 0,
    exitCode: null as number | null,
    paths: new Map<string, string>(),
    setPath(name: string, value: string) {
      app.paths.set(name, value)
    },
    getPath: (name: string) => app.paths.get(name) ?? `/home/u/.config/tm-${name}`,
    getName: () => 'Trading Monitor',
    getAppPath: () => '/opt/tm/resources/app.asar',
    setAppUserModelId: () => undefined,
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
  type Listener = { alertFired?(event: unknown): void; stateChanged?(state: unknown): void }
  const engine = {
    reconnects: 0,
    saved: [] as unknown[][],
    closed: false,
    shell: [] as Listener[],
    paused: [] as boolean[],
    watchShell(listener: Listener) {
      engine.shell.push(listener)
      return () => {
        engine.shell = engine.shell.filter((l) => l !== listener)
      }
    },
    shellState: () => ({
      connection: 'live',
      alerts: { armed: 1, unread: 0, paused: false, keepRunning: 'auto' },
    }),
    pauseAlerts(paused: boolean) {
      engine.paused.push(paused)
    },
    updates: [] as unknown[],
    installer: null as null | (() => unknown),
    setUpdateStatus(update: unknown) {
      engine.updates.push(update)
    },
    onInstallUpdate(handler: () => unknown) {
      engine.installer = handler
      return () => {
        if (engine.installer === handler) engine.installer = null
      }
    },
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
  class FakeTray extends Emitter {
    static all: FakeTray[] = []
    destroyed = false
    menu: unknown = null
    constructor(readonly image: unknown) {
      super()
      FakeTray.all.push(this)
    }
    setImage = () => undefined
    setToolTip = () => undefined
    setContextMenu = (menu: unknown) => {
      this.menu = menu
    }
    destroy = () => {
      this.destroyed = true
    }
  }
  class FakeNotification extends Emitter {
    static all: FakeNotification[] = []
    static isSupported = () => true
    constructor(readonly options: unknown) {
      super()
      FakeNotification.all.push(this)
    }
    show = () => undefined
  }
  // electron-updater's autoUpdater: the entry loads it at the first check, and only in a packaged release.
  class FakeAutoUpdater extends Emitter {
    autoDownload = true
    autoInstallOnAppQuit = true
    logger: unknown = null
    checks = 0
    installs: unknown[][] = []
    async checkForUpdates() {
      this.checks++
      this.emit('checking-for-update')
      this.emit('update-available', { version: '9.9.9' })
      this.emit('update-downloaded', { version: '9.9.9' })
      return { downloadPromise: Promise.resolve([]) }
    }
    quitAndInstall(...args: unknown[]) {
      this.installs.push(args)
    }
  }
  const autoUpdater = new FakeAutoUpdater()
  // Electron sets it; the packaged entry finds the chime and the tray icons there.
  Object.defineProperty(process, 'resourcesPath', { value: '/opt/tm/resources', configurable: true })
  return {
    autoUpdater,
    FakeTray,
    FakeNotification,
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
  Tray: h.FakeTray,
  Notification: h.FakeNotification,
  nativeImage: { createFromPath: (path: string) => ({ path, isEmpty: () => false }) },
  screen: {
    getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    getPrimaryDisplay: () => ({ id: 1 }),
    getDisplayMatching: () => ({ id: 1 }),
  },
  shell: { openExternal: async () => undefined },
}))

// The entry requires electron-updater through loadElectronUpdater (vi.mock cannot reach a require()).
vi.mock('../../src/main/updater', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  loadElectronUpdater: () => h.autoUpdater,
}))

vi.mock('../../src/main/services/monitor', () => ({
  createMonitor: async (options: unknown) => {
    h.created.push(options)
    return h.engine
  },
}))

import { trayIconFile } from '../../src/main/tray'
import { UPDATE_FIRST_CHECK_MS } from '../../src/main/updater'
import { MONITOR_METHODS } from '../../src/shared/ipc'

async function boot(): Promise<void> {
  vi.resetModules()
  await import('../../src/main/index')
  await vi.waitFor(() => expect(h.FakeWindow.all.length + h.app.quitCalls).toBeGreaterThan(0))
}

beforeEach(() => {
  h.FakeWindow.all = []
  h.FakeTray.all = []
  h.FakeNotification.all = []
  h.engine.shell = []
  h.engine.paused = []
  h.engine.updates = []
  h.engine.installer = null
  h.autoUpdater.removeAllListeners()
  h.autoUpdater.checks = 0
  h.autoUpdater.installs = []
  delete process.env['TM_NO_UPDATES']
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
    expect(h.handlers.size).toBe(MONITOR_METHODS.length)
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

  it('an OS shutdown quits through the normal path, so layouts and settings are saved', async () => {
    await boot()
    let prevented = false
    h.power.emit('shutdown', { preventDefault: () => (prevented = true) })
    expect(prevented).toBe(true)
    expect(h.app.quitCalls).toBe(1)
  })

  it('alerts: a tray from the start, a notification per fired alert, the tray and the watch gone on quit', async () => {
    await boot()
    expect(h.FakeTray.all).toHaveLength(1)
    expect(h.FakeTray.all[0]?.image).toEqual(
      expect.objectContaining({
        path: join('/opt/tm/resources', 'tray', trayIconFile(process.platform, true)),
      }),
    )
    const pause = (h.FakeTray.all[0]?.menu as { label?: string; click?: (item: unknown) => void }[]).find(
      (item) => item.label === 'Pause alerts',
    )
    pause?.click?.({ checked: true })
    expect(h.engine.paused).toEqual([true])
    expect(h.engine.shell).toHaveLength(1)
    h.engine.shell[0]?.alertFired?.({
      id: 1,
      ruleId: 'r1',
      kind: 'fired',
      at: 0,
      title: 'mkt-1 mid crossed above 0.45',
      detail: 'mid 0.455',
      value: 0.455,
      market: 'mkt-1',
      sound: false,
      acknowledged: false,
    })
    expect(h.FakeNotification.all).toHaveLength(1)
    h.FakeNotification.all[0]?.emit('click')
    expect(h.FakeWindow.all.map((w) => w.url)).toEqual([
      'app://bundle/index.html?view=main',
      'app://bundle/index.html?view=market&market=mkt-1',
    ])
    // Armed alerts under 'auto' on Linux: closing every window keeps the app (and its tray) running.
    h.app.emit('window-all-closed')
    expect(h.app.quitCalls).toBe(0)
    h.app.emit('before-quit', { preventDefault: () => undefined })
    h.app.emit('will-quit', { preventDefault: () => undefined })
    expect(h.FakeTray.all[0]?.destroyed).toBe(true)
    expect(h.engine.shell).toHaveLength(0)
    await vi.waitFor(() => expect(h.app.exitCode).toBe(0))
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

  it('updates: a packaged release checks after a while, and installs only when a window asks', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    try {
      await boot()
      expect(h.engine.updates).toEqual([{ state: 'idle' }])
      expect(h.autoUpdater.checks).toBe(0)
      await vi.advanceTimersByTimeAsync(UPDATE_FIRST_CHECK_MS)
      expect(h.autoUpdater.checks).toBe(1)
      expect(h.autoUpdater.autoInstallOnAppQuit).toBe(false)
      expect(h.engine.updates.at(-1)).toEqual({ state: 'ready', version: '9.9.9' })
      expect(h.autoUpdater.installs).toEqual([])
      // A window's installUpdate(): the layouts are saved with every window still open, then quit and install.
      expect(h.engine.installer?.()).toEqual({ ok: true, value: undefined })
      expect(h.autoUpdater.installs).toEqual([[true, true]])
      await vi.waitFor(() =>
        expect(h.engine.saved.at(-1)).toEqual([expect.objectContaining({ target: { kind: 'main' } })]),
      )
      // The quit that follows does not save again over it, and the installer is unregistered.
      const saves = h.engine.saved.length
      h.app.emit('before-quit', { preventDefault: () => undefined })
      h.app.emit('will-quit', { preventDefault: () => undefined })
      await vi.waitFor(() => expect(h.app.exitCode).toBe(0))
      expect(h.engine.saved).toHaveLength(saves)
      expect(h.engine.installer).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('updates: off with TM_NO_UPDATES=1 (also in dev and the forced demo): no status, no installer', async () => {
    process.env['TM_NO_UPDATES'] = '1'
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    try {
      await boot()
      await vi.advanceTimersByTimeAsync(UPDATE_FIRST_CHECK_MS * 2)
      expect(h.engine.updates).toEqual([])
      expect(h.engine.installer).toBeNull()
      expect(h.autoUpdater.checks).toBe(0)
    } finally {
      vi.useRealTimers()
      delete process.env['TM_NO_UPDATES']
    }
  })
})
