// An independent bookkeeper for the demo account's user updates: it re-derives orders, positions and the wallet
// from the messages alone and checks every order, fill, position and balance message against that, and against
// the market's book at the moment. Used both on the pure account model and on the wire.
import { expect } from 'vitest'

export type Msg = Record<string, unknown>

/** Best bid / ask in ticks of 0.01. */
export interface Quote {
  bid: number
  ask: number
}

/** The book of a market just before and just after the step that produced the message being checked. */
export type QuoteLookup = (market: string) => { pre: Quote; post: Quote }

interface LedgerOrder {
  id: string
  market: string
  side: 'buy' | 'sell'
  tick: number
  size: number
  filled: number
  status: string
  /** Fill sizes seen for this order and not yet confirmed by an order update. */
  pendingFill: number
}

interface LedgerPosition {
  size: number
  avg: number
  realized: number
}

const EPS = 1e-6
// The account rounds avgPrice to 1e-6 on the wire and a watcher's baseline starts from that rounded value, so
// derived averages and PnL agree to about that times the size, far below a cent.
const AVG_EPS = 1e-5
const PNL_EPS = 0.005
const tickOf = (price: unknown): number => Math.round(Number(price) * 100)
const OPEN = new Set(['open', 'partially_filled'])

export class AccountLedger {
  readonly orders = new Map<string, LedgerOrder>()
  readonly positions = new Map<string, LedgerPosition>()
  total: number | null = null
  realizedTotal = 0
  readonly stats = {
    messages: 0,
    placed: 0,
    buyFills: 0,
    sellFills: 0,
    takerFills: 0,
    partialFills: 0,
    /** Orders that were partially filled first and completely filled later. */
    partialThenFilled: 0,
    canceled: 0,
    /** Fills outside the book's ±0.02 band both before and after their step: only allowed across a news jump. */
    jumpFills: 0,
    positionDecreases: 0,
    /** Most open orders seen after any message. */
    maxOpen: 0,
  }
  private readonly partiallyFilled = new Set<string>()

  constructor(private readonly quotes: QuoteLookup) {}

  openCount(): number {
    return this.orders.size
  }

  apply(m: Msg): void {
    this.stats.messages++
    if (m.type === 'order') this.order(m)
    else if (m.type === 'fill') this.fill(m)
    else if (m.type === 'position') this.position(m)
    else if (m.type === 'balance') this.balance(m)
    else throw new Error(`unexpected user update type ${String(m.type)}`)
    this.stats.maxOpen = Math.max(this.stats.maxOpen, this.orders.size)
  }

  private order(m: Msg): void {
    const id = String(m.id)
    const size = Number(m.size)
    const filled = Number(m.filled)
    const status = String(m.status)
    expect(['open', 'partially_filled', 'filled', 'canceled']).toContain(status)
    expect(['buy', 'sell']).toContain(m.side)
    expect(Number.isInteger(size) && size > 0, `order size ${size}`).toBe(true)
    expect(filled).toBeGreaterThanOrEqual(0)
    expect(filled).toBeLessThanOrEqual(size)
    if (OPEN.has(status)) expect(filled, `${id} is ${status}`).toBeLessThan(size)
    if (status === 'open') expect(filled).toBe(0)
    if (status === 'partially_filled') expect(filled).toBeGreaterThan(0)
    if (status === 'filled') expect(filled).toBe(size)
    const known = this.orders.get(id)
    if (known === undefined) {
      // First sight: a new order (filled 0, sent in the step it was placed) or one from the subscribe snapshot.
      if (status === 'open' && m.ts === m.createdAt) this.checkPlacement(m)
      if (OPEN.has(status))
        this.orders.set(id, {
          id,
          market: String(m.market),
          side: m.side as 'buy' | 'sell',
          tick: tickOf(m.price),
          size,
          filled,
          status,
          pendingFill: 0,
        })
      return
    }
    expect(m.market).toBe(known.market)
    expect(m.side).toBe(known.side)
    expect(tickOf(m.price)).toBe(known.tick)
    expect(size).toBe(known.size)
    // Each fill is confirmed by the order's next update, which adds exactly the filled size.
    expect(filled, `order ${id} filled`).toBe(known.filled + known.pendingFill)
    known.filled = filled
    known.pendingFill = 0
    if (status === 'partially_filled') this.partiallyFilled.add(id)
    if (status === 'filled' && this.partiallyFilled.has(id)) this.stats.partialThenFilled++
    if (status === 'canceled') this.stats.canceled++
    known.status = status
    if (!OPEN.has(status)) this.orders.delete(id)
  }

  private checkPlacement(m: Msg): void {
    this.stats.placed++
    const { post: q } = this.quotes(String(m.market))
    const t = tickOf(m.price)
    // At the touch or up to three ticks behind it, or marketable at exactly the opposite touch.
    if (m.side === 'buy') {
      expect(t, `buy at ${t} vs book ${q.bid}/${q.ask}`).toBeGreaterThanOrEqual(q.bid - 3)
      expect(t).toBeLessThanOrEqual(q.ask)
    } else {
      expect(t, `sell at ${t} vs book ${q.bid}/${q.ask}`).toBeLessThanOrEqual(q.ask + 3)
      expect(t).toBeGreaterThanOrEqual(q.bid)
    }
    if (m.side === 'buy') expect(Number(m.size)).toBeLessThanOrEqual(250)
    else expect(Number(m.size)).toBeLessThanOrEqual(this.positions.get(String(m.market))?.size ?? 0)
  }

  private fill(m: Msg): void {
    const o = this.orders.get(String(m.orderId))
    expect(o, `fill for unknown or closed order ${String(m.orderId)}`).toBeDefined()
    if (o === undefined) return
    const size = Number(m.size)
    const fee = Number(m.fee)
    const t = tickOf(m.price)
    expect(m.market).toBe(o.market)
    expect(m.side).toBe(o.side)
    expect(Number.isInteger(size) && size > 0).toBe(true)
    expect(size).toBeLessThanOrEqual(o.size - o.filled - o.pendingFill)
    expect(fee).toBeGreaterThanOrEqual(0)
    expect(typeof m.ts).toBe('number')
    if (m.liquidity === 'taker') {
      this.stats.takerFills++
      // A taker fills at its limit or better.
      if (o.side === 'buy') expect(t).toBeLessThanOrEqual(o.tick)
      else expect(t).toBeGreaterThanOrEqual(o.tick)
    } else {
      expect(m.liquidity).toBe('maker')
      expect(fee).toBe(0)
      expect(t, 'a resting order fills at its own price').toBe(o.tick)
    }
    const { pre, post } = this.quotes(o.market)
    const within = (q: Quote): boolean => t >= q.bid - 2 && t <= q.ask + 2
    if (!within(post) && !within(pre)) {
      // Only news moves a book more than two ticks in one step; a stale resting order is then picked off.
      const jumped = Math.abs(post.bid - pre.bid) > 2 || Math.abs(post.ask - pre.ask) > 2
      expect(jumped, `fill at ${t} far from the book ${pre.bid}/${pre.ask} -> ${post.bid}/${post.ask}`).toBe(
        true,
      )
      expect(m.liquidity).toBe('maker')
      this.stats.jumpFills++
    }
    if (size < o.size - o.filled - o.pendingFill) this.stats.partialFills++
    o.pendingFill += size
    const p = this.positions.get(o.market) ?? { size: 0, avg: 0, realized: 0 }
    const price = t / 100
    if (o.side === 'buy') {
      this.stats.buyFills++
      p.avg = p.size === 0 ? price : (p.avg * p.size + price * size) / (p.size + size)
      p.size += size
      if (this.total !== null) this.total -= price * size + fee
    } else {
      this.stats.sellFills++
      this.stats.positionDecreases++
      expect(size, 'sells never exceed the holding').toBeLessThanOrEqual(p.size)
      p.realized += (price - p.avg) * size
      p.size -= size
      if (this.total !== null) this.total += price * size - fee
    }
    this.positions.set(o.market, p)
  }

  private position(m: Msg): void {
    const market = String(m.market)
    const size = Number(m.size)
    const avg = Number(m.avgPrice)
    expect(size).toBeGreaterThanOrEqual(0)
    const known = this.positions.get(market)
    if (known === undefined) {
      // A holding from before we started watching (the subscribe snapshot): it is the baseline.
      this.positions.set(market, { size, avg, realized: Number(m.realizedPnl) })
    } else {
      expect(size, `${market} size = baseline + buys - sells`).toBe(known.size)
      if (size > 0)
        expect(Math.abs(avg - known.avg), `${market} avg ${avg} vs ${known.avg}`).toBeLessThan(AVG_EPS)
      expect(Math.abs(Number(m.realizedPnl) - known.realized)).toBeLessThan(PNL_EPS)
    }
    const p = this.positions.get(market) as LedgerPosition
    // The mark is the book's mid; pnl is unrealised, (mark - avg) * size, on long YES shares.
    const { post: q } = this.quotes(market)
    expect(m.mark).toBe((q.bid + q.ask) / 200)
    const expected = ((q.bid + q.ask) / 200 - p.avg) * p.size
    expect(Math.abs(Number(m.pnl) - expected), `${market} pnl`).toBeLessThan(PNL_EPS)
    expect(m.unrealizedPnl).toBe(m.pnl)
    // A closed position is gone; buying that market again opens a fresh one.
    if (p.size === 0) p.realized = 0
  }

  private balance(m: Msg): void {
    expect(m.currency).toBe('USDC')
    const total = Number(m.total)
    const available = Number(m.available)
    if (this.total === null) {
      // The subscribe snapshot's wallet comes before its open orders: it is only the baseline.
      this.total = total
      return
    }
    expect(Math.abs(total - this.total), `total ${total} vs fills ${this.total}`).toBeLessThan(EPS)
    let reserved = 0
    for (const o of this.orders.values())
      if (o.side === 'buy') reserved += (o.size - o.filled - o.pendingFill) * (o.tick / 100)
    expect(Math.abs(available - (total - reserved)), `available ${available}`).toBeLessThan(EPS)
    expect(Math.abs(Number(m.reserved) - reserved)).toBeLessThan(EPS)
    expect(available).toBeGreaterThanOrEqual(0)
  }
}
