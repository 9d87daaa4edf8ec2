// The WebSocket plumbing both dialects' hubs stand on: connections, who follows which market and event, and the
// send that cuts off slow readers and honours the stall fault. What a client may say and what is sent back is the
// dialect's (stream.ts, voxfi/stream.ts).
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import type { ChannelFilter } from '../shared/model'
import type { KeyCheck, KeyRecord, KeyStore } from './keys'

export interface Subscription {
  connection: number
  market: Array<{ id: string; filter: ChannelFilter }>
  event: Array<{ id: string; filter: ChannelFilter }>
  user: boolean
}

export type FollowChannel = 'market' | 'event'

export interface Conn {
  readonly id: number
  readonly ws: WebSocket
  readonly ip: string
  readonly markets: Map<string, ChannelFilter>
  readonly events: Map<string, ChannelFilter>
  userKey: string | null
  /** When the oldest ping this client has not answered was sent; null when it is up to date. */
  pendingSince: number | null
}

export type KeyRefusal = Extract<KeyCheck, { ok: false }>['error']

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return data instanceof ArrayBuffer ? Buffer.from(data).toString('utf8') : data.toString('utf8')
}

export abstract class SocketHub {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    perMessageDeflate: false,
  })
  protected readonly conns = new Set<Conn>()
  private readonly byMarket = new Map<string, Set<Conn>>()
  private readonly byEvent = new Map<string, Set<Conn>>()
  private nextId = 1
  /** Fault: while true no data frame leaves (pings and close frames still do). */
  stalled = false
  framesSent = 0

  constructor(
    protected readonly keys: KeyStore,
    /** A client that lets this much pile up unread is cut off, as real venues do with slow consumers. */
    private readonly maxBufferedBytes: number,
  ) {}

  protected abstract onText(conn: Conn, text: string): void
  protected abstract onBinary(conn: Conn): void

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
    ws.on('message', (data, isBinary) => {
      // A closed connection's socket can still deliver what the client sent before it saw the close; acting on it
      // would subscribe a connection nobody will ever detach again.
      if (!this.conns.has(conn)) return
      if (isBinary) this.onBinary(conn)
      else this.onText(conn, textOf(data))
    })
    ws.on('error', () => {
      // 'close' follows; an unhandled 'error' would crash the process.
    })
    ws.on('close', () => this.detach(conn))
  }

  protected detach(conn: Conn): void {
    if (!this.conns.delete(conn)) return
    for (const id of conn.markets.keys()) unindex(this.byMarket, id, conn)
    for (const id of conn.events.keys()) unindex(this.byEvent, id, conn)
    conn.markets.clear()
    conn.events.clear()
    conn.userKey = null
  }

  /** Start (or, with a new filter, restart) following one market or event. */
  protected follow(conn: Conn, channel: FollowChannel, id: string, filter: ChannelFilter): void {
    const [subs, index] = channel === 'market' ? [conn.markets, this.byMarket] : [conn.events, this.byEvent]
    subs.set(id, filter)
    let set = index.get(id)
    if (set === undefined) {
      set = new Set()
      index.set(id, set)
    }
    set.add(conn)
  }

  protected unfollow(conn: Conn, channel: FollowChannel, id: string): void {
    const [subs, index] = channel === 'market' ? [conn.markets, this.byMarket] : [conn.events, this.byEvent]
    subs.delete(id)
    unindex(index, id, conn)
  }

  protected send(conn: Conn, text: string): void {
    if (this.stalled || conn.ws.readyState !== WebSocket.OPEN) return
    if (conn.ws.bufferedAmount > this.maxBufferedBytes) {
      conn.ws.terminate()
      return
    }
    conn.ws.send(text)
    this.framesSent++
  }

  /** Close one connection with a code; it stops receiving at once, whatever the client does next. */
  protected closeConn(conn: Conn, code: number, reason: string): void {
    const ws = conn.ws
    this.detach(conn)
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason)
  }

  hasSubscribers(marketId: string, eventId: string): boolean {
    return this.byMarket.has(marketId) || this.byEvent.has(eventId)
  }

  /** Every subscription to the market, then every one to its event, each with its filter. */
  protected forEachFollower(
    marketId: string,
    eventId: string,
    visit: (conn: Conn, filter: ChannelFilter, channel: FollowChannel) => void,
  ): void {
    const bm = this.byMarket.get(marketId)
    if (bm !== undefined) for (const c of bm) visitFollower(c, c.markets.get(marketId), 'market', visit)
    const be = this.byEvent.get(eventId)
    if (be !== undefined) for (const c of be) visitFollower(c, c.events.get(eventId), 'event', visit)
  }

  /** Every user-channel subscriber whose key is still on file, with that key. */
  protected forEachUser(visit: (conn: Conn, key: KeyRecord) => void): void {
    for (const c of this.conns) {
      if (c.userKey === null) continue
      const key = this.keys.get(c.userKey)
      if (key !== undefined) visit(c, key)
    }
  }

  /** Every user-channel subscriber whose key no longer passes (revoked, disabled, expired, IP not allowed). */
  protected forEachRefusedUser(refuse: (conn: Conn, error: KeyRefusal) => void): void {
    for (const c of [...this.conns]) {
      if (c.userKey === null) continue
      const check = this.keys.check(c.userKey, c.ip)
      if (!check.ok) refuse(c, check.error)
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
    for (const c of [...this.conns]) this.closeConn(c, code, reason)
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

function unindex(map: Map<string, Set<Conn>>, id: string, conn: Conn): void {
  const set = map.get(id)
  if (set === undefined) return
  set.delete(conn)
  if (set.size === 0) map.delete(id)
}

function visitFollower(
  conn: Conn,
  filter: ChannelFilter | undefined,
  channel: FollowChannel,
  visit: (conn: Conn, filter: ChannelFilter, channel: FollowChannel) => void,
): void {
  if (filter !== undefined) visit(conn, filter, channel)
}
