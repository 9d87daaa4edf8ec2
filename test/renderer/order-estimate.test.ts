// What the ticket says an order would do, from the book on screen: the fee rule, the fill against the outcome's
// own book (YES: the book, NO: book.no), the average price and slippage from the touch, the cost in centavos, and
// the position it would leave. Pure functions, no DOM.
import { describe, expect, it } from 'vitest'
import { takerFeeCents } from '../../src/shared/voxfi-orders'
import {
  estimateOrder,
  heldContracts,
  mergeablePairs,
  outcomeBook,
  positionAfter,
  type OrderShape,
} from '../../src/renderer/features/trading/estimate'
import { book, positionRow } from './fake-api'

const order = (partial: Partial<OrderShape>): OrderShape => ({
  side: 'buy',
  outcome: 'YES',
  kind: 'limit',
  ticks: 50,
  quantity: 10,
  ...partial,
})

// YES bids 0.56 ×100, 0.55 ×50; asks 0.58 ×70, 0.60 ×30 (fake-api's book).
const yes = book()

describe('the taker fee', () => {
  it('is 7% of p × (1 − p) a contract, rounded up to the centavo', () => {
    // 10 at 50¢: 0.07 × 0.25 × 10 = R$0.175 → 18 centavos.
    expect(takerFeeCents(50, 10)).toBe(18)
    // 1 at 1¢: 0.07 × 0.01 × 0.99 = R$0.000693 → 1 centavo.
    expect(takerFeeCents(1, 1)).toBe(1)
    expect(takerFeeCents(58, 0)).toBe(0)
  })
})

describe('an order against the book on screen', () => {
  it('a limit buy below the ask rests: no fill, no fee, cost is price × quantity', () => {
    const e = estimateOrder(order({ ticks: 57 }), yes)
    expect(e).toMatchObject({ touch: 58, crosses: false, fillsNow: 0, avgTicks: null, feeCents: 0 })
    expect(e.valueCents).toBe(570)
    expect(e.totalCents).toBe(570)
  })

  it('a crossing limit buy takes the asks at or below its price, and the rest would rest', () => {
    const e = estimateOrder(order({ ticks: 60, quantity: 80 }), yes)
    // 70 at 58, then 10 at 60.
    expect(e.fillsNow).toBe(80)
    expect(e.avgTicks).toBeCloseTo((70 * 58 + 10 * 60) / 80, 10)
    expect(e.worstTicks).toBe(60)
    expect(e.slippageTicks).toBeCloseTo((70 * 58 + 10 * 60) / 80 - 58, 10)
    expect(e.feeCents).toBe(takerFeeCents(58, 70) + takerFeeCents(60, 10))
    // What it costs: what fills at the prices it meets, plus the fee (the engine's money limit reads the same).
    expect(e.totalCents).toBe(70 * 58 + 10 * 60 + e.feeCents)
    const partly = estimateOrder(order({ ticks: 58, quantity: 100 }), yes)
    expect(partly.fillsNow).toBe(70)
    // What rests is valued at its limit.
    expect(partly.valueCents).toBe(100 * 58)
  })

  it('a market sell walks the bids; what the book cannot take is a shortfall', () => {
    const e = estimateOrder(order({ side: 'sell', kind: 'market', ticks: null, quantity: 200 }), yes)
    expect(e.touch).toBe(56)
    expect(e.fillsNow).toBe(150)
    expect(e.shortfall).toBe(50)
    expect(e.valueCents).toBe(100 * 56 + 50 * 55)
    expect(e.slippageTicks).toBeCloseTo(56 - (100 * 56 + 50 * 55) / 150, 10)
    // A sell receives its value less the fee.
    expect(e.totalCents).toBe(e.valueCents! - e.feeCents)
  })

  it('a NO order walks the NO book, in NO prices', () => {
    const withNo = book({
      no: {
        bids: [[0.43, 40]],
        asks: [
          [0.45, 35],
          [0.48, 15],
        ],
        depth: { bids: 1, asks: 2 },
      },
    })
    const e = estimateOrder(order({ outcome: 'NO', ticks: 48, quantity: 40 }), outcomeBook(withNo, 'NO'))
    expect(e.touch).toBe(45)
    expect(e.fillsNow).toBe(40)
    expect(e.avgTicks).toBeCloseTo((35 * 45 + 5 * 48) / 40, 10)
    // No NO book (a venue without one): nothing on screen to fill against.
    expect(outcomeBook(book(), 'NO')).toBeNull()
    expect(estimateOrder(order({ outcome: 'NO', kind: 'market', ticks: null }), null)).toMatchObject({
      touch: null,
      crosses: false,
      valueCents: null,
      shortfall: 10,
    })
  })
})

describe('the position it would leave', () => {
  const row = positionRow

  it('counts each outcome’s own row, or the side of a YES-terms size', () => {
    const voxfi = [
      row({ outcome: 'yes', contracts: 30, size: 30 }),
      row({ outcome: 'no', contracts: 12, size: -12 }),
    ]
    expect(heldContracts(voxfi, 'm1', 'YES')).toBe(30)
    expect(heldContracts(voxfi, 'm1', 'NO')).toBe(12)
    expect(heldContracts(voxfi, 'm2', 'YES')).toBe(0)
    expect(mergeablePairs(voxfi, 'm1')).toBe(12)
    const signed = [row({ size: -7 })]
    expect(heldContracts(signed, 'm1', 'NO')).toBe(7)
    expect(heldContracts(signed, 'm1', 'YES')).toBe(0)
    expect(mergeablePairs(signed, 'm1')).toBe(0)
  })

  it('after the order fills whole; a sell of more than is held goes below zero', () => {
    expect(positionAfter(30, 'buy', 10)).toBe(40)
    expect(positionAfter(5, 'sell', 10)).toBe(-5)
  })
})
