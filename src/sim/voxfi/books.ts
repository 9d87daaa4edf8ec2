// VoxFi's two books per market (docs.voxfi.com.br/en/websockets/market-channel): the YES book is the simulator's
// MarketBook (the very book the reference dialect streams), the NO book is a book of its own, kept consistent
// with it. A NO bid at q is economically a YES ask at 100 - q, and a NO ask at q a YES bid at 100 - q, so NO makers
// quote only behind the YES touch: every NO bid sits at or below 100 - (best YES ask) and every NO ask at or above
// 100 - (best YES bid). The NO ladder follows the YES one tick for tick (sometimes a tick further back), with its
// own sizes, its own order counts and its own trades, from its own random stream: the YES books and the demo
// account see exactly the same draws as in the reference dialect.
import type { Outcome, OrderSide } from '../../shared/voxfi-orders'
import type { MarketBook, StepOut } from '../market'
import { deriveSeed, mulberry32, randInt, type Rng } from '../rng'
import { mix } from './ids'

export type { Outcome }
export type TradeSide = OrderSide
export type BookSide = 'bids' | 'asks'

/** One print: `side` is the taker's. */
export interface VoxTrade {
  contract: Outcome
  side: TradeSide
  tick: number
  qty: number
  /** Per-market running number of prints (both outcomes), for ids. */
  no: number
}

export interface Level {
  price_ticks: number
  quantity: number
  order_count: number
}

export interface SideBook {
  outcome: Outcome
  /** Best first: bids descending, asks ascending. */
  bids: Level[]
  asks: Level[]
  spread: number | null
  last: number | null
}

const MIN_TICK = 1
const MAX_TICK = 99

/** Resting orders behind a level: a stable function of where it is and how big it is, never more than its size. */
export function orderCount(tick: number, size: number, salt: number): number {
  if (size <= 1) return size
  const most = Math.min(size, 2 + Math.floor(Math.sqrt(size) / 3))
  return 1 + (mix(salt, tick, size) % most)
}

/** The YES book's price ladder, best first, in ticks. */
function yesLadder(book: MarketBook): { bids: number[]; asks: number[] } {
  const s = book.snapshot()
  return { bids: s.bids.map(([p]) => Math.round(p * 100)), asks: s.asks.map(([p]) => Math.round(p * 100)) }
}

export class NoBook {
  private readonly bids = new Int32Array(MAX_TICK + 1)
  private readonly asks = new Int32Array(MAX_TICK + 1)
  private readonly rng: Rng
  /** NO makers sometimes quote one tick behind the YES touch (0 or 1). */
  private backBid = 0
  private backAsk = 0
  private nextTradeStep: number
  /** The mirror may be out of date although the YES ladder did not move (a back flip, a level traded away). */
  private stale = true
  last: number | null = null

  constructor(seed: number, salt: number) {
    this.rng = mulberry32(deriveSeed(seed, 0x4e4f0000 + salt))
    this.nextTradeStep = randInt(this.rng, 5, 40)
  }

  /**
   * Re-quote against the YES ladder (`yesBids` best first, `yesAsks` best first), resize now and then, and when due
   * (and `mayTrade`) print one NO trade. Returns whether any level changed and the trade, if any.
   */
  step(
    stepNo: number,
    yes: () => { bids: readonly number[]; asks: readonly number[] },
    yesMoved: boolean,
    mayTrade: boolean,
  ): { changed: boolean; trade: { side: TradeSide; tick: number; qty: number } | null } {
    const r = this.rng
    let changed = false
    if (r() < 0.01) {
      this.backBid ^= 1
      this.stale = true
    }
    if (r() < 0.01) {
      this.backAsk ^= 1
      this.stale = true
    }
    if (yesMoved || this.stale) {
      // NO bids mirror YES asks, NO asks mirror YES bids.
      const y = yes()
      changed = this.sync(this.bids, y.asks, this.backBid) || changed
      changed = this.sync(this.asks, y.bids, this.backAsk) || changed
      this.stale = false
    }
    if (r() < 0.35) {
      const side = r() < 0.5 ? this.bids : this.asks
      const present: number[] = []
      for (let t = MIN_TICK; t <= MAX_TICK; t++) if ((side[t] ?? 0) > 0) present.push(t)
      const k = Math.floor(r() * r() * present.length)
      const t = side === this.bids ? present[present.length - 1 - k] : present[k]
      if (t !== undefined) {
        side[t] = randInt(r, 20, 1800)
        changed = true
      }
    }
    let trade: { side: TradeSide; tick: number; qty: number } | null = null
    if (mayTrade && stepNo >= this.nextTradeStep) {
      this.nextTradeStep = stepNo + randInt(r, 8, 60)
      const side: TradeSide = r() < 0.5 ? 'BUY' : 'SELL'
      // A NO buyer lifts the best NO ask; a NO seller hits the best NO bid.
      const book = side === 'BUY' ? this.asks : this.bids
      const t = side === 'BUY' ? this.bestAsk() : this.bestBid()
      if (t !== null) {
        const level = book[t] ?? 0
        const qty = randInt(r, 1, Math.max(1, Math.min(level, 300)))
        book[t] = level - qty
        // An emptied level is quoted again at the next step.
        this.stale = true
        this.last = t
        trade = { side, tick: t, qty }
        changed = true
      }
    }
    return { changed, trade }
  }

  /** Make the NO side hold exactly the mirror of `yes` (best first), `back` ticks behind the YES touch. */
  private sync(side: Int32Array, yes: readonly number[], back: number): boolean {
    const r = this.rng
    const start = yes.length > back ? back : 0
    const want = new Set<number>()
    for (let i = start; i < yes.length; i++) want.add(100 - (yes[i] as number))
    let changed = false
    for (let t = MIN_TICK; t <= MAX_TICK; t++) {
      const has = (side[t] ?? 0) > 0
      if (has && !want.has(t)) {
        side[t] = 0
        changed = true
      } else if (!has && want.has(t)) {
        side[t] = randInt(r, 20, 1800)
        changed = true
      }
    }
    return changed
  }

  /** An outside taker (a VoxFi user order) takes `qty` from a level; its makers quote it again at the next step. */
  take(side: BookSide, tick: number, qty: number): void {
    const book = side === 'bids' ? this.bids : this.asks
    const level = book[tick] ?? 0
    if (!Number.isInteger(qty) || qty <= 0 || qty > level) {
      throw new RangeError(`take: ${qty} at ${tick} from a level of ${level}`)
    }
    book[tick] = level - qty
    this.stale = true
  }

  bestBid(): number | null {
    for (let t = MAX_TICK; t >= MIN_TICK; t--) if ((this.bids[t] ?? 0) > 0) return t
    return null
  }

  bestAsk(): number | null {
    for (let t = MIN_TICK; t <= MAX_TICK; t++) if ((this.asks[t] ?? 0) > 0) return t
    return null
  }

  levels(salt: number): { bids: Level[]; asks: Level[] } {
    const bids: Level[] = []
    const asks: Level[] = []
    for (let t = MAX_TICK; t >= MIN_TICK; t--) {
      const q = this.bids[t] ?? 0
      if (q > 0) bids.push({ price_ticks: t, quantity: q, order_count: orderCount(t, q, salt ^ 0x2) })
    }
    for (let t = MIN_TICK; t <= MAX_TICK; t++) {
      const q = this.asks[t] ?? 0
      if (q > 0) asks.push({ price_ticks: t, quantity: q, order_count: orderCount(t, q, salt ^ 0x3) })
    }
    return { bids, asks }
  }
}

/** The account's own resting orders at one price: their contracts left and how many they are. */
export interface OwnLevel {
  quantity: number
  orders: number
}

/**
 * The account's own resting orders (VoxFi user orders, ./trading.ts) by book and price: the part of each level the
 * venue shows that the simulator's makers do not hold.
 */
export class OwnLevels {
  private readonly sides = new Map<string, Map<number, OwnLevel>>()

  /** Add (or, negative, remove) contracts and orders at a level. */
  add(outcome: Outcome, side: BookSide, tick: number, quantity: number, orders: number): void {
    const key = `${outcome} ${side}`
    let levels = this.sides.get(key)
    if (levels === undefined) {
      levels = new Map()
      this.sides.set(key, levels)
    }
    const l = levels.get(tick) ?? { quantity: 0, orders: 0 }
    const next = { quantity: l.quantity + quantity, orders: l.orders + orders }
    if (next.quantity < 0 || next.orders < 0 || (next.quantity === 0) !== (next.orders === 0)) {
      throw new RangeError(`own level ${key} ${tick} would hold ${next.quantity} in ${next.orders} orders`)
    }
    if (next.quantity === 0) levels.delete(tick)
    else levels.set(tick, next)
  }

  get(outcome: Outcome, side: BookSide): ReadonlyMap<number, OwnLevel> | undefined {
    return this.sides.get(`${outcome} ${side}`)
  }
}

/** The simulator's levels with the account's own added, best first; the very same array when there are none. */
function withOwn(levels: Level[], own: ReadonlyMap<number, OwnLevel> | undefined, side: BookSide): Level[] {
  if (own === undefined || own.size === 0) return levels
  const byTick = new Map(levels.map((l) => [l.price_ticks, { ...l }]))
  for (const [tick, o] of own) {
    const l = byTick.get(tick)
    if (l === undefined) byTick.set(tick, { price_ticks: tick, quantity: o.quantity, order_count: o.orders })
    else {
      l.quantity += o.quantity
      l.order_count += o.orders
    }
  }
  const dir = side === 'bids' ? -1 : 1
  return [...byTick.values()].sort((a, b) => dir * (a.price_ticks - b.price_ticks))
}

/** The market-level figures of an orderbook frame (docs.voxfi.com.br/en/websockets/market-channel). */
export interface BookState {
  yes: SideBook
  no: SideBook
  marketPriceYes: number
  marketPriceNo: number
  chance: number
  volume: number
  liquidity: number
}

export interface MarketStep {
  bookChanged: boolean
  trade: VoxTrade | null
}

/** One market as VoxFi shows it: the shared YES book, its own NO book, the account's resting orders, and volume. */
export class VoxMarketState {
  readonly no: NoBook
  readonly own = new OwnLevels()
  /** Contracts traded (both outcomes): starts from a seeded history, grows with every print. */
  volume: number
  /** The shown book changed outside a step (a user order rested, took, filled or left): send it at the next one. */
  touched = false
  /** When the market was closed for trading (the closeMarket fault), null while it is open. */
  closedAt: number | null = null
  private prints = 0

  constructor(
    readonly uuid: string,
    readonly eventUuid: string,
    readonly yes: MarketBook,
    seed: number,
    readonly salt: number,
  ) {
    this.no = new NoBook(seed, salt)
    this.volume = 500 + (mix(seed, salt, 0x766f6c) % 60_000)
    this.no.step(0, () => yesLadder(yes), true, false)
  }

  /** Called once per simulation step, after the YES book stepped (`out` is what it returned). */
  step(stepNo: number, out: StepOut): MarketStep {
    const no = this.no.step(stepNo, () => yesLadder(this.yes), out.delta !== null, out.trade === null)
    let trade: VoxTrade | null = null
    if (out.trade !== null) {
      trade = {
        contract: 'YES',
        side: out.trade.side === 'buy' ? 'BUY' : 'SELL',
        tick: Math.round(out.trade.price * 100),
        qty: out.trade.size,
        no: ++this.prints,
      }
    } else if (no.trade !== null) {
      trade = { contract: 'NO', ...no.trade, no: ++this.prints }
    }
    if (trade !== null) this.volume += trade.qty
    return { bookChanged: out.delta !== null || no.changed, trade }
  }

  /** The simulator's own makers in one book, best first (the account's orders left out). */
  simBook(outcome: Outcome): Record<BookSide, Level[]> {
    if (outcome === 'NO') return this.no.levels(this.salt)
    const y = this.yes.snapshot()
    const toLevels = (levels: Array<[number, number]>, salt: number): Level[] =>
      levels.map(([p, q]) => {
        const t = Math.round(p * 100)
        return { price_ticks: t, quantity: q, order_count: orderCount(t, q, salt) }
      })
    return { bids: toLevels(y.bids, this.salt ^ 0x0), asks: toLevels(y.asks, this.salt ^ 0x1) }
  }

  /** A user order takes `qty` of the simulator's makers at one level. */
  take(outcome: Outcome, side: BookSide, tick: number, qty: number): void {
    if (outcome === 'YES') this.yes.take(side === 'asks' ? 'buy' : 'sell', tick, qty)
    else this.no.take(side, tick, qty)
    this.touched = true
  }

  /** A print outside the step (a user order's, or one that met a user order): last price and volume follow. */
  print(contract: Outcome, side: TradeSide, tick: number, qty: number): VoxTrade {
    if (contract === 'YES') this.yes.printed(tick)
    else this.no.last = tick
    this.volume += qty
    return { contract, side, tick, qty, no: ++this.prints }
  }

  /** YES market price: the last YES print, else the YES mid rounded down (docs example: bid 40, ask 41, last 40). */
  marketPriceYes(): number {
    const last = this.yes.lastPrice
    if (last !== null) return Math.round(last * 100)
    const bb = this.yes.bestBidTick()
    const ba = this.yes.bestAskTick()
    if (bb >= MIN_TICK && ba <= MAX_TICK) return Math.floor((bb + ba) / 2)
    return 50
  }

  state(): BookState {
    const shown = (outcome: Outcome): Record<BookSide, Level[]> => {
      const b = this.simBook(outcome)
      return {
        bids: withOwn(b.bids, this.own.get(outcome, 'bids'), 'bids'),
        asks: withOwn(b.asks, this.own.get(outcome, 'asks'), 'asks'),
      }
    }
    const { bids: yb, asks: ya } = shown('YES')
    const n = shown('NO')
    const spread = (bids: Level[], asks: Level[]): number | null =>
      bids[0] !== undefined && asks[0] !== undefined ? asks[0].price_ticks - bids[0].price_ticks : null
    let liquidity = 0
    for (const l of [...yb, ...ya, ...n.bids, ...n.asks]) liquidity += l.quantity
    const last = this.yes.lastPrice
    const mpy = this.marketPriceYes()
    return {
      yes: {
        outcome: 'YES',
        bids: yb,
        asks: ya,
        spread: spread(yb, ya),
        last: last === null ? null : Math.round(last * 100),
      },
      no: { outcome: 'NO', bids: n.bids, asks: n.asks, spread: spread(n.bids, n.asks), last: this.no.last },
      marketPriceYes: mpy,
      marketPriceNo: 100 - mpy,
      chance: mpy,
      volume: this.volume,
      liquidity,
    }
  }

  /** Contracts resting in both books. */
  liquidity(): number {
    return this.state().liquidity
  }
}
