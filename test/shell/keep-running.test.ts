// What closing the last window does: the policy table (platform x keepRunning x armed x tray) and its binding to
// window-all-closed, with the one-time "still running" notice.
import { EventEmitter } from 'node:events'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { allWindowsClosedAction, fileFlag, installKeepRunning } from '../../src/main/keep-running'
import type { AllClosedAction, OnceFlag } from '../../src/main/keep-running'
import type { AlertsSummary, KeepRunning } from '../../src/shared/alerts'

const summary = (keepRunning: KeepRunning, armed: number, paused = false): AlertsSummary => ({
  keepRunning,
  armed,
  unread: 0,
  paused,
})

describe('allWindowsClosedAction', () => {
  const table: [NodeJS.Platform, KeepRunning, number, AllClosedAction][] = [
    // macOS: the app stays (dock + menu bar) whatever the setting.
    ['darwin', 'auto', 0, 'stay'],
    ['darwin', 'auto', 2, 'stay'],
    ['darwin', 'always', 0, 'stay'],
    ['darwin', 'never', 0, 'stay'],
    ['darwin', 'never', 5, 'stay'],
    // Windows and Linux: the tray keeps the app while the setting says so.
    ...(['win32', 'linux'] as const).flatMap(
      (platform): [NodeJS.Platform, KeepRunning, number, AllClosedAction][] => [
        [platform, 'auto', 0, 'quit'],
        [platform, 'auto', 1, 'background'],
        [platform, 'auto', 1000, 'background'],
        [platform, 'always', 0, 'background'],
        [platform, 'always', 3, 'background'],
        [platform, 'never', 0, 'quit'],
        [platform, 'never', 3, 'quit'],
      ],
    ),
  ]
  it.each(table)('%s, keepRunning %s, %i armed: %s', (platform, keepRunning, armed, expected) => {
    expect(allWindowsClosedAction(platform, summary(keepRunning, armed), true)).toBe(expected)
  })

  it('without a tray icon Windows/Linux quit rather than linger invisibly; macOS still stays', () => {
    expect(allWindowsClosedAction('win32', summary('always', 3), false)).toBe('quit')
    expect(allWindowsClosedAction('linux', summary('auto', 3), false)).toBe('quit')
    expect(allWindowsClosedAction('darwin', summary('never', 0), false)).toBe('stay')
  })

  it('before the engine is up (no alert state) Windows/Linux quit', () => {
    expect(allWindowsClosedAction('linux', null, true)).toBe('quit')
    expect(allWindowsClosedAction('darwin', null, true)).toBe('stay')
  })

  it('paused alerts still keep the app under auto: resuming them needs the app (and its tray) running', () => {
    expect(allWindowsClosedAction('win32', summary('auto', 2, true), true)).toBe('background')
  })
})

class FakeApp extends EventEmitter {
  quits = 0
  quit(): void {
    this.quits++
  }
}

function memoryFlag(): OnceFlag & { value: boolean } {
  const flag = {
    value: false,
    isSet: () => flag.value,
    set: () => {
      flag.value = true
    },
  }
  return flag
}

describe('installKeepRunning', () => {
  let app: FakeApp
  let alerts: AlertsSummary | null
  let notices: number
  let trayShown: boolean
  let flag: ReturnType<typeof memoryFlag>
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined }

  function install(platform: NodeJS.Platform): () => void {
    return installKeepRunning({
      app,
      platform,
      alerts: () => alerts,
      trayShown: () => trayShown,
      firstBackground: () => notices++,
      noticeFlag: flag,
      logger: quiet,
    })
  }

  beforeEach(() => {
    app = new FakeApp()
    alerts = summary('auto', 2)
    notices = 0
    trayShown = true
    flag = memoryFlag()
  })

  it('Windows with armed alerts: stays in the background, with the notice the first time only', () => {
    install('win32')
    app.emit('window-all-closed')
    app.emit('window-all-closed')
    expect(app.quits).toBe(0)
    expect(notices).toBe(1)
    expect(flag.value).toBe(true)
  })

  it('the notice is not shown again on a later run (the flag persists)', () => {
    flag.value = true
    install('linux')
    app.emit('window-all-closed')
    expect(notices).toBe(0)
    expect(app.quits).toBe(0)
  })

  it('Linux with nothing armed: quits, no notice', () => {
    alerts = summary('auto', 0)
    install('linux')
    app.emit('window-all-closed')
    expect(app.quits).toBe(1)
    expect(notices).toBe(0)
  })

  it('reads the state at the moment the last window closes', () => {
    install('linux')
    alerts = summary('never', 2)
    app.emit('window-all-closed')
    expect(app.quits).toBe(1)
  })

  it('macOS: neither quits nor shows the notice', () => {
    install('darwin')
    alerts = summary('never', 0)
    app.emit('window-all-closed')
    expect(app.quits).toBe(0)
    expect(notices).toBe(0)
  })

  it('an engine that throws reading its state: quits (Windows/Linux) instead of hanging around', () => {
    installKeepRunning({
      app,
      platform: 'win32',
      alerts: () => {
        throw new Error('closed')
      },
      trayShown: () => true,
      firstBackground: () => notices++,
      noticeFlag: flag,
      logger: quiet,
    })
    expect(() => app.emit('window-all-closed')).not.toThrow()
    expect(app.quits).toBe(1)
    expect(notices).toBe(0)
  })

  it('returns its removal', () => {
    const remove = install('linux')
    expect(app.listenerCount('window-all-closed')).toBe(1)
    remove()
    expect(app.listenerCount('window-all-closed')).toBe(0)
  })
})

describe('fileFlag', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tm-keep-running-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('is a file in the user-data directory, set once', () => {
    const path = join(dir, 'background-notice-shown')
    const flag = fileFlag(path, { info: () => undefined, warn: () => undefined, error: () => undefined })
    expect(flag.isSet()).toBe(false)
    flag.set()
    expect(existsSync(path)).toBe(true)
    expect(
      fileFlag(path, { info: () => undefined, warn: () => undefined, error: () => undefined }).isSet(),
    ).toBe(true)
  })

  it('an unwritable directory is logged, not thrown', () => {
    const warnings: string[] = []
    const flag = fileFlag(join(dir, 'missing-dir', 'flag'), {
      info: () => undefined,
      warn: (m) => warnings.push(m),
      error: () => undefined,
    })
    expect(() => flag.set()).not.toThrow()
    expect(warnings).toHaveLength(1)
  })
})
