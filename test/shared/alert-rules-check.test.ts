// The alert threshold rule on its own: what the engine refuses at saveAlert and the form shows before saving.
import { describe, expect, it } from 'vitest'
import { checkAlertCondition, defaultLevel } from '../../src/shared/alert-rules-check'
import type { AlertCondition, AlertOp, PriceSubject } from '../../src/shared/alerts'
import type { PriceGrid } from '../../src/shared/model'

const VOXFI: PriceGrid = { min: 0, max: 1, tick: 0.01 }

function price(subject: PriceSubject, op: AlertOp, value: number): AlertCondition {
  return { kind: 'price', market: 'm1', subject, op, value }
}

describe('checkAlertCondition', () => {
  it('names prices in the unit the app shows: cents as VoxFi writes them, or probabilities', () => {
    expect(checkAlertCondition(price('last', 'above', 5), VOXFI, 'cents')?.message).toBe(
      "Price 500¢ is outside this market's prices (0¢ to 100¢): the alert could never fire as meant.",
    )
    expect(checkAlertCondition(price('bid', 'above', 0.255), VOXFI, 'cents')?.message).toBe(
      'Price 25.5¢ is not a price this market trades at (tick 1¢): use 25¢ or 26¢.',
    )
    expect(checkAlertCondition(price('spread', 'above', 0.025), VOXFI, 'cents')?.message).toBe(
      'Spread 2.5¢ is not a whole number of ticks (tick 1¢): use 2¢ or 3¢.',
    )
    expect(checkAlertCondition(price('bid', 'above', 0.255), VOXFI, 'probability')?.message).toBe(
      'Price 0.255 is not a price this market trades at (tick 0.01): use 0.25 or 0.26.',
    )
  })

  it('refuses a price outside the range for every op, naming the field', () => {
    for (const op of ['crosses-above', 'crosses-below', 'above', 'below'] as const) {
      expect(checkAlertCondition(price('last', op, 5), VOXFI, 'probability')).toEqual({
        field: 'condition.value',
        message: "Price 5 is outside this market's prices (0 to 1): the alert could never fire as meant.",
      })
    }
    const narrow: PriceGrid = { min: 0.1, max: 0.9, tick: 0.1 }
    expect(checkAlertCondition(price('bid', 'crosses-below', 0.05), narrow, 'probability')?.message).toMatch(
      /outside/,
    )
  })

  it('accepts the ends of the range and every tick, float noise included', () => {
    expect(checkAlertCondition(price('ask', 'crosses-above', 1), VOXFI, 'probability')).toBeNull()
    expect(checkAlertCondition(price('bid', 'crosses-below', 0), VOXFI, 'probability')).toBeNull()
    for (let t = 0; t <= 100; t++) {
      expect(checkAlertCondition(price('last', 'above', t * 0.01), VOXFI, 'probability')).toBeNull()
      expect(checkAlertCondition(price('last', 'above', t / 100), VOXFI, 'probability')).toBeNull()
    }
  })

  it('refuses a price off the tick and names the two nearest; a mid may sit halfway', () => {
    expect(checkAlertCondition(price('bid', 'above', 0.255), VOXFI, 'probability')).toEqual({
      field: 'condition.value',
      message: 'Price 0.255 is not a price this market trades at (tick 0.01): use 0.25 or 0.26.',
    })
    expect(checkAlertCondition(price('mid', 'above', 0.255), VOXFI, 'probability')).toBeNull()
    expect(checkAlertCondition(price('mid', 'above', 0.2525), VOXFI, 'probability')?.message).toBe(
      'Price 0.2525 is not a price this market trades at (tick 0.005): use 0.25 or 0.255.',
    )
  })

  it('spreads: not negative, not wider than the range, whole ticks', () => {
    expect(checkAlertCondition(price('spread', 'above', -0.01), VOXFI, 'probability')).toEqual({
      field: 'condition.value',
      message: 'Spread must not be negative.',
    })
    expect(checkAlertCondition(price('spread', 'above', 2), VOXFI, 'probability')?.message).toBe(
      "Spread 2 is wider than this market's prices allow (at most 1): the alert could never fire as meant.",
    )
    expect(checkAlertCondition(price('spread', 'above', 0.015), VOXFI, 'probability')?.message).toBe(
      'Spread 0.015 is not a whole number of ticks (tick 0.01): use 0.01 or 0.02.',
    )
    expect(checkAlertCondition(price('spread', 'below', 0.03), VOXFI, 'probability')).toBeNull()
  })

  it('sizes must be greater than 0', () => {
    const trade = (minSize: number): AlertCondition => ({
      kind: 'big-trade',
      scope: 'market',
      id: 'm1',
      minSize,
    })
    expect(checkAlertCondition(trade(-1), VOXFI, 'probability')).toEqual({
      field: 'condition.minSize',
      message: 'Min size must be greater than 0.',
    })
    expect(checkAlertCondition(trade(0), null, 'probability')?.field).toBe('condition.minSize')
    expect(checkAlertCondition(trade(10), null, 'probability')).toBeNull()
  })

  it('without a grid only the bounds every market has apply', () => {
    expect(checkAlertCondition(price('last', 'crosses-above', 5000), null, 'probability')).toBeNull()
    expect(checkAlertCondition(price('last', 'crosses-above', -1), null, 'probability')).toEqual({
      field: 'condition.value',
      message: 'Price must not be negative.',
    })
    expect(checkAlertCondition({ kind: 'disconnected', seconds: 30 }, VOXFI, 'probability')).toBeNull()
  })
})

describe('defaultLevel', () => {
  it('is the current value on the subject’s steps, with the direction toward it', () => {
    expect(defaultLevel('last', 0.25, VOXFI)).toEqual({ value: 0.25, op: 'crosses-above' })
    // Float noise must not pull the default a tick down (0.25 shown, 0.24 offered).
    expect(defaultLevel('bid', 0.2499999999, VOXFI)).toEqual({ value: 0.25, op: 'crosses-above' })
    expect(defaultLevel('ask', 0.2549, VOXFI)).toEqual({ value: 0.25, op: 'crosses-below' })
    expect(defaultLevel('last', 0.29, VOXFI).value).toBe(0.29)
    // A mid halfway between two ticks is a mid the market has: kept.
    expect(defaultLevel('mid', (0.24 + 0.25) / 2, VOXFI).value).toBe(0.245)
    expect(defaultLevel('spread', 0.0200000001, VOXFI).value).toBe(0.02)
    expect(defaultLevel('last', 1.2, VOXFI).value).toBe(1)
    expect(defaultLevel('last', 0.1234, null)).toEqual({ value: 0.1234, op: 'crosses-above' })
  })
})
