import { describe, expect, it } from 'vitest'
import { AlertRelay, type AlertRelayDeps } from '../../../src/main/services/alerts/relay'
import type { AlertEvent, AlertRule, AlertsSummary, KeepRunning } from '../../../src/shared/alerts'
import type { ConnectionState } from '../../../src/shared/model'
import type { ShellState } from '../../../src/main/services/base/types'
import { Emitter } from '../../../src/main/services/base/events'
import type { SavedAlerts } from '../../../src/main/services/alerts/service'

function event(id: number): AlertEvent {
  return {
    id,
    ruleId: 'a-1',
    kind: 'fired',
    at: id,
    title: `t${id}`,
    detail: '',
    value: null,
    market: 'm1',
    sound: false,
    acknowledged: false,
  }
}

function setup() {
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = []
  const views: number[] = []
  const firedToWindows: number[] = []
  const saved: Array<{ rules: AlertRule[]; keepRunning: KeepRunning }> = []
  let summary: AlertsSummary = { armed: 1, unread: 0, paused: false, keepRunning: 'auto' }
  let connection: ConnectionState = 'live'
  const warnings: string[] = []
  // The alert service's side of the wire: the relay hears it only through these events.
  const changes = new Emitter<void>()
  const firings = new Emitter<AlertEvent>()
  const saves = new Emitter<SavedAlerts>()
  const historyChanges = new Emitter<AlertEvent[]>()
  const savedHistory: number[][] = []
  const deps: AlertRelayDeps = {
    log: { info: () => {}, warn: (m) => void warnings.push(m), error: () => {} },
    now: () => 1_000,
    alerts: {
      onDidChange: changes.event,
      onDidFire: firings.event,
      onDidChangeRules: saves.event,
      onDidChangeHistory: historyChanges.event,
      summary: () => summary,
    },
    connection: () => connection,
    save: async (state) => void saved.push(state),
    saveHistory: async (entries) => void savedHistory.push(entries.map((e) => e.id)),
    setTimeout: (fn, ms) => {
      const t = { fn, ms, cleared: false }
      timers.push(t)
      return t
    },
    clearTimeout: (h) => {
      ;(h as { cleared: boolean }).cleared = true
    },
  }
  const relay = new AlertRelay(deps)
  relay.onDidChangeView(() => void views.push(views.length + 1))
  relay.onDidFire((e) => void firedToWindows.push(e.id))
  const runTimers = () => {
    for (const t of timers.splice(0)) if (!t.cleared) t.fn()
  }
  return {
    relay,
    fire: (e: AlertEvent) => firings.fire(e),
    change: () => changes.fire(),
    persist: (state: SavedAlerts) => saves.fire(state),
    historyChanged: (entries: AlertEvent[]) => historyChanges.fire(entries),
    savedHistory,
    views,
    firedToWindows,
    saved,
    warnings,
    runTimers,
    timers,
    setSummary: (s: Partial<AlertsSummary>) => (summary = { ...summary, ...s }),
    setConnection: (c: ConnectionState) => (connection = c),
  }
}

describe('AlertRelay', () => {
  it('sends a firing to windows and the shell at once, and survives a failing shell listener', () => {
    const s = setup()
    const heard: number[] = []
    s.relay.watch({
      alertFired: () => {
        throw new Error('tray gone')
      },
    })
    s.relay.watch({ alertFired: (e) => void heard.push(e.id) })
    s.fire(event(1))
    expect(s.firedToWindows).toEqual([1])
    expect(heard).toEqual([1])
    expect(s.warnings).toHaveLength(1)
  })

  it('coalesces a burst of view changes into one push', () => {
    const s = setup()
    for (let i = 0; i < 50; i++) s.change()
    expect(s.views).toEqual([])
    expect(s.timers).toHaveLength(1)
    s.runTimers()
    expect(s.views).toEqual([1])
  })

  it('tells the shell only when what it shows changed', () => {
    const s = setup()
    const states: ShellState[] = []
    s.relay.watch({ stateChanged: (st) => void states.push(st) })
    s.relay.shellMaybeChanged()
    s.relay.shellMaybeChanged()
    expect(states).toHaveLength(1)
    s.setConnection('reconnecting')
    s.relay.shellMaybeChanged()
    s.setSummary({ unread: 2 })
    s.change()
    s.change()
    // The shell hears with the windows' throttled view, not per change.
    expect(states).toHaveLength(2)
    s.runTimers()
    expect(states.map((x) => [x.connection, x.alerts.unread])).toEqual([
      ['live', 0],
      ['reconnecting', 0],
      ['reconnecting', 2],
    ])
  })

  it('saves the newest rules once per burst, and what is left on close', async () => {
    const s = setup()
    const rules = (n: number) => Array.from({ length: n }, () => ({}) as AlertRule)
    s.persist({ rules: rules(1), keepRunning: 'auto' })
    s.persist({ rules: rules(2), keepRunning: 'auto' })
    s.runTimers()
    await Promise.resolve()
    expect(s.saved.map((x) => x.rules.length)).toEqual([2])
    s.persist({ rules: rules(3), keepRunning: 'never' })
    await s.relay.close()
    expect(s.saved.map((x) => [x.rules.length, x.keepRunning])).toEqual([
      [2, 'auto'],
      [3, 'never'],
    ])
    // Closed: nothing more goes out.
    s.fire(event(2))
    expect(s.firedToWindows).toEqual([])
    s.change()
    s.runTimers()
    expect(s.views).toEqual([])
  })

  it('saves the newest history once per burst, beside the rules, and what is left on close', async () => {
    const s = setup()
    s.historyChanged([event(1)])
    s.persist({ rules: [], keepRunning: 'auto' })
    s.historyChanged([event(2), event(1)])
    expect(s.timers).toHaveLength(1)
    s.runTimers()
    await new Promise((r) => setTimeout(r, 0))
    expect(s.savedHistory).toEqual([[2, 1]])
    expect(s.saved).toHaveLength(1)
    s.historyChanged([event(3), event(2), event(1)])
    await s.relay.close()
    expect(s.savedHistory).toEqual([
      [2, 1],
      [3, 2, 1],
    ])
    expect(s.saved).toHaveLength(1)
  })
})
