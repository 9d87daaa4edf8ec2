import { describe, expect, it } from 'vitest'
import type { PositionRow } from '../../src/shared/account'
import { deriveAccount } from '../../src/shared/account'
import type { BookView, TickerView, TradeView } from '../../src/shared/model'
import {
  markOf,
  NO_COST_BASIS,
  NO_PRICE,
  NO_REALIZED,
  positionPnl,
  priceInputs,
  priceInputsIn,
  totalPnl,
  type PriceInputs,
} from '../../src/renderer/features/account/pnl'

const pos = (partial: Partial<PositionRow> = {}): PositionRow => ({
  market: 'm1',
  size: 100,
  avgPrice: 0.4,
  pnl: null,
  realizedPnl: null,
  updatedAt: 1,
  ...partial,
})

const inputs = (partial: Partial<PriceInputs> = {}): PriceInputs => ({
  bid: 0.54,
  ask: 0.56,
  state: 'live',
  staleReason: null,
  last: 0.52,
  ...partial,
})

const book = (partial: Partial<BookView> = {}): BookView => ({
  market: 'm1',
  state: 'live',
  staleReason: null,
  bids: [[0.54, 10]],
  asks: [[0.56, 10]],
  depth: { bids: 1, asks: 1 },
  seq: 1,
  updatedAt: 1,
  ...partial,
})

const trade = (price: number): TradeView => ({
  key: `t${price}`,
  market: 'm1',
  price,
  size: 1,
  side: 'buy',
  ts: 1,
  receivedAt: 1,
})

describe('mark', () => {
  it('is the mid of a live two-sided book', () => {
    const m = markOf(inputs())
    expect(m.source).toBe('mid')
    expect(m.price).toBeCloseTo(0.55, 10)
    expect(m.live).toBe(true)
    expect(m.reason).toBeNull()
  })

  it('falls back to the last trade when the book is stale, and says so', () => {
    const m = markOf(inputs({ state: 'stale', staleReason: 'gap' }))
    expect(m).toMatchObject({ price: 0.52, source: 'last', live: false })
    expect(m.reason).toContain('stale: gap')
    expect(m.reason).toContain('last trade')
  })

  it('treats resyncing, quiet and empty books as not live', () => {
    for (const state of ['resyncing', 'quiet', 'empty'] as const) {
      const m = markOf(inputs({ state }))
      expect(m.source).toBe('last')
      expect(m.live).toBe(false)
      expect(m.reason).toContain(state === 'empty' ? 'snapshot' : state)
    }
  })

  it('is not live when the feed cannot vouch for a live book (the engine lost), and says so', () => {
    const m = markOf(inputs(), 'Engine lost')
    expect(m).toMatchObject({ price: 0.52, source: 'last', live: false })
    expect(m.reason).toContain('book not live (engine lost)')
    expect(markOf(inputs(), null).live).toBe(true)
  })

  it('uses the last trade for a one-sided live book', () => {
    const m = markOf(inputs({ ask: null }))
    expect(m).toMatchObject({ price: 0.52, source: 'last', live: true })
    expect(m.reason).toContain('one-sided')
  })

  it('is null with a reason when the book is not live and nothing traded', () => {
    const m = markOf(inputs({ state: 'resyncing', last: null }))
    expect(m).toMatchObject({ price: null, source: null, live: false })
    expect(m.reason).toContain('resyncing')
    expect(m.reason).toContain('no trade')
  })

  it('is null with "no live price" when there is neither a book nor a trade', () => {
    const m = markOf({ bid: null, ask: null, state: null, staleReason: null, last: null })
    expect(m).toMatchObject({ price: null, source: null, live: false, reason: NO_PRICE })
  })

  it('reads the book, the ticker and the tape the way quoteOf does', () => {
    expect(priceInputs(book(), undefined, 0.5)).toEqual(inputs({ last: 0.5 }))
    const ticker: TickerView = {
      market: 'm1',
      bestBid: 0.3,
      bestAsk: 0.34,
      last: 0.31,
      updatedAt: 1,
      state: 'quiet',
    }
    expect(priceInputs(undefined, ticker, undefined)).toEqual({
      bid: 0.3,
      ask: 0.34,
      state: 'quiet',
      staleReason: null,
      last: 0.31,
    })
    expect(
      priceInputs(book({ state: 'stale', staleReason: 'reconnect' }), undefined, undefined),
    ).toMatchObject({ state: 'stale', staleReason: 'reconnect', last: null })
    const s = { books: { m1: book() }, tickers: {}, trades: { m1: [trade(0.5), trade(0.51)] } }
    expect(priceInputsIn(s, 'm1').last).toBe(0.51)
    expect(priceInputsIn(s, 'm2')).toEqual({
      bid: null,
      ask: null,
      state: null,
      staleReason: null,
      last: null,
    })
  })
})

describe('position P&L', () => {
  it('long: (mark − avg) × size, and the market value', () => {
    const r = positionPnl(pos({ size: 100, avgPrice: 0.4 }), markOf(inputs()))
    expect(r.unrealized.value).toBeCloseTo(15, 10)
    expect(r.unrealized.reason).toBeNull()
    expect(r.marketValue.value).toBeCloseTo(55, 10)
  })

  it('short: the same formula gains when the price falls', () => {
    const r = positionPnl(pos({ size: -20, avgPrice: 0.6 }), markOf(inputs()))
    expect(r.unrealized.value).toBeCloseTo(1, 10)
    expect(r.marketValue.value).toBeCloseTo(-11, 10)
    const up = positionPnl(pos({ size: -20, avgPrice: 0.5 }), markOf(inputs()))
    expect(up.unrealized.value).toBeCloseTo(-1, 10)
  })

  it('without an average price: no unrealised P&L, whatever the venue’s own pnl says', () => {
    const r = positionPnl(pos({ avgPrice: null, pnl: 3.21 }), markOf(inputs()))
    expect(r.unrealized).toEqual({ value: null, reason: NO_COST_BASIS })
    // The mark and value do not need a cost basis.
    expect(r.marketValue.value).toBeCloseTo(55, 10)
  })

  it('a stale book marks at the last trade', () => {
    const r = positionPnl(pos(), markOf(inputs({ state: 'stale', staleReason: 'gap' })))
    expect(r.mark.source).toBe('last')
    expect(r.unrealized.value).toBeCloseTo((0.52 - 0.4) * 100, 10)
  })

  it('no price at all: value and unrealised unknown, with the mark’s reason', () => {
    const r = positionPnl(pos(), markOf(inputs({ state: 'stale', staleReason: 'gap', last: null })))
    expect(r.mark.price).toBeNull()
    expect(r.unrealized.value).toBeNull()
    expect(r.unrealized.reason).toContain('stale: gap')
    expect(r.marketValue.value).toBeNull()
    expect(r.marketValue.reason).toContain('no price')
  })

  it('realised only when the venue gave it (zero included)', () => {
    expect(positionPnl(pos(), markOf(inputs())).realized).toEqual({ value: null, reason: NO_REALIZED })
    expect(positionPnl(pos({ realizedPnl: -2.5 }), markOf(inputs())).realized).toEqual({
      value: -2.5,
      reason: null,
    })
    expect(positionPnl(pos({ realizedPnl: 0 }), markOf(inputs())).realized.value).toBe(0)
  })

  it('totals sum only known values and count the rest', () => {
    const live = markOf(inputs())
    const rows = [
      positionPnl(pos({ market: 'a', size: 100, avgPrice: 0.4, realizedPnl: 1 }), live),
      positionPnl(pos({ market: 'b', size: 10, avgPrice: null, realizedPnl: 2 }), live),
      positionPnl(pos({ market: 'c', size: 10, avgPrice: 0.5 }), markOf(inputs({ state: null, last: null }))),
    ]
    const t = totalPnl(rows)
    expect(t.unrealized.value).toBeCloseTo(15, 10)
    expect(t.unrealized).toMatchObject({ known: 1, unknown: 2 })
    expect(t.realized).toEqual({ value: 3, known: 2, unknown: 1 })
    expect(t.marketValue.known).toBe(2)
    expect(t.anyCostBasis).toBe(true)
    const none = totalPnl([positionPnl(pos({ avgPrice: null }), live)])
    expect(none.unrealized).toEqual({ value: null, known: 0, unknown: 1 })
    expect(none.anyCostBasis).toBe(false)
    expect(totalPnl([]).unrealized).toEqual({ value: null, known: 0, unknown: 0 })
  })
})

describe('position fields from the user channel', () => {
  const u = (data: unknown) => ({ seq: 1, topic: 'position' as const, market: null, data, receivedAt: 5 })

  it('keeps realised P&L apart from the venue’s (unrealised) pnl', () => {
    const a = deriveAccount([
      u({ market: 'm1', size: 10, avgPrice: 0.4, pnl: 1.5, unrealizedPnl: 1.5, realizedPnl: -0.75 }),
    ])
    expect(a.positions.m1).toMatchObject({ avgPrice: 0.4, pnl: 1.5, realizedPnl: -0.75 })
    const b = deriveAccount([u({ market: 'm2', size: 5, realized_pnl: '2' })])
    expect(b.positions.m2).toMatchObject({ avgPrice: null, pnl: null, realizedPnl: 2 })
    const c = deriveAccount([u({ market: 'm3', size: 5, unrealised_pnl: 1, realised_pnl: 3 })])
    expect(c.positions.m3).toMatchObject({ pnl: 1, realizedPnl: 3 })
    const d = deriveAccount([u({ market: 'm4', size: 5 })])
    expect(d.positions.m4).toMatchObject({ avgPrice: null, pnl: null, realizedPnl: null })
  })
})
