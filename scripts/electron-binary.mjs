// Where the Electron binary is, without ever triggering electron's own lazy download (require('electron')
// downloads synchronously and without a time limit). Shared by start.mjs and electron-e2e.mjs.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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
