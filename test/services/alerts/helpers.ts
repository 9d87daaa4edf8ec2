// Stored rules for the alerts tests, made the way a save makes them (input.ts), so each test names only what it is about.
import type { AlertCondition, AlertRule, AlertRuleInput } from '../../../src/shared/alerts'
import { ruleFromInput } from '../../../src/main/services/alerts/input'

export const RULE_T0 = Date.UTC(2030, 0, 1, 12, 0, 0)

/** A valid new rule on `condition` with `input`'s settings, then `patch` over the stored fields (id, firedAt, …). */
export function makeRule(
  condition: AlertCondition,
  input: Omit<AlertRuleInput, 'condition' | 'id'> = {},
  patch: Partial<AlertRule> = {},
): AlertRule {
  const made = ruleFromInput({ ...input, condition }, new Map(), {
    now: () => RULE_T0,
    isKnownMarket: () => true,
    priceGrid: () => null,
    priceUnit: () => 'probability',
  })
  if (!made.ok) throw new Error(made.error.message)
  return { ...made.value, ...patch }
}
