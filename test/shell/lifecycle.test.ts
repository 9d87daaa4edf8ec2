// The Electron entry (src/main/index.ts) with `electron` replaced and everything else real: the engine, its
// settings file (in a temporary user-data directory), the window manager and IPC. Covers where the entry looks
// for its bundle files packaged or not, the second-instance handler, and that quitting reaches the file.
import type { EventEmitter as EventEmitterType } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type * as monitorModule from '../../src/main/services/monitor'

const h = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter: Emitter } = require('node:events') as { EventEmitter: typeof EventEmitterType }
  type Bounds = { x: number; y: number; width: number; height: number }
  let nextId = 1
  class FakeContents extends Emitter {
    id = nextId++
    url = ''
    destroyed = false
    sent: string[] = []
    // What ipc.ts checks: the sender's main frame (no parent), showing our page.
    mainFrame: { parent: null; readonly url: string }
    session = { setPermissionRequestHandler: () => undefined, setPermissionCheckHandler: () => undefined }
    constructor() {
      super()
      const page = (): string => this.url
      this.mainFrame = {
        parent: null,
        get url() {
          return page()
        },
      }
    }
    isDestroyed = () => this.destroyed
    isLoading = () => false
    send = (channel: string) => {
      this.sent.push(channel)
    }
    setWindowOpenHandler = () => undefined
  }
  class FakeWindow extends Emitter {
    static all: FakeWindow[] = []
    static getAllWindows = () => FakeWindow.all.filter((w) => !w.destroyed)
    webContents = new FakeContents()
    bounds: Bounds
    destroyed = false
    minimized = false
    calls = { show: 0, focus: 0, restore: 0 }
    constructor(readonly options: Record<string, unknown>) {
      super()
      const { x, y, width, height } = options as Bounds
      this.bounds = { x, y, width, height }
      FakeWindow.all.push(this)
    }
    loadURL = async (url: string) => {
      this.webContents.url = url
    }
    getBounds = () => ({ ...this.bounds })
    getNormalBounds = () => ({ ...this.bounds })
    isMaximized = () => false
    isMinimized = () => this.minimized
    isFocused = () => false
    isDestroyed = () => this.destroyed
    show = () => {
      this.calls.show++
    }
    focus = () => {
      this.calls.focus++
    }
    restore = () => {
      this.calls.restore++
      this.minimized = false
    }
    maximize = () => undefined
    /** The user closes the window: close, then closed, then it is gone. */
    close(): void {
      this.emit('close', { preventDefault: () => undefined })
      this.destroyed = true
      this.webContents.destroyed = true
      this.emit('closed')
    }
  }
  class FakeTray extends Emitter {
    static all: FakeTray[] = []
    constructor(readonly image: { path: string }) {
      super()
      FakeTray.all.push(this)
    }
    setImage = () => undefined
    setToolTip = () => undefined
    setContextMenu = () => undefined
    destroy = () => undefined
  }
  class FakeNotification extends Emitter {
    static isSupported = () => true
    show = () => undefined
  }
  const app = Object.assign(new Emitter(), {
    isPackaged: true,
    appPath: '/opt/tm/resources/app.asar',
    quitCalls: 0,
    exitCode: null as number | null,
    paths: new Map<string, string>(),
    setPath(name: string, value: string) {
      app.paths.set(name, value)
    },
    getPath: (name: string) => app.paths.get(name) ?? `/nonexistent/tm-${name}`,
    getName: () => 'Trading Monitor',
    getAppPath: () => app.appPath,
    setAppUserModelId: () => undefined,
    setBadgeCount: () => true,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    quit() {
      app.quitCalls++
    },
    exit(code: number) {
      app.exitCode = code
    },
  })
  Object.defineProperty(process, 'resourcesPath', { value: '/opt/tm/resources', configurable: true })
  return {
    app,
    FakeWindow,
    FakeTray,
    FakeNotification,
    handlers: new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>(),
    protocolHandlers: new Map<string, unknown>(),
    created: [] as Record<string, unknown>[],
    engines: [] as { close(): Promise<void> }[],
    power: new Emitter(),
  }
})

vi.mock('electron', () => ({
  app: h.app,
  BrowserWindow: h.FakeWindow,
  dialog: { showErrorBox: () => undefined },
  powerMonitor: h.power,
  session: {
    defaultSession: {
      setPermissionRequestHandler: () => undefined,
      setPermissionCheckHandler: () => undefined,
      webRequest: { onHeadersReceived: () => undefined },
    },
  },
  protocol: {
    registerSchemesAsPrivileged: () => undefined,
    handle: (scheme: string, handler: unknown) => h.protocolHandlers.set(scheme, handler),
  },
  ipcMain: {
    handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => Promise<unknown>) =>
      h.handlers.set(channel, handler),
    removeHandler: (channel: string) => h.handlers.delete(channel),
  },
  Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: () => undefined },
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

// The real engine, with its options recorded.
vi.mock('../../src/main/services/monitor', async (importOriginal) => {
  const real = await importOriginal<typeof monitorModule>()
  return {
    ...real,
    createMonitor: async (options: Parameters<typeof real.createMonitor>[0]) => {
      h.created.push(options as unknown as Record<string, unknown>)
      const engine = await real.createMonitor(options)
      h.engines.push(engine)
      return engine
    },
  }
})

const root = join(__dirname, '../..')
/** The directory of the entry module: `__dirname` inside src/main/index.ts (out/main once bundled). */
const mainDir = join(root, 'src/main')
let userData = ''
const savedEnv = { ...process.env }

async function boot(): Promise<void> {
  vi.resetModules()
  await import('../../src/main/index')
  await vi.waitFor(() => expect(h.FakeWindow.all.length).toBeGreaterThan(0), { timeout: 10_000 })
}

function settingsFile(): {
  windows: { target: Record<string, string>; bounds: unknown }[]
  keepRunning: string
  activeProfileId: string
} {
  return JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as ReturnType<typeof settingsFile>
}

/** A call from one of our windows' pages, through the real sender checks of src/main/ipc.ts. */
function callFrom(window: InstanceType<typeof h.FakeWindow>, method: string, ...args: unknown[]) {
  const handler = h.handlers.get(`monitor:${method}`)
  if (!handler) throw new Error(`no handler for ${method}`)
  const contents = window.webContents
  return handler({ sender: contents, senderFrame: contents.mainFrame }, ...args) as Promise<{
    ok: boolean
    error?: { message: string }
  }>
}

async function quit(): Promise<void> {
  h.app.emit('before-quit', { preventDefault: () => undefined })
  let prevented = false
  h.app.emit('will-quit', { preventDefault: () => (prevented = true) })
  expect(prevented).toBe(true)
  await vi.waitFor(() => expect(h.app.exitCode).toBe(0), { timeout: 10_000 })
}

beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'tm-lifecycle-'))
  // The entry honours TM_USER_DATA_DIR (settings.json lands there); no embedded simulator in these tests.
  process.env['TM_USER_DATA_DIR'] = userData
  process.env['TM_DEMO'] = '0'
  // A packaged build would check for updates a while after start; never from a unit test.
  process.env['TM_NO_UPDATES'] = '1'
  delete process.env['ELECTRON_RENDERER_URL']
  h.FakeWindow.all = []
  h.FakeTray.all = []
  h.app.removeAllListeners()
  h.power.removeAllListeners()
  h.handlers.clear()
  h.created.length = 0
  h.engines.length = 0
  h.app.paths.clear()
  h.app.isPackaged = true
  h.app.appPath = '/opt/tm/resources/app.asar'
  h.app.quitCalls = 0
  h.app.exitCode = null
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
})

afterEach(async () => {
  // An engine a test left running is closed, so that no timer outlives the test.
  await Promise.all(h.engines.map((e) => e.close()))
  process.env = { ...savedEnv }
  rmSync(userData, { recursive: true, force: true })
  vi.restoreAllMocks()
})

describe('bundle paths, packaged or not', () => {
  for (const packaged of [false, true]) {
    it(`isPackaged ${packaged}: worker, preload and renderer beside the entry; shipped resources where they are`, async () => {
      h.app.isPackaged = packaged
      // `electron .` in the repository: getAppPath() is the repository; packaged: resources/app.asar.
      h.app.appPath = packaged ? '/opt/tm/resources/app.asar' : root
      await boot()
      const options = h.created[0] ?? {}
      // In the bundle __dirname is out/main: <app>/out/main/sim-worker.js, inside app.asar when packaged
      // (test/shell/packaging-paths.test.ts follows that path through the build and electron-builder.yml).
      expect(options['simulatorWorkerEntry']).toBe(join(mainDir, 'sim-worker.js'))
      expect(options['demo']).toBe(false)
      expect(options['settingsPath']).toBe(join(userData, 'settings.json'))
      const window = h.FakeWindow.all[0]
      const prefs = window?.options['webPreferences'] as { preload: string; sandbox: boolean }
      expect(prefs.preload).toBe(join(mainDir, '../preload/index.js'))
      expect(prefs.sandbox).toBe(true)
      // No dev server when packaged (and none given here): the page comes from app://bundle.
      expect(window?.webContents.url).toBe('app://bundle/index.html?view=main')
      // extraResources: outside the asar when packaged, the repository's resources/ otherwise.
      const trayIcon = h.FakeTray.all[0]?.image.path ?? ''
      expect(dirname(trayIcon)).toBe(
        packaged ? join('/opt/tm/resources', 'tray') : join(root, 'resources', 'tray'),
      )
      await quit()
    })
  }
})

describe('second instance', () => {
  it('brings the main window forward (restored if minimised) instead of opening another', async () => {
    await boot()
    const main = h.FakeWindow.all[0]
    if (!main) throw new Error('no main window')
    main.minimized = true
    const before = { ...main.calls }
    h.app.emit('second-instance', {}, ['trading-monitor'], '/home/u', null)
    expect(h.FakeWindow.all).toHaveLength(1)
    expect(main.calls.restore).toBe(before.restore + 1)
    expect(main.calls.show).toBe(before.show + 1)
    expect(main.calls.focus).toBe(before.focus + 1)
    await quit()
  })

  it('opens a main window when none is left (all closed, app kept running for its alerts)', async () => {
    await boot()
    const main = h.FakeWindow.all[0]
    if (!main) throw new Error('no main window')
    // Keep running with every window closed, as the tray allows on Windows and Linux.
    expect((await callFrom(main, 'setKeepRunning', 'always')).ok).toBe(true)
    main.close()
    h.app.emit('window-all-closed')
    expect(h.app.quitCalls).toBe(0)
    expect(h.FakeWindow.getAllWindows()).toHaveLength(0)
    h.app.emit('second-instance', {}, ['trading-monitor'], '/home/u', null)
    const open = h.FakeWindow.getAllWindows()
    expect(open).toHaveLength(1)
    expect(open[0]?.webContents.url).toBe('app://bundle/index.html?view=main')
    await quit()
  })

  it('with only a market window left, opens a main window rather than focusing the market', async () => {
    await boot()
    const main = h.FakeWindow.all[0]
    if (!main) throw new Error('no main window')
    expect((await callFrom(main, 'openWindow', { kind: 'market', market: 'mkt-7' })).ok).toBe(true)
    const market = h.FakeWindow.all[1]
    main.close()
    const focusBefore = market?.calls.focus ?? 0
    h.app.emit('second-instance', {}, [], '/', null)
    const open = h.FakeWindow.getAllWindows().map((w) => w.webContents.url)
    expect(open).toEqual([
      'app://bundle/index.html?view=market&market=mkt-7',
      'app://bundle/index.html?view=main',
    ])
    expect(market?.calls.focus).toBe(focusBefore)
    await quit()
  })
})

describe('quitting', () => {
  it('will-quit waits for the engine to close, and the settings file has the layout and the pending rule save', async () => {
    await boot()
    const main = h.FakeWindow.all[0]
    if (!main) throw new Error('no main window')
    expect((await callFrom(main, 'openWindow', { kind: 'market', market: 'mkt-7' })).ok).toBe(true)
    const market = h.FakeWindow.all[1]
    if (!market) throw new Error('no market window')
    market.bounds = { x: 120, y: 90, width: 720, height: 520 }
    market.emit('move')
    // Saved by the alert relay after a 500 ms quiet period, or when the engine closes: quitting at once leaves
    // only the close to write it.
    expect((await callFrom(main, 'setKeepRunning', 'always')).ok).toBe(true)
    await quit()
    expect(h.app.quitCalls).toBe(0)
    const saved = settingsFile()
    expect(saved.keepRunning).toBe('always')
    expect(saved.activeProfileId).toBe('demo')
    expect(saved.windows).toEqual([
      expect.objectContaining({ target: { kind: 'main' } }),
      expect.objectContaining({
        target: { kind: 'market', market: 'mkt-7' },
        bounds: { x: 120, y: 90, width: 720, height: 520 },
      }),
    ])
  })

  it('a relaunch restores what the quit saved', async () => {
    await boot()
    const main = h.FakeWindow.all[0]
    if (!main) throw new Error('no main window')
    await callFrom(main, 'openWindow', { kind: 'event', event: 'evt-3' })
    await quit()
    h.FakeWindow.all = []
    h.app.exitCode = null
    h.app.removeAllListeners()
    await boot()
    await vi.waitFor(() => expect(h.FakeWindow.all).toHaveLength(2))
    expect(h.FakeWindow.all.map((w) => w.webContents.url)).toEqual([
      'app://bundle/index.html?view=main',
      'app://bundle/index.html?view=event&event=evt-3',
    ])
    await quit()
  })
})
