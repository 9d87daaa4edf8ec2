// What the OS calls a window (its title bar, the taskbar, the window switcher): its market's or event's name,
// or, while none is known, only which kind of window it is: ids are UUIDs no one reads. The Electron shell
// opens a window with the second, and the page writes the first once its listing names the target.
import type { WindowTarget } from './model'

export const APP_NAME = 'Trading Monitor'

export function windowTitleOf(target: WindowTarget, name: string | undefined): string {
  if (target.kind === 'main') return APP_NAME
  return `${name ?? (target.kind === 'market' ? 'Market' : 'Event')} · ${APP_NAME}`
}
