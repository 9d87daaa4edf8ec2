import { beforeEach, describe, expect, it } from 'vitest'
import type { TradeView } from '../../src/shared/model'
import { ok } from '../../src/shared/ipc'
import { resumedTape, startVisibility, type VisibilitySource } from '../../src/renderer/api/visibility'
import { TAPE_CAP, useMonitor } from '../../src/renderer/store/monitor'
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

  it('refetches the tapes it holds after a resume batch and folds the missed trades in, in order', async () => {
    const snapshot = [trade(1), trade(2), trade(3), trade(4), trade(5), trade(6)]
    const api = createFakeApi({
      getMarketSnapshot: async (market) => {
        api.calls.push({ method: 'getMarketSnapshot', args: [market] })
        return ok({ book: null, ticker: null, trades: market === 'm1' ? snapshot : [] })
      },
    })
    const doc = new FakeDocument()
    startVisibility(api, doc)
    api.push({ seq: 1, at: 2, trades: [trade(1), trade(2)] })
    useMonitor.getState().applyBatch({ seq: 1, at: 2, trades: [trade(1), trade(2)] })
    const epoch = useMonitor.getState().tapeEpoch.m1 ?? 0
    // Hidden while trades 3..4 happen; shown again at 4.5; trade 6 is still on its way in a batch.
    const resume = {
      seq: 2,
      at: 5,
      resume: true as const,
      books: [],
      tickers: [
        { market: 'm1', bestBid: 0.4, bestAsk: 0.6, last: 0.5, updatedAt: 5, state: 'live' as const },
        { market: 'm9', bestBid: 0.4, bestAsk: 0.6, last: null, updatedAt: 5, state: 'live' as const },
      ],
      trades: [trade(5)],
    }
    useMonitor.getState().applyBatch(resume)
    api.push(resume)
    // Only the market whose tape this window holds is refetched.
    expect(api.callsOf('getMarketSnapshot')).toEqual([['m1']])
    await flush()
    const tape = useMonitor.getState().trades.m1 ?? []
    expect(tape.map((t) => t.key)).toEqual(['t1', 't2', 't3', 't4', 't5'])
    expect(useMonitor.getState().tapeEpoch.m1).toBe(epoch + 1)
    // Trade 6 then arrives in its batch and is shown once.
    useMonitor.getState().applyBatch({ seq: 3, at: 7, trades: [trade(6)] })
    expect((useMonitor.getState().trades.m1 ?? []).map((t) => t.key)).toEqual([
      't1',
      't2',
      't3',
      't4',
      't5',
      't6',
    ])
  })
})

describe('resumedTape', () => {
  it('returns the tape itself when nothing is missing', () => {
    const existing = [trade(1), trade(2)]
    expect(resumedTape(existing, [trade(2)], 10, TAPE_CAP)).toBe(existing)
    expect(resumedTape(existing, [trade(3)], 3, TAPE_CAP)).toBe(existing)
  })

  it('marks a hole when the snapshot does not reach back to the tape, and keeps the newest `cap`', () => {
    const existing = [trade(1), trade(2)]
    const snapshot = [trade(10), trade(11), trade(12)]
    const tape = resumedTape(existing, snapshot, 100, 4)
    expect(tape.map((t) => t.key)).toEqual(['t2', 't10', 't11', 't12'])
    expect(tape[1]?.gapBefore).toBe(true)
    expect(snapshot[0]?.gapBefore).toBeUndefined()
    const overlapping = resumedTape(existing, [trade(2), trade(3)], 100, 10)
    expect(overlapping.map((t) => t.key)).toEqual(['t1', 't2', 't3'])
    expect(overlapping.some((t) => t.gapBefore)).toBe(false)
  })
})
