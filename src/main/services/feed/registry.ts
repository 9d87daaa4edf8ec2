// The subscription registry: every window's interests, their union per (channel, id), and what the current
// connection has been told. It sends the difference, batched per tick, and replays everything on each
// (re)connect. It also owns the user channel's authentication state (the sticky auth error), and holds back or
// probes the subscriptions a 4004 left in doubt (refusal-search.ts).
import type { Interest } from '../../../shared/ipc'
import type { ApiError, ChannelFilter } from '../../../shared/model'
import { uniteFilters, type ClientMessage } from '../../../shared/protocol'
import type { Logger } from '../base/types'
import { RefusalSearch, type Refusal, type Unit } from './refusal-search'

export type IdChannel = 'market' | 'event'

export type UserChannelState = 'off' | 'no-key' | 'subscribing' | 'subscribed' | 'auth-error'

export interface DesiredDiff {
  added: string[]
  removed: string[]
  /** Still wanted, but with another filter. */
  changed: string[]
}

export interface RegistryChange {
  market: DesiredDiff
  event: DesiredDiff
  user: boolean
}

export interface RegistryOptions {
  /** Sends one message on the current socket; false when it is not open. */
  send(message: ClientMessage): boolean
  isOpen(): boolean
  /** The API key for the user channel, fetched per subscribe and held only for that message. */
  getUserKey(): Promise<string | null>
  logger: Logger
  /** Ids per subscribe/unsubscribe message. */
  chunkSize?: number
  /** Runs the batched flush; default setImmediate. */
  schedule?: (fn: () => void) => void
  /** Called synchronously after the union of interests changed. */
  onChange?(change: RegistryChange): void
  /** Called whenever the sticky auth error is set or cleared. */
  onAuthChange?(error: ApiError | null): void
  now?: () => number
}

export interface SubscriptionRegistry {
  /** Replace one client's interests (idempotent). */
  setInterests(clientId: string, interests: readonly Interest[]): void
  removeClient(clientId: string): void
  /** Union over all clients: id -> united filter. */
  desired(channel: IdChannel): ReadonlyMap<string, ChannelFilter>
  wantsUser(): boolean
  /** Whether any subscription (market, event or user) is wanted: data is expected on the socket. */
  hasAny(): boolean
  /** A new socket is open: nothing is subscribed on it yet, replay everything. */
  connected(): void
  /** The socket is gone: the server forgot every subscription. */
  disconnected(): void
  /** Send this id's subscribe again (resync: the server answers with a fresh snapshot). */
  resubscribe(channel: IdChannel, id: string): void
  /** The stored key changed (set, rotated or cleared): clear the auth error and re-authenticate. */
  keyChanged(): void
  /** A server error frame. Returns true when it was attributed to the user channel. */
  handleServerError(code: string | undefined, message: string | null): boolean
  /** A server 'subscribed' / 'unsubscribed' ack (data as decoded). */
  handleAck(topic: 'subscribed' | 'unsubscribed', data: unknown): void
  /**
   * The socket that just closed was closed with 4004 (a message of ours was invalid): which subscription it was
   * about, as far as the venue's answers tell (refusal-search.ts). One the venue is found to refuse is set aside:
   * not sent again until it stops being wanted and is asked for anew, so a bad id cannot make a reconnect loop.
   */
  venueRefused(): Refusal
  /** Ids set aside after a 4004, per channel. */
  refused(channel: IdChannel): ReadonlySet<string>
  /** Another venue (a profile switch): what the last one accepted or refused no longer holds. */
  venueChanged(): void
  /** Sets the sticky auth error from elsewhere (REST 401/403 with the stored key). */
  setAuthError(error: ApiError): void
  authError(): ApiError | null
  userState(): UserChannelState
  /** Apply pending changes now (tests; normally once per tick). */
  flush(): void
  close(): void
}

export const DEFAULT_CHUNK_SIZE = 100

/** Maps a server error code to the user channel's ApiError, or null when it is not an auth error. */
export function authErrorFromCode(code: string | undefined): ApiError | null {
  const c = (code ?? '').trim().toLowerCase()
  if (c === 'unauthorized' || c === 'unauthorised' || c === '401') {
    return {
      code: 'unauthorized',
      message:
        'The exchange rejected the API key for the account channel (unauthorized). Check that the key is ' +
        'correct, enabled, not expired and not revoked, then enter a new key in Settings → API key.',
    }
  }
  if (c === 'ip not allowed' || c === 'ip_not_allowed' || c === '403') {
    return {
      code: 'ip_not_allowed',
      message:
        "The exchange refused this computer's IP address for the API key (ip not allowed). Add this IP to the " +
        "key's allowed IPs in the exchange's security settings (that means creating a new key), or use a key " +
        'without an IP restriction.',
    }
  }
  return null
}

export function createRegistry(options: RegistryOptions): SubscriptionRegistry {
  const log = options.logger
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE)
  const schedule = options.schedule ?? ((fn: () => void) => void setImmediate(fn))
  const now = options.now ?? Date.now

  const clients = new Map<string, readonly Interest[]>()
  const desiredMaps: Record<IdChannel, Map<string, ChannelFilter>> = { market: new Map(), event: new Map() }
  let desiredUser = false
  // What the current connection has been sent (the server's view, as far as we know).
  const sent: Record<IdChannel, Map<string, ChannelFilter>> = { market: new Map(), event: new Map() }
  const refusedIds: Record<IdChannel, Set<string>> = { market: new Set(), event: new Set() }
  let userSent = false
  let userPending = false
  let userNoKey = false
  let authError: ApiError | null = null
  // Bumped on every key change and every connection, so a late key fetch or a late error for an old key is ignored.
  let keyGen = 0
  let connGen = 0
  // Key generations of user subscribes still waiting for their ack or error, oldest first.
  let outstandingUser: number[] = []
  // After a key change we unsubscribe the old key's user subscription; until the venue acknowledges that (or a
  // while passes, for venues that don't ack), an auth error is about the old key, not the new one.
  let oldKeyErrorsUntil = 0
  const OLD_KEY_WINDOW_MS = 10_000
  let flushScheduled = false
  let closed = false
  const refusals = new RefusalSearch({ now, wanted: (u) => wanted(u), progress: () => requestFlush() })

  /** Every message goes out here, so the search knows what the socket carries. */
  function send(message: ClientMessage): boolean {
    if (!options.send(message)) return false
    refusals.sent(message)
    return true
  }

  function recompute(): RegistryChange {
    const next: Record<IdChannel, Map<string, ChannelFilter>> = { market: new Map(), event: new Map() }
    let user = false
    for (const interests of clients.values()) {
      for (const i of interests) {
        if (i.channel === 'user') user = true
        else next[i.channel].set(i.id, uniteFilters(next[i.channel].get(i.id) ?? null, i.filter))
      }
    }
    const diff = (prev: Map<string, ChannelFilter>, now: Map<string, ChannelFilter>): DesiredDiff => {
      const d: DesiredDiff = { added: [], removed: [], changed: [] }
      for (const [id, f] of now) {
        const old = prev.get(id)
        if (old === undefined) d.added.push(id)
        else if (old !== f) d.changed.push(id)
      }
      for (const id of prev.keys()) if (!now.has(id)) d.removed.push(id)
      return d
    }
    const change: RegistryChange = {
      market: diff(desiredMaps.market, next.market),
      event: diff(desiredMaps.event, next.event),
      user: user !== desiredUser,
    }
    desiredMaps.market = next.market
    desiredMaps.event = next.event
    // An id asked for anew after it was dropped gets another chance with the venue, and what the venue said of
    // an id no longer holds once it is dropped or asked for with another filter.
    for (const channel of ['market', 'event'] as const) {
      for (const id of change[channel].removed) {
        refusedIds[channel].delete(id)
        refusals.forget({ channel, id })
      }
      for (const id of change[channel].changed) refusals.forget({ channel, id })
    }
    desiredUser = user
    return change
  }

  function isEmpty(c: RegistryChange): boolean {
    const e = (d: DesiredDiff) => d.added.length + d.removed.length + d.changed.length === 0
    return e(c.market) && e(c.event) && !c.user
  }

  function requestFlush(): void {
    if (flushScheduled || closed) return
    flushScheduled = true
    schedule(() => {
      flushScheduled = false
      flush()
    })
  }

  function chunks(ids: string[]): string[][] {
    const out: string[][] = []
    for (let i = 0; i < ids.length; i += chunkSize) out.push(ids.slice(i, i + chunkSize))
    return out
  }

  function sendIds(
    type: 'subscribe' | 'unsubscribe',
    channel: IdChannel,
    ids: string[],
    filter?: ChannelFilter,
  ): boolean {
    for (const part of chunks(ids)) {
      let message: ClientMessage
      if (type === 'unsubscribe') {
        message = channel === 'market' ? { type, channel, markets: part } : { type, channel, events: part }
      } else {
        const f = filter ?? 'all'
        message =
          channel === 'market'
            ? { type, channel, markets: part, filter: f }
            : { type, channel, events: part, filter: f }
      }
      if (!send(message)) return false
    }
    return true
  }

  function flushChannel(channel: IdChannel): boolean {
    const want = desiredMaps[channel]
    const have = sent[channel]
    const unsubscribe: string[] = []
    for (const id of have.keys()) if (!want.has(id)) unsubscribe.push(id)
    const byFilter = new Map<ChannelFilter, string[]>()
    const refused = refusedIds[channel]
    for (const [id, f] of want) {
      if (have.get(id) === f || refused.has(id) || refusals.holds(channel, id)) continue
      const list = byFilter.get(f) ?? []
      list.push(id)
      byFilter.set(f, list)
    }
    if (unsubscribe.length > 0) {
      if (!sendIds('unsubscribe', channel, unsubscribe)) return false
      for (const id of unsubscribe) have.delete(id)
    }
    for (const [f, ids] of byFilter) {
      if (!sendIds('subscribe', channel, ids, f)) return false
      for (const id of ids) have.set(id, f)
    }
    return true
  }

  function flushUser(): void {
    if (!desiredUser) {
      if (userSent) {
        if (!send({ type: 'unsubscribe', channel: 'user' })) return
        userSent = false
        outstandingUser = []
      }
      return
    }
    if (userSent || userPending || userNoKey || authError) return
    userPending = true
    const gen = connGen
    const kg = keyGen
    options.getUserKey().then(
      (key) => {
        userPending = false
        if (closed) return
        if (gen !== connGen || kg !== keyGen) {
          requestFlush() // the world moved on while the key was fetched: try again with the current state
          return
        }
        if (!desiredUser || authError || userSent || !options.isOpen()) return
        if (key === null || key.length === 0) {
          userNoKey = true
          log.info('registry: user channel wanted but no API key is stored')
          return
        }
        if (send({ type: 'subscribe', channel: 'user', auth: key })) {
          userSent = true
          outstandingUser.push(kg)
        }
      },
      (err: unknown) => {
        userPending = false
        userNoKey = true
        // The credential store's errors carry codes, never the key.
        log.warn('registry: could not read the API key for the user channel', { error: String(err) })
      },
    )
  }

  /** A subscription in doubt after a 4004, alone in its message, once nothing else on the socket is. */
  function sendProbes(): void {
    for (const { channel, id } of refusals.nextProbes()) {
      const f = desiredMaps[channel].get(id)
      if (f === undefined || refusedIds[channel].has(id)) continue
      const message: ClientMessage =
        channel === 'market'
          ? { type: 'subscribe', channel, markets: [id], filter: f }
          : { type: 'subscribe', channel, events: [id], filter: f }
      if (!send(message)) return
      sent[channel].set(id, f)
    }
  }

  function flush(): void {
    if (closed || !options.isOpen()) return
    if (!flushChannel('market')) return
    if (!flushChannel('event')) return
    flushUser()
    sendProbes()
  }

  function wanted(u: Unit): boolean {
    if (u.channel === 'user') return desiredUser
    return desiredMaps[u.channel].has(u.id) && !refusedIds[u.channel].has(u.id)
  }

  function setAside(units: readonly Unit[]): void {
    let count = 0
    for (const u of units) {
      if (u.channel === 'user' || !desiredMaps[u.channel].has(u.id)) continue
      refusedIds[u.channel].add(u.id)
      sent[u.channel].delete(u.id)
      count++
    }
    if (count > 0) log.warn('registry: subscriptions refused by the venue are set aside', { count })
  }

  function setAuth(next: ApiError | null): void {
    authError = next
    try {
      options.onAuthChange?.(next)
    } catch (err) {
      log.error('registry: onAuthChange threw', { error: String(err) })
    }
  }

  function apply(): void {
    const change = recompute()
    if (isEmpty(change)) return
    if (change.user && desiredUser) userNoKey = false
    try {
      options.onChange?.(change)
    } catch (err) {
      log.error('registry: onChange threw', { error: String(err) })
    }
    requestFlush()
  }

  return {
    setInterests(clientId, interests) {
      if (closed) return
      clients.set(clientId, [...interests])
      apply()
    },
    removeClient(clientId) {
      if (closed || !clients.delete(clientId)) return
      apply()
    },
    desired(channel) {
      return desiredMaps[channel]
    },
    wantsUser() {
      return desiredUser
    },
    hasAny() {
      return desiredMaps.market.size > 0 || desiredMaps.event.size > 0 || (desiredUser && userSent)
    },
    connected() {
      connGen += 1
      refusals.opened()
      sent.market.clear()
      sent.event.clear()
      userSent = false
      userNoKey = false
      outstandingUser = []
      oldKeyErrorsUntil = 0
      // Replay at once, not on the next tick: the socket is open now and data should start flowing.
      flush()
    },
    disconnected() {
      connGen += 1
      refusals.closed()
      sent.market.clear()
      sent.event.clear()
      userSent = false
      outstandingUser = []
    },
    resubscribe(channel, id) {
      if (!desiredMaps[channel].has(id)) return
      sent[channel].delete(id)
      requestFlush()
    },
    keyChanged() {
      keyGen += 1
      userNoKey = false
      outstandingUser = []
      refusals.forget({ channel: 'user' })
      if (authError) setAuth(null)
      if (userSent) {
        // Re-authenticate: drop the subscription made with the old key, then subscribe with the new one.
        // If the send fails the socket is gone and the server forgot the subscription anyway.
        if (send({ type: 'unsubscribe', channel: 'user' })) oldKeyErrorsUntil = Date.now() + OLD_KEY_WINDOW_MS
        userSent = false
      }
      requestFlush()
    },
    handleServerError(code, message) {
      const error = authErrorFromCode(code)
      if (!error) {
        log.warn('registry: server error', { code: code ?? null, message: message?.slice(0, 200) ?? null })
        return false
      }
      // An auth error frame is the venue's answer to a user subscribe, whichever key it was for.
      refusals.userRefused()
      // Errors answer subscribes in order: an auth error for a key that was already replaced is stale.
      if (Date.now() < oldKeyErrorsUntil) {
        log.info('registry: ignoring an auth error that concerns the replaced key', { code: error.code })
        return true
      }
      const gen = outstandingUser.shift() ?? keyGen
      if (gen !== keyGen) {
        log.info('registry: ignoring an auth error for a replaced key', { code: error.code })
        return true
      }
      userSent = false
      log.warn('registry: user channel authentication failed', { code: error.code })
      setAuth(error)
      return true
    },
    handleAck(topic, data) {
      refusals.acked(topic, data)
      if (typeof data !== 'object' || data === null || (data as Record<string, unknown>).channel !== 'user')
        return
      // Either ack means every answer about the old key has arrived (the venue answers in order).
      oldKeyErrorsUntil = 0
      if (topic === 'subscribed') outstandingUser.shift()
    },
    venueRefused() {
      const refusal = refusals.venueRefused()
      if (refusal.kind === 'isolated') setAside([refusal.unit])
      else if (refusal.kind === 'gave-up') setAside(refusal.units)
      return refusal
    },
    refused(channel) {
      return refusedIds[channel]
    },
    venueChanged() {
      refusals.reset()
      refusedIds.market.clear()
      refusedIds.event.clear()
    },
    setAuthError(error) {
      setAuth(error)
    },
    authError() {
      return authError
    },
    userState() {
      if (!desiredUser) return 'off'
      if (authError) return 'auth-error'
      if (userSent) return outstandingUser.length > 0 ? 'subscribing' : 'subscribed'
      if (userNoKey) return 'no-key'
      return 'subscribing'
    },
    flush,
    close() {
      closed = true
      refusals.close()
      clients.clear()
    },
  }
}
