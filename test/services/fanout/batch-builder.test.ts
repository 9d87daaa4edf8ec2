// BatchBuilder on its own: nothing queued makes no batch, a pass builds status and each ticker view once for every window, a book and its ticker travel together, and views the engine does not keep are left out.
import { describe, expect, it } from 'vitest'
import { BatchBuilder, DEFAULT_BATCH_CAPS } from '../../../src/main/services/fanout/batch-builder'
import {
  FanoutClient,
  type FanoutCounters,
  type FanoutProvider,
} from '../../../src/main/services/fanout/client'
import { book, status, ticker, trade } from '../../shared/batch-fixtures'

function rig(provider: Partial<FanoutProvider> = {}) {
  const calls = { status: 0, books: [] as string[], tickers: [] as string[] }
  // The counters the builder moves (batches and sink errors are the fan-out's).
  const counters = {} as FanoutCounters
  for (const k of ['viewsBuilt', 'bookViews', 'tickerViews', 'droppedTrades', 'droppedInspector'] as const) {
    counters[k] = 0
  }
  const builder = new BatchBuilder(
    {
      bookView: (m) => {
        calls.books.push(m)
        return m === 'no-book' ? null : book(m, 1)
      },
      ticker: (m) => {
        calls.tickers.push(m)
        return ticker(m, 0.5)
      },
      status: () => {
        calls.status++
        return status()
      },
      ...provider,
    },
    counters,
    DEFAULT_BATCH_CAPS,
  )
  const client = (id: string) => new FanoutClient(id, () => {}, 25)
  return { builder, calls, counters, client }
}

describe('BatchBuilder', () => {
  it("makes no batch when nothing is queued, and numbers a batch after the client's last", () => {
    const r = rig()
    const c = r.client('w1')
    expect(r.builder.take(c, 5)).toBeNull()
    c.seq = 7
    c.events = true
    expect(r.builder.take(c, 6)).toEqual({ seq: 8, at: 6, eventsChanged: true })
    // Taken: the flag is consumed, and the client's own seq is the fan-out's to advance.
    expect(r.builder.take(c, 7)).toBeNull()
    expect(c.seq).toBe(7)
  })

  it('builds the status once per pass for every window, and afresh after endPass', () => {
    const r = rig()
    const a = r.client('a')
    const b = r.client('b')
    a.status = b.status = true
    const first = r.builder.take(a, 1)
    const second = r.builder.take(b, 1)
    expect(second?.status).toBe(first?.status)
    expect(r.calls.status).toBe(1)
    r.builder.endPass()
    a.status = true
    r.builder.take(a, 2)
    expect(r.calls.status).toBe(2)
  })

  it('a changed book brings its ticker; a ticker view is built once per pass and shared; the dirty sets are emptied', () => {
    const r = rig()
    const a = r.client('a')
    const b = r.client('b')
    a.dirtyBooks.add('m1')
    a.dirtyTickers.add('m1')
    b.dirtyTickers.add('m1')
    const batchA = r.builder.take(a, 1)
    const batchB = r.builder.take(b, 1)
    expect(batchA?.books?.map((v) => v.market)).toEqual(['m1'])
    expect(batchA?.tickers).toHaveLength(1)
    expect(batchB?.books).toBeUndefined()
    expect(batchB?.tickers?.[0]).toBe(batchA?.tickers?.[0])
    expect(r.calls.tickers).toEqual(['m1'])
    expect(r.counters).toMatchObject({ viewsBuilt: 2, bookViews: 1, tickerViews: 1 })
    expect([a.dirtyBooks.size, a.dirtyTickers.size, b.dirtyTickers.size]).toEqual([0, 0, 0])
  })

  it('a market with no book view still sends its ticker', () => {
    const r = rig()
    const c = r.client('w1')
    c.dirtyBooks.add('no-book')
    const batch = r.builder.take(c, 1)
    expect(r.calls.books).toEqual(['no-book'])
    expect(batch?.books).toBeUndefined()
    expect(batch?.tickers?.map((t) => t.market)).toEqual(['no-book'])
  })

  it('alerts and workspace flags make no batch when the engine keeps neither; a resume without tapes keeps the trades', () => {
    const r = rig()
    const c = r.client('w1')
    c.alerts = true
    c.workspace = true
    expect(r.builder.take(c, 1)).toBeNull()
    expect([c.alerts, c.workspace]).toEqual([false, false])
    c.resume = true
    c.markets.add('m1')
    c.trades.push(trade(1, 'm1'))
    const batch = r.builder.take(c, 2)
    expect(batch).toMatchObject({ resume: true, trades: [trade(1, 'm1')] })
    expect(batch).not.toHaveProperty('tapes')
  })
})
