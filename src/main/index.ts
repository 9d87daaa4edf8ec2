// Electron entry: wires the engine, the windows, IPC, hardening and the menu. Kept thin on purpose; each
// concern lives in its own module.
import { join, resolve } from 'node:path'
import { BrowserWindow, app, dialog, powerMonitor, session } from 'electron'
import { createMonitor } from './services/monitor'
import type { MonitorEngine } from './services/types'
import { devServerOrigin, isAppUrl, windowUrl } from './app-origin'
import { installCsp } from './csp'
import { bindMonitorIpc } from './ipc'
import { shellLogger as logger } from './log'
import { installMenu } from './menu'
import { registerAppScheme, serveBundle } from './protocol'
import { denyAllPermissions, installHardening } from './security'
import { WindowManager } from './windows'

const devOrigin = app.isPackaged ? null : devServerOrigin(process.env['ELECTRON_RENDERER_URL'])
// Tests (and power users) may keep a separate profile; the single-instance lock is per user-data directory.
const userDataOverride = process.env['TM_USER_DATA_DIR']
if (userDataOverride) app.setPath('userData', resolve(userDataOverride))

registerAppScheme()
installHardening(app, { devOrigin, logger })

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  void start().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    logger.error('startup failed', { error: message })
    dialog.showErrorBox('Trading Monitor could not start', message)
    app.exit(1)
  })
}

async function start(): Promise<void> {
  let manager: WindowManager | null = null
  app.on('second-instance', () => manager?.focusMain())
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  await app.whenReady()
  denyAllPermissions(session.defaultSession, logger)
  installCsp(session.defaultSession, devOrigin)
  serveBundle(join(__dirname, '../renderer'))

  // The engine decides what the demo profile means; the shell only says where the simulator's worker file is
  // in the bundle. The simulator starts lazily while the demo profile is active, so real profiles keep their keys
  // in the OS keychain (demo: true would put the whole engine in memory-only key mode). TM_DEMO=1 forces demo
  // mode; TM_DEMO=0 starts without the embedded simulator.
  const simulatorWorkerEntry = join(__dirname, 'sim-worker.js')
  const demoEnv = process.env['TM_DEMO']
  const engine: MonitorEngine = await createMonitor({
    settingsPath: join(app.getPath('userData'), 'settings.json'),
    demo: demoEnv === '0' ? false : demoEnv === '1' ? { workerEntry: simulatorWorkerEntry } : undefined,
    simulatorWorkerEntry,
    logger,
  })
  const windows = new WindowManager({
    engine,
    preloadPath: join(__dirname, '../preload/index.js'),
    pageUrl: (target) => windowUrl(target, devOrigin),
    logger,
  })
  manager = windows

  bindMonitorIpc({
    clientFor: (contents) => windows.clientFor(contents),
    openWindow: (target) => windows.openFromRenderer(target),
    isAppUrl: (url) => isAppUrl(url, devOrigin),
    logger,
  })
  installMenu(
    {
      newWindow: () => windows.open({ kind: 'main' }),
      sendMenuCommand: (command) => windows.sendMenuCommand(command),
      reconnectNow: () => engine.reconnectNow(),
    },
    { platform: process.platform, appName: app.getName(), devTools: !app.isPackaged },
  )

  // Sockets die silently across sleep; reconnect at once instead of waiting for the watchdog.
  powerMonitor.on('resume', () => engine.reconnectNow())
  powerMonitor.on('unlock-screen', () => engine.reconnectNow())

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) windows.focusMain()
  })

  let layoutsSaved: Promise<void> | null = null
  app.on('before-quit', () => {
    layoutsSaved ??= windows.beginQuit()
  })
  let closing = false
  app.on('will-quit', (event) => {
    if (closing) return
    closing = true
    event.preventDefault()
    void (layoutsSaved ?? windows.beginQuit())
      .then(() => engine.close())
      .catch((error: unknown) => logger.warn('engine close failed', { error: String(error) }))
      .finally(() => app.exit(0))
  })

  windows.restore()
}
