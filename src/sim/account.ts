// The demo account behind the user channel: a trader working a handful of the listing's markets with limit
// orders placed near each live book, deterministically for a seed. Resting orders fill at their own price, and
// only once that market trades at or through it; marketable ones take the touch a step or few after placement.
// Positions, marks, PnL and the wallet follow from the fills alone.
// The account also holds what the VoxFi dialect's user places over REST (./voxfi/trading.ts): those orders live
// there, and reach the account as reservations, offered contracts, fills and merges (ExternalOrders, settle,
// merge). NO contracts come only from them; the trader works YES alone, and only what it bought itself.
import type { Side } from '../shared/model'
import { takerFeeCents, type Outcome } from '../shared/voxfi-orders'
import type { Permission } from './config'
import { deriveSeed, mulberry32, pick, randInt, type Rng } from './rng'

export type UserTopic = 'order' | 'fill' | 'position' | 'balance'

export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'canceled'

export interface OrderMessage {
  type: 'order'
  id: string
  market: string
  event: string
  side: Side
  price: number
  size: number
  filled: number
  status: OrderStatus
  createdAt: number
  ts: number
}

export interface FillMessage {
  type: 'fill'
  id: string
  orderId: string
  market: string
  event: string
  /** Present only on NO fills: absent means YES, so the reference dialect's messages (YES only) keep their keys. */
  contract?: 'NO'
  side: Side
  price: number
  size: number
  /** USDC; makers pay none, takers pay the venue's binary-contract fee. */
  fee: number
  liquidity: 'maker' | 'taker'
  ts: number
}

/**
 * Convention: `size` counts YES shares held (never negative: the account sells only what it holds), `avgPrice`
 * is their volume-weighted buy price, `mark` is the book's current mid, and `pnl` (= `unrealizedPnl`) is
 * (mark - avgPrice) * size, i.e. what the shares would gain or lose if sold at the mid. `realizedPnl` sums
 * (sell price - avgPrice) * shares sold, before fees. A NO position counts NO shares and is marked at 1 - mid.
 */
export interface PositionMessage {
  type: 'position'
  market: string
  event: string
  /** Present only on a NO position (a row of its own): absent means YES, as on FillMessage. */
  contract?: 'NO'
  size: number
  avgPrice: number
  mark: number | null
  pnl: number | null
  unrealizedPnl: number | null
  realizedPnl: number
  ts: number
}

/**
 * `available` is `total` minus what open buy orders reserve: unfilled size times price, and for external orders
 * their taker-fee estimate too.
 */
export interface BalanceMessage {
  type: 'balance'
  currency: 'USDC'
  total: number
  available: number
  reserved: number
  ts: number
}

/** A user-channel update body (without "channel"). */
export type UserUpdate = OrderMessage | FillMessage | PositionMessage | BalanceMessage

/** Which permission lets a key see which user updates (the spec leaves this open; this is our reading). */
export const TOPIC_PERMISSION: Record<UserTopic, Permission> = {
  order: 'read_orders',
  fill: 'read_orders',
  position: 'read_positions',
  balance: 'read_wallet',
}

export interface AccountMarket {
  id: string
  eventId: string
  /** Best bid / ask ticks (0.01) of the live book; bid 0 or ask 100 when that side is empty. */
  quote(): { bid: number; ask: number }
}

/** A trade a market printed this step; `side` is the taker's. */
export interface AccountPrint {
  market: string
  price: number
  size: number
  side: Side
}

interface Order {
  id: string
  market: AccountMarket
  side: Side
  tick: number
  size: number
  filled: number
  status: OrderStatus
  createdAt: number
  placedStep: number
  /** A marketable order executes against the touch at this step (the venue round trip), if still marketable. */
  takerAt: number | null
}

interface Position {
  market: AccountMarket
  contract: Outcome
  size: number
  avgPrice: number
  realizedPnl: number
  /** Mark tick last sent, so PnL is re-sent only when it moved. */
  sentMark: number | null
}

const START_CASH_MICRO = 10_000 * 1_000_000
/** How many markets the trader works at once. */
const FOCUS = 6
const MIN_OPEN = 2
const MAX_OPEN = 6
/** Share counts traders actually type. */
const LOTS = [10, 15, 20, 25, 25, 30, 40, 50, 50, 60, 75, 100, 100, 120, 150, 200, 250] as const
/** Ticks behind the touch for a resting order: mostly at or next to it. */
const OFFSETS = [0, 0, 1, 1, 1, 2, 3] as const
/** Chance that a print at exactly an order's price reaches it in the queue. */
const QUEUE_HIT = 0.3

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6
const usdc = (micro: number): number => micro / 1e6
/** Micro-USDC in one cent (one VoxFi centavo). */
export const MICRO_PER_CENT = 10_000
/** Micro-USDC of `size` shares at `tick` cents: exact integers, so the wallet never drifts. */
const notionalMicro = (tick: number, size: number): number => tick * size * MICRO_PER_CENT
const takerFeeMicro = (tick: number, size: number): number => takerFeeCents(tick, size) * MICRO_PER_CENT
/** A YES position is keyed by its market, as it always was; a NO one beside it. */
export const positionKey = (market: string, contract: Outcome): string =>
  contract === 'YES' ? market : `${market}\u0000NO`

function valid(q: { bid: number; ask: number }): boolean {
  return q.bid >= 1 && q.ask <= 99 && q.bid < q.ask
}

/** The mark of a position in ticks: the YES mid, or its complement for NO; null without a valid book. */
function markTick(p: Position): number | null {
  const q = p.market.quote()
  if (!valid(q)) return null
  const mid = (q.bid + q.ask) / 2
  return p.contract === 'YES' ? mid : 100 - mid
}

/** The account's orders placed from outside (VoxFi's user orders): what they hold back. */
export interface ExternalOrders {
  /** Micro-USDC reserved by their resting buys. */
  reservedMicro(): number
  /** Contracts of one market's outcome offered by their resting sells. */
  offered(market: string, contract: Outcome): number
}

/** One execution of an external order, in the account's terms. */
export interface ExternalFill {
  orderId: string
  market: string
  contract: Outcome
  side: Side
  tick: number
  size: number
  feeCents: number
  liquidity: 'maker' | 'taker'
  ts: number
}

const NO_EXTERNAL: ExternalOrders = { reservedMicro: () => 0, offered: () => 0 }

export class DemoAccount {
  private readonly rng: Rng
  private cashMicro = START_CASH_MICRO
  private readonly orders = new Map<string, Order>()
  private readonly positions = new Map<string, Position>()
  /** YES contracts the trader bought itself and still holds: it never sells what the user bought. */
  private readonly traderHeld = new Map<string, number>()
  private readonly byId: Map<string, AccountMarket>
  private external = NO_EXTERNAL
  private readonly focus: AccountMarket[]
  private orderNo = 0
  private fillNo = 0
  private actions = 0
  private nextActionStep = 1

  constructor(
    seed: number,
    private readonly markets: AccountMarket[],
    /** Steps between account actions, at most; the real gap is drawn between half and all of it. */
    private readonly maxGapSteps: number,
  ) {
    this.rng = mulberry32(deriveSeed(seed, 0xacc0))
    this.byId = new Map(markets.map((m) => [m.id, m]))
    const pool = [...markets]
    this.focus = []
    while (this.focus.length < FOCUS && pool.length > 0) {
      this.focus.push(pool.splice(Math.floor(this.rng() * pool.length), 1)[0] as AccountMarket)
    }
    // An account that has traded before: a few holdings bought near today's prices, so it can sell from the start.
    for (const m of this.focus.slice(0, 3)) {
      const q = m.quote()
      if (!valid(q)) continue
      const avgTick = Math.min(98, Math.max(1, Math.round((q.bid + q.ask) / 2) + randInt(this.rng, -3, 3)))
      const size = 2 * pick(this.rng, LOTS)
      this.positions.set(m.id, {
        market: m,
        contract: 'YES',
        size,
        avgPrice: avgTick / 100,
        realizedPnl: 0,
        sentMark: null,
      })
      this.traderHeld.set(m.id, size)
    }
  }

  /** Let orders placed from outside hold back cash and contracts (the VoxFi dialect's user orders). */
  useExternalOrders(external: ExternalOrders): void {
    this.external = external
  }

  private reservedMicro(): number {
    let r = this.external.reservedMicro()
    for (const o of this.orders.values()) if (o.side === 'buy') r += notionalMicro(o.tick, o.size - o.filled)
    return r
  }

  /** Cash not held back by any resting buy. */
  availableMicro(): number {
    return this.cashMicro - this.reservedMicro()
  }

  balance(ts: number): BalanceMessage {
    const reserved = this.reservedMicro()
    return {
      type: 'balance',
      currency: 'USDC',
      total: usdc(this.cashMicro),
      available: usdc(this.cashMicro - reserved),
      reserved: usdc(reserved),
      ts,
    }
  }

  private orderUpdate(o: Order, ts: number): OrderMessage {
    return {
      type: 'order',
      id: o.id,
      market: o.market.id,
      event: o.market.eventId,
      side: o.side,
      price: o.tick / 100,
      size: o.size,
      filled: o.filled,
      status: o.status,
      createdAt: o.createdAt,
      ts,
    }
  }

  private positionUpdate(p: Position, ts: number): PositionMessage {
    const tick = markTick(p)
    p.sentMark = tick
    const mark = tick === null ? null : tick / 100
    const pnl = mark === null ? null : r6((mark - p.avgPrice) * p.size)
    return {
      type: 'position',
      market: p.market.id,
      event: p.market.eventId,
      ...(p.contract === 'NO' ? { contract: 'NO' as const } : {}),
      size: p.size,
      avgPrice: r6(p.avgPrice),
      mark,
      pnl,
      unrealizedPnl: pnl,
      realizedPnl: r6(p.realizedPnl),
      ts,
    }
  }

  /** The account as a fresh subscriber should first see it. */
  snapshot(ts: number): UserUpdate[] {
    const out: UserUpdate[] = [this.balance(ts)]
    for (const p of this.positions.values()) out.push(this.positionUpdate(p, ts))
    for (const o of this.orders.values()) out.push(this.orderUpdate(o, ts))
    return out
  }

  /**
   * One simulation step, after the markets stepped: `prints` are the trades they printed in it. Resting orders
   * that the market reached fill; every few steps the trader also places, cancels or re-marks.
   */
  step(stepNo: number, ts: number, prints: readonly AccountPrint[] = []): UserUpdate[] {
    const out = this.match(stepNo, ts, prints)
    if (stepNo < this.nextActionStep || this.markets.length === 0) return out
    const r = this.rng
    this.nextActionStep = stepNo + randInt(r, Math.max(1, Math.floor(this.maxGapSteps / 2)), this.maxGapSteps)
    this.actions++
    if (this.actions % 40 === 0) this.rotateFocus()
    const open = this.orders.size
    const roll = r()
    if (open < MIN_OPEN) {
      // Working fewer orders than usual: quote again at once, sometimes one order more than needed.
      for (let i = open; i < MIN_OPEN + (roll < 0.5 ? 1 : 0); i++) this.place(stepNo, ts, out)
    } else if (open < MAX_OPEN && roll < 0.55) this.place(stepNo, ts, out)
    else if (open >= MAX_OPEN || roll < 0.8) this.cancel(ts, out)
    else this.reprice(stepNo, ts, out)
    // Marks move with the books: re-send positions whose PnL changed so the account never shows stale PnL.
    const sent = new Set(
      out.flatMap((u) => (u.type === 'position' ? [positionKey(u.market, u.contract ?? 'YES')] : [])),
    )
    for (const p of this.positions.values()) {
      if (sent.has(positionKey(p.market.id, p.contract))) continue
      if (markTick(p) !== p.sentMark) out.push(this.positionUpdate(p, ts))
    }
    out.push(this.balance(ts))
    return out
  }

  private match(stepNo: number, ts: number, prints: readonly AccountPrint[]): UserUpdate[] {
    const out: UserUpdate[] = []
    if (this.orders.size === 0) return out
    const openBefore = this.orders.size
    const r = this.rng
    const printsOf = new Map<string, AccountPrint[]>()
    for (const p of prints) {
      const list = printsOf.get(p.market)
      if (list === undefined) printsOf.set(p.market, [p])
      else list.push(p)
    }
    for (const o of [...this.orders.values()]) {
      if (o.placedStep >= stepNo) continue
      const q = o.market.quote()
      const crossed = o.side === 'buy' ? q.ask <= o.tick : q.bid >= o.tick
      if (o.takerAt !== null) {
        if (stepNo < o.takerAt) continue
        o.takerAt = null
        // Marketable on arrival: it takes the touch, at its limit or better as on any venue. If the market moved
        // away meanwhile it rests as a maker.
        const touch = o.side === 'buy' ? Math.min(o.tick, q.ask) : Math.max(o.tick, q.bid)
        if (crossed) this.fill(o, o.size - o.filled, touch, 'taker', ts, out)
        continue
      }
      if (crossed) {
        // The book moved through a resting order: whoever lifted or hit the touch met this order first.
        this.fill(o, o.size - o.filled, o.tick, 'maker', ts, out)
        continue
      }
      for (const p of printsOf.get(o.market.id) ?? []) {
        if (p.side === o.side) continue
        const tick = Math.round(p.price * 100)
        const through = o.side === 'buy' ? tick < o.tick : tick > o.tick
        const left = o.size - o.filled
        if (through) this.fill(o, left, o.tick, 'maker', ts, out)
        else if (tick === o.tick && r() < QUEUE_HIT)
          this.fill(o, Math.min(left, Math.max(1, Math.round(p.size * r()))), o.tick, 'maker', ts, out)
        if (o.status === 'filled') break
      }
    }
    // A trader whose orders just filled re-quotes soon rather than waiting out the usual pause.
    if (this.orders.size < openBefore && this.orders.size < MIN_OPEN)
      this.nextActionStep = Math.min(
        this.nextActionStep,
        stepNo + randInt(r, 1, Math.max(1, Math.floor(this.maxGapSteps / 4))),
      )
    return out
  }

  /** Makers fill at their own price; `tick` differs from it only for a taker that got a better touch. */
  private fill(
    o: Order,
    size: number,
    tick: number,
    liquidity: 'maker' | 'taker',
    ts: number,
    out: UserUpdate[],
  ): void {
    if (size <= 0) return
    o.filled += size
    o.status = o.filled >= o.size ? 'filled' : 'partially_filled'
    const feeMicro = liquidity === 'taker' ? takerFeeMicro(tick, size) : 0
    const { fill, pos } = this.execute(o.id, o.market, 'YES', o.side, tick, size, feeMicro, liquidity, ts)
    const held = (this.traderHeld.get(o.market.id) ?? 0) + (o.side === 'buy' ? size : -size)
    if (held > 0) this.traderHeld.set(o.market.id, held)
    else this.traderHeld.delete(o.market.id)
    out.push(fill)
    out.push(this.orderUpdate(o, ts))
    out.push(this.positionUpdate(pos, ts))
    if (pos.size === 0) this.positions.delete(positionKey(o.market.id, 'YES'))
    if (o.status === 'filled') this.orders.delete(o.id)
    out.push(this.balance(ts))
  }

  /**
   * Cash and the position follow one execution; returns its fill message and the position after it. Sells never
   * exceed what is held and not offered elsewhere (place, sellable), so a position cannot go short.
   */
  private execute(
    orderId: string,
    market: AccountMarket,
    contract: Outcome,
    side: Side,
    tick: number,
    size: number,
    feeMicro: number,
    liquidity: 'maker' | 'taker',
    ts: number,
  ): { fill: FillMessage; pos: Position } {
    const price = tick / 100
    const key = positionKey(market.id, contract)
    let pos = this.positions.get(key)
    if (pos === undefined) {
      pos = { market, contract, size: 0, avgPrice: 0, realizedPnl: 0, sentMark: null }
      this.positions.set(key, pos)
    }
    if (side === 'buy') {
      pos.avgPrice = (pos.avgPrice * pos.size + price * size) / (pos.size + size)
      pos.size += size
      this.cashMicro -= notionalMicro(tick, size) + feeMicro
    } else {
      pos.realizedPnl += (price - pos.avgPrice) * size
      pos.size -= size
      this.cashMicro += notionalMicro(tick, size) - feeMicro
    }
    const fill: FillMessage = {
      type: 'fill',
      id: `fill-${++this.fillNo}`,
      orderId,
      market: market.id,
      event: market.eventId,
      ...(contract === 'NO' ? { contract: 'NO' as const } : {}),
      side,
      price,
      size,
      fee: usdc(feeMicro),
      liquidity,
      ts,
    }
    return { fill, pos }
  }

  /** Contracts of a market's outcome held and not yet offered by any resting sell, the trader's or external. */
  sellable(marketId: string, contract: Outcome): number {
    let size = this.positions.get(positionKey(marketId, contract))?.size ?? 0
    size -= this.external.offered(marketId, contract)
    if (contract === 'YES') size -= this.traderOffered(marketId)
    return size
  }

  private traderOffered(marketId: string): number {
    let size = 0
    for (const o of this.orders.values())
      if (o.side === 'sell' && o.market.id === marketId) size += o.size - o.filled
    return size
  }

  /** YES shares the trader may still offer: its own purchases only, of what no other sell holds. */
  private traderSellable(marketId: string): number {
    const held = this.positions.get(positionKey(marketId, 'YES'))?.size ?? 0
    const own = Math.min(held - this.external.offered(marketId, 'YES'), this.traderHeld.get(marketId) ?? 0)
    return own - this.traderOffered(marketId)
  }

  /** An external order's execution: cash, position and wallet follow; returns the updates, as a step would. */
  settle(f: ExternalFill): UserUpdate[] {
    const market = this.byId.get(f.market)
    if (market === undefined) throw new RangeError(`settle: unknown market ${f.market}`)
    if (f.side === 'sell' && f.size > (this.positions.get(positionKey(f.market, f.contract))?.size ?? 0)) {
      throw new RangeError('settle: a sell larger than the position')
    }
    const feeMicro = f.feeCents * MICRO_PER_CENT
    const { fill, pos } = this.execute(
      f.orderId,
      market,
      f.contract,
      f.side,
      f.tick,
      f.size,
      feeMicro,
      f.liquidity,
      f.ts,
    )
    const out: UserUpdate[] = [fill, this.positionUpdate(pos, f.ts)]
    if (pos.size === 0) this.positions.delete(positionKey(f.market, f.contract))
    this.clampTraderHeld(f.market)
    out.push(this.balance(f.ts))
    return out
  }

  /** What an external sell or merge took beyond the user's own purchases came out of the trader's. */
  private clampTraderHeld(marketId: string): void {
    const held = this.positions.get(positionKey(marketId, 'YES'))?.size ?? 0
    const trader = this.traderHeld.get(marketId) ?? 0
    if (trader <= held) return
    if (held > 0) this.traderHeld.set(marketId, held)
    else this.traderHeld.delete(marketId)
  }

  /**
   * Burn `quantity` YES/NO pairs of a market for R$ 1,00 each. The pairs' realized P&L (1 − both averages) is
   * booked on the YES row. The caller checks `sellable` first.
   */
  merge(marketId: string, quantity: number, ts: number): UserUpdate[] {
    const yes = this.positions.get(positionKey(marketId, 'YES'))
    const no = this.positions.get(positionKey(marketId, 'NO'))
    if (
      yes === undefined ||
      no === undefined ||
      quantity > this.sellable(marketId, 'YES') ||
      quantity > this.sellable(marketId, 'NO')
    ) {
      throw new RangeError('merge: more pairs than the account may offer')
    }
    yes.realizedPnl += (1 - yes.avgPrice - no.avgPrice) * quantity
    yes.size -= quantity
    no.size -= quantity
    this.cashMicro += quantity * 100 * MICRO_PER_CENT
    const out: UserUpdate[] = []
    for (const p of [yes, no]) {
      out.push(this.positionUpdate(p, ts))
      if (p.size === 0) this.positions.delete(positionKey(marketId, p.contract))
    }
    this.clampTraderHeld(marketId)
    out.push(this.balance(ts))
    return out
  }

  private place(stepNo: number, ts: number, out: UserUpdate[]): void {
    const r = this.rng
    const sellMarkets = [...this.positions.values()]
      .filter((p) => p.contract === 'YES' && this.traderSellable(p.market.id) >= 5 && valid(p.market.quote()))
      .map((p) => p.market)
    const buyMarkets = this.focus.filter((m) => valid(m.quote()))
    // The more inventory is held, the more the trader leans to selling it down.
    let held = 0
    for (const p of this.positions.values())
      if (p.contract === 'YES') held += Math.min(p.size, this.traderHeld.get(p.market.id) ?? 0) * p.avgPrice
    const pSell = Math.min(0.75, 0.35 + held / 2000)
    const availableMicro = this.availableMicro()
    const side: Side | null =
      sellMarkets.length > 0 && (buyMarkets.length === 0 || r() < pSell)
        ? 'sell'
        : buyMarkets.length > 0
          ? 'buy'
          : null
    if (side === null) return
    const m = pick(r, side === 'buy' ? buyMarkets : sellMarkets)
    const q = m.quote()
    const marketable = r() < 0.2
    const tick = marketable
      ? side === 'buy'
        ? q.ask
        : q.bid
      : side === 'buy'
        ? Math.max(1, q.bid - pick(r, OFFSETS))
        : Math.min(99, q.ask + pick(r, OFFSETS))
    let size: number = pick(r, LOTS)
    if (side === 'sell') {
      const can = this.traderSellable(m.id)
      // Sometimes the whole holding goes, as when a trader closes out.
      size = r() < 0.25 ? can : Math.min(size, can)
    } else {
      size = Math.min(size, Math.floor(availableMicro / notionalMicro(tick, 1)))
      if (size < 5) return
    }
    const o: Order = {
      id: `ord-${++this.orderNo}`,
      market: m,
      side,
      tick,
      size,
      filled: 0,
      status: 'open',
      createdAt: ts,
      placedStep: stepNo,
      takerAt: marketable ? stepNo + randInt(r, 1, Math.max(1, Math.floor(this.maxGapSteps / 4))) : null,
    }
    this.orders.set(o.id, o)
    out.push(this.orderUpdate(o, ts))
  }

  /** How far an order sits behind its side's touch, in ticks (0 = at the touch, negative = marketable). */
  private distance(o: Order): number {
    const q = o.market.quote()
    return o.side === 'buy' ? q.bid - o.tick : o.tick - q.ask
  }

  /**
   * Cancels the trader's open order `id` from outside (the VoxFi dialect's DELETE: the trader's orders stand for
   * the account's orders placed on the venue's site, which the account's key may cancel); null when it is not open.
   */
  cancelOrder(id: string, ts: number): UserUpdate[] | null {
    const o = this.orders.get(id)
    if (o === undefined) return null
    o.status = 'canceled'
    this.orders.delete(id)
    return [this.orderUpdate(o, ts), this.balance(ts)]
  }

  /** Traders pull what the market left behind first, otherwise their oldest order. */
  private cancel(ts: number, out: UserUpdate[]): void {
    const open = [...this.orders.values()]
    if (open.length === 0) return
    let victim = open[0] as Order
    for (const o of open) if (this.distance(o) > this.distance(victim)) victim = o
    if (this.distance(victim) < 2) victim = open[0] as Order
    victim.status = 'canceled'
    this.orders.delete(victim.id)
    out.push(this.orderUpdate(victim, ts))
  }

  /** Cancel-replace: an order left behind by the market is moved back to the touch. */
  private reprice(stepNo: number, ts: number, out: UserUpdate[]): void {
    const behind = [...this.orders.values()].filter((o) => o.takerAt === null && this.distance(o) >= 1)
    if (behind.length === 0) {
      this.place(stepNo, ts, out)
      return
    }
    const old = pick(this.rng, behind)
    const q = old.market.quote()
    if (!valid(q)) return
    old.status = 'canceled'
    this.orders.delete(old.id)
    out.push(this.orderUpdate(old, ts))
    const o: Order = {
      ...old,
      id: `ord-${++this.orderNo}`,
      tick: old.side === 'buy' ? q.bid : q.ask,
      size: old.size - old.filled,
      filled: 0,
      status: 'open',
      createdAt: ts,
      placedStep: stepNo,
    }
    this.orders.set(o.id, o)
    out.push(this.orderUpdate(o, ts))
  }

  /** Now and then the trader drops a market they are done with for another one of the listing. */
  private rotateFocus(): void {
    const idle = this.focus.findIndex(
      (m) => !this.positions.has(m.id) && ![...this.orders.values()].some((o) => o.market.id === m.id),
    )
    const others = this.markets.filter((m) => !this.focus.includes(m))
    if (idle < 0 || others.length === 0) return
    this.focus[idle] = pick(this.rng, others)
  }
}
