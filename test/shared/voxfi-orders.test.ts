// VoxFi's order vocabulary and the simulator's taker fee, shared with the app (src/shared/voxfi-orders.ts).
import { describe, expect, it } from 'vitest'
import {
  isOrderType,
  isOutcome,
  ORDER_TYPES,
  orderSide,
  OUTCOMES,
  PO_CODES,
  takerFeeCents,
} from '../../src/shared/voxfi-orders'

describe('takerFeeCents', () => {
  it('is 7% of p(1 − p) reais a contract, rounded up to the centavo once for the whole quantity', () => {
    // 40 ticks: 0.07 × 0.4 × 0.6 = R$ 0,0168 a contract.
    expect(takerFeeCents(40, 100)).toBe(168)
    expect(takerFeeCents(40, 10)).toBe(17)
    expect(takerFeeCents(40, 1)).toBe(2)
    expect(takerFeeCents(50, 4)).toBe(7)
    expect(takerFeeCents(1, 1)).toBe(1)
    expect(takerFeeCents(99, 1000)).toBe(70)
    expect(takerFeeCents(0, 100)).toBe(0)
    expect(takerFeeCents(100, 100)).toBe(0)
    expect(takerFeeCents(50, 0)).toBe(0)
    expect(takerFeeCents(50, 1_000_000)).toBe(1_750_000)
  })

  it('refuses what is no price in ticks or no quantity, with a clear error', () => {
    for (const p of [-1, 101, 40.5, Number.NaN]) expect(() => takerFeeCents(p, 1)).toThrow(/priceTicks/)
    for (const q of [-1, 1.5, Number.POSITIVE_INFINITY])
      expect(() => takerFeeCents(40, q)).toThrow(/quantity/)
  })
})

describe('the order vocabulary', () => {
  it('names the five documented order types with a side, the two outcomes and the nine codes', () => {
    expect(ORDER_TYPES).toEqual([
      'LIMIT_BUY',
      'LIMIT_SELL',
      'MARKET_BUY_QTY',
      'MARKET_BUY_VALUE',
      'MARKET_SELL',
    ])
    expect(OUTCOMES).toEqual(['YES', 'NO'])
    expect(Object.keys(PO_CODES)).toEqual(['PO1', 'PO2', 'PO3', 'PO4', 'PO5', 'PO6', 'PO7', 'PO8', '-1'])
    expect(PO_CODES.PO8).toBe('market closed')
    expect(ORDER_TYPES.map(orderSide)).toEqual(['BUY', 'SELL', 'BUY', 'BUY', 'SELL'])
  })

  it('recognises only those: "LIMIT", which names no side, is not an order type', () => {
    for (const t of ORDER_TYPES) expect(isOrderType(t)).toBe(true)
    for (const t of ['LIMIT', 'limit_buy', '', null, 1]) expect(isOrderType(t)).toBe(false)
    expect(isOutcome('NO')).toBe(true)
    for (const o of ['no', 'Yes', undefined]) expect(isOutcome(o)).toBe(false)
  })
})
