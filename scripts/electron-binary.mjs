// Where the Electron binary is, without ever triggering electron's own lazy download (require('electron')
// downloads synchronously and without a time limit). Shared by start.mjs and electron-e2e.mjs.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const electronDir = join(root, 'node_modules', 'electron')

function platformPath() {
  if (process.platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron'
  if (process.platform === 'win32') return 'electron.exe'
  return 'electron'
}

function pathTxt() {
  try {
    return readFileSync(join(electronDir, 'path.txt'), 'utf8').trim() || null
  } catch {
    return null
  }
}

function isFile(path) {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The Electron executable, or null when none is present on this machine. */
export function findElectronBinary() {
  const candidates = []
  if (process.env.ELECTRON_EXEC_PATH) candidates.push(process.env.ELECTRON_EXEC_PATH)
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    candidates.push(join(process.env.ELECTRON_OVERRIDE_DIST_PATH, pathTxt() ?? platformPath()))
  }
  const relative = pathTxt()
  if (relative) candidates.push(join(electronDir, 'dist', relative))
  return candidates.find(isFile) ?? null
}

function newestMtime(path) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = 0
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)))
  return newest
}

/** True when out/ is missing or older than the sources and build configs. */
export function buildIsStale() {
  const outputs = [
    'out/main/index.js',
    'out/main/sim-worker.js',
    'out/preload/index.js',
    'out/renderer/index.html',
  ]
  if (!outputs.every((p) => existsSync(join(root, p)))) return true
  const built = Math.min(...outputs.map((p) => statSync(join(root, p)).mtimeMs))
  const inputs = ['src', 'electron.vite.config.ts', 'vite.renderer.config.mts', 'package.json']
  return inputs.some((p) => newestMtime(join(root, p)) > built)
}

/**
 * The executable of the app electron-builder unpacked for this platform and arch (release/<dir>), or null. The
 * directories are electron-builder's own: mac, mac-arm64, win-unpacked, win-arm64-unpacked, linux-unpacked,
 * linux-arm64-unpacked.
 */
export function findPackagedApp(
  releaseDir = join(root, 'release'),
  platform = process.platform,
  arch = process.arch,
) {
  const suffix = arch === 'x64' ? '' : `-${arch}`
  const list = (dir) => {
    try {
      return readdirSync(dir)
    } catch {
      return []
    }
  }
  if (platform === 'darwin') {
    for (const dir of [`mac${suffix}`, 'mac-universal']) {
      for (const bundle of list(join(releaseDir, dir)).filter((n) => n.endsWith('.app'))) {
        const macos = join(releaseDir, dir, bundle, 'Contents', 'MacOS')
        const exe = list(macos).find((n) => isFile(join(macos, n)))
        if (exe) return join(macos, exe)
      }
    }
    return null
  }
  const dir = join(releaseDir, `${platform === 'win32' ? 'win' : 'linux'}${suffix}-unpacked`)
  if (platform === 'win32') {
    const exe = list(dir).find((n) => n.endsWith('.exe') && !/^(elevate|uninstall)/i.test(n))
    return exe ? join(dir, exe) : null
  }
  // Linux: electron-builder's executableName (linux. or top level), else package.json's name in lower case.
  let name
  try {
    const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) ?? {}
    name = config.linux?.executableName ?? config.executableName ?? null
    name ??= JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name.toLowerCase()
  } catch {
    name = null
  }
  return name !== null && isFile(join(dir, name)) ? join(dir, name) : null
}
