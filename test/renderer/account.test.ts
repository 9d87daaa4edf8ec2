import { describe, expect, it } from 'vitest'
import type { UserUpdateView } from '../../src/shared/model'
import { applyUserUpdates, deriveAccount, emptyAccount, FILLS_CAP } from '../../src/shared/account'

let seq = 0
const u = (topic: UserUpdateView['topic'], data: unknown, market: string | null = null): UserUpdateView => ({
  seq: ++seq,
  topic,
  market,
  data,
  receivedAt: 1_700_000_000_000 + seq,
})

describe('account derivation from user updates', () => {
  it('tracks open orders through their life and drops closed ones', () => {
    const a = deriveAccount([
      u('order', { id: 'o1', market: 'm1', side: 'buy', price: '0.42', size: '100', status: 'open' }),
      u('order', { order_id: 'o2', market_id: 'm2', side: 'ASK', price: 0.6, quantity: 5, status: 'NEW' }),
      u('order', { id: 'o1', filled: 40, status: 'partially_filled' }),
    ])
    expect(Object.keys(a.orders)).toEqual(['o1', 'o2'])
    expect(a.orders.o1).toMatchObject({
      market: 'm1',
      side: 'buy',
      price: 0.42,
      size: 100,
      filled: 40,
      status: 'partially_filled',
    })
    expect(a.orders.o2).toMatchObject({ market: 'm2', side: 'sell', size: 5, status: 'new' })
    const b = applyUserUpdates(a, [
      u('order', { id: 'o1', status: 'filled' }),
      u('order', { id: 'o2', status: 'canceled' }),
    ])
    expect(b.orders).toEqual({})
  })

  it('reads records nested under the topic name, arrays of them, and the update’s market', () => {
    const a = deriveAccount([
      u('order', { order: { id: 'x', price: 0.5, size: 1 } }, 'm9'),
      u(
        'fill',
        {
          fills: [
            { trade_id: 'f1', price: 0.5, size: 2, side: 'sell', timestamp: 1_700_000_000 },
            { trade_id: 'f2', px: 0.51, qty: 1 },
          ],
        },
        'm9',
      ),
    ])
    expect(a.orders.x?.market).toBe('m9')
    expect(a.fills.map((f) => f.key)).toEqual(['f2', 'f1'])
    expect(a.fills[1]).toMatchObject({
      market: 'm9',
      side: 'sell',
      price: 0.5,
      size: 2,
      ts: 1_700_000_000_000,
    })
  })

  it('ignores a repeated fill and caps the fills list', () => {
    const repeated = deriveAccount([
      u('fill', { id: 'f', price: 0.5, size: 1 }),
      u('fill', { id: 'f', price: 0.5, size: 1 }),
    ])
    expect(repeated.fills).toHaveLength(1)
    const many = deriveAccount(
      Array.from({ length: FILLS_CAP + 10 }, (_, i) => u('fill', { id: `f${i}`, price: 0.5, size: 1 })),
    )
    expect(many.fills).toHaveLength(FILLS_CAP)
    expect(many.fills[0]?.key).toBe(`f${FILLS_CAP + 9}`)
  })

  it('keeps positions by market, signs a short, and removes a flat one', () => {
    const a = deriveAccount([
      u('position', { market: 'm1', size: 110, avg_price: 0.4 }),
      u('position', { ticker: 'm2', quantity: '20', side: 'sell', unrealized_pnl: '-1.5' }),
    ])
    expect(a.positions.m1).toMatchObject({ size: 110, avgPrice: 0.4 })
    expect(a.positions.m2).toMatchObject({ size: -20, pnl: -1.5 })
    expect(applyUserUpdates(a, [u('position', { market: 'm1', size: 0 })]).positions.m1).toBeUndefined()
  })

  it('reads balances with or without a currency', () => {
    const a = deriveAccount([
      u('balance', { currency: 'USDC', balance: '9838.76', available: 9000 }),
      u('balance', { wallet: { free: 5 } }),
    ])
    expect(a.balances.USDC).toMatchObject({ total: 9838.76, available: 9000 })
    expect(a.balances.USD).toMatchObject({ total: null, available: 5 })
  })

  it('counts what it cannot interpret instead of failing', () => {
    const a = deriveAccount([
      u('other', { anything: 1 }),
      u('order', 'not an object'),
      u('order', { status: 'open' }),
      u('balance', null),
      u('position', { size: 3 }),
    ])
    expect(a.undecoded).toBe(5)
    expect(a.orders).toEqual({})
  })

  it('leaves the state untouched for no updates', () => {
    const a = emptyAccount()
    expect(applyUserUpdates(a, [])).toBe(a)
  })
})
