// The application menu: the platform's standard roles plus our own window commands.
import { Menu } from 'electron'
import type { MenuItemConstructorOptions } from 'electron'
import type { MenuCommand } from '../shared/ipc'

export interface MenuActions {
  newWindow(): void
  /** Push a command to the window it is meant for (WindowManager.sendMenuCommand). */
  sendMenuCommand(command: MenuCommand): void
  reconnectNow(): void
}

export interface MenuOptions {
  platform: NodeJS.Platform
  appName: string
  /** Developer tools only in development builds. */
  devTools: boolean
}

export function menuTemplate(actions: MenuActions, options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin'
  const newWindow: MenuItemConstructorOptions = {
    label: 'New Window',
    accelerator: 'CmdOrCtrl+N',
    click: () => actions.newWindow(),
  }
  const newMarketWindow: MenuItemConstructorOptions = {
    label: 'New Market Window…',
    accelerator: 'CmdOrCtrl+Shift+N',
    // The window asks which market (its quick-open palette), then opens it with openWindow.
    click: () => actions.sendMenuCommand('new-market-window'),
  }
  const template: MenuItemConstructorOptions[] = []
  if (mac) template.push({ label: options.appName, role: 'appMenu' })
  template.push({
    label: 'File',
    submenu: [newWindow, newMarketWindow, { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }],
  })
  template.push({ role: 'editMenu' })
  const view: MenuItemConstructorOptions[] = [
    { label: 'Reconnect Now', click: () => actions.reconnectNow() },
    { type: 'separator' },
    { role: 'reload' },
    { role: 'forceReload' },
  ]
  if (options.devTools) view.push({ role: 'toggleDevTools' })
  view.push(
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  )
  template.push({ label: 'View', submenu: view })
  template.push({ role: 'windowMenu' })
  template.push({ role: 'help', submenu: [{ role: 'about' }] })
  return template
}

export function installMenu(actions: MenuActions, options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, options)))
}
