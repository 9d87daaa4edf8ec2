// Paper trading (docs/trading.md): orders that rest against the live book and never reach the venue. A paper order
// fills only when a public trade prints at or through its price, never because the book merely touched it: a buy at
// L on a print at ≤ L, a sell at ≥ L, a NO order against the print's NO price (1 − p). One print's size is shared by
// the orders it reaches, best price first, then oldest. A limit order fills at its own price (a resting order gets
// its price); a market order at the print's. Paper has its own cash, positions and P&L, and works the same on a
// replay's recorded prints.
import type { BalanceRow, FillRow, PositionRow } from '../../../shared/account'
import type { Outcome } from '../../../shared/model'
import type { OrderKind, OrderOutcome, OrderSide, OrderView } from '../../../shared/trading'

/** Paper cash at the start of each engine run, in the account's money (R$). */
export const PAPER_START_CASH = 10_000

export interface PaperDeps {
  now(): number
  /** The taker fee in centavos for `quantity` contracts at `priceTicks` (what the venue would charge). */
  takerFeeCents(priceTicks: number, quantity: number): number
  /** Something changed (an order, a fill, the cash): the account view is sent again. */
  changed(): void
  /** A paper fill, for the journal and the alert rules. */
  filled?(order: OrderView, fill: FillRow): void
}

export interface PaperPlace {
  id: string
  intentId: string
  market: string
  side: OrderSide
  outcome: OrderOutcome
  kind: OrderKind
  priceTicks: number | null
  quantity: number
  clickedAt: number
}

interface Holding {
  market: string
  outcome: OrderOutcome
  contracts: number
  /** Average buy price of what is held, in ticks. */
  avgTicks: number
  /** R$ realised by sells. */
  realized: number
}

export type PaperRefusal = { code: 'venue_refused'; venueCode: 'PO3' | 'PO4'; message: string; field: string }

/** Refused as the venue would refuse it, on the ticket's quantity: the paper book has no cash or contracts for it. */
function paperRefusal(
  venueCode: PaperRefusal['venueCode'],
  message: string,
): { ok: false; error: PaperRefusal } {
  return { ok: false, error: { code: 'venue_refused', venueCode, field: 'quantity', message } }
}

const FILLS_KEPT = 200

export class PaperBroker {
  private cash = PAPER_START_CASH
  private readonly orders = new Map<string, OrderView>()
  private readonly holdings = new Map<string, Holding>()
  private fills: FillRow[] = []
  private fillNo = 0

  constructor(private readonly d: PaperDeps) {}

  /** Rests a paper order; refused as the venue would (PO3 no cash, PO4 nothing to sell), with nothing changed. */
  place(p: PaperPlace): { ok: true; order: OrderView } | { ok: false; error: PaperRefusal } {
    if (p.side === 'buy') {
      const cost = p.kind === 'limit' && p.priceTicks !== null ? (p.priceTicks * p.quantity) / 100 : 0
      if (cost > this.available()) {
        return paperRefusal(
          'PO3',
          'Not enough paper cash for this order (PO3, as the venue would say): lower the quantity or price.',
        )
      }
    } else {
      const held = this.holdings.get(holdingKey(p.market, p.outcome))?.contracts ?? 0
      if (held - this.offered(p.market, p.outcome) < p.quantity) {
        return paperRefusal(
          'PO4',
          `Not enough paper ${p.outcome} contracts to sell (PO4, as the venue would say): you hold ${held}.`,
        )
      }
    }
    const at = this.d.now()
    const order: OrderView = {
      id: p.id,
      venueId: null,
      intentId: p.intentId,
      mode: 'paper',
      origin: 'app',
      market: p.market,
      side: p.side,
      outcome: p.outcome,
      kind: p.kind,
      priceTicks: p.priceTicks,
      quantity: p.quantity,
      filled: 0,
      avgFillTicks: null,
      state: 'open',
      createdAt: p.clickedAt,
      rttMs: Math.max(0, at - p.clickedAt),
      updatedAt: at,
    }
    this.orders.set(order.id, order)
    this.d.changed()
    return { ok: true, order }
  }

  cancel(id: string): OrderView | null {
    const o = this.orders.get(id)
    if (o === undefined || (o.state !== 'open' && o.state !== 'partially_filled')) return o ?? null
    const next: OrderView = { ...o, state: 'cancelled', updatedAt: this.d.now() }
    this.orders.set(id, next)
    this.d.changed()
    return next
  }

  /** Cancels every working paper order; how many. */
  cancelAll(): number {
    let n = 0
    for (const o of [...this.orders.values()]) if (this.cancel(o.id)?.state === 'cancelled') n++
    return n
  }

  /** Merges `quantity` YES+NO pairs of a market into R$1.00 each, as the venue's Merge Contracts does. */
  merge(
    market: string,
    quantity: number,
  ):
    | { ok: true; value: { market: string; quantity: number; received: number } }
    | { ok: false; error: PaperRefusal } {
    const yes = this.holdings.get(holdingKey(market, 'YES'))
    const no = this.holdings.get(holdingKey(market, 'NO'))
    const free = (h: Holding | undefined, o: OrderOutcome): number =>
      (h?.contracts ?? 0) - this.offered(market, o)
    if (yes === undefined || no === undefined || Math.min(free(yes, 'YES'), free(no, 'NO')) < quantity) {
      return paperRefusal(
        'PO4',
        `Not enough paper YES and NO pairs to merge ${quantity} (PO4, as the venue would say).`,
      )
    }
    // Each pair pays R$1.00: what the pair cost is realised against it, on the YES side.
    yes.realized += ((100 - yes.avgTicks - no.avgTicks) * quantity) / 100
    yes.contracts -= quantity
    no.contracts -= quantity
    this.cash += quantity
    this.d.changed()
    return { ok: true, value: { market, quantity, received: quantity } }
  }

  /**
   * A public print of `market`, in YES terms (price 0–1, as the tape keeps it). Paper orders it reaches fill; returns
   * how many fills it made.
   */
  onPrint(market: string, yesPrice: number, size: number): number {
    let reached: OrderView[] = []
    for (const o of this.orders.values()) {
      if (o.market !== market || (o.state !== 'open' && o.state !== 'partially_filled')) continue
      if (reaches(o, yesPrice)) reached.push(o)
    }
    if (reached.length === 0) return 0
    // Best price first (the highest buy, the lowest sell, in the order's own outcome), then the oldest.
    reached = reached.sort((a, b) => priority(b) - priority(a) || a.createdAt - b.createdAt)
    let left = size
    let made = 0
    for (const o of reached) {
      if (left <= 0) break
      const qty = Math.min(o.quantity - o.filled, left)
      if (qty <= 0) continue
      const printTicks = Math.round((o.outcome === 'YES' ? yesPrice : 1 - yesPrice) * 100)
      const ticks = o.kind === 'limit' && o.priceTicks !== null ? o.priceTicks : printTicks
      if (!this.settle(o, qty, ticks)) continue
      left -= qty
      made++
    }
    if (made > 0) this.d.changed()
    return made
  }

  views(): OrderView[] {
    return [...this.orders.values()]
  }

  fillRows(): FillRow[] {
    return this.fills
  }

  balance(): BalanceRow {
    return {
      currency: 'BRL',
      total: round2(this.cash),
      available: round2(this.available()),
      updatedAt: this.d.now(),
    }
  }

  positions(): PositionRow[] {
    const out: PositionRow[] = []
    for (const h of this.holdings.values()) {
      if (h.contracts === 0 && h.realized === 0) continue
      const yes = h.outcome === 'YES'
      const outcome: Outcome = yes ? 'yes' : 'no'
      out.push({
        market: h.market,
        // YES terms, as every position row: NO held is a short YES position at 1 − its price.
        size: yes ? h.contracts : -h.contracts,
        avgPrice: h.contracts === 0 ? null : yes ? h.avgTicks / 100 : 1 - h.avgTicks / 100,
        pnl: null,
        realizedPnl: round2(h.realized),
        updatedAt: this.d.now(),
        outcome,
        contracts: h.contracts,
      })
    }
    return out
  }

  /** What buys that rest have set aside. */
  private available(): number {
    let reserved = 0
    for (const o of this.orders.values()) {
      if (o.side !== 'buy' || (o.state !== 'open' && o.state !== 'partially_filled')) continue
      if (o.priceTicks !== null) reserved += (o.priceTicks * (o.quantity - o.filled)) / 100
    }
    return this.cash - reserved
  }

  /** Contracts of an outcome already offered by resting paper sells. */
  private offered(market: string, outcome: OrderOutcome): number {
    let n = 0
    for (const o of this.orders.values()) {
      if (o.market !== market || o.outcome !== outcome || o.side !== 'sell') continue
      if (o.state === 'open' || o.state === 'partially_filled') n += o.quantity - o.filled
    }
    return n
  }

  private settle(o: OrderView, qty: number, ticks: number): boolean {
    const key = holdingKey(o.market, o.outcome)
    const h = this.holdings.get(key) ?? {
      market: o.market,
      outcome: o.outcome,
      contracts: 0,
      avgTicks: 0,
      realized: 0,
    }
    // A market order takes liquidity and pays the venue's taker fee; a resting limit order is a maker.
    const fee = o.kind === 'market' ? this.d.takerFeeCents(ticks, qty) / 100 : 0
    const notional = (ticks * qty) / 100
    if (o.side === 'buy') {
      if (o.kind === 'market' && notional + fee > this.available()) return false
      h.avgTicks = (h.avgTicks * h.contracts + ticks * qty) / (h.contracts + qty)
      h.contracts += qty
      this.cash -= notional + fee
    } else {
      if (h.contracts < qty) return false
      h.realized += ((ticks - h.avgTicks) * qty) / 100 - fee
      h.contracts -= qty
      this.cash += notional - fee
    }
    this.holdings.set(key, h)
    const at = this.d.now()
    const filled = o.filled + qty
    const next: OrderView = {
      ...o,
      filled,
      avgFillTicks: ((o.avgFillTicks ?? 0) * o.filled + ticks * qty) / filled,
      state: filled >= o.quantity ? 'filled' : 'partially_filled',
      updatedAt: at,
    }
    this.orders.set(o.id, next)
    const fill: FillRow = {
      key: `paper-${++this.fillNo}`,
      orderId: o.id,
      market: o.market,
      // Fill rows are in YES terms like the venue's: a NO buy is a YES sell at 1 − its price.
      side: o.outcome === 'YES' ? o.side : o.side === 'buy' ? 'sell' : 'buy',
      price: o.outcome === 'YES' ? ticks / 100 : 1 - ticks / 100,
      size: qty,
      ts: at,
      outcome: o.outcome === 'YES' ? 'yes' : 'no',
      fee: round2(fee),
      mode: 'paper',
    }
    this.fills = [fill, ...this.fills].slice(0, FILLS_KEPT)
    this.d.filled?.(next, fill)
    return true
  }
}

function holdingKey(market: string, outcome: OrderOutcome): string {
  return `${market}\u0000${outcome}`
}

/** Whether a print at `yesPrice` reaches the order: at or through its price, in its own outcome. */
function reaches(o: OrderView, yesPrice: number): boolean {
  if (o.kind === 'market' || o.priceTicks === null) return true
  const print = Math.round((o.outcome === 'YES' ? yesPrice : 1 - yesPrice) * 100)
  return o.side === 'buy' ? print <= o.priceTicks : print >= o.priceTicks
}

/** Higher is served first: a higher buy, a lower sell; market orders before any limit. */
function priority(o: OrderView): number {
  if (o.kind === 'market' || o.priceTicks === null) return 1_000
  return o.side === 'buy' ? o.priceTicks : 100 - o.priceTicks
}

function round2(x: number): number {
  return Math.round(x * 100) / 100
}
