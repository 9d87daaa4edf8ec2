// VoxFi's WebSocket (docs.voxfi.com.br/en/websockets/*): subscribe/unsubscribe per /sub-unsub with VoxFi's acks,
// market and event channels without a key, the user channel with the key in `auth`, errors as close codes
// (/errors: 4001 unauthorized, 4003 server error, 4004 invalid message), a text `ping` answered with `pong`, and
// the heartbeat of /connection: protocol pings every 10 s, a client silent for 20 s after a ping is dropped.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import type { ChannelFilter } from '../../shared/model'
import type { Permission } from '../config'
import type { KeyStore } from '../keys'
import type { Subscription } from '../stream'
import { ack, newTradeFrame, updateFrame, updateOrderbookFrame, type Channel } from './frames'

/** VoxFi's close codes (docs.voxfi.com.br/en/websockets/errors). */
export const CLOSE = {
  unauthorized: 4001,
  invalidParams: 4002,
  serverError: 4003,
  invalidMessage: 4004,
} as const

export type FrameKind = 'orderbook' | 'trades'

const CHANNELS: readonly Channel[] = ['user', 'market', 'event']
const FILTERS: readonly ChannelFilter[] = ['all', 'orderbook', 'trades']

interface Conn {
  id: number
  ws: WebSocket
  ip: string
  markets: Map<string, ChannelFilter>
  events: Map<string, ChannelFilter>
  userKey: string | null
  /** When the oldest ping this client has not answered was sent; null when it is up to date. */
  pendingSince: number | null
}

export interface VoxHubOptions {
  keys: KeyStore
  /** Protocol ping interval (VoxFi: 10 s). */
  pingMs: number
  /** A client that has not answered a ping this long after it was sent is dropped (VoxFi: 20 s). */
  pongTimeoutMs: number
  /** A client that lets this much pile up unread is cut off. */
  maxBufferedBytes: number
  /** What a key needs to receive user-channel fills. */
  userPermission: Permission
}

type Parsed =
  | {
      ok: true
      type: 'subscribe' | 'unsubscribe'
      channel: Channel
      ids: string[]
      filter: ChannelFilter
      auth: string
    }
  | { ok: false; reason: string }

/** Validate a client message; the failure reason is the close reason of a 4004. */
export function parseVoxMessage(value: unknown): Parsed {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'invalid message' }
  const m = value as Record<string, unknown>
  if (m.type !== 'subscribe' && m.type !== 'unsubscribe') return { ok: false, reason: 'invalid message type' }
  if (typeof m.channel !== 'string' || !(CHANNELS as readonly string[]).includes(m.channel)) {
    return { ok: false, reason: 'invalid channel' }
  }
  const type = m.type
  const channel = m.channel as Channel
  if (channel === 'user') {
    if (type === 'unsubscribe') return { ok: true, type, channel, ids: [], filter: 'all', auth: '' }
    // A missing `auth` is a malformed message (4004); a present but empty or bad one is refused with 4001.
    if (typeof m.auth !== 'string') return { ok: false, reason: 'auth is required' }
    return { ok: true, type, channel, ids: [], filter: 'all', auth: m.auth }
  }
  const field = channel === 'market' ? 'markets' : 'events'
  const list = m[field]
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((x) => typeof x === 'string' && x.length > 0)
  ) {
    return { ok: false, reason: `${field} is required` }
  }
  let filter: ChannelFilter = 'all'
  if (type === 'subscribe' && m.filter !== undefined && m.filter !== null && m.filter !== '') {
    if (typeof m.filter !== 'string' || !(FILTERS as readonly string[]).includes(m.filter)) {
      return { ok: false, reason: 'invalid filter' }
    }
    filter = m.filter as ChannelFilter
  }
  return { ok: true, type, channel, ids: [...new Set(list as string[])], filter, auth: '' }
}

export class VoxHub {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    perMessageDeflate: false,
  })
  private readonly conns = new Set<Conn>()
  private readonly byMarket = new Map<string, Set<Conn>>()
  private readonly byEvent = new Map<string, Set<Conn>>()
  private nextId = 1
  private lastPing = Date.now()
  private readonly heartbeat: NodeJS.Timeout
  /** Fault: while true no data frame leaves (protocol pings and close frames still do). */
  stalled = false
  framesSent = 0

  constructor(private readonly opts: VoxHubOptions) {
    const every = Math.min(1000, Math.max(5, Math.floor(Math.min(opts.pingMs, opts.pongTimeoutMs) / 4)))
    this.heartbeat = setInterval(() => this.beat(), every)
    this.heartbeat.unref()
  }

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
      pendingSince: null,
    }
    this.conns.add(conn)
    ws.on('pong', () => {
      conn.pendingSince = null
    })
    ws.on('message', (data, isBinary) => this.onMessage(conn, data, isBinary))
    ws.on('error', () => {
      // 'close' follows; an unhandled 'error' would crash the process.
    })
    ws.on('close', () => this.detach(conn))
  }

  private detach(conn: Conn): void {
    if (!this.conns.delete(conn)) return
    for (const id of conn.markets.keys()) this.unindex(this.byMarket, id, conn)
    for (const id of conn.events.keys()) this.unindex(this.byEvent, id, conn)
    conn.markets.clear()
    conn.events.clear()
    conn.userKey = null
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

  /** Close one connection with a code; it stops receiving at once, whatever the client does next. */
  private closeConn(conn: Conn, code: number, reason: string): void {
    const ws = conn.ws
    this.detach(conn)
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason)
  }

  private onMessage(conn: Conn, data: RawData, isBinary: boolean): void {
    if (!this.conns.has(conn)) return
    if (isBinary) {
      this.closeConn(conn, CLOSE.invalidMessage, 'invalid message')
      return
    }
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : data instanceof ArrayBuffer
        ? Buffer.from(data).toString('utf8')
        : data.toString('utf8')
    if (text === 'ping') {
      this.send(conn, 'pong')
      return
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      this.closeConn(conn, CLOSE.invalidMessage, 'invalid message')
      return
    }
    const m = parseVoxMessage(value)
    if (!m.ok) {
      this.closeConn(conn, CLOSE.invalidMessage, m.reason)
      return
    }
    if (m.channel === 'user') {
      if (m.type === 'unsubscribe') {
        conn.userKey = null
        this.send(conn, ack('unsubscribed', 'user', null, null))
        return
      }
      const check = this.opts.keys.check(m.auth, conn.ip)
      if (!check.ok) {
        this.closeConn(conn, CLOSE.unauthorized, check.error)
        return
      }
      conn.userKey = m.auth
      this.send(conn, ack('subscribed', 'user', null, null))
      return
    }
    const subs = m.channel === 'market' ? conn.markets : conn.events
    const index = m.channel === 'market' ? this.byMarket : this.byEvent
    for (const id of m.ids) {
      if (m.type === 'subscribe') {
        // Re-subscribing is accepted and replaces the filter. Unknown ids are accepted too; they never send.
        subs.set(id, m.filter)
        this.index(index, id, conn)
      } else {
        subs.delete(id)
        this.unindex(index, id, conn)
      }
    }
    const type = m.type === 'subscribe' ? 'subscribed' : 'unsubscribed'
    this.send(
      conn,
      m.channel === 'market' ? ack(type, 'market', m.ids, null) : ack(type, 'event', null, m.ids),
    )
  }

  hasSubscribers(marketId: string, eventId: string): boolean {
    return this.byMarket.has(marketId) || this.byEvent.has(eventId)
  }

  /**
   * One market's news of one step, at most one frame per subscription: `all` gets `update` when the book changed
   * and a trade printed, else `update-orderbook` or `new-trade`; `orderbook` gets `update-orderbook` and `trades`
   * gets `new-trade`. `book` and `trade` build the orderbook and last_trade JSON, once, if someone needs them.
   */
  publishMarket(
    marketId: string,
    eventId: string,
    book: (() => string) | null,
    trade: (() => string) | null,
  ): void {
    let bookJson: string | undefined
    let tradeJson: string | undefined
    let ob: string | undefined
    let nt: string | undefined
    let up: string | undefined
    const bj = (): string => (bookJson ??= (book as () => string)())
    const tj = (): string => (tradeJson ??= (trade as () => string)())
    const frameFor = (f: ChannelFilter): string | null => {
      if (f === 'orderbook')
        return book === null ? null : (ob ??= updateOrderbookFrame(eventId, marketId, bj()))
      if (f === 'trades') return trade === null ? null : (nt ??= newTradeFrame(eventId, marketId, tj()))
      if (book !== null && trade !== null) return (up ??= updateFrame(eventId, marketId, bj(), tj()))
      if (book !== null) return (ob ??= updateOrderbookFrame(eventId, marketId, bj()))
      if (trade !== null) return (nt ??= newTradeFrame(eventId, marketId, tj()))
      return null
    }
    for (const c of this.byMarket.get(marketId) ?? []) {
      const f = c.markets.get(marketId)
      const text = f === undefined ? null : frameFor(f)
      if (text !== null) this.send(c, text)
    }
    for (const c of this.byEvent.get(eventId) ?? []) {
      const f = c.events.get(eventId)
      const text = f === undefined ? null : frameFor(f)
      if (text !== null) this.send(c, text)
    }
  }

  /** A ready-made frame of one kind (firehose, faults) to the subscriptions whose filter takes that kind. */
  publishRaw(marketId: string, eventId: string, kind: FrameKind, text: string): void {
    const wants = (f: ChannelFilter | undefined): boolean => f === 'all' || f === kind
    for (const c of this.byMarket.get(marketId) ?? []) if (wants(c.markets.get(marketId))) this.send(c, text)
    for (const c of this.byEvent.get(eventId) ?? []) if (wants(c.events.get(eventId))) this.send(c, text)
  }

  /** Fills to every user subscriber whose key still passes (4001 otherwise) and may read orders. */
  publishUser(frames: readonly string[]): void {
    this.revalidateUsers()
    if (frames.length === 0) return
    for (const c of this.conns) {
      if (c.userKey === null) continue
      const key = this.opts.keys.get(c.userKey)
      if (key === undefined || !key.permissions.includes(this.opts.userPermission)) continue
      for (const f of frames) this.send(c, f)
    }
  }

  /** A key revoked, disabled or expired (or an IP no longer allowed) closes its sockets with 4001. */
  revalidateUsers(): void {
    for (const c of [...this.conns]) {
      if (c.userKey === null) continue
      const check = this.opts.keys.check(c.userKey, c.ip)
      if (!check.ok) this.closeConn(c, CLOSE.unauthorized, check.error)
    }
  }

  private beat(): void {
    const now = Date.now()
    if (now - this.lastPing >= this.opts.pingMs) {
      this.lastPing = now
      for (const c of this.conns) {
        if (c.ws.readyState !== WebSocket.OPEN) continue
        c.ws.ping()
        c.pendingSince ??= now
      }
    }
    for (const c of [...this.conns]) {
      if (c.pendingSince !== null && now - c.pendingSince >= this.opts.pongTimeoutMs) {
        // A peer that stopped answering gets no close handshake: the socket is dropped (the client sees 1006).
        c.ws.terminate()
        this.detach(c)
      }
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

  closeAll(code: number, reason: string): void {
    for (const c of [...this.conns]) this.closeConn(c, code, reason)
  }

  dropAll(): void {
    for (const c of [...this.conns]) {
      c.ws.terminate()
      this.detach(c)
    }
  }

  close(): void {
    clearInterval(this.heartbeat)
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
