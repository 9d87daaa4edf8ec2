// The WebSocket side (DESIGN §3.1): per-connection subscriptions, acks and errors, and fan-out of
// market, event and user updates to exactly the connections (and filters) that asked for them.
import { WebSocket } from 'ws'
import type { ChannelFilter, Level } from '../shared/model'
import { filterAllows, parseClientMessage, type ServerErrorCode } from '../shared/protocol'
import { TOPIC_PERMISSION, type UserUpdate } from './account'
import { SocketHub, type Conn } from './hub'
import type { KeyStore } from './keys'
import type { BookSnapshot } from './market'

export interface BookLookup {
  /** A listed or synthetic market, or undefined for an id nobody knows. */
  book(id: string): { eventId: string; snapshot(): BookSnapshot } | undefined
  /** Market ids of an event, or undefined for an unknown event. */
  eventMarkets(eventId: string): string[] | undefined
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

export class StreamHub extends SocketHub {
  constructor(private readonly opts: HubOptions) {
    super(opts.keys, opts.maxBufferedBytes)
  }

  private sendError(conn: Conn, error: ServerErrorCode, message: string): void {
    this.send(conn, JSON.stringify({ type: 'error', error, message }))
  }

  protected onBinary(conn: Conn): void {
    this.sendError(conn, 'invalid_request', 'binary frames are not supported: send JSON text frames')
  }

  protected onText(conn: Conn, text: string): void {
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
    const listField = m.channel === 'market' ? 'markets' : 'events'
    if (m.type === 'unsubscribe') {
      for (const id of ids) this.unfollow(conn, m.channel, id)
      this.send(conn, JSON.stringify({ type: 'unsubscribed', channel: m.channel, [listField]: ids }))
      return
    }
    const filter: ChannelFilter = m.filter === undefined || m.filter === '' ? 'all' : m.filter
    const unknown: string[] = []
    const snapshotMarkets: string[] = []
    for (const id of ids) {
      // Re-subscribing replaces the filter and, like a first subscribe, starts with a fresh snapshot.
      this.follow(conn, m.channel, id, filter)
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

  /** Deliver one market update; `body` is the message after its "channel" field, starting with "type". */
  publishBody(marketId: string, eventId: string, kind: 'orderbook' | 'trade', body: string): void {
    // Built once per channel, and only if a subscriber's filter takes this kind.
    let onMarket: string | undefined
    let onEvent: string | undefined
    this.forEachFollower(marketId, eventId, (c, f, channel) => {
      if (!filterAllows(f, kind)) return
      this.send(
        c,
        channel === 'market' ? (onMarket ??= MARKET_PREFIX + body) : (onEvent ??= EVENT_PREFIX + body),
      )
    })
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
    this.forEachUser((c, key) => {
      for (const u of updates) {
        if (!key.permissions.includes(TOPIC_PERMISSION[u.type])) continue
        let text = texts.get(u)
        if (text === undefined) {
          text = JSON.stringify({ channel: 'user', ...u })
          texts.set(u, text)
        }
        this.send(c, text)
      }
    })
  }

  /** A key revoked, disabled or expired mid-stream ends its user subscriptions with an error. */
  revalidateUsers(): void {
    this.forEachRefusedUser((c, error) => {
      c.userKey = null
      this.sendError(c, error, userErrorMessage(error, c.ip))
    })
  }

  /** Liveness: terminate connections that missed the previous ping's pong, then ping the rest. */
  ping(): void {
    const now = Date.now()
    for (const c of this.conns) {
      if (c.pendingSince !== null) {
        c.ws.terminate()
        continue
      }
      c.pendingSince = now
      if (c.ws.readyState === WebSocket.OPEN) c.ws.ping()
    }
  }
}

function userErrorMessage(error: 'unauthorized' | 'ip not allowed', ip: string): string {
  return error === 'unauthorized'
    ? 'the API key is unknown, expired, disabled or revoked'
    : `this API key does not allow requests from ${ip}`
}
