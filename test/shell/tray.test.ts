// The tray with Electron's Tray, Menu and nativeImage replaced: menu items and what they do, tooltip and icon
// following the connection, the menu rebuilt only when what it shows changed, and the committed tray icons
// being exactly what scripts/make-tray-icons.mjs makes.
import type { EventEmitter as EventEmitterType } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MenuItemConstructorOptions } from 'electron'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const h = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter: Emitter } = require('node:events') as { EventEmitter: typeof EventEmitterType }
  class FakeImage {
    constructor(readonly path: string) {}
    isEmpty(): boolean {
      return FakeImage.missing.has(this.path)
    }
    static missing = new Set<string>()
  }
  class FakeTray extends Emitter {
    static all: FakeTray[] = []
    image: FakeImage
    tooltip: string | null = null
    menu: unknown[] | null = null
    calls = { setImage: 0, setToolTip: 0, setContextMenu: 0 }
    destroyed = false
    constructor(image: FakeImage) {
      super()
      this.image = image
      FakeTray.all.push(this)
    }
    setImage(image: FakeImage): void {
      this.calls.setImage++
      this.image = image
    }
    setToolTip(text: string): void {
      this.calls.setToolTip++
      this.tooltip = text
    }
    setContextMenu(menu: unknown[]): void {
      this.calls.setContextMenu++
      this.menu = menu
    }
    destroy(): void {
      this.destroyed = true
    }
  }
  return { FakeTray, FakeImage }
})

vi.mock('electron', () => ({
  Tray: h.FakeTray,
  Menu: { buildFromTemplate: (template: unknown[]) => template },
  nativeImage: { createFromPath: (path: string) => new h.FakeImage(path) },
}))

import { AppTray, trayIconFile, trayView } from '../../src/main/tray'
import type { ShellState } from '../../src/main/services/base/types'
// @ts-expect-error -- plain .mjs script without type declarations
import * as trayScript from '../../scripts/make-tray-icons.mjs'

const root = join(__dirname, '../..')
const trayIcons = trayScript as { buildTrayIcons(): { path: string; data: Buffer }[] }

type Item = MenuItemConstructorOptions
let calls: string[]
let badges: number[]
let warnings: string[]

function state(
  overrides: Partial<ShellState['alerts']> = {},
  connection: ShellState['connection'] = 'live',
): ShellState {
  return { connection, alerts: { armed: 3, unread: 0, paused: false, keepRunning: 'auto', ...overrides } }
}

function makeTray(platform: NodeJS.Platform = 'linux', initial = state(), coalesceMs = 0): AppTray {
  return new AppTray(
    {
      platform,
      iconDir: '/res/tray',
      actions: {
        openMain: () => calls.push('open'),
        pauseAlerts: (paused) => calls.push(`pause:${paused}`),
        quit: () => calls.push('quit'),
      },
      logger: { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
      setBadgeCount: (count) => badges.push(count),
      coalesceMs,
    },
    initial,
  )
}

function fakeTray(): InstanceType<typeof h.FakeTray> {
  const t = h.FakeTray.all.at(-1)
  if (!t) throw new Error('no tray')
  return t
}
const menu = (): Item[] => (fakeTray().menu ?? []) as Item[]
const labels = (): (string | undefined)[] => menu().map((i) => (i.type === 'separator' ? '---' : i.label))
function item(label: string): Item {
  const found = menu().find((i) => i.label === label)
  if (!found) throw new Error(`no menu item ${label}`)
  return found
}
function click(label: string, checked?: boolean): void {
  const target = item(label)
  const fn = target.click as unknown as (menuItem: { checked: boolean }) => void
  fn({ checked: checked ?? false })
}

beforeEach(() => {
  h.FakeTray.all = []
  h.FakeImage.missing.clear()
  calls = []
  badges = []
  warnings = []
})

afterEach(() => {
  vi.useRealTimers()
})

describe('tray menu', () => {
  it('status line, open, pause (a checkbox), quit; an unread line only when there is unread', () => {
    makeTray()
    expect(labels()).toEqual([
      'Live · 3 alerts armed',
      '---',
      'Open Trading Monitor',
      'Pause alerts',
      '---',
      'Quit',
    ])
    // The status line is information, not an action (and on Linux it stands in for the tooltip).
    expect(menu()[0]?.enabled).toBe(false)
    expect(item('Pause alerts')).toMatchObject({ type: 'checkbox', checked: false })

    makeTray('linux', state({ unread: 2 }))
    expect(labels()).toEqual([
      'Live · 3 alerts armed · 2 unread',
      '---',
      'Open Trading Monitor',
      '2 unread alerts',
      'Pause alerts',
      '---',
      'Quit',
    ])
  })

  it('items do what they say', () => {
    makeTray('linux', state({ unread: 1 }))
    click('Open Trading Monitor')
    click('1 unread alert')
    click('Pause alerts', true)
    click('Pause alerts', false)
    click('Quit')
    expect(calls).toEqual(['open', 'open', 'pause:true', 'pause:false', 'quit'])
  })

  it('the pause checkbox follows the engine (paused from the alert manager too)', () => {
    const tray = makeTray()
    tray.update(state({ paused: true }))
    expect(item('Pause alerts').checked).toBe(true)
    expect(labels()[0]).toBe('Live · alerts paused')
  })
})

describe('tooltip and icon', () => {
  it('tooltip names the app, the connection and the armed alerts', () => {
    const tray = makeTray()
    expect(fakeTray().tooltip).toBe('Trading Monitor — Live · 3 alerts armed')
    tray.update(state({ armed: 1 }, 'reconnecting'))
    expect(fakeTray().tooltip).toBe('Trading Monitor — Reconnecting · 1 alert armed')
    tray.update(state({ armed: 0 }, 'auth-error'))
    expect(fakeTray().tooltip).toBe('Trading Monitor — Key refused')
  })

  it('a different icon when not live, set only when liveness changes', () => {
    const tray = makeTray('win32')
    expect(fakeTray().image.path).toBe(join('/res/tray', 'win-live.png'))
    tray.update(state({}, 'connecting'))
    expect(fakeTray().image.path).toBe(join('/res/tray', 'win-offline.png'))
    tray.update(state({}, 'offline'))
    tray.update(state({}, 'reconnecting'))
    expect(fakeTray().calls.setImage).toBe(1)
    tray.update(state({}, 'live'))
    expect(fakeTray().image.path).toBe(join('/res/tray', 'win-live.png'))
    expect(fakeTray().calls.setImage).toBe(2)
  })

  it('per platform: macOS template images, Windows 16 px + @2x, Linux one 32 px image', () => {
    expect(trayIconFile('darwin', true)).toBe('macLiveTemplate.png')
    expect(trayIconFile('darwin', false)).toBe('macOfflineTemplate.png')
    expect(trayIconFile('win32', false)).toBe('win-offline.png')
    expect(trayIconFile('linux', true)).toBe('linux-live.png')
    expect(trayIconFile('freebsd', true)).toBe('linux-live.png')
  })

  it('a missing icon file is logged, not fatal', () => {
    h.FakeImage.missing.add(join('/res/tray', 'linux-live.png'))
    expect(() => makeTray()).not.toThrow()
    expect(warnings).toEqual(['tray icon missing'])
  })

  it('Windows: a left click on the icon opens the app; elsewhere click is left to the OS (menu)', () => {
    makeTray('win32')
    fakeTray().emit('click')
    expect(calls).toEqual(['open'])
    makeTray('darwin')
    expect(fakeTray().listenerCount('click')).toBe(0)
    makeTray('linux')
    expect(fakeTray().listenerCount('click')).toBe(0)
  })
})

describe('updates', () => {
  it('the menu is rebuilt only when something it shows changed', () => {
    const tray = makeTray()
    expect(fakeTray().calls).toEqual({ setImage: 0, setToolTip: 1, setContextMenu: 1 })
    tray.update(state())
    tray.update(state({ keepRunning: 'always' }))
    expect(fakeTray().calls).toEqual({ setImage: 0, setToolTip: 1, setContextMenu: 1 })
    tray.update(state({ armed: 4 }))
    expect(fakeTray().calls).toEqual({ setImage: 0, setToolTip: 2, setContextMenu: 2 })
    tray.update(state({ armed: 4, unread: 1 }))
    expect(fakeTray().calls.setContextMenu).toBe(3)
  })

  it('a burst of state changes is applied once, with the latest state', () => {
    vi.useFakeTimers()
    const tray = makeTray('linux', state(), 100)
    for (let armed = 4; armed <= 50; armed++)
      tray.update(state({ armed }, armed % 2 ? 'live' : 'reconnecting'))
    expect(fakeTray().calls.setContextMenu).toBe(1)
    vi.advanceTimersByTime(100)
    expect(fakeTray().calls).toEqual({ setImage: 1, setToolTip: 2, setContextMenu: 2 })
    expect(labels()[0]).toBe('Reconnecting · 50 alerts armed')
  })

  it('unread goes to the dock/launcher badge when it changes', () => {
    const tray = makeTray()
    tray.update(state({ unread: 2 }))
    tray.update(state({ unread: 2, armed: 9 }))
    tray.update(state({ unread: 0 }))
    expect(badges).toEqual([0, 2, 0])
  })

  it('destroy removes the icon and ignores later and pending updates', () => {
    vi.useFakeTimers()
    const tray = makeTray('linux', state(), 100)
    tray.update(state({ armed: 7 }))
    tray.destroy()
    vi.advanceTimersByTime(200)
    tray.update(state({ armed: 8 }))
    expect(fakeTray().destroyed).toBe(true)
    expect(fakeTray().calls.setContextMenu).toBe(1)
    expect(() => tray.destroy()).not.toThrow()
  })
})

describe('trayView', () => {
  it('says paused rather than armed while paused', () => {
    expect(trayView(state({ paused: true, armed: 5 })).status).toBe('Live · alerts paused')
    expect(trayView(state({ armed: 0 }, 'offline'))).toMatchObject({ live: false, status: 'Offline' })
  })
})

describe('committed tray icons', () => {
  function pngSize(png: Buffer): number {
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG')
    return png.readUInt32BE(16)
  }

  it('are exactly what scripts/make-tray-icons.mjs makes', () => {
    const built = trayIcons.buildTrayIcons()
    expect(built.length).toBeGreaterThan(0)
    for (const { path, data } of built) {
      expect(
        readFileSync(join(root, path)).equals(data),
        `${path} is stale: run node scripts/make-tray-icons.mjs`,
      ).toBe(true)
    }
  })

  it('every file the tray asks for exists at the size its platform expects (@2x beside the 1x)', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      for (const live of [true, false]) {
        const name = trayIconFile(platform, live)
        const size = pngSize(readFileSync(join(root, 'resources/tray', name)))
        expect(size, name).toBe(platform === 'linux' ? 32 : 16)
        if (platform !== 'linux') {
          const x2 = name.replace('.png', '@2x.png')
          expect(pngSize(readFileSync(join(root, 'resources/tray', x2))), x2).toBe(32)
        }
      }
    }
  })
})
