// The Electron e2e suite (test/electron) runs only where an Electron binary exists. Elsewhere it says so in
// one line and exits 0 — also under CI, where the line makes the skip explicit rather than silent.
//
// `--packaged`: a smoke test of the app electron-builder just unpacked in release/ for this platform and arch
// (run after `npm run dist`). Playwright cannot drive it (the enableNodeCliInspectArguments fuse is off, so
// its --inspect is refused), so this launches it in demo mode and reads its log: the embedded simulator
// starting proves that the main bundle ran from app.asar, that the keyring's native binding loaded from
// app.asar.unpacked (the bundle requires it at start) and that the simulator's worker thread loaded from
// inside app.asar. On macOS and Linux a SIGTERM then quits it the graceful way (before-quit, will-quit), and
// settings.json must hold the main window's layout.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildIsStale, findElectronBinary, findPackagedApp, root } from './electron-binary.mjs'

if (process.argv.includes('--packaged')) process.exit(await packagedSmoke())

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

async function packagedSmoke() {
  const say = (line) => process.stdout.write(`electron packaged smoke: ${line}\n`)
  // TM_RELEASE_DIR and TM_SMOKE_SETTLE_MS exist for test/shell/electron-scripts.test.ts (a fake app).
  const exe = findPackagedApp(process.env.TM_RELEASE_DIR || undefined)
  if (!exe) {
    say(`FAIL no packaged app for ${process.platform}-${process.arch} in release/ (run npm run dist first)`)
    return 1
  }
  const userData = mkdtempSync(join(tmpdir(), 'tm-packaged-smoke-'))
  // GitHub's Linux runners forbid the user namespaces Chromium's sandbox needs (as in test/electron/app.spec.ts).
  const args = process.platform === 'linux' && process.env.CI === 'true' ? ['--no-sandbox'] : []
  say(`launching ${exe}`)
  const child = spawn(exe, args, {
    env: { ...process.env, TM_DEMO: '1', TM_USER_DATA_DIR: userData },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const log = []
  const outcome = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), 120_000)
    let buffered = ''
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk) => {
      buffered += chunk
      let newline
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        log.push(line)
        const entry = parseLogLine(line)
        if (entry === null) continue
        if (entry.message === 'monitor: embedded simulator started') {
          clearTimeout(timer)
          resolve('started')
        } else if (entry.message === 'startup failed' || entry.level === 'error') {
          clearTimeout(timer)
          resolve('failed')
        }
      }
    })
    void exited.then(() => {
      clearTimeout(timer)
      resolve('exited')
    })
  })
  let code = 0
  if (outcome !== 'started') {
    say(`FAIL the app ${outcome === 'timeout' ? 'did not start its simulator in 120 s' : outcome}; its log:`)
    for (const line of log.slice(-40)) process.stdout.write(`  ${line}\n`)
    child.kill('SIGKILL')
    code = 1
  } else if (process.platform === 'win32') {
    // No SIGTERM on Windows (kill is TerminateProcess): the graceful quit is the Playwright suite's part.
    say('OK: main bundle, keyring binding and simulator worker loaded')
    child.kill()
  } else {
    // The windows open right after the engine is up; give them a moment before asking the app to quit.
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.TM_SMOKE_SETTLE_MS ?? 8_000)))
    child.kill('SIGTERM')
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    const { code: exitCode, signal } = await exited
    clearTimeout(killer)
    let windows = []
    try {
      windows = JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')).windows ?? []
    } catch (error) {
      say(`settings.json unreadable: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (exitCode !== 0 || !windows.some((w) => w?.target?.kind === 'main')) {
      say(
        `FAIL after SIGTERM: exit ${exitCode ?? signal}, saved windows ${JSON.stringify(windows)}; its log:`,
      )
      for (const line of log.slice(-40)) process.stdout.write(`  ${line}\n`)
      code = 1
    } else {
      say(
        'OK: main bundle, keyring binding and simulator worker loaded; SIGTERM quit cleanly with the layout saved',
      )
    }
  }
  await exited
  rmSync(userData, { recursive: true, force: true })
  return code
}

/** One line of the shell's JSON log (src/main/log.ts), or null for anything else on stderr (Chromium's). */
function parseLogLine(line) {
  try {
    const entry = JSON.parse(line)
    return typeof entry === 'object' && entry !== null ? entry : null
  } catch {
    return null
  }
}
