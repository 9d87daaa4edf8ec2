import { beforeEach, describe, expect, it } from 'vitest'
import type { BookDelta, BookView, TradeView, UserUpdateView } from '../../src/shared/model'
import type { JournalEntry, OrderView } from '../../src/shared/trading'
import { JOURNAL_CAP, TAPE_CAP, useMonitor } from '../../src/renderer/store/monitor'
import { BOOK_BEHIND } from '../../src/shared/book-delta'
import { account, orderView, status } from './fake-api'

function book(market: string, bid: number, ask: number, state: BookView['state'] = 'live'): BookView {
  return {
    market,
    state,
    staleReason: null,
    bids: [[bid, 10]],
    asks: [[ask, 12]],
    depth: { bids: 1, asks: 1 },
    seq: 1,
    updatedAt: 1_000,
  }
}

/** A delta of market m1 from view `base` to `version`, with these level changes. */
function delta(base: number, version: number, changes: Pick<BookDelta, 'bids' | 'asks'>): BookDelta {
  return {
    market: 'm1',
    base,
    version,
    state: 'live',
    staleReason: null,
    depth: { bids: 1, asks: 1 },
    seq: 2,
    updatedAt: 2_000,
    ...changes,
  }
}

function trade(market: string, key: string, price = 0.5, ts = 1_000): TradeView {
  return { key, market, price, size: 1, side: 'buy', ts, receivedAt: ts }
}

const user = (seq: number): UserUpdateView => ({
  seq,
  topic: 'balance',
  market: null,
  data: { currency: 'USDC', balance: 100 + seq, available: 90 },
  receivedAt: seq,
})

beforeEach(() => useMonitor.getState().reset())

describe('monitor store', () => {
  it('applies a whole batch in exactly one store update', () => {
    let notifications = 0
    const unsub = useMonitor.subscribe(() => notifications++)
    useMonitor.getState().applyBatch({
      seq: 7,
      at: 5_000,
      status: status({ state: 'reconnecting' }),
      books: [book('m1', 0.4, 0.6), book('m2', 0.1, 0.2)],
      tickers: [{ market: 'm1', bestBid: 0.4, bestAsk: 0.6, last: 0.5, updatedAt: 1, state: 'live' }],
      trades: [trade('m1', 'a'), trade('m2', 'b'), trade('m1', 'c')],
      user: [user(1), user(2)],
      account: account({ lastUpdateAt: 4_000 }),
      inspector: [
        { seq: 1, receivedAt: 1, raw: '{}', truncated: false, classification: 'unknown', decoded: [] },
      ],
      eventsChanged: true,
    })
    unsub()
    expect(notifications).toBe(1)
    const s = useMonitor.getState()
    expect(s.status?.state).toBe('reconnecting')
    expect(Object.keys(s.books).sort()).toEqual(['m1', 'm2'])
    expect(s.tickers.m1?.last).toBe(0.5)
    expect(s.trades.m1?.map((t) => t.key)).toEqual(['a', 'c'])
    expect(s.trades.m2?.map((t) => t.key)).toEqual(['b'])
    expect(s.user).toHaveLength(2)
    expect(s.account?.lastUpdateAt).toBe(4_000)
    expect(s.inspector).toHaveLength(1)
    expect(s.eventsVersion).toBe(1)
    expect(s.lastBatchSeq).toBe(7)
  })

  it('lists an inspector frame once when the engine sends its recent frames again', () => {
    const f = (seq: number, receivedAt = seq) =>
      ({ seq, receivedAt, raw: '{}', truncated: false, classification: 'unknown', decoded: [] }) as const
    const apply = (seq: number, inspector: ReturnType<typeof f>[]) =>
      useMonitor
        .getState()
        .applyBatch({ seq, at: seq, inspector: inspector.map((x) => ({ ...x, decoded: [] })) })
    apply(1, [f(1), f(2)])
    apply(2, [f(1), f(2), f(3)])
    // A restarted engine counts from 1 again: its frame 1 is another frame.
    apply(3, [f(1, 99)])
    expect(useMonitor.getState().inspector.map((x) => `${x.seq}@${x.receivedAt}`)).toEqual([
      '1@1',
      '2@2',
      '3@3',
      '1@99',
    ])
    // A re-send that puts older frames after newer ones, then one that overlaps both: each frame once.
    apply(4, [f(0, 0)])
    apply(5, [f(2), f(3), f(1, 99), f(4, 100)])
    expect(useMonitor.getState().inspector.map((x) => `${x.seq}@${x.receivedAt}`)).toEqual([
      '1@1',
      '2@2',
      '3@3',
      '1@99',
      '0@0',
      '4@100',
    ])
  })

  it('keeps other markets’ objects identical so their components do not re-render', () => {
    const { applyBatch } = useMonitor.getState()
    applyBatch({
      seq: 1,
      at: 1,
      books: [book('m1', 0.4, 0.6), book('m2', 0.1, 0.2)],
      trades: [trade('m2', 'x')],
      account: account(),
    })
    const before = useMonitor.getState()
    applyBatch({ seq: 2, at: 2, books: [book('m1', 0.41, 0.6)], trades: [trade('m1', 'y')] })
    const after = useMonitor.getState()
    expect(after.books.m2).toBe(before.books.m2)
    expect(after.trades.m2).toBe(before.trades.m2)
    expect(after.books.m1).not.toBe(before.books.m1)
    // A batch without an account keeps the account object.
    expect(after.account).toBe(before.account)
  })

  it('applies a book delta to the view it names, keeping the side it leaves alone', () => {
    const whole: BookView = { ...book('m1', 0.4, 0.6), version: 7 }
    useMonitor.getState().applyBatch({ seq: 1, at: 1, books: [whole] })
    const changes: BookDelta['bids'] = [
      [0.45, 3],
      [0.4, 0],
      [0.3, 5],
    ]
    useMonitor.getState().applyBatch({
      seq: 2,
      at: 2,
      bookDeltas: [{ ...delta(7, 9, { bids: changes }), depth: { bids: 2, asks: 1 } }],
    })
    const held = useMonitor.getState().books.m1
    expect(held?.bids).toEqual([
      [0.45, 3],
      [0.3, 5],
    ])
    expect(held?.asks).toBe(whole.asks)
    expect(held).toMatchObject({ version: 9, seq: 2, updatedAt: 2_000, depth: { bids: 2, asks: 1 } })
    expect(useMonitor.getState().booksLost).toBe(0)
  })

  it('drops a book delta whose base is not the view held, or that is malformed, and says the books are lost', () => {
    const whole: BookView = { ...book('m1', 0.4, 0.6), version: 7 }
    useMonitor.getState().applyBatch({ seq: 1, at: 1, books: [whole] })
    const wrong = delta(6, 9, { bids: [[0.4, 3]] })
    useMonitor.getState().applyBatch({ seq: 2, at: 2, bookDeltas: [wrong] })
    // The levels shown stay as they were, but the engine has moved on: not live until a whole view comes.
    const behind = { ...whole, state: 'stale', staleReason: BOOK_BEHIND }
    expect(useMonitor.getState().books.m1).toEqual(behind)
    expect(useMonitor.getState().booksLost).toBe(1)
    // Its base is gone too: a later delta on the view it held is no longer vouched for either.
    useMonitor.getState().applyBatch({ seq: 3, at: 3, bookDeltas: [{ ...wrong, base: 7 }] })
    expect(useMonitor.getState().books.m1).toEqual(behind)
    expect(useMonitor.getState().booksLost).toBe(2)
    // A whole view starts over; a malformed delta on it is dropped all the same.
    useMonitor.getState().applyBatch({ seq: 4, at: 4, books: [whole] })
    expect(useMonitor.getState().books.m1).toBe(whole)
    const bad = delta(7, 9, { bids: [[0.4, -1]] })
    useMonitor.getState().applyBatch({ seq: 5, at: 5, bookDeltas: [bad] })
    expect(useMonitor.getState().books.m1).toEqual(behind)
    expect(useMonitor.getState().booksLost).toBe(3)
  })

  it('keeps the base a delta applies to when a market snapshot or a timeline reset replaces what is shown', () => {
    const whole: BookView = { ...book('m1', 0.4, 0.6), version: 7 }
    useMonitor.getState().applyBatch({ seq: 1, at: 1, books: [whole] })
    useMonitor
      .getState()
      .seedMarket('m1', { book: { ...book('m1', 0.41, 0.6), updatedAt: 1_500 }, ticker: null, trades: [] })
    useMonitor.getState().forgetMarkets()
    expect(useMonitor.getState().books.m1).toBeUndefined()
    useMonitor.getState().applyBatch({ seq: 2, at: 2, bookDeltas: [delta(7, 8, { asks: [[0.6, 4]] })] })
    expect(useMonitor.getState().books.m1).toMatchObject({ bids: [[0.4, 10]], asks: [[0.6, 4]], version: 8 })
    expect(useMonitor.getState().booksLost).toBe(0)
  })

  it('caps the tape and keeps the newest trades', () => {
    const trades = Array.from({ length: TAPE_CAP + 25 }, (_, i) => trade('m1', `k${i}`))
    useMonitor.getState().applyBatch({ seq: 1, at: 1, trades })
    const tape = useMonitor.getState().trades.m1 ?? []
    expect(tape).toHaveLength(TAPE_CAP)
    expect(tape[0]?.key).toBe('k25')
    expect(tape[tape.length - 1]?.key).toBe(`k${TAPE_CAP + 24}`)
  })

  it('seeds a market from a snapshot without duplicating trades that already streamed in', () => {
    const { applyBatch, seedMarket } = useMonitor.getState()
    applyBatch({
      seq: 1,
      at: 1,
      trades: [trade('m1', 'b'), trade('m1', 'c')],
      books: [{ ...book('m1', 0.4, 0.6), updatedAt: 9_000 }],
    })
    seedMarket('m1', {
      book: { ...book('m1', 0.3, 0.7), updatedAt: 5_000 },
      ticker: null,
      trades: [trade('m1', 'a'), trade('m1', 'b')],
    })
    const s = useMonitor.getState()
    expect(s.trades.m1?.map((t) => t.key)).toEqual(['a', 'b', 'c'])
    // The streamed book is newer than the snapshot's: it stays.
    expect(s.books.m1?.bids[0]?.[0]).toBe(0.4)
    expect(s.tapeEpoch.m1).toBe(1)
  })

  it('shows each trade once when the snapshot holds trades of a batch still on its way, in order', () => {
    const { applyBatch, seedMarket } = useMonitor.getState()
    applyBatch({ seq: 1, at: 1, trades: [trade('m1', 'a', 0.5, 1), trade('m1', 'b', 0.5, 2)] })
    // The engine read the snapshot after c and d were taken but before their batch reached the window, and e's
    // batch (read after the snapshot) overtook the snapshot's reply.
    applyBatch({ seq: 3, at: 3, trades: [trade('m1', 'e', 0.5, 5)] })
    const history = { candles: { '1m': [], '5m': [] }, through: 'd' }
    seedMarket('m1', {
      book: null,
      ticker: null,
      trades: ['a', 'b', 'c', 'd'].map((k, i) => trade('m1', k, 0.5, i + 1)),
      candles: history,
    })
    expect(useMonitor.getState().trades.m1?.map((t) => t.key)).toEqual(['a', 'b', 'c', 'd', 'e'])
    applyBatch({ seq: 2, at: 2, trades: [trade('m1', 'c', 0.5, 3), trade('m1', 'd', 0.5, 4)] })
    applyBatch({ seq: 4, at: 4, trades: [trade('m1', 'f', 0.5, 6)] })
    const s = useMonitor.getState()
    expect(s.trades.m1?.map((t) => t.key)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
    expect(s.candles.m1).toBe(history)
  })

  it('forgets the candle history with the markets, and when the engine holds none any more', () => {
    const { seedMarket, forgetMarkets } = useMonitor.getState()
    const history = { candles: { '1m': [], '5m': [] }, through: null }
    seedMarket('m1', { book: null, ticker: null, trades: [], candles: history })
    seedMarket('m2', { book: null, ticker: null, trades: [], candles: history })
    expect(useMonitor.getState().candles.m1).toBe(history)
    seedMarket('m1', { book: null, ticker: null, trades: [], candles: null })
    expect(useMonitor.getState().candles.m1).toBeUndefined()
    expect(useMonitor.getState().candles.m2).toBe(history)
    forgetMarkets()
    expect(useMonitor.getState().candles).toEqual({})
  })

  it('a status read outside the stream does not pose as a batch', () => {
    useMonitor.getState().applyBatch({ seq: -1, at: 1, status: status() })
    expect(useMonitor.getState().lastBatchSeq).toBeNull()
    expect(useMonitor.getState().status?.state).toBe('live')
  })

  it('seeds the user history in order; the account stays the engine’s', () => {
    const { applyBatch, seedUser } = useMonitor.getState()
    applyBatch({ seq: 1, at: 1, user: [user(3)], account: account({ lastUpdateAt: 7 }) })
    const engine = useMonitor.getState().account
    seedUser([user(1), user(2), user(3)])
    const s = useMonitor.getState()
    expect(s.user.map((u) => u.seq)).toEqual([1, 2, 3])
    // The window folds nothing of its own: the raw feed is only shown.
    expect(s.account).toBe(engine)
    expect(s.account?.balances).toEqual([])
  })
})

/** An order as the engine lists it, pending as one just sent is. */
const order = (id: string, partial: Partial<OrderView> = {}): OrderView =>
  orderView(id, { state: 'pending', ...partial })

describe('the engine’s account', () => {
  it('a getAccount reply is applied only when no batch brought an account since it was asked', () => {
    const store = useMonitor.getState()
    const asked = useMonitor.getState().accountSeq
    store.applyBatch({ seq: 1, at: 1, account: account({ lastUpdateAt: 2 }) })
    store.seedAccount({ view: account({ lastUpdateAt: 1 }) }, asked)
    expect(useMonitor.getState().account?.lastUpdateAt).toBe(2)
    // Asked after that batch: applied.
    store.seedAccount({ view: account({ lastUpdateAt: 3 }) }, useMonitor.getState().accountSeq)
    expect(useMonitor.getState().account?.lastUpdateAt).toBe(3)
  })

  it('an error is kept while there is no account, and goes when one comes', () => {
    const store = useMonitor.getState()
    store.seedAccount({ error: 'Trading is not available here.' }, useMonitor.getState().accountSeq)
    expect(useMonitor.getState().accountError).toBe('Trading is not available here.')
    store.applyBatch({ seq: 1, at: 1, account: account() })
    expect(useMonitor.getState().accountError).toBeNull()
  })

  it('a new timeline forgets the account, and a reply asked for before it is dropped', () => {
    const store = useMonitor.getState()
    store.applyBatch({ seq: 1, at: 1, account: account({ profileId: 'p-a' }) })
    const asked = useMonitor.getState().accountSeq
    store.forgetMarkets()
    expect(useMonitor.getState().account).toBeNull()
    store.seedAccount({ view: account({ profileId: 'p-a' }) }, asked)
    expect(useMonitor.getState().account).toBeNull()
  })

  it('keeps the objects of every row that did not change, so their components do not re-render', () => {
    const store = useMonitor.getState()
    store.applyBatch({ seq: 1, at: 1, account: account({ orders: [order('a'), order('b')] }) })
    const before = useMonitor.getState().account
    // The same account again, every object new (as a batch copied across IPC is): nothing changes identity.
    store.applyBatch({ seq: 2, at: 2, account: account({ orders: [order('a'), order('b')] }) })
    const same = useMonitor.getState().account
    expect(same?.orders).toBe(before?.orders)
    expect(same?.trading).toBe(before?.trading)
    // One order filled: only its row is new.
    store.applyBatch({
      seq: 3,
      at: 3,
      account: account({ orders: [order('a', { state: 'filled', filled: 10 }), order('b')] }),
    })
    const after = useMonitor.getState().account
    expect(after?.orders).not.toBe(before?.orders)
    expect(after?.orders[0]).not.toBe(before?.orders[0])
    expect(after?.orders[1]).toBe(before?.orders[1])
  })

  it('a setTrading reply shows at once, for the profile it is about', () => {
    const store = useMonitor.getState()
    store.applyBatch({ seq: 1, at: 1, account: account() })
    const trading = useMonitor.getState().account?.trading
    if (!trading) throw new Error('no trading view')
    store.applyTradingView({ ...trading, settings: { ...trading.settings, mode: 'paper' } })
    expect(useMonitor.getState().account?.trading.settings.mode).toBe('paper')
    store.applyTradingView({ ...trading, profileId: 'other', settings: { ...trading.settings, mode: 'off' } })
    expect(useMonitor.getState().account?.trading.settings.mode).toBe('paper')
  })
})

describe('the journal', () => {
  const entry = (seq: number, at = seq): JournalEntry => ({
    seq,
    at,
    profileId: 'demo',
    mode: 'live',
    action: 'place',
    outcome: 'sent',
    orderId: `o${seq}`,
    venueId: null,
    market: 'm1',
  })

  it('appends batches and merges the getJournal reply, each entry once, oldest first', () => {
    const store = useMonitor.getState()
    store.applyBatch({ seq: 1, at: 1, journal: [entry(3), entry(4)] })
    store.seedJournal([entry(1), entry(2), entry(3)])
    store.applyBatch({ seq: 2, at: 2, journal: [entry(5)] })
    expect(useMonitor.getState().journal.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5])
    // A restarted engine counts from 1 again: its entry 1 is another entry.
    store.applyBatch({ seq: 3, at: 3, journal: [entry(1, 100)] })
    expect(useMonitor.getState().journal.map((e) => `${e.seq}@${e.at}`)).toEqual([
      '1@1',
      '2@2',
      '3@3',
      '4@4',
      '5@5',
      '1@100',
    ])
  })

  it('holds the newest JOURNAL_CAP entries', () => {
    const store = useMonitor.getState()
    store.seedJournal(Array.from({ length: JOURNAL_CAP + 5 }, (_, i) => entry(i + 1)))
    const journal = useMonitor.getState().journal
    expect(journal).toHaveLength(JOURNAL_CAP)
    expect(journal[0]?.seq).toBe(6)
  })
})
