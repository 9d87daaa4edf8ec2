// The demo account behind the user channel: open orders, fills, positions and a wallet that change every
// second or two, deterministically for a seed.
import type { Side } from '../shared/model'
import type { Permission } from './config'
import { deriveSeed, mulberry32, pick, randInt, type Rng } from './rng'

export type UserTopic = 'order' | 'fill' | 'position' | 'balance'

/** A user-channel update body (without "channel"), e.g. { type: 'balance', currency, total, available, ts }. */
export type UserUpdate = { type: UserTopic } & Record<string, unknown>

/** Which permission lets a key see which user updates (the spec leaves this open; this is our reading). */
export const TOPIC_PERMISSION: Record<UserTopic, Permission> = {
  order: 'read_orders',
  fill: 'read_orders',
  position: 'read_positions',
  balance: 'read_wallet',
}

interface Order {
  id: string
  market: string
  event: string
  side: Side
  price: number
  size: number
  filled: number
  status: 'open' | 'partially_filled' | 'filled' | 'canceled'
  createdAt: number
}

interface Position {
  market: string
  event: string
  size: number
  avgPrice: number
  realizedPnl: number
}

export interface AccountMarket {
  id: string
  eventId: string
  /** Best bid / ask ticks of the live book, to price orders near the market. */
  quote(): { bid: number; ask: number }
}

const cents = (x: number): number => Math.round(x * 100) / 100

export class DemoAccount {
  private readonly rng: Rng
  private cash = 10_000
  private readonly orders = new Map<string, Order>()
  private readonly positions = new Map<string, Position>()
  private orderNo = 0
  private fillNo = 0
  private nextActionStep: number

  constructor(
    seed: number,
    private readonly markets: AccountMarket[],
    /** Steps between account changes, at most; the real gap is drawn between half and all of it. */
    private readonly maxGapSteps: number,
  ) {
    this.rng = mulberry32(deriveSeed(seed, 0xacc0))
    this.nextActionStep = 1
  }

  private reserved(): number {
    let r = 0
    for (const o of this.orders.values()) if (o.side === 'buy') r += (o.size - o.filled) * o.price
    return r
  }

  private balance(ts: number): UserUpdate {
    return {
      type: 'balance',
      currency: 'USDC',
      total: cents(this.cash),
      available: cents(this.cash - this.reserved()),
      ts,
    }
  }

  private orderUpdate(o: Order, ts: number): UserUpdate {
    return { type: 'order', ...o, ts }
  }

  private positionUpdate(p: Position, ts: number): UserUpdate {
    return { type: 'position', ...p, ts }
  }

  /** The account as a fresh subscriber should first see it. */
  snapshot(ts: number): UserUpdate[] {
    const out: UserUpdate[] = [this.balance(ts)]
    for (const p of this.positions.values()) out.push(this.positionUpdate(p, ts))
    for (const o of this.orders.values()) out.push(this.orderUpdate(o, ts))
    return out
  }

  step(stepNo: number, ts: number): UserUpdate[] {
    if (stepNo < this.nextActionStep || this.markets.length === 0) return []
    const r = this.rng
    this.nextActionStep = stepNo + randInt(r, Math.max(1, Math.floor(this.maxGapSteps / 2)), this.maxGapSteps)
    const open = [...this.orders.values()]
    const roll = r()
    if (open.length === 0 || (open.length < 8 && roll < 0.4)) return this.place(ts)
    const o = pick(r, open)
    if (roll < 0.85) return this.fill(o, ts)
    return this.cancel(o, ts)
  }

  private place(ts: number): UserUpdate[] {
    const r = this.rng
    const m = pick(r, this.markets)
    const q = m.quote()
    const pos = this.positions.get(m.id)
    const side: Side = pos !== undefined && pos.size > 0 && r() < 0.4 ? 'sell' : 'buy'
    const tick =
      side === 'buy' ? Math.max(1, q.bid - randInt(r, 0, 2)) : Math.min(99, q.ask + randInt(r, 0, 2))
    const maxSize = side === 'sell' && pos !== undefined ? pos.size : 200
    const o: Order = {
      id: `ord-${++this.orderNo}`,
      market: m.id,
      event: m.eventId,
      side,
      price: tick / 100,
      size: Math.max(1, randInt(r, 1, Math.max(1, maxSize))),
      filled: 0,
      status: 'open',
      createdAt: ts,
    }
    this.orders.set(o.id, o)
    return [this.orderUpdate(o, ts), this.balance(ts)]
  }

  private fill(o: Order, ts: number): UserUpdate[] {
    const r = this.rng
    const left = o.size - o.filled
    const size = r() < 0.5 ? left : randInt(r, 1, left)
    const fee = cents(size * o.price * 0.002)
    o.filled += size
    o.status = o.filled >= o.size ? 'filled' : 'partially_filled'
    const pos = this.positions.get(o.market) ?? {
      market: o.market,
      event: o.event,
      size: 0,
      avgPrice: 0,
      realizedPnl: 0,
    }
    if (o.side === 'buy') {
      pos.avgPrice = cents((pos.avgPrice * pos.size + o.price * size) / (pos.size + size))
      pos.size += size
      this.cash -= o.price * size + fee
    } else {
      const sold = Math.min(size, pos.size)
      pos.realizedPnl = cents(pos.realizedPnl + (o.price - pos.avgPrice) * sold)
      pos.size -= sold
      this.cash += o.price * size - fee
    }
    this.positions.set(o.market, pos)
    const fill: UserUpdate = {
      type: 'fill',
      id: `fill-${++this.fillNo}`,
      orderId: o.id,
      market: o.market,
      event: o.event,
      side: o.side,
      price: o.price,
      size,
      fee,
      liquidity: 'maker',
      ts,
    }
    const out = [fill, this.orderUpdate(o, ts), this.positionUpdate(pos, ts), this.balance(ts)]
    if (o.status === 'filled') this.orders.delete(o.id)
    return out
  }

  private cancel(o: Order, ts: number): UserUpdate[] {
    o.status = 'canceled'
    this.orders.delete(o.id)
    return [this.orderUpdate(o, ts), this.balance(ts)]
  }
}
