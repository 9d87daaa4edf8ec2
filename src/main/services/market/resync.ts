// Resync that never gives up (DESIGN §4): every wanted book without a valid snapshot — first subscribe,
// reconnect, gap, crossed, silent, or a snapshot lost or ignored — is an episode that is chased with backoff
// until a snapshot arrives: resubscribe that market (or its event), and after a few unanswered tries on a
// connection that otherwise delivers data, rebuild the connection once. Each episode is in the incident log.
// The one end without a snapshot: a market the venue has never said a word of, through attemptsBeforeUnknown
// requests while other data flowed, is marked unknown and no longer asked for, until something says it may
// exist after all (the listing names it, a new connection, a delta, a new subscribe or a Resync).
import { UNKNOWN_MARKET, type Incident } from '../../../shared/model'
import type { BookStore } from './books'
import type { IncidentLog } from '../health/incidents'
import type { ResyncConfig } from '../health/thresholds'
import type { Logger } from '../base/types'

export interface ResyncDeps {
  config: ResyncConfig
  now(): number
  random(): number
  books: BookStore
  incidents: IncidentLog
  log: Logger
  /** Every market whose book is wanted now. */
  wantedBooks(): Iterable<string>
  wantsBook(market: string): boolean
  /**
   * Whether the venue's listing names this market. A listed market is never marked unknown (its book is only
   * slow), and an unknown one is asked for again as soon as the listing names it. Without it, only the venue's
   * silence decides.
   */
  listed?(market: string): boolean
  /** Ask the venue again for these markets (a fresh snapshot answers). */
  resubscribe(markets: readonly string[]): void
  /**
   * Ask the venue's REST for these markets' books, where it has them (VoxFi does not promise a book after a
   * subscribe, so the first book, and every resync's, comes from REST). Called with every request for a
   * snapshot, the first included.
   */
  fetchSnapshots?(markets: readonly string[]): void
  /** The socket is open (sends can go out). */
  streamOpen(): boolean
  /** The connection is delivering other data right now, so an unanswered market is this market's problem. */
  dataFlowing(): boolean
  /** Rebuild the connection (every subscription is replayed on the new socket). */
  reconnect(reason: string): void
  bookChanged(market: string): void
}

interface Episode {
  reason: string
  /** Requests for a snapshot so far (the first subscribe or replay counts as the first). */
  attempt: number
  nextAt: number
  /** When a snapshot was last asked for. */
  requestedAt: number
  startedAt: number
  incident: Incident | null
  /** This episode already cost one reconnect; it keeps asking, but never reconnects again. */
  escalated: boolean
  /** A delta arrived for the market during the episode: the venue knows it, whatever else it leaves unsaid. */
  heard: boolean
  /** The venue never answered: nothing is asked for until the episode is restarted (restart()). */
  unknown: boolean
}

/** At most one reconnect for unanswered snapshots in this long, whichever markets ask for it. */
const ESCALATION_SPACING_MS = 30_000

export class ResyncTracker {
  private readonly episodes = new Map<string, Episode>()
  private lastEscalationAt = -Infinity
  private readonly timer: NodeJS.Timeout

  constructor(private readonly deps: ResyncDeps) {
    this.timer = setInterval(() => this.tick(), deps.config.checkMs)
    this.timer.unref()
  }

  /** A book is known to be wrong (gap, crossed, silent, requested): mark it and ask for a snapshot now. */
  need(market: string, reason: string): void {
    const { books, now } = this.deps
    books.markStale(market, reason)
    let episode = this.episodes.get(market)
    // Asked for by name (a window's Resync): an unknown market gets a fresh round of requests.
    if (episode?.unknown === true) episode = undefined
    if (episode === undefined) {
      episode = this.start(market, reason, now())
      episode.incident = this.deps.incidents.open('resync', `book ${reason}; resubscribing`, market)
    }
    this.request(market, episode, now())
    this.deps.log.info('resync: snapshot requested', { market, reason, attempt: episode.attempt })
    if (this.deps.streamOpen()) this.deps.resubscribe([market])
    this.deps.fetchSnapshots?.([market])
  }

  /**
   * A delta arrived for a book that has no snapshot: the subscription is flowing, so its snapshot was lost (a
   * stall, a venue that ignored the request). Ask again now rather than at the backoff's pace, at most once per
   * two base intervals so a venue that never answers is not flooded.
   */
  deltaWithoutSnapshot(market: string): void {
    const episode = this.episodes.get(market)
    if (episode === undefined || !this.deps.streamOpen()) return
    episode.heard = true
    if (episode.unknown) {
      this.restart(market, episode)
      return
    }
    const at = this.deps.now()
    if (at - episode.requestedAt < 2 * this.deps.config.baseMs) return
    this.request(market, episode, at)
    this.deps.resubscribe([market])
    this.deps.fetchSnapshots?.([market])
  }

  /** A snapshot arrived: the episode is over. */
  satisfied(market: string): void {
    const episode = this.episodes.get(market)
    if (episode === undefined) return
    this.episodes.delete(market)
    if (episode.incident) {
      const seconds = ((this.deps.now() - episode.startedAt) / 1000).toFixed(1)
      const tries = episode.attempt === 1 ? '1 request' : `${episode.attempt} requests`
      this.deps.incidents.end(
        episode.incident,
        `book ${episode.reason}; live again after ${seconds} s (${tries})`,
      )
    }
  }

  /** A new socket: the registry replays every subscription on it, which is every episode's next request. */
  connected(): void {
    const at = this.deps.now()
    for (const [market, episode] of this.episodes) {
      // The replay asks an unknown market again too: it gets a fresh round of requests on the new socket.
      if (episode.unknown) this.reopen(market, episode)
      this.request(market, episode, at)
      // A new socket is a fresh start: the next check comes at the first step of the backoff again.
      episode.nextAt = at + this.delay(1)
    }
    // Books that were live before the drop are stale now; their episodes start with the replay.
    this.reconcile(at)
    if (this.episodes.size > 0) this.deps.fetchSnapshots?.([...this.episodes.keys()])
  }

  /** The attempt count of a market's episode, or null when its book needs nothing. */
  attempt(market: string): number | null {
    return this.episodes.get(market)?.attempt ?? null
  }

  /** Whether the market is marked unknown (never answered, no longer asked for). */
  unknown(market: string): boolean {
    return this.episodes.get(market)?.unknown ?? false
  }

  forget(market: string): void {
    const episode = this.episodes.get(market)
    if (episode === undefined) return
    this.episodes.delete(market)
    this.deps.incidents.end(episode.incident, `book ${episode.reason}; no longer watched`)
  }

  /** Another profile: every episode ends unresolved. */
  clear(): void {
    for (const market of [...this.episodes.keys()]) this.forget(market)
  }

  close(): void {
    clearInterval(this.timer)
  }

  /** Runs every checkMs; public for tests that drive time themselves. */
  tick(): void {
    if (!this.deps.streamOpen()) return
    const at = this.deps.now()
    this.reconcile(at)
    const due: string[] = []
    let escalate: string | null = null
    for (const [market, episode] of this.episodes) {
      if (!this.deps.wantsBook(market)) {
        this.forget(market)
        continue
      }
      if (episode.unknown) {
        // A listing loaded since may name it now: then it is asked for again.
        if (this.deps.listed?.(market) === true) this.restart(market, episode)
        continue
      }
      if (at < episode.nextAt) continue
      if (this.neverAnswered(market, episode)) {
        this.markUnknown(market, episode)
        continue
      }
      this.request(market, episode, at)
      if (episode.incident === null) {
        // A replayed subscription that went unanswered is an incident of its own from the second request on.
        episode.incident = this.deps.incidents.open(
          'resync',
          `book ${episode.reason}: no snapshot; resubscribing`,
          market,
        )
      }
      if (
        episode.attempt > this.deps.config.attemptsBeforeReconnect &&
        !episode.escalated &&
        escalate === null &&
        at - this.lastEscalationAt >= ESCALATION_SPACING_MS &&
        this.deps.dataFlowing()
      ) {
        episode.escalated = true
        escalate = market
      } else due.push(market)
    }
    if (escalate !== null) {
      this.lastEscalationAt = at
      this.deps.log.warn('resync: snapshot still missing, rebuilding the connection', {
        market: escalate,
        attempts: this.episodes.get(escalate)?.attempt ?? 0,
      })
      this.deps.reconnect(`no snapshot for ${escalate}`)
      return
    }
    if (due.length > 0) {
      this.deps.log.info('resync: snapshot overdue, resubscribing', { markets: due.length })
      this.deps.resubscribe(due)
      this.deps.fetchSnapshots?.(due)
    }
  }

  /** Every wanted book without a valid snapshot gets an episode (its subscription counts as the first request). */
  private reconcile(at: number): void {
    const started: string[] = []
    for (const market of this.deps.wantedBooks()) {
      if (this.episodes.has(market)) continue
      const book = this.deps.books.get(market)
      const state = book?.state ?? 'empty'
      if (state === 'live' || state === 'quiet') continue
      const episode = this.start(market, book?.staleReason ?? 'subscribe', at)
      episode.attempt = 1
      episode.requestedAt = at
      episode.nextAt = at + this.delay(1)
      started.push(market)
      if (book !== undefined && state !== 'empty') {
        this.deps.books.markResyncing(market, 1)
        this.deps.bookChanged(market)
      }
    }
    if (started.length > 0 && this.deps.streamOpen()) this.deps.fetchSnapshots?.(started)
  }

  private start(market: string, reason: string, at: number): Episode {
    const episode: Episode = {
      reason,
      attempt: 0,
      nextAt: at,
      requestedAt: at,
      startedAt: this.deps.now(),
      incident: null,
      escalated: false,
      heard: false,
      unknown: false,
    }
    this.episodes.set(market, episode)
    return episode
  }

  /**
   * Due for another request after attemptsBeforeUnknown of them, each given its full wait: true when the venue
   * has never said a word of the market (no book, ticker, trade or delta), other data flows (so the venue is
   * answering, just not about this), and the listing does not name it (a listed market is only slow).
   */
  private neverAnswered(market: string, episode: Episode): boolean {
    return (
      episode.attempt >= this.deps.config.attemptsBeforeUnknown &&
      !episode.heard &&
      !this.deps.books.heardOf(market) &&
      this.deps.listed?.(market) !== true &&
      this.deps.dataFlowing()
    )
  }

  /** Stops asking for the market, and says so on its book and in the incident log. */
  private markUnknown(market: string, episode: Episode): void {
    episode.unknown = true
    const detail = `book ${episode.reason}: no answer to ${episode.attempt} requests; the venue does not seem to know this market, so it is no longer asked for`
    if (episode.incident) this.deps.incidents.end(episode.incident, detail)
    else this.deps.incidents.record('resync', detail, market)
    episode.incident = null
    this.deps.log.warn('resync: the venue never answered this market; no longer asking', {
      market,
      attempts: episode.attempt,
    })
    this.deps.books.markStale(market, UNKNOWN_MARKET)
    this.deps.bookChanged(market)
  }

  /** An unknown market's episode starts over: its next request is the first of a new round. */
  private reopen(market: string, episode: Episode): void {
    episode.unknown = false
    // `escalated` stays: a market the venue does not know costs at most one reconnect, however often it is retried.
    episode.attempt = 0
    episode.startedAt = this.deps.now()
    this.deps.log.info('resync: asking again for a market marked unknown', { market })
  }

  /** Reopens an unknown market's episode and asks for it now (the caller saw a reason it may exist). */
  private restart(market: string, episode: Episode): void {
    this.reopen(market, episode)
    this.request(market, episode, this.deps.now())
    if (this.deps.streamOpen()) this.deps.resubscribe([market])
    this.deps.fetchSnapshots?.([market])
  }

  /** Counts one more request for a snapshot (the caller sends it) and shows it on the book. */
  private request(market: string, episode: Episode, at: number): void {
    episode.attempt += 1
    episode.requestedAt = at
    episode.nextAt = at + this.delay(episode.attempt)
    this.deps.books.markResyncing(market, episode.attempt)
    this.deps.bookChanged(market)
  }

  /** Exponential in the attempt, capped, with ±25% jitter so many books don't ask in lockstep. */
  private delay(attempt: number): number {
    const { baseMs, capMs } = this.deps.config
    const plain = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(0, attempt - 1), 20))
    return Math.round(plain * (0.75 + 0.5 * this.deps.random()))
  }
}
