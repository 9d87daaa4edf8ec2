// The alert service: holds the rules, indexes them by market and event so the hot path does one Map lookup per
// update, feeds each rule its observations (book, trade, ticker, user channel, and a health tick), and keeps
// the history and unread count. Validates every save. Plain Node: no timers beyond the injected health tick.
import { randomBytes } from 'node:crypto'
import {
  ALERT_HISTORY_CAP,
  DEFAULT_COOLDOWN_SEC,
  MAX_ALERT_RULES,
  MAX_SNOOZE_MINUTES,
  alertRuleInputSchema,
  alertRuleSchema,
  conditionMarket,
  describeCondition,
  issueField,
  keepRunningSchema,
  type AlertCondition,
  type AlertEvent,
  type AlertRule,
  type AlertRuleInput,
  type AlertRuleView,
  type AlertsSummary,
  type AlertsView,
  type KeepRunning,
} from '../../shared/alerts'
import type { Interest } from '../../shared/ipc'
import { fail, ok } from '../../shared/ipc'
import type {
  ApiError,
  BookState,
  ConnectionState,
  Result,
  TradeView,
  UserUpdateView,
} from '../../shared/model'
import { AccountWatch, judgeBalance, judgeNews } from './alert-account'
import { HealthWatch } from './alert-health'
import { buildIndex, indexInterests, NONE, type BookRules, type RuleIndex } from './alert-index'
import {
  bookProblem,
  createRuntime,
  fmtNum,
  isActive,
  isSpent,
  observeEvent,
  observeLevel,
  resetRuntime,
  ruleNote,
  ruleState,
  trustedBook,
  type Firing,
  type LevelVerdict,
  type RuleRuntime,
} from './alert-rules'
import type { BookStore } from './books'
import { invalid } from './errors'
import type { Logger } from './types'

export interface AlertServiceDeps {
  now(): number
  books: Pick<BookStore, 'get' | 'ticker'>
  /** The event a market belongs to (listing), undefined when unknown. */
  eventOf(market: string): string | undefined
  /** true: the venue lists or streams this market; false: it does not; null: cannot tell now (listing not loaded). */
  isKnownMarket(market: string): boolean | null
  /** A market's display title for notification text, or null. */
  marketTitle(market: string): string | null
  connectionState(): ConnectionState
  authError(): ApiError | null
  /** The active profile's key expiry date (ISO YYYY-MM-DD) if the user entered one. */
  keyExpiresAt(): string | null
  /** Markets whose book is wanted now (for book-stale rules with market null). */
  wantedBooks(): Iterable<string>
  /** The markets/events/user channel the rules need, so they are watched with every window closed. Called when that set changes. */
  setInterests(interests: Interest[]): void
  /** Rules or keep-running changed and must be saved (the caller debounces the settings write). */
  persist(state: { rules: AlertRule[]; keepRunning: KeepRunning }): void
  /** Anything in AlertsView changed. May be called often; the caller coalesces. */
  changed(): void
  /** A rule fired (already appended to the history). */
  fired(event: AlertEvent): void
  log: Logger
  /** Health tick period, default 1000 ms. */
  tickMs?: number
  setInterval?: (fn: () => void, ms: number) => unknown
  clearInterval?: (handle: unknown) => void
}

type PriceCondition = Extract<AlertCondition, { kind: 'price' }>

// Where modules are compiled to CommonJS (tsx, vitest), an imported binding is a getter on the module object;
// the per-rule loop calls these local copies so that each check is a plain call.
const observeLevelFn = observeLevel
const trustedBookFn = trustedBook
/** A book (OrderBook) or, for ticker-only markets, the ticker view. */
interface QuoteSource {
  readonly bestBid: number | null
  readonly bestAsk: number | null
  readonly state: BookState
  readonly staleReason?: string | null
}

const OP_TEXT = {
  'crosses-above': 'crossed above',
  'crosses-below': 'crossed below',
  above: 'at or above',
  below: 'at or below',
} as const

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export class AlertService {
  private readonly rules = new Map<string, RuleRuntime>()
  /** Price rules on bid/ask/mid/spread by market; `last` rules by market; big-trade rules by market and event. */
  private idx: RuleIndex = buildIndex([])
  private history: AlertEvent[] = []
  private nextEventId = 1
  private paused = false
  private keepRunning: KeepRunning = 'auto'
  private interestsKey = '[]'
  private userInterest = false
  private timer: unknown = null
  private warned = false
  private statesKey = ''
  private readonly account = new AccountWatch()
  private readonly health: HealthWatch
  /**
   * Where the observation being judged came from, for the text of a firing or hold. A reference, not copied
   * numbers: storing a price in an object field allocates, and the no-fire path must not.
   */
  private readonly quote: { src: QuoteSource | null; fromTrade: boolean } = { src: null, fromTrade: false }
  /** Read by a level rule only when it is at its level: most updates need no time at all. */
  private readonly clock = (): number => this.d.now()

  constructor(
    private readonly d: AlertServiceDeps,
    initial: { rules: AlertRule[]; keepRunning: KeepRunning },
  ) {
    this.health = new HealthWatch(d)
    const stored: unknown = initial?.rules
    for (const raw of Array.isArray(stored) ? (stored as unknown[]) : []) {
      const parsed = alertRuleSchema.safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        d.log.warn('alerts: a stored rule is invalid and was set aside', {
          field: issue ? issueField(issue.path) : 'rule',
        })
        continue
      }
      if (this.rules.has(parsed.data.id)) {
        d.log.warn('alerts: a stored rule repeats an id and was set aside', { id: parsed.data.id })
        continue
      }
      if (this.rules.size >= MAX_ALERT_RULES) {
        d.log.warn('alerts: more stored rules than allowed; the rest were set aside', {
          max: MAX_ALERT_RULES,
        })
        break
      }
      this.rules.set(parsed.data.id, createRuntime(parsed.data as AlertRule))
    }
    const keep = keepRunningSchema.safeParse(initial?.keepRunning)
    if (keep.success) this.keepRunning = keep.data
    this.rebuild(false)
  }

  start(): void {
    if (this.timer !== null) return
    const every = this.d.setInterval ?? ((fn: () => void, ms: number) => setInterval(fn, ms))
    const handle = every(() => this.tick(), this.d.tickMs ?? 1000)
    // The tick must not keep a shell (or a test run) alive on its own.
    ;(handle as { unref?: () => void } | null)?.unref?.()
    this.timer = handle
    this.syncInterests()
    this.statesKey = this.statesSignature(this.d.now())
  }

  close(): void {
    if (this.timer === null) return
    const clear = this.d.clearInterval ?? ((h: unknown) => clearInterval(h as NodeJS.Timeout))
    clear(this.timer)
    this.timer = null
  }

  // ------------------------------------------------------------------ views

  view(): AlertsView {
    const now = this.d.now()
    const rules: AlertRuleView[] = []
    for (const rt of this.rules.values()) rules.push(this.ruleView(rt, now))
    return {
      rules,
      history: this.history.slice(),
      unread: this.unread(),
      paused: this.paused,
      keepRunning: this.keepRunning,
    }
  }

  summary(): AlertsSummary {
    // Every rule that can still fire counts (armed, snoozed, or a re-arming rule waiting to re-arm): the quit
    // policy keeps the app watching for all of them.
    let armed = 0
    for (const rt of this.rules.values()) if (rt.rule.enabled && !isSpent(rt.rule)) armed++
    return { armed, unread: this.unread(), paused: this.paused, keepRunning: this.keepRunning }
  }

  private ruleView(rt: RuleRuntime, now: number): AlertRuleView {
    return {
      ...rt.rule,
      state: ruleState(rt, now),
      summary: describeCondition(rt.rule.condition),
      note: ruleNote(rt, now, this.paused),
    }
  }

  private unread(): number {
    let n = 0
    for (const e of this.history) if (e.kind === 'fired' && !e.acknowledged) n++
    return n
  }

  // ------------------------------------------------------------------ managing rules

  save(input: AlertRuleInput): Result<AlertRuleView> {
    const parsed = alertRuleInputSchema.safeParse(input)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = issue ? issueField(issue.path) : 'rule'
      return fail(invalid(`Invalid alert: ${field}: ${issue?.message ?? 'not a valid rule'}`))
    }
    const v = parsed.data
    const existing = v.id !== undefined ? this.rules.get(v.id) : undefined
    if (v.id !== undefined && existing === undefined)
      return fail(invalid(`Invalid alert: id: no rule "${v.id}"`))
    if (existing === undefined && this.rules.size >= MAX_ALERT_RULES) {
      return fail(invalid(`Invalid alert: rules: at most ${MAX_ALERT_RULES} rules`))
    }
    const unknown = this.unknownMarket(v.condition as AlertCondition, existing?.rule.condition)
    if (unknown !== null)
      return fail(invalid(`Invalid alert: ${unknown.field}: unknown market "${unknown.id}"`))
    const now = Math.floor(this.d.now())
    const base = existing?.rule
    const label = v.label !== undefined ? v.label : (base?.label ?? null)
    const rule: AlertRule = {
      v: 1,
      id: existing?.rule.id ?? this.newId(now),
      label: label === null || label === '' ? null : label,
      condition: v.condition as AlertCondition,
      mode: v.mode ?? base?.mode ?? 'once',
      hysteresis: v.hysteresis ?? base?.hysteresis ?? 0,
      cooldownSec: v.cooldownSec ?? base?.cooldownSec ?? DEFAULT_COOLDOWN_SEC,
      sound: v.sound ?? base?.sound ?? false,
      enabled: v.enabled ?? base?.enabled ?? true,
      snoozedUntil: base?.snoozedUntil ?? null,
      createdAt: base?.createdAt ?? now,
      firedAt: null,
    }
    const rt = createRuntime(rule)
    this.rules.set(rule.id, rt)
    this.rebuild()
    this.persist()
    this.evaluateNow(rt)
    this.d.changed()
    return ok(this.ruleView(rt, this.d.now()))
  }

  delete(id: string): Result<void> {
    if (!this.rules.delete(id)) return fail(invalid(`Invalid alert: id: no rule "${id}"`))
    this.rebuild()
    this.persist()
    this.d.changed()
    return ok(undefined)
  }

  /** Enabling arms the rule afresh: a spent `once` rule can fire again. */
  setEnabled(id: string, enabled: boolean): Result<AlertRuleView> {
    const rt = this.rules.get(id)
    if (rt === undefined) return fail(invalid(`Invalid alert: id: no rule "${id}"`))
    if (typeof enabled !== 'boolean')
      return fail(invalid('Invalid alert: enabled: enabled must be true or false'))
    const rule = rt.rule
    if (rule.enabled !== enabled || (enabled && isSpent(rule))) {
      rt.rule = { ...rule, enabled, firedAt: enabled ? null : rule.firedAt }
      if (enabled) resetRuntime(rt)
      rt.dirty = false
      this.rebuild()
      this.persist()
      if (enabled) this.evaluateNow(rt)
      this.d.changed()
    }
    return ok(this.ruleView(rt, this.d.now()))
  }

  snooze(id: string, minutes: number | null): Result<AlertRuleView> {
    const rt = this.rules.get(id)
    if (rt === undefined) return fail(invalid(`Invalid alert: id: no rule "${id}"`))
    if (
      minutes !== null &&
      (typeof minutes !== 'number' ||
        !Number.isFinite(minutes) ||
        minutes <= 0 ||
        minutes > MAX_SNOOZE_MINUTES)
    ) {
      return fail(
        invalid(`Invalid alert: minutes: minutes must be greater than 0 and at most ${MAX_SNOOZE_MINUTES}`),
      )
    }
    const now = Math.floor(this.d.now())
    rt.rule = { ...rt.rule, snoozedUntil: minutes === null ? null : now + Math.round(minutes * 60_000) }
    this.persist()
    if (minutes === null) this.evaluateNow(rt)
    this.d.changed()
    return ok(this.ruleView(rt, now))
  }

  acknowledge(ids: readonly number[] | 'all'): Result<void> {
    if (ids !== 'all' && !Array.isArray(ids))
      return fail(invalid('Invalid alert: ids: a list of ids or "all"'))
    const wanted = ids === 'all' ? null : new Set(ids)
    let changed = false
    for (let i = 0; i < this.history.length; i++) {
      const e = this.history[i] as AlertEvent
      if (e.acknowledged || (wanted !== null && !wanted.has(e.id))) continue
      // Entries are replaced, never mutated: views already handed out stay as they were.
      this.history[i] = { ...e, acknowledged: true }
      changed = true
    }
    if (changed) this.d.changed()
    return ok(undefined)
  }

  pause(paused: boolean): void {
    if (this.paused === paused) return
    this.paused = paused
    if (!paused) for (const rt of this.rules.values()) if (isActive(rt.rule)) this.evaluateNow(rt)
    this.d.changed()
  }

  setKeepRunning(mode: KeepRunning): void {
    const parsed = keepRunningSchema.safeParse(mode)
    if (!parsed.success || parsed.data === this.keepRunning) return
    this.keepRunning = parsed.data
    this.persist()
    this.d.changed()
  }

  private newId(now: number): string {
    for (;;) {
      const id = `a-${now.toString(36)}${randomBytes(4).toString('hex')}`
      if (!this.rules.has(id)) return id
    }
  }

  /**
   * Market data rules must name a market the venue has: a typo would wait forever. Order and position rules are
   * not checked (the account can hold markets the listing leaves out), nor are event ids (nothing here can tell
   * an unknown event from one not yet listed). An edit that keeps the market is not re-checked, so a rule whose
   * market left the listing can still be relabelled or disabled.
   */
  private unknownMarket(
    c: AlertCondition,
    before: AlertCondition | undefined,
  ): { field: string; id: string } | null {
    let field: string
    let id: string | null
    if (c.kind === 'price' || c.kind === 'book-stale') {
      field = 'condition.market'
      id = c.market
    } else if (c.kind === 'big-trade' && c.scope === 'market') {
      field = 'condition.id'
      id = c.id
    } else return null
    if (id === null) return null
    if (before !== undefined && conditionMarket(before) === id) return null
    return this.d.isKnownMarket(id) === false ? { field, id } : null
  }

  // ------------------------------------------------------------------ hot path

  onBook(market: string): void {
    const entry = this.idx.book.get(market)
    if (entry === undefined) return
    try {
      this.judgeBook(market, entry.rules, entry)
    } catch (error) {
      this.hotError(error)
    }
  }

  onTicker(market: string): void {
    const book = this.idx.book.get(market)
    const last = this.idx.last.get(market)
    if (book === undefined && last === undefined) return
    try {
      // With a book, the book is the source of bid/ask and onBook already judged it.
      if (book !== undefined && this.d.books.get(market) === undefined)
        this.judgeBook(market, book.rules, book)
      if (last !== undefined) {
        const price = this.d.books.ticker(market)?.last ?? null
        if (price !== null) this.judgeLast(last, price, true)
      }
    } catch (error) {
      this.hotError(error)
    }
  }

  onTrade(trade: TradeView): void {
    const last = this.idx.last.get(trade.market)
    const big = this.idx.trade.get(trade.market)
    if (last === undefined && big === undefined && this.idx.event.size === 0) return
    try {
      if (last !== undefined) this.judgeLast(last, trade.price, true)
      if (big !== undefined) this.judgeTrade(big, trade)
      if (this.idx.event.size > 0) {
        const event = this.d.eventOf(trade.market)
        const list = event !== undefined ? this.idx.event.get(event) : undefined
        if (list !== undefined) this.judgeTrade(list, trade)
      }
    } catch (error) {
      this.hotError(error)
    }
  }

  onUser(update: UserUpdateView): void {
    try {
      const now = this.d.now()
      const reading = this.account.read(update, now)
      const rules = this.idx.user
      if (rules.length === 0) return
      const fire = (rt: RuleRuntime, f: Firing) => this.record(rt, 'fired', now, f)
      const name = (market: string) => this.title(market)
      for (const news of reading.news) judgeNews(rules, news, now, this.paused, name, fire)
      for (const row of reading.balances) judgeBalance(rules, row, now, this.paused, fire)
      this.flushDirty(rules)
    } catch (error) {
      this.hotError(error)
    }
  }

  connected(): void {
    this.account.connected(this.d.now())
    this.health.connected()
  }

  reset(): void {
    this.account.reset()
    this.health.reset()
    for (const rt of this.rules.values()) resetRuntime(rt)
    // Fresh rules must judge the next quote even if it equals the last one.
    this.rebuild()
    this.d.changed()
  }

  tick(): void {
    try {
      const now = this.d.now()
      let dirty = false
      let ended: RuleRuntime[] | null = null
      for (const rt of this.rules.values()) {
        const until = rt.rule.snoozedUntil
        if (until !== null && until <= now) {
          rt.rule = { ...rt.rule, snoozedUntil: null }
          ;(ended ??= []).push(rt)
        }
      }
      if (ended !== null) {
        this.persist()
        for (const rt of ended) if (isActive(rt.rule)) this.evaluateNow(rt)
        dirty = true
      }
      const health = this.idx.health
      this.health.check(health, now, this.paused, (rt, f) => this.record(rt, 'fired', now, f))
      if (this.flushDirty(health, false)) dirty = true
      // Cooldowns and snoozes end with time alone: the rows' states change without any update.
      const states = this.statesSignature(now)
      if (states !== this.statesKey) {
        this.statesKey = states
        dirty = true
      }
      if (dirty) this.d.changed()
    } catch (error) {
      this.hotError(error)
    }
  }

  private statesSignature(now: number): string {
    let s = ''
    for (const rt of this.rules.values()) s += ruleState(rt, now)[0]
    return s
  }

  /** `seen`: the market's cache, when the whole list judges (the hot path); null for one rule judged now. */
  private judgeBook(market: string, list: readonly RuleRuntime[], seen: BookRules | null): void {
    // Ticker-only markets (no book): the venue's own best bid/ask.
    const src: QuoteSource | null = this.d.books.get(market) ?? this.d.books.ticker(market)
    if (src === null) return
    const bid = src.bestBid
    const ask = src.bestAsk
    const trusted = trustedBookFn(src.state, bid, ask)
    if (seen !== null) {
      const b = bid ?? NONE
      const a = ask ?? NONE
      if (b === seen.bid && a === seen.ask && trusted === seen.trusted) return
      seen.bid = b
      seen.ask = a
      seen.trusted = trusted
    }
    this.quote.src = src
    this.quote.fromTrade = false
    const paused = this.paused
    for (let i = 0; i < list.length; i++) {
      const rt = list[i] as RuleRuntime
      let value: number | null
      switch (rt.subject) {
        case 'bid':
          value = bid
          break
        case 'ask':
          value = ask
          break
        case 'mid':
          value = bid !== null && ask !== null ? (bid + ask) / 2 : null
          break
        case 'spread':
          value = bid !== null && ask !== null ? ask - bid : null
          break
        default:
          value = null
      }
      if (value === null) continue
      const verdict = observeLevelFn(rt, value, trusted, this.clock, paused)
      if (verdict !== null || rt.dirty) this.settleLevel(rt, verdict, value)
    }
  }

  private judgeLast(list: readonly RuleRuntime[], price: number, trusted: boolean): void {
    this.quote.src = null
    this.quote.fromTrade = true
    const paused = this.paused
    for (let i = 0; i < list.length; i++) {
      const rt = list[i] as RuleRuntime
      const verdict = observeLevelFn(rt, price, trusted, this.clock, paused)
      if (verdict !== null || rt.dirty) this.settleLevel(rt, verdict, price)
    }
  }

  /** What a level verdict leads to; off the common path (called only for a verdict or a changed row). */
  private settleLevel(rt: RuleRuntime, verdict: LevelVerdict, value: number): void {
    const now = this.d.now()
    if (verdict === 'fire') {
      const afterUntrusted = rt.sawUntrusted
      rt.sawUntrusted = false
      this.firePrice(rt, value, afterUntrusted, now)
    } else if (verdict === 'hold') {
      this.holdPrice(rt, value, now)
    }
    if (rt.dirty) {
      rt.dirty = false
      this.d.changed()
    }
  }

  private judgeTrade(list: readonly RuleRuntime[], trade: TradeView): void {
    let now = -1
    for (let i = 0; i < list.length; i++) {
      const rt = list[i] as RuleRuntime
      const c = rt.rule.condition
      if (c.kind !== 'big-trade' || trade.size < c.minSize) continue
      if (now < 0) now = this.d.now()
      if (!observeEvent(rt, now, this.paused)) continue
      const where = this.title(trade.market)
      const side = trade.side !== null ? `${trade.side} ` : ''
      this.record(rt, 'fired', now, {
        title: `${where} — trade of ${fmtNum(trade.size)}`,
        detail:
          `${side}${fmtNum(trade.size)} @ ${fmtNum(trade.price)} (at least ${fmtNum(c.minSize)}` +
          `${c.scope === 'event' ? ` in event ${c.id}` : ''})`,
        value: trade.size,
        market: trade.market,
      })
    }
  }

  /** Judge a rule against what is known now, so a condition that already holds does not wait for an update. */
  private evaluateNow(rt: RuleRuntime): void {
    if (!isActive(rt.rule)) return
    const c = rt.rule.condition
    const now = this.d.now()
    if (c.kind === 'price') {
      if (c.subject !== 'last') {
        this.judgeBook(c.market, [rt], null)
      } else {
        const t = this.d.books.ticker(c.market)
        if (t !== null && t.last !== null) {
          this.judgeLast([rt], t.last, t.state !== 'stale' && t.state !== 'resyncing')
        }
      }
    } else if (c.kind === 'balance-below') {
      const fire = (r: RuleRuntime, f: Firing) => this.record(r, 'fired', now, f)
      for (const row of this.account.balances.values()) judgeBalance([rt], row, now, this.paused, fire)
      this.flushDirty([rt])
    }
  }

  private firePrice(rt: RuleRuntime, value: number, afterUntrusted: boolean, now: number): void {
    const c = rt.rule.condition as PriceCondition
    const back = afterUntrusted ? ' · fired once the book was live again' : ''
    this.record(rt, 'fired', now, {
      title: `${this.title(c.market)} — ${c.subject} ${OP_TEXT[c.op]} ${fmtNum(c.value)}`,
      detail: `${this.valuesText(c, value)}${back}`,
      value,
      market: c.market,
    })
  }

  private holdPrice(rt: RuleRuntime, value: number, now: number): void {
    const c = rt.rule.condition as PriceCondition
    const src = this.quote.src
    const problem =
      src !== null
        ? bookProblem(src.state, src.staleReason ?? null, src.bestBid, src.bestAsk)
        : 'the market data is not live'
    rt.heldReason = problem
    this.record(rt, 'held', now, {
      title: `${this.title(c.market)} — ${c.subject} ${OP_TEXT[c.op]} ${fmtNum(c.value)}, held`,
      detail: `held: ${problem}; waiting for it to be live again · ${this.valuesText(c, value)}`,
      value,
      market: c.market,
    })
  }

  /** "mid 0.455 (bid 0.45 · ask 0.46)", from the observation being judged. */
  private valuesText(c: PriceCondition, value: number): string {
    const src = this.quote.src
    if (this.quote.fromTrade || c.subject === 'last' || src === null) return `last trade ${fmtNum(value)}`
    const bid = src.bestBid !== null ? `bid ${fmtNum(src.bestBid)}` : null
    const ask = src.bestAsk !== null ? `ask ${fmtNum(src.bestAsk)}` : null
    const others = c.subject === 'bid' ? [ask] : c.subject === 'ask' ? [bid] : [bid, ask]
    const rest = others.filter((s): s is string => s !== null).join(' · ')
    return `${c.subject} ${fmtNum(value)}${rest !== '' ? ` (${rest})` : ''}`
  }

  private title(market: string): string {
    return this.d.marketTitle(market) ?? market
  }

  /** Appends to the history; a firing also stamps the rule (persisted), spends a `once` rule, and notifies. */
  private record(rt: RuleRuntime, kind: AlertEvent['kind'], now: number, text: Firing): void {
    const event: AlertEvent = {
      id: this.nextEventId++,
      ruleId: rt.rule.id,
      kind,
      at: now,
      title: text.title,
      detail: rt.rule.label !== null ? `${rt.rule.label}: ${text.detail}` : text.detail,
      value: text.value,
      market: text.market,
      // A held entry is not a notification: it makes no sound.
      sound: kind === 'fired' && rt.rule.sound,
      acknowledged: false,
    }
    this.history.unshift(event)
    if (this.history.length > ALERT_HISTORY_CAP) this.history.length = ALERT_HISTORY_CAP
    if (kind === 'fired') {
      rt.rule = { ...rt.rule, firedAt: Math.floor(now) }
      if (rt.rule.mode === 'once') this.rebuild()
      this.persist()
      this.d.fired(event)
    }
    this.d.changed()
  }

  /** Tells the windows when a rule's shown state moved (phase, hold, re-arm); true when any did. */
  private flushDirty(rules: readonly RuleRuntime[], notify = true): boolean {
    let any = false
    for (const rt of rules) {
      if (rt.dirty) {
        rt.dirty = false
        any = true
      }
    }
    if (any && notify) this.d.changed()
    return any
  }

  private hotError(error: unknown): void {
    if (this.warned) return
    this.warned = true
    this.d.log.warn('alerts: checking a rule failed; the feed goes on (logged once)', {
      error: message(error),
    })
  }

  private persist(): void {
    const rules: AlertRule[] = []
    for (const rt of this.rules.values()) rules.push(rt.rule)
    this.d.persist({ rules, keepRunning: this.keepRunning })
  }

  // ------------------------------------------------------------------ index and interests

  /** A new index every time: a hot-path loop still walking the old one is unaffected. */
  private rebuild(sync = true): void {
    this.idx = buildIndex(this.rules.values())
    if (sync) this.syncInterests()
  }

  private syncInterests(): void {
    const list = indexInterests(this.idx)
    const user = this.idx.user.length > 0
    const key = JSON.stringify(list)
    if (key === this.interestsKey) return
    this.interestsKey = key
    // The user channel (re)subscribed for the rules replays the account: that is baseline, not news.
    if (user && !this.userInterest) this.account.extendBaseline(this.d.now())
    this.userInterest = user
    this.d.setInterests(list)
  }
}
