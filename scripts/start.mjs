// `npm start`: the Electron app in demo mode when an Electron binary exists; otherwise (no binary and no way
// to fetch one, e.g. offline) the browser host in demo mode, with one clear line saying so.
import { spawn, spawnSync } from 'node:child_process'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { buildIsStale, findElectronBinary, root } from './electron-binary.mjs'

const INSTALL_TIMEOUT_MS = 60_000

function say(line) {
  process.stdout.write(`${line}\n`)
}

/** Runs a child to completion, forwarding SIGINT/SIGTERM; resolves with its exit code. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    // Own process group on POSIX: a terminal Ctrl+C then reaches the child once (forwarded by us), not twice.
    const child = spawn(command, args, {
      cwd: root,
      stdio: 'inherit',
      detached: process.platform !== 'win32',
      ...options,
    })
    const forward = (signal) => child.kill(signal)
    const orphanGuard = () => child.kill('SIGTERM')
    process.on('exit', orphanGuard)
    process.on('SIGINT', forward)
    process.on('SIGTERM', forward)
    options.onChild?.(child)
    child.on('error', (error) => {
      say(`could not start ${command}: ${error.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      process.off('exit', orphanGuard)
      resolve(code ?? (signal ? 0 : 1))
    })
  })
}

function tryInstallElectron() {
  // electron's own installer: fails fast without network, bounded anyway.
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], {
    cwd: root,
    stdio: 'ignore',
    timeout: INSTALL_TIMEOUT_MS,
  })
  return result.status === 0
}

async function startElectron(binary) {
  if (buildIsStale()) {
    say('Building the app (electron-vite)...')
    const code = await run(process.execPath, [
      join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
      'build',
    ])
    if (code !== 0) {
      say('Build failed (see the messages above).')
      return code
    }
  }
  say('Starting Trading Monitor (demo mode)...')
  return run(binary, [root], { env: { ...process.env, TM_DEMO: '1' } })
}

async function startBrowserHost() {
  say('Electron binary unavailable (offline?): starting the browser host in demo mode instead')
  const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')
  return run(process.execPath, [tsx, join('src', 'main', 'web', 'cli.ts'), '--demo'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    onChild(child) {
      createInterface({ input: child.stdout }).on('line', (line) => {
        say(line)
        try {
          const { url } = JSON.parse(line)
          if (typeof url === 'string') say(`Open ${url} in your browser (Ctrl+C to stop)`)
        } catch {
          // Not the JSON line; already forwarded as is.
        }
      })
    },
  })
}

async function main() {
  let binary = findElectronBinary()
  if (!binary && tryInstallElectron()) binary = findElectronBinary()
  const code = binary ? await startElectron(binary) : await startBrowserHost()
  if (code !== 0) say(`Trading Monitor stopped (exit code ${code}); see the messages above.`)
  process.exit(code)
}

main().catch((error) => {
  say(`npm start failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
