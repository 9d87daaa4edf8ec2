import { describe, expect, it, vi } from 'vitest'

const menus = vi.hoisted(() => ({ built: null as unknown }))
vi.mock('electron', () => ({
  Menu: {
    buildFromTemplate: (template: unknown) => template,
    setApplicationMenu: (menu: unknown) => {
      menus.built = menu
    },
  },
}))

import { CONTENT_SECURITY_POLICY, contentSecurityPolicy, installCsp } from '../../src/main/csp'
import { installMenu, menuTemplate } from '../../src/main/menu'
import type { MenuItemConstructorOptions } from 'electron'

function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) map.set(name, values)
  }
  return map
}

describe('CSP', () => {
  it('only allows our own scripts in production and no network at all', () => {
    const d = directives(CONTENT_SECURITY_POLICY)
    expect(d.get('default-src')).toEqual(["'none'"])
    expect(d.get('script-src')).toEqual(["'self'"])
    expect(d.get('connect-src')).toEqual(["'none'"])
    expect(d.get('object-src')).toEqual(["'none'"])
    expect(d.get('base-uri')).toEqual(["'none'"])
    expect(d.get('frame-ancestors')).toEqual(["'none'"])
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*|http:|https:/)
    expect(contentSecurityPolicy(null)).toBe(CONTENT_SECURITY_POLICY)
  })

  it('relaxes only for the dev server in development', () => {
    const d = directives(contentSecurityPolicy('http://localhost:5173'))
    expect(d.get('script-src')).toEqual(["'self'", "'unsafe-inline'", 'http://localhost:5173'])
    expect(d.get('connect-src')).toEqual(['http://localhost:5173', 'ws://localhost:5173'])
    expect(d.get('object-src')).toEqual(["'none'"])
  })

  it('is added to every response of the session, keeping the other headers', () => {
    type Listener = (details: unknown, cb: (r: unknown) => void) => void
    const listeners: Listener[] = []
    const session = { webRequest: { onHeadersReceived: (l: Listener) => listeners.push(l) } }
    installCsp(session as never, null)
    let result: unknown
    expect(listeners).toHaveLength(1)
    listeners[0]?.({ responseHeaders: { 'X-Other': ['1'] } }, (r) => (result = r))
    expect(result).toEqual({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    })
  })
})

describe('menu', () => {
  function roles(template: MenuItemConstructorOptions[]): string[] {
    const out: string[] = []
    const walk = (items: MenuItemConstructorOptions[]): void => {
      for (const item of items) {
        if (item.role) out.push(item.role)
        if (item.label) out.push(item.label)
        if (Array.isArray(item.submenu)) walk(item.submenu)
      }
    }
    walk(template)
    return out
  }
  const actions = { newWindow: vi.fn(), sendMenuCommand: vi.fn(), reconnectNow: vi.fn() }

  it('uses the standard roles, with the app menu on macOS only', () => {
    const mac = roles(
      menuTemplate(actions, { platform: 'darwin', appName: 'Trading Monitor', devTools: false }),
    )
    expect(mac).toEqual(
      expect.arrayContaining(['appMenu', 'editMenu', 'windowMenu', 'reload', 'help', 'close']),
    )
    const win = roles(
      menuTemplate(actions, { platform: 'win32', appName: 'Trading Monitor', devTools: false }),
    )
    expect(win).not.toContain('appMenu')
    expect(win).toEqual(expect.arrayContaining(['File', 'editMenu', 'View', 'windowMenu', 'reload', 'quit']))
    expect(win).not.toContain('toggleDevTools')
    const dev = roles(
      menuTemplate(actions, { platform: 'linux', appName: 'Trading Monitor', devTools: true }),
    )
    expect(dev).toContain('toggleDevTools')
  })

  it('wires New Window, New Market Window… and Reconnect Now to their actions', () => {
    installMenu(actions, { platform: 'linux', appName: 'Trading Monitor', devTools: false })
    const template = menus.built as MenuItemConstructorOptions[]
    const find = (label: string): MenuItemConstructorOptions | undefined => {
      for (const top of template) {
        if (!Array.isArray(top.submenu)) continue
        const hit = top.submenu.find((item: MenuItemConstructorOptions) => item.label === label)
        if (hit) return hit
      }
      return undefined
    }
    const click = (label: string): void => {
      const handler = find(label)?.click as (() => void) | undefined
      if (!handler) throw new Error(`no ${label}`)
      handler()
    }
    click('New Window')
    click('Reconnect Now')
    expect(actions.newWindow).toHaveBeenCalledTimes(1)
    expect(actions.reconnectNow).toHaveBeenCalledTimes(1)
    expect(actions.sendMenuCommand).not.toHaveBeenCalled()
    expect(find('New Window')?.accelerator).toBe('CmdOrCtrl+N')

    click('New Market Window…')
    expect(actions.sendMenuCommand).toHaveBeenCalledTimes(1)
    expect(actions.sendMenuCommand).toHaveBeenCalledWith('new-market-window')
    expect(actions.newWindow).toHaveBeenCalledTimes(1)
    expect(find('New Market Window…')?.accelerator).toBe('CmdOrCtrl+Shift+N')
    // It sits in File on every platform, beside New Window.
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const file = menuTemplate(actions, { platform, appName: 'Trading Monitor', devTools: false }).find(
        (top) => top.label === 'File',
      )
      const labels = Array.isArray(file?.submenu) ? file.submenu.map((i) => i.label) : []
      expect(labels.slice(0, 2)).toEqual(['New Window', 'New Market Window…'])
    }
  })
})
