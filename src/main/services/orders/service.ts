// Orders (docs/trading.md): the one place an order, a cancel or a merge leaves the app. Every safety rule of the
// issue lives here, each said once:
//  - one intent, one order: an intent id is sent at most once for the engine's life, whatever arrives after;
//  - the window's profile and mode must be the engine's when the order arrives, or nothing is sent;
//  - a POST is never retried: a timeout, a dropped connection or a 5xx leaves the order `unknown`, and the venue's
//    open orders and activity settle it (reconcile.ts), never a second send;
//  - limits and fat-finger checks before anything is sent; a warning the user has not accepted sends nothing;
//  - a key refused a permission, or a venue without a path, is a lasting state until the key changes;
//  - cancel-all reaches every working order (in flight ones as soon as the venue names them) inside the rate
//    limit, and holds new orders until it is done;
//  - paper orders never reach the venue, and live ones never go during a replay;
//  - every request and its answer is journalled, without the key.
import { randomUUID } from 'node:crypto'
import type { FillRow, OrderRow } from '../../../shared/account'
import { fail, ok } from '../../../shared/ipc'
import type { ApiError, BookView, Level, Result } from '../../../shared/model'
import { estimateOrder, toTicks } from '../../../shared/order-estimate'
import {
  isWorking,
  type AccountView,
  type CancelAllResult,
  type JournalEntry,
  type MergeResult,
  type OrderRequest,
  type OrderView,
  type TradingBlock,
  type TradingSettings,
  type TradingSettingsInput,
  type TradingView,
} from '../../../shared/trading'
import type { AccountModel } from '../account/model'
import type { Logger } from '../base/types'
import type { TradeRequest, TradeResult } from '../feed/rest'
import type { TradingApi, TradingReach } from './api'
import type { OrderJournal } from './journal'
import { PaperBroker } from './paper'
import {
  attribute,
  CREATED_SKEW_MS,
  namedByOthers,
  reserveFor,
  type Attribution,
  type Claimant,
  type ClaimedExecution,
  type Execution,
} from './attribution'
import { Reconciler, venueReads, type Settlement, type VenueReads } from './reconcile'
import {
  mergeBody,
  placeBody,
  readPlaceAnswer,
  TRADE_PATHS,
  tradeError,
  type PlaceOutcome,
  type TradeCall,
} from './venue'

/** An answer to an order is awaited this long before its fate is called unknown and reconciled. */
export const PLACE_TIMEOUT_MS = 8_000
/** Two identical orders (another intent) this close together ask first. */
export const DUPLICATE_WINDOW_MS = 1_000
/** Cancel-all's pace: at most this many cancels started a second, and this many in flight. */
export const CANCEL_RATE_PER_S = 25
export const CANCEL_CONCURRENCY = 8
/** A cancel refused by the rate limit (429: not executed) is sent again after its wait, at most this often. */
const CANCEL_RETRIES = 5
/** Orders kept per profile for the views: every working one, and the newest finished ones. */
const FINISHED_KEPT = 300

export interface TradingVenue {
  send(request: TradeRequest, apiKey: string): Promise<TradeResult>
  get(path: string, apiKey: string): Promise<Result<unknown>>
}

export interface OrderServiceDeps {
  log: Logger
  now(): number
  /** The active profile: a replay's read-only one while a replay runs. */
  profile(): { id: string; demo: boolean; replay: boolean }
  venue(): TradingVenue | null
  key(): Promise<string | null>
  settings: {
    get(profileId: string): TradingSettings
    set(profileId: string, input: TradingSettingsInput): Promise<Result<TradingSettings>>
  }
  /** The book a window shows for the market (its NO book in `no`); null when none. */
  book(market: string): BookView | null
  eventOf(market: string): string | null
  /** The venue's account as the engine folded it (open orders, fills). */
  account: AccountModel
  journal: OrderJournal
  /** The taker fee in centavos for `quantity` contracts at `priceTicks`. */
  feeCents(priceTicks: number, quantity: number): number
  /** Read the venue's account soon, at the reader's pace (after an order's answer, a cancel, a merge). */
  refreshAccount(): void
  /** The account view changed: windows get it again. */
  changed(): void
  /** A journal entry was written: windows' blotters get it. */
  journalled(entry: JournalEntry): void
  /** For tests: how a reconcile step waits. */
  sleep?(ms: number): Promise<void>
}

interface OrderRecord extends OrderView {
  profileId: string
  eventId: string | null
  /** When the request left (ms), for the reconciliation's time window. */
  sentAt: number | null
  /** A cancel was asked for while the venue had not named the order yet. */
  cancelWanted: boolean
  /** The state before a cancel went out, to go back to when the cancel fails. */
  beforeCancel: OrderView['state'] | null
  /** The executions the venue's answer named (they are this order's rows of the venue's activity). */
  executions?: PlaceOutcome['executions']
}

interface ProfileOrders {
  orders: Map<string, OrderRecord>
  paper: PaperBroker
  blocked: TradingBlock | null
}

/** The same order, as the duplicate check compares it. */
function signature(r: OrderRequest): string {
  return [r.mode, r.market, r.side, r.outcome, r.kind, r.priceTicks ?? '', r.quantity].join('|')
}

function levelsOf(book: BookView | null, outcome: 'YES' | 'NO'): { bids: Level[]; asks: Level[] } | null {
  if (book === null || book.state === 'empty') return null
  return outcome === 'YES' ? { bids: book.bids, asks: book.asks } : (book.no ?? null)
}

function refusal(code: ApiError['code'], message: string, extra: Partial<ApiError> = {}): ApiError {
  return { code, message, ...extra }
}

export class OrderService implements TradingApi {
  private readonly profiles = new Map<string, ProfileOrders>()
  /** Every intent this run has seen, with the order it became. */
  private readonly intents = new Map<string, string>()
  private readonly recent: Array<{ sig: string; at: number; intent: string }> = []
  /** The account fills given to orders that left the open list (`fillsFor`): those orders', never another's. */
  private readonly takenFills = new Set<string>()
  private cancelling = false
  private readonly reconciler: Reconciler

  constructor(private readonly d: OrderServiceDeps) {
    this.reconciler = new Reconciler({
      log: d.log,
      now: d.now,
      reads: () => this.reads(),
      sleep: d.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref?.())),
      settled: (order, outcome) => this.settled(order, outcome),
      claimed: () => this.claimedVenueIds(),
      claimedExecutions: () => this.claimedExecutions(),
      // Orders the venue knows by their id, whose fills the app learned of from `since` on: their rows can be in
      // the activity a lost order's look reads. One whose fills were all known before then traded before then.
      owed: (order, since) => {
        const record = this.recordOf(order.id)
        return record === null
          ? []
          : this.owed(record, (w) => w.venueId !== null && w.updatedAt >= since - CREATED_SKEW_MS)
      },
      doubtful: (order, reason) => this.doubtful(order, reason),
    })
  }

  // ------------------------------------------------------------------ views

  account(): AccountView {
    const profile = this.d.profile()
    const p = this.of(profile.id)
    const state = this.d.account.state()
    const mine = [...p.orders.values()]
    const known = new Set(mine.map((o) => o.venueId).filter((v): v is string => v !== null))
    const venueOrders: OrderView[] = []
    for (const row of Object.values(state.orders)) {
      if (known.has(row.id) || row.market === null) continue
      venueOrders.push(venueOrderView(row))
    }
    const orders = [...mine.map(view), ...p.paper.views(), ...venueOrders].sort(
      (a, b) => b.createdAt - a.createdAt,
    )
    const fills: FillRow[] = [...state.fills, ...p.paper.fillRows()].sort((a, b) => b.ts - a.ts).slice(0, 200)
    return {
      profileId: profile.id,
      trading: this.tradingView(),
      balances: Object.values(state.balances),
      positions: Object.values(state.positions),
      fills,
      orders,
      paper: { balance: p.paper.balance(), positions: p.paper.positions() },
      reads: this.d.account.reads(),
      undecoded: state.undecoded,
      lastUpdateAt: state.lastUpdateAt,
    }
  }

  journal(): JournalEntry[] {
    return this.d.journal.today()
  }

  private tradingView(): TradingView {
    const profile = this.d.profile()
    return {
      profileId: profile.id,
      settings: this.d.settings.get(profile.id),
      blocked: this.blockOf(profile),
      cancelling: this.cancelling,
    }
  }

  private blockOf(profile: { id: string; replay: boolean }): TradingBlock | null {
    if (profile.replay)
      return {
        code: 'replay',
        message: 'A replay is running: only paper orders can be placed until it stops.',
      }
    return this.of(profile.id).blocked
  }

  // ------------------------------------------------------------------ settings

  async setTrading(input: TradingSettingsInput): Promise<Result<TradingView>> {
    const profile = this.d.profile()
    const r = await this.d.settings.set(profile.id, input)
    if (!r.ok) return r
    this.d.changed()
    return ok(this.tradingView())
  }

  // ------------------------------------------------------------------ place

  async place(request: OrderRequest, reach: TradingReach): Promise<Result<OrderView>> {
    // One intent, one order: a repeat returns what the first became and sends nothing, whatever changed since.
    const seen = this.intents.get(request.intentId)
    if (seen !== undefined) {
      const order = this.find(seen)
      if (order !== null) return ok(order)
    }
    const profile = this.d.profile()
    const settings = this.d.settings.get(profile.id)
    const refused = this.check(request, profile, settings, reach)
    if (refused !== null) {
      this.journalRefusal(request, profile.id, refused)
      return fail(refused)
    }
    // From here the intent is taken, before anything awaits: a second call for it finds this order.
    const id = `o-${randomUUID()}`
    this.intents.set(request.intentId, id)
    this.recent.push({ sig: signature(request), at: this.d.now(), intent: request.intentId })
    if (request.mode === 'paper') return this.placePaper(id, request, profile.id)
    return this.placeLive(id, request, profile.id)
  }

  /** Every rule an order must pass before it leaves; the refusal, or null. */
  private check(
    r: OrderRequest,
    profile: { id: string; demo: boolean; replay: boolean },
    settings: TradingSettings,
    reach: TradingReach,
  ): ApiError | null {
    if (r.profileId !== profile.id) {
      return refusal(
        'mode_changed',
        'The window showed another profile than the one now active: nothing was sent. Check the profile and send again.',
      )
    }
    if (settings.mode === 'off') {
      return refusal(
        'off',
        'Trading is off for this profile: nothing was sent. Choose paper or live in the status bar to trade.',
      )
    }
    if (r.mode !== settings.mode) {
      return refusal(
        'mode_changed',
        `Trading is now ${settings.mode.toUpperCase()}, not ${r.mode.toUpperCase()} as the window showed: nothing was sent. Check the mode and send again.`,
      )
    }
    if (this.cancelling) {
      return refusal(
        'busy',
        'Cancel-all is running: new orders wait until it is done. Send again in a moment.',
      )
    }
    if (r.mode === 'live') {
      const block = this.blockOf(profile)
      if (block !== null)
        return refusal(block.code === 'permission' ? 'permission' : 'trading_disabled', block.message)
      if (reach === 'builtin-simulator' && !profile.demo) {
        return refusal(
          'trading_disabled',
          'This browser page may only send live orders to the built-in simulator: start the browser host with ' +
            '--allow-trading to trade on a real venue from a browser.',
        )
      }
    }
    const limits = settings.limits
    if (r.quantity > limits.maxContracts) {
      return refusal(
        'too_large',
        `${r.quantity.toLocaleString('en-US')} contracts is over this profile's limit of ${limits.maxContracts.toLocaleString('en-US')} an order. Lower the quantity, or raise the limit in the ticket's limits (⚙).`,
        { field: 'quantity' },
      )
    }
    const estimate = estimateOrder(
      { side: r.side, kind: r.kind, priceTicks: r.priceTicks ?? null, quantity: r.quantity },
      levelsOf(this.d.book(r.market), r.outcome),
      this.d.feeCents,
    )
    // A market order walks the book; what it cannot fill is cancelled by the venue, so it is valued at what fills.
    const value = estimate.value + estimate.fee
    if (value > limits.maxOrderValue) {
      return refusal(
        'too_large',
        `This order is worth about R$ ${value.toFixed(2)}, over this profile's limit of R$ ${limits.maxOrderValue.toFixed(2)} an order. Lower the quantity or price, or raise the limit in the ticket's limits (⚙).`,
        { field: 'quantity' },
      )
    }
    const working = this.workingCount(profile.id, r.mode)
    if (working >= limits.maxOpenOrders) {
      return refusal(
        'too_many_orders',
        `This profile has ${working} working ${r.mode} orders, its limit of ${limits.maxOpenOrders}. Cancel some, or raise the limit in the ticket's limits (⚙).`,
      )
    }
    const confirm: Array<'duplicate' | 'far_through'> = []
    const accepted = new Set(r.confirmed ?? [])
    if (r.kind === 'limit' && r.priceTicks !== undefined && estimate.touchTicks !== null) {
      const through =
        r.side === 'buy' ? r.priceTicks - estimate.touchTicks : estimate.touchTicks - r.priceTicks
      if (through > limits.farTicks && !accepted.has('far_through')) confirm.push('far_through')
    }
    if (!accepted.has('duplicate') && this.isDuplicate(r)) confirm.push('duplicate')
    if (confirm.length > 0) {
      const why = confirm
        .map((c) =>
          c === 'duplicate'
            ? 'the same order was sent less than a second ago'
            : `the price is more than ${limits.farTicks} ticks through the touch`,
        )
        .join(', and ')
      return refusal('confirm', `Nothing was sent: ${why}. Send it anyway?`, { confirm })
    }
    return null
  }

  private isDuplicate(r: OrderRequest): boolean {
    const now = this.d.now()
    while (this.recent.length > 0 && now - (this.recent[0]?.at ?? now) > DUPLICATE_WINDOW_MS)
      this.recent.shift()
    const sig = signature(r)
    return this.recent.some((x) => x.sig === sig && x.intent !== r.intentId)
  }

  private workingCount(profileId: string, mode: 'live' | 'paper'): number {
    const p = this.of(profileId)
    if (mode === 'paper') return p.paper.views().filter((o) => isWorking(o.state)).length
    let n = 0
    for (const o of p.orders.values()) if (isWorking(o.state)) n++
    // Orders placed elsewhere count too: the limit is on the account's exposure, not the app's share of it.
    const mine = new Set([...p.orders.values()].map((o) => o.venueId))
    for (const row of Object.values(this.d.account.state().orders)) if (!mine.has(row.id)) n++
    return n
  }

  private placePaper(id: string, r: OrderRequest, profileId: string): Result<OrderView> {
    const base = this.journalBase(r, profileId, id)
    this.append({ ...base, action: 'place', outcome: 'sent' })
    const placed = this.of(profileId).paper.place({
      id,
      intentId: r.intentId,
      market: r.market,
      side: r.side,
      outcome: r.outcome,
      kind: r.kind,
      priceTicks: r.priceTicks ?? null,
      quantity: r.quantity,
      clickedAt: r.clickedAt,
    })
    if (!placed.ok) {
      const error: ApiError = { ...placed.error, orderId: id }
      this.append({
        ...base,
        action: 'place',
        outcome: 'rejected',
        code: error.venueCode,
        message: error.message,
      })
      return fail(error)
    }
    this.append({ ...base, action: 'place', outcome: 'accepted', rttMs: placed.order.rttMs })
    return ok(placed.order)
  }

  private async placeLive(id: string, r: OrderRequest, profileId: string): Promise<Result<OrderView>> {
    const p = this.of(profileId)
    const at = this.d.now()
    const order: OrderRecord = {
      id,
      venueId: null,
      intentId: r.intentId,
      mode: 'live',
      origin: 'app',
      market: r.market,
      side: r.side,
      outcome: r.outcome,
      kind: r.kind,
      priceTicks: r.priceTicks ?? null,
      quantity: r.quantity,
      filled: 0,
      avgFillTicks: null,
      state: 'pending',
      createdAt: r.clickedAt,
      rttMs: null,
      updatedAt: at,
      profileId,
      eventId: this.d.eventOf(r.market),
      sentAt: null,
      cancelWanted: false,
      beforeCancel: null,
    }
    p.orders.set(id, order)
    this.prune(p)
    this.d.changed()
    const base = this.journalBase(r, profileId, id)
    const venue = this.d.venue()
    const key = await this.d.key()
    if (venue === null || key === null) {
      const error = refusal(
        venue === null ? 'network' : 'no_key',
        venue === null
          ? 'The venue cannot be reached from this profile (no endpoint): nothing was sent.'
          : 'No API key is stored for this profile: nothing was sent. Enter a key in Key settings.',
        { orderId: id },
      )
      this.finish(order, { state: 'rejected', error, reason: error.message })
      this.append({ ...base, action: 'place', outcome: 'refused', code: error.code, message: error.message })
      return fail(error)
    }
    const body = placeBody({
      eventId: order.eventId,
      market: r.market,
      side: r.side,
      outcome: r.outcome,
      kind: r.kind,
      priceTicks: order.priceTicks,
      quantity: r.quantity,
    })
    // Written before the request leaves (synchronously): a crash right after sending still leaves its trace.
    this.append({ ...base, action: 'place', outcome: 'sent' })
    order.sentAt = this.d.now()
    const answer = await venue.send(
      { method: TRADE_PATHS.place.method, path: TRADE_PATHS.place.path, body, timeoutMs: PLACE_TIMEOUT_MS },
      key,
    )
    const rtt = this.d.now() - r.clickedAt
    this.d.refreshAccount()
    if (!answer.ok) {
      if (answer.sent === 'no') {
        const error: ApiError = { ...answer.error, orderId: id }
        this.finish(order, { state: 'rejected', error, reason: `Not sent: ${answer.error.message}` })
        this.append({
          ...base,
          action: 'place',
          outcome: 'refused',
          code: error.code,
          message: error.message,
        })
        return fail(error)
      }
      return fail(this.unknown(order, base, answer.error.message))
    }
    const { status, body: reply } = answer.value
    if (status >= 200 && status < 300) {
      const outcome = readPlaceAnswer(reply, r.quantity)
      if (outcome === null)
        return fail(this.unknown(order, base, 'the venue answered in a shape the app cannot read'))
      if (outcome.failed) {
        const error: ApiError = {
          code: 'venue_refused',
          message: `The venue refused the order${outcome.message ? `: ${outcome.message}` : ''}.`,
          status,
          orderId: id,
        }
        this.finish(order, { state: 'rejected', error, reason: error.message, rttMs: rtt })
        this.append({
          ...base,
          action: 'place',
          outcome: 'rejected',
          status,
          message: error.message,
          rttMs: rtt,
        })
        return fail(error)
      }
      order.venueId = outcome.venueId
      order.filled = outcome.filled
      order.avgFillTicks = outcome.avgTicks
      order.executions = outcome.executions
      const state: OrderView['state'] = outcome.rests
        ? outcome.filled > 0
          ? 'partially_filled'
          : 'open'
        : outcome.filled >= r.quantity
          ? 'filled'
          : 'cancelled'
      this.finish(order, {
        state,
        rttMs: rtt,
        ...(state === 'cancelled'
          ? {
              reason:
                outcome.filled > 0
                  ? `${outcome.filled} of ${r.quantity} filled; the venue cancelled the rest (nothing left to trade against)`
                  : 'the venue executed none of it and nothing rests',
            }
          : {}),
      })
      this.append({
        ...base,
        venueId: order.venueId,
        action: 'place',
        outcome: 'accepted',
        status,
        rttMs: rtt,
      })
      if (order.cancelWanted && outcome.rests) void this.sendCancel(order)
      return ok(view(order))
    }
    // A server error may have executed the order, and so may VoxFi's "unexpected error" (-1): it is not a refusal.
    const error = tradeError('place', status, reply, answer.value.retryAfterMs)
    if (status >= 500 || error.venueCode === '-1') return fail(this.unknown(order, base, error.message))
    this.blockFor('place', error, profileId)
    const withId: ApiError = { ...error, orderId: id }
    this.finish(order, { state: 'rejected', error: withId, reason: error.message, rttMs: rtt })
    this.journalVenueRefusal(base, 'place', status, error, rtt)
    return fail(withId)
  }

  /** The answer is lost: the order is unknown until the venue's own records say what became of it. */
  private unknown(order: OrderRecord, base: JournalBase, why: string): ApiError {
    const error: ApiError = {
      code: 'network',
      orderId: order.id,
      message:
        `No answer from the venue (${why}). The order may or may not be placed: it is being checked against ` +
        'your open orders and activity, and will never be sent again.',
    }
    this.finish(order, {
      state: 'unknown',
      reason: 'no answer: checking the venue’s open orders and activity',
    })
    this.append({ ...base, action: 'place', outcome: 'unknown', code: 'network', message: why.slice(0, 200) })
    this.reconciler.watch(view(order), order.sentAt ?? this.d.now())
    return error
  }

  /**
   * The venue's records cannot say what became of an unknown order: its reconciliation is over, and it stays
   * unknown saying why (the journal and the log too), for the trader to look on the venue's site. It is never sent
   * again.
   */
  private doubtful(o: OrderView, reason: string): void {
    const record = this.recordOf(o.id)
    if (record === null || record.state !== 'unknown') return
    record.reason = reason
    record.updatedAt = this.d.now()
    this.d.log.warn('orders: an unknown order cannot be told from the venue’s records', { order: record.id })
    this.append({
      ...this.reconciledBase(record, null),
      action: 'place',
      outcome: 'reconciled',
      message: reason,
    })
    this.d.changed()
  }

  /** A live order's journal fields as its reconciliation writes them. */
  private reconciledBase(record: OrderRecord, venueId: string | null): JournalBase {
    return {
      profileId: record.profileId,
      mode: 'live',
      orderId: record.id,
      venueId,
      market: record.market,
      side: record.side,
      outcomeOf: record.outcome,
      kind: record.kind,
      priceTicks: record.priceTicks,
      quantity: record.quantity,
    }
  }

  /** What the venue's records said of an unknown order. */
  private settled(o: OrderView, result: Settlement): void {
    const record = this.recordOf(o.id)
    if (record === null) return
    const base = this.reconciledBase(record, result.venueId)
    record.venueId = result.venueId ?? record.venueId
    record.filled = Math.max(record.filled, result.filled)
    if (result.avgTicks !== null) record.avgFillTicks = result.avgTicks
    this.finish(record, { state: result.state, reason: result.reason })
    this.append({ ...base, action: 'place', outcome: 'reconciled', message: result.reason })
    if (record.cancelWanted && isWorking(record.state) && record.venueId !== null)
      void this.sendCancel(record)
  }

  // ------------------------------------------------------------------ cancel

  async cancel(id: string): Promise<Result<OrderView>> {
    const profile = this.d.profile()
    const p = this.of(profile.id)
    const paper = p.paper.views().find((o) => o.id === id)
    if (paper !== undefined) {
      const done = p.paper.cancel(id)
      this.append({
        profileId: profile.id,
        mode: 'paper',
        orderId: id,
        venueId: null,
        market: paper.market,
        action: 'cancel',
        outcome: done?.state === 'cancelled' ? 'accepted' : 'rejected',
      })
      return done === null ? fail(refusal('not_found', 'No such paper order.')) : ok(done)
    }
    const record = p.orders.get(id) ?? this.adoptVenueOrder(p, profile.id, id)
    if (record === null) return fail(refusal('not_found', 'No such order in this profile.'))
    if (!isWorking(record.state)) return ok(view(record))
    if (record.venueId === null) {
      // In flight, or unknown: cancelled as soon as the venue names it.
      record.cancelWanted = true
      record.reason = 'cancel requested: it goes as soon as the venue names the order'
      this.d.changed()
      return ok(view(record))
    }
    return this.sendCancel(record)
  }

  /** An order the venue lists but the app did not place (VoxFi's site): kept from now on, to cancel it. */
  private adoptVenueOrder(p: ProfileOrders, profileId: string, id: string): OrderRecord | null {
    const row = Object.values(this.d.account.state().orders).find(
      (r) => r.id === id || `venue-${r.id}` === id,
    )
    if (row === undefined || row.market === null) return null
    const v = venueOrderView(row)
    const record: OrderRecord = {
      ...v,
      profileId,
      eventId: this.d.eventOf(v.market),
      sentAt: null,
      cancelWanted: false,
      beforeCancel: null,
    }
    p.orders.set(record.id, record)
    return record
  }

  private async sendCancel(record: OrderRecord, retries = CANCEL_RETRIES): Promise<Result<OrderView>> {
    const venue = this.d.venue()
    const key = await this.d.key()
    const base = this.baseOf(record)
    if (venue === null || key === null || record.venueId === null) {
      return fail(
        refusal(key === null ? 'no_key' : 'network', 'The venue cannot be reached: nothing was sent.'),
      )
    }
    const block = this.of(record.profileId).blocked
    if (
      block !== null &&
      (block.code === 'permission' || block.code === 'path_refused') &&
      block.message.includes('cancel')
    ) {
      return fail(refusal(block.code, block.message))
    }
    record.beforeCancel = record.state === 'cancelling' ? record.beforeCancel : record.state
    record.state = 'cancelling'
    record.updatedAt = this.d.now()
    this.d.changed()
    this.append({ ...base, action: 'cancel', outcome: 'sent' })
    const started = this.d.now()
    const answer = await venue.send(
      {
        method: TRADE_PATHS.cancel.method,
        path: TRADE_PATHS.cancel.path(record.venueId),
        timeoutMs: PLACE_TIMEOUT_MS,
      },
      key,
    )
    const rtt = this.d.now() - started
    this.d.refreshAccount()
    const back = (): void => {
      record.state = record.beforeCancel ?? 'open'
      record.beforeCancel = null
      record.updatedAt = this.d.now()
      this.d.changed()
    }
    if (!answer.ok) {
      back()
      this.append({
        ...base,
        action: 'cancel',
        outcome: answer.sent === 'no' ? 'refused' : 'unknown',
        message: answer.error.message,
        rttMs: rtt,
      })
      return fail({ ...answer.error, orderId: record.id })
    }
    const { status, body } = answer.value
    if (status >= 200 && status < 300) {
      this.finish(record, { state: 'cancelled' })
      this.append({ ...base, action: 'cancel', outcome: 'accepted', status, rttMs: rtt })
      return ok(view(record))
    }
    const error = tradeError('cancel', status, body, answer.value.retryAfterMs)
    if (error.code === 'rate_limited' && retries > 0) {
      // A 429 refused the cancel before executing it: sending it again after the wait is safe (not a POST).
      this.append({
        ...base,
        action: 'cancel',
        outcome: 'rejected',
        status,
        code: 'rate_limited',
        rttMs: rtt,
      })
      await (this.d.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(
        error.retryAfterMs ?? 1_000,
      )
      return this.sendCancel(record, retries - 1)
    }
    back()
    this.blockFor('cancel', error, record.profileId)
    this.journalVenueRefusal(base, 'cancel', status, error, rtt)
    // PO6: the venue has no such open order; the next account read says whether it filled or went elsewhere.
    return fail({ ...error, orderId: record.id })
  }

  async cancelAll(): Promise<Result<CancelAllResult>> {
    if (this.cancelling) return fail(refusal('busy', 'Cancel-all is already running.'))
    const profile = this.d.profile()
    const p = this.of(profile.id)
    this.cancelling = true
    this.d.changed()
    const result: CancelAllResult = { asked: 0, cancelled: 0, failed: 0, deferred: 0 }
    try {
      const paper = p.paper.cancelAll()
      result.asked += paper
      result.cancelled += paper
      // The venue's own list, read now: orders placed on VoxFi's site go too.
      await this.adoptFreshVenueOrders(p, profile.id)
      const targets: OrderRecord[] = []
      for (const o of p.orders.values()) {
        if (!isWorking(o.state) || o.state === 'cancelling') continue
        result.asked++
        if (o.venueId === null) {
          o.cancelWanted = true
          result.deferred++
        } else targets.push(o)
      }
      this.append({
        profileId: profile.id,
        mode: 'live',
        orderId: null,
        venueId: null,
        market: null,
        action: 'cancel-all',
        outcome: 'sent',
        quantity: result.asked,
      })
      await pace(targets, CANCEL_CONCURRENCY, CANCEL_RATE_PER_S, this.d.now, this.d.sleep, async (o) => {
        const r = await this.sendCancel(o)
        if (r.ok && r.value.state === 'cancelled') result.cancelled++
        else result.failed++
      })
      this.append({
        profileId: profile.id,
        mode: 'live',
        orderId: null,
        venueId: null,
        market: null,
        action: 'cancel-all',
        outcome: result.failed === 0 ? 'accepted' : 'rejected',
        message: `${result.cancelled} cancelled, ${result.failed} failed, ${result.deferred} in flight`,
      })
      return ok(result)
    } finally {
      this.cancelling = false
      this.d.changed()
    }
  }

  private async adoptFreshVenueOrders(p: ProfileOrders, profileId: string): Promise<void> {
    const reads = await this.reads()
    if (reads === null) return
    const open = await reads.openOrders()
    if (open === null) return
    const mine = new Set([...p.orders.values()].map((o) => o.venueId))
    for (const v of open) {
      if (mine.has(v.venueId)) continue
      const record: OrderRecord = {
        id: `venue-${v.venueId}`,
        venueId: v.venueId,
        intentId: '',
        mode: 'live',
        origin: 'venue',
        market: v.market,
        side: v.side,
        outcome: v.outcome,
        kind: 'limit',
        priceTicks: v.priceTicks,
        quantity: v.quantity,
        filled: v.filled,
        avgFillTicks: null,
        state: v.filled > 0 ? 'partially_filled' : 'open',
        createdAt: v.createdAt ?? this.d.now(),
        rttMs: null,
        updatedAt: this.d.now(),
        profileId,
        eventId: this.d.eventOf(v.market),
        sentAt: null,
        cancelWanted: false,
        beforeCancel: null,
      }
      p.orders.set(record.id, record)
    }
  }

  // ------------------------------------------------------------------ merge

  async merge(request: { market: string; quantity: number }): Promise<Result<MergeResult>> {
    const profile = this.d.profile()
    const settings = this.d.settings.get(profile.id)
    if (settings.mode === 'off')
      return fail(refusal('off', 'Trading is off for this profile: nothing was merged.'))
    const p = this.of(profile.id)
    const base: JournalBase = {
      profileId: profile.id,
      mode: settings.mode,
      orderId: null,
      venueId: null,
      market: request.market,
      quantity: request.quantity,
    }
    if (settings.mode === 'paper') {
      const r = p.paper.merge(request.market, request.quantity)
      this.append({
        ...base,
        action: 'merge',
        outcome: r.ok ? 'accepted' : 'rejected',
        ...(r.ok ? {} : { message: r.error.message }),
      })
      return r.ok ? ok(r.value) : fail(r.error)
    }
    const block = this.blockOf(profile)
    if (block !== null)
      return fail(refusal(block.code === 'permission' ? 'permission' : 'trading_disabled', block.message))
    const venue = this.d.venue()
    const key = await this.d.key()
    if (venue === null || key === null)
      return fail(refusal('no_key', 'No API key is stored: nothing was merged.'))
    this.append({ ...base, action: 'merge', outcome: 'sent' })
    const started = this.d.now()
    const answer = await venue.send(
      {
        method: TRADE_PATHS.merge.method,
        path: TRADE_PATHS.merge.path,
        body: mergeBody(request.market, request.quantity),
        timeoutMs: PLACE_TIMEOUT_MS,
      },
      key,
    )
    const rtt = this.d.now() - started
    this.d.refreshAccount()
    if (!answer.ok) {
      this.append({
        ...base,
        action: 'merge',
        outcome: answer.sent === 'no' ? 'refused' : 'unknown',
        message: answer.error.message,
        rttMs: rtt,
      })
      return fail(answer.error)
    }
    const { status, body } = answer.value
    if (status >= 200 && status < 300) {
      const received = isObjNum(body, 'received')
      const merged = isObjNum(body, 'quantity') ?? request.quantity
      this.append({ ...base, action: 'merge', outcome: 'accepted', status, rttMs: rtt })
      return ok({
        market: request.market,
        quantity: merged,
        received: received !== null ? received / 100 : merged,
      })
    }
    const error = tradeError('merge', status, body, answer.value.retryAfterMs)
    this.blockFor('merge', error, profile.id)
    this.journalVenueRefusal(base, 'merge', status, error, rtt)
    return fail(error)
  }

  // ------------------------------------------------------------------ the venue's account, prints, life

  /** The venue's open orders were read (the account's REST round): orders that left the list are done. */
  venueOrdersRead(at: number): void {
    const profile = this.d.profile()
    const p = this.of(profile.id)
    const open = this.d.account.state().orders
    let changed = false
    for (const o of p.orders.values()) {
      if (o.venueId === null || (o.state !== 'open' && o.state !== 'partially_filled')) continue
      const row = open[o.venueId]
      if (row !== undefined) {
        const filled = row.filled ?? o.filled
        if (filled !== o.filled) {
          o.filled = filled
          o.state = filled > 0 ? 'partially_filled' : 'open'
          o.updatedAt = at
          changed = true
        }
        continue
      }
      // Not in a list asked for after the app last heard of it: it filled, or was cancelled elsewhere.
      if (at <= o.updatedAt) continue
      const fills = this.fillsFor(o)
      if (fills.filled >= o.quantity) {
        for (const k of fills.keys) this.takenFills.add(k)
        o.filled = o.quantity
        this.finish(o, { state: 'filled' })
      } else
        this.finish(o, {
          state: 'cancelled',
          reason: 'no longer open at the venue, and not filled here: cancelled elsewhere (VoxFi’s site?)',
        })
      changed = true
    }
    if (changed) this.d.changed()
  }

  /** A public print: paper orders it reaches fill. */
  onPrint(market: string, yesPrice: number, size: number): void {
    this.of(this.d.profile().id).paper.onPrint(market, yesPrice, size)
  }

  /** Another key for the profile: what the old key could not do says nothing of the new one. */
  keyChanged(): void {
    this.of(this.d.profile().id).blocked = null
    this.d.changed()
  }

  /**
   * The account's fills that can be this order's by attribution.ts's rule, other orders' excluded: those given to
   * an order this way before, the executions other orders' answers named, and what other working orders have
   * filled by the venue's open list. Its own named executions count.
   */
  private fillsFor(o: OrderRecord): Attribution {
    const fills: Execution[] = []
    for (const f of this.d.account.state().fills) {
      if (f.market === null || f.side === null || f.price === null || f.size === null || f.mode === 'paper')
        continue
      // A fill of a NO contract keeps the venue's side: buying NO is a NO buy (docs/voxfi.md §8 item 35).
      const outcome = f.outcome === 'no' ? 'NO' : 'YES'
      fills.push({
        key: f.key,
        market: f.market,
        outcome,
        side: f.side,
        priceTicks: toTicks(f.price),
        quantity: f.size,
        createdAt: f.ts,
      })
    }
    const taken = namedByOthers(fills, this.claimedExecutions(), o.id)
    // Fills that left the account's capped list cannot be given again: forget them there.
    const present = new Set(fills.map((f) => f.key))
    for (const k of this.takenFills)
      if (present.has(k)) taken.add(k)
      else this.takenFills.delete(k)
    // What the venue says other working orders have filled beyond their answers' executions is theirs. Finished
    // ones are not owed here: what they were given is in takenFills.
    reserveFor(
      this.owed(o, (w) => isWorking(w.state)),
      fills,
      taken,
    )
    return attribute({ ...o, sentAt: o.sentAt ?? o.createdAt }, fills, taken)
  }

  /**
   * The other live orders of `o`'s profile that `which` picks, as what they are owed of the executions: what the
   * venue says they filled beyond what their answers named, oldest order first.
   */
  private owed(o: { id: string; profileId: string }, which: (w: OrderRecord) => boolean): Claimant[] {
    const out: Array<Claimant & { createdAt: number }> = []
    for (const w of this.of(o.profileId).orders.values()) {
      if (w.id === o.id || w.mode !== 'live' || w.filled <= 0 || !which(w)) continue
      const named = (w.executions ?? []).reduce((n, e) => n + e.quantity, 0)
      if (w.filled <= named) continue
      out.push({ ...w, quantity: w.filled - named, sentAt: w.sentAt ?? w.createdAt })
    }
    return out.sort((a, b) => a.createdAt - b.createdAt)
  }

  private blockFor(call: TradeCall, error: ApiError, profileId: string): void {
    if (error.code !== 'permission' && error.code !== 'path_refused') return
    this.of(profileId).blocked = { code: error.code, message: error.message }
    this.d.log.warn('orders: a lasting refusal', { call, code: error.code })
    this.d.changed()
  }

  private async reads(): Promise<VenueReads | null> {
    const venue = this.d.venue()
    const key = await this.d.key()
    if (venue === null || key === null) return null
    return venueReads(venue, key)
  }

  private claimedVenueIds(): Set<string> {
    const out = new Set<string>()
    for (const p of this.profiles.values())
      for (const o of p.orders.values()) if (o.venueId !== null) out.add(o.venueId)
    return out
  }

  /** The executions the venue named in its answers to orders: other orders' rows of its activity. */
  private claimedExecutions(): ClaimedExecution[] {
    const out: ClaimedExecution[] = []
    for (const p of this.profiles.values())
      for (const o of p.orders.values())
        for (const e of o.executions ?? [])
          out.push({
            ...e,
            orderId: o.id,
            market: o.market,
            outcome: o.outcome,
            side: o.side,
            sentAt: o.sentAt ?? o.createdAt,
          })
    return out
  }

  private of(profileId: string): ProfileOrders {
    let p = this.profiles.get(profileId)
    if (p === undefined) {
      p = {
        orders: new Map(),
        blocked: null,
        paper: new PaperBroker({
          now: this.d.now,
          takerFeeCents: this.d.feeCents,
          changed: () => this.d.changed(),
        }),
      }
      this.profiles.set(profileId, p)
    }
    return p
  }

  private find(id: string): OrderView | null {
    const r = this.recordOf(id)
    if (r !== null) return view(r)
    for (const p of this.profiles.values()) {
      const o = p.paper.views().find((x) => x.id === id)
      if (o !== undefined) return o
    }
    return null
  }

  private recordOf(id: string): OrderRecord | null {
    for (const p of this.profiles.values()) {
      const o = p.orders.get(id)
      if (o !== undefined) return o
    }
    return null
  }

  private finish(
    o: OrderRecord,
    change: { state: OrderView['state']; error?: ApiError; reason?: string; rttMs?: number },
  ): void {
    o.state = change.state
    if (change.error !== undefined) o.error = change.error
    if (change.reason !== undefined) o.reason = change.reason
    else delete o.reason
    if (change.rttMs !== undefined) o.rttMs = change.rttMs
    o.updatedAt = this.d.now()
    this.d.changed()
  }

  private prune(p: ProfileOrders): void {
    const finished = [...p.orders.values()].filter((o) => !isWorking(o.state))
    if (finished.length <= FINISHED_KEPT) return
    finished.sort((a, b) => a.updatedAt - b.updatedAt)
    for (const o of finished.slice(0, finished.length - FINISHED_KEPT)) p.orders.delete(o.id)
  }

  private journalBase(r: OrderRequest, profileId: string, orderId: string | null): JournalBase {
    return {
      profileId,
      mode: r.mode,
      orderId,
      venueId: null,
      market: r.market,
      side: r.side,
      outcomeOf: r.outcome,
      kind: r.kind,
      priceTicks: r.priceTicks ?? null,
      quantity: r.quantity,
    }
  }

  private baseOf(o: OrderRecord): JournalBase {
    return {
      profileId: o.profileId,
      mode: 'live',
      orderId: o.id,
      venueId: o.venueId,
      market: o.market,
      side: o.side,
      outcomeOf: o.outcome,
      kind: o.kind,
      priceTicks: o.priceTicks,
      quantity: o.quantity,
    }
  }

  private journalRefusal(r: OrderRequest, profileId: string, error: ApiError): void {
    this.append({
      ...this.journalBase(r, profileId, null),
      action: 'place',
      outcome: 'refused',
      code: error.code,
      message: error.message,
    })
  }

  /** The venue answered and refused: the journal keeps its status, its code (the venue's, else the app's) and words. */
  private journalVenueRefusal(
    base: JournalBase,
    action: 'place' | 'cancel' | 'merge',
    status: number,
    error: ApiError,
    rttMs: number,
  ): void {
    this.append({
      ...base,
      action,
      outcome: 'rejected',
      status,
      code: error.venueCode ?? error.code,
      message: error.message,
      rttMs,
    })
  }

  private append(entry: Omit<JournalEntry, 'seq' | 'at'>): void {
    const written = this.d.journal.append(entry)
    this.d.journalled(written)
  }
}

type JournalBase = Omit<JournalEntry, 'seq' | 'at' | 'action' | 'outcome'>

/** What a window sees of an order: the record without the engine's own bookkeeping. */
function view(o: OrderRecord): OrderView {
  const { profileId: _p, eventId: _e, sentAt: _s, cancelWanted: _c, beforeCancel: _b, ...v } = o
  return v
}

function venueOrderView(row: OrderRow): OrderView {
  const quantity = row.size ?? 0
  const filled = row.filled ?? 0
  return {
    id: `venue-${row.id}`,
    venueId: row.id,
    intentId: '',
    mode: 'live',
    origin: 'venue',
    market: row.market ?? '',
    side: row.side ?? 'buy',
    outcome: row.outcome === 'no' ? 'NO' : 'YES',
    kind: 'limit',
    priceTicks: row.price === null ? null : Math.round(row.price * 100),
    quantity,
    filled,
    avgFillTicks: null,
    state: filled > 0 ? 'partially_filled' : 'open',
    createdAt: row.createdAt ?? row.updatedAt,
    rttMs: null,
    updatedAt: row.updatedAt,
  }
}

function isObjNum(body: unknown, key: string): number | null {
  if (typeof body !== 'object' || body === null) return null
  const v = (body as Record<string, unknown>)[key]
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

/**
 * Runs `task` over `items` with at most `concurrency` at once and at most `perSecond` started in any second: the
 * pace a cancel-all keeps inside the venue's rate limit.
 */
async function pace<T>(
  items: readonly T[],
  concurrency: number,
  perSecond: number,
  now: () => number,
  sleep: ((ms: number) => Promise<void>) | undefined,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const wait = sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const starts: number[] = []
  let next = 0
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++
      if (i >= items.length) return
      for (;;) {
        const t = now()
        while (starts.length > 0 && t - (starts[0] as number) >= 1_000) starts.shift()
        if (starts.length < perSecond) break
        await wait(1_000 - (t - (starts[0] as number)))
      }
      starts.push(now())
      await task(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, () => worker()))
}
