// What counts as a rule: untrusted input, from a window (a save) or from the settings file (at start), turned
// into an AlertRule or refused. Kept in one place so both doors apply the same schema, the same cap and the same
// wording ("Invalid alert: <field>: <why>", naming the field), and free of the service's state: it reads the
// rules it is given and changes nothing.
import { randomBytes } from 'node:crypto'
import {
  DEFAULT_COOLDOWN_SEC,
  MAX_ALERT_RULES,
  alertRuleInputSchema,
  alertRuleSchema,
  conditionMarket,
  issueField,
  type AlertCondition,
  type AlertRule,
  type AlertRuleInput,
} from '../../../shared/alerts'
import { checkAlertCondition } from '../../../shared/alert-rules-check'
import { fail, ok } from '../../../shared/ipc'
import type { PriceGrid, Result } from '../../../shared/model'
import type { PriceUnit } from '../../../shared/price-format'
import type { RuleRuntime } from './rules'
import { invalid } from '../base/errors'
import type { Logger } from '../base/types'

export interface InputDeps {
  now(): number
  /** true: the venue lists or streams this market; false: it does not; null: cannot tell now (listing not loaded). */
  isKnownMarket(market: string): boolean | null
  /** The prices the listing says `market` has; null when it does not say (no listing, another venue). */
  priceGrid(market: string): PriceGrid | null
  /** The price unit the app shows (a setting): refusals name prices in it, as the window's form does. */
  priceUnit(): PriceUnit
}

/**
 * The stored rules that are valid, each checked on its own: a corrupt one, a repeated id, or any beyond the cap
 * is set aside (logged) and the others are kept.
 */
export function loadRules(stored: unknown, log: Logger): AlertRule[] {
  const rules: AlertRule[] = []
  const ids = new Set<string>()
  for (const raw of Array.isArray(stored) ? (stored as unknown[]) : []) {
    const parsed = alertRuleSchema.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      log.warn('alerts: a stored rule is invalid and was set aside', {
        field: issue ? issueField(issue.path) : 'rule',
      })
      continue
    }
    if (ids.has(parsed.data.id)) {
      log.warn('alerts: a stored rule repeats an id and was set aside', { id: parsed.data.id })
      continue
    }
    if (rules.length >= MAX_ALERT_RULES) {
      log.warn('alerts: more stored rules than allowed; the rest were set aside', {
        max: MAX_ALERT_RULES,
      })
      break
    }
    ids.add(parsed.data.id)
    rules.push(parsed.data as AlertRule)
  }
  return rules
}

/**
 * The rule a save makes: a new one (no id), or `rules`' rule of that id edited (fields left out keep their
 * values). The result is armed afresh (`firedAt` null).
 */
export function ruleFromInput(
  input: AlertRuleInput,
  rules: ReadonlyMap<string, RuleRuntime>,
  d: InputDeps,
): Result<AlertRule> {
  const parsed = alertRuleInputSchema.safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue ? issueField(issue.path) : 'rule'
    return fail(invalid(`Invalid alert: ${field}: ${issue?.message ?? 'not a valid rule'}`, field))
  }
  const v = parsed.data
  const existing = v.id !== undefined ? rules.get(v.id) : undefined
  if (v.id !== undefined && existing === undefined)
    return fail(invalid(`Invalid alert: id: no rule "${v.id}"`, 'id'))
  if (existing === undefined && rules.size >= MAX_ALERT_RULES) {
    return fail(invalid(`Invalid alert: rules: at most ${MAX_ALERT_RULES} rules`))
  }
  const condition = v.condition as AlertCondition
  const unknown = unknownMarket(condition, existing?.rule.condition, d)
  if (unknown !== null)
    return fail(invalid(`Invalid alert: ${unknown.field}: unknown market "${unknown.id}"`, unknown.field))
  const problem = checkAlertCondition(condition, gridOf(condition, d), d.priceUnit())
  if (problem !== null)
    return fail(invalid(`Invalid alert: ${problem.field}: ${problem.message}`, problem.field))
  const now = Math.floor(d.now())
  const base = existing?.rule
  const label = v.label !== undefined ? v.label : (base?.label ?? null)
  return ok({
    v: 1,
    id: existing?.rule.id ?? newId(now, rules),
    label: label === null || label === '' ? null : label,
    condition,
    mode: v.mode ?? base?.mode ?? 'once',
    hysteresis: v.hysteresis ?? base?.hysteresis ?? 0,
    cooldownSec: v.cooldownSec ?? base?.cooldownSec ?? DEFAULT_COOLDOWN_SEC,
    sound: v.sound ?? base?.sound ?? false,
    enabled: v.enabled ?? base?.enabled ?? true,
    snoozedUntil: base?.snoozedUntil ?? null,
    createdAt: base?.createdAt ?? now,
    firedAt: null,
  })
}

function newId(now: number, rules: ReadonlyMap<string, unknown>): string {
  for (;;) {
    const id = `a-${now.toString(36)}${randomBytes(4).toString('hex')}`
    if (!rules.has(id)) return id
  }
}

/**
 * Market data rules must name a market the venue has: a typo would wait forever. Order and position rules are
 * not checked (the account can hold markets the listing leaves out), nor are event ids (nothing here can tell
 * an unknown event from one not yet listed). An edit that keeps the market is not re-checked, so a rule whose
 * market left the listing can still be relabelled or disabled.
 */
function unknownMarket(
  c: AlertCondition,
  before: AlertCondition | undefined,
  d: InputDeps,
): { field: string; id: string } | null {
  let field: string
  let id: string | null
  if (c.kind === 'price' || c.kind === 'book-stale') {
    field = 'condition.market'
    id = c.market
  } else if (c.kind === 'big-trade' && c.scope === 'market') {
    field = 'condition.id'
    id = c.id
  } else return null
  if (id === null) return null
  if (before !== undefined && conditionMarket(before) === id) return null
  return d.isKnownMarket(id) === false ? { field, id } : null
}

/**
 * The prices a rule's market has, as far as the listing says. A market it does not describe (not listed yet,
 * or a venue whose listing gives no prices) gets no grid: only what holds everywhere is checked, so a valid rule
 * is never refused on a guess; the rule's row says so if the listing later shows it can never fire.
 */
export function gridOf(c: AlertCondition, d: Pick<InputDeps, 'priceGrid'>): PriceGrid | null {
  return c.kind === 'price' ? d.priceGrid(c.market) : null
}
