// The in-page half of `bench:windows --bridge`, as script text (this project's Node typecheck has no DOM types).
//
// PAGE_PROBE_INIT runs before the app's scripts (page.addInitScript) and wraps WebSocket so that every bridge
// socket gets a 'message' listener of its own, added in the constructor and so called before the app's: the page's
// receipt time of each batch, before the app parses or draws it. It does not parse the batch (that would double the
// page's own cost of it): it reads the batch's `at` from its head, whether it carries market data (books or book
// deltas, tickers or trades), and every trade's `receivedAt` (the engine's receipt time of the trade's frame) and
// `ts` (the venue's time, where it sends one; the simulator stamps it when it generates the trade) with string
// scans.
// Trades in a resume batch's `tapes` are old by design and are not timed.
// PAGE_PROBE_START starts the window; PAGE_PROBE_STOP ends it and returns a PageWindow.

export const PAGE_PROBE_INIT = `(() => {
  const rec = { on: false, start: 0, batches: 0, dataAt: [], batchDelay: [], tradeDelay: [], venueDelay: [] }
  Object.defineProperty(window, '__bridgeBench', { value: rec })
  const HEAD = /^\\{"batch":\\{"seq":\\d+,"at":(\\d+(?:\\.\\d+)?)/
  const Native = window.WebSocket
  class Probed extends Native {
    constructor(...args) {
      super(...args)
      this.addEventListener('message', (ev) => {
        const now = Date.now()
        const text = ev.data
        if (!rec.on || typeof text !== 'string' || !text.startsWith('{"batch":')) return
        rec.batches++
        const head = HEAD.exec(text)
        if (head) rec.batchDelay.push(now - Number(head[1]))
        if (text.includes('"books":') || text.includes('"bookDeltas":') || text.includes('"tickers":') || text.includes('"trades":')) rec.dataAt.push(now)
        if (text.includes('"tapes":')) return
        const from = text.indexOf('"trades":[')
        if (from < 0) return
        const to = text.indexOf(']', from)
        const scan = (key, into) => {
          for (let i = text.indexOf(key, from); i >= 0 && i < to; i = text.indexOf(key, i + key.length)) {
            const v = parseFloat(text.slice(i + key.length, i + key.length + 24))
            if (v > 0) into.push(now - v)
          }
        }
        scan('"receivedAt":', rec.tradeDelay)
        scan('"ts":', rec.venueDelay)
      })
    }
  }
  window.WebSocket = Probed
})()`

export const PAGE_PROBE_START = `(() => {
  const rec = window.__bridgeBench
  rec.batches = 0
  rec.dataAt = []
  rec.batchDelay = []
  rec.tradeDelay = []
  rec.venueDelay = []
  rec.start = Date.now()
  rec.on = true
  return document.visibilityState
})()`

export interface PageWindow {
  start: number
  end: number
  /** Bridge batches received in the window (heartbeats included). */
  batches: number
  /** Receipt times (Date.now()) of the batches that carried books, tickers or trades. */
  dataAt: number[]
  /** Per batch: page receipt − batch.at (the engine's emit time). */
  batchDelay: number[]
  /** Per trade: page receipt of its batch − TradeView.receivedAt (the engine's receipt of the trade's frame). */
  tradeDelay: number[]
  /** Per trade: page receipt of its batch − TradeView.ts (the venue's time; the engine's receipt where none). */
  venueDelay: number[]
  visibility: string
}

export const PAGE_PROBE_STOP = `(() => {
  const rec = window.__bridgeBench
  rec.on = false
  return {
    start: rec.start,
    end: Date.now(),
    batches: rec.batches,
    dataAt: rec.dataAt,
    batchDelay: rec.batchDelay,
    tradeDelay: rec.tradeDelay,
    venueDelay: rec.venueDelay,
    visibility: document.visibilityState,
  }
})()`
