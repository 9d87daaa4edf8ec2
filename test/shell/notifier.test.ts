// OS notifications for fired alerts, with Electron's Notification replaced: what is shown, where a click leads,
// bursts summarised, references held until the notification is done, and no throw where unsupported.
import type { EventEmitter as EventEmitterType } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const h = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EventEmitter: Emitter } = require('node:events') as { EventEmitter: typeof EventEmitterType }
  class FakeNotification extends Emitter {
    static all: FakeNotification[] = []
    static supported = true
    static throwOnShow = false
    static isSupported(): boolean {
      return FakeNotification.supported
    }
    shown = false
    constructor(readonly options: { title: string; body: string; silent: boolean }) {
      super()
      FakeNotification.all.push(this)
    }
    show(): void {
      if (FakeNotification.throwOnShow) throw new Error('no notification server')
      this.shown = true
    }
  }
  return { FakeNotification }
})

vi.mock('electron', () => ({ Notification: h.FakeNotification }))

import { AlertNotifier } from '../../src/main/notifier'
import type { AlertEvent } from '../../src/shared/alerts'

let clock = 0
let opened: string[]
let warnings: string[]
let notifier: AlertNotifier
let nextId = 1

function alert(
  market: string | null,
  title = `alert ${nextId}`,
  overrides: Partial<AlertEvent> = {},
): AlertEvent {
  return {
    id: nextId++,
    ruleId: `r${nextId}`,
    kind: 'fired',
    at: clock,
    title,
    detail: `${title} detail`,
    value: 0.45,
    market,
    sound: false,
    acknowledged: false,
    ...overrides,
  }
}

const shown = () => h.FakeNotification.all.filter((n) => n.shown)
function nth(index: number): InstanceType<typeof h.FakeNotification> {
  const n = shown()[index]
  if (!n) throw new Error(`no notification ${index}`)
  return n
}

beforeEach(() => {
  vi.useFakeTimers()
  h.FakeNotification.all = []
  h.FakeNotification.supported = true
  h.FakeNotification.throwOnShow = false
  clock = 1_000_000
  opened = []
  warnings = []
  notifier = new AlertNotifier({
    actions: {
      openMarket: (market) => opened.push(`market:${market}`),
      openMain: () => opened.push('main'),
    },
    logger: { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    now: () => clock,
  })
})

afterEach(() => {
  vi.useRealTimers()
})

describe('alert notifications', () => {
  it('show the alert title and detail, silently (the rule sound is played by the shell, once)', () => {
    notifier.alertFired(alert('mkt-1', 'mkt-1 mid crossed above 0.45', { sound: true }))
    expect(shown()).toHaveLength(1)
    expect(nth(0).options).toEqual({
      title: 'mkt-1 mid crossed above 0.45',
      body: 'mkt-1 mid crossed above 0.45 detail',
      silent: true,
    })
  })

  it('a click opens (or focuses) the window of that market', () => {
    notifier.alertFired(alert('mkt-1'))
    nth(0).emit('click', {})
    expect(opened).toEqual(['market:mkt-1'])
  })

  it('a click on an alert without a market brings the main window', () => {
    notifier.alertFired(alert(null, 'disconnected for 30 s'))
    nth(0).emit('click', {})
    expect(opened).toEqual(['main'])
  })

  it('ignore held entries: they are history notes, not firings', () => {
    notifier.alertFired(alert('mkt-1', 'held', { kind: 'held' }))
    expect(shown()).toHaveLength(0)
  })

  it('are referenced until clicked, closed or failed (Electron would garbage-collect the click handler)', () => {
    notifier.alertFired(alert('a'))
    notifier.alertFired(alert('b'))
    notifier.alertFired(alert('c'))
    expect(notifier.retained).toBe(3)
    nth(0).emit('click', {})
    nth(1).emit('close', {})
    nth(2).emit('failed', {}, 'toast blocked')
    expect(notifier.retained).toBe(0)
    expect(warnings).toEqual(['notification not shown'])
  })

  it('hold a bounded number of references when the OS never says close', () => {
    const small = new AlertNotifier({
      actions: { openMarket: () => undefined, openMain: () => undefined },
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      now: () => clock,
      retainMax: 3,
    })
    for (let i = 0; i < 10; i++) {
      clock += 5_000
      small.alertFired(alert(`m${i}`))
    }
    expect(small.retained).toBe(3)
  })

  it('a long title or body is clipped', () => {
    notifier.alertFired(alert('m', 'x'.repeat(500), { detail: 'y'.repeat(1000) }))
    expect(nth(0).options.title.length).toBeLessThanOrEqual(120)
    expect(nth(0).options.body.length).toBeLessThanOrEqual(300)
    expect(nth(0).options.title.endsWith('…')).toBe(true)
  })
})

describe('bursts', () => {
  it('more than 5 alerts within 2 s: the first 5 at once, the rest as one summary at the end of the window', () => {
    for (let i = 0; i < 12; i++) notifier.alertFired(alert(`m${i}`, `t${i}`))
    expect(shown().map((n) => n.options.title)).toEqual(['t0', 't1', 't2', 't3', 't4'])
    vi.advanceTimersByTime(2_000)
    expect(shown()).toHaveLength(6)
    expect(nth(5).options.title).toBe('7 more alerts fired')
    expect(nth(5).options.body).toBe('t5\nt6\nt7\n…and 4 more')
    expect(nth(5).options.silent).toBe(true)
    // Mixed markets: the summary leads to the main window, where the history is.
    nth(5).emit('click', {})
    expect(opened).toEqual(['main'])
  })

  it('a summary of one market opens that market', () => {
    for (let i = 0; i < 8; i++) notifier.alertFired(alert('mkt-9'))
    vi.advanceTimersByTime(2_000)
    expect(nth(5).options.title).toBe('3 more alerts fired')
    nth(5).emit('click', {})
    expect(opened).toEqual(['market:mkt-9'])
  })

  it('a single overflow is shown as itself, not as "1 more"', () => {
    for (let i = 0; i < 6; i++) notifier.alertFired(alert('m', `t${i}`))
    vi.advanceTimersByTime(2_000)
    expect(shown().map((n) => n.options.title)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5'])
  })

  it('alerts spread out in time are all shown individually', () => {
    for (let i = 0; i < 10; i++) {
      notifier.alertFired(alert('m', `t${i}`))
      clock += 500
    }
    expect(shown()).toHaveLength(10)
  })

  it('a sustained storm costs at most one summary per window after the first five', () => {
    for (let i = 0; i < 100; i++) {
      notifier.alertFired(alert('m'))
      clock += 60
      vi.advanceTimersByTime(60)
    }
    vi.advanceTimersByTime(2_000)
    // 6 s of alerts every 60 ms: 5 at once, then one summary per 2 s window, and every alert accounted for.
    const summaries = shown().slice(5)
    expect(summaries).toHaveLength(3)
    const counts = summaries.map((n) => Number(/^(\d+) more alerts fired$/.exec(n.options.title)?.[1]))
    expect(5 + counts.reduce((a, b) => a + b, 0)).toBe(100)
  })

  it('dispose drops a pending summary', () => {
    for (let i = 0; i < 8; i++) notifier.alertFired(alert('m'))
    notifier.dispose()
    vi.advanceTimersByTime(5_000)
    expect(shown()).toHaveLength(5)
    notifier.alertFired(alert('m'))
    expect(shown()).toHaveLength(5)
  })
})

describe('where notifications cannot be shown', () => {
  it('unsupported: nothing is shown, nothing throws, one log line', () => {
    h.FakeNotification.supported = false
    expect(() => {
      notifier.alertFired(alert('m'))
      notifier.alertFired(alert('m'))
      notifier.notice('t', 'b')
    }).not.toThrow()
    expect(h.FakeNotification.all).toHaveLength(0)
    expect(warnings).toHaveLength(1)
  })

  it('show() throwing is logged once and not retained', () => {
    h.FakeNotification.throwOnShow = true
    expect(() => {
      notifier.alertFired(alert('m'))
      notifier.alertFired(alert('m'))
    }).not.toThrow()
    expect(warnings).toEqual(['notification failed'])
  })

  it('a click handler that throws does not escape into Electron', () => {
    const broken = new AlertNotifier({
      actions: {
        openMarket: () => {
          throw new Error('window factory failed')
        },
        openMain: () => undefined,
      },
      logger: { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined },
    })
    broken.alertFired(alert('m'))
    expect(() => nth(0).emit('click', {})).not.toThrow()
    expect(warnings).toEqual(['notification click failed'])
  })
})

describe('shell notices', () => {
  it('are shown silently and a click brings the main window', () => {
    notifier.notice('Trading Monitor is still running', 'quit from the tray')
    expect(nth(0).options).toMatchObject({ title: 'Trading Monitor is still running', silent: true })
    nth(0).emit('click', {})
    expect(opened).toEqual(['main'])
  })
})
