// scripts/electron-binary.mjs and scripts/electron-e2e.mjs --packaged, which the release workflow runs on each
// OS runner after packaging and which cannot run here for real: the packaged app's location per platform and
// arch, and the smoke test's verdicts, driven with a fake app that behaves (or misbehaves) like the real one.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
// @ts-expect-error -- plain .mjs script without type declarations
import { findPackagedApp } from '../../scripts/electron-binary.mjs'

const root = join(__dirname, '../..')
const find = findPackagedApp as (releaseDir: string, platform: string, arch: string) => string | null
let release = ''

function file(path: string, text = ''): string {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
  return path
}

beforeEach(() => {
  release = mkdtempSync(join(tmpdir(), 'tm-release-'))
})
afterEach(() => {
  rmSync(release, { recursive: true, force: true })
})

describe('findPackagedApp', () => {
  it("finds electron-builder's unpacked app for each platform and arch", () => {
    const macX64 = file(join(release, 'mac/Trading Monitor.app/Contents/MacOS/Trading Monitor'))
    const macArm = file(join(release, 'mac-arm64/Trading Monitor.app/Contents/MacOS/Trading Monitor'))
    const win = file(join(release, 'win-unpacked/Trading Monitor.exe'))
    file(join(release, 'win-unpacked/elevate.exe'))
    const winArm = file(join(release, 'win-arm64-unpacked/Trading Monitor.exe'))
    const linux = file(join(release, 'linux-unpacked/trading-monitor'))
    file(join(release, 'linux-unpacked/chrome-sandbox'))
    const linuxArm = file(join(release, 'linux-arm64-unpacked/trading-monitor'))
    expect(find(release, 'darwin', 'x64')).toBe(macX64)
    expect(find(release, 'darwin', 'arm64')).toBe(macArm)
    expect(find(release, 'win32', 'x64')).toBe(win)
    expect(find(release, 'win32', 'arm64')).toBe(winArm)
    expect(find(release, 'linux', 'x64')).toBe(linux)
    expect(find(release, 'linux', 'arm64')).toBe(linuxArm)
  })

  it('null when that arch was not packaged', () => {
    file(join(release, 'linux-unpacked/trading-monitor'))
    expect(find(release, 'linux', 'arm64')).toBeNull()
    expect(find(release, 'darwin', 'arm64')).toBeNull()
    expect(find(join(release, 'missing'), 'win32', 'x64')).toBeNull()
  })
})

describe.runIf(process.platform === 'linux')('electron-e2e.mjs --packaged (with a fake app)', () => {
  /** A stand-in for the packaged executable: a Node script at release/linux-unpacked/trading-monitor. */
  function fakeApp(body: string): void {
    const exe = file(
      join(
        release,
        process.arch === 'x64' ? 'linux-unpacked' : `linux-${process.arch}-unpacked`,
        'trading-monitor',
      ),
      `#!${process.execPath}\nconst { writeFileSync } = require('node:fs')\nconst log = (message, level = 'info') => process.stderr.write(JSON.stringify({ level, message }) + '\\n')\n${body}\n`,
    )
    chmodSync(exe, 0o755)
  }
  function smoke(): { status: number | null; out: string } {
    const run = spawnSync(process.execPath, [join(root, 'scripts/electron-e2e.mjs'), '--packaged'], {
      env: { ...process.env, TM_RELEASE_DIR: release, TM_SMOKE_SETTLE_MS: '50', CI: '' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    return { status: run.status, out: run.stdout }
  }

  it('passes when the simulator starts and SIGTERM quits with the layout saved', () => {
    fakeApp(`
      log('monitor: embedded simulator started')
      process.on('SIGTERM', () => {
        writeFileSync(require('node:path').join(process.env.TM_USER_DATA_DIR, 'settings.json'),
          JSON.stringify({ windows: [{ target: { kind: 'main' } }] }))
        process.exit(process.env.TM_DEMO === '1' ? 0 : 3)
      })
      setInterval(() => undefined, 1000)`)
    const { status, out } = smoke()
    expect(out).toContain('OK:')
    expect(status).toBe(0)
  })

  it('fails, with the log, when the app reports a failed start', () => {
    fakeApp(`log('startup failed', 'error'); setInterval(() => undefined, 1000)`)
    const { status, out } = smoke()
    expect(status).toBe(1)
    expect(out).toContain('FAIL')
    expect(out).toContain('startup failed')
  })

  it('fails when a SIGTERM quit saves no layout', () => {
    fakeApp(`
      log('monitor: embedded simulator started')
      process.on('SIGTERM', () => process.exit(0))
      setInterval(() => undefined, 1000)`)
    const { status, out } = smoke()
    expect(status).toBe(1)
    expect(out).toContain('FAIL after SIGTERM')
  })

  it('fails when nothing was packaged', () => {
    const { status, out } = smoke()
    expect(status).toBe(1)
    expect(out).toContain('no packaged app')
  })
})
