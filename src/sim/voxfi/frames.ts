// VoxFi's wire shapes, field for field as docs.voxfi.com.br shows them:
//   /en/websockets/market-channel, /playground/ws/market   update-orderbook, new-trade, update
//   /en/websockets/event-channel, /playground/ws/event     the same frames, for every market of the event
//   /en/websockets/user-channel, /playground/ws/user       order-info (order.filled) and the order-type shape
//   /en/websockets/sub-unsub, /playground/ws/*             subscribed / unsubscribed acks
//   /playground/data/get-market-orderbook-snapshot         GET /data/markets/{id}/orderbook
import type { OrderType } from '../../shared/voxfi-orders'
import type { BookState, Level, Outcome, SideBook, TradeSide, VoxTrade } from './books'
import { mix } from './ids'

export type Channel = 'market' | 'event' | 'user'

export function ack(
  type: 'subscribed' | 'unsubscribed',
  channel: Channel,
  markets: string[] | null,
  events: string[] | null,
): string {
  return JSON.stringify({ type, channel, status: 'ok', markets, events })
}

interface WsSide {
  outcome: Outcome
  bids: Level[]
  asks: Level[]
  spread: number | null
  last_transaction: number | null
}

export interface WsOrderbook {
  yes_orderbook: WsSide
  no_orderbook: WsSide
  market_price_yes: number
  market_price_no: number
  chance: number
  volume: number
  liquidity: number
  spread_yes: number | null
  spread_no: number | null
}

const wsSide = (s: SideBook): WsSide => ({
  outcome: s.outcome,
  bids: s.bids,
  asks: s.asks,
  spread: s.spread,
  last_transaction: s.last,
})

/** The `orderbook` object of update-orderbook and update frames: both whole books. */
export function wsOrderbook(b: BookState): WsOrderbook {
  return {
    yes_orderbook: wsSide(b.yes),
    no_orderbook: wsSide(b.no),
    market_price_yes: b.marketPriceYes,
    market_price_no: b.marketPriceNo,
    chance: b.chance,
    volume: b.volume,
    liquidity: b.liquidity,
    spread_yes: b.yes.spread,
    spread_no: b.no.spread,
  }
}

/** The REST snapshot: the playground's schema names the last price `last_price` and has no spread_yes/spread_no. */
export function restOrderbook(b: BookState): unknown {
  const side = (s: SideBook) => ({
    outcome: s.outcome,
    bids: s.bids,
    asks: s.asks,
    spread: s.spread,
    last_price: s.last,
  })
  return {
    yes_orderbook: side(b.yes),
    no_orderbook: side(b.no),
    market_price_yes: b.marketPriceYes,
    market_price_no: b.marketPriceNo,
    chance: b.chance,
    volume: b.volume,
    liquidity: b.liquidity,
  }
}

/** Fault: the same book with a YES bid at the best YES ask, so the YES book is crossed (spread 0). */
export function crossedOrderbook(b: BookState): WsOrderbook {
  const o = wsOrderbook(b)
  const ask = b.yes.asks[0]?.price_ticks ?? 99
  const bids = [
    { price_ticks: ask, quantity: 100, order_count: 1 },
    ...b.yes.bids.filter((l) => l.price_ticks !== ask),
  ]
  o.yes_orderbook = { ...o.yes_orderbook, bids, spread: 0 }
  o.spread_yes = 0
  return o
}

export interface LastTrade {
  canceled: false
  taker_id: string
  total_amount: number
  qty_contracts: number
  avg_price: number
  side: TradeSide
  contract_type: Outcome
  makers: Array<{
    maker_id: string
    qty_contracts: number
    price: number
    total_amount: number
    side: TradeSide
    contract_type: Outcome
  }>
}

/** One resting order a print met: its owner and how many contracts it gave. */
export interface PrintMaker {
  id: string
  qty: number
}

/**
 * The `last_trade` object of a print whose parties are known: one taker against resting makers at the one price the
 * print happened at, the makers' quantities summing to the taker's. Amounts are centavos: contracts x price in
 * ticks (1 tick = R$ 0,01).
 */
export function tradeBody(t: VoxTrade, takerId: string, makers: readonly PrintMaker[]): LastTrade {
  return {
    canceled: false,
    taker_id: takerId,
    total_amount: t.qty * t.tick,
    qty_contracts: t.qty,
    avg_price: t.tick,
    side: t.side,
    contract_type: t.contract,
    makers: makers.map((m) => ({
      maker_id: m.id,
      qty_contracts: m.qty,
      price: t.tick,
      total_amount: m.qty * t.tick,
      side: t.side === 'BUY' ? 'SELL' : 'BUY',
      contract_type: t.contract,
    })),
  }
}

/** The `last_trade` of one of the simulator's own prints: a taker against one to three makers, all from `users`. */
export function lastTrade(t: VoxTrade, salt: number, users: readonly string[]): LastTrade {
  const h = mix(salt, t.no, t.qty, t.tick)
  const taker = h % users.length
  const nMakers = Math.min(t.qty, 1 + ((h >>> 8) % 3))
  const makers: PrintMaker[] = []
  let left = t.qty
  for (let k = 0; k < nMakers; k++) {
    const q =
      k === nMakers - 1 ? left : Math.max(1, Math.floor(left / (nMakers - k + ((h >>> (12 + k)) & 1))))
    left -= q
    // Never the taker: the pool index skips it.
    const idx = (taker + 1 + (mix(h, k) % (users.length - 1))) % users.length
    makers.push({ id: users[idx] as string, qty: q })
  }
  return tradeBody(t, users[taker] as string, makers)
}

const head = (msgType: string, eventId: string, marketId: string): string =>
  `{"msg_type":"${msgType}","event_id":${JSON.stringify(eventId)},"market_id":${JSON.stringify(marketId)}`

export const updateOrderbookFrame = (eventId: string, marketId: string, orderbookJson: string): string =>
  `${head('update-orderbook', eventId, marketId)},"orderbook":${orderbookJson}}`

export const newTradeFrame = (eventId: string, marketId: string, lastTradeJson: string): string =>
  `${head('new-trade', eventId, marketId)},"last_trade":${lastTradeJson}}`

export const updateFrame = (
  eventId: string,
  marketId: string,
  orderbookJson: string,
  lastTradeJson: string,
): string =>
  `${head('update', eventId, marketId)},"orderbook":${orderbookJson},"last_trade":${lastTradeJson}}`

export interface UserFill {
  userId: string
  eventId: string
  marketId: string
  side: TradeSide
  contract: Outcome
  price: number
  quantity: number
  /** Centavos. */
  fee: number
  /**
   * `order.filled` for a resting order that was met (maker); the order's type for one that executed on arrival
   * (taker).
   */
  tradeType: 'order.filled' | OrderType
}

/** What the user channel says an execution was: a resting order met, or the type of an order that took liquidity. */
export function userTradeType(liquidity: 'maker' | 'taker', type: OrderType): UserFill['tradeType'] {
  return liquidity === 'maker' ? 'order.filled' : type
}

/**
 * A fill on the user channel. A resting order that gets filled is reported as `order-info` / `order.filled`
 * (/playground/ws/user); an order that executed on arrival is reported in the user-channel page's shape, with no
 * msg_type and the executed order's type as `trade_type` (/en/websockets/user-channel).
 */
export function userFrame(f: UserFill): string {
  const body = {
    user_id: f.userId,
    event_id: f.eventId,
    market_id: f.marketId,
    side: f.side,
    contract_type: f.contract,
    price: f.price,
    quantity: f.quantity,
    transaction_fee: f.fee,
  }
  if (f.tradeType === 'order.filled')
    return JSON.stringify({ msg_type: 'order-info', trade_type: 'order.filled', ...body })
  return JSON.stringify({ trade_type: f.tradeType, ...body })
}
