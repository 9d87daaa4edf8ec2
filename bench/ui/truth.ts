// Ground truth for frame to pixel: a bare `ws` client on the simulator, subscribed to the window's market.
//
// Reference dialect: it records the venue's `ts` of every book seq and every trade. The engine keeps the venue `ts`
// of trades (TradeView.ts) but not of book deltas (BookView has the seq, and updatedAt is the engine's receive
// time), so a painted `book:<market>:<updatedAt>` is timed from the `ts` this client saw with the seq the page got
// with that updatedAt (bridge-tap). Every subscriber gets the same frame text, so the `ts` is the one the engine got.
//
// VoxFi's dialect: its frames carry neither a timestamp nor a sequence (docs/voxfi.md, "Market channel"), so this
// client records when each frame reached it (Date.now() in this process, the one the engine runs in): trades by
// price (in YES terms, as the engine keeps them), size and arrival, book frames by arrival. There is no seq to
// join a ladder paint with here: it is timed from the engine's receive time (BookView.updatedAt), as a trade is
// (TradeView.ts).
import WebSocket from 'ws'
import type { Dialect } from '../../src/sim/index'

export interface Truth {
  dialect: Dialect
  /** Reference: venue `ts` of a book seq (snapshot or delta) of the market. VoxFi: always undefined (no seq). */
  seqTs(seq: number): number | undefined
  /**
   * Was this trade sent? Reference: a trade with exactly this price, size and venue ts. VoxFi: a trade with this
   * price (YES terms) and size that reached this client within TRADE_MATCH_MS of `ts` (the engine's receive time).
   */
  hasTrade(price: number, size: number, ts: number): boolean
  /**
   * Messages of the market in [from, to] (epoch ms): by the venue's ts in the reference dialect, by arrival here in
   * VoxFi's. A VoxFi `update` frame (a book and a trade) counts once in each.
   */
  counts(from: number, to: number): { books: number; trades: number }
  close(): Promise<void>
}

/** VoxFi: how far apart the engine's and this client's receive times of one trade frame may be. */
const TRADE_MATCH_MS = 1_000

interface Frame {
  type?: unknown
  market?: unknown
  seq?: unknown
  ts?: unknown
  price?: unknown
  size?: unknown
}

interface VoxFrame {
  msg_type?: unknown
  market_id?: unknown
  type?: unknown
  last_trade?: { avg_price?: unknown; qty_contracts?: unknown; contract_type?: unknown; canceled?: unknown }
}

const tradeKey = (price: number, size: number, ts: number): string => `${price}|${size}|${ts}`
/** Prices as the engine keeps them: 0–1, rounded so that 0.57 from ticks and 1 − 0.43 compare equal. */
const priceKey = (price: number, size: number): string => `${price.toFixed(4)}|${size}`

export async function startTruth(wsUrl: string, market: string, dialect: Dialect): Promise<Truth> {
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false })
  const seqs = new Map<number, number>()
  const trades = new Set<string>()
  const tradeTs: number[] = []
  const bookTs: number[] = []
  /** VoxFi: arrival times of the trades of each price|size. */
  const voxTrades = new Map<string, number[]>()
  const onReference = (m: Frame): void => {
    if (m.market !== market || typeof m.ts !== 'number') return
    if (m.type === 'orderbook' && typeof m.seq === 'number') {
      seqs.set(m.seq, m.ts)
    } else if (m.type === 'trade' && typeof m.price === 'number' && typeof m.size === 'number') {
      trades.add(tradeKey(m.price, m.size, m.ts))
      tradeTs.push(m.ts)
    }
  }
  const onVoxfi = (m: VoxFrame, at: number): void => {
    if (m.market_id !== market) return
    const kind = m.msg_type
    if (kind === 'update-orderbook' || kind === 'update') bookTs.push(at)
    if (kind !== 'new-trade' && kind !== 'update') return
    const t = m.last_trade
    if (t === undefined || t.canceled === true) return
    if (typeof t.avg_price !== 'number' || typeof t.qty_contracts !== 'number') return
    // The engine prints a NO trade in YES terms: at 1 − its price (resources/adapters/voxfi.json).
    const price = t.contract_type === 'NO' ? 1 - t.avg_price / 100 : t.avg_price / 100
    const key = priceKey(price, t.qty_contracts)
    const list = voxTrades.get(key)
    if (list) list.push(at)
    else voxTrades.set(key, [at])
    tradeTs.push(at)
  }
  ws.on('message', (data) => {
    const at = Date.now()
    let m: unknown
    try {
      m = JSON.parse(String(data))
    } catch {
      return
    }
    if (typeof m !== 'object' || m === null) return
    if (dialect === 'voxfi') onVoxfi(m as VoxFrame, at)
    else onReference(m as Frame)
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  ws.on('error', () => {})
  // Reference: the first book message is the subscribe's snapshot; everything after it comes with a venue ts.
  // VoxFi: no book follows a subscribe (the engine fetches the first over REST); its ack says it took effect.
  const subscribed = new Promise<void>((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const text = String(data)
      if (dialect === 'voxfi' ? text.includes('"subscribed"') : text.includes('"orderbook"')) {
        ws.off('message', onMessage)
        resolve()
      }
    }
    ws.on('message', onMessage)
  })
  // The same subscribe message in both dialects (VoxFi's sub-unsub has this shape too).
  ws.send(JSON.stringify({ type: 'subscribe', channel: 'market', markets: [market], filter: 'all' }))
  await subscribed
  const inside = (from: number, to: number) => (ts: number) => ts >= from && ts <= to
  return {
    dialect,
    seqTs: (seq) => seqs.get(seq),
    hasTrade: (price, size, ts) => {
      if (dialect !== 'voxfi') return trades.has(tradeKey(price, size, ts))
      const list = voxTrades.get(priceKey(price, size))
      return list !== undefined && list.some((at) => Math.abs(at - ts) <= TRADE_MATCH_MS)
    },
    counts: (from, to) => {
      const within = inside(from, to)
      let books = 0
      if (dialect === 'voxfi') books = bookTs.filter(within).length
      else for (const ts of seqs.values()) if (within(ts)) books++
      return { books, trades: tradeTs.filter(within).length }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve()
        ws.once('close', () => resolve())
        ws.terminate()
      }),
  }
}
