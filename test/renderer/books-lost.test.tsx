// @vitest-environment happy-dom
// A window that gets a book delta it cannot apply (its base is not the view it holds) asks the engine for its
// books whole again, by asking for its depth anew (fanout.ts setDepth), and then shows what the whole view says.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { WINDOW_BOOK_DEPTH, type ViewBatch } from '../../src/shared/ipc'
import type { BookDelta, BookView } from '../../src/shared/model'
import { useMonitor } from '../../src/renderer/store/monitor'
import { createFakeApi, type FakeApi } from './fake-api'
import { withDom } from './dom'

const dom = withDom()

const view: BookView = {
  market: 'm1',
  state: 'live',
  staleReason: null,
  bids: [[0.4, 1]],
  asks: [[0.6, 1]],
  depth: { bids: 1, asks: 1 },
  seq: 1,
  updatedAt: 1,
  version: 5,
}
const delta = (base: number): BookDelta => ({
  market: 'm1',
  base,
  version: base + 1,
  state: 'live',
  staleReason: null,
  depth: { bids: 1, asks: 1 },
  seq: 2,
  updatedAt: 2,
  bids: [[0.4, 7]],
})

async function push(api: FakeApi, batch: Omit<ViewBatch, 'seq' | 'at'>, seq: number): Promise<void> {
  await act(async () => api.push({ seq, at: seq, ...batch }))
  // Batches are applied on the next animation frame.
  await act(async () => new Promise<void>((r) => setTimeout(r, 30)))
}

describe('a book delta that does not fit', () => {
  it('asks for the books whole once, and takes the whole view that comes', async () => {
    const api = createFakeApi()
    await act(async () => {
      dom.root.render(<ServicesProvider api={api}>{null}</ServicesProvider>)
    })
    await push(api, { books: [view] }, 1)
    await push(api, { bookDeltas: [delta(5)] }, 2)
    expect(useMonitor.getState().books.m1?.bids).toEqual([[0.4, 7]])
    expect(api.callsOf('setBookDepth')).toEqual([])
    await push(api, { bookDeltas: [delta(9)] }, 3)
    expect(api.callsOf('setBookDepth')).toEqual([[WINDOW_BOOK_DEPTH]])
    expect(useMonitor.getState().books.m1?.bids).toEqual([[0.4, 7]])
    await push(api, { books: [{ ...view, version: 12, bids: [[0.4, 3]] }] }, 4)
    await push(api, { bookDeltas: [delta(12)] }, 5)
    expect(useMonitor.getState().books.m1?.bids).toEqual([[0.4, 7]])
    expect(api.callsOf('setBookDepth')).toHaveLength(1)
  })
})
