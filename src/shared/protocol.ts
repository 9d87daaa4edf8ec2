// Wire messages of the spec (trading-api.md §2.3, §4.2) and their validation. Used by the engine to build
// messages and by the simulator to judge what clients send.
import type { ChannelFilter } from './model'

export type Channel = 'market' | 'event' | 'user'
export const CHANNELS: readonly Channel[] = ['market', 'event', 'user']
export const FILTERS: readonly ChannelFilter[] = ['all', 'orderbook', 'trades']

export type SubscribeMessage =
  | { type: 'subscribe'; channel: 'market'; markets: string[]; filter?: ChannelFilter | '' }
  | { type: 'subscribe'; channel: 'event'; events: string[]; filter?: ChannelFilter | '' }
  | { type: 'subscribe'; channel: 'user'; auth: string }

export type UnsubscribeMessage =
  | { type: 'unsubscribe'; channel: 'market'; markets: string[] }
  | { type: 'unsubscribe'; channel: 'event'; events: string[] }
  | { type: 'unsubscribe'; channel: 'user' }

export type ClientMessage = SubscribeMessage | UnsubscribeMessage

/** Error codes the server sends on the WebSocket (DESIGN §3.1). */
export type ServerErrorCode = 'unauthorized' | 'ip not allowed' | 'invalid_request'

export type ParseResult = { ok: true; message: ClientMessage } | { ok: false; message: string }

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length > 0)
}

/** '' means 'all' (spec §2.3). Returns null for a value that is not a filter. */
export function normaliseFilter(v: unknown): ChannelFilter | null {
  if (v === undefined || v === '' || v === null) return 'all'
  return typeof v === 'string' && (FILTERS as readonly string[]).includes(v) ? (v as ChannelFilter) : null
}

/** Validate a decoded client frame. Messages say exactly what is wrong, for `invalid_request` errors. */
export function parseClientMessage(value: unknown): ParseResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'message must be a JSON object' }
  }
  const m = value as Record<string, unknown>
  if (m.type !== 'subscribe' && m.type !== 'unsubscribe') {
    return {
      ok: false,
      message: `unknown type ${JSON.stringify(m.type)}: expected "subscribe" or "unsubscribe"`,
    }
  }
  if (typeof m.channel !== 'string' || !(CHANNELS as readonly string[]).includes(m.channel)) {
    return {
      ok: false,
      message: `unknown channel ${JSON.stringify(m.channel)}: expected "market", "event" or "user"`,
    }
  }
  const type = m.type
  const channel = m.channel as Channel
  if (channel === 'user') {
    if (type === 'unsubscribe') return { ok: true, message: { type, channel } }
    if (typeof m.auth !== 'string' || m.auth.length === 0) {
      return { ok: false, message: 'subscribe to channel "user" needs "auth" (the API key)' }
    }
    return { ok: true, message: { type, channel, auth: m.auth } }
  }
  const listField = channel === 'market' ? 'markets' : 'events'
  const list = m[listField]
  if (!isStringArray(list) || list.length === 0) {
    return {
      ok: false,
      message: `${type} to channel "${channel}" needs "${listField}": a non-empty array of ids`,
    }
  }
  if (type === 'unsubscribe') {
    return channel === 'market'
      ? { ok: true, message: { type, channel, markets: list } }
      : { ok: true, message: { type, channel, events: list } }
  }
  const filter = normaliseFilter(m.filter)
  if (filter === null) {
    return {
      ok: false,
      message: `unknown filter ${JSON.stringify(m.filter)}: expected "all", "orderbook" or "trades"`,
    }
  }
  return channel === 'market'
    ? { ok: true, message: { type, channel, markets: list, filter } }
    : { ok: true, message: { type, channel, events: list, filter } }
}

/** Whether an update of the given type passes a filter. */
export function filterAllows(filter: ChannelFilter, updateType: 'orderbook' | 'trade'): boolean {
  return filter === 'all' || (filter === 'orderbook' ? updateType === 'orderbook' : updateType === 'trade')
}

/** Union of filters: orderbook + trades = all. */
export function uniteFilters(a: ChannelFilter | null, b: ChannelFilter): ChannelFilter {
  if (a === null || a === b) return b
  return 'all'
}
