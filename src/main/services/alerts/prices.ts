// The market-data side of the alerts: price rules (bid, ask, mid, spread, last) and big-trade rules judged on
// every book, ticker and trade update, right after it is applied. This runs at the feed's rate, so it is kept
// apart from the editing of rules and held to the hot-path budget (docs/alerts.md, "Cost on the hot path"): one
// map lookup for a market without rules, no allocation unless a rule fires or is held, the clock read only when
// a rule is at its level, and the text of a firing built only then, from the quote that was judged.
import { marketWord, price, quoteTitle, quoteValues, words } from '../../../shared/alert-text'
import type { AlertCondition, AlertEvent, AlertQuote } from '../../../shared/alerts'
import type { BookState, TradeView } from '../../../shared/model'
import { buildIndex, NONE, type BookRules, type RuleIndex } from './rule-index'
import {
  bookProblem,
  fmtNum,
  observeEvent,
  observeLevel,
  trustedBook,
  type Firing,
  type LevelVerdict,
  type RuleRuntime,
} from './rules'
import type { BookStore } from '../market/books'

export interface PriceDeps {
  now(): number
  books: Pick<BookStore, 'get' | 'ticker' | 'lastPrice'>
  /** The event a market belongs to (listing), undefined when unknown. */
  eventOf(market: string): string | undefined
  /** A market's display title for notification text, or null. */
  marketTitle(market: string): string | null
}

export interface PriceOutlets {
  /** A rule fired or was held: append it to the history (and, for a firing, stamp and notify). */
  record(rt: RuleRuntime, kind: AlertEvent['kind'], now: number, text: Firing): void
  /** A rule's shown state (phase, hold) changed. */
  changed(): void
  /** Judging threw; the feed must go on. */
  hotError(error: unknown): void
}

type PriceCondition = Extract<AlertCondition, { kind: 'price' }>

// Where modules are compiled to CommonJS (tsx, vitest), an imported binding is a getter on the module object;
// the per-rule loop calls these local copies so that each check is a plain call.
const observeLevelFn = observeLevel
const trustedBookFn = trustedBook

/** A book (OrderBook) or, for ticker-only markets, the ticker view. */
interface QuoteSource {
  readonly bestBid: number | null
  readonly bestAsk: number | null
  readonly state: BookState
  readonly staleReason?: string | null
}

export class PriceWatch {
  /** The service's index (it rebuilds it when the rules change); only its market-data parts are read here. */
  index: RuleIndex = buildIndex([])
  /** Every rule is paused: sides are tracked, nothing fires. Set by the service. */
  paused = false
  /**
   * Where the observation being judged came from, for the text of a firing or hold. A reference, not copied
   * numbers: storing a price in an object field allocates, and the no-fire path must not.
   */
  private readonly quote: { src: QuoteSource | null; fromTrade: boolean } = { src: null, fromTrade: false }
  /** Read by a level rule only when it is at its level: most updates need no time at all. */
  private readonly clock = (): number => this.d.now()

  constructor(
    private readonly d: PriceDeps,
    private readonly out: PriceOutlets,
  ) {}

  onBook(market: string): void {
    const entry = this.index.book.get(market)
    if (entry === undefined) return
    try {
      this.judgeBook(market, entry.rules, entry)
    } catch (error) {
      this.out.hotError(error)
    }
  }

  onTicker(market: string): void {
    const book = this.index.book.get(market)
    const last = this.index.last.get(market)
    if (book === undefined && last === undefined) return
    try {
      // With a book, the book is the source of bid/ask and onBook already judged it.
      if (book !== undefined && this.d.books.get(market) === undefined)
        this.judgeBook(market, book.rules, book)
      if (last !== undefined) {
        const price = this.d.books.lastPrice(market)
        if (price !== null) this.judgeLast(last, price, true)
      }
    } catch (error) {
      this.out.hotError(error)
    }
  }

  onTrade(trade: TradeView): void {
    const last = this.index.last.get(trade.market)
    const big = this.index.trade.get(trade.market)
    if (last === undefined && big === undefined && this.index.event.size === 0) return
    try {
      if (last !== undefined) this.judgeLast(last, trade.price, true)
      if (big !== undefined) this.judgeTrade(big, trade)
      // Read again: a `once` rule that just fired rebuilt the index.
      if (this.index.event.size > 0) {
        const event = this.d.eventOf(trade.market)
        const list = event !== undefined ? this.index.event.get(event) : undefined
        if (list !== undefined) this.judgeTrade(list, trade)
      }
    } catch (error) {
      this.out.hotError(error)
    }
  }

  /** Judge one price rule against what is known now (made, enabled, unsnoozed, resumed). */
  judgeNow(rt: RuleRuntime): void {
    const c = rt.rule.condition
    if (c.kind !== 'price') return
    if (c.subject !== 'last') {
      this.judgeBook(c.market, [rt], null)
    } else {
      const t = this.d.books.ticker(c.market)
      if (t !== null && t.last !== null) {
        this.judgeLast([rt], t.last, t.state !== 'stale' && t.state !== 'resyncing')
      }
    }
  }

  /** `seen`: the market's cache, when the whole list judges (the hot path); null for one rule judged now. */
  private judgeBook(market: string, list: readonly RuleRuntime[], seen: BookRules | null): void {
    // Ticker-only markets (no book): the venue's own best bid/ask.
    const src: QuoteSource | null = this.d.books.get(market) ?? this.d.books.ticker(market)
    if (src === null) return
    const bid = src.bestBid
    const ask = src.bestAsk
    const trusted = trustedBookFn(src.state, bid, ask)
    if (seen !== null) {
      const b = bid ?? NONE
      const a = ask ?? NONE
      if (b === seen.bid && a === seen.ask && trusted === seen.trusted) return
      seen.bid = b
      seen.ask = a
      seen.trusted = trusted
    }
    this.quote.src = src
    this.quote.fromTrade = false
    const paused = this.paused
    for (let i = 0; i < list.length; i++) {
      const rt = list[i] as RuleRuntime
      let value: number | null
      switch (rt.subject) {
        case 'bid':
          value = bid
          break
        case 'ask':
          value = ask
          break
        case 'mid':
          value = bid !== null && ask !== null ? (bid + ask) / 2 : null
          break
        case 'spread':
          value = bid !== null && ask !== null ? ask - bid : null
          break
        default:
          value = null
      }
      if (value === null) continue
      const verdict = observeLevelFn(rt, value, trusted, this.clock, paused)
      if (verdict !== null || rt.dirty) this.settleLevel(rt, verdict, value)
    }
  }

  private judgeLast(list: readonly RuleRuntime[], price: number, trusted: boolean): void {
    this.quote.src = null
    this.quote.fromTrade = true
    const paused = this.paused
    for (let i = 0; i < list.length; i++) {
      const rt = list[i] as RuleRuntime
      const verdict = observeLevelFn(rt, price, trusted, this.clock, paused)
      if (verdict !== null || rt.dirty) this.settleLevel(rt, verdict, price)
    }
  }

  /** What a level verdict leads to; off the common path (called only for a verdict or a changed row). */
  private settleLevel(rt: RuleRuntime, verdict: LevelVerdict, value: number): void {
    const now = this.d.now()
    if (verdict === 'fire') {
      const afterUntrusted = rt.sawUntrusted
      rt.sawUntrusted = false
      this.firePrice(rt, value, afterUntrusted, now)
    } else if (verdict === 'hold') {
      this.holdPrice(rt, value, now)
    }
    if (rt.dirty) {
      rt.dirty = false
      this.out.changed()
    }
  }

  private judgeTrade(list: readonly RuleRuntime[], trade: TradeView): void {
    let now = -1
    for (let i = 0; i < list.length; i++) {
      const rt = list[i] as RuleRuntime
      const c = rt.rule.condition
      if (c.kind !== 'big-trade' || trade.size < c.minSize) continue
      if (now < 0) now = this.d.now()
      if (!observeEvent(rt, now, this.paused)) continue
      const side = trade.side !== null ? `${trade.side} ` : ''
      this.out.record(rt, 'fired', now, {
        title: words`${this.named(trade.market)} — trade of ${fmtNum(trade.size)}`,
        detail: words`${side}${fmtNum(trade.size)} @ ${price(trade.price)} (at least ${fmtNum(c.minSize)}${
          c.scope === 'event' ? ` in event ${c.id}` : ''
        })`,
        value: trade.size,
        market: trade.market,
      })
    }
  }

  private firePrice(rt: RuleRuntime, value: number, afterUntrusted: boolean, now: number): void {
    const c = rt.rule.condition as PriceCondition
    const back = afterUntrusted ? ' · fired once the book was live again' : ''
    const quote = this.quoteOf(c, value)
    this.out.record(rt, 'fired', now, {
      title: quoteTitle(this.named(c.market), quote, false),
      detail: back === '' ? quoteValues(quote) : [...quoteValues(quote), back],
      value,
      market: c.market,
      quote,
    })
  }

  private holdPrice(rt: RuleRuntime, value: number, now: number): void {
    const c = rt.rule.condition as PriceCondition
    const src = this.quote.src
    const problem =
      src !== null
        ? bookProblem(src.state, src.staleReason ?? null, src.bestBid, src.bestAsk)
        : ['the market data is not live']
    rt.heldReason = problem
    const quote = this.quoteOf(c, value)
    this.out.record(rt, 'held', now, {
      title: quoteTitle(this.named(c.market), quote, true),
      detail: ['held: ', ...problem, '; waiting for it to be live again · ', ...quoteValues(quote)],
      value,
      market: c.market,
      quote,
    })
  }

  /** The numbers of the observation being judged (built only when a rule fires or is held). */
  private quoteOf(c: PriceCondition, value: number): AlertQuote {
    const src = this.quote.src
    return {
      subject: c.subject,
      op: c.op,
      level: c.value,
      value,
      bid: src?.bestBid ?? null,
      ask: src?.bestAsk ?? null,
      fromTrade: this.quote.fromTrade || src === null,
    }
  }

  private named(id: string): { market: string; name: string } {
    return marketWord(id, this.d.marketTitle(id))
  }
}
