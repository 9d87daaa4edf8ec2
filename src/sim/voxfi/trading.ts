// The orders the demo account's user places over VoxFi's REST API (POST /v1/trade/order, DELETE
// /v1/trade/order/{id}, POST /v1/trade/merge; docs/voxfi.md §4.5 and §8): checked against the account, matched
// against the simulator's own books, resting as part of the book the venue shows, and filled at their own price
// by the prints and makers that later meet them. The account (../account.ts) holds the cash and contracts; this
// module holds the user's orders and tells the account what they reserve and offer.
import {
  orderSide,
  takerFeeCents,
  type OrderSide,
  type OrderType,
  type Outcome,
} from '../../shared/voxfi-orders'
import { MICRO_PER_CENT, type DemoAccount, type ExternalOrders, type UserUpdate } from '../account'
import type { BookSide, VoxMarketState, VoxTrade } from './books'
import { tradeBody, userFrame, userTradeType, type PrintMaker } from './frames'
import { mix, uuidFor } from './ids'
import type { OpenOrderRow } from './account'
import { isoSeconds } from './listing'
import { makerQueue, planTake, type QueueEntry, type Take } from './matching'
import {
  parseMergeRequest,
  parseOrderRequest,
  poRefusal,
  refusal,
  type OrderRequest,
  type Refusal,
} from './order-request'

/** Which documented answer Place Order gives (docs/voxfi.md §4.5): (a) the trades, (b) the dev page's order. */
export type OrderAnswer = 'a' | 'b'

/** A request's result: what to answer, and whether the venue acted on it. */
export interface TradeResult {
  status: number
  body: unknown
  executed: boolean
}

export interface TradingMarket {
  state: VoxMarketState
  /** The simulator's own id of the market (the account's). */
  internal: string
}

/** Where the consequences of orders go: the market channels, the user channel, and the account's read model. */
export interface TradingSink {
  /** A print of `m`, its `last_trade` JSON ready. */
  print(m: VoxMarketState, lastTradeJson: string): void
  user(frames: readonly string[]): void
  account(updates: readonly UserUpdate[]): void
}

export interface TradingDeps {
  seed: number
  markets: ReadonlyMap<string, TradingMarket>
  account: DemoAccount
  userId: string
  /** Other traders: the simulator's makers and takers. */
  users: readonly string[]
  answer: OrderAnswer
  sink: TradingSink
  /**
   * Cancels an open order of the account that is not the user's over the API (the demo trader's, listed in open
   * orders with its UUID); false when there is none open under `id`.
   */
  cancelOther(id: string, ts: number): boolean
}

interface UserOrder {
  no: number
  uuid: string
  market: TradingMarket
  outcome: Outcome
  type: 'LIMIT_BUY' | 'LIMIT_SELL'
  side: OrderSide
  tick: number
  quantity: number
  filled: number
  createdAt: number
}

/** The resting side an order of `side` sits on, and the side it takes from. */
const restsOn = (side: OrderSide): BookSide => (side === 'BUY' ? 'bids' : 'asks')
const takesFrom = (side: OrderSide): BookSide => (side === 'BUY' ? 'asks' : 'bids')
const accountSide = (side: OrderSide): 'buy' | 'sell' => (side === 'BUY' ? 'buy' : 'sell')
const left = (o: UserOrder): number => o.quantity - o.filled
/** Centavos a resting buy holds back: what its rest costs, and the taker fee should it take. */
const reservedCents = (o: UserOrder): number =>
  o.side === 'BUY' ? o.tick * left(o) + takerFeeCents(o.tick, left(o)) : 0

/** An execution as the answer (a) lists it (docs.voxfi.com.br/playground/trade/place-order). */
interface AnswerTrade {
  maker_user_id: string
  outcome: Outcome
  price_ticks: number
  quantity: number
  trade_id: string
}

export class Trading implements ExternalOrders {
  private readonly open = new Map<number, UserOrder>()
  private orderNo = 0
  private tradeNo = 0
  private printNo = 0

  constructor(private readonly d: TradingDeps) {}

  reservedMicro(): number {
    let cents = 0
    for (const o of this.open.values()) cents += reservedCents(o)
    return cents * MICRO_PER_CENT
  }

  offered(market: string, contract: Outcome): number {
    let n = 0
    for (const o of this.open.values())
      if (o.side === 'SELL' && o.outcome === contract && o.market.internal === market) n += left(o)
    return n
  }

  /** The id the open-orders listing and the answers show: the UUID in (a), the integer in (b). */
  private shownId(o: UserOrder): string | number {
    return this.d.answer === 'b' ? o.no : o.uuid
  }

  /** POST /v1/trade/order. */
  place(body: unknown, ts: number): TradeResult {
    const parsed = parseOrderRequest(body)
    if (!parsed.ok) return refused(parsed.refusal)
    const req = parsed.value
    const market = this.d.markets.get(req.marketId)
    if (market === undefined) return refused(refusal(404, 'market not found'))
    const m = market.state
    if (req.eventId !== null && req.eventId !== m.eventUuid) {
      return refused(refusal(400, 'event_id does not match market_id'))
    }
    if (m.closedAt !== null) return refused(poRefusal('PO8'))
    const side = orderSide(req.type)
    const wanted = 'quantity' in req ? req.quantity : null
    if (side === 'SELL' && (wanted ?? 0) > this.d.account.sellable(market.internal, req.outcome)) {
      return refused(poRefusal('PO4'))
    }
    const limitTick = 'priceTicks' in req ? req.priceTicks : null
    const queue = this.queue(market, req.outcome, side)
    const plan = planTake(queue, side, {
      limitTick,
      maxQty: wanted,
      maxCents: req.type === 'MARKET_BUY_VALUE' ? req.valueCents : null,
    })
    const filled = plan.reduce((s, t) => s + t.qty, 0)
    if (limitTick === null && filled === 0) {
      // A value too small for one contract is not a lack of liquidity: the value is the order's price (PO1).
      return refused(poRefusal(queue.length === 0 ? 'PO5' : 'PO1'))
    }
    const rest = limitTick !== null && wanted !== null ? wanted - filled : 0
    if (side === 'BUY') {
      const spend = plan.reduce((s, t) => s + t.qty * t.entry.tick + t.feeCents, 0)
      const hold = limitTick === null || rest === 0 ? 0 : limitTick * rest + takerFeeCents(limitTick, rest)
      if (spend + hold > this.d.account.availableMicro() / MICRO_PER_CENT) return refused(poRefusal('PO3'))
    }
    return { status: 200, body: this.execute(req, market, side, plan, rest, ts), executed: true }
  }

  /** The resting orders an order of `side` on `outcome` would meet, best price first, then oldest. */
  private queue(market: TradingMarket, outcome: Outcome, side: OrderSide): QueueEntry<UserOrder>[] {
    const m = market.state
    const from = takesFrom(side)
    const salt = mix(m.salt, outcome === 'YES' ? 0 : 1, from === 'bids' ? 0 : 1)
    const entries = m.simBook(outcome)[from].flatMap((l) => makerQueue<UserOrder>(l, this.d.users, salt))
    for (const o of this.open.values()) {
      if (o.market === market && o.outcome === outcome && o.side !== side)
        entries.push({ tick: o.tick, qty: left(o), makerId: this.d.userId, own: o })
    }
    // Stable: at a level the simulator's makers (listed first) keep their place before the account's own.
    const dir = from === 'asks' ? 1 : -1
    return entries.sort((a, b) => dir * (a.tick - b.tick))
  }

  private execute(
    req: OrderRequest,
    market: TradingMarket,
    side: OrderSide,
    plan: readonly Take<UserOrder>[],
    rest: number,
    ts: number,
  ): unknown {
    const m = market.state
    const no = ++this.orderNo
    const uuid = uuidFor(this.d.seed, 0x05de, no)
    const updates: UserUpdate[] = []
    const frames: string[] = []
    const trades: AnswerTrade[] = []
    let notional = 0
    let fees = 0
    for (let i = 0; i < plan.length;) {
      // One print per price level taken, as the simulator's own prints: one taker, the makers it met there.
      const tick = plan[i]!.entry.tick
      const makers: PrintMaker[] = []
      let simQty = 0
      let qty = 0
      for (; i < plan.length && plan[i]!.entry.tick === tick; i++) {
        const t = plan[i]!
        makers.push({ id: t.entry.makerId, qty: t.qty })
        qty += t.qty
        if (t.entry.own === null) simQty += t.qty
        else this.makerFill(t.entry.own, t.qty, ts, updates, frames)
        updates.push(
          ...this.d.account.settle({
            orderId: uuid,
            market: market.internal,
            contract: req.outcome,
            side: accountSide(side),
            tick,
            size: t.qty,
            feeCents: t.feeCents,
            liquidity: 'taker',
            ts,
          }),
        )
        frames.push(this.frame(market, side, req.outcome, tick, t.qty, t.feeCents, req.type))
        trades.push({
          maker_user_id: t.entry.makerId,
          outcome: req.outcome,
          price_ticks: tick,
          quantity: t.qty,
          trade_id: uuidFor(this.d.seed, 0x7ade, ++this.tradeNo),
        })
        notional += t.qty * tick
        fees += t.feeCents
      }
      if (simQty > 0) m.take(req.outcome, takesFrom(side), tick, simQty)
      const print = m.print(req.outcome, side, tick, qty)
      this.d.sink.print(m, JSON.stringify(tradeBody(print, this.d.userId, makers)))
    }
    const filled = trades.reduce((s, t) => s + t.quantity, 0)
    let order: UserOrder | null = null
    if (rest > 0 && (req.type === 'LIMIT_BUY' || req.type === 'LIMIT_SELL')) {
      order = {
        no,
        uuid,
        market,
        outcome: req.outcome,
        type: req.type,
        side,
        tick: req.priceTicks,
        quantity: req.quantity,
        filled,
        createdAt: ts,
      }
      this.open.set(no, order)
      m.own.add(order.outcome, restsOn(side), order.tick, rest, 1)
      m.touched = true
    }
    updates.push(this.d.account.balance(ts))
    this.d.sink.account(updates)
    this.d.sink.user(frames)
    const wanted = req.type === 'MARKET_BUY_VALUE' ? filled : req.quantity
    const message =
      filled === 0 ? 'order placed' : filled < wanted ? 'order partially filled' : 'order filled'
    if (this.d.answer === 'b') {
      return {
        success: true,
        message,
        order_id: no,
        order_status: filled === 0 ? 'PLACED' : filled < wanted ? 'PARTIALLY_FILLED' : 'FILLED',
        timestamp: new Date(ts).toISOString(),
        wanted,
        filled,
        filled_amount: notional,
        remaining: wanted - filled,
      }
    }
    return {
      success: true,
      message,
      ...(order !== null ? { resting_order_id: order.uuid } : {}),
      ...(side === 'BUY' ? { spent: notional + fees } : { received: notional - fees }),
      trades,
    }
  }

  /** A resting user order met for `qty` at its own price (maker: no fee). */
  private makerFill(o: UserOrder, qty: number, ts: number, updates: UserUpdate[], frames: string[]): void {
    o.filled += qty
    const done = left(o) === 0
    if (done) this.open.delete(o.no)
    o.market.state.own.add(o.outcome, restsOn(o.side), o.tick, -qty, done ? -1 : 0)
    o.market.state.touched = true
    updates.push(
      ...this.d.account.settle({
        orderId: o.uuid,
        market: o.market.internal,
        contract: o.outcome,
        side: accountSide(o.side),
        tick: o.tick,
        size: qty,
        feeCents: 0,
        liquidity: 'maker',
        ts,
      }),
    )
    frames.push(this.frame(o.market, o.side, o.outcome, o.tick, qty, 0, null))
  }

  /** One execution on the user channel: `type` null for a resting order that was met. */
  private frame(
    market: TradingMarket,
    side: OrderSide,
    outcome: Outcome,
    tick: number,
    qty: number,
    feeCents: number,
    type: OrderType | null,
  ): string {
    return userFrame({
      userId: this.d.userId,
      eventId: market.state.eventUuid,
      marketId: market.state.uuid,
      side,
      contract: outcome,
      price: tick,
      quantity: qty,
      fee: feeCents,
      tradeType: type === null ? 'order.filled' : userTradeType('taker', type),
    })
  }

  /**
   * After a market stepped: its print (`trade`) fills the user's resting orders of that book on the other side at
   * or through their price (through: all of it; at: up to the print's size, oldest first), and makers that now
   * reach a resting user order trade with it at its price, in a print of their own.
   */
  afterStep(m: VoxMarketState, trade: VoxTrade | null, ts: number): void {
    if (this.open.size === 0 || m.closedAt !== null) return
    const mine = [...this.open.values()].filter((o) => o.market.state === m)
    if (mine.length === 0) return
    const updates: UserUpdate[] = []
    const frames: string[] = []
    if (trade !== null) {
      let atPrice = trade.qty
      for (const o of mine) {
        if (o.outcome !== trade.contract || o.side === trade.side) continue
        const through = o.side === 'BUY' ? trade.tick < o.tick : trade.tick > o.tick
        const qty = through ? left(o) : trade.tick === o.tick ? Math.min(left(o), atPrice) : 0
        if (qty === 0) continue
        if (!through) atPrice -= qty
        this.makerFill(o, qty, ts, updates, frames)
      }
    }
    // Best priced first: a maker that reaches several user orders meets the best one first.
    const byPrice = mine
      .filter((o) => left(o) > 0)
      .sort((a, b) => (a.side === 'BUY' ? b.tick - a.tick : a.tick - b.tick) || a.no - b.no)
    for (const o of byPrice) this.crossed(o, ts, updates, frames)
    if (updates.length === 0) return
    updates.push(this.d.account.balance(ts))
    this.d.sink.account(updates)
    this.d.sink.user(frames)
  }

  /** The simulator's makers on the other side reached `o`'s price: they trade with it there, best first. */
  private crossed(o: UserOrder, ts: number, updates: UserUpdate[], frames: string[]): void {
    const m = o.market.state
    const from = takesFrom(o.side)
    let qty = 0
    for (const l of m.simBook(o.outcome)[from]) {
      const reaches = o.side === 'BUY' ? l.price_ticks <= o.tick : l.price_ticks >= o.tick
      if (!reaches || qty >= left(o)) break
      const n = Math.min(l.quantity, left(o) - qty)
      m.take(o.outcome, from, l.price_ticks, n)
      qty += n
    }
    if (qty === 0) return
    const taker = this.d.users[mix(m.salt, o.no, ++this.printNo) % this.d.users.length] as string
    const print = m.print(o.outcome, o.side === 'BUY' ? 'SELL' : 'BUY', o.tick, qty)
    this.d.sink.print(m, JSON.stringify(tradeBody(print, taker, [{ id: this.d.userId, qty }])))
    this.makerFill(o, qty, ts, updates, frames)
  }

  /** DELETE /v1/trade/order/{id}: `id` as the listing shows it (a UUID in answer (a), an integer in (b)). */
  cancel(id: string, ts: number): TradeResult {
    const o = this.find(id)
    if (o === undefined) {
      if (!this.d.cancelOther(id, ts)) return refused(poRefusal('PO6'))
      return { status: 200, body: { success: true, message: 'order canceled', order_id: id }, executed: true }
    }
    this.open.delete(o.no)
    o.market.state.own.add(o.outcome, restsOn(o.side), o.tick, -left(o), -1)
    o.market.state.touched = true
    this.d.sink.account([this.d.account.balance(ts)])
    return {
      status: 200,
      body: { success: true, message: 'order canceled', order_id: this.shownId(o) },
      executed: true,
    }
  }

  private find(id: string): UserOrder | undefined {
    if (this.d.answer === 'b') return /^[1-9]\d{0,15}$/.test(id) ? this.open.get(Number(id)) : undefined
    for (const o of this.open.values()) if (o.uuid === id) return o
    return undefined
  }

  /** POST /v1/trade/merge: YES/NO pairs the account holds and offers nowhere become R$ 1,00 each. */
  merge(body: unknown, ts: number): TradeResult {
    const parsed = parseMergeRequest(body)
    if (!parsed.ok) return refused(parsed.refusal)
    const { marketId, quantity } = parsed.value
    const market = this.d.markets.get(marketId)
    if (market === undefined) return refused(refusal(404, 'market not found'))
    const a = this.d.account
    if (quantity > Math.min(a.sellable(market.internal, 'YES'), a.sellable(market.internal, 'NO'))) {
      return refused(poRefusal('PO4'))
    }
    this.d.sink.account(a.merge(market.internal, quantity, ts))
    return {
      status: 200,
      body: { success: true, message: 'merged', quantity, received: quantity * 100 },
      executed: true,
    }
  }

  /** The user's open orders as GET /v1/data/orders lists them, newest first. */
  openOrders(filter: (internalMarket: string) => boolean): OpenOrderRow[] {
    return [...this.open.values()]
      .filter((o) => filter(o.market.internal))
      .reverse()
      .map((o) => ({
        id: this.shownId(o),
        event_id: o.market.state.eventUuid,
        market_id: o.market.state.uuid,
        order_type: o.type,
        outcome: o.outcome,
        side: o.side,
        price_ticks: o.tick,
        quantity: o.quantity,
        filled_quantity: o.filled,
        remaining_quantity: left(o),
        status: o.filled > 0 ? 'PARTIALLY_FILLED' : 'PLACED',
        created_at: isoSeconds(o.createdAt),
      }))
  }
}

function refused(r: Refusal): TradeResult {
  return { status: r.status, body: r.body, executed: false }
}
