// Which subscription a 4004 refused (docs/voxfi.md §8 item 20). VoxFi closes the socket with 4004 when a message
// of ours is invalid and names no message, so the engine keeps, per socket, what it sent and what the venue has
// accepted, and works out the refused one from that:
//
// - The venue handles a socket's messages in order: an ack answers the oldest message not answered yet, or the
//   one it names (an ack that echoes a channel and ids), and every message before that one too (their own acks may
//   have been lost). A message the venue has not refused within SETTLE_MS of being sent, on a socket still open,
//   was accepted as well: a venue refuses a message as it reads it, and some venues never ack.
// - A subscription (a market or event id, or the account's channel) in an accepted subscribe is *known good*
//   until it stops being wanted or its filter changes. The *open* subscriptions of a socket are those of its
//   unanswered messages that are not known good: a 4004 can only be about one of them.
// - A 4004 with exactly one open subscription is about that one: it alone is set aside.
// - With several open, the venue's close cannot say which: they become *suspects*, held back from the ordinary
//   flow while everything known good is resent on the next socket. Suspects are then sent as probes, each alone
//   in its message, oldest first, only while nothing else on the socket is open: one probe, then two, four, … as
//   long as the venue accepts them (each accepted probe is known good and streams from then on). A 4004 during
//   a probe again leaves its open subscriptions as the suspects, oldest first, and starts over at one probe: the
//   oldest is usually the refused one (the venue stops at the first bad message), and a lone probe that draws
//   the 4004 is isolated. A refused subscription costs one reconnect, or two when it was not the last of its
//   batch; every accepted one streams from the moment its ack arrives.
// - Bounded: a search that has seen MAX_REFUSALS closes, or has run SEARCH_LIMIT_MS, ends at its next 4004: the
//   subscriptions open then are set aside (the refused one is among them), and the suspects not yet probed go
//   back to the ordinary flow.
import type { ClientMessage } from '../../../shared/protocol'

/** A market or event subscription. */
export interface IdUnit {
  channel: 'market' | 'event'
  id: string
}
/** What one subscribe asks for: an id on a channel, or the account's channel. */
export type Unit = IdUnit | { channel: 'user' }

/** What a 4004 turned out to be about, for the inspector and the incident log. */
export type Refusal =
  /** One subscription was open: the venue refused it. `message` is how it was sent; `wanted`, still asked for. */
  | { kind: 'isolated'; unit: Unit; message: ClientMessage; wanted: boolean }
  /** Several were open: the wanted ones among `open` are probed; `held` subscriptions wait for it in all. */
  | { kind: 'checking'; open: Unit[]; held: number }
  /** The search reached its bound: these open subscriptions are set aside without being told apart. */
  | { kind: 'gave-up'; units: IdUnit[] }
  /** Nothing of ours was waiting for an answer: the close is not about a message we can name. */
  | { kind: 'none' }

/** A venue refuses an invalid message as it reads it: unrefused this long on an open socket, it was accepted. */
export const SETTLE_MS = 5_000
/** A search ends at its next 4004 after this many closes… */
export const MAX_REFUSALS = 10
/** …or after this long. */
export const SEARCH_LIMIT_MS = 120_000
/** Probes sent at once, at most (the count doubles while the venue accepts them). */
const MAX_BATCH = 64

interface Entry {
  message: ClientMessage
  units: Unit[]
  at: number
}

interface Socket {
  /** Sent and not answered yet, oldest first. */
  out: Entry[]
  closedAt: number | null
}

interface Search {
  /** Held back from the ordinary flow, by key, the likeliest first. */
  suspects: Map<string, IdUnit>
  batch: number
  startedAt: number
  refusals: number
}

export interface RefusalSearchOptions {
  now(): number
  /** Whether a subscription is still asked for: only those are known good, suspected or set aside. */
  wanted(unit: Unit): boolean
  /** The search can take a step (a probe was answered, or a wait is over): flush, on a later tick. */
  progress(): void
  settleMs?: number
}

function unitKey(u: Unit): string {
  return u.channel === 'user' ? 'user' : `${u.channel}:${u.id}`
}

function unitsOf(m: ClientMessage): Unit[] {
  if (m.type !== 'subscribe') return []
  if (m.channel === 'user') return [{ channel: 'user' }]
  const ids = m.channel === 'market' ? m.markets : m.events
  return ids.map((id) => ({ channel: m.channel, id }))
}

interface NamedAck {
  type: 'subscribe' | 'unsubscribe'
  channel: 'market' | 'event'
  ids: string[]
}

/** An ack that echoes a market or event channel and its ids; null for one that does not (VoxFi documents its acks so). */
function namedAck(topic: 'subscribed' | 'unsubscribed', data: unknown): NamedAck | null {
  if (typeof data !== 'object' || data === null) return null
  const d = data as Record<string, unknown>
  const channel = d.channel === 'market' || d.channel === 'event' ? d.channel : null
  const list = channel === 'market' ? d.markets : channel === 'event' ? d.events : undefined
  if (channel === null || !Array.isArray(list) || !list.every((x) => typeof x === 'string')) return null
  return { type: topic === 'subscribed' ? 'subscribe' : 'unsubscribe', channel, ids: list }
}

/** Whether the ack is this message's: same kind, channel and ids (the venue may drop repeated ids). */
function answers(m: ClientMessage, ack: NamedAck): boolean {
  if (m.type !== ack.type || m.channel !== ack.channel) return false
  const ids = m.channel === 'market' ? m.markets : m.channel === 'event' ? m.events : []
  const echoed = new Set(ack.ids)
  return ids.every((id) => echoed.has(id)) && ack.ids.every((id) => ids.includes(id))
}

export class RefusalSearch {
  private current: Socket | null = null
  /** The socket that just closed, until its close was read (or the next one opens). */
  private last: Socket | null = null
  /** Keys of subscriptions the venue accepted, while they are wanted. */
  private readonly good = new Set<string>()
  private search: Search | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private readonly settleMs: number

  constructor(private readonly o: RefusalSearchOptions) {
    this.settleMs = o.settleMs ?? SETTLE_MS
  }

  opened(): void {
    this.current = { out: [], closedAt: null }
    this.last = null
  }

  closed(): void {
    if (this.current) this.current.closedAt = this.o.now()
    this.last = this.current
    this.current = null
    this.disarm()
  }

  sent(message: ClientMessage): void {
    const socket = this.current
    if (!socket) return
    const now = this.o.now()
    // Settled messages leave as new ones come, so a venue that never acks keeps only SETTLE_MS of them.
    this.settle(socket, now)
    socket.out.push({ message, units: unitsOf(message), at: now })
    this.arm()
  }

  /** A 'subscribed' / 'unsubscribed' ack on the current socket. */
  acked(topic: 'subscribed' | 'unsubscribed', data: unknown): void {
    const out = this.current?.out
    if (!out || out.length === 0) return
    const named = namedAck(topic, data)
    const i = named === null ? 0 : out.findIndex((e) => answers(e.message, named))
    if (i >= 0) this.accept(out.splice(0, i + 1))
  }

  /** The venue answered the account's subscribe with an error frame: answered, but not accepted. */
  userRefused(): void {
    const out = this.current?.out
    if (!out) return
    const i = out.findIndex((e) => e.message.type === 'subscribe' && e.message.channel === 'user')
    if (i >= 0) this.accept(out.splice(0, i + 1).slice(0, -1))
  }

  /** Whether this subscription waits for its probe instead of going out with the others. */
  holds(channel: 'market' | 'event', id: string): boolean {
    return this.search?.suspects.has(unitKey({ channel, id })) ?? false
  }

  /** The subscription stopped being wanted, or changed its filter: what the venue said of it no longer holds. */
  forget(unit: Unit): void {
    const key = unitKey(unit)
    this.good.delete(key)
    this.drop(key)
  }

  /** Another venue (a profile switch): nothing it said is known. */
  reset(): void {
    this.good.clear()
    this.search = null
    this.last = null
    this.disarm()
  }

  /** The probes to send now, each alone in its message; none while anything on the socket is still open. */
  nextProbes(): IdUnit[] {
    const s = this.search
    const socket = this.current
    if (!s || !socket) return []
    this.settle(socket, this.o.now())
    if (this.search !== s || this.openOf(socket).length > 0) return []
    const batch = [...s.suspects.values()].slice(0, s.batch)
    s.batch = Math.min(MAX_BATCH, s.batch * 2)
    return batch
  }

  /**
   * The socket closed with 4004: what it was about, as far as the answers tell. Isolated and given-up
   * subscriptions are no longer suspects; setting them aside is the caller's.
   */
  venueRefused(): Refusal {
    const socket = this.last
    this.last = null
    if (!socket) return { kind: 'none' }
    this.settle(socket, socket.closedAt ?? this.o.now())
    const open = this.openOf(socket)
    const only = open.length === 1 ? open[0] : undefined
    if (only) {
      if (this.search) {
        this.search.refusals += 1
        this.search.batch = 1
      }
      this.drop(unitKey(only.unit))
      return { kind: 'isolated', unit: only.unit, message: only.message, wanted: this.o.wanted(only.unit) }
    }
    if (open.length === 0) return { kind: 'none' }
    const now = this.o.now()
    const s = (this.search ??= { suspects: new Map(), batch: 1, startedAt: now, refusals: 0 })
    s.refusals += 1
    const candidates = open
      .map((o) => o.unit)
      .filter((u): u is IdUnit => u.channel !== 'user' && this.o.wanted(u))
    if (s.refusals > MAX_REFUSALS || now - s.startedAt > SEARCH_LIMIT_MS) {
      this.search = null
      return { kind: 'gave-up', units: candidates }
    }
    // The open ones first, oldest first: the venue reads in order and stops at the first bad message.
    const suspects = new Map(candidates.map((u) => [unitKey(u), u] as const))
    for (const [key, u] of s.suspects) if (!suspects.has(key)) suspects.set(key, u)
    s.suspects = suspects
    s.batch = 1
    if (suspects.size === 0) this.search = null
    return { kind: 'checking', open: open.map((o) => o.unit), held: suspects.size }
  }

  close(): void {
    this.reset()
    this.current = null
  }

  /** Open subscriptions of a socket, oldest first, each with the message that carried it first. */
  private openOf(socket: Socket): Array<{ unit: Unit; message: ClientMessage }> {
    const seen = new Set<string>()
    const open: Array<{ unit: Unit; message: ClientMessage }> = []
    for (const e of socket.out) {
      for (const unit of e.units) {
        const key = unitKey(unit)
        if (this.good.has(key) || seen.has(key)) continue
        seen.add(key)
        open.push({ unit, message: e.message })
      }
    }
    return open
  }

  /** Messages unrefused for settleMs by `at` were accepted. */
  private settle(socket: Socket, at: number): void {
    let n = 0
    while (n < socket.out.length && (socket.out[n] as Entry).at + this.settleMs <= at) n++
    if (n > 0) this.accept(socket.out.splice(0, n))
  }

  private accept(entries: readonly Entry[]): void {
    for (const e of entries) {
      for (const unit of e.units) {
        if (!this.o.wanted(unit)) continue
        const key = unitKey(unit)
        this.good.add(key)
        this.drop(key)
      }
    }
    this.arm()
    // The next probes may go once nothing on the socket is open.
    if (this.search && this.current && this.openOf(this.current).length === 0) this.o.progress()
  }

  /** No longer a suspect. The search ends with its last suspect. */
  private drop(key: string): void {
    const s = this.search
    if (!s || !s.suspects.delete(key)) return
    if (s.suspects.size === 0) this.search = null
  }

  /** While a search waits on the socket, wake when its oldest unanswered message settles. */
  private arm(): void {
    this.disarm()
    const oldest = this.current?.out[0]
    if (!this.search || !oldest) return
    const delay = Math.max(0, oldest.at + this.settleMs - this.o.now())
    this.timer = setTimeout(() => {
      this.timer = null
      if (this.current) this.settle(this.current, this.o.now())
      this.o.progress()
    }, delay)
    this.timer.unref?.()
  }

  private disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }
}
