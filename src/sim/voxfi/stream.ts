// VoxFi's WebSocket (docs.voxfi.com.br/en/websockets/*): subscribe/unsubscribe per /sub-unsub with VoxFi's acks,
// market and event channels without a key, the user channel with the key in `auth`, errors as close codes
// (/errors: 4001 unauthorized, 4003 server error, 4004 invalid message), a text `ping` answered with `pong`, and
// the heartbeat of /connection: protocol pings every 10 s, a client silent for 20 s after a ping is dropped.
import { WebSocket } from 'ws'
import type { ChannelFilter } from '../../shared/model'
import type { Permission } from '../config'
import { SocketHub, type Conn } from '../hub'
import type { KeyStore } from '../keys'
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
/** No VoxFi id (a UUID) holds whitespace or a control character. */
const MALFORMED_ID = /[\s\p{Cc}]/u

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
  // Our choice (docs/voxfi.md §8 item 23): an id with a space or a control character in it is malformed, not
  // unknown, so one subscription can be refused alone.
  if ((list as string[]).some((id) => MALFORMED_ID.test(id)))
    return { ok: false, reason: `invalid ${channel} id` }
  let filter: ChannelFilter = 'all'
  if (type === 'subscribe' && m.filter !== undefined && m.filter !== null && m.filter !== '') {
    if (typeof m.filter !== 'string' || !(FILTERS as readonly string[]).includes(m.filter)) {
      return { ok: false, reason: 'invalid filter' }
    }
    filter = m.filter as ChannelFilter
  }
  return { ok: true, type, channel, ids: [...new Set(list as string[])], filter, auth: '' }
}

export class VoxHub extends SocketHub {
  private lastPing = Date.now()
  private readonly heartbeat: NodeJS.Timeout

  constructor(private readonly opts: VoxHubOptions) {
    super(opts.keys, opts.maxBufferedBytes)
    const every = Math.min(1000, Math.max(5, Math.floor(Math.min(opts.pingMs, opts.pongTimeoutMs) / 4)))
    this.heartbeat = setInterval(() => this.beat(), every)
    this.heartbeat.unref()
  }

  protected onBinary(conn: Conn): void {
    this.closeConn(conn, CLOSE.invalidMessage, 'invalid message')
  }

  protected onText(conn: Conn, text: string): void {
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
    for (const id of m.ids) {
      // Re-subscribing is accepted and replaces the filter. Unknown ids are accepted too; they never send.
      if (m.type === 'subscribe') this.follow(conn, m.channel, id, m.filter)
      else this.unfollow(conn, m.channel, id)
    }
    const type = m.type === 'subscribe' ? 'subscribed' : 'unsubscribed'
    this.send(
      conn,
      m.channel === 'market' ? ack(type, 'market', m.ids, null) : ack(type, 'event', null, m.ids),
    )
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
    this.forEachFollower(marketId, eventId, (c, f) => {
      const text = frameFor(f)
      if (text !== null) this.send(c, text)
    })
  }

  /** A ready-made frame of one kind (firehose, faults) to the subscriptions whose filter takes that kind. */
  publishRaw(marketId: string, eventId: string, kind: FrameKind, text: string): void {
    this.forEachFollower(marketId, eventId, (c, f) => {
      if (f === 'all' || f === kind) this.send(c, text)
    })
  }

  /** Fills to every user subscriber whose key still passes (4001 otherwise) and may read orders. */
  publishUser(frames: readonly string[]): void {
    this.revalidateUsers()
    if (frames.length === 0) return
    this.forEachUser((c, key) => {
      if (key.permissions.includes(this.opts.userPermission)) for (const f of frames) this.send(c, f)
    })
  }

  /** A key revoked, disabled or expired (or an IP no longer allowed) closes its sockets with 4001. */
  revalidateUsers(): void {
    this.forEachRefusedUser((c, error) => this.closeConn(c, CLOSE.unauthorized, error))
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

  override close(): void {
    clearInterval(this.heartbeat)
    super.close()
  }
}
