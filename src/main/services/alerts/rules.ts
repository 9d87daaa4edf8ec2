// One alert rule's runtime state machine: given a new observation (a price level, a condition that holds or not,
// an event), decide whether the rule fires, is held back, or does nothing, and keep its arm state. Pure: no
// timers, no I/O; the caller passes the time (for levels, a clock read only when it matters: reading the time
// costs more than judging a rule) and whether every rule is paused.
import type {
  AlertCondition,
  AlertQuote,
  AlertRule,
  AlertRuleState,
  PriceSubject,
} from '../../../shared/alerts'
import { price, words, wordsText, type Words } from '../../../shared/alert-text'
import type { BookState } from '../../../shared/model'
import { formatPrice, plainNumber, type PriceUnit } from '../../../shared/price-format'

type PriceCondition = Extract<AlertCondition, { kind: 'price' }>

/**
 * Level (price) rules only. new: a crossing rule that has not yet seen the value on its starting side. armed:
 * the next trusted value at or past the level fires. disarmed: it fired (or a crossing was swallowed by the
 * cooldown) and waits for the value to come back across the level by the hysteresis.
 */
export type Phase = 'new' | 'armed' | 'disarmed'

export interface RuleRuntime {
  rule: AlertRule
  /** Price rules: what is watched, the level and its direction, copied here so the hot path reads one object. */
  readonly subject: PriceSubject | null
  readonly level: number
  readonly up: boolean
  phase: Phase
  /**
   * Condition rules (balance, feed health): the keys (currency, market, or '' for global conditions) whose
   * current episode has fired or been swallowed by the cooldown; a key leaves when its condition clears.
   */
  spent: Set<string> | null
  /** An untrusted value would have fired it and no trusted value has come since: one 'held' entry per episode. */
  held: boolean
  /** Why it is held ("the book is stale (gap)"), set by the caller, which knows the book. */
  heldReason: Words | null
  /** The last observation was untrusted: a firing on the next trusted one says the book came back. */
  sawUntrusted: boolean
  /** Something a rule view shows (phase, held) changed; the caller clears it after telling the windows. */
  dirty: boolean
}

export type LevelVerdict = 'fire' | 'hold' | null

/**
 * What a firing (or held entry) says, its prices and markets kept apart (shared/alert-text.ts); the service adds
 * the rule's id, label and time, and writes the words out in the app's price unit.
 */
export interface Firing {
  title: Words
  detail: Words
  /** The value that triggered, when there is one. */
  value: number | null
  market: string | null
  /** A price rule's numbers (AlertEvent.quote). */
  quote?: AlertQuote
}

export function isCrossing(c: PriceCondition): boolean {
  return c.op === 'crosses-above' || c.op === 'crosses-below'
}

function isUp(c: PriceCondition): boolean {
  return c.op === 'above' || c.op === 'crosses-above'
}

function startPhase(rule: AlertRule): Phase {
  return rule.condition.kind === 'price' && isCrossing(rule.condition) ? 'new' : 'armed'
}

export function createRuntime(rule: AlertRule): RuleRuntime {
  const c = rule.condition
  const keyed =
    c.kind === 'balance-below' ||
    c.kind === 'disconnected' ||
    c.kind === 'book-stale' ||
    c.kind === 'auth-error' ||
    c.kind === 'key-expiring'
  return {
    rule,
    subject: c.kind === 'price' ? c.subject : null,
    level: c.kind === 'price' ? c.value : 0,
    up: c.kind === 'price' && isUp(c),
    phase: startPhase(rule),
    spent: keyed ? new Set() : null,
    held: false,
    heldReason: null,
    sawUntrusted: false,
    dirty: false,
  }
}

/** Back to how a fresh rule starts (profile switch, edit, re-enable); the stored rule is left alone. */
export function resetRuntime(rt: RuleRuntime): void {
  rt.phase = startPhase(rt.rule)
  rt.spent?.clear()
  rt.held = false
  rt.heldReason = null
  rt.sawUntrusted = false
  rt.dirty = true
}

/** A `once` rule that fired stays spent until it is enabled again. */
export function isSpent(rule: AlertRule): boolean {
  return rule.mode === 'once' && rule.firedAt !== null
}

/** Enabled and able to fire again some day: what the hot index and the interests hold. */
export function isActive(rule: AlertRule): boolean {
  return rule.enabled && !isSpent(rule)
}

export function coolingDown(rule: AlertRule, now: number): boolean {
  return rule.mode === 'rearm' && rule.firedAt !== null && now < rule.firedAt + rule.cooldownSec * 1000
}

export function isSnoozed(rule: AlertRule, now: number): boolean {
  return rule.snoozedUntil !== null && rule.snoozedUntil > now
}

/** Firing is suppressed (but sides and arming are still tracked). */
export function isQuiet(rule: AlertRule, now: number, paused: boolean): boolean {
  return paused || isSnoozed(rule, now)
}

/**
 * A price rule sees `value`. Untrusted values never move the rule: they can only report, once per episode,
 * that they would have fired it. A snoozed rule (or every rule, when `paused`) still tracks the side, so a
 * crossing that happened during a snooze is not fired afterwards; a level op (`above`/`below`) keeps its arm
 * and fires once the snooze ends if the value is still past the level. A hit during the cooldown is swallowed:
 * the rule must come back across the level before it can fire again.
 */
export function observeLevel(
  rt: RuleRuntime,
  value: number,
  trusted: boolean,
  clock: () => number,
  paused: boolean,
): LevelVerdict {
  const level = rt.level
  const hit = rt.up ? value >= level : value <= level
  // The common case, per book update: an armed rule, live data, not at the level.
  if (trusted && !hit && rt.phase === 'armed' && !rt.held) {
    rt.sawUntrusted = false
    return null
  }
  const rule = rt.rule
  if (rule.condition.kind !== 'price' || isSpent(rule)) return null
  if (!trusted) {
    rt.sawUntrusted = true
    if (!rt.held && hit && rt.phase === 'armed') {
      const now = clock()
      if (!isQuiet(rule, now, paused) && !coolingDown(rule, now)) {
        rt.held = true
        rt.dirty = true
        return 'hold'
      }
    }
    return null
  }
  if (rt.held) {
    rt.held = false
    rt.heldReason = null
    rt.dirty = true
  }
  if (rt.phase !== 'armed') {
    // A crossing rule's first side is a plain "strictly the other side"; the hysteresis only guards re-arming.
    const h = rt.phase === 'new' ? 0 : rule.hysteresis
    const up = rt.up
    const back = h > 0 ? (up ? value <= level - h : value >= level + h) : up ? value < level : value > level
    if (back) {
      rt.phase = 'armed'
      rt.dirty = true
    }
    rt.sawUntrusted = false
    return null
  }
  if (!hit) {
    rt.sawUntrusted = false
    return null
  }
  const now = clock()
  if (isQuiet(rule, now, paused)) {
    if (isCrossing(rule.condition)) {
      rt.phase = 'new'
      rt.dirty = true
    }
    rt.sawUntrusted = false
    return null
  }
  rt.phase = 'disarmed'
  rt.dirty = true
  if (coolingDown(rule, now)) {
    rt.sawUntrusted = false
    return null
  }
  // sawUntrusted is left for the caller to read into the firing's detail.
  return 'fire'
}

/**
 * A condition rule sees whether its condition holds for `key` now (`holds`) and whether it has cleared enough
 * to re-arm (`rearm`, e.g. the balance back above the level plus the hysteresis). Fires on the edge: once per
 * episode per key; a snoozed or paused rule keeps its arm, so a condition still holding when the snooze ends
 * fires then; an episode that starts during the cooldown is swallowed.
 */
export function observeCondition(
  rt: RuleRuntime,
  key: string,
  holds: boolean,
  rearm: boolean,
  now: number,
  paused: boolean,
): boolean {
  const spent = rt.spent
  if (spent === null || isSpent(rt.rule)) return false
  if (spent.has(key)) {
    if (rearm) {
      spent.delete(key)
      rt.dirty = true
    }
    return false
  }
  if (!holds || isQuiet(rt.rule, now, paused)) return false
  spent.add(key)
  rt.dirty = true
  return !coolingDown(rt.rule, now)
}

/** Keys a condition rule no longer sees at all (a market left the watched set) are re-armed. */
export function forgetKeys(rt: RuleRuntime, keep: (key: string) => boolean): void {
  if (rt.spent === null) return
  for (const key of rt.spent) {
    if (!keep(key)) {
      rt.spent.delete(key)
      rt.dirty = true
    }
  }
}

/** An event rule (big trade, order status, position change) sees a qualifying event. */
export function observeEvent(rt: RuleRuntime, now: number, paused: boolean): boolean {
  return !isSpent(rt.rule) && !isQuiet(rt.rule, now, paused) && !coolingDown(rt.rule, now)
}

/**
 * The state a rule row shows. Precedence: disabled, then fired (a spent or disarmed rule would not fire even
 * unsnoozed, which is the more useful thing to know), then snoozed, then armed.
 */
export function ruleState(rt: RuleRuntime, now: number): AlertRuleState {
  const rule = rt.rule
  if (!rule.enabled) return 'disabled'
  if (isSpent(rule)) return 'fired'
  if (rule.mode === 'rearm') {
    if (coolingDown(rule, now)) return 'fired'
    if (rt.phase === 'disarmed') return 'fired'
    if (rt.spent !== null && rt.spent.size > 0) return 'fired'
  }
  if (isSnoozed(rule, now)) return 'snoozed'
  return 'armed'
}

/** Short text: why a rule is not firing now, or null when there is nothing to say; prices in `unit`. */
export function ruleNote(rt: RuleRuntime, now: number, paused: boolean, unit: PriceUnit): string | null {
  const rule = rt.rule
  if (!rule.enabled) return null
  if (isSpent(rule)) return `fired at ${clock(rule.firedAt ?? now)}; enable it to arm it again`
  const c = rule.condition
  if (rule.mode === 'rearm' && c.kind === 'price' && rt.phase === 'disarmed') {
    const up = isUp(c)
    const h = rule.hysteresis
    const bound =
      h > 0
        ? `${up ? '≤' : '≥'} ${formatPrice(up ? c.value - h : c.value + h, unit)}`
        : `${up ? '<' : '>'} ${formatPrice(c.value, unit)}`
    return `re-arms when ${c.subject} ${bound}`
  }
  if (rule.mode === 'rearm' && rt.spent !== null && rt.spent.size > 0) return rearmNote(c, rule.hysteresis)
  if (coolingDown(rule, now)) {
    return `cooling down until ${clock((rule.firedAt ?? now) + rule.cooldownSec * 1000)}`
  }
  if (isSnoozed(rule, now)) return `snoozed until ${clock(rule.snoozedUntil ?? now)}`
  if (paused) return 'all alerts are paused'
  if (rt.held && rt.heldReason !== null) return `held: ${wordsText(rt.heldReason, unit)}`
  if (c.kind === 'price' && rt.phase === 'new') {
    return `waits for ${c.subject} ${isUp(c) ? 'below' : 'above'} ${formatPrice(c.value, unit)} first`
  }
  return null
}

function rearmNote(c: AlertCondition, hysteresis: number): string {
  switch (c.kind) {
    case 'balance-below':
      return `re-arms when ${c.currency ?? 'the balance'} ≥ ${fmtNum(c.value + hysteresis)}`
    case 'disconnected':
      return 're-arms when the connection is live again'
    case 'book-stale':
      return 're-arms when the book is live again'
    case 'auth-error':
      return 're-arms when the key is accepted again'
    case 'key-expiring':
      return 're-arms when the expiry date changes'
    default:
      return 're-arms when the condition clears'
  }
}

/** A number as a trader reads it (shared/price-format.ts), under the name the alert texts use. */
export const fmtNum = plainNumber

/** Local wall-clock time, HH:MM:SS. */
export function clock(ms: number): string {
  const d = new Date(ms)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`
}

/** Why a book's values cannot be vouched for, as a phrase: "the book is stale (gap)", its prices kept apart. */
export function bookProblem(
  state: BookState,
  reason: string | null,
  bid: number | null,
  ask: number | null,
): Words {
  switch (state) {
    case 'stale':
      return [reason !== null ? `the book is stale (${reason})` : 'the book is stale']
    case 'resyncing':
      return [reason !== null ? `the book is resyncing (${reason})` : 'the book is resyncing']
    case 'empty':
      return ['the book has no snapshot yet']
    default:
      return bid !== null && ask !== null && bid >= ask
        ? words`the book is crossed (bid ${price(bid)} ≥ ask ${price(ask)})`
        : [`the book is ${state}`]
  }
}

/** Values a price rule can trust: a live (or merely quiet) book that is not crossed. */
export function trustedBook(state: BookState, bid: number | null, ask: number | null): boolean {
  return (state === 'live' || state === 'quiet') && !(bid !== null && ask !== null && bid >= ask)
}
