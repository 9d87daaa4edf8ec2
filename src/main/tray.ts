// The tray (menu-bar) icon: live connection state at a glance, and the way back to the app and out of it while
// it watches alerts with every window closed.
//
// Linux: most desktops show tray icons through StatusNotifierItem (libappindicator / KDE / the GNOME AppIndicator
// extension). There, `click` is never emitted and tooltips are not shown: the context menu is the only
// interaction, so one is always set, and it repeats the tooltip's status as its first line. A menu item changed
// after setContextMenu is not picked up there either, so a change rebuilds and re-sets the whole menu. Plain
// GNOME without the extension shows no tray icon at all; a second launch of the app still brings a window back
// (second-instance -> focusMain).
import { Menu, Tray, nativeImage } from 'electron'
import type { MenuItem, MenuItemConstructorOptions, NativeImage } from 'electron'
import { join } from 'node:path'
import type { ConnectionState } from '../shared/model'
import type { Logger, ShellState } from './services'
import { errorMessage } from './services'

export interface TrayActions {
  /** Focus the main window, or open one. */
  openMain(): void
  pauseAlerts(paused: boolean): void
  quit(): void
}

export interface TrayOptions {
  platform: NodeJS.Platform
  /** resources/tray (resourceFile(roots, 'tray')). */
  iconDir: string
  actions: TrayActions
  logger: Logger
  /** Unread alerts on the dock (macOS) or launcher (Linux, where supported): app.setBadgeCount. */
  setBadgeCount?: (count: number) => void
  /** State changes within this are applied once; 0 applies each at once. */
  coalesceMs?: number
}

/** Everything the tray shows, derived from the engine's shell state. */
export interface TrayView {
  live: boolean
  /** "Live · 3 alerts armed" */
  status: string
  tooltip: string
  paused: boolean
  unread: number
}

const APP_NAME = 'Trading Monitor'

const CONNECTION_LABEL: Record<ConnectionState, string> = {
  live: 'Live',
  connecting: 'Connecting',
  reconnecting: 'Reconnecting',
  offline: 'Offline',
  'auth-error': 'Key refused',
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`
}

export function trayView(state: ShellState): TrayView {
  const { alerts } = state
  const parts = [CONNECTION_LABEL[state.connection] ?? state.connection]
  if (alerts.paused) parts.push('alerts paused')
  else if (alerts.armed > 0) parts.push(plural(alerts.armed, 'alert armed', 'alerts armed'))
  if (alerts.unread > 0) parts.push(`${alerts.unread} unread`)
  const status = parts.join(' · ')
  return {
    live: state.connection === 'live',
    status,
    tooltip: `${APP_NAME} — ${status}`,
    paused: alerts.paused,
    unread: alerts.unread,
  }
}

export function trayMenuTemplate(view: TrayView, actions: TrayActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [
    { label: view.status, enabled: false },
    { type: 'separator' },
    { label: `Open ${APP_NAME}`, click: () => actions.openMain() },
  ]
  if (view.unread > 0) {
    // The main window has the alert history.
    items.push({
      label: plural(view.unread, 'unread alert', 'unread alerts'),
      click: () => actions.openMain(),
    })
  }
  items.push(
    {
      label: 'Pause alerts',
      type: 'checkbox',
      checked: view.paused,
      // Electron has already flipped `checked` when click runs.
      click: (item: MenuItem) => actions.pauseAlerts(item.checked),
    },
    { type: 'separator' },
    { label: 'Quit', click: () => actions.quit() },
  )
  return items
}

/** The icon file for a platform and state (scripts/make-tray-icons.mjs says why each looks as it does). */
export function trayIconFile(platform: NodeJS.Platform, live: boolean): string {
  if (platform === 'darwin') return live ? 'macLiveTemplate.png' : 'macOfflineTemplate.png'
  if (platform === 'win32') return live ? 'win-live.png' : 'win-offline.png'
  return live ? 'linux-live.png' : 'linux-offline.png'
}

export class AppTray {
  private readonly tray: Tray
  private shown: { tooltip: string; live: boolean; menu: string; unread: number } | null = null
  private pending: ShellState | null = null
  private timer: NodeJS.Timeout | null = null
  private readonly images = new Map<boolean, NativeImage>()
  private destroyed = false

  constructor(
    private readonly options: TrayOptions,
    initial: ShellState,
  ) {
    const view = trayView(initial)
    this.tray = new Tray(this.image(view.live))
    // Windows convention: a left click on the notification-area icon opens the app, the right click the menu.
    // macOS opens the menu on click; Linux (StatusNotifier) never emits click.
    if (options.platform === 'win32') this.tray.on('click', () => options.actions.openMain())
    this.apply(view)
  }

  /** From engine.watchShell's stateChanged: coalesced, and only what changed is touched. */
  update(state: ShellState): void {
    if (this.destroyed) return
    const delay = this.options.coalesceMs ?? 100
    if (delay <= 0) {
      this.apply(trayView(state))
      return
    }
    this.pending = state
    this.timer ??= setTimeout(() => {
      this.timer = null
      const latest = this.pending
      this.pending = null
      if (latest && !this.destroyed) this.apply(trayView(latest))
    }, delay)
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.tray.destroy()
  }

  private apply(view: TrayView): void {
    const menu = JSON.stringify([view.status, view.paused, view.unread])
    const before = this.shown
    this.shown = { tooltip: view.tooltip, live: view.live, menu, unread: view.unread }
    try {
      if (before && before.live !== view.live) this.tray.setImage(this.image(view.live))
      if (before?.tooltip !== view.tooltip) this.tray.setToolTip(view.tooltip)
      if (before?.menu !== menu) {
        this.tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(view, this.options.actions)))
      }
      if (before?.unread !== view.unread) this.options.setBadgeCount?.(view.unread)
    } catch (error) {
      this.options.logger.warn('tray update failed', {
        error: errorMessage(error),
      })
    }
  }

  private image(live: boolean): NativeImage {
    let image = this.images.get(live)
    if (!image) {
      const file = join(this.options.iconDir, trayIconFile(this.options.platform, live))
      // Loads the @2x file beside it too, and a name ending in "Template" makes it a macOS template image.
      image = nativeImage.createFromPath(file)
      if (image.isEmpty()) this.options.logger.warn('tray icon missing', { file })
      this.images.set(live, image)
    }
    return image
  }
}
