// Where files shipped beside the app (electron-builder extraResources: sounds/, tray/) are at run time. Plain
// Node: no electron import, so the sound player that needs it stays testable without Electron.
import { join } from 'node:path'

export interface ResourceRoots {
  /** app.isPackaged */
  packaged: boolean
  /** process.resourcesPath: electron-builder copies extraResources there, outside the asar. */
  resourcesPath: string
  /** app.getAppPath(): in development the repository root (where package.json is). */
  appPath: string
}

/**
 * A bundled resource: `<resourcesPath>/<relative>` in packaged builds, the repository's `resources/<relative>`
 * in development. Outside the asar on purpose: external players (afplay, paplay, PowerShell) cannot read
 * files inside an asar archive.
 */
export function resourceFile(roots: ResourceRoots, ...relative: string[]): string {
  return roots.packaged
    ? join(roots.resourcesPath, ...relative)
    : join(roots.appPath, 'resources', ...relative)
}
