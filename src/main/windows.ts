// The ONE window factory and the manager of our windows: each window is one engine client, its batches go
// to that window only, and its layout is remembered across launches.
import { BrowserWindow, screen } from 'electron'
import type { WebContents } from 'electron'
import { IPC_BATCH_CHANNEL, IPC_COMMAND_CHANNEL, fail, ok } from '../shared/ipc'
import { batchJson } from './services'
import type { MenuCommand, ViewBatch } from '../shared/ipc'
import type { Bounds, Result, WindowLayout, WindowTarget } from '../shared/model'
import type { Logger, MonitorClient, MonitorEngine } from './services'
import { WINDOW_SIZE, placeWindow } from './layout'
import type { PlacedLayout } from './layout'
import { errorMessage } from './services'
import { windowTitleOf } from '../shared/window-title'

export interface WindowManagerOptions {
  engine: MonitorEngine
  preloadPath: string
  /** The page URL of a window (app:// bundle or dev server) with its `?view=` query. */
  pageUrl: (target: WindowTarget) => string
  logger: Logger
  /** Delay before a moved/resized layout is saved; batches bursts of move events. */
  saveDelayMs?: number
}

interface ManagedWindow {
  window: BrowserWindow
  contents: WebContents
  target: WindowTarget
  client: MonitorClient
  loadedOnce: boolean
}

function sameTarget(a: WindowTarget, b: WindowTarget): boolean {
  if (a.kind === 'market' && b.kind === 'market') return a.market === b.market
  if (a.kind === 'event' && b.kind === 'event') return a.event === b.event
  return false
}

/** The only place a BrowserWindow is constructed; the security settings are literal on purpose. */
export function createAppWindow(
  preloadPath: string,
  target: WindowTarget,
  placed: PlacedLayout,
): BrowserWindow {
  return new BrowserWindow({
    ...placed.bounds,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    // Named by the page once its listing arrives (document.title); never by an id meanwhile.
    title: windowTitleOf(target, undefined),
    backgroundColor: '#101418',
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: preloadPath,
      // Middle-click (auxclick) would otherwise be a second way to ask for a new window.
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  })
}

export class WindowManager {
  private readonly windows = new Map<number, ManagedWindow>()
  private readonly saveDelayMs: number
  private saveTimer: NodeJS.Timeout | null = null
  private quitting = false

  constructor(private readonly options: WindowManagerOptions) {
    this.saveDelayMs = options.saveDelayMs ?? 500
  }

  get count(): number {
    return this.windows.size
  }

  /** The engine client behind one of our windows, or undefined for any other web contents. */
  clientFor(contents: WebContents): MonitorClient | undefined {
    return this.windows.get(contents.id)?.client
  }

  isOurs(contents: WebContents): boolean {
    return this.windows.has(contents.id)
  }

  /** Reopen the windows of the last session, fitted to today's displays; at least one main window. */
  restore(): void {
    let layouts: WindowLayout[] = []
    try {
      layouts = this.options.engine.getWindowLayouts()
    } catch (error) {
      this.options.logger.warn('window layouts unreadable; opening the default window', {
        error: errorMessage(error),
      })
    }
    if (!layouts.some((l) => l.target.kind === 'main')) {
      layouts = [{ target: { kind: 'main' }, bounds: null, displayId: null, maximized: false }, ...layouts]
    }
    for (const layout of layouts) this.open(layout.target, layout)
  }

  /** Opens a window (market/event windows already open are focused instead of duplicated). */
  open(target: WindowTarget, saved: WindowLayout | null = null): BrowserWindow {
    if (target.kind !== 'main') {
      for (const entry of this.windows.values()) {
        if (sameTarget(entry.target, target)) {
          this.reveal(entry.window)
          return entry.window
        }
      }
    }
    const displays = screen.getAllDisplays().map((d) => ({ id: d.id, workArea: d.workArea }))
    const placed = placeWindow(saved, displays, screen.getPrimaryDisplay().id)
    const window = createAppWindow(this.options.preloadPath, target, placed)
    const contents = window.webContents
    const entry: ManagedWindow = {
      window,
      contents,
      target,
      client: this.attach(contents, target),
      loadedOnce: false,
    }
    this.windows.set(contents.id, entry)

    window.once('ready-to-show', () => {
      if (placed.maximized) window.maximize()
      window.show()
    })
    for (const name of ['move', 'resize', 'maximize', 'unmaximize'] as const) {
      window.on(name as 'move', () => this.scheduleSave())
    }
    window.on('close', () => {
      // The last window's layout is kept so that the next launch reopens it where it was.
      if (!this.quitting && this.windows.size === 1) void this.saveNow()
    })
    window.on('closed', () => this.forget(contents.id))

    // A reloaded, navigated or crashed page starts from nothing: its old interests must not linger.
    contents.on('did-start-navigation', (details) => {
      if (!details.isMainFrame || details.isSameDocument) return
      if (entry.loadedOnce) this.replaceClient(entry, 'navigation')
      entry.loadedOnce = true
    })
    contents.on('render-process-gone', (_event, details) => {
      this.options.logger.warn('renderer gone', { reason: details.reason, window: contents.id })
      this.replaceClient(entry, 'renderer gone')
    })

    void window.loadURL(this.options.pageUrl(target)).catch((error: unknown) => {
      this.options.logger.error('window failed to load', {
        kind: target.kind,
        error: errorMessage(error),
      })
    })
    if (this.windows.size > 1 || target.kind !== 'main') this.scheduleSave()
    return window
  }

  /** From a window's openWindow call. */
  openFromRenderer(target: WindowTarget): Result<void> {
    try {
      this.open(target)
      return ok(undefined)
    } catch (error) {
      return fail({
        code: 'internal',
        message: `could not open the window: ${errorMessage(error)}`,
      })
    }
  }

  /** Second instance or dock click: bring a main window forward, opening one if none is left. */
  focusMain(): void {
    for (const entry of this.windows.values()) {
      if (entry.target.kind === 'main' && !entry.window.isDestroyed()) {
        this.reveal(entry.window)
        return
      }
    }
    this.open({ kind: 'main' })
  }

  /**
   * Application menu -> one window: the focused window of ours, else a main window (brought forward, or opened
   * if there is none). A window still loading gets the command once it has loaded, so that its page is there
   * to receive it.
   */
  sendMenuCommand(command: MenuCommand): void {
    const target = this.menuTarget()
    if (!target) return
    const { entry, opened } = target
    const { window, contents } = entry
    const send = (): void => {
      if (window.isDestroyed() || contents.isDestroyed()) return
      try {
        contents.send(IPC_COMMAND_CHANNEL, command)
      } catch (error) {
        this.options.logger.warn('menu command not delivered', {
          command,
          error: errorMessage(error),
        })
      }
    }
    if (opened || contents.isLoading()) contents.once('did-finish-load', send)
    else send()
  }

  /** App is quitting: persist every window as it is now, and stop saving while they close one by one. */
  beginQuit(): Promise<void> {
    if (this.quitting) return Promise.resolve()
    // After the last window closed by hand (window-all-closed -> quit) its layout is already saved.
    const pending = this.windows.size > 0 ? this.saveNow() : Promise.resolve()
    if (this.saveTimer) clearTimeout(this.saveTimer)
    this.saveTimer = null
    this.quitting = true
    return pending
  }

  snapshot(): WindowLayout[] {
    const layouts: WindowLayout[] = []
    for (const entry of this.windows.values()) {
      const { window } = entry
      if (window.isDestroyed()) continue
      const maximized = window.isMaximized()
      const bounds: Bounds = maximized ? window.getNormalBounds() : window.getBounds()
      let displayId: number | null
      try {
        displayId = screen.getDisplayMatching(bounds).id
      } catch {
        displayId = null
      }
      layouts.push({ target: entry.target, bounds, displayId, maximized })
    }
    return layouts
  }

  private reveal(window: BrowserWindow): void {
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
  }

  private menuTarget(): { entry: ManagedWindow; opened: boolean } | undefined {
    let main: ManagedWindow | undefined
    for (const entry of this.windows.values()) {
      if (entry.window.isDestroyed()) continue
      if (entry.window.isFocused()) return { entry, opened: false }
      if (main === undefined && entry.target.kind === 'main') main = entry
    }
    if (main) {
      this.reveal(main.window)
      return { entry: main, opened: false }
    }
    const window = this.open({ kind: 'main' })
    const entry = this.windows.get(window.webContents.id)
    return entry ? { entry, opened: true } : undefined
  }

  private attach(contents: WebContents, target: WindowTarget): MonitorClient {
    let faultSaid = false
    return this.options.engine.attachClient({
      label: `window ${contents.id} (${target.kind})`,
      bookDeltas: true,
      sink: (batch: ViewBatch) => {
        // A window that is gone (or going) simply stops receiving; it must never disturb the others.
        if (contents.isDestroyed()) return
        try {
          // As JSON text: the views several windows share are serialised once (batch-json.ts), and a string
          // crosses IPC and the preload's context bridge without a deep copy of every view.
          contents.send(IPC_BATCH_CHANNEL, batchJson(batch))
        } catch (error) {
          // The frame was disposed between the check and the send; the next batch finds it destroyed.
          if (contents.isDestroyed()) return
          // Anything else is a fault of ours, said once per window. The window's books heal by themselves: their
          // next delta does not fit what it holds, and it asks for them whole (book-delta.ts receiveBooks).
          if (faultSaid) return
          faultSaid = true
          this.options.logger.error('a batch was not delivered to a window', {
            window: contents.id,
            error: errorMessage(error),
          })
        }
      },
    })
  }

  private replaceClient(entry: ManagedWindow, why: string): void {
    entry.client.dispose()
    if (entry.contents.isDestroyed() || !this.windows.has(entry.contents.id)) return
    this.options.logger.info('window client replaced', { why, window: entry.contents.id })
    entry.client = this.attach(entry.contents, entry.target)
  }

  private forget(id: number): void {
    const entry = this.windows.get(id)
    if (!entry) return
    this.windows.delete(id)
    entry.client.dispose()
    if (!this.quitting && this.windows.size > 0) this.scheduleSave()
  }

  private scheduleSave(): void {
    if (this.quitting) return
    if (this.saveTimer) clearTimeout(this.saveTimer)
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null
      void this.saveNow()
    }, this.saveDelayMs)
  }

  private saveNow(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer)
      this.saveTimer = null
    }
    const layouts = this.snapshot()
    return this.options.engine.saveWindowLayouts(layouts).catch((error: unknown) => {
      this.options.logger.warn('window layouts not saved', {
        error: errorMessage(error),
      })
    })
  }
}
