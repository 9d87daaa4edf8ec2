// The paper broker refuses as the venue would (PO3: no cash; PO4: nothing to sell or merge), counting what resting
// paper orders already hold, and a refusal changes nothing: no order, no cash, no position.
import { describe, expect, it } from 'vitest'
import { PAPER_START_CASH, PaperBroker, type PaperPlace } from '../../../src/main/services/orders/paper'

function broker(): { paper: PaperBroker; changes: () => number } {
  let changes = 0
  const paper = new PaperBroker({
    now: () => 1_000,
    takerFeeCents: () => 0,
    changed: () => {
      changes++
    },
  })
  return { paper, changes: () => changes }
}

let n = 0
function order(over: Partial<PaperPlace>): PaperPlace {
  n++
  return {
    id: `p${n}`,
    intentId: `i${n}`,
    market: 'm1',
    side: 'buy',
    outcome: 'YES',
    kind: 'limit',
    priceTicks: 50,
    quantity: 10,
    clickedAt: 1_000,
    ...over,
  }
}

describe('paper refusals', () => {
  it('refuses a buy the paper cash cannot cover, counting what resting buys set aside (PO3)', () => {
    const { paper, changes } = broker()
    // R$0.50 × 19,000 = R$9,500 rests; R$500 is left.
    expect(paper.place(order({ quantity: 19_000 })).ok).toBe(true)
    const before = changes()
    const refused = paper.place(order({ quantity: 1_002 }))
    expect(refused).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'venue_refused', venueCode: 'PO3', field: 'quantity' }),
    })
    expect(changes()).toBe(before)
    expect(paper.views()).toHaveLength(1)
    expect(paper.balance().total).toBe(PAPER_START_CASH)
    expect(paper.place(order({ quantity: 1_000 })).ok).toBe(true)
  })

  it('refuses a sell of contracts not held, or already offered by a resting sell (PO4)', () => {
    const { paper } = broker()
    const none = paper.place(order({ side: 'sell', quantity: 1 }))
    expect(none.ok).toBe(false)
    if (!none.ok) {
      expect(none.error.venueCode).toBe('PO4')
      expect(none.error.field).toBe('quantity')
      expect(none.error.message).toContain('you hold 0')
    }
    // Buy 10 YES at 50, filled by a print at 50; sell 6 rests; a further sell of 5 exceeds the 4 still free.
    expect(paper.place(order({ quantity: 10 })).ok).toBe(true)
    expect(paper.onPrint('m1', 0.5, 10)).toBe(1)
    expect(paper.place(order({ side: 'sell', priceTicks: 60, quantity: 6 })).ok).toBe(true)
    const over = paper.place(order({ side: 'sell', priceTicks: 60, quantity: 5 }))
    expect(over.ok ? null : over.error.venueCode).toBe('PO4')
    expect(paper.place(order({ side: 'sell', priceTicks: 60, quantity: 4 })).ok).toBe(true)
  })

  it('refuses to merge more YES and NO pairs than are held free of resting sells (PO4), and changes nothing', () => {
    const { paper, changes } = broker()
    expect(paper.place(order({ quantity: 3 })).ok).toBe(true)
    expect(paper.place(order({ outcome: 'NO', quantity: 3 })).ok).toBe(true)
    // A YES print at 50 is also a NO print at 50: both fill.
    expect(paper.onPrint('m1', 0.5, 6)).toBe(2)
    // One YES is offered by a resting sell: two pairs are free.
    expect(paper.place(order({ side: 'sell', priceTicks: 90, quantity: 1 })).ok).toBe(true)
    const cash = paper.balance().total ?? Number.NaN
    const before = changes()
    const refused = paper.merge('m1', 3)
    expect(refused.ok ? null : refused.error).toEqual(
      expect.objectContaining({ code: 'venue_refused', venueCode: 'PO4', field: 'quantity' }),
    )
    expect(changes()).toBe(before)
    expect(paper.balance().total).toBe(cash)
    const merged = paper.merge('m1', 2)
    expect(merged.ok).toBe(true)
    expect(paper.balance().total).toBe(cash + 2)
  })
})
