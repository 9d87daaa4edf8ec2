// Books from the venue's REST, for venues whose stream does not promise a book after a subscribe (VoxFi: its
// docs say nothing of one, so a quiet market could stay empty for minutes). Every request for a snapshot (the
// first, and each resync's) also asks `GET /data/markets/{id}/orderbook`; the answer is read by the same adapter
// rule as the stream's `update-orderbook`, and a book the stream sent after the request went out always wins.
// A venue without the endpoint answers 404 before any success: then this connection stops asking.
import { builtinAdapters, FrameDecoder } from '../../../shared/adapters'
import type { Result, Update } from '../../../shared/model'
import type { Logger } from '../base/types'

/** What a REST client must offer here (rest.ts). */
export interface BookRest {
  get(path: string, apiKey: string): Promise<Result<unknown>>
}

export interface RestBooksDeps {
  /** The active connection's REST client; a different object after a profile switch. */
  rest(): BookRest | null
  /** The key REST requests carry (the listing's), or null when there is none. */
  key(): Promise<string | null>
  /** Whether the active profile's venue may have REST books (its adapter is voxfi or auto). */
  wanted(): boolean
  /** Whether the market's book is still wanted when the answer arrives. */
  wantsBook(market: string): boolean
  /** Applies a REST book taken at `requestedAt`; false when the stream's book is already newer. */
  apply(market: string, updates: readonly Update[], requestedAt: number): boolean
  /** A market asked to be verified (verify()) could not be: it needs a resync after all. */
  unverified(market: string): void
  log: Logger
  now(): number
  /** Requests in flight at once (default 4): a window opening 25 markets must not burst the rate limit. */
  concurrency?: number
  /** A silent market's book is verified over REST at most this often (default 30 s). */
  verifyEveryMs?: number
  /** At most this many REST books a minute, whatever asks (default 60): half of VoxFi's usual budget. */
  perMinute?: number
}

export function orderbookPath(market: string): string {
  return `/data/markets/${encodeURIComponent(market)}/orderbook`
}

/**
 * The REST body as the stream's `update-orderbook` frame, so that one adapter rule reads both: VoxFi's REST
 * book is the stream frame's `orderbook` object (with `last_price` for `last_transaction`).
 */
export function asStreamFrame(market: string, body: unknown): unknown {
  const inner =
    typeof body === 'object' && body !== null && !Array.isArray(body) && 'data' in body
      ? (body as { data: unknown }).data
      : body
  return { msg_type: 'update-orderbook', market_id: market, orderbook: inner }
}

export class RestBooks {
  private readonly decoder = new FrameDecoder({ adapters: builtinAdapters(), selection: 'voxfi' })
  private readonly queue: string[] = []
  private readonly queued = new Set<string>()
  private readonly inFlight = new Set<string>()
  /** Per REST client: whether it has answered a book yet, and whether it turned out to have none. */
  private client: BookRest | null = null
  private answered = false
  private unsupported = false
  private readonly concurrency: number
  /** Markets whose book is being verified rather than fetched for a resync: a failure resyncs them. */
  private readonly verifying = new Set<string>()
  private readonly lastVerified = new Map<string, number>()
  private readonly verifyTimers = new Map<string, NodeJS.Timeout>()
  /** When each of the last minute's requests went out, oldest first. */
  private readonly sentAt: number[] = []

  constructor(private readonly d: RestBooksDeps) {
    this.concurrency = Math.max(1, d.concurrency ?? 4)
  }

  /** Whether this venue has answered with REST books on this connection (so a silent book can be verified). */
  available(): boolean {
    this.sync()
    return this.d.wanted() && this.client !== null && this.answered && !this.unsupported
  }

  /**
   * A market silent past its stale limit, on a venue whose stream only speaks when something changes: ask REST
   * what its book is now rather than declare it stale. At most once per verifyEveryMs per market (later asks wait
   * for that); the book stays quiet meanwhile.
   */
  verify(market: string): void {
    if (this.verifyTimers.has(market)) return
    const every = this.d.verifyEveryMs ?? 30_000
    const due = (this.lastVerified.get(market) ?? -Infinity) + every - this.d.now()
    if (due > 0) {
      const timer = setTimeout(() => {
        this.verifyTimers.delete(market)
        this.verify(market)
      }, due)
      timer.unref?.()
      this.verifyTimers.set(market, timer)
      return
    }
    this.lastVerified.set(market, this.d.now())
    this.verifying.add(market)
    this.request([market])
    // Not asked after all (no REST client, a venue without REST books): the resync takes over.
    if (!this.queued.has(market) && !this.inFlight.has(market)) this.fail(market)
  }

  /** Nothing queued is asked for: a resync asks again at its next attempt, a verify becomes a resync. */
  private dropQueue(): void {
    const dropped = this.queue.splice(0)
    this.queued.clear()
    for (const m of dropped) this.fail(m)
  }

  private fail(market: string): void {
    if (this.verifying.delete(market)) this.d.unverified(market)
  }

  /** Ask for these markets' books (each at most once at a time). */
  request(markets: readonly string[]): void {
    if (!this.d.wanted()) return
    this.sync()
    if (this.unsupported || this.client === null) return
    for (const m of markets) {
      if (this.queued.has(m) || this.inFlight.has(m)) continue
      this.queued.add(m)
      this.queue.push(m)
    }
    this.pump()
  }

  /** Another profile or replay: nothing asked for the old one is applied. */
  reset(): void {
    for (const t of this.verifyTimers.values()) clearTimeout(t)
    this.verifyTimers.clear()
    this.verifying.clear()
    this.lastVerified.clear()
    this.queue.length = 0
    this.queued.clear()
    this.client = null
    this.answered = false
    this.unsupported = false
  }

  private sync(): void {
    const rest = this.d.rest()
    if (rest === this.client) return
    this.reset()
    this.client = rest
  }

  private pump(): void {
    const t = this.d.now()
    while (this.sentAt.length > 0 && (this.sentAt[0] as number) <= t - 60_000) this.sentAt.shift()
    while (this.inFlight.size < this.concurrency && this.queue.length > 0) {
      const market = this.queue.shift() as string
      this.queued.delete(market)
      if (!this.d.wantsBook(market)) {
        this.verifying.delete(market)
        continue
      }
      if (this.sentAt.length >= (this.d.perMinute ?? 60)) {
        // Over budget: what a resync asked for is asked again at its next attempt; a verify resyncs.
        this.fail(market)
        continue
      }
      this.sentAt.push(t)
      this.inFlight.add(market)
      void this.fetch(market).finally(() => {
        this.inFlight.delete(market)
        this.fail(market)
        this.pump()
      })
    }
  }

  private async fetch(market: string): Promise<void> {
    const client = this.client
    if (client === null) return
    const key = await this.d.key()
    if (key === null || client !== this.d.rest()) return
    const requestedAt = this.d.now()
    const r = await client.get(orderbookPath(market), key)
    // A profile switch while waiting: the answer belongs to another venue.
    if (client !== this.d.rest() || client !== this.client) return
    if (!r.ok) {
      if (r.error.code === 'unauthorized' || r.error.code === 'ip_not_allowed') {
        // The key is refused here too (its own state says so): no more books are asked with it until it changes.
        this.unsupported = true
        this.dropQueue()
        this.d.log.warn('rest books: the key was refused; books come from the stream until it changes')
      } else if (r.error.code === 'permission' || r.error.code === 'forbidden') {
        // This endpoint refuses this key, and only this endpoint: the other reads carry on.
        this.unsupported = true
        this.dropQueue()
        this.d.log.warn('rest books: the venue refuses this key its books (403); books come from the stream')
      } else if (r.error.code === 'not_found' && !this.answered) {
        this.unsupported = true
        this.dropQueue()
        this.d.log.info('rest books: this venue has no REST order books; books come from the stream only')
      } else if (r.error.code === 'rate_limited') {
        // Everything queued waits for the resync's next request, which comes after its backoff.
        this.dropQueue()
      }
      return
    }
    const decoded = this.decoder.decodeValue(asStreamFrame(market, r.value))
    const updates = decoded.updates.filter((u) => u.kind === 'book' || u.kind === 'ticker')
    if (!updates.some((u) => u.kind === 'book')) {
      if (!this.answered) {
        this.unsupported = true
        this.d.log.info('rest books: the REST answer is not an order book; books come from the stream only')
      }
      return
    }
    this.answered = true
    if (!this.d.wantsBook(market)) return
    // Applied, or the stream was newer: either way the book is vouched for, not a failed verify.
    this.verifying.delete(market)
    if (!this.d.apply(market, updates, requestedAt)) {
      this.d.log.info('rest books: the stream sent a newer book while REST was asked', { market })
    }
  }
}
