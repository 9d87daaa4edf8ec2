// @vitest-environment happy-dom
// The store's frame queue: batches delivered within one frame are applied together, in one store update, on
// the next animation frame; a hidden document keeps one merged batch and applies it when shown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ALERT_HISTORY_CAP } from '../../src/shared/alerts'
import { fired, range } from '../shared/batch-fixtures'
import type { BookView, TradeView, UserUpdateView } from '../../src/shared/model'
import { mergeBatches } from '../../src/shared/batch-merge'
import {
  flushBatches,
  QUEUE_CAPS,
  queueBatch,
  queuedBatch,
  TAPE_CAP,
  USER_FEED_CAP,
  useMonitor,
} from '../../src/renderer/store/monitor'
import { account, status } from './fake-api'

function book(market: string, bid: number, seq: number): BookView {
  return {
    market,
    state: 'live',
    staleReason: null,
    bids: [[bid, 10]],
    asks: [[0.9, 12]],
    depth: { bids: 1, asks: 1 },
    seq,
    updatedAt: seq,
  }
}

function trade(market: string, key: string): TradeView {
  return { key, market, price: 0.5, size: 1, side: 'buy', ts: 1, receivedAt: 1 }
}

const user = (seq: number): UserUpdateView => ({
  seq,
  topic: 'balance',
  market: null,
  data: { currency: 'USDC', balance: 100 + seq, available: 90 },
  receivedAt: seq,
})

/** Runs the animation frames requested so far (happy-dom runs them on setImmediate). */
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))

let visibility: DocumentVisibilityState = 'visible'

beforeEach(() => {
  useMonitor.getState().reset()
  visibility = 'visible'
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
})

afterEach(() => {
  flushBatches()
  Reflect.deleteProperty(document, 'visibilityState')
})

describe('frame queue', () => {
  it('applies every batch of a frame in one store update on the next animation frame, in order', async () => {
    let updates = 0
    const unsubscribe = useMonitor.subscribe(() => updates++)
    queueBatch({ seq: 1, at: 1, status: status({ reconnects: 1 }), books: [book('m1', 0.4, 1)] })
    queueBatch({
      seq: 2,
      at: 2,
      trades: [trade('m1', 'a'), trade('m2', 'b')],
      user: [user(1)],
      account: account({ lastUpdateAt: 1 }),
    })
    queueBatch({
      seq: 3,
      at: 3,
      status: status({ reconnects: 2 }),
      books: [book('m1', 0.41, 2), book('m2', 0.2, 1)],
      trades: [trade('m1', 'c')],
      user: [user(2)],
      account: account({ lastUpdateAt: 2 }),
      eventsChanged: true,
    })
    // Nothing yet: the batches wait for the frame.
    expect(updates).toBe(0)
    expect(useMonitor.getState().lastBatchSeq).toBeNull()
    await nextFrame()
    unsubscribe()
    expect(updates).toBe(1)
    const s = useMonitor.getState()
    expect(s.lastBatchSeq).toBe(3)
    expect(s.status?.reconnects).toBe(2)
    // The newest book per market wins.
    expect(s.books.m1?.bids[0]?.[0]).toBe(0.41)
    expect(s.books.m2?.seq).toBe(1)
    // Trades and user updates are appended in arrival order.
    expect(s.trades.m1?.map((t) => t.key)).toEqual(['a', 'c'])
    expect(s.trades.m2?.map((t) => t.key)).toEqual(['b'])
    expect(s.user.map((u) => u.seq)).toEqual([1, 2])
    // The account is the engine's, whole: the newest wins.
    expect(s.account?.lastUpdateAt).toBe(2)
    expect(s.eventsVersion).toBe(1)
    expect(queuedBatch()).toBeNull()
  })

  it('a batch arriving after the frame waits for the next one', async () => {
    queueBatch({ seq: 1, at: 1, trades: [trade('m1', 'a')] })
    await nextFrame()
    queueBatch({ seq: 2, at: 2, trades: [trade('m1', 'b')] })
    expect(useMonitor.getState().trades.m1?.map((t) => t.key)).toEqual(['a'])
    await nextFrame()
    expect(useMonitor.getState().trades.m1?.map((t) => t.key)).toEqual(['a', 'b'])
  })

  it('keeps what other code changed while batches waited (the reduction runs at the frame)', async () => {
    queueBatch({ seq: 1, at: 1, trades: [trade('m1', 'b')] })
    // E.g. a tape refetched after the window was shown again.
    useMonitor.setState({ trades: { m1: [trade('m1', 'a')] } })
    await nextFrame()
    expect(useMonitor.getState().trades.m1?.map((t) => t.key)).toEqual(['a', 'b'])
  })

  it('applyBatch and seeding apply what is queued first, so nothing is lost or doubled', () => {
    const { applyBatch, seedMarket } = useMonitor.getState()
    queueBatch({ seq: 1, at: 1, trades: [trade('m1', 'b')] })
    seedMarket('m1', { book: null, ticker: null, trades: [trade('m1', 'a'), trade('m1', 'b')] })
    expect(useMonitor.getState().trades.m1?.map((t) => t.key)).toEqual(['a', 'b'])
    queueBatch({ seq: 2, at: 2, status: status({ reconnects: 5 }) })
    applyBatch({ seq: -1, at: 3, status: status({ reconnects: 6 }) })
    expect(useMonitor.getState().status?.reconnects).toBe(6)
    // A status read is not a stream batch: the stream position is the queued batch's.
    expect(useMonitor.getState().lastBatchSeq).toBe(2)
    expect(queuedBatch()).toBeNull()
  })

  it('while hidden: no frames, one merged batch of bounded size, applied when shown', async () => {
    visibility = 'hidden'
    let updates = 0
    const unsubscribe = useMonitor.subscribe(() => updates++)
    for (let i = 0; i < 3 * TAPE_CAP; i++)
      queueBatch({
        seq: i + 1,
        at: i + 1,
        status: status({ reconnects: i }),
        books: [book('m1', 0.3 + (i % 10) / 100, i + 1)],
        trades: [trade('m1', `k${i}`)],
      })
    await nextFrame()
    await new Promise((r) => setTimeout(r, 30))
    expect(updates).toBe(0)
    const waiting = queuedBatch()
    // Merged: one book per market, the newest status, at most a tape's worth of trades.
    expect(waiting?.books).toHaveLength(1)
    expect(waiting?.books?.[0]?.seq).toBe(3 * TAPE_CAP)
    expect(waiting?.status?.reconnects).toBe(3 * TAPE_CAP - 1)
    expect(waiting?.trades).toHaveLength(TAPE_CAP)
    expect(waiting?.trades?.[TAPE_CAP - 1]?.key).toBe(`k${3 * TAPE_CAP - 1}`)

    visibility = 'visible'
    document.dispatchEvent(new Event('visibilitychange'))
    unsubscribe()
    expect(updates).toBe(1)
    const s = useMonitor.getState()
    expect(s.lastBatchSeq).toBe(3 * TAPE_CAP)
    expect(s.trades.m1).toHaveLength(TAPE_CAP)
    expect(s.trades.m1?.[0]?.key).toBe(`k${2 * TAPE_CAP}`)
  })

  it('never holds more user updates than the feed: a full queue is applied at once', () => {
    visibility = 'hidden'
    for (let i = 1; i < USER_FEED_CAP; i++) queueBatch({ seq: i, at: i, user: [user(i)] })
    expect(queuedBatch()?.user).toHaveLength(USER_FEED_CAP - 1)
    queueBatch({ seq: USER_FEED_CAP, at: USER_FEED_CAP, user: [user(USER_FEED_CAP)] })
    expect(queuedBatch()).toBeNull()
    expect(useMonitor.getState().user).toHaveLength(USER_FEED_CAP)
  })

  it('while hidden, keeps every fired alert however many, and every account update', () => {
    visibility = 'hidden'
    const count = ALERT_HISTORY_CAP + 50
    for (let i = 1; i <= count; i++) queueBatch({ seq: i, at: i, alertsFired: [fired(i)], user: [user(i)] })
    expect(queuedBatch()?.alertsFired?.map((e) => e.id)).toEqual(range(1, count))
    // Account updates are applied whenever they fill the feed (above), the rest stay queued: none is lost.
    flushBatches()
    const feed = useMonitor.getState().user.map((u) => u.seq)
    expect(feed).toEqual(range(count - Math.min(count, USER_FEED_CAP) + 1, count))
  })

  it('works without animation frames at all (a timer of about one frame)', async () => {
    vi.stubGlobal('requestAnimationFrame', undefined)
    try {
      queueBatch({ seq: 1, at: 1, trades: [trade('m1', 'a')] })
      expect(useMonitor.getState().trades.m1).toBeUndefined()
      await new Promise((r) => setTimeout(r, 40))
      expect(useMonitor.getState().trades.m1?.map((t) => t.key)).toEqual(['a'])
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('mergeBatches', () => {
  it('keeps flags from either batch and the stream position of the newer', () => {
    const merged = mergeBatches(
      { seq: 4, at: 40, eventsChanged: true, trades: [trade('m1', 'a')] },
      { seq: 5, at: 50, trades: [trade('m1', 'b')] },
      QUEUE_CAPS,
    )
    expect(merged.seq).toBe(5)
    expect(merged.at).toBe(50)
    expect(merged.eventsChanged).toBe(true)
    expect(merged.trades?.map((t) => t.key)).toEqual(['a', 'b'])
  })
})
