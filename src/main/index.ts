// Electron entry: wires the engine, the windows, IPC, hardening, the menu and the delivery of alerts (OS
// notifications, sound, tray, keep-running policy). Kept thin on purpose; each concern lives in its own module.
import { join, resolve } from 'node:path'
import { BrowserWindow, app, dialog, powerMonitor, session } from 'electron'
import { createMonitor } from './services'
import type { MonitorEngine } from './services'
import { devServerOrigin, isAppUrl, windowUrl } from './app-origin'
import { installCsp } from './csp'
import { bindMonitorIpc } from './ipc'
import { BACKGROUND_NOTICE, fileFlag, installKeepRunning } from './keep-running'
import { shellLogger as logger } from './log'
import { installMenu } from './menu'
import { APP_USER_MODEL_ID, AlertNotifier } from './notifier'
import { registerAppScheme, serveBundle } from './protocol'
import { resourceFile } from './resources'
import { denyAllPermissions, installHardening } from './security'
import { SoundPlayer } from './sound-player'
import { AppTray } from './tray'
import { Updater, loadElectronUpdater, updatesOffReason } from './updater'
import { WindowManager } from './windows'
import { errorMessage } from './services'

const devOrigin = app.isPackaged ? null : devServerOrigin(process.env['ELECTRON_RENDERER_URL'])
// Tests (and power users) may keep a separate profile; the single-instance lock is per user-data directory.
const userDataOverride = process.env['TM_USER_DATA_DIR']
if (userDataOverride) app.setPath('userData', resolve(userDataOverride))

registerAppScheme()
installHardening(app, { devOrigin, logger })
if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID)

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  void start().catch((error: unknown) => {
    const message = errorMessage(error)
    logger.error('startup failed', { error: message })
    dialog.showErrorBox('Trading Monitor could not start', message)
    app.exit(1)
  })
}

async function start(): Promise<void> {
  let manager: WindowManager | null = null
  let shellEngine: MonitorEngine | null = null
  let tray: AppTray | null = null
  let notifier: AlertNotifier | null = null
  let layoutsSaved: Promise<void> | null = null
  app.on('second-instance', () => manager?.focusMain())
  // Registered before anything can fail, so that a half-started app still quits when its windows close.
  installKeepRunning({
    app,
    platform: process.platform,
    alerts: () => shellEngine?.shellState().alerts ?? null,
    trayShown: () => tray !== null,
    firstBackground: () => notifier?.notice(BACKGROUND_NOTICE.title, BACKGROUND_NOTICE.body),
    noticeFlag: fileFlag(join(app.getPath('userData'), 'background-notice-shown'), logger),
    logger,
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
  shellEngine = engine

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

  // Alerts reach the trader with every window closed: OS notification, chime, tray. The tray is there from the
  // start on every platform (the trading-app convention: connection state and "pause alerts" always one click
  // away), not only once the app is in the background, so that it never appears or vanishes under the user.
  const roots = {
    packaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    appPath: app.getAppPath(),
  }
  const alertNotifier = new AlertNotifier({
    actions: {
      openMarket: (market) => void windows.open({ kind: 'market', market }),
      openMain: () => windows.focusMain(),
    },
    logger,
  })
  notifier = alertNotifier
  const sound = new SoundPlayer({ file: resourceFile(roots, 'sounds', 'alert.wav'), logger })
  try {
    tray = new AppTray(
      {
        platform: process.platform,
        iconDir: resourceFile(roots, 'tray'),
        actions: {
          openMain: () => windows.focusMain(),
          pauseAlerts: (paused) => engine.pauseAlerts(paused),
          quit: () => app.quit(),
        },
        logger,
        // Windows has no app-level badge (only per-window overlay icons).
        setBadgeCount: process.platform === 'win32' ? undefined : (count) => void app.setBadgeCount(count),
      },
      engine.shellState(),
    )
  } catch (error) {
    logger.warn('tray icon unavailable; closing the last window will quit', {
      error: errorMessage(error),
    })
  }
  const unwatchShell = engine.watchShell({
    alertFired: (event) => {
      alertNotifier.alertFired(event)
      if (event.sound && event.kind === 'fired') sound.play()
    },
    stateChanged: (state) => tray?.update(state),
  })

  // The app's own updates (docs/updates.md): checked a while after start and every few hours, downloaded in the
  // background, installed only when the user clicks "Restart to update". electron-updater is loaded at the
  // first check, never in dev builds, the forced demo mode or with TM_NO_UPDATES=1.
  const updatesOff = updatesOffReason(app.isPackaged, process.env)
  let updater: Updater | null = null
  let unregisterInstall: () => void = () => undefined
  if (updatesOff) {
    logger.info('updates off', { reason: updatesOff })
  } else {
    const appUpdater = new Updater({
      load: loadElectronUpdater,
      logger,
      onStatus: (status) => engine.setUpdateStatus(status),
      // Every window's layout is saved while they are all still open (Squirrel.Mac closes them before quitting).
      beforeInstall: () => {
        layoutsSaved ??= windows.beginQuit()
      },
    })
    updater = appUpdater
    unregisterInstall = engine.onInstallUpdate(() => appUpdater.install())
  }

  // Sockets die silently across sleep; reconnect at once instead of waiting for the watchdog.
  powerMonitor.on('resume', () => engine.reconnectNow())
  powerMonitor.on('unlock-screen', () => engine.reconnectNow())
  // OS shutdown or log-off (Linux, macOS): quit through before-quit/will-quit so layouts and settings are saved,
  // rather than being killed with them unsaved.
  powerMonitor.on('shutdown', (...args: unknown[]) => {
    ;(args[0] as { preventDefault?: () => void } | undefined)?.preventDefault?.()
    app.quit()
  })

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) windows.focusMain()
  })

  app.on('before-quit', () => {
    layoutsSaved ??= windows.beginQuit()
  })
  let closing = false
  app.on('will-quit', (event) => {
    if (closing) return
    closing = true
    event.preventDefault()
    updater?.stop()
    unregisterInstall()
    unwatchShell()
    tray?.destroy()
    tray = null
    alertNotifier.dispose()
    void (layoutsSaved ?? windows.beginQuit())
      .then(() => engine.close())
      .catch((error: unknown) => logger.warn('engine close failed', { error: String(error) }))
      .finally(() => app.exit(0))
  })

  windows.restore()
  updater?.start()
}
