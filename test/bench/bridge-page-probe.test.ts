// bench:windows --bridge times batches in the page with string scans of the bridge's frames instead of parsing
// them. These tests hold the scans to the text the host really sends (batchJson), so a change to that text cannot
// silently leave the bench timing nothing, or the wrong numbers.
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { batchJson } from '../../src/main/services'
import type { ViewBatch } from '../../src/shared/ipc'
import type { TickerView, TradeView } from '../../src/shared/model'
import {
  PAGE_PROBE_INIT,
  PAGE_PROBE_START,
  PAGE_PROBE_STOP,
  type PageWindow,
} from '../../bench/lib/bridge-page-probe'

const NOW = 1_800_000_000_000

/** A page: the probe installed over a WebSocket stand-in whose messages the test delivers. */
function page() {
  type Listener = (ev: { data: unknown }) => void
  const sockets: Array<{ listeners: Listener[] }> = []
  class FakeSocket {
    listeners: Listener[] = []
    constructor() {
      sockets.push(this)
    }
    addEventListener(type: string, listener: Listener): void {
      if (type === 'message') this.listeners.push(listener)
    }
  }
  const window: Record<string, unknown> = { WebSocket: FakeSocket }
  const context = { window, document: { visibilityState: 'visible' }, Date: { now: () => NOW } }
  runInNewContext(PAGE_PROBE_INIT, context)
  const Probed = window['WebSocket'] as new (url: string) => unknown
  new Probed('ws://host/bridge')
  const deliver = (text: string) => {
    for (const s of sockets) for (const l of s.listeners) l({ data: text })
  }
  return {
    deliver,
    batch: (b: ViewBatch) => deliver(`{"batch":${batchJson(b)}}`),
    start: () => runInNewContext(PAGE_PROBE_START, context) as string,
    stop: () => runInNewContext(PAGE_PROBE_STOP, context) as PageWindow,
  }
}

const trade = (n: number, receivedAt: number, ts: number): TradeView => ({
  key: `k${n}`,
  market: 'fh-0001',
  price: 0.5,
  size: 3,
  side: 'buy',
  ts,
  receivedAt,
})

const ticker: TickerView = {
  market: 'fh-0001',
  bestBid: 0.4,
  bestAsk: 0.6,
  last: null,
  updatedAt: NOW - 1,
  state: 'live',
}

describe('the bridge page probe', () => {
  it('times every trade of a batch from its receipt and its venue ts, and the batch from its emit', () => {
    const p = page()
    expect(p.start()).toBe('visible')
    p.batch({
      seq: 7,
      at: NOW - 5,
      tickers: [ticker],
      trades: [trade(1, NOW - 12, NOW - 40), trade(2, NOW - 9.5, NOW - 30)],
    })
    const w = p.stop()
    expect(w.batches).toBe(1)
    expect(w.dataAt).toEqual([NOW])
    expect(w.batchDelay).toEqual([5])
    expect(w.tradeDelay).toEqual([12, 9.5])
    expect(w.venueDelay).toEqual([40, 30])
  })

  it('counts a heartbeat as a batch but not as market data, and times no trade of a resume batch', () => {
    const p = page()
    p.start()
    p.batch({ seq: 1, at: NOW })
    p.batch({
      seq: 2,
      at: NOW,
      resume: true,
      tickers: [ticker],
      tapes: [{ market: 'fh-0001', trades: [trade(3, NOW - 60_000, NOW - 60_000)] }],
      trades: [trade(4, NOW - 1, NOW - 2)],
    })
    const w = p.stop()
    expect(w.batches).toBe(2)
    expect(w.dataAt).toEqual([NOW])
    expect(w.tradeDelay).toEqual([])
  })

  it('ignores replies to calls and everything outside the window', () => {
    const p = page()
    p.batch({ seq: 1, at: NOW, trades: [trade(5, NOW, NOW)] })
    p.start()
    p.deliver(
      JSON.stringify({ id: 3, result: { ok: true, value: { trades: [trade(6, NOW - 9, NOW - 9)] } } }),
    )
    const w = p.stop()
    p.batch({ seq: 2, at: NOW, trades: [trade(7, NOW, NOW)] })
    expect(w.batches).toBe(0)
    expect(w.tradeDelay).toEqual([])
  })
})
