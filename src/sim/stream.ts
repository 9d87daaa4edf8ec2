// The WebSocket side (DESIGN §3.1): per-connection subscriptions, acks and errors, and fan-out of
// market, event and user updates to exactly the connections (and filters) that asked for them.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import type { ChannelFilter, Level } from '../shared/model'
import { filterAllows, parseClientMessage, type ServerErrorCode } from '../shared/protocol'
import { TOPIC_PERMISSION, type UserUpdate } from './account'
import type { KeyStore } from './keys'
import type { BookSnapshot } from './market'

export interface BookLookup {
  /** A listed or synthetic market, or undefined for an id nobody knows. */
  book(id: string): { eventId: string; snapshot(): BookSnapshot } | undefined
  /** Market ids of an event, or undefined for an unknown event. */
  eventMarkets(eventId: string): string[] | undefined
}

export interface Subscription {
  connection: number
  market: Array<{ id: string; filter: ChannelFilter }>
  event: Array<{ id: string; filter: ChannelFilter }>
  user: boolean
}

interface Conn {
  id: number
  ws: WebSocket
  ip: string
  markets: Map<string, ChannelFilter>
  events: Map<string, ChannelFilter>
  userKey: string | null
  alive: boolean
}

export interface HubOptions {
  books: BookLookup
  keys: KeyStore
  accountSnapshot: (ts: number) => UserUpdate[]
  /** A client that lets this much pile up unread is cut off, as real venues do with slow consumers. */
  maxBufferedBytes: number
}

const MARKET_PREFIX = '{"channel":"market",'
const EVENT_PREFIX = '{"channel":"event",'

function bookBody(
  market: string,
  event: string,
  snapshot: boolean,
  seq: number,
  bids: Level[],
  asks: Level[],
  ts: number,
) {
  return `"type":"orderbook","market":${JSON.stringify(market)},"event":${JSON.stringify(event)},"snapshot":${snapshot},"seq":${seq},"bids":${JSON.stringify(bids)},"asks":${JSON.stringify(asks)},"ts":${ts}}`
}

export class StreamHub {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    perMessageDeflate: false,
  })
  private readonly conns = new Set<Conn>()
  private readonly byMarket = new Map<string, Set<Conn>>()
  private readonly byEvent = new Map<string, Set<Conn>>()
  private nextId = 1
  /** Fault: while true no data frame leaves (pings still do). */
  stalled = false
  framesSent = 0

  constructor(private readonly opts: HubOptions) {}

  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, req.socket.remoteAddress ?? ''))
  }

  private attach(ws: WebSocket, ip: string): void {
    const conn: Conn = {
      id: this.nextId++,
      ws,
      ip,
      markets: new Map(),
      events: new Map(),
      userKey: null,
      alive: true,
    }
    this.conns.add(conn)
    ws.on('pong', () => {
      conn.alive = true
    })
    ws.on('message', (data, isBinary) => this.onMessage(conn, data, isBinary))
    ws.on('error', () => {
      // 'close' follows; nothing else to do, and an unhandled 'error' would crash the process.
    })
    ws.on('close', () => this.detach(conn))
  }

  private detach(conn: Conn): void {
    if (!this.conns.delete(conn)) return
    for (const id of conn.markets.keys()) this.unindex(this.byMarket, id, conn)
    for (const id of conn.events.keys()) this.unindex(this.byEvent, id, conn)
  }

  private index(map: Map<string, Set<Conn>>, id: string, conn: Conn): void {
    let set = map.get(id)
    if (set === undefined) {
      set = new Set()
      map.set(id, set)
    }
    set.add(conn)
  }

  private unindex(map: Map<string, Set<Conn>>, id: string, conn: Conn): void {
    const set = map.get(id)
    if (set === undefined) return
    set.delete(conn)
    if (set.size === 0) map.delete(id)
  }

  private send(conn: Conn, text: string): void {
    if (this.stalled || conn.ws.readyState !== WebSocket.OPEN) return
    if (conn.ws.bufferedAmount > this.opts.maxBufferedBytes) {
      conn.ws.terminate()
      return
    }
    conn.ws.send(text)
    this.framesSent++
  }

  private sendError(conn: Conn, error: ServerErrorCode, message: string): void {
    this.send(conn, JSON.stringify({ type: 'error', error, message }))
  }

  private onMessage(conn: Conn, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.sendError(conn, 'invalid_request', 'binary frames are not supported: send JSON text frames')
      return
    }
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : data instanceof ArrayBuffer
        ? Buffer.from(data).toString('utf8')
        : data.toString('utf8')
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      this.sendError(conn, 'invalid_request', `invalid JSON: ${(e as Error).message}`)
      return
    }
    const parsed = parseClientMessage(value)
    if (!parsed.ok) {
      this.sendError(conn, 'invalid_request', parsed.message)
      return
    }
    const m = parsed.message
    const ts = Date.now()
    if (m.channel === 'user') {
      if (m.type === 'unsubscribe') {
        conn.userKey = null
        this.send(conn, '{"type":"unsubscribed","channel":"user"}')
      } else this.subscribeUser(conn, m.auth, ts)
      return
    }
    const ids = [...new Set(m.channel === 'market' ? m.markets : m.events)]
    const subs = m.channel === 'market' ? conn.markets : conn.events
    const index = m.channel === 'market' ? this.byMarket : this.byEvent
    const listField = m.channel === 'market' ? 'markets' : 'events'
    if (m.type === 'unsubscribe') {
      for (const id of ids) {
        subs.delete(id)
        this.unindex(index, id, conn)
      }
      this.send(conn, JSON.stringify({ type: 'unsubscribed', channel: m.channel, [listField]: ids }))
      return
    }
    const filter: ChannelFilter = m.filter === undefined || m.filter === '' ? 'all' : m.filter
    const unknown: string[] = []
    const snapshotMarkets: string[] = []
    for (const id of ids) {
      // Re-subscribing replaces the filter and, like a first subscribe, starts with a fresh snapshot.
      subs.set(id, filter)
      this.index(index, id, conn)
      const marketIds =
        m.channel === 'market'
          ? this.opts.books.book(id)
            ? [id]
            : undefined
          : this.opts.books.eventMarkets(id)
      if (marketIds === undefined) unknown.push(id)
      else snapshotMarkets.push(...marketIds)
    }
    const ack: Record<string, unknown> = { type: 'subscribed', channel: m.channel, [listField]: ids, filter }
    if (unknown.length > 0) ack.unknown = unknown
    this.send(conn, JSON.stringify(ack))
    if (!filterAllows(filter, 'orderbook')) return
    const prefix = m.channel === 'market' ? MARKET_PREFIX : EVENT_PREFIX
    for (const id of snapshotMarkets) {
      const b = this.opts.books.book(id)
      if (b === undefined) continue
      const s = b.snapshot()
      this.send(conn, prefix + bookBody(id, b.eventId, true, s.seq, s.bids, s.asks, ts))
    }
  }

  private subscribeUser(conn: Conn, auth: string, ts: number): void {
    const check = this.opts.keys.check(auth, conn.ip)
    if (!check.ok) {
      // The latest auth attempt decides: a failed one also ends an earlier user subscription.
      conn.userKey = null
      this.sendError(conn, check.error, userErrorMessage(check.error, conn.ip))
      return
    }
    conn.userKey = auth
    this.send(conn, '{"type":"subscribed","channel":"user"}')
    const perms = check.key.permissions
    for (const u of this.opts.accountSnapshot(ts)) {
      if (perms.includes(TOPIC_PERMISSION[u.type])) this.send(conn, JSON.stringify({ channel: 'user', ...u }))
    }
  }

  hasSubscribers(marketId: string, eventId: string): boolean {
    return this.byMarket.has(marketId) || this.byEvent.has(eventId)
  }

  /** Deliver one market update; `body` is the message after its "channel" field, starting with "type". */
  publishBody(marketId: string, eventId: string, kind: 'orderbook' | 'trade', body: string): void {
    const bm = this.byMarket.get(marketId)
    if (bm !== undefined) {
      let text: string | undefined
      for (const c of bm) {
        const f = c.markets.get(marketId)
        if (f !== undefined && filterAllows(f, kind)) this.send(c, (text ??= MARKET_PREFIX + body))
      }
    }
    const be = this.byEvent.get(eventId)
    if (be !== undefined) {
      let text: string | undefined
      for (const c of be) {
        const f = c.events.get(eventId)
        if (f !== undefined && filterAllows(f, kind)) this.send(c, (text ??= EVENT_PREFIX + body))
      }
    }
  }

  publishBook(
    marketId: string,
    eventId: string,
    seq: number,
    bids: Level[],
    asks: Level[],
    ts: number,
  ): void {
    if (!this.hasSubscribers(marketId, eventId)) return
    this.publishBody(marketId, eventId, 'orderbook', bookBody(marketId, eventId, false, seq, bids, asks, ts))
  }

  publishTrade(
    marketId: string,
    eventId: string,
    t: { id: string; price: number; size: number; side: string },
    ts: number,
  ): void {
    if (!this.hasSubscribers(marketId, eventId)) return
    const body = `"type":"trade","market":${JSON.stringify(marketId)},"event":${JSON.stringify(eventId)},"price":${t.price},"size":${t.size},"side":"${t.side}","id":${JSON.stringify(t.id)},"ts":${ts}}`
    this.publishBody(marketId, eventId, 'trade', body)
  }

  /** Account updates to every user subscriber whose key still passes, filtered by the key's permissions. */
  publishUser(updates: UserUpdate[]): void {
    this.revalidateUsers()
    if (updates.length === 0) return
    const texts = new Map<UserUpdate, string>()
    for (const c of this.conns) {
      if (c.userKey === null) continue
      const key = this.opts.keys.get(c.userKey)
      if (key === undefined) continue
      for (const u of updates) {
        if (!key.permissions.includes(TOPIC_PERMISSION[u.type])) continue
        let text = texts.get(u)
        if (text === undefined) {
          text = JSON.stringify({ channel: 'user', ...u })
          texts.set(u, text)
        }
        this.send(c, text)
      }
    }
  }

  /** A key revoked, disabled or expired mid-stream ends its user subscriptions with an error. */
  revalidateUsers(): void {
    for (const c of this.conns) {
      if (c.userKey === null) continue
      const check = this.opts.keys.check(c.userKey, c.ip)
      if (check.ok) continue
      c.userKey = null
      this.sendError(c, check.error, userErrorMessage(check.error, c.ip))
    }
  }

  /** Liveness: terminate connections that missed the previous ping's pong, then ping the rest. */
  ping(): void {
    for (const c of this.conns) {
      if (!c.alive) {
        c.ws.terminate()
        continue
      }
      c.alive = false
      if (c.ws.readyState === WebSocket.OPEN) c.ws.ping()
    }
  }

  /** Fault and test helpers send regardless of a stall: they are explicit. */
  sendToAll(text: string | Buffer): void {
    for (const c of this.conns) {
      if (c.ws.readyState === WebSocket.OPEN) {
        c.ws.send(text, { binary: false })
        this.framesSent++
      }
    }
  }

  /** Fault: close every connection with a close frame carrying `code` and `reason`. */
  closeAll(code: number, reason: string): void {
    for (const c of [...this.conns]) {
      this.detach(c)
      if (c.ws.readyState === WebSocket.OPEN) c.ws.close(code, reason)
    }
  }

  dropAll(): void {
    for (const c of [...this.conns]) {
      c.ws.terminate()
      this.detach(c)
    }
  }

  close(): void {
    this.dropAll()
    this.wss.close()
  }

  connections(): number {
    return this.conns.size
  }

  subscriptions(): Subscription[] {
    return [...this.conns]
      .sort((a, b) => a.id - b.id)
      .map((c) => ({
        connection: c.id,
        market: [...c.markets].map(([id, filter]) => ({ id, filter })),
        event: [...c.events].map(([id, filter]) => ({ id, filter })),
        user: c.userKey !== null,
      }))
  }
}

function userErrorMessage(error: 'unauthorized' | 'ip not allowed', ip: string): string {
  return error === 'unauthorized'
    ? 'the API key is unknown, expired, disabled or revoked'
    : `this API key does not allow requests from ${ip}`
}
