// Orders through the engine against the simulator's VoxFi dialect over real loopback sockets (docs/trading.md):
// place, rest, fill and cancel; every PO code as the ticket shows it; a key without create_orders; 429 with its
// wait; a connection dropped mid-POST, with and without the venue executing it (never a second POST, the order
// reconciled); cancel-all while an order is in flight; and the dev page's answer shape.
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator, type SimConfig, type Simulator, type VoxfiListing } from '../../../src/sim/index'
import type { OrderLogEntry } from '../../../src/sim/faults'
import type { MonitorClient } from '../../../src/main/services/base/types'
import type { AccountView, OrderRequest, OrderView } from '../../../src/shared/trading'
import type { ApiError, Result } from '../../../src/shared/model'
import { startHarness, type Harness, type Recorder } from '../harness'
import { waitFor } from '../helpers'

const harnesses: Array<{ h: Harness; sim: Simulator }> = []
afterEach(async () => {
  for (const { h, sim } of harnesses.splice(0)) {
    await h.close()
    await sim.close()
  }
})

interface Venue {
  sim: Simulator<VoxfiListing>
  h: Harness
  client: MonitorClient
  rec: Recorder
  market: string
  profileId: string
  /** A buy price under the book's best bid: it rests (a few ticks below, never the fat-finger's way). */
  rest: number
}

async function venue(config: SimConfig = {}, key?: string): Promise<Venue> {
  const sim = await createSimulator({ dialect: 'voxfi', seed: 11, tickMs: 50, config })
  const h = await startHarness({ sim: sim as unknown as Simulator })
  harnesses.push({ h, sim: sim as unknown as Simulator })
  const { client, rec } = h.attach('trader')
  const keyed = await client.setApiKey({ key: key ?? sim.demoKey })
  if (!keyed.ok) throw new Error(keyed.error.message)
  const live = await client.setTrading({ mode: 'live', confirmLive: true })
  if (!live.ok) throw new Error(live.error.message)
  const listing = sim.listing()
  const market = listing[0]?.markets[0]?.id as string
  await client.setInterests([{ channel: 'market', id: market, filter: 'all' }, { channel: 'user' }])
  await waitFor(() => rec.bookState(market, 'live'), 'a live book', 15_000)
  const bid = rec.latestBook(market)?.bids[0]?.[0] ?? 0.2
  return { sim, h, client, rec, market, profileId: h.profileId, rest: Math.max(1, Math.round(bid * 100) - 4) }
}

let intentNo = 0
function order(v: Venue, partial: Partial<OrderRequest> = {}): OrderRequest {
  return {
    intentId: `sim-intent-${String(++intentNo).padStart(5, '0')}`,
    profileId: v.profileId,
    mode: 'live',
    market: v.market,
    side: 'buy',
    outcome: 'YES',
    kind: 'limit',
    priceTicks: v.rest,
    quantity: 3,
    clickedAt: Date.now(),
    ...partial,
  }
}

function refusal<T>(r: Result<T>): ApiError {
  if (r.ok) throw new Error('expected a refusal')
  return r.error
}

function placed(r: Result<OrderView>): OrderView {
  if (!r.ok) throw new Error(`refused: ${r.error.code} ${r.error.message}`)
  return r.value
}

async function account(v: Venue): Promise<AccountView> {
  const r = await v.client.getAccount()
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

async function orderOf(v: Venue, id: string): Promise<OrderView | undefined> {
  return (await account(v)).orders.find((o) => o.id === id)
}

const posts = (log: OrderLogEntry[]): OrderLogEntry[] =>
  log.filter((e) => e.method === 'POST' && e.path === '/v1/trade/order')

describe('orders on the simulator', () => {
  it('a resting order shows open with the venue’s id, then cancels; one POST, one DELETE', async () => {
    const v = await venue()
    const o = placed(await v.client.placeOrder(order(v)))
    expect(o.state).toBe('open')
    expect(o.venueId).not.toBeNull()
    expect(o.rttMs).toBeGreaterThanOrEqual(0)
    const cancelled = await v.client.cancelOrder(o.id)
    expect(cancelled.ok && cancelled.value.state).toBe('cancelled')
    const log = v.sim.faults.orderLog()
    expect(posts(log)).toHaveLength(1)
    expect(log.filter((e) => e.method === 'DELETE')).toHaveLength(1)
    // The journal has the round trip of both.
    const journal = await v.client.getJournal()
    expect(journal.ok && journal.value.map((e) => `${e.action} ${e.outcome}`)).toEqual([
      'place sent',
      'place accepted',
      'cancel sent',
      'cancel accepted',
    ])
  }, 30_000)

  it('a marketable order fills on arrival, and its executions reach the account as fills', async () => {
    const v = await venue()
    const o = placed(
      await v.client.placeOrder(order(v, { kind: 'market', priceTicks: undefined, quantity: 2 })),
    )
    expect(['filled', 'cancelled']).toContain(o.state)
    expect(o.filled).toBeGreaterThan(0)
    await waitFor(
      async () => (await account(v)).fills.some((f) => f.market === v.market && f.mode === undefined),
      'the fill',
      10_000,
    )
  }, 30_000)

  it('each of VoxFi’s order codes reaches the ticket as its own code, with the field to fix', async () => {
    const v = await venue()
    const cases: Array<[number, string, string, string | undefined]> = [
      [400, 'PO1', 'venue_refused', 'price'],
      [400, 'PO2', 'venue_refused', 'quantity'],
      [400, 'PO3', 'venue_refused', 'quantity'],
      [400, 'PO4', 'venue_refused', 'quantity'],
      [400, 'PO5', 'venue_refused', 'kind'],
      [406, 'PO8', 'market_closed', undefined],
    ]
    for (const [status, code, app, field] of cases) {
      v.sim.faults.orderFault(
        { kind: 'error', status, body: { error: code.toLowerCase(), error_code: code } },
        1,
      )
      const e = refusal(
        await v.client.placeOrder(order(v, { quantity: 4 + cases.findIndex((c) => c[1] === code) })),
      )
      expect(e.venueCode, code).toBe(code)
      expect(e.code, code).toBe(app)
      expect(e.field, code).toBe(field)
      expect(e.message.length, code).toBeGreaterThan(20)
    }
    // PO6 on a cancel of an order the venue no longer has.
    const o = placed(await v.client.placeOrder(order(v, { quantity: 20 })))
    v.sim.faults.orderFault(
      { kind: 'error', status: 404, body: { error: 'order not found', error_code: 'PO6' } },
      1,
    )
    expect(refusal(await v.client.cancelOrder(o.id)).venueCode).toBe('PO6')
    // And the real refusals: selling contracts the account does not hold, and a closed market.
    const sell = refusal(
      await v.client.placeOrder(
        order(v, { side: 'sell', outcome: 'NO', priceTicks: 50, confirmed: ['far_through'] }),
      ),
    )
    expect(sell.venueCode).toBe('PO4')
    expect(v.sim.faults.closeMarket(v.market)).toBe(true)
    const closed = refusal(await v.client.placeOrder(order(v, { quantity: 21 })))
    expect(closed.code).toBe('market_closed')
  }, 40_000)

  it('a key without create_orders: a lasting state in words, never "IP not allowed"; reads carry on', async () => {
    const readOnly = 'sk_read_only_0123456789abcdef0123'
    const v = await venue(
      { keys: [{ value: readOnly, permissions: ['read_orders', 'read_positions', 'read_wallet'] }] },
      readOnly,
    )
    const e = refusal(await v.client.placeOrder(order(v)))
    expect(e.code).toBe('permission')
    expect(e.message).toMatch(/cannot create orders/)
    expect(e.message).not.toMatch(/IP/)
    const view = await account(v)
    expect(view.trading.blocked?.code).toBe('permission')
    // The next one is refused without reaching the venue.
    const before = posts(v.sim.faults.orderLog()).length
    expect(refusal(await v.client.placeOrder(order(v, { quantity: 14 }))).code).toBe('permission')
    expect(posts(v.sim.faults.orderLog())).toHaveLength(before)
    await waitFor(async () => (await account(v)).reads.balance?.ok === true, 'the wallet still read', 10_000)
  }, 30_000)

  it('429 on trading says how long to wait, and what was refused was not executed', async () => {
    const v = await venue({ tradeRateLimit: { requests: 1, windowMs: 60_000 } })
    placed(await v.client.placeOrder(order(v)))
    const e = refusal(await v.client.placeOrder(order(v, { quantity: 14 })))
    expect(e.code).toBe('rate_limited')
    expect(e.retryAfterMs).toBeGreaterThan(0)
    expect(posts(v.sim.faults.orderLog()).filter((x) => x.executed)).toHaveLength(1)
  }, 30_000)

  it('orders in a row keep the account reads inside the venue’s data rate limit', async () => {
    // 30 reads a minute: the set-up takes about eight, and a read round after every answer (three reads) would
    // spend the rest within ten orders; the 429 would then hold back every REST read for the rest of the minute.
    // The orders come a tenth of a second apart, as a trader clicking fast: each answer's round would be done.
    const v = await venue({ rateLimit: { requests: 30, windowMs: 60_000 } })
    let last = 0
    for (let i = 0; i < 20; i++) {
      placed(await v.client.placeOrder(order(v, { quantity: 30 + i })))
      last = Date.now()
      await new Promise((r) => setTimeout(r, 100))
    }
    await waitFor(
      async () => {
        const read = (await account(v)).reads.orders
        return read?.ok === true && read.at > last
      },
      'the open orders read after the burst',
      15_000,
    )
    expect(v.h.log.lines.filter((l) => l.includes('rate_limited'))).toEqual([])
  }, 30_000)

  it('a connection dropped after the venue executed the order: unknown, then found open; one POST', async () => {
    const v = await venue()
    v.sim.faults.orderFault({ kind: 'drop', execute: true }, 1)
    const e = refusal(await v.client.placeOrder(order(v, { quantity: 15 })))
    expect(e.code).toBe('network')
    const id = e.orderId as string
    expect((await orderOf(v, id))?.state).toBe('unknown')
    await waitFor(async () => (await orderOf(v, id))?.state === 'open', 'reconciled open', 15_000)
    expect((await orderOf(v, id))?.venueId).not.toBeNull()
    expect(posts(v.sim.faults.orderLog())).toHaveLength(1)
  }, 30_000)

  it('a connection dropped before the venue executed it: unknown, then not placed; one POST', async () => {
    const v = await venue()
    v.sim.faults.orderFault({ kind: 'drop', execute: false }, 1)
    const id = refusal(await v.client.placeOrder(order(v, { quantity: 16 }))).orderId as string
    await waitFor(async () => (await orderOf(v, id))?.state === 'rejected', 'settled as not placed', 20_000)
    expect((await orderOf(v, id))?.reason).toMatch(/not placed/)
    expect(posts(v.sim.faults.orderLog())).toHaveLength(1)
  }, 30_000)

  it('a dropped order never executed is not given the executions another order’s answer named', async () => {
    const v = await venue()
    const ask = Math.round((v.rec.latestBook(v.market)?.asks[0]?.[0] ?? 0.5) * 100)
    // A buy at the ask executes one contract on arrival, and its answer names the execution.
    const first = placed(await v.client.placeOrder(order(v, { priceTicks: ask, quantity: 1 })))
    expect(first.filled).toBe(1)
    // A second buy through that price is dropped before the venue sees it: the activity holds only the first's row,
    // which it could take (its market, outcome, side, a price at or under its limit, made since it was sent).
    v.sim.faults.orderFault({ kind: 'drop', execute: false }, 1)
    const id = refusal(await v.client.placeOrder(order(v, { priceTicks: ask + 1, quantity: 1 })))
      .orderId as string
    await waitFor(
      async () => (await orderOf(v, id))?.state !== 'unknown',
      'the dropped order settled',
      20_000,
    )
    expect((await orderOf(v, id))?.state).toBe('rejected')
    expect(posts(v.sim.faults.orderLog()).filter((e) => e.executed)).toHaveLength(1)
  }, 30_000)

  it('a NO buy that rests and then fills at the venue shows filled, with its contracts', async () => {
    const v = await venue()
    const no = v.rec.latestBook(v.market)?.no
    const bid = Math.round((no?.bids[0]?.[0] ?? 0) * 100)
    const ask = Math.round((no?.asks[0]?.[0] ?? 1) * 100)
    // At the top of the NO bids (inside the spread where there is room): the market's next sell print there takes
    // it. Neither the venue nor its trader cancels a user's order, so once it leaves the open orders it filled.
    const o = placed(
      await v.client.placeOrder(
        order(v, { outcome: 'NO', priceTicks: ask - bid >= 2 ? bid + 1 : bid, quantity: 1 }),
      ),
    )
    expect(o.state).toBe('open')
    await waitFor(
      async () => !['open', 'partially_filled'].includes((await orderOf(v, o.id))?.state ?? ''),
      'the order off the venue’s book',
      40_000,
    )
    const done = await orderOf(v, o.id)
    expect(done?.state).toBe('filled')
    expect(done?.filled).toBe(1)
  }, 60_000)

  it('cancel-all while an order is in flight cancels the open ones now and the in-flight one once named', async () => {
    const v = await venue()
    const a = placed(await v.client.placeOrder(order(v, { quantity: 17 })))
    const b = placed(await v.client.placeOrder(order(v, { quantity: 18 })))
    v.sim.faults.orderFault({ kind: 'delay', ms: 1_500 }, 1)
    const slow = v.client.placeOrder(order(v, { quantity: 19 }))
    await waitFor(() => posts(v.sim.faults.orderLog()).length === 3, 'the slow order at the venue')
    const all = await v.client.cancelAllOrders()
    expect(all.ok && all.value.deferred).toBe(1)
    const c = placed(await slow)
    await waitFor(
      async () => {
        const orders = (await account(v)).orders
        return [a.id, b.id, c.id].every((id) => orders.find((o) => o.id === id)?.state === 'cancelled')
      },
      'all three cancelled',
      10_000,
    )
    expect(posts(v.sim.faults.orderLog())).toHaveLength(3)
  }, 30_000)

  it('the dev page’s answer shape: an integer order id, open, then cancelled', async () => {
    const v = await venue({ orderAnswer: 'b' })
    const o = placed(await v.client.placeOrder(order(v, { quantity: 20 })))
    expect(o.state).toBe('open')
    expect(o.venueId).toMatch(/^\d+$/)
    const cancelled = await v.client.cancelOrder(o.id)
    expect(cancelled.ok && cancelled.value.state).toBe('cancelled')
  }, 30_000)
})
