// The one fold of view batches (src/shared/batch-merge.ts) with each caller's caps: the browser host's for a
// backed-up page socket (PAGE_MERGE_CAPS) and the renderer's frame queue (a tape's worth of trades per market, the
// inspector's frames; test/renderer/frame-queue.test.ts runs it through the queue itself).
import { describe, expect, it } from 'vitest'
import { PAGE_MERGE_CAPS } from '../../src/main/web/bridge'
import { mergeBatches, type MergeCaps } from '../../src/shared/batch-merge'
import { TAPE_TRADES, type ViewBatch } from '../../src/shared/ipc'
import type { BookDelta, BookView } from '../../src/shared/model'
import {
  alertsView,
  book,
  bookDelta,
  fired,
  frame,
  range,
  status,
  ticker,
  trade,
  userUpdate,
  workspaceView,
  accountView,
  journalEntry,
} from './batch-fixtures'

/** The renderer's caps (store/monitor.ts QUEUE_CAPS), as far as this side of the tsconfig can see them. */
const FRAME_CAPS: MergeCaps = { tradesPerMarket: TAPE_TRADES, inspector: 300 }

describe('mergeBatches', () => {
  // `Required<ViewBatch>`: a field added to ViewBatch must be set here, and (RULES in batch-merge.ts) given a
  // rule, or neither this file nor the module typechecks.
  const full: Required<ViewBatch> = {
    seq: 7,
    at: 70,
    status: status(3),
    books: [book('m1', 7)],
    bookDeltas: [bookDelta('m2', 3, 4)],
    tickers: [ticker('m1', 0.55)],
    tapes: [{ market: 'm1', trades: [trade(1), trade(2)] }],
    trades: [trade(3)],
    user: [userUpdate(1)],
    inspector: [frame(1)],
    eventsChanged: true,
    resume: true,
    alerts: alertsView(2),
    alertsFired: [fired(1)],
    workspace: workspaceView('w-new'),
    account: accountView(1),
    journal: [journalEntry(1)],
  }
  const fields = Object.keys(full) as Array<keyof ViewBatch>

  it.each([
    ['no caps', {}],
    ['the host', PAGE_MERGE_CAPS],
    ['the renderer', FRAME_CAPS],
  ])('keeps every field of a batch that sets them all, older or newer (%s)', (_, caps: MergeCaps) => {
    const asNewer = mergeBatches({ seq: 6, at: 60 }, full, caps)
    const asOlder = mergeBatches(full, { seq: 8, at: 80 }, caps)
    for (const key of fields) {
      expect(asNewer[key], key).toEqual(full[key])
      if (key !== 'seq' && key !== 'at') expect(asOlder[key], key).toEqual(full[key])
    }
    expect(Object.keys(asNewer).sort()).toEqual([...fields].sort())
    expect([asOlder.seq, asOlder.at]).toEqual([8, 80])
  })

  it('keeps the newest state per market and appends the lists in order', () => {
    const older: ViewBatch = {
      seq: 1,
      at: 1,
      status: status(1),
      books: [book('m1', 1), book('m2', 1)],
      tickers: [ticker('m1', 0.1)],
      tapes: [
        { market: 'm1', trades: [trade(1)] },
        { market: 'm2', trades: [trade(2, 'm2')] },
      ],
      trades: [trade(1), trade(2)],
      user: [userUpdate(1)],
      alerts: alertsView(1),
      alertsFired: [fired(1)],
      workspace: workspaceView('w-old'),
      eventsChanged: true,
      account: accountView(1),
      journal: [journalEntry(1)],
    }
    const newer: ViewBatch = {
      seq: 2,
      at: 2,
      books: [book('m1', 2)],
      tickers: [ticker('m1', 0.2)],
      tapes: [{ market: 'm1', trades: [trade(1), trade(5)] }],
      trades: [trade(3)],
      user: [userUpdate(2)],
      alertsFired: [fired(2), fired(3)],
      workspace: workspaceView('w-new'),
      account: accountView(2),
      journal: [journalEntry(2), journalEntry(3)],
    }
    const merged = mergeBatches(older, newer, PAGE_MERGE_CAPS)
    expect([merged.seq, merged.at]).toEqual([2, 2])
    expect(merged.status).toEqual(status(1))
    expect(merged.books).toEqual([book('m1', 2), book('m2', 1)])
    expect(merged.tickers).toEqual([ticker('m1', 0.2)])
    expect(merged.tapes?.map((t) => [t.market, t.trades.map((x) => x.key)])).toEqual([
      ['m1', ['t1', 't5']],
      ['m2', ['t2']],
    ])
    expect(merged.trades?.map((t) => t.key)).toEqual(['t1', 't2', 't3'])
    expect(merged.trades?.[0]?.gapBefore).toBeUndefined()
    expect(merged.user?.map((u) => u.seq)).toEqual([1, 2])
    expect(merged.alertsFired?.map((e) => e.id)).toEqual([1, 2, 3])
    expect(merged.alerts?.unread).toBe(1)
    expect(merged.workspace).toEqual(workspaceView('w-new'))
    expect(merged.account).toEqual(accountView(2))
    expect(merged.journal?.map((e) => e.seq)).toEqual([1, 2, 3])
    expect(merged.eventsChanged).toBe(true)
    expect(merged.resume).toBeUndefined()
  })

  it('keeps `eventsChanged` and `resume` from either batch', () => {
    const resumed: ViewBatch = { seq: 1, at: 1, resume: true, eventsChanged: true }
    const later: ViewBatch = { seq: 2, at: 2, trades: [trade(9)] }
    expect(mergeBatches(resumed, later)).toMatchObject({ resume: true, eventsChanged: true })
    expect(mergeBatches(later, resumed)).toMatchObject({ resume: true, eventsChanged: true })
    expect(mergeBatches(later, later).resume).toBeUndefined()
    expect(mergeBatches(later, later).eventsChanged).toBeUndefined()
  })

  it('keeps the stream position of the older batch when the newer is a status read (seq < 0)', () => {
    const read: ViewBatch = { seq: -1, at: 99, status: status(9) }
    const merged = mergeBatches({ seq: 4, at: 40, trades: [trade(1)] }, read)
    expect([merged.seq, merged.at]).toEqual([4, 40])
    expect(merged.status).toEqual(status(9))
    expect(mergeBatches(read, { seq: 5, at: 50 })).toMatchObject({ seq: 5, at: 50, status: status(9) })
  })

  it("the host's caps: 2000 trades in all, the first kept of each market that lost some marked as a gap", () => {
    const older: ViewBatch = {
      seq: 1,
      at: 1,
      trades: range(1, 1500).map((n) => trade(n, n % 2 ? 'm1' : 'm2')),
    }
    const newer: ViewBatch = { seq: 2, at: 2, trades: range(1501, 2100).map((n) => trade(n, 'm3')) }
    const merged = mergeBatches(older, newer, { trades: 2000 })
    expect(merged.trades).toHaveLength(2000)
    expect(merged.trades?.[0]?.key).toBe('t101')
    const gaps = merged.trades?.filter((t) => t.gapBefore === true).map((t) => t.key)
    expect(gaps).toEqual(['t101', 't102'])
    expect(mergeBatches(older, newer, PAGE_MERGE_CAPS)).toEqual(merged)
    // Within the cap nothing is dropped or marked.
    const within = mergeBatches(newer, newer, PAGE_MERGE_CAPS)
    expect(within.trades).toHaveLength(1200)
    expect(within.trades?.some((t) => t.gapBefore)).toBe(false)
  })

  it("the renderer's caps: a tape's worth per market, no gap marked (the tape shows no more), frames capped", () => {
    const older: ViewBatch = {
      seq: 1,
      at: 1,
      trades: range(1, 600).map((n) => trade(n)),
      inspector: range(1, 200).map(frame),
    }
    const newer: ViewBatch = {
      seq: 2,
      at: 2,
      trades: [trade(601, 'm2')],
      inspector: range(201, 400).map(frame),
    }
    const merged = mergeBatches(older, newer, FRAME_CAPS)
    const m1 = merged.trades?.filter((t) => t.market === 'm1') ?? []
    expect(m1).toHaveLength(TAPE_TRADES)
    expect(m1.at(-1)?.key).toBe('t600')
    expect(merged.trades?.at(-1)?.key).toBe('t601')
    expect(merged.trades?.some((t) => t.gapBefore)).toBe(false)
    expect(merged.inspector?.map((f) => f.seq)).toEqual(range(101, 400))
  })

  it.each([
    ['the host', PAGE_MERGE_CAPS],
    ['the renderer', FRAME_CAPS],
    ['the tightest caps', { tradesPerMarket: 1, trades: 1, inspector: 1 }],
  ])('never drops an account update or a fired alert (%s)', (_, caps: MergeCaps) => {
    let merged: ViewBatch = { seq: 0, at: 0 }
    for (let seq = 1; seq <= 50; seq++) {
      const batch: ViewBatch = {
        seq,
        at: seq,
        user: range(seq * 100, seq * 100 + 99).map(userUpdate),
        alertsFired: [fired(seq * 2), fired(seq * 2 + 1)],
        trades: [trade(seq)],
      }
      merged = mergeBatches(merged, batch, caps)
    }
    expect(merged.user?.map((u) => u.seq)).toEqual(range(100, 5099))
    expect(merged.alertsFired?.map((e) => e.id)).toEqual(range(2, 101))
  })

  describe('book deltas', () => {
    const whole = (version: number, size: number): BookView => ({ ...book('m1', size), version })

    it('folds a delta onto the whole view it names: that view, with the delta applied, whole', () => {
      const merged = mergeBatches(
        { seq: 1, at: 1, books: [whole(3, 1)] },
        { seq: 2, at: 2, bookDeltas: [bookDelta('m1', 3, 4, 9)] },
      )
      expect(merged.bookDeltas).toBeUndefined()
      expect(merged.books).toEqual([{ ...book('m1', 4), bids: [[0.4, 9]], asks: [[0.6, 1]], version: 4 }])
    })

    it('folds two deltas in a row into one from the first base, and a whole view replaces a delta', () => {
      const older: ViewBatch = {
        seq: 1,
        at: 1,
        bookDeltas: [{ ...bookDelta('m1', 3, 4, 9), asks: [[0.7, 2]] }],
      }
      const newer: ViewBatch = {
        seq: 2,
        at: 2,
        bookDeltas: [
          {
            ...bookDelta('m1', 4, 5, 0),
            bids: [
              [0.4, 0],
              [0.3, 1],
            ],
          },
        ],
      }
      const merged = mergeBatches(older, newer)
      expect(merged.books).toBeUndefined()
      expect(merged.bookDeltas).toEqual([
        {
          ...bookDelta('m1', 3, 5),
          bids: [
            [0.4, 0],
            [0.3, 1],
          ],
          asks: [[0.7, 2]],
        },
      ])
      expect(mergeBatches(older, { seq: 2, at: 2, books: [whole(8, 2)] })).toMatchObject({
        books: [whole(8, 2)],
      })
      expect(mergeBatches(older, { seq: 2, at: 2, books: [whole(8, 2)] }).bookDeltas).toBeUndefined()
    })

    it('passes a malformed delta on as it is, never into a whole view or another delta', () => {
      const bad = { ...bookDelta('m1', 3, 4), bids: [[0.4, -2]] } as BookDelta
      expect(
        mergeBatches({ seq: 1, at: 1, books: [whole(3, 1)] }, { seq: 2, at: 2, bookDeltas: [bad] }),
      ).toMatchObject({
        bookDeltas: [bad],
      })
      const after = bookDelta('m1', 4, 5)
      expect(
        mergeBatches({ seq: 1, at: 1, bookDeltas: [bad] }, { seq: 2, at: 2, bookDeltas: [after] }).bookDeltas,
      ).toEqual([after])
    })

    it('passes a delta that does not follow what came before on as it is, for the window to refuse', () => {
      const after = bookDelta('m1', 7, 8)
      expect(
        mergeBatches({ seq: 1, at: 1, books: [whole(3, 1)] }, { seq: 2, at: 2, bookDeltas: [after] })
          .bookDeltas,
      ).toEqual([after])
      expect(
        mergeBatches(
          { seq: 1, at: 1, bookDeltas: [bookDelta('m1', 2, 3)] },
          { seq: 2, at: 2, bookDeltas: [after] },
        ).bookDeltas,
      ).toEqual([after])
    })
  })
})
