import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'

const opened = vi.hoisted(() => [] as string[])
vi.mock('electron', () => ({
  shell: {
    openExternal: async (url: string) => {
      opened.push(url)
    },
  },
}))

import { denyAllPermissions, hardenWebContents, installHardening } from '../../src/main/security'
import type { Logger } from '../../src/main/services/base/types'

type PermissionHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void) => void
type CheckHandler = (contents: unknown, permission: string) => boolean

class FakeSession {
  request: PermissionHandler | null = null
  check: CheckHandler | null = null
  setPermissionRequestHandler(handler: PermissionHandler): void {
    this.request = handler
  }
  setPermissionCheckHandler(handler: CheckHandler): void {
    this.check = handler
  }
}

class FakeContents extends EventEmitter {
  session = new FakeSession()
  openHandler: ((details: { url: string }) => { action: string }) | null = null
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler
  }
}

function navEvent(url: string): { url: string; prevented: boolean; preventDefault(): void } {
  return {
    url,
    prevented: false,
    preventDefault() {
      this.prevented = true
    },
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined }

function harden(devOrigin: string | null = null): FakeContents {
  const contents = new FakeContents()
  hardenWebContents(contents as never, { devOrigin, logger: quiet })
  return contents
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0))
}

describe('window.open', () => {
  it('is always denied; vetted https links open in the browser via links.ts', async () => {
    opened.length = 0
    const contents = harden()
    expect(contents.openHandler?.({ url: 'https://github.com/x' })).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: 'app://bundle/index.html?view=main' })).toEqual({ action: 'deny' })
    await settle()
    expect(opened).toEqual(['https://github.com/x'])
  })
})

describe('navigation', () => {
  it('stays on our pages', async () => {
    opened.length = 0
    const contents = harden()
    for (const url of [
      'https://evil.example/',
      'file:///etc/passwd',
      'http://localhost:5173/',
      'https://github.com/x',
    ]) {
      const event = navEvent(url)
      contents.emit('will-navigate', event)
      expect(event.prevented, url).toBe(true)
    }
    const own = navEvent('app://bundle/index.html?view=main')
    contents.emit('will-navigate', own)
    expect(own.prevented).toBe(false)
    await settle()
    expect(opened).toEqual(['https://github.com/x'])
  })

  it('blocks redirects to other origins', () => {
    const contents = harden()
    const away = navEvent('https://evil.example/')
    contents.emit('will-redirect', away)
    expect(away.prevented).toBe(true)
    const own = navEvent('app://bundle/index.html')
    contents.emit('will-redirect', own)
    expect(own.prevented).toBe(false)
  })

  it('allows the dev server only when one is in use', () => {
    const dev = harden('http://localhost:5173')
    const event = navEvent('http://localhost:5173/?view=main')
    dev.emit('will-navigate', event)
    expect(event.prevented).toBe(false)
    const prod = harden(null)
    const again = navEvent('http://localhost:5173/?view=main')
    prod.emit('will-navigate', again)
    expect(again.prevented).toBe(true)
  })
})

describe('webview', () => {
  it('is never attached', () => {
    const contents = harden()
    const event = navEvent('')
    contents.emit('will-attach-webview', event, {}, {})
    expect(event.prevented).toBe(true)
  })
})

describe('permissions', () => {
  it('are all denied, requests and checks', () => {
    const contents = harden()
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'clipboard-read',
      'hid',
    ]) {
      let granted: boolean | null = null
      contents.session.request?.(contents, permission, (g) => {
        granted = g
      })
      expect(granted, permission).toBe(false)
      expect(contents.session.check?.(contents, permission)).toBe(false)
    }
  })

  it('installs the handlers once per session', () => {
    const session = new FakeSession()
    denyAllPermissions(session as never, quiet)
    const first = session.request
    denyAllPermissions(session as never, quiet)
    expect(session.request).toBe(first)
  })
})

describe('installHardening', () => {
  it('hardens every web contents the app creates', () => {
    const app = new EventEmitter()
    installHardening(app as never, { devOrigin: null, logger: quiet })
    const contents = new FakeContents()
    app.emit('web-contents-created', {}, contents)
    expect(contents.openHandler).not.toBeNull()
    expect(contents.listenerCount('will-navigate')).toBe(1)
    expect(contents.listenerCount('will-attach-webview')).toBe(1)
    expect(contents.session.request).not.toBeNull()
  })
})
