import { beforeEach, describe, expect, it, vi } from 'vitest'

type Handler = (event: unknown, ...args: unknown[]) => Promise<unknown>
const handlers = vi.hoisted(() => new Map<string, Handler>())
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`)
      handlers.set(channel, handler)
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  },
}))

import { bindMonitorIpc } from '../../src/main/ipc'
import type { IpcHost } from '../../src/main/ipc'
import { isAppUrl } from '../../src/main/app-origin'
import { IPC_PREFIX, MONITOR_METHODS, ok } from '../../src/shared/ipc'
import type { Result, WindowTarget } from '../../src/shared/model'
import type { LogFields, MonitorClient } from '../../src/main/services/base/types'

interface Frame {
  url: string
  parent: Frame | null
}
interface Contents {
  id: number
  mainFrame: Frame
}

const APP_PAGE = 'app://bundle/index.html?view=main'

function makeContents(id: number, url = APP_PAGE): Contents {
  return { id, mainFrame: { url, parent: null } }
}

function eventFrom(contents: Contents, frame: Frame | null = contents.mainFrame): unknown {
  return { sender: contents, senderFrame: frame }
}

function makeClient(): { client: MonitorClient; calls: { method: string; args: unknown[] }[] } {
  const calls: { method: string; args: unknown[] }[] = []
  const client: Record<string, unknown> = { id: 'c1', dispose: () => undefined }
  for (const method of MONITOR_METHODS) {
    if (method === 'openWindow') continue
    client[method] = async (...args: unknown[]): Promise<Result<unknown>> => {
      calls.push({ method, args })
      return ok(`${method} done`)
    }
  }
  return { client: client as unknown as MonitorClient, calls }
}

let ours: Contents
let calls: { method: string; args: unknown[] }[]
let opened: WindowTarget[]
let warnings: { message: string; fields?: LogFields }[]
let unbind: () => void

function call(channelMethod: string, event: unknown, ...args: unknown[]): Promise<Result<unknown>> {
  const handler = handlers.get(IPC_PREFIX + channelMethod)
  if (!handler) throw new Error(`no handler for ${channelMethod}`)
  return handler(event, ...args) as Promise<Result<unknown>>
}

function expectRejected(result: Result<unknown>, text: RegExp): void {
  expect(result.ok).toBe(false)
  if (result.ok) return
  expect(result.error.code).toBe('invalid_argument')
  expect(result.error.message).toMatch(text)
}

beforeEach(() => {
  unbind?.()
  handlers.clear()
  ours = makeContents(1)
  const made = makeClient()
  calls = made.calls
  opened = []
  warnings = []
  const host: IpcHost = {
    clientFor: (contents) => ((contents as unknown as Contents) === ours ? made.client : undefined),
    openWindow: (target) => {
      opened.push(target)
      return ok(undefined)
    },
    isAppUrl: (url) => isAppUrl(url, null),
    logger: {
      info: () => undefined,
      warn: (message, fields) => warnings.push({ message, fields }),
      error: () => undefined,
    },
  }
  unbind = bindMonitorIpc(host)
})

describe('IPC binding', () => {
  it('binds exactly one channel per MonitorApi method and unbinds them', () => {
    expect([...handlers.keys()].sort()).toEqual(MONITOR_METHODS.map((m) => IPC_PREFIX + m).sort())
    unbind()
    expect(handlers.size).toBe(0)
    unbind = () => undefined
  })
})

describe('valid calls reach the engine', () => {
  it('passes validated arguments to the window client', async () => {
    expect(await call('setBookDepth', eventFrom(ours), 10)).toEqual(ok('setBookDepth done'))
    expect(await call('listEvents', eventFrom(ours))).toEqual(ok('listEvents done'))
    expect(await call('listEvents', eventFrom(ours), { refresh: true })).toEqual(ok('listEvents done'))
    const interests = [{ channel: 'market', id: 'M1', filter: 'all' }, { channel: 'user' }]
    expect((await call('setInterests', eventFrom(ours), interests)).ok).toBe(true)
    expect(await call('setVisibility', eventFrom(ours), false)).toEqual(ok('setVisibility done'))
    expect(calls).toEqual([
      { method: 'setBookDepth', args: [10] },
      { method: 'listEvents', args: [] },
      { method: 'listEvents', args: [{ refresh: true }] },
      { method: 'setInterests', args: [interests] },
      { method: 'setVisibility', args: [false] },
    ])
  })

  it('routes openWindow to the window manager', async () => {
    expect(await call('openWindow', eventFrom(ours), { kind: 'market', market: 'M7' })).toEqual(ok(undefined))
    expect(opened).toEqual([{ kind: 'market', market: 'M7' }])
    expect(calls).toEqual([])
  })
})

describe('spoofed senders are refused before the engine', () => {
  it('refuses web contents we did not create', async () => {
    const stranger = makeContents(2)
    expectRejected(await call('getStatus', eventFrom(stranger)), /not a Trading Monitor window/)
  })

  it('refuses a subframe of our window', async () => {
    const sub: Frame = { url: APP_PAGE, parent: ours.mainFrame }
    expectRejected(await call('getStatus', eventFrom(ours, sub)), /main frame only/)
  })

  it('refuses a frame that is gone', async () => {
    expectRejected(await call('getStatus', eventFrom(ours, null)), /frame is gone/)
  })

  it('refuses a main-frame impostor object', async () => {
    const lookalike: Frame = { url: APP_PAGE, parent: null }
    expectRejected(await call('getStatus', eventFrom(ours, lookalike)), /main frame only/)
  })

  for (const url of [
    'https://evil.example/',
    'file:///etc/passwd',
    'file:///work/main/out/renderer/index.html',
    'http://localhost:5173/',
    'app://evil/index.html',
    'about:blank',
  ]) {
    it(`refuses our window when it shows ${url}`, async () => {
      ours.mainFrame.url = url
      expectRejected(
        await call('setApiKey', eventFrom(ours), { key: 'k-secret' }),
        /not on a Trading Monitor page/,
      )
    })
  }

  it('logs the refusal without the arguments', async () => {
    ours.mainFrame.url = 'https://evil.example/'
    await call('setApiKey', eventFrom(ours), { key: 'k-very-secret' })
    expect(warnings).toHaveLength(1)
    expect(JSON.stringify(warnings)).not.toContain('k-very-secret')
  })

  it('never reaches the engine or the window manager', async () => {
    const stranger = makeContents(9)
    await call('setInterests', eventFrom(stranger), [{ channel: 'user' }])
    await call('openWindow', eventFrom(stranger), { kind: 'main' })
    expect(calls).toEqual([])
    expect(opened).toEqual([])
  })
})

describe('bad payloads are refused with clear errors', () => {
  const cases: [string, unknown[], RegExp][] = [
    ['setBookDepth', [], /setBookDepth: invalid arguments/],
    ['setBookDepth', ['10'], /setBookDepth: invalid arguments/],
    ['setBookDepth', [1e9], /setBookDepth: invalid arguments/],
    ['setInterests', [[{ channel: 'market', id: 'M1' }]], /setInterests: invalid arguments at 0\.0/],
    ['setInterests', [[{ channel: 'user', extra: 1 }]], /setInterests: invalid arguments/],
    ['setInterests', [{ channel: 'user' }], /setInterests: invalid arguments/],
    ['getMarketSnapshot', [''], /getMarketSnapshot: invalid arguments/],
    ['getMarketSnapshot', [{ toString: 'M1' }], /getMarketSnapshot: invalid arguments/],
    ['setApiKey', [{ key: '   ' }], /the key is empty/],
    ['setApiKey', [{ key: 'k', expiresAt: 'tomorrow' }], /YYYY-MM-DD/],
    ['setApiKey', ['k-plain-string'], /setApiKey: invalid arguments/],
    [
      'saveProfile',
      [{ name: 'x', baseUrl: 'https://a', wsUrl: 'wss://a', admin: true }],
      /saveProfile: invalid arguments/,
    ],
    ['openWindow', [{ kind: 'market' }], /openWindow: invalid arguments/],
    ['openWindow', [{ kind: 'devtools' }], /openWindow: invalid arguments/],
    ['getStatus', ['unexpected'], /getStatus: invalid arguments/],
    ['setInspector', ['yes'], /setInspector: invalid arguments/],
    ['setVisibility', ['hidden'], /setVisibility: invalid arguments/],
    ['setVisibility', [], /setVisibility: invalid arguments/],
    ['setVisibility', [1], /setVisibility: invalid arguments/],
    ['setVisibility', [true, 'extra'], /setVisibility: invalid arguments/],
  ]
  for (const [method, args, text] of cases) {
    it(`${method}(${JSON.stringify(args)})`, async () => {
      expectRejected(await call(method, eventFrom(ours), ...args), text)
      expect(calls).toEqual([])
      expect(opened).toEqual([])
    })
  }
})

describe('engine failures', () => {
  it('turn into an internal error result, not a rejected promise', async () => {
    unbind()
    handlers.clear()
    const host: IpcHost = {
      clientFor: () =>
        ({
          getStatus: async () => {
            throw new Error('boom')
          },
        }) as unknown as MonitorClient,
      openWindow: () => ok(undefined),
      isAppUrl: () => true,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    }
    unbind = bindMonitorIpc(host)
    const result = await call('getStatus', eventFrom(ours))
    expect(result).toEqual({
      ok: false,
      error: { code: 'internal', message: 'getStatus failed unexpectedly' },
    })
  })
})
