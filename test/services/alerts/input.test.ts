// ruleFromInput and loadRules on their own: refusals name the field at fault, an edit keeps every field it leaves out and is armed afresh, a move to an unknown market is refused, and stored rules past the cap are set aside.
import { describe, expect, it } from 'vitest'
import { MAX_ALERT_RULES, type AlertCondition, type AlertRuleInput } from '../../../src/shared/alerts'
import { loadRules, ruleFromInput, type InputDeps } from '../../../src/main/services/alerts/input'
import { createRuntime, type RuleRuntime } from '../../../src/main/services/alerts/rules'
import { captureLogger } from '../helpers'
import { RULE_T0, makeRule } from './helpers'

const mid = (market: string, value = 0.5): AlertCondition => ({
  kind: 'price',
  market,
  subject: 'mid',
  op: 'above',
  value,
})

function deps(unknown: string[] = [], now = RULE_T0): InputDeps {
  return {
    now: () => now,
    isKnownMarket: (m) => !unknown.includes(m),
    priceGrid: () => null,
    priceUnit: () => 'probability',
  }
}

function save(input: unknown, rules = new Map<string, RuleRuntime>(), d = deps()) {
  return ruleFromInput(input as AlertRuleInput, rules, d)
}

/** The field and message of a refusal (null when the input was accepted). */
function refusal(input: unknown, rules?: Map<string, RuleRuntime>, d?: InputDeps) {
  const r = save(input, rules, d)
  return r.ok ? null : { field: r.error.field ?? null, message: r.error.message }
}

describe('ruleFromInput', () => {
  it('a new rule: an id stamped with the time, createdAt whole ms, a blank label stored as none', () => {
    const r = save({ condition: mid('m1'), label: '   ' }, new Map(), deps([], RULE_T0 + 0.7))
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value.id).toMatch(new RegExp(`^a-${RULE_T0.toString(36)}[0-9a-f]{8}$`))
    expect(r.value.createdAt).toBe(RULE_T0)
    expect(r.value.label).toBeNull()
  })

  it('refuses bad input with "Invalid alert: <field>: <why>" and the field as data', () => {
    expect(refusal({ condition: { ...mid('m1'), op: 'sideways' } })).toEqual({
      field: 'condition.op',
      message: 'Invalid alert: condition.op: op must be one of crosses-above, crosses-below, above, below',
    })
    expect(refusal({ condition: { kind: 'teleport' } })?.field).toBe('condition.kind')
    expect(refusal({ condition: mid(' ') })?.message).toBe('Invalid alert: condition.market: market is empty')
    expect(refusal({ condition: mid('m1'), label: 'x'.repeat(201) })?.field).toBe('label')
    expect(refusal({ condition: mid('m1'), mode: 'sometimes' })?.field).toBe('mode')
    expect(refusal({ condition: mid('m1'), sound: 'yes' })?.field).toBe('sound')
    // Input that is not a rule at all is refused, not thrown on.
    expect(refusal(null)?.field).toBe('rule')
  })

  it('refuses a market the venue does not have, naming the field that holds it', () => {
    const unknown = deps(['ghost'])
    expect(refusal({ condition: mid('ghost') }, undefined, unknown)).toEqual({
      field: 'condition.market',
      message: 'Invalid alert: condition.market: unknown market "ghost"',
    })
    expect(
      refusal({ condition: { kind: 'book-stale', market: 'ghost', seconds: 5 } }, undefined, unknown)?.field,
    ).toBe('condition.market')
    expect(
      refusal(
        { condition: { kind: 'big-trade', scope: 'market', id: 'ghost', minSize: 1 } },
        undefined,
        unknown,
      )?.field,
    ).toBe('condition.id')
    // Positions may be in markets the listing leaves out.
    expect(
      refusal({ condition: { kind: 'position', market: 'ghost', change: 'opened' } }, undefined, unknown),
    ).toBeNull()
  })

  it('an edit keeps every field it leaves out, the id and createdAt, and is armed afresh', () => {
    const before = makeRule(
      mid('m1'),
      { label: 'mine', mode: 'rearm', hysteresis: 0.02, cooldownSec: 300, sound: true, enabled: false },
      { id: 'a-1', snoozedUntil: RULE_T0 + 60_000, firedAt: RULE_T0 + 5 },
    )
    const rules = new Map([['a-1', createRuntime(before)]])
    const r = save({ id: 'a-1', condition: mid('m1', 0.6) }, rules, deps([], RULE_T0 + 10_000))
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value).toEqual({ ...before, condition: mid('m1', 0.6), firedAt: null })
    // The map it was given is left as it was.
    expect(rules.get('a-1')?.rule).toBe(before)
  })

  it('an edit may clear the label with null, or set fields it names', () => {
    const before = makeRule(mid('m1'), { label: 'mine', cooldownSec: 300 }, { id: 'a-1' })
    const rules = new Map([['a-1', createRuntime(before)]])
    const r = save({ id: 'a-1', condition: mid('m1'), label: null, cooldownSec: 0, enabled: false }, rules)
    expect(r.ok && r.value).toMatchObject({ label: null, cooldownSec: 0, enabled: false, mode: 'once' })
  })

  it('an edit that moves the rule to an unknown market is refused; an unknown id is refused', () => {
    const before = makeRule(mid('m1'), {}, { id: 'a-1' })
    const rules = new Map([['a-1', createRuntime(before)]])
    expect(refusal({ id: 'a-1', condition: mid('ghost') }, rules, deps(['ghost']))?.field).toBe(
      'condition.market',
    )
    expect(refusal({ id: 'a-2', condition: mid('m1') }, rules)).toEqual({
      field: 'id',
      message: 'Invalid alert: id: no rule "a-2"',
    })
  })
})

describe('loadRules', () => {
  it('sets aside an invalid rule, logging the field at fault but not the rule; a non-list holds none', () => {
    const log = captureLogger()
    for (const stored of [undefined, null, 'rules', { 0: makeRule(mid('m1')) }]) {
      expect(loadRules(stored, log.logger)).toEqual([])
    }
    const good = makeRule(mid('m1'), {}, { id: 'a-1' })
    const bad = { ...good, id: 'a-2', condition: { ...good.condition, value: -1 } }
    expect(loadRules([bad, good], log.logger)).toEqual([good])
    expect(log.lines).toHaveLength(1)
    expect(log.lines[0]).toContain('"field":"condition.value"')
    expect(log.lines[0]).not.toContain('a-2')
  })

  it('keeps the first MAX_ALERT_RULES rules and sets the rest aside with one warning', () => {
    const log = captureLogger()
    const base = makeRule(mid('m1'))
    const stored = Array.from({ length: MAX_ALERT_RULES + 5 }, (_, n) => ({ ...base, id: `a-${n}` }))
    const loaded = loadRules(stored, log.logger)
    expect(loaded).toHaveLength(MAX_ALERT_RULES)
    expect(loaded.at(-1)?.id).toBe(`a-${MAX_ALERT_RULES - 1}`)
    expect(log.lines).toHaveLength(1)
    expect(log.lines[0]).toMatch(/^warn .*more stored rules than allowed/)
  })
})
