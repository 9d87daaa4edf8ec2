// One binary market's order book and trade flow, driven step by step by its own seeded random stream.
// Prices are integer ticks of 0.01 in [1, 99]; every bid tick stays below every ask tick.
// A market that is one outcome of a mutually exclusive event is anchored: makers keep its touch within a
// tick or two of the outcome's fair value (see fair.ts), so the event's mids sum to about 1. Other markets
// wander freely.
import type { Level, Side } from '../shared/model'
import type { Catalog } from './catalog'
import { OutcomeFairs } from './fair'
import { deriveSeed, mulberry32, randInt, type Rng } from './rng'

const MIN_TICK = 1
const MAX_TICK = 99
export const MIN_LEVELS = 10
export const MAX_LEVELS = 30

const price = (tick: number): number => tick / 100
const randSize = (r: Rng): number => randInt(r, 20, 2500)

export interface TradeOut {
  id: string
  price: number
  size: number
  /** Taker (aggressor) side. */
  side: Side
}

export interface DeltaOut {
  seq: number
  bids: Level[]
  asks: Level[]
}

export interface StepOut {
  trade: TradeOut | null
  delta: DeltaOut | null
}

export interface BookSnapshot {
  seq: number
  bids: Level[]
  asks: Level[]
}

/** An outcome's fair probability in (0, 1) as of a step; called with steps that never go back. */
export type FairSource = (stepNo: number) => number

/** Where an anchored book's best bid and best ask may sit, in ticks. */
interface Band {
  fair: number
  lowBid: number
  highBid: number
  lowAsk: number
  highAsk: number
}

/**
 * Best bid strictly below the fair value and best ask strictly above it, each within two ticks of it: the mid
 * is then always less than one tick from fair, whatever the fair value's position between ticks.
 */
function bandAt(fairTicks: number): Band {
  const f = Math.min(MAX_TICK - 1, Math.max(MIN_TICK + 1, fairTicks))
  const highBid = Math.ceil(f) - 1
  const lowAsk = Math.floor(f) + 1
  const lowBid = Math.max(MIN_TICK, highBid - 1)
  const highAsk = Math.min(MAX_TICK, lowAsk + 1)
  // Where one side is squeezed against 0.01 or 0.99, narrow the other too so the mid is not biased away.
  return {
    fair: f,
    lowBid: highAsk === lowAsk ? highBid : lowBid,
    highBid,
    lowAsk,
    highAsk: lowBid === highBid ? lowAsk : highAsk,
  }
}

export class MarketBook {
  // Index = tick, value = size (0 = no level).
  private readonly bids: number[] = new Array<number>(MAX_TICK + 1).fill(0)
  private readonly asks: number[] = new Array<number>(MAX_TICK + 1).fill(0)
  private readonly rng: Rng
  private readonly bidChanged = new Set<number>()
  private readonly askChanged = new Set<number>()
  private seqNo = 0
  private skipNext = false
  private tradeNo = 0
  private nextTradeStep: number
  private last: number | null = null
  /** A side that outside takers (VoxFi's user orders) left thinner than MIN_LEVELS, refilled at the next step. */
  private depleted: { bid: number | null; ask: number | null } | null = null

  constructor(
    readonly id: string,
    readonly eventId: string,
    seed: number,
    salt: number,
    /** Present for an outcome of a mutually exclusive event: the book then follows this fair value. */
    private readonly fair?: FairSource,
  ) {
    this.rng = mulberry32(deriveSeed(seed, 0x6d6b7400 + salt))
    const r = this.rng
    if (fair !== undefined) {
      const band = bandAt(fair(0) * 100)
      const bestBid = randInt(r, band.lowBid, band.highBid)
      const bestAsk = randInt(r, band.lowAsk, band.highAsk)
      // Near 0 or 1 a side has fewer than MIN_LEVELS ticks: it then holds every tick there is.
      const bidRoom = bestBid - MIN_TICK + 1
      const askRoom = MAX_TICK - bestAsk + 1
      const bidDepth = randInt(r, Math.min(MIN_LEVELS, bidRoom), Math.min(MAX_LEVELS, bidRoom))
      const askDepth = randInt(r, Math.min(MIN_LEVELS, askRoom), Math.min(MAX_LEVELS, askRoom))
      for (let i = 0; i < bidDepth; i++) this.bids[bestBid - i] = randSize(r)
      for (let i = 0; i < askDepth; i++) this.asks[bestAsk + i] = randSize(r)
      this.nextTradeStep = randInt(r, 0, 3)
      return
    }
    const mid = randInt(r, 25, 75)
    const bestBid = mid - randInt(r, 0, 1)
    const bestAsk = mid + 1
    const bidDepth = randInt(r, MIN_LEVELS, Math.min(MAX_LEVELS, bestBid - MIN_TICK + 1))
    const askDepth = randInt(r, MIN_LEVELS, Math.min(MAX_LEVELS, MAX_TICK - bestAsk + 1))
    for (let i = 0; i < bidDepth; i++) this.bids[bestBid - i] = randSize(r)
    for (let i = 0; i < askDepth; i++) this.asks[bestAsk + i] = randSize(r)
    this.nextTradeStep = randInt(r, 0, 3)
  }

  get seq(): number {
    return this.seqNo
  }

  get lastPrice(): number | null {
    return this.last
  }

  bestBidTick(): number {
    for (let t = MAX_TICK; t >= MIN_TICK; t--) if ((this.bids[t] ?? 0) > 0) return t
    return 0
  }

  bestAskTick(): number {
    for (let t = MIN_TICK; t <= MAX_TICK; t++) if ((this.asks[t] ?? 0) > 0) return t
    return MAX_TICK + 1
  }

  private worstBidTick(): number {
    for (let t = MIN_TICK; t <= MAX_TICK; t++) if ((this.bids[t] ?? 0) > 0) return t
    return 0
  }

  private worstAskTick(): number {
    for (let t = MAX_TICK; t >= MIN_TICK; t--) if ((this.asks[t] ?? 0) > 0) return t
    return MAX_TICK + 1
  }

  private count(side: number[]): number {
    let n = 0
    for (let t = MIN_TICK; t <= MAX_TICK; t++) if ((side[t] ?? 0) > 0) n++
    return n
  }

  private setBid(t: number, size: number): void {
    this.bids[t] = size
    this.bidChanged.add(t)
  }

  private setAsk(t: number, size: number): void {
    this.asks[t] = size
    this.askChanged.add(t)
  }

  /** Full book, best first: bids descending, asks ascending. */
  snapshot(): BookSnapshot {
    const bids: Level[] = []
    const asks: Level[] = []
    for (let t = MAX_TICK; t >= MIN_TICK; t--) {
      const s = this.bids[t] ?? 0
      if (s > 0) bids.push([price(t), s])
    }
    for (let t = MIN_TICK; t <= MAX_TICK; t++) {
      const s = this.asks[t] ?? 0
      if (s > 0) asks.push([price(t), s])
    }
    return { seq: this.seqNo, bids, asks }
  }

  /** Fault: the next delta skips one sequence number. */
  skipSeq(): void {
    this.skipNext = true
  }

  private nextSeq(): number {
    this.seqNo += this.skipNext ? 2 : 1
    this.skipNext = false
    return this.seqNo
  }

  /** Fault: a delta that puts a bid at the best ask. The real book is untouched; only clients see the lie. */
  crossedDelta(): DeltaOut {
    const ask = this.bestAskTick()
    return { seq: this.nextSeq(), bids: [[price(Math.min(ask, MAX_TICK)), 100]], asks: [] }
  }

  /**
   * An outside taker (a VoxFi user order) takes `size` from the level at `tick`: a buyer from the asks, a seller
   * from the bids. The level must hold that much. The print itself is `printed`'s.
   */
  take(taker: Side, tick: number, size: number): void {
    const book = taker === 'buy' ? this.asks : this.bids
    const level = book[tick] ?? 0
    if (!Number.isInteger(size) || size <= 0 || size > level) {
      throw new RangeError(`take: ${size} at ${tick} from a level of ${level}`)
    }
    if (taker === 'buy') this.setAsk(tick, level - size)
    else this.setBid(tick, level - size)
    if (this.count(book) >= MIN_LEVELS) return
    // Where the side was swept, its makers come back behind the deepest level taken.
    this.depleted ??= { bid: null, ask: null }
    if (taker === 'buy') this.depleted.ask = Math.max(this.depleted.ask ?? tick, tick)
    else this.depleted.bid = Math.min(this.depleted.bid ?? tick, tick)
  }

  /** A trade printed outside the step (a VoxFi user order, or one that met it): the last price. */
  printed(tick: number): void {
    this.last = price(tick)
  }

  /** Makers re-quote a side that outside takers left thinner than MIN_LEVELS, behind what is left or was taken. */
  private refill(d: { bid: number | null; ask: number | null }): void {
    const r = this.rng
    if (d.ask !== null) {
      let w = this.count(this.asks) > 0 ? this.worstAskTick() : Math.max(d.ask, this.bestBidTick() + 1) - 1
      for (let n = this.count(this.asks); n < MIN_LEVELS && w < MAX_TICK; n++) this.setAsk(++w, randSize(r))
    }
    if (d.bid !== null) {
      let w = this.count(this.bids) > 0 ? this.worstBidTick() : Math.min(d.bid, this.bestAskTick() - 1) + 1
      for (let n = this.count(this.bids); n < MIN_LEVELS && w > MIN_TICK; n++) this.setBid(--w, randSize(r))
    }
  }

  /** Advance one step: maybe a trade (which always changes the book), some size changes, quote moves. */
  step(stepNo: number): StepOut {
    const r = this.rng
    if (this.depleted !== null) {
      this.refill(this.depleted)
      this.depleted = null
    }
    const band = this.fair === undefined ? null : bandAt(this.fair(stepNo) * 100)
    let trade: TradeOut | null = null
    if (stepNo >= this.nextTradeStep) {
      this.nextTradeStep = stepNo + randInt(r, 1, 7)
      trade = this.trade(band)
    }
    if (r() < 0.7) this.resize()
    if (r() < 0.25) this.resize()
    if (r() < 0.15) this.improve(band)
    if (r() < 0.05) this.extend()
    if (r() < 0.05) this.trim()
    if (band !== null) this.follow(band)
    if (this.bidChanged.size === 0 && this.askChanged.size === 0) return { trade, delta: null }
    const bids: Level[] = []
    const asks: Level[] = []
    for (const t of this.bidChanged) bids.push([price(t), this.bids[t] ?? 0])
    for (const t of this.askChanged) asks.push([price(t), this.asks[t] ?? 0])
    this.bidChanged.clear()
    this.askChanged.clear()
    return { trade, delta: { seq: this.nextSeq(), bids, asks } }
  }

  private trade(band: Band | null): TradeOut {
    const r = this.rng
    // Takers lean towards the fair value: buyers lift an ask that sits below it, sellers hit a rich bid.
    const lean =
      band === null
        ? 0
        : Math.max(-0.3, Math.min(0.3, (band.fair - (this.bestBidTick() + this.bestAskTick()) / 2) / 4))
    const side: Side = r() < 0.5 + lean ? 'buy' : 'sell'
    // A buyer lifts the best ask; a seller hits the best bid.
    const book = side === 'buy' ? this.asks : this.bids
    const t = side === 'buy' ? this.bestAskTick() : this.bestBidTick()
    const set = (tick: number, size: number): void =>
      side === 'buy' ? this.setAsk(tick, size) : this.setBid(tick, size)
    const room = side === 'buy' ? this.worstAskTick() < MAX_TICK : this.worstBidTick() > MIN_TICK
    const canRemove = this.count(book) > MIN_LEVELS || room
    let level = book[t] ?? 0
    if (!canRemove && level <= 1) {
      level += randInt(r, 50, 500)
      set(t, level)
    }
    const full = canRemove && r() < 0.3
    const size = full ? level : randInt(r, 1, Math.max(1, Math.min(level - 1, 400)))
    set(t, level - size)
    if (level - size === 0 && this.count(book) < MIN_LEVELS) {
      if (side === 'buy') this.setAsk(this.worstAskTick() + 1, randSize(r))
      else this.setBid(this.worstBidTick() - 1, randSize(r))
    }
    this.last = price(t)
    this.tradeNo++
    return { id: `${this.id}-t${this.tradeNo}`, price: price(t), size, side }
  }

  private resize(): void {
    const r = this.rng
    const bid = r() < 0.5
    const n = this.count(bid ? this.bids : this.asks)
    // Activity clusters near the top of the book.
    const k = Math.floor(r() * r() * n)
    if (bid) this.setBid(this.bestBidTick() - k, randSize(r))
    else this.setAsk(this.bestAskTick() + k, randSize(r))
  }

  private improve(band: Band | null): void {
    const r = this.rng
    const bb = this.bestBidTick()
    const ba = this.bestAskTick()
    if (ba - bb <= 1) return
    if (band !== null) {
      // Anchored: improve only within the band, never through the fair value.
      if (r() < 0.5) {
        if (bb + 1 > band.highBid) return
        this.setBid(bb + 1, randSize(r))
        if (this.count(this.bids) > MAX_LEVELS) this.setBid(this.worstBidTick(), 0)
      } else {
        if (ba - 1 < band.lowAsk) return
        this.setAsk(ba - 1, randSize(r))
        if (this.count(this.asks) > MAX_LEVELS) this.setAsk(this.worstAskTick(), 0)
      }
      return
    }
    if (r() < 0.5) {
      if (bb + 1 > MAX_TICK - MIN_LEVELS) return
      this.setBid(bb + 1, randSize(r))
      if (this.count(this.bids) > MAX_LEVELS) this.setBid(this.worstBidTick(), 0)
    } else {
      if (ba - 1 < MIN_TICK + MIN_LEVELS) return
      this.setAsk(ba - 1, randSize(r))
      if (this.count(this.asks) > MAX_LEVELS) this.setAsk(this.worstAskTick(), 0)
    }
  }

  private extend(): void {
    const r = this.rng
    if (r() < 0.5) {
      const w = this.worstBidTick()
      if (this.count(this.bids) < MAX_LEVELS && w > MIN_TICK) this.setBid(w - 1, randSize(r))
    } else {
      const w = this.worstAskTick()
      if (this.count(this.asks) < MAX_LEVELS && w < MAX_TICK) this.setAsk(w + 1, randSize(r))
    }
  }

  private trim(): void {
    const r = this.rng
    if (r() < 0.5) {
      if (this.count(this.bids) > MIN_LEVELS) this.setBid(this.worstBidTick(), 0)
    } else if (this.count(this.asks) > MIN_LEVELS) this.setAsk(this.worstAskTick(), 0)
  }

  /**
   * Makers re-quote around the fair value: quotes that moved past it are pulled, a touch that fell too far
   * behind is filled back up tick by tick (the ladder stays gap-free), and each side is kept 10–30 levels
   * deep where the price range has that many ticks.
   */
  private follow(band: Band): void {
    const r = this.rng
    // Only this re-quoting can take a side out of 10–30 levels (the other moves keep depth themselves), so the
    // level counts are paid for only when a side's touch left its band.
    const bb = this.bestBidTick()
    if (bb > band.highBid || bb < band.lowBid) {
      for (let t = bb; t > band.highBid; t--) if ((this.bids[t] ?? 0) > 0) this.setBid(t, 0)
      // After news every bid may have been pulled (best = 0): the ladder is then rebuilt from 0.01.
      for (let t = this.bestBidTick() + 1; t <= band.lowBid; t++) this.setBid(t, randSize(r))
      let n = this.count(this.bids)
      for (; n > MAX_LEVELS; n--) this.setBid(this.worstBidTick(), 0)
      for (let w = this.worstBidTick(); n < MIN_LEVELS && w > MIN_TICK; n++) this.setBid(--w, randSize(r))
    }
    const ba = this.bestAskTick()
    if (ba < band.lowAsk || ba > band.highAsk) {
      for (let t = ba; t < band.lowAsk; t++) if ((this.asks[t] ?? 0) > 0) this.setAsk(t, 0)
      for (let t = Math.min(MAX_TICK, this.bestAskTick() - 1); t >= band.highAsk; t--)
        this.setAsk(t, randSize(r))
      let n = this.count(this.asks)
      for (; n > MAX_LEVELS; n--) this.setAsk(this.worstAskTick(), 0)
      for (let w = this.worstAskTick(); n < MIN_LEVELS && w < MAX_TICK; n++) this.setAsk(++w, randSize(r))
    }
  }
}

/** One book per market; outcomes of a mutually exclusive event share one fair-value process. */
export function buildMarketBooks(catalog: Catalog, seed: number): MarketBook[] {
  const out: MarketBook[] = []
  catalog.events.forEach((e, i) => {
    const fairs = e.mutuallyExclusive ? new OutcomeFairs(seed, i, e.markets.length, e.ordered) : null
    e.markets.forEach((m, j) => {
      const fair = fairs === null ? undefined : (stepNo: number): number => fairs.fair(j, stepNo)
      out.push(new MarketBook(m.id, m.eventId, seed, m.index, fair))
    })
  })
  return out
}
