// The alert service: the one owner of the rules. Every edit (save, delete, enable, snooze, pause) goes through
// it, so that each change rebuilds the index the watchers read, re-subscribes what the rules need, persists and
// tells the windows in one place, and no other module has to keep those in step. What a valid rule is lives in
// alert-input.ts; the observations are judged by the watchers it wires up: market data (alert-prices.ts), the
// user channel (alert-account.ts), feed health on the tick (alert-health.ts); firings go to alert-history.ts.
// Plain Node: no timers beyond the injected health tick.
import {
  MAX_SNOOZE_MINUTES,
  describeCondition,
  keepRunningSchema,
  type AlertEvent,
  type AlertRule,
  type AlertRuleInput,
  type AlertRuleView,
  type AlertsSummary,
  type AlertsView,
  type KeepRunning,
} from '../../../shared/alerts'
import type { Interest } from '../../../shared/ipc'
import { fail, ok } from '../../../shared/ipc'
import type { ApiError, ConnectionState, Result, TradeView } from '../../../shared/model'
import { AccountWatch, judgeBalance, judgeNews } from './account'
import type { AccountChange, BalanceRow } from '../../../shared/account'
import { HealthWatch } from './health'
import { AlertHistory } from './history'
import { checkAlertCondition } from '../../../shared/alert-rules-check'
import { marketWord } from '../../../shared/alert-text'
import { gridOf, loadRules, ruleFromInput, type InputDeps } from './input'
import { buildIndex, indexInterests, type RuleIndex } from './rule-index'
import { PriceWatch, type PriceDeps } from './prices'
import {
  createRuntime,
  isActive,
  isSpent,
  resetRuntime,
  ruleNote,
  ruleState,
  type Firing,
  type RuleRuntime,
} from './rules'
import { invalid, errorMessage } from '../base/errors'
import { Emitter } from '../base/events'
import type { Logger } from '../base/types'

/** Besides what the parts read (PriceDeps: the clock, books and listing; InputDeps: whether a market exists): */
export interface AlertServiceDeps extends PriceDeps, InputDeps {
  /** The account's balances now (account/model.ts), for a balance rule made or re-enabled later. */
  balances(): BalanceRow[]
  connectionState(): ConnectionState
  authError(): ApiError | null
  /** The active profile's key expiry date (ISO YYYY-MM-DD) if the user entered one. */
  keyExpiresAt(): string | null
  /** Markets whose book is wanted now (for book-stale rules with market null). */
  wantedBooks(): Iterable<string>
  /** The markets/events/user channel the rules need, so they are watched with every window closed. Called when that set changes. */
  setInterests(interests: Interest[]): void
  log: Logger
  /** Health tick period, default 1000 ms. */
  tickMs?: number
  setInterval?: (fn: () => void, ms: number) => unknown
  clearInterval?: (handle: unknown) => void
}

/** What the rules saved to settings hold. */
export interface SavedAlerts {
  rules: AlertRule[]
  keepRunning: KeepRunning
}

export class AlertService {
  private readonly changes = new Emitter<void>()
  private readonly firings = new Emitter<AlertEvent>()
  private readonly saves = new Emitter<SavedAlerts>()
  private readonly historyChanges = new Emitter<AlertEvent[]>()
  /** Anything in AlertsView changed. May fire often, from the hot path; the listener coalesces. */
  readonly onDidChange = this.changes.event
  /** A rule fired (already appended to the history). */
  readonly onDidFire = this.firings.event
  /** Rules or keep-running changed and must be saved (the listener debounces the settings write). */
  readonly onDidChangeRules = this.saves.event
  /** The history gained or acknowledged entries and must be saved (the listener debounces the write). */
  readonly onDidChangeHistory = this.historyChanges.event
  private readonly rules = new Map<string, RuleRuntime>()
  /** Price rules on bid/ask/mid/spread by market; `last` rules by market; big-trade rules by market and event. */
  private idx: RuleIndex = buildIndex([])
  private readonly history: AlertHistory
  /** Mirrored into `prices.paused`, which reads it on the hot path. */
  private paused = false
  private keepRunning: KeepRunning = 'auto'
  private interestsKey = '[]'
  private userInterest = false
  private timer: unknown = null
  private hotErrors = 0
  private statesKey = ''
  private readonly account = new AccountWatch()
  private readonly health: HealthWatch
  private readonly prices: PriceWatch

  constructor(
    private readonly d: AlertServiceDeps,
    initial: { rules: AlertRule[]; keepRunning: KeepRunning; history?: readonly AlertEvent[] },
  ) {
    this.history = new AlertHistory(initial?.history)
    this.health = new HealthWatch(d)
    this.prices = new PriceWatch(d, {
      record: (rt, kind, now, text) => this.record(rt, kind, now, text),
      changed: () => this.changes.fire(),
      hotError: (error) => this.hotError(error),
    })
    for (const rule of loadRules(initial?.rules, d.log)) this.rules.set(rule.id, createRuntime(rule))
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
      history: this.history.list(),
      unread: this.history.unread(),
      paused: this.paused,
      keepRunning: this.keepRunning,
    }
  }

  summary(): AlertsSummary {
    // Every rule that can still fire counts (armed, snoozed, or a re-arming rule waiting to re-arm): the quit
    // policy keeps the app watching for all of them. They are exactly the indexed rules.
    return {
      armed: this.idx.active,
      unread: this.history.unread(),
      paused: this.paused,
      keepRunning: this.keepRunning,
    }
  }

  private ruleView(rt: RuleRuntime, now: number): AlertRuleView {
    return {
      ...rt.rule,
      state: ruleState(rt, now),
      summary: describeCondition(rt.rule.condition, undefined, this.d.priceUnit()),
      note: this.neverFires(rt.rule) ?? ruleNote(rt, now, this.paused, this.d.priceUnit()),
    }
  }

  /**
   * A stored rule the listing, loaded since it was saved (or after a restart), shows can never fire as meant:
   * it is kept (the trader decides), but its row says why it stays quiet.
   */
  private neverFires(rule: AlertRule): string | null {
    const problem = checkAlertCondition(rule.condition, gridOf(rule.condition, this.d), this.d.priceUnit())
    return problem === null ? null : `never fires: ${problem.message}`
  }

  // ------------------------------------------------------------------ managing rules

  save(input: AlertRuleInput): Result<AlertRuleView> {
    const made = ruleFromInput(input, this.rules, this.d)
    if (!made.ok) return made
    const rule = made.value
    const rt = createRuntime(rule)
    this.rules.set(rule.id, rt)
    this.rebuild()
    this.persist()
    this.evaluateNow(rt)
    this.changes.fire()
    return ok(this.ruleView(rt, this.d.now()))
  }

  delete(id: string): Result<void> {
    if (!this.rules.delete(id)) return fail(invalid(`Invalid alert: id: no rule "${id}"`))
    this.rebuild()
    this.persist()
    this.changes.fire()
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
      this.changes.fire()
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
    this.changes.fire()
    return ok(this.ruleView(rt, now))
  }

  acknowledge(ids: readonly number[] | 'all'): Result<void> {
    if (ids !== 'all' && !Array.isArray(ids))
      return fail(invalid('Invalid alert: ids: a list of ids or "all"'))
    if (this.history.acknowledge(ids)) {
      this.historyChanges.fire(this.history.list())
      this.changes.fire()
    }
    return ok(undefined)
  }

  pause(paused: boolean): void {
    if (this.paused === paused) return
    this.paused = paused
    this.prices.paused = paused
    if (!paused) for (const rt of this.rules.values()) if (isActive(rt.rule)) this.evaluateNow(rt)
    this.changes.fire()
  }

  /**
   * The app's price unit changed: the rules' notes and summaries name prices in it (the history's words are
   * written again by each window, in its own).
   */
  priceUnitChanged(): void {
    this.changes.fire()
  }

  setKeepRunning(mode: KeepRunning): void {
    const parsed = keepRunningSchema.safeParse(mode)
    if (!parsed.success || parsed.data === this.keepRunning) return
    this.keepRunning = parsed.data
    this.persist()
    this.changes.fire()
  }

  // ------------------------------------------------------------------ observations (hot path)

  onBook(market: string): void {
    this.prices.onBook(market)
  }

  onTicker(market: string): void {
    this.prices.onTicker(market)
  }

  onTrade(trade: TradeView): void {
    this.prices.onTrade(trade)
  }

  /** What a user update changed in the engine's one account (account/model.ts), record by record. */
  onAccount(changes: readonly AccountChange[]): void {
    try {
      const now = this.d.now()
      const reading = this.account.read(changes, now)
      const rules = this.idx.user
      if (rules.length === 0) return
      const fire = (rt: RuleRuntime, f: Firing) => this.record(rt, 'fired', now, f)
      const named = (id: string) => marketWord(id, this.d.marketTitle(id))
      for (const news of reading.news) judgeNews(rules, news, now, this.paused, named, fire)
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
    this.changes.fire()
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
      if (dirty) this.changes.fire()
    } catch (error) {
      this.hotError(error)
    }
  }

  private statesSignature(now: number): string {
    let s = ''
    for (const rt of this.rules.values()) s += ruleState(rt, now)[0]
    return s
  }

  /** Judge a rule against what is known now, so a condition that already holds does not wait for an update. */
  private evaluateNow(rt: RuleRuntime): void {
    if (!isActive(rt.rule)) return
    const c = rt.rule.condition
    const now = this.d.now()
    if (c.kind === 'price') {
      this.prices.judgeNow(rt)
    } else if (c.kind === 'balance-below') {
      const fire = (r: RuleRuntime, f: Firing) => this.record(r, 'fired', now, f)
      for (const row of this.d.balances()) judgeBalance([rt], row, now, this.paused, fire)
      this.flushDirty([rt])
    }
  }

  /** Appends to the history; a firing also stamps the rule (persisted), spends a `once` rule, and notifies. */
  private record(rt: RuleRuntime, kind: AlertEvent['kind'], now: number, text: Firing): void {
    const event = this.history.add(rt.rule, kind, now, text, this.d.priceUnit())
    this.historyChanges.fire(this.history.list())
    if (kind === 'fired') {
      rt.rule = { ...rt.rule, firedAt: Math.floor(now) }
      if (rt.rule.mode === 'once') this.rebuild()
      this.persist()
      this.firings.fire(event)
    }
    this.changes.fire()
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
    if (any && notify) this.changes.fire()
    return any
  }

  /** The feed goes on; the first failure and every hundredth after it are logged, with the count. */
  private hotError(error: unknown): void {
    if (this.hotErrors++ % 100 !== 0) return
    this.d.log.warn('alerts: checking a rule failed; the feed goes on', {
      error: errorMessage(error),
      failures: this.hotErrors,
    })
  }

  private persist(): void {
    const rules: AlertRule[] = []
    for (const rt of this.rules.values()) rules.push(rt.rule)
    this.saves.fire({ rules, keepRunning: this.keepRunning })
  }

  // ------------------------------------------------------------------ index and interests

  /** A new index every time: a hot-path loop still walking the old one is unaffected. */
  private rebuild(sync = true): void {
    this.idx = buildIndex(this.rules.values())
    this.prices.index = this.idx
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
