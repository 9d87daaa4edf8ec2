// The per-rule state machine on its own: levels with trust, crossings, hysteresis, cooldown and quiet
// (snooze/pause); conditions on the edge; what a rule row says.
import { wordsText } from '../../../src/shared/alert-text'
import { describe, expect, it } from 'vitest'
import type { AlertCondition, AlertRule } from '../../../src/shared/alerts'
import {
  bookProblem,
  clock,
  createRuntime,
  fmtNum,
  observeCondition,
  observeEvent,
  observeLevel,
  resetRuntime,
  ruleNote,
  ruleState,
  trustedBook,
  type RuleRuntime,
} from '../../../src/main/services/alerts/rules'

const T0 = 1_700_000_000_000
const at = (t: number) => () => t

function rule(condition: AlertCondition, patch: Partial<AlertRule> = {}): AlertRule {
  return {
    v: 1,
    id: 'r1',
    label: null,
    condition,
    mode: 'once',
    hysteresis: 0,
    cooldownSec: 60,
    sound: false,
    enabled: true,
    snoozedUntil: null,
    createdAt: T0,
    firedAt: null,
    ...patch,
  }
}

const price = (op: 'crosses-above' | 'crosses-below' | 'above' | 'below', value = 0.5): AlertCondition => ({
  kind: 'price',
  market: 'm1',
  subject: 'mid',
  op,
  value,
})

/** Feeds trusted values and returns the verdicts, marking firings the way the service does. */
function feed(rt: RuleRuntime, values: number[], now = T0, trusted = true): (string | null)[] {
  return values.map((v) => {
    const verdict = observeLevel(rt, v, trusted, () => now, false)
    if (verdict === 'fire') rt.rule = { ...rt.rule, firedAt: now }
    return verdict
  })
}

describe('level rules', () => {
  it('above fires on the first trusted value at or past the level, also the very first one', () => {
    const rt = createRuntime(rule(price('above')))
    expect(feed(rt, [0.5])).toEqual(['fire'])
    const rt2 = createRuntime(rule(price('above')))
    expect(feed(rt2, [0.4, 0.49, 0.51])).toEqual([null, null, 'fire'])
  })

  it('below mirrors above', () => {
    const rt = createRuntime(rule(price('below')))
    expect(feed(rt, [0.6, 0.5])).toEqual([null, 'fire'])
  })

  it('a crossing needs the value strictly on the other side first', () => {
    const rt = createRuntime(rule(price('crosses-above')))
    expect(rt.phase).toBe('new')
    // Already above, and exactly at the level: neither counts as "below first".
    expect(feed(rt, [0.55, 0.5, 0.6])).toEqual([null, null, null])
    expect(feed(rt, [0.49, 0.5])).toEqual([null, 'fire'])
  })

  it('crosses-below mirrors crosses-above', () => {
    const rt = createRuntime(rule(price('crosses-below')))
    expect(feed(rt, [0.4, 0.51, 0.5])).toEqual([null, null, 'fire'])
  })

  it('a once rule that fired never fires again', () => {
    const rt = createRuntime(rule(price('above')))
    expect(feed(rt, [0.6, 0.4, 0.6, 0.7])).toEqual(['fire', null, null, null])
  })

  it('untrusted values never fire or move the side; the first would-be firing is held once', () => {
    const rt = createRuntime(rule(price('crosses-above')))
    // A stale book showing "below" does not prime the crossing.
    expect(feed(rt, [0.4], T0, false)).toEqual([null])
    expect(feed(rt, [0.6])).toEqual([null])
    expect(feed(rt, [0.4])).toEqual([null])
    expect(rt.phase).toBe('armed')
    // Stale and past the level: held once per episode, not per update.
    expect(feed(rt, [0.6, 0.7, 0.4, 0.6], T0, false)).toEqual(['hold', null, null, null])
    expect(rt.held).toBe(true)
    // Live again, still past the level: the crossing (side before vs value after) fires now.
    expect(feed(rt, [0.6])).toEqual(['fire'])
    expect(rt.held).toBe(false)
    expect(rt.sawUntrusted).toBe(true)
  })

  it('a new untrusted episode may hold again after a trusted value ended the last one', () => {
    const rt = createRuntime(rule(price('above'), { mode: 'rearm' }))
    expect(feed(rt, [0.6], T0, false)).toEqual(['hold'])
    expect(feed(rt, [0.4])).toEqual([null])
    expect(feed(rt, [0.6], T0, false)).toEqual(['hold'])
  })

  it('does not hold a value that would not fire it (not armed, or not past the level)', () => {
    const rt = createRuntime(rule(price('crosses-above')))
    expect(feed(rt, [0.6], T0, false)).toEqual([null])
    const rt2 = createRuntime(rule(price('above')))
    expect(feed(rt2, [0.4], T0, false)).toEqual([null])
  })

  it('rearm: re-arms only once the value is back across the level by the hysteresis', () => {
    const rt = createRuntime(rule(price('above'), { mode: 'rearm', hysteresis: 0.02, cooldownSec: 0 }))
    expect(feed(rt, [0.51])).toEqual(['fire'])
    expect(rt.phase).toBe('disarmed')
    // 0.49 is back below the level but not by the hysteresis: no flapping around 0.50.
    expect(feed(rt, [0.49, 0.51, 0.485, 0.55])).toEqual([null, null, null, null])
    expect(feed(rt, [0.48])).toEqual([null])
    expect(rt.phase).toBe('armed')
    expect(feed(rt, [0.5])).toEqual(['fire'])
  })

  it('rearm with hysteresis 0 re-arms as soon as the value is strictly back across', () => {
    const rt = createRuntime(rule(price('below'), { mode: 'rearm', cooldownSec: 0 }))
    expect(feed(rt, [0.5, 0.5, 0.50001, 0.5])).toEqual(['fire', null, null, 'fire'])
  })

  it('a crossing inside the cooldown is swallowed, not fired later', () => {
    const rt = createRuntime(rule(price('crosses-above'), { mode: 'rearm', cooldownSec: 60 }))
    expect(feed(rt, [0.4, 0.6], T0)).toEqual([null, 'fire'])
    // Back below and up again 10 s later: inside the cooldown.
    expect(feed(rt, [0.4, 0.6], T0 + 10_000)).toEqual([null, null])
    // After the cooldown, still above: nothing, the rule must come back across first.
    expect(feed(rt, [0.61], T0 + 61_000)).toEqual([null])
    expect(feed(rt, [0.4, 0.6], T0 + 62_000)).toEqual([null, 'fire'])
  })

  it('re-arming during the cooldown counts: a crossing after the cooldown fires', () => {
    const rt = createRuntime(rule(price('above'), { mode: 'rearm', cooldownSec: 60 }))
    expect(feed(rt, [0.6], T0)).toEqual(['fire'])
    expect(feed(rt, [0.4], T0 + 10_000)).toEqual([null])
    expect(feed(rt, [0.6], T0 + 61_000)).toEqual(['fire'])
  })

  it('paused or snoozed: never fires nor holds, but tracks the side', () => {
    const cross = createRuntime(rule(price('crosses-above')))
    expect(observeLevel(cross, 0.4, true, at(T0), true)).toBeNull()
    expect(cross.phase).toBe('armed')
    expect(observeLevel(cross, 0.6, false, at(T0), true)).toBeNull()
    expect(observeLevel(cross, 0.6, true, at(T0), true)).toBeNull()
    // The crossing happened while quiet: it is gone, the value must go below again.
    expect(cross.phase).toBe('new')
    expect(observeLevel(cross, 0.6, true, at(T0), false)).toBeNull()
    // A level op keeps its arm: still above when the snooze ends, it fires.
    const level = createRuntime(rule(price('above')))
    expect(observeLevel(level, 0.6, true, at(T0), true)).toBeNull()
    expect(observeLevel(level, 0.6, true, at(T0), false)).toBe('fire')
  })

  it('resetRuntime starts the rule over', () => {
    const rt = createRuntime(rule(price('crosses-above')))
    feed(rt, [0.4])
    expect(rt.phase).toBe('armed')
    resetRuntime(rt)
    expect(rt.phase).toBe('new')
  })
})

describe('condition and event rules', () => {
  const disc: AlertCondition = { kind: 'disconnected', seconds: 5 }

  it('fires on the edge, once per episode per key, re-arming when told', () => {
    const rt = createRuntime(rule(disc, { mode: 'rearm', cooldownSec: 0 }))
    expect(observeCondition(rt, '', true, false, T0, false)).toBe(true)
    expect(observeCondition(rt, '', true, false, T0, false)).toBe(false)
    expect(observeCondition(rt, '', false, true, T0, false)).toBe(false)
    expect(observeCondition(rt, '', true, false, T0, false)).toBe(true)
    // Keys are independent (currencies, markets).
    expect(observeCondition(rt, 'b', true, false, T0, false)).toBe(true)
  })

  it('an episode starting in the cooldown is swallowed; a paused one keeps its arm', () => {
    const rt = createRuntime(rule(disc, { mode: 'rearm', cooldownSec: 60, firedAt: T0 }))
    expect(observeCondition(rt, '', true, false, T0 + 1000, false)).toBe(false)
    expect(observeCondition(rt, '', true, false, T0 + 61_000, false)).toBe(false)
    const quiet = createRuntime(rule(disc, { mode: 'rearm' }))
    expect(observeCondition(quiet, '', true, false, T0, true)).toBe(false)
    expect(observeCondition(quiet, '', true, false, T0, false)).toBe(true)
  })

  it('a spent once rule does not fire; events respect quiet and cooldown', () => {
    const spent = createRuntime(rule(disc, { firedAt: T0 }))
    expect(observeCondition(spent, '', true, false, T0, false)).toBe(false)
    const big: AlertCondition = { kind: 'big-trade', scope: 'market', id: 'm1', minSize: 10 }
    const ev = createRuntime(rule(big, { mode: 'rearm', cooldownSec: 5, firedAt: T0 }))
    expect(observeEvent(ev, T0 + 4000, false)).toBe(false)
    expect(observeEvent(ev, T0 + 5000, false)).toBe(true)
    expect(observeEvent(ev, T0 + 5000, true)).toBe(false)
  })
})

describe('rule rows', () => {
  it('state precedence: disabled, fired, snoozed, armed', () => {
    const snoozed = { snoozedUntil: T0 + 60_000 }
    expect(ruleState(createRuntime(rule(price('above'), { enabled: false, firedAt: T0 })), T0)).toBe(
      'disabled',
    )
    expect(ruleState(createRuntime(rule(price('above'), { firedAt: T0, ...snoozed })), T0)).toBe('fired')
    expect(ruleState(createRuntime(rule(price('above'), snoozed)), T0)).toBe('snoozed')
    expect(ruleState(createRuntime(rule(price('above'), snoozed)), T0 + 60_000)).toBe('armed')
    const cooling = createRuntime(rule(price('above'), { mode: 'rearm', firedAt: T0, cooldownSec: 30 }))
    expect(ruleState(cooling, T0 + 29_000)).toBe('fired')
    expect(ruleState(cooling, T0 + 30_000)).toBe('armed')
    const disarmed = createRuntime(rule(price('above'), { mode: 'rearm', cooldownSec: 0 }))
    feed(disarmed, [0.6])
    expect(ruleState(disarmed, T0)).toBe('fired')
  })

  it('notes say why a rule is not firing', () => {
    const cross = createRuntime(rule(price('crosses-above', 0.45)))
    expect(ruleNote(cross, T0, false, 'probability')).toBe('waits for mid below 0.45 first')
    const down = createRuntime(rule(price('crosses-below', 0.45)))
    expect(ruleNote(down, T0, false, 'probability')).toBe('waits for mid above 0.45 first')
    const rearm = createRuntime(
      rule(price('above', 0.45), { mode: 'rearm', hysteresis: 0.01, cooldownSec: 0 }),
    )
    feed(rearm, [0.46])
    expect(ruleNote(rearm, T0, false, 'probability')).toBe('re-arms when mid ≤ 0.44')
    const rearm0 = createRuntime(rule(price('below', 0.45), { mode: 'rearm', cooldownSec: 0 }))
    feed(rearm0, [0.4])
    expect(ruleNote(rearm0, T0, false, 'probability')).toBe('re-arms when mid > 0.45')
    const cooling = createRuntime(rule(price('above'), { mode: 'rearm', firedAt: T0, cooldownSec: 30 }))
    expect(ruleNote(cooling, T0, false, 'probability')).toBe(`cooling down until ${clock(T0 + 30_000)}`)
    const held = createRuntime(rule(price('above')))
    observeLevel(held, 0.6, false, at(T0), false)
    held.heldReason = ['the book is stale (gap)']
    expect(ruleNote(held, T0, false, 'probability')).toBe('held: the book is stale (gap)')
    expect(ruleNote(createRuntime(rule(price('above'))), T0, true, 'probability')).toBe(
      'all alerts are paused',
    )
    expect(ruleNote(createRuntime(rule(price('above'))), T0, false, 'probability')).toBeNull()
  })

  it('formats numbers without float noise and names book problems', () => {
    expect(fmtNum(0.1 + 0.2)).toBe('0.3')
    expect(fmtNum(0.45 - 0.01)).toBe('0.44')
    const said = (...a: Parameters<typeof bookProblem>) => wordsText(bookProblem(...a), 'probability')
    expect(said('stale', 'gap', 0.4, 0.5)).toBe('the book is stale (gap)')
    expect(said('resyncing', null, null, null)).toBe('the book is resyncing')
    expect(said('live', null, 0.5, 0.5)).toBe('the book is crossed (bid 0.50 ≥ ask 0.50)')
    expect(wordsText(bookProblem('live', null, 0.5, 0.5), 'cents')).toBe(
      'the book is crossed (bid 50¢ ≥ ask 50¢)',
    )
    expect(trustedBook('live', 0.4, 0.5)).toBe(true)
    expect(trustedBook('quiet', 0.4, null)).toBe(true)
    expect(trustedBook('live', 0.5, 0.5)).toBe(false)
    expect(trustedBook('stale', 0.4, 0.5)).toBe(false)
    expect(trustedBook('resyncing', 0.4, 0.5)).toBe(false)
    expect(trustedBook('empty', null, null)).toBe(false)
  })
})
