// The rule that gives VoxFi's id-less executions to orders (docs/trading.md "Whose execution is it"), alone. The
// service-level cases (an order that left the list, a lost order) are in service.test.ts.
import { describe, expect, it } from 'vitest'
import { attribute, type Claimant, type Execution } from '../../../src/main/services/orders/attribution'

const sentAt = 1_800_000_000_000
const order: Claimant = { market: 'm1', outcome: 'NO', side: 'buy', priceTicks: 33, quantity: 4, sentAt }
const exec = (key: string, quantity: number, afterMs: number, priceTicks = 33): Execution => ({
  key,
  market: 'm1',
  outcome: 'NO',
  side: 'buy',
  priceTicks,
  quantity,
  createdAt: sentAt + afterMs,
})

describe('whose execution is it', () => {
  it('covers the order exactly where oldest first falls short (bench:orders: an older 3 stood before its 4)', () => {
    const a = attribute(order, [exec('older', 3, -1_500), exec('mine', 4, 1_100)], new Set())
    expect(a).toEqual({ keys: ['mine'], filled: 4, avgTicks: 33 })
  })

  it('takes oldest first when that covers the order, and stops short when nothing covers it', () => {
    expect(
      attribute(order, [exec('a', 1, 100), exec('b', 3, 200), exec('c', 4, 300)], new Set()).keys,
    ).toEqual(['a', 'b'])
    expect(attribute(order, [exec('a', 3, 100), exec('b', 3, 200)], new Set())).toMatchObject({
      keys: ['a'],
      filled: 3,
    })
  })

  it('never gives an execution through the limit, from before the send, larger than the order, or taken', () => {
    const none = [
      exec('through', 4, 100, 34),
      exec('early', 4, -2_500),
      exec('large', 5, 100),
      exec('taken', 4, 100),
    ]
    expect(attribute(order, none, new Set(['taken'])).filled).toBe(0)
    expect(attribute(order, [exec('better', 4, 100, 30)], new Set()).filled).toBe(4)
  })

  it('is one story: what beats the limit from one moment, and at the limit from then on', () => {
    const buy: Claimant = { ...order, outcome: 'YES', priceTicks: 40, quantity: 8 }
    const yes = (key: string, quantity: number, afterMs: number, priceTicks: number): Execution => ({
      ...exec(key, quantity, afterMs, priceTicks),
      outcome: 'YES',
    })
    // Two arrivals' worth of better prices, seconds apart: not one order's.
    const two = attribute(buy, [yes('a', 5, 100, 38), yes('b', 3, 5_000, 39)], new Set())
    expect(two).toMatchObject({ keys: ['a'], filled: 5 })
    // An arrival, then a fill at its own price while it rested: one order's.
    const rested = attribute(buy, [yes('a', 5, 100, 38), yes('b', 3, 5_000, 40)], new Set())
    expect(rested).toMatchObject({ keys: ['a', 'b'], filled: 8 })
    // A market order never rests: all of it at once.
    const market: Claimant = { ...buy, priceTicks: null, quantity: 4 }
    const rows = [yes('a', 2, 100, 38), yes('b', 2, 5_000, 45), yes('c', 2, 600, 50)]
    expect(attribute(market, rows, new Set()).keys).toEqual(['a', 'c'])
  })
})
