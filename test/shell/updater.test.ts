// The app's own updates without Electron: the Updater's state machine around a fake electron-updater (when it
// checks, what windows are told, that nothing installs unless asked and that failures stay quiet), and the
// engine's relay (StreamStatus.update, installUpdate() to the shell's handler, `unavailable` without one).
import { EventEmitter } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStore } from '../../src/main/services/credentials/store'
import { createMonitor } from '../../src/main/services/monitor'
import type { MonitorEngine } from '../../src/main/services/base/types'
import {
  UPDATE_CHECK_INTERVAL_MS,
  UPDATE_FIRST_CHECK_MS,
  Updater,
  shortMessage,
  updatesOffReason,
  type AutoUpdaterLike,
  type AutoUpdaterLogger,
} from '../../src/main/updater'
import type { ViewBatch } from '../../src/shared/ipc'
import type { UpdateStatus } from '../../src/shared/model'
import { captureLogger } from '../services/helpers'

/** electron-updater's autoUpdater as far as the Updater sees it; each check runs a scripted scenario. */
class FakeAutoUpdater extends EventEmitter implements AutoUpdaterLike {
  autoDownload = true
  autoInstallOnAppQuit = true
  logger: AutoUpdaterLogger | null = null
  checks = 0
  installs: Array<[boolean | undefined, boolean | undefined]> = []
  /** What the next check does; the default finds nothing. */
  scenario: (u: FakeAutoUpdater) => Promise<{ downloadPromise?: Promise<unknown> | null } | null> = async (
    u,
  ) => {
    u.emit('checking-for-update')
    u.emit('update-not-available', { version: '1.0.0' })
    return null
  }
  async checkForUpdates() {
    this.checks++
    return this.scenario(this)
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter])
  }
}

/** A release found and downloaded in the background, as electron-updater reports it. */
function newRelease(version: string, progress: number[] = [12.4, 12.9, 57.3, 100]) {
  return async (u: FakeAutoUpdater) => {
    u.emit('checking-for-update')
    u.emit('update-available', { version })
    for (const percent of progress) u.emit('download-progress', { percent, total: 1, transferred: 1 })
    u.emit('update-downloaded', { version, downloadedFile: '/tmp/x' })
    return { downloadPromise: Promise.resolve(['/tmp/x']) }
  }
}

function setup(options: { load?: () => AutoUpdaterLike | Promise<AutoUpdaterLike> } = {}) {
  const fake = new FakeAutoUpdater()
  const log = captureLogger()
  const statuses: UpdateStatus[] = []
  const prepared: string[] = []
  let loads = 0
  const updater = new Updater({
    load:
      options.load ??
      (() => {
        loads++
        return fake
      }),
    logger: log.logger,
    onStatus: (s) => statuses.push(s),
    beforeInstall: () => prepared.push('layouts saved'),
  })
  return { fake, log, statuses, prepared, updater, loads: () => loads }
}

describe('updatesOffReason', () => {
  it('is off in dev, in the forced demo and with TM_NO_UPDATES=1; on in a packaged release', () => {
    expect(updatesOffReason(false, {})).toMatch(/packaged/)
    expect(updatesOffReason(true, { TM_DEMO: '1' })).toMatch(/demo/)
    expect(updatesOffReason(true, { TM_NO_UPDATES: '1' })).toMatch(/TM_NO_UPDATES/)
    expect(updatesOffReason(true, {})).toBeNull()
    // TM_DEMO=0 only means "no embedded simulator": a real release, updated as usual.
    expect(updatesOffReason(true, { TM_DEMO: '0', TM_NO_UPDATES: '0' })).toBeNull()
  })
})

describe('Updater', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('says idle at start, loads electron-updater only at the first check, then checks every few hours', async () => {
    const t = setup()
    t.updater.start()
    expect(t.statuses).toEqual([{ state: 'idle' }])
    await vi.advanceTimersByTimeAsync(UPDATE_FIRST_CHECK_MS - 1)
    expect(t.loads()).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(t.loads()).toBe(1)
    expect(t.fake.checks).toBe(1)
    // Background download, and never an install the user did not ask for.
    expect(t.fake.autoDownload).toBe(true)
    expect(t.fake.autoInstallOnAppQuit).toBe(false)
    expect(t.fake.logger).not.toBeNull()
    expect(t.statuses.map((s) => s.state)).toEqual(['idle', 'checking', 'idle'])
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS)
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS)
    expect(t.fake.checks).toBe(3)
    expect(t.loads()).toBe(1)
    t.updater.stop()
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS * 3)
    expect(t.fake.checks).toBe(3)
  })

  it('reports a release through available, whole-percent download progress and ready', async () => {
    const t = setup()
    t.fake.scenario = newRelease('1.2.0')
    await t.updater.check()
    expect(t.statuses).toEqual([
      { state: 'checking' },
      { state: 'available', version: '1.2.0' },
      { state: 'downloading', version: '1.2.0', percent: 12 },
      { state: 'downloading', version: '1.2.0', percent: 57 },
      { state: 'downloading', version: '1.2.0', percent: 100 },
      { state: 'ready', version: '1.2.0' },
    ])
    expect(t.fake.installs).toEqual([])
    // Ready: later checks wait for the restart (the next launch checks again).
    await t.updater.check()
    expect(t.fake.checks).toBe(1)
  })

  it('installs only when asked, after saving the windows, silently and starting the new version', async () => {
    const t = setup()
    const early = t.updater.install()
    expect(early).toEqual({ ok: false, error: expect.objectContaining({ code: 'invalid_argument' }) })
    t.fake.scenario = newRelease('1.2.0')
    await t.updater.check()
    expect(t.prepared).toEqual([])
    expect(t.updater.install()).toEqual({ ok: true, value: undefined })
    expect(t.prepared).toEqual(['layouts saved'])
    expect(t.fake.installs).toEqual([[true, true]])
    // A second click while quitting does nothing more.
    expect(t.updater.install()).toEqual({ ok: true, value: undefined })
    expect(t.fake.installs).toHaveLength(1)
  })

  it('an install that does not happen leaves the app running and checking again', async () => {
    const t = setup()
    t.fake.scenario = newRelease('1.2.0')
    await t.updater.check()
    t.fake.quitAndInstall = () => {
      // What BaseUpdater does when the downloaded file went missing: an error event, no quit.
      t.fake.emit('error', new Error("No update filepath provided, can't quit and install"))
    }
    expect(t.updater.install().ok).toBe(true)
    expect(t.updater.status()).toEqual({
      state: 'error',
      message: "No update filepath provided, can't quit and install",
    })
    t.fake.scenario = newRelease('1.2.1')
    await t.updater.check()
    expect(t.updater.status()).toEqual({ state: 'ready', version: '1.2.1' })
  })

  it('offline or no release: quiet (a warning in the log, an error state, no throw), and the next check retries', async () => {
    const t = setup()
    const offline = Object.assign(
      new Error('net::ERR_INTERNET_DISCONNECTED\n    at SimpleURLLoaderWrapper'),
      {
        code: 'ERR_INTERNET_DISCONNECTED',
      },
    )
    t.fake.scenario = async (u) => {
      u.emit('checking-for-update')
      u.emit('error', offline, String(offline.stack))
      throw offline
    }
    await expect(t.updater.check()).resolves.toBeUndefined()
    expect(t.updater.status()).toEqual({ state: 'error', message: 'net::ERR_INTERNET_DISCONNECTED' })
    expect(t.log.lines.filter((l) => l.startsWith('warn'))).toHaveLength(1)
    expect(t.log.lines.filter((l) => l.startsWith('error'))).toEqual([])
    t.fake.scenario = newRelease('1.3.0', [])
    await t.updater.check()
    expect(t.updater.status()).toEqual({ state: 'ready', version: '1.3.0' })
  })

  it('a failed background download is reported once and its rejected promise is handled', async () => {
    vi.useRealTimers()
    const t = setup()
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      t.fake.scenario = async (u) => {
        u.emit('checking-for-update')
        u.emit('update-available', { version: '2.0.0' })
        u.emit('download-progress', { percent: 40 })
        const failure = new Error('sha512 checksum mismatch')
        u.emit('error', failure)
        return { downloadPromise: Promise.reject(failure) }
      }
      await t.updater.check()
      await new Promise((r) => setTimeout(r, 20))
      expect(t.updater.status()).toEqual({ state: 'error', message: 'sha512 checksum mismatch' })
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })

  it('electron-updater cannot be loaded: an error state, retried at the next check', async () => {
    let attempts = 0
    const fake = new FakeAutoUpdater()
    const t = setup({
      load: () => {
        attempts++
        if (attempts === 1) throw new Error('ENOENT: app-update.yml')
        return fake
      },
    })
    await t.updater.check()
    expect(t.updater.status()).toEqual({ state: 'error', message: 'ENOENT: app-update.yml' })
    await t.updater.check()
    expect(fake.checks).toBe(1)
    expect(t.updater.status()).toEqual({ state: 'idle' })
  })

  it("electron-updater's own log lines go to the app's log, its errors as warnings", async () => {
    const t = setup()
    await t.updater.check()
    t.fake.logger?.info('Checking for update')
    t.fake.logger?.error(new Error('Error: HttpError: 404\nHeaders: {...}'))
    expect(t.log.lines).toContain('info updater: Checking for update ')
    expect(t.log.lines).toContain('warn updater: Error: HttpError: 404 ')
  })

  it('shortMessage keeps one bounded line', () => {
    expect(shortMessage(new Error(`${'x'.repeat(500)}\nstack`))).toHaveLength(160)
    expect(shortMessage('')).toBe('update failed')
  })
})

describe('engine relay', () => {
  let engine: MonitorEngine | null = null
  afterEach(async () => {
    await engine?.close()
    engine = null
  })

  it("windows see the shell's update state and reach its installer; without one, installUpdate is unavailable", async () => {
    engine = await createMonitor({
      settingsPath: null,
      credentials: createMemoryStore(),
      demo: false,
      adaptersDir: null,
      logger: captureLogger().logger,
    })
    const batches: ViewBatch[] = []
    const client = engine.attachClient({ sink: (b) => batches.push(b) })

    // The browser host (and a dev build) never registers an installer.
    const none = await client.installUpdate()
    expect(none).toEqual({ ok: false, error: expect.objectContaining({ code: 'unavailable' }) })
    const before = await client.getStatus()
    expect(before.ok && before.value.update).toBeUndefined()

    engine.setUpdateStatus({ state: 'ready', version: '1.2.0' })
    const after = await client.getStatus()
    expect(after.ok && after.value.update).toEqual({ state: 'ready', version: '1.2.0' })
    await vi.waitFor(() => expect(batches.some((b) => b.status?.update?.state === 'ready')).toBe(true))

    const calls: string[] = []
    const unregister = engine.onInstallUpdate(() => {
      calls.push('install')
      return { ok: true, value: undefined }
    })
    expect(await client.installUpdate()).toEqual({ ok: true, value: undefined })
    expect(calls).toEqual(['install'])
    // Arguments are refused at the boundary like every other call.
    const bad = await (
      client.installUpdate as (...args: unknown[]) => ReturnType<typeof client.installUpdate>
    )('now')
    expect(bad.ok).toBe(false)
    expect(calls).toEqual(['install'])

    unregister()
    expect((await client.installUpdate()).ok).toBe(false)
    engine.setUpdateStatus(null)
    const off = await client.getStatus()
    expect(off.ok && off.value.update).toBeUndefined()
  })
})
