// The demo account as VoxFi's account endpoints show it (docs.voxfi.com.br/en/api/wallets, /en/api/orders): a
// read model fed with the very updates the shared DemoAccount produces, converted to VoxFi's units. Prices are
// integer ticks (1 tick = R$ 0,01 = the account's 0.01 price unit), money is integer centavos (1 centavo = the
// account's 0.01 currency unit), quantities are contracts. The demo account only trades YES contracts.
import type { FillMessage, OrderMessage, PositionMessage, UserUpdate } from '../account'
import type { TradeSide } from './books'
import { isoSeconds } from './listing'
import { uuidFor } from './ids'

const cents = (x: number): number => Math.round(x * 100)
const ticks = (p: number): number => Math.round(p * 100)
const MAX_FILLS = 5000

export interface Ids {
  /** VoxFi market id for an internal one. */
  market(internalId: string): string
  /** VoxFi event id for an internal market id. */
  eventOfMarket(internalId: string): string
}

export interface BalanceBody {
  available: number
  eligible_for_withdraw: number
  locked_waiting_orders: number
  locked_waiting_withdraw: number
  locked_audit: number
  total_balance: number
  remaining_rollover: number
  total_deposits: number
  total_withdrawals: number
  total_contracts: number
  total_realized_pnl: number
  total_unrealized_pnl: number
  qty_contracts: number
}

export interface Pnl {
  realized: number
  unrealized: number
}

export class AccountView {
  private totalCents = 0
  private reservedCents = 0
  private depositsCents: number | null = null
  private readonly positions = new Map<string, PositionMessage>()
  /** Realized P&L (centavos, before fees) of positions already closed, per internal market. */
  private readonly closedRealized = new Map<string, number>()
  private readonly orders = new Map<string, OrderMessage>()
  private readonly fills: FillMessage[] = []

  constructor(
    private readonly seed: number,
    private readonly ids: Ids,
    /** The market's YES market price in ticks (what positions are marked at). */
    private readonly mark: (internalId: string) => number | null,
  ) {}

  apply(updates: readonly UserUpdate[]): void {
    for (const u of updates) {
      if (u.type === 'balance') {
        this.totalCents = cents(u.total)
        this.reservedCents = cents(u.reserved)
        this.depositsCents ??= this.totalCents
      } else if (u.type === 'position') {
        if (u.size > 0) this.positions.set(u.market, u)
        else {
          this.positions.delete(u.market)
          this.closedRealized.set(u.market, (this.closedRealized.get(u.market) ?? 0) + cents(u.realizedPnl))
        }
      } else if (u.type === 'order') {
        if (u.status === 'open' || u.status === 'partially_filled') this.orders.set(u.id, u)
        else this.orders.delete(u.id)
      } else {
        this.fills.push(u)
        if (this.fills.length > MAX_FILLS) this.fills.splice(0, this.fills.length - MAX_FILLS)
      }
    }
  }

  private orderUuid(id: string): string {
    return uuidFor(this.seed, 0x04de, Number(id.replace(/\D/g, '')) || 0)
  }

  private positionFigures(p: PositionMessage): {
    value: number
    invested: number
    unrealized: number
    mark: number
  } {
    const mark = this.mark(p.market) ?? ticks(p.avgPrice)
    const invested = Math.round(p.size * p.avgPrice * 100)
    const value = p.size * mark
    return { value, invested, unrealized: value - invested, mark }
  }

  pnl(filter: (internalMarket: string) => boolean = () => true): Pnl {
    let realized = 0
    let unrealized = 0
    for (const [m, r] of this.closedRealized) if (filter(m)) realized += r
    for (const p of this.positions.values()) {
      if (!filter(p.market)) continue
      realized += cents(p.realizedPnl)
      unrealized += this.positionFigures(p).unrealized
    }
    return { realized, unrealized }
  }

  balance(): BalanceBody {
    let contracts = 0
    let qty = 0
    for (const p of this.positions.values()) {
      contracts += this.positionFigures(p).value
      qty += p.size
    }
    const pnl = this.pnl()
    const available = this.totalCents - this.reservedCents
    return {
      available,
      eligible_for_withdraw: available,
      locked_waiting_orders: this.reservedCents,
      locked_waiting_withdraw: 0,
      locked_audit: 0,
      total_balance: this.totalCents,
      remaining_rollover: 0,
      total_deposits: this.depositsCents ?? this.totalCents,
      total_withdrawals: 0,
      total_contracts: contracts,
      total_realized_pnl: pnl.realized,
      total_unrealized_pnl: pnl.unrealized,
      qty_contracts: qty,
    }
  }

  portfolio(filter: (internalMarket: string) => boolean): unknown {
    const positions = [...this.positions.values()]
      .filter((p) => filter(p.market))
      .map((p) => {
        const f = this.positionFigures(p)
        const realized = (this.closedRealized.get(p.market) ?? 0) + cents(p.realizedPnl)
        return {
          event_id: this.ids.eventOfMarket(p.market),
          market_id: this.ids.market(p.market),
          contract_type: 'YES',
          quantity: p.size,
          avg_price: ticks(p.avgPrice),
          current_price: f.mark,
          invested: f.invested,
          current_value: f.value,
          realized_pnl: realized,
          unrealized_pnl: f.unrealized,
        }
      })
    const sum = (k: 'invested' | 'current_value' | 'realized_pnl' | 'unrealized_pnl' | 'quantity'): number =>
      positions.reduce((s, p) => s + p[k], 0)
    return {
      positions,
      total_invested: sum('invested'),
      total_current_value: sum('current_value'),
      total_realized_pnl: this.pnl(filter).realized,
      total_unrealized_pnl: sum('unrealized_pnl'),
      qty_contracts: sum('quantity'),
    }
  }

  /** Open orders, newest first. */
  openOrders(filter: (internalMarket: string) => boolean): unknown[] {
    return [...this.orders.values()]
      .filter((o) => filter(o.market))
      .reverse()
      .map((o) => {
        const side: TradeSide = o.side === 'buy' ? 'BUY' : 'SELL'
        return {
          id: this.orderUuid(o.id),
          event_id: this.ids.eventOfMarket(o.market),
          market_id: this.ids.market(o.market),
          order_type: side === 'BUY' ? 'LIMIT_BUY' : 'LIMIT_SELL',
          outcome: 'YES',
          side,
          price_ticks: ticks(o.price),
          quantity: o.size,
          filled_quantity: o.filled,
          remaining_quantity: o.size - o.filled,
          status: o.filled > 0 ? 'PARTIALLY_FILLED' : 'PLACED',
          created_at: isoSeconds(o.createdAt),
        }
      })
  }

  /** Executed trades, newest first, `page` 1-based. */
  activity(filter: (internalMarket: string) => boolean, page: number, pageSize: number): unknown[] {
    const all = this.fills.filter((f) => filter(f.market))
    const out: unknown[] = []
    const start = all.length - 1 - (page - 1) * pageSize
    for (let i = start; i >= 0 && out.length < pageSize; i--) {
      const f = all[i] as FillMessage
      out.push({
        market_id: this.ids.market(f.market),
        event_id: this.ids.eventOfMarket(f.market),
        contract_type: 'YES',
        side: f.side === 'buy' ? 'BUY' : 'SELL',
        price_ticks: ticks(f.price),
        quantity: f.size,
        created_at: isoSeconds(f.ts),
      })
    }
    return out
  }
}
