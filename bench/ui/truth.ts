// Ground truth for frame to pixel: a bare `ws` client on the simulator, subscribed to the window's market, that
// records the venue's `ts` of every book seq and every trade. The engine keeps the venue `ts` of trades
// (TradeView.ts) but not of book deltas (BookView has the seq, and updatedAt is the engine's receive time), so a
// painted `book:<market>:<seq>` is timed from the `ts` this client saw with that seq. Every subscriber gets the
// same frame text, so the `ts` is the one the engine got.
import WebSocket from 'ws'

export interface Truth {
  /** Venue `ts` of a book seq (snapshot or delta) of the market. */
  seqTs(seq: number): number | undefined
  /** Was a trade with exactly this price, size and venue ts sent? */
  hasTrade(price: number, size: number, ts: number): boolean
  /** Messages of the market whose venue ts is in [from, to] (epoch ms): by the venue's clock, not arrival. */
  counts(from: number, to: number): { books: number; trades: number }
  close(): Promise<void>
}

interface Frame {
  type?: unknown
  market?: unknown
  seq?: unknown
  ts?: unknown
  price?: unknown
  size?: unknown
}

const tradeKey = (price: number, size: number, ts: number): string => `${price}|${size}|${ts}`

export async function startTruth(wsUrl: string, market: string): Promise<Truth> {
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false })
  const seqs = new Map<number, number>()
  const trades = new Set<string>()
  const tradeTs: number[] = []
  ws.on('message', (data) => {
    let m: Frame
    try {
      m = JSON.parse(String(data)) as Frame
    } catch {
      return
    }
    if (m.market !== market || typeof m.ts !== 'number') return
    if (m.type === 'orderbook' && typeof m.seq === 'number') {
      seqs.set(m.seq, m.ts)
    } else if (m.type === 'trade' && typeof m.price === 'number' && typeof m.size === 'number') {
      trades.add(tradeKey(m.price, m.size, m.ts))
      tradeTs.push(m.ts)
    }
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  ws.on('error', () => {})
  // The first book message is the subscribe's snapshot; everything after it comes with a venue ts.
  const subscribed = new Promise<void>((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      if (String(data).includes('"orderbook"')) {
        ws.off('message', onMessage)
        resolve()
      }
    }
    ws.on('message', onMessage)
  })
  ws.send(JSON.stringify({ type: 'subscribe', channel: 'market', markets: [market], filter: 'all' }))
  await subscribed
  return {
    seqTs: (seq) => seqs.get(seq),
    hasTrade: (price, size, ts) => trades.has(tradeKey(price, size, ts)),
    counts: (from, to) => {
      const inside = (ts: number): boolean => ts >= from && ts <= to
      let books = 0
      for (const ts of seqs.values()) if (inside(ts)) books++
      return { books, trades: tradeTs.filter(inside).length }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve()
        ws.once('close', () => resolve())
        ws.terminate()
      }),
  }
}
