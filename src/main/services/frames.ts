// The hot path from a text frame to state: decode the frame as received, and route each update to the books, tapes,
// user feed or registry, telling the fan-out what changed, the liveness tracker that the market spoke, the
// resync tracker when a book breaks or heals, and the alert rules what they watch (after the state is applied, so
// a rule sees what a window would). Runs for every frame: no per-update copies or scans. A frame that carries a
// known key (a venue echoing it back) is decoded and routed as it came, so books, tapes and subscriptions read
// exactly what the venue sent; only the copies that leave the engine's memory are scrubbed (feed/redact.ts): the
// recorder's line, the inspector's frame, the account update shown in windows, and the server's error text that
// reaches the status and the log.
import type { TextDecoded } from '../../shared/adapters'
import type { TradeView, Update } from '../../shared/model'
import type { AlertService } from './alerts/service'
import type { BookStore } from './market/books'
import type { Fanout } from './fanout/fanout'
import type { IncidentLog } from './health/incidents'
import type { Inspector } from './health/inspector'
import type { InterestIndex } from './market/interests'
import type { MarketLiveness } from './health/liveness'
import type { SecretRedactor } from './feed/redact'
import type { DuplicateFilter } from './feed/duplicate-frames'
import type { SubscriptionRegistry } from './feed/registry'
import type { ResyncTracker } from './market/resync'
import type { StatusTracker } from './health/status'
import type { TapeStore } from './market/tapes'
import type { UserFeed } from './account/user-feed'
import type { AccountModel } from './account/model'
import type { VenueSilence } from './health/venue-silence'

export interface FrameRouterDeps {
  /** The profile's venue adapter (venue-decoder.ts). */
  decoder: { decodeText(text: string): TextDecoded }
  secrets: SecretRedactor
  inspector: Inspector
  interests: InterestIndex
  books: BookStore
  tapes: TapeStore
  userFeed: UserFeed
  registry: SubscriptionRegistry
  liveness: MarketLiveness
  resync: ResyncTracker
  status: StatusTracker
  /** The live feed's silence episode, which any data ends (a replay has none). */
  silence?: VenueSilence
  incidents: IncidentLog
  /** Only what a frame changes (a seek's router tells recording/seek-changes.ts instead of the windows). */
  fanout: Pick<Fanout, 'bookChanged' | 'tickerChanged' | 'trade' | 'user' | 'inspector'>
  alerts: Pick<AlertService, 'onBook' | 'onTicker' | 'onTrade' | 'onAccount'>
  /** The one account (account/model.ts): every user update is folded into it once. */
  account?: AccountModel
  /** A public print reached the tape: paper orders it reaches fill (orders/paper.ts). */
  printed?: (trade: TradeView) => void
  /** Hears that the stream reported something of the account (VoxFi's executions: the REST account is read again). */
  userHeard?: () => void
  /** The second copy of a frame, where the venue sends one per channel (VoxFi: duplicate-frames.ts). */
  duplicate?: DuplicateFilter
  /** Sees every frame's text, with known keys scrubbed from its copy (the feed recorder, recorder.ts). */
  tap?: (text: string, receivedAt: number) => void
  /**
   * The frames come from a recording. It holds every market the recorded session watched, so a frame for one no
   * window watches now is expected, not unknown: counting it as unknown made a replay's inspector count hundreds
   * of "unknown" frames that were only other markets.
   */
  replayed?: boolean
}

/** Narrows an update to one placed in a market without copying it. */
function hasMarket<U extends { market: string | null }>(update: U): update is U & { market: string } {
  return update.market !== null
}

/** Whether a frame carries only public market data (books, trades, tickers): the only frames ever sent twice. */
function onlyMarketData(updates: readonly Update[]): boolean {
  if (updates.length === 0) return false
  for (const u of updates) if (u.kind !== 'book' && u.kind !== 'trade' && u.kind !== 'ticker') return false
  return true
}

/**
 * Whether the venue said something new of its markets or the account. An ack or a heartbeat is not news, and
 * neither is a snapshot answering our own request (a resubscribe's): a frozen venue answers those as a REST
 * read does, without anything moving.
 */
function carriesNews(updates: readonly Update[], awaited: (market: string) => boolean): boolean {
  for (const u of updates) {
    if (u.kind === 'trade' || u.kind === 'ticker' || u.kind === 'user') return true
    if (u.kind === 'book' && !(u.snapshot && u.market !== null && awaited(u.market))) return true
  }
  return false
}

/**
 * The market a frame gives the whole book of, and nothing else but that market's ticker figures; null for any
 * other frame. Only such a frame may be skipped when it comes again: a trade or an account update is news each
 * time it comes, and a delta means something only once.
 */
function wholeBookOf(updates: readonly Update[]): string | null {
  let market: string | null = null
  let yesBook = false
  for (const u of updates) {
    if (u.kind === 'book') {
      if (!u.snapshot) return null
      if (u.outcome !== 'no') yesBook = true
    } else if (u.kind !== 'ticker') return null
    if (u.market === null || (market !== null && u.market !== market)) return null
    market = u.market
  }
  return yesBook ? market : null
}

export class FrameRouter {
  constructor(private readonly d: FrameRouterDeps) {}

  /** A market whose snapshot the engine asked for and has not had yet. */
  private readonly awaited = (market: string): boolean => this.d.resync.attempt(market) !== null

  readonly onFrame = (raw: string, receivedAt: number): void => {
    const d = this.d
    d.status.heard(receivedAt)
    // One token search per known key; a frame without a key (every ordinary one) is never copied.
    const echoed = d.secrets.active && d.secrets.contains(raw)
    const text = echoed ? d.secrets.redact(raw) : raw
    if (d.tap) d.tap(text, receivedAt)
    // The second copy of a market's frame (VoxFi sends it on the market and the event channel alike) is dropped
    // unparsed: only texts read as public market data are remembered, never an account frame (two identical
    // fills are two fills) nor an ack.
    if (d.duplicate?.copy(raw, receivedAt) === true) return
    // A market's whole book sent again as the very text that left it as it is (VoxFi resends them): found by the
    // text alone, it is heard but not parsed. A frame with a key in it is never remembered, so never found here.
    const repeated = echoed ? null : d.books.repeatedFrame(raw)
    if (repeated !== null && d.interests.routed(repeated.market)) {
      this.onRepeat(raw, receivedAt, repeated.updates)
      return
    }
    const decoded = d.decoder.decodeText(raw)
    if (d.duplicate !== undefined && decoded.ok && onlyMarketData(decoded.updates))
      d.duplicate.remember(raw, receivedAt)
    if (!decoded.ok) {
      // A parser's message may quote the frame.
      const error = echoed ? d.secrets.redact(decoded.error) : decoded.error
      const frame = d.inspector.record(text, receivedAt, 'malformed', [], error)
      if (frame) d.fanout.inspector(frame)
      d.incidents.badFrame(`malformed frame: ${error.slice(0, 120)}`)
      return
    }
    if (d.silence?.active === true && carriesNews(decoded.updates, this.awaited)) {
      d.silence.heard()
      d.status.silenceChanged()
    }
    let unknown = decoded.unknown
    let unplaced = false
    for (const update of decoded.updates) {
      if (!this.route(update, receivedAt, echoed)) unplaced = true
    }
    // The inspector says why a frame was not read: the adapter's reason, or that no watched market takes it.
    const why = unknown
      ? (decoded.reasons[0] ?? 'not recognised')
      : unplaced
        ? d.replayed
          ? 'recorded for a market no window watches now'
          : 'read, but for no market this connection watches'
        : undefined
    unknown ||= unplaced && d.replayed !== true
    const frame = echoed
      ? d.inspector.record(
          text,
          receivedAt,
          unknown ? 'unknown' : 'ok',
          d.secrets.scrubValue(decoded.updates),
          why === undefined ? undefined : d.secrets.redact(why),
        )
      : d.inspector.record(text, receivedAt, unknown ? 'unknown' : 'ok', decoded.updates, why)
    if (frame) d.fanout.inspector(frame)
    if (!echoed && why === undefined) {
      const market = wholeBookOf(decoded.updates)
      if (market !== null) d.books.rememberFrame(market, raw, decoded.updates)
    }
  }

  /**
   * A frame whose text is its market's last whole book, with the book unchanged since: everything a decoded
   * copy would do but applying the books (which would come out 'unchanged'). The market spoke, so liveness,
   * a silence and the inspector hear it; its ticker figures are applied as decoded then.
   */
  private onRepeat(raw: string, receivedAt: number, updates: readonly Update[]): void {
    const d = this.d
    // Its copy on the other channel (VoxFi's event channel) is dropped as a decoded frame's would be.
    d.duplicate?.remember(raw, receivedAt)
    if (d.silence?.active === true && carriesNews(updates, this.awaited)) {
      d.silence.heard()
      d.status.silenceChanged()
    }
    for (const update of updates) {
      if (update.kind === 'book' && hasMarket(update)) this.heard(update.market, receivedAt)
      else this.route(update, receivedAt, false)
    }
    const frame = d.inspector.record(raw, receivedAt, 'ok', updates)
    if (frame) d.fanout.inspector(frame)
  }

  /**
   * A book read from the venue's REST (rest-books.ts), as it stood at `requestedAt`. Applied like a stream
   * snapshot, but: never over a book the stream sent since the request went out, dated when it was asked for (so
   * it is never shown newer than it is), and not heard by liveness (REST answering is not the market speaking).
   * False when the stream's book was newer.
   */
  applyRest(market: string, updates: readonly Update[], requestedAt: number): boolean {
    const d = this.d
    if (!d.interests.routed(market)) return false
    const current = d.books.get(market)
    if (
      current !== undefined &&
      (current.state === 'live' || current.state === 'quiet') &&
      (current.updatedAt ?? -Infinity) >= requestedAt
    ) {
      return false
    }
    for (const update of updates) {
      if (update.kind === 'ticker' && hasMarket(update)) {
        if (d.books.applyTicker(update, requestedAt)) d.fanout.tickerChanged(update.market)
        continue
      }
      if (update.kind !== 'book' || !hasMarket(update) || update.market !== market || !update.snapshot)
        continue
      const outcome = d.books.apply(update, requestedAt, 'rest')
      if (outcome === 'crossed') d.resync.need(market, outcome)
      else if (outcome === 'snapshot') d.resync.satisfied(market)
    }
    d.liveness.vouched(market, requestedAt)
    d.fanout.bookChanged(market)
    d.alerts.onBook(market)
    return true
  }

  /** The account read from the venue's REST (account-rest.ts): the same path as the stream's account updates. */
  applyAccount(updates: readonly Extract<Update, { kind: 'user' }>[], at: number): void {
    for (const update of updates) this.applyUser(update, at)
  }

  private applyUser(update: Extract<Update, { kind: 'user' }>, at: number): void {
    const view = this.d.userFeed.push(update, at)
    this.d.fanout.user(view)
    const changes = this.d.account?.apply([view]) ?? []
    this.d.alerts.onAccount(changes)
  }

  /**
   * Whether the market is routed. A trade or ticker of it is news of the market, so a book shown as quiet is
   * live again and windows redraw it.
   */
  private heard(market: string, receivedAt: number): boolean {
    const d = this.d
    if (!d.interests.routed(market)) return false
    if (d.liveness.observe(market, receivedAt) && d.books.clearQuiet(market)) d.fanout.bookChanged(market)
    return true
  }

  /**
   * Applies one update; false when it could not be placed (counted as unknown, kept in the inspector). `echoed`:
   * the frame carried a known key, so the text it puts in windows (an account update, an error) is scrubbed.
   */
  private route(update: Update, receivedAt: number, echoed: boolean): boolean {
    const d = this.d
    switch (update.kind) {
      case 'book': {
        if (!hasMarket(update)) return false
        const market = update.market
        if (!d.interests.routed(market)) return false
        const lifted = d.liveness.observe(market, receivedAt) && d.books.clearQuiet(market)
        const outcome = d.books.apply(update, receivedAt)
        // The same whole book again (VoxFi resends them): nothing changed for a rule, and for a window only
        // that the book is live again if it was quiet.
        if (outcome === 'unchanged') {
          if (lifted) d.fanout.bookChanged(market)
          return true
        }
        // A delta for a book without a snapshot is 'ignored' by the book (never applied); its resync asks again.
        if (outcome === 'gap' || outcome === 'crossed') d.resync.need(market, outcome)
        else if (outcome === 'snapshot') d.resync.satisfied(market)
        else if (outcome === 'ignored' && !update.snapshot) d.resync.deltaWithoutSnapshot(market)
        d.fanout.bookChanged(market)
        d.alerts.onBook(market)
        return true
      }
      case 'trade': {
        if (!hasMarket(update) || !this.heard(update.market, receivedAt)) return false
        const view = d.tapes.push(update, receivedAt)
        if (view) {
          d.books.setLast(view.market, view.price, receivedAt)
          d.fanout.trade(view)
          d.alerts.onTrade(view)
          d.printed?.(view)
        }
        return true
      }
      case 'ticker': {
        if (!hasMarket(update) || !this.heard(update.market, receivedAt)) return false
        if (!d.books.applyTicker(update, receivedAt)) return true
        d.fanout.tickerChanged(update.market)
        d.alerts.onTicker(update.market)
        return true
      }
      case 'user': {
        this.applyUser(echoed ? d.secrets.scrubValue(update) : update, receivedAt)
        d.userHeard?.()
        return true
      }
      case 'control': {
        if (update.topic === 'error') {
          const data = update.data as Record<string, unknown> | null
          const said =
            data && typeof data === 'object' && typeof data.message === 'string' ? data.message : null
          const message = echoed && said !== null ? d.secrets.redact(said) : said
          if (!d.registry.handleServerError(update.error, message)) {
            const code = update.error ?? 'error'
            d.status.setError({
              code: 'bad_response',
              message: `The server rejected a request: ${echoed ? d.secrets.redact(code) : code}`,
            })
          }
        } else if (update.topic === 'subscribed' || update.topic === 'unsubscribed') {
          d.registry.handleAck(update.topic, update.data)
        }
        return true
      }
      case 'info':
        // Market metadata is recognised, and kept out of books, tapes, alerts and the account on purpose.
        return true
      case 'unknown':
        return false
    }
  }
}
