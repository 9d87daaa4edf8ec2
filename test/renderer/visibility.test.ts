import { beforeEach, describe, expect, it } from 'vitest'
import type { TradeView } from '../../src/shared/model'
import { startVisibility, type VisibilitySource } from '../../src/renderer/api/visibility'
import { flushBatches, queueBatch, resumedTape, TAPE_CAP, useMonitor } from '../../src/renderer/store/monitor'
import { createFakeApi } from './fake-api'

function trade(n: number, market = 'm1', receivedAt = n): TradeView {
  return { key: `t${n}`, market, price: 0.5, size: n, side: 'buy', ts: n, receivedAt }
}

class FakeDocument implements VisibilitySource {
  visibilityState = 'visible'
  readonly listeners = new Set<() => void>()
  addEventListener(_type: 'visibilitychange', listener: () => void): void {
    this.listeners.add(listener)
  }
  removeEventListener(_type: 'visibilitychange', listener: () => void): void {
    this.listeners.delete(listener)
  }
  set(state: string): void {
    this.visibilityState = state
    for (const l of [...this.listeners]) l()
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

beforeEach(() => useMonitor.getState().reset())

describe('startVisibility', () => {
  it('tells the engine at start and on every change, once per actual change, until stopped', () => {
    const api = createFakeApi()
    const doc = new FakeDocument()
    const stop = startVisibility(api, doc)
    doc.set('hidden')
    doc.set('hidden')
    doc.set('visible')
    doc.set('prerender')
    expect(api.callsOf('setVisibility')).toEqual([[true], [false], [true], [false]])
    stop()
    doc.set('visible')
    expect(doc.listeners.size).toBe(0)
    expect(api.callsOf('setVisibility')).toHaveLength(4)
  })

  it('asks nothing after a resume batch: the store folds its tapes in, the trades made while hidden in order', async () => {
    const api = createFakeApi()
    const doc = new FakeDocument()
    startVisibility(api, doc)
    // As the window's provider does (hooks/context.tsx).
    const stop = api.onBatch(queueBatch)
    api.push({ seq: 1, at: 2, trades: [trade(1), trade(2)] })
    const epoch = useMonitor.getState().tapeEpoch.m1 ?? 0
    // Hidden while trades 3..5 happen; shown again, the resume batch brings the engine's tapes.
    doc.set('hidden')
    doc.set('visible')
    api.push({
      seq: 2,
      at: 6,
      resume: true,
      tickers: [{ market: 'm1', bestBid: 0.4, bestAsk: 0.6, last: 0.5, updatedAt: 5, state: 'live' }],
      tapes: [
        { market: 'm1', trades: [trade(1), trade(2), trade(3), trade(4), trade(5)] },
        { market: 'm2', trades: [trade(7, 'm2')] },
      ],
    })
    await flush()
    expect(api.callsOf('getMarketSnapshot')).toEqual([])
    const s = useMonitor.getState()
    expect((s.trades.m1 ?? []).map((t) => t.key)).toEqual(['t1', 't2', 't3', 't4', 't5'])
    expect((s.trades.m2 ?? []).map((t) => t.key)).toEqual(['t7'])
    expect(s.tapeEpoch.m1).toBe(epoch + 1)
    // Trade 6 then arrives in its batch and is shown once.
    api.push({ seq: 3, at: 7, trades: [trade(6)] })
    expect((useMonitor.getState().trades.m1 ?? []).map((t) => t.key)).toEqual([
      't1',
      't2',
      't3',
      't4',
      't5',
      't6',
    ])
    stop()
  })

  it("takes the resume batch's candle history, so the chart spans what happened while hidden", () => {
    const history = { candles: { '1m': [], '5m': [] }, through: 't3' }
    useMonitor.getState().seedMarket('m1', { book: null, ticker: null, trades: [trade(1)], candles: null })
    const epoch = useMonitor.getState().tapeEpoch.m1 ?? 0
    queueBatch({
      seq: 2,
      at: 4,
      resume: true,
      tapes: [{ market: 'm1', trades: [trade(2), trade(3)], candles: history }],
    })
    flushBatches()
    const s = useMonitor.getState()
    expect(s.candles.m1).toBe(history)
    expect(s.tapeEpoch.m1).toBe(epoch + 1)
    expect((s.trades.m1 ?? []).map((t) => t.key)).toEqual(['t1', 't2', 't3'])
  })

  it('shows each trade once when a queued batch with trades and the resume batch are applied together', () => {
    useMonitor.getState().applyBatch({ seq: 1, at: 1, trades: [trade(1)] })
    // Both land within one frame (or while the document is still hidden): merged, then applied at once.
    queueBatch({ seq: 2, at: 2, trades: [trade(2)] })
    queueBatch({
      seq: 3,
      at: 4,
      resume: true,
      tapes: [{ market: 'm1', trades: [trade(1), trade(2), trade(3)] }],
    })
    queueBatch({ seq: 4, at: 5, trades: [trade(4)] })
    flushBatches()
    expect((useMonitor.getState().trades.m1 ?? []).map((t) => t.key)).toEqual(['t1', 't2', 't3', 't4'])
  })
})

describe("resumedTape (a tape from the engine folded into the window's)", () => {
  it('returns the tape itself when nothing is missing', () => {
    const existing = [trade(1), trade(2)]
    expect(resumedTape(existing, [trade(2)], TAPE_CAP)).toBe(existing)
    expect(resumedTape(existing, [trade(1), trade(2)], TAPE_CAP)).toBe(existing)
  })

  it('marks a hole when the snapshot does not reach back to the tape, and keeps the newest `cap`', () => {
    const existing = [trade(1), trade(2)]
    const snapshot = [trade(10), trade(11), trade(12)]
    const tape = resumedTape(existing, snapshot, 4)
    expect(tape.map((t) => t.key)).toEqual(['t2', 't10', 't11', 't12'])
    expect(tape[1]?.gapBefore).toBe(true)
    expect(snapshot[0]?.gapBefore).toBeUndefined()
    const overlapping = resumedTape(existing, [trade(2), trade(3)], 10)
    expect(overlapping.map((t) => t.key)).toEqual(['t1', 't2', 't3'])
    expect(overlapping.some((t) => t.gapBefore)).toBe(false)
  })
})
