// The VoxFi dialect of the simulator (DESIGN §0, §3.1): the shared markets, books and demo account, spoken the
// way docs.voxfi.com.br documents the venue. index.ts (the simulator) steps the shared state and hands each step
// to this runtime; the reference dialect never touches anything here.
import type { DemoAccount, UserUpdate } from '../account'
import type { Catalog } from '../catalog'
import { DEFAULTS } from '../config'
import type { OrderFaultTarget } from '../faults'
import type { KeyStore } from '../keys'
import type { MarketBook, StepOut } from '../market'
import type { RestHandler } from '../rest'
import { isFirehoseId } from '../synthetic'
import { AccountView } from './account'
import { VoxMarketState } from './books'
import {
  crossedOrderbook,
  lastTrade,
  restOrderbook,
  updateOrderbookFrame,
  userFrame,
  userTradeType,
  wsOrderbook,
} from './frames'
import { uuidFor } from './ids'
import { buildVoxCatalog, voxListingBody, type VoxCatalog, type VoxfiListing } from './listing'
import { createVoxRestHandler, limitedBody } from './rest'
import { VoxHub } from './stream'
import { VoxFirehose } from './firehose'
import { createTradeHandler } from './trade-rest'
import { Trading, type OrderAnswer, type TradingMarket } from './trading'

export type { VoxfiListing, VoxEvent, VoxMarket, VoxOption } from './listing'
export type { OrderAnswer } from './trading'
export { CLOSE as VOXFI_CLOSE } from './stream'

/** Invalid-JSON frames for sendMalformed, VoxFi-looking. */
export const VOXFI_MALFORMED = [
  '{"msg_type":"update-orderbook","event_id":',
  'not json at all',
  '{"msg_type":"new-trade","last_trade":{,}}',
  "{'msg_type':'update'}",
  '[1, 2,',
]
export const VOXFI_OVERSIZED_HEAD = '{"msg_type":"notice","message":"oversized test frame","padding":"'

export interface VoxRuntimeDeps {
  seed: number
  catalog: Catalog
  /** Every book, in the order the simulator steps them. */
  books: readonly MarketBook[]
  account: DemoAccount
  keys: KeyStore
  rateLimit: { requests: number; windowMs: number }
  /** The trade paths' own per-key bucket (default: config DEFAULTS). */
  tradeRateLimit?: { requests: number; windowMs: number }
  /** Which documented answer Place Order gives (default: config DEFAULTS, (a)). */
  orderAnswer?: OrderAnswer
  pingMs: number
  pongTimeoutMs: number
  /** Origin of the listing's dates. */
  epochMs: number
  /** How GET /data/events wraps its events (the docs do not say): a bare array (default), or under a key. */
  listingEnvelope?: ListingEnvelope
  log: (line: string) => void
}

export type ListingEnvelope = 'bare' | 'data' | 'events'

export interface VoxRuntime {
  hub: VoxHub
  firehose: VoxFirehose
  rest: RestHandler
  catalog: VoxCatalog
  /** The demo account's user id on the user channel. */
  userId: string
  listing(): VoxfiListing
  /** One simulation step: `outs[i]` is what `books[i]` returned, `user` what the account returned. */
  onStep(stepNo: number, outs: readonly StepOut[], user: readonly UserUpdate[]): void
  gap(market: string): boolean
  crossed(market: string): boolean
  /** Order faults, the trade log, and closing markets for trading. */
  orders: OrderFaultTarget
  close(): void
}

export function createVoxRuntime(d: VoxRuntimeDeps): VoxRuntime {
  const vc = buildVoxCatalog(d.catalog, d.seed, d.epochMs)
  const markets: VoxMarketState[] = d.books.map((b) => {
    const info = vc.marketByInternal.get(b.id)
    if (info === undefined) throw new Error(`voxfi: no listing entry for market ${b.id}`)
    return new VoxMarketState(info.uuid, info.eventUuid, b, d.seed, info.index)
  })
  const byUuid = new Map(markets.map((m) => [m.uuid, m]))
  const byInternal = new Map(markets.map((m) => [m.yes.id, m]))
  // Other traders, for the taker and maker ids of public trades.
  const users = Array.from({ length: 48 }, (_, i) => uuidFor(d.seed, 0x05e5, i))
  const userId = uuidFor(d.seed, 0xde70, 0)
  const gapPending = new Set<string>()
  const tradingMarkets = new Map<string, TradingMarket>(
    markets.map((m) => [m.uuid, { state: m, internal: m.yes.id }]),
  )

  const hub = new VoxHub({
    keys: d.keys,
    pingMs: d.pingMs,
    pongTimeoutMs: d.pongTimeoutMs,
    maxBufferedBytes: 64 * 1024 * 1024,
    userPermission: 'read_orders',
  })
  const firehose = new VoxFirehose(
    (market, event, kind, text) => hub.publishRaw(market, event, kind, text),
    (market, event) => hub.hasSubscribers(market, event),
    users,
  )

  const eventOfMarket = (internal: string): string => vc.marketByInternal.get(internal)?.eventUuid ?? ''
  const marketUuid = (internal: string): string => vc.marketByInternal.get(internal)?.uuid ?? internal
  const view = new AccountView(
    d.seed,
    { market: marketUuid, eventOfMarket },
    (internal) => byInternal.get(internal)?.marketPriceYes() ?? null,
  )
  // The account as it stands before the first step (its starting holdings and wallet).
  view.apply(d.account.snapshot(Date.now()))
  const trading = new Trading({
    seed: d.seed,
    markets: tradingMarkets,
    account: d.account,
    userId,
    users,
    answer: d.orderAnswer ?? DEFAULTS.orderAnswer,
    sink: {
      print: (m, json) => hub.publishMarket(m.uuid, m.eventUuid, null, () => json),
      user: (frames) => hub.publishUser(frames),
      account: (updates) => view.apply(updates),
    },
    cancelOther: (id, ts) => {
      const own = view.openOrderId(id)
      const updates = own === undefined ? null : d.account.cancelOrder(own, ts)
      if (updates === null) return false
      view.apply(updates)
      return true
    },
  })
  d.account.useExternalOrders(trading)
  const trade = createTradeHandler({
    keys: d.keys,
    rateLimit: d.tradeRateLimit ?? DEFAULTS.tradeRateLimit,
    limitedBody,
    trading,
    log: d.log,
  })

  const inEvent =
    (eventId: string | null) =>
    (internal: string): boolean =>
      eventId === null || eventOfMarket(internal) === eventId
  const isMarket =
    (marketId: string | null) =>
    (internal: string): boolean =>
      marketId === null || marketUuid(internal) === marketId

  const listing = (): VoxfiListing =>
    voxListingBody(vc, (uuid) => {
      const m = byUuid.get(uuid)
      return m === undefined
        ? { volume: 0, liquidity: 0, closedAt: null }
        : { volume: m.volume, liquidity: m.liquidity(), closedAt: m.closedAt }
    })

  const rest = createVoxRestHandler({
    keys: d.keys,
    rateLimit: d.rateLimit,
    log: d.log,
    trade,
    data: {
      listing: () => {
        const events = listing()
        const envelope = d.listingEnvelope ?? 'bare'
        return envelope === 'bare' ? events : { [envelope]: events }
      },
      orderbook: (id) => {
        const m = byUuid.get(id)
        if (m !== undefined) return restOrderbook(m.state())
        const f = isFirehoseId(id) ? firehose.get(id) : undefined
        return f === undefined ? undefined : restOrderbook(f.state())
      },
      hasMarket: (id) => byUuid.has(id),
      hasEvent: (id) => vc.eventByUuid.has(id),
      balance: () => view.balance(),
      portfolio: (eventId) => view.portfolio(inEvent(eventId)),
      // The user's orders and the trader's, newest first (a stable sort keeps each list's own order in a second).
      openOrders: (eventId) =>
        [...trading.openOrders(inEvent(eventId)), ...view.openOrders(inEvent(eventId))].sort((a, b) =>
          b.created_at.localeCompare(a.created_at),
        ),
      activity: (marketId, page, pageSize) => view.activity(isMarket(marketId), page, pageSize),
      pnl: (marketId, eventId) => {
        const p = view.pnl(marketId !== null ? isMarket(marketId) : inEvent(eventId))
        return {
          market_id: marketId,
          event_id: marketId !== null ? (byUuid.get(marketId)?.eventUuid ?? null) : eventId,
          realized_pnl: p.realized,
          unrealized_pnl: p.unrealized,
          total_pnl: p.realized + p.unrealized,
        }
      },
    },
  })

  const onStep = (stepNo: number, outs: readonly StepOut[], user: readonly UserUpdate[]): void => {
    // The trader's updates of this step first: the user's fills below are later, and a balance is a whole snapshot.
    view.apply(user)
    const ts = Date.now()
    markets.forEach((m, i) => {
      const out = outs[i]
      if (out === undefined) return
      const r = m.step(stepNo, out)
      trading.afterStep(m, r.trade, ts)
      const touched = m.touched
      m.touched = false
      if (!hub.hasSubscribers(m.uuid, m.eventUuid)) return
      let bookChanged = r.bookChanged || touched
      if (bookChanged && gapPending.delete(m.uuid)) bookChanged = false
      const trade = r.trade
      if (!bookChanged && trade === null) return
      hub.publishMarket(
        m.uuid,
        m.eventUuid,
        bookChanged ? () => JSON.stringify(wsOrderbook(m.state())) : null,
        trade !== null ? () => JSON.stringify(lastTrade(trade, m.salt, users)) : null,
      )
    })
    const frames: string[] = []
    for (const u of user) {
      if (u.type !== 'fill') continue
      const side = u.side === 'buy' ? 'BUY' : 'SELL'
      frames.push(
        userFrame({
          userId,
          eventId: eventOfMarket(u.market),
          marketId: marketUuid(u.market),
          side,
          contract: 'YES',
          price: Math.round(u.price * 100),
          quantity: u.size,
          fee: Math.round(u.fee * 100),
          // The trader works limit orders only.
          tradeType: userTradeType(u.liquidity, side === 'BUY' ? 'LIMIT_BUY' : 'LIMIT_SELL'),
        }),
      )
    }
    hub.publishUser(frames)
  }

  const setClosed = (id: string, closedAt: number | null): boolean => {
    const m = byUuid.get(id)
    if (m === undefined) return false
    m.closedAt = closedAt === null ? null : (m.closedAt ?? closedAt)
    return true
  }

  return {
    hub,
    firehose,
    rest,
    catalog: vc,
    userId,
    listing,
    onStep,
    gap: (id) => {
      if (byUuid.has(id)) {
        gapPending.add(id)
        return true
      }
      const f = isFirehoseId(id) ? firehose.get(id) : undefined
      if (f === undefined) return false
      f.skipBook = true
      return true
    },
    crossed: (id) => {
      const m = byUuid.get(id)
      if (m !== undefined) {
        const text = updateOrderbookFrame(m.eventUuid, m.uuid, JSON.stringify(crossedOrderbook(m.state())))
        hub.publishRaw(m.uuid, m.eventUuid, 'orderbook', text)
        return true
      }
      return isFirehoseId(id) && firehose.crossed(id)
    },
    orders: {
      orderFault: (fault, count) => trade.orderFault(fault, count),
      orderLog: () => trade.orderLog(),
      closeMarket: (id) => setClosed(id, Date.now()),
      reopenMarket: (id) => setClosed(id, null),
    },
    close: () => {
      firehose.stop()
      trade.close()
      hub.close()
    },
  }
}
