// How the order/position/balance rules read the account: what is news, what is baseline, and that nothing is
// news twice. The rows come from the engine's one account (account/model.ts), folded from user updates.
import { describe, expect, it } from 'vitest'
import type { UserTopic, UserUpdateView } from '../../../src/shared/model'
import { AccountWatch, orderIsCancelled, orderIsFilled } from '../../../src/main/services/alerts/account'
import { AccountModel } from '../../../src/main/services/account/model'
import type { AccountChange } from '../../../src/shared/account'

const T0 = 1_700_000_000_000
let seq = 0
const upd = (topic: UserTopic, data: unknown, market: string | null = null): UserUpdateView => ({
  seq: ++seq,
  topic,
  market,
  data,
  receivedAt: T0,
})
const order = (id: string, status: string | undefined, filled: number, size = 10) => ({
  order_id: id,
  market: 'm1',
  side: 'sell',
  price: '0.45',
  size,
  filled,
  ...(status !== undefined ? { status } : {}),
})

/** Each watch reads its own account model, as the engine's rules read the engine's. */
const models = new WeakMap<AccountWatch, AccountModel>()
function fold(w: AccountWatch, u: UserUpdateView): AccountChange[] {
  let m = models.get(w)
  if (m === undefined) {
    m = new AccountModel({ changed: () => undefined })
    models.set(w, m)
  }
  return m.apply([u])
}

/** A watch past its baseline. */
function live(cap?: number): AccountWatch {
  const w = new AccountWatch(cap)
  w.connected(T0 - 10_000)
  return w
}

const kinds = (w: AccountWatch, u: UserUpdateView) =>
  w
    .read(fold(w, u), T0)
    .news.map((n) => (n.kind === 'order' ? `${n.order.id} ${n.status}` : `${n.position.market} ${n.change}`))

describe('orders', () => {
  it('a partial fill, then the fill, then nothing more for repeats or late updates', () => {
    const w = live()
    expect(kinds(w, upd('order', order('o1', 'open', 0)))).toEqual([])
    expect(kinds(w, upd('order', order('o1', 'partially_filled', 3)))).toEqual(['o1 partially-filled'])
    expect(kinds(w, upd('order', order('o1', 'partially_filled', 3)))).toEqual([])
    expect(kinds(w, upd('order', order('o1', 'filled', 10)))).toEqual(['o1 filled'])
    // A late partial update and a replayed fill are not news.
    expect(kinds(w, upd('order', order('o1', 'partially_filled', 5)))).toEqual([])
    expect(kinds(w, upd('order', order('o1', 'filled', 10)))).toEqual([])
  })

  it('without a status, filled >= size is a fill; fields missing from an update come from the last one', () => {
    const w = live()
    kinds(w, upd('order', order('o2', undefined, 0)))
    expect(kinds(w, upd('order', { id: 'o2', filled: 4 }))).toEqual(['o2 partially-filled'])
    expect(kinds(w, upd('order', { id: 'o2', filled: 10 }))).toEqual(['o2 filled'])
  })

  it('cancelled covers cancelled, expired and rejected; a partial fill then cancel says both', () => {
    const w = live()
    expect(kinds(w, upd('order', order('a', 'CANCELED', 0)))).toEqual(['a cancelled'])
    expect(kinds(w, upd('order', order('b', 'expired', 0)))).toEqual(['b cancelled'])
    expect(kinds(w, upd('order', order('c', 'rejected', 0)))).toEqual(['c cancelled'])
    kinds(w, upd('order', order('d', 'open', 0)))
    expect(kinds(w, upd('order', order('d', 'cancelled', 4)))).toEqual(['d partially-filled', 'd cancelled'])
    expect(kinds(w, upd('order', order('d', 'cancelled', 4)))).toEqual([])
  })

  it('first sight outside the baseline is news; inside it (and before any connect) it is not', () => {
    const fresh = new AccountWatch()
    expect(kinds(fresh, upd('order', order('o1', 'filled', 10)))).toEqual([])
    fresh.connected(T0 - 1000)
    expect(kinds(fresh, upd('order', order('o2', 'partially_filled', 2)))).toEqual([])
    // A known order changing during the baseline is real news (it changed while we were away).
    expect(kinds(fresh, upd('order', order('o2', 'filled', 10)))).toEqual(['o2 filled'])
    const w = live()
    expect(kinds(w, upd('order', order('o3', 'filled', 10)))).toEqual(['o3 filled'])
    w.extendBaseline(T0)
    expect(kinds(w, upd('order', order('o4', 'filled', 10)))).toEqual([])
  })

  it('keeps at most `cap` orders, dropping the least recently updated', () => {
    const w = live(2)
    kinds(w, upd('order', order('a', 'open', 0)))
    kinds(w, upd('order', order('b', 'open', 0)))
    kinds(w, upd('order', order('a', 'open', 0)))
    kinds(w, upd('order', order('c', 'open', 0)))
    // b was dropped: its next update is a first sight (with nothing filled, no news); a is still known.
    expect(kinds(w, upd('order', order('a', 'partially_filled', 1)))).toEqual(['a partially-filled'])
    expect(kinds(w, upd('order', order('c', 'partially_filled', 1)))).toEqual(['c partially-filled'])
    expect(kinds(w, upd('order', order('b', 'open', 0)))).toEqual([])
  })

  it('status helpers', () => {
    const row = {
      id: 'x',
      market: null,
      side: null,
      price: null,
      size: 5,
      filled: 5,
      status: 'open',
      updatedAt: 0,
    }
    expect(orderIsFilled(row)).toBe(true)
    expect(orderIsFilled({ ...row, filled: 4, status: 'matched' })).toBe(true)
    expect(orderIsFilled({ ...row, filled: 4 })).toBe(false)
    expect(orderIsCancelled({ ...row, status: 'killed' })).toBe(true)
    expect(orderIsCancelled({ ...row, status: 'open' })).toBe(false)
  })
})

describe('positions and balances', () => {
  it('opened, closed, and a flip is both; the baseline is silent', () => {
    const w = new AccountWatch()
    expect(kinds(w, upd('position', { market: 'm1', size: 5 }))).toEqual([])
    w.connected(T0 - 10_000)
    expect(kinds(w, upd('position', { market: 'm1', size: 7 }))).toEqual([])
    expect(kinds(w, upd('position', { size: 0 }, 'm1'))).toEqual(['m1 closed'])
    expect(kinds(w, upd('position', { positions: [{ market: 'm2', size: 3 }] }))).toEqual(['m2 opened'])
    expect(kinds(w, upd('position', { market: 'm2', size: 3, side: 'sell' }))).toEqual([
      'm2 closed',
      'm2 opened',
    ])
  })

  it('balances are returned every time; the account, not the rules, remembers them', () => {
    const w = live()
    const model = new AccountModel({ changed: () => undefined })
    const changes = model.apply([
      upd('balance', {
        balances: [
          { currency: 'USDC', total: 5 },
          { asset: 'EUR', free: 2 },
        ],
      }),
    ])
    const r = w.read(changes, T0)
    expect(r.balances.map((b) => b.currency)).toEqual(['USDC', 'EUR'])
    expect(model.state().balances.EUR?.available).toBe(2)
    w.reset()
    expect(w.inBaseline(T0 + 1e9)).toBe(true)
  })

  it('fills are not news for these rules (orders carry the fill state)', () => {
    const w = live()
    const changes = fold(w, upd('fill', { id: 'f1', order_id: 'o1', size: 5, price: 0.4 }))
    expect(changes.map((c) => c.kind)).toEqual(['fill'])
    expect(w.read(changes, T0)).toEqual({ news: [], balances: [] })
  })
})
