// The demo account as VoxFi's account endpoints show it (docs.voxfi.com.br/en/api/wallets, /en/api/orders): a
// read model fed with the very updates the shared DemoAccount produces, converted to VoxFi's units. Prices are
// integer ticks (1 tick = R$ 0,01 = the account's 0.01 price unit), money is integer centavos (1 centavo = the
// account's 0.01 currency unit), quantities are contracts. The trader trades YES only; NO positions and fills come
// from the user's own orders (./trading.ts), each a row of its own.
import type { FillMessage, OrderMessage, PositionMessage, UserUpdate } from '../account'
import { positionKey } from '../account'
import type { Outcome, TradeSide } from './books'
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

/** One row of GET /v1/data/orders (docs/voxfi.md §8). `id`: a UUID, or for the user's orders in answer (b) the integer. */
export interface OpenOrderRow {
  id: string | number
  event_id: string
  market_id: string
  order_type: 'LIMIT_BUY' | 'LIMIT_SELL'
  outcome: Outcome
  side: TradeSide
  price_ticks: number
  quantity: number
  filled_quantity: number
  remaining_quantity: number
  status: 'PLACED' | 'PARTIALLY_FILLED'
  created_at: string
}

const keyOf = (m: { market: string; contract?: 'NO' }): string => positionKey(m.market, m.contract ?? 'YES')

export class AccountView {
  private totalCents = 0
  private reservedCents = 0
  private depositsCents: number | null = null
  /** By positionKey: a market's YES and NO positions are rows of their own. */
  private readonly positions = new Map<string, PositionMessage>()
  /** Realized P&L (centavos, before fees) of positions already closed, by positionKey. */
  private readonly closedRealized = new Map<string, { market: string; cents: number }>()
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
        const key = keyOf(u)
        if (u.size > 0) this.positions.set(key, u)
        else {
          this.positions.delete(key)
          const before = this.closedRealized.get(key)?.cents ?? 0
          this.closedRealized.set(key, { market: u.market, cents: before + cents(u.realizedPnl) })
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

  /** The account's own id of the open order listed as `uuid`, if the trader has one open under it. */
  openOrderId(uuid: string): string | undefined {
    for (const id of this.orders.keys()) if (this.orderUuid(id) === uuid) return id
    return undefined
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
    const yes = this.mark(p.market)
    const mark = yes === null ? ticks(p.avgPrice) : p.contract === 'NO' ? 100 - yes : yes
    const invested = Math.round(p.size * p.avgPrice * 100)
    const value = p.size * mark
    return { value, invested, unrealized: value - invested, mark }
  }

  pnl(filter: (internalMarket: string) => boolean = () => true): Pnl {
    let realized = 0
    let unrealized = 0
    for (const c of this.closedRealized.values()) if (filter(c.market)) realized += c.cents
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
        const realized = (this.closedRealized.get(keyOf(p))?.cents ?? 0) + cents(p.realizedPnl)
        return {
          event_id: this.ids.eventOfMarket(p.market),
          market_id: this.ids.market(p.market),
          contract_type: p.contract ?? 'YES',
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

  /** The trader's open orders, newest first. */
  openOrders(filter: (internalMarket: string) => boolean): OpenOrderRow[] {
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
        contract_type: f.contract ?? 'YES',
        side: f.side === 'buy' ? 'BUY' : 'SELL',
        price_ticks: ticks(f.price),
        quantity: f.size,
        created_at: isoSeconds(f.ts),
      })
    }
    return out
  }
}
