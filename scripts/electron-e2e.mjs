// The Electron e2e suite (test/electron) runs only where an Electron binary exists. Elsewhere it says so in
// one line and exits 0 — also under CI, where the line makes the skip explicit rather than silent.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { buildIsStale, findElectronBinary, root } from './electron-binary.mjs'

const binary = findElectronBinary()
if (!binary) {
  process.stdout.write('SKIP electron e2e: no Electron binary (set ELECTRON_OVERRIDE_DIST_PATH to run it)\n')
  process.exit(0)
}

function run(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env })
    const forward = (signal) => child.kill(signal)
    process.on('SIGINT', forward)
    process.on('SIGTERM', forward)
    child.on('error', () => resolve(1))
    child.on('exit', (code) => {
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      resolve(code ?? 1)
    })
  })
}

if (buildIsStale()) {
  const code = await run(process.execPath, [
    join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
    'build',
  ])
  if (code !== 0) process.exit(code)
}
const playwright = join(root, 'node_modules', '@playwright', 'test', 'cli.js')
const code = await run(
  process.execPath,
  [playwright, 'test', '--config', join(root, 'playwright.electron.config.mts'), ...process.argv.slice(2)],
  { ...process.env, TM_ELECTRON_BINARY: binary },
)
process.exit(code)
