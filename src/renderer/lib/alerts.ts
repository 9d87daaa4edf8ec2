// The alert form's model: what the trader picks in `alert-subject` (a price subject or one of the other rule
// kinds), the text of every field as typed, and the rule input built from it. Prices are typed in the unit the
// app shows (45 for 45¢, or 0.45) and sent in 0–1. Numbers are checked here too so an obvious mistake is named
// before a round trip, but the engine's validation stays the authority.
import {
  ALERT_OPS,
  DEFAULT_COOLDOWN_SEC,
  describeCondition,
  PRICE_SUBJECTS,
  type AlertCondition,
  type AlertEvent,
  type AlertMode,
  type AlertOp,
  type AlertRuleInput,
  type AlertRuleView,
  type PriceSubject,
} from '../../shared/alerts'
import { checkAlertCondition, defaultLevel } from '../../shared/alert-rules-check'
import { wordsText } from '../../shared/alert-text'
import type { ApiError, EventSummary, PriceGrid } from '../../shared/model'
import { findMarket } from './events'
import { plainNumber, priceFromInput, priceInput, type PriceUnit } from './format'
import { marketLabel, type MarketNames } from './market-names'

/** The values of `alert-subject`: the price subjects (DESIGN §3.4) first, then the other rule kinds. */
export const OTHER_SUBJECTS = [
  'trade-size',
  'order-filled',
  'order-partially-filled',
  'order-cancelled',
  'position-opened',
  'position-closed',
  'balance-below',
  'disconnected',
  'book-stale',
  'auth-error',
  'key-expiring',
] as const
export type OtherSubject = (typeof OTHER_SUBJECTS)[number]
export type FormSubject = PriceSubject | OtherSubject

export const SUBJECT_GROUPS: ReadonlyArray<{
  label: string
  options: ReadonlyArray<{ value: FormSubject; label: string }>
}> = [
  {
    label: 'Price',
    options: [
      { value: 'bid', label: 'Best bid' },
      { value: 'ask', label: 'Best ask' },
      { value: 'mid', label: 'Mid' },
      { value: 'last', label: 'Last trade' },
      { value: 'spread', label: 'Spread' },
    ],
  },
  { label: 'Trades', options: [{ value: 'trade-size', label: 'Trade size at least' }] },
  {
    label: 'Account',
    options: [
      { value: 'order-filled', label: 'Order filled' },
      { value: 'order-partially-filled', label: 'Order partly filled' },
      { value: 'order-cancelled', label: 'Order cancelled' },
      { value: 'position-opened', label: 'Position opened' },
      { value: 'position-closed', label: 'Position closed' },
      { value: 'balance-below', label: 'Balance below' },
    ],
  },
  {
    label: 'Feed health',
    options: [
      { value: 'disconnected', label: 'Disconnected for' },
      { value: 'book-stale', label: 'Book not live for' },
      { value: 'auth-error', label: 'Key refused' },
      { value: 'key-expiring', label: 'Key expiring within' },
    ],
  },
]

export const OP_LABELS: Record<AlertOp, string> = {
  'crosses-above': 'crosses above',
  'crosses-below': 'crosses below',
  above: 'is at or above',
  below: 'is at or below',
}

export function isPriceSubject(subject: FormSubject): subject is PriceSubject {
  return (PRICE_SUBJECTS as readonly string[]).includes(subject)
}

export function isFormSubject(value: string): value is FormSubject {
  return (
    (PRICE_SUBJECTS as readonly string[]).includes(value) ||
    (OTHER_SUBJECTS as readonly string[]).includes(value)
  )
}

export function isAlertOp(value: string): value is AlertOp {
  return (ALERT_OPS as readonly string[]).includes(value)
}

/** Every field of the form as the trader typed it (numbers stay text until saved). */
export interface AlertDraft {
  /** Set when editing a stored rule. */
  id?: string
  enabled?: boolean
  subject: FormSubject
  market: string
  op: AlertOp
  /** The one threshold the kind has: price, spread, size, balance, seconds or days. */
  value: string
  /** big-trade: the market itself or any market of its event. */
  scope: 'market' | 'event'
  currency: string
  mode: AlertMode
  hysteresis: string
  cooldown: string
  sound: boolean
  label: string
  /** The unit a price subject's level and hysteresis are typed in: the app's when the form opened. */
  unit: PriceUnit
}

/**
 * A rule's condition in the trader's words: markets by their listing names (the id only where the listing does
 * not hold the market), prices in `unit`; the engine's summary, with ids, is the secondary text.
 */
export function conditionText(condition: AlertCondition, names: MarketNames, unit: PriceUnit): string {
  return describeCondition(condition, (id) => marketLabel(names, id), unit)
}

/**
 * A history entry's title and detail as this window says them: its prices in the unit shown now (an entry fired
 * before the trader switched units reads like the ladder beside it) and its markets by the listing's names (the
 * engine's words where the window does not know the market). Words without a price or a market are the
 * engine's text as it is.
 */
export function alertText(
  e: AlertEvent,
  names: MarketNames,
  unit: PriceUnit,
): { title: string; detail: string } {
  const w = e.words
  if (w === undefined) return { title: e.title, detail: e.detail }
  const name = (market: string) => names.get(market)?.label
  return { title: wordsText(w.title, unit, name), detail: wordsText(w.detail, unit, name) }
}

/** Which fields a subject needs: the form shows only these. */
export interface SubjectFields {
  market: 'required' | 'optional' | null
  op: boolean
  /** The threshold's label, or null when the kind has none. */
  value: string | null
  /** Whether the threshold must be above 0 (sizes, durations) or may be 0 (prices, balances). */
  positive: boolean
  scope: boolean
  currency: boolean
  /** Hysteresis is in the threshold's units; kinds without a level have none. */
  hysteresis: boolean
}

export function fieldsOf(subject: FormSubject): SubjectFields {
  const none: SubjectFields = {
    market: null,
    op: false,
    value: null,
    positive: false,
    scope: false,
    currency: false,
    hysteresis: false,
  }
  if (isPriceSubject(subject))
    return {
      ...none,
      market: 'required',
      op: true,
      value: subject === 'spread' ? 'Spread' : 'Price',
      hysteresis: true,
    }
  switch (subject) {
    case 'trade-size':
      return { ...none, market: 'required', value: 'Min size', positive: true, scope: true }
    case 'order-filled':
    case 'order-partially-filled':
    case 'order-cancelled':
    case 'position-opened':
    case 'position-closed':
      return { ...none, market: 'optional' }
    case 'balance-below':
      return { ...none, value: 'Balance below', currency: true, hysteresis: true }
    case 'disconnected':
      return { ...none, value: 'Seconds', positive: true }
    case 'book-stale':
      return { ...none, market: 'optional', value: 'Seconds', positive: true }
    case 'key-expiring':
      return { ...none, value: 'Days', positive: true }
    case 'auth-error':
      return none
  }
}

/** Numbers as a person would type them: no float noise (0.1 + 0.2), no exponent for ordinary prices. */
export function numberText(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return ''
  return plainNumber(n)
}

/** A price rule's hysteresis to start from: one tick of VoxFi's, in the unit it is typed in. */
const DEFAULT_PRICE_HYSTERESIS = 0.01

/** The hysteresis a subject starts from: one tick for a price, 0.01 of the threshold's units otherwise. */
export function defaultHysteresis(subject: FormSubject, unit: PriceUnit): string {
  return isPriceSubject(subject) ? priceInput(DEFAULT_PRICE_HYSTERESIS, unit) : numberText(0.01)
}

/** A new alert's form, prices typed in `unit` (the app's). */
export function emptyDraft(market: string | null, unit: PriceUnit): AlertDraft {
  return {
    subject: 'mid',
    market: market ?? '',
    op: 'crosses-above',
    value: '',
    scope: 'market',
    currency: '',
    mode: 'once',
    hysteresis: defaultHysteresis('mid', unit),
    cooldown: String(DEFAULT_COOLDOWN_SEC),
    sound: true,
    label: '',
    unit,
  }
}

/** A draft with these fields set over the defaults (what the ladder, the quote or an order row start from). */
export function prefill(
  partial: Omit<Partial<AlertDraft>, 'market' | 'unit'> & { market?: string | null },
  unit: PriceUnit,
): AlertDraft {
  const { market, ...rest } = partial
  return { ...emptyDraft(market ?? null, unit), ...rest }
}

/**
 * A ladder level: its own side as the subject, the level as the value, and the direction the price must move
 * to reach it (a level above the mid is reached from below).
 */
export function ladderDraft(
  market: string,
  side: 'bid' | 'ask',
  price: number,
  mid: number | null,
  unit: PriceUnit,
): AlertDraft {
  const above = mid === null ? side === 'ask' : price > mid
  return prefill(
    { market, subject: side, op: above ? 'crosses-above' : 'crosses-below', value: priceInput(price, unit) },
    unit,
  )
}

/**
 * A price subject's current value as the level, put on the market's grid (the price the trader sees, not a tick
 * below it by float noise), crossing toward it from where the value is.
 */
export function quoteDraft(
  market: string,
  subject: PriceSubject,
  value: number | null,
  grid: PriceGrid | null,
  unit: PriceUnit,
): AlertDraft {
  if (value === null) return prefill({ market, subject }, unit)
  const level = defaultLevel(subject, value, grid)
  return prefill({ market, subject, op: level.op, value: priceInput(level.value, unit) }, unit)
}

/** The prices the listing says a market has, or null (not listed, or the venue does not say). */
export function gridOfMarket(events: readonly EventSummary[], market: string): PriceGrid | null {
  return findMarket(events, market)?.market.priceGrid ?? null
}

/** A stored rule in the form, its prices typed in `unit`. */
export function draftFromRule(rule: AlertRuleView, unit: PriceUnit): AlertDraft {
  const price = rule.condition.kind === 'price'
  const base: AlertDraft = {
    ...emptyDraft(null, unit),
    id: rule.id,
    enabled: rule.enabled,
    mode: rule.mode,
    hysteresis: price ? priceInput(rule.hysteresis, unit) : numberText(rule.hysteresis),
    cooldown: numberText(rule.cooldownSec),
    sound: rule.sound,
    label: rule.label ?? '',
  }
  const c = rule.condition
  switch (c.kind) {
    case 'price':
      return { ...base, subject: c.subject, market: c.market, op: c.op, value: priceInput(c.value, unit) }
    case 'big-trade':
      return { ...base, subject: 'trade-size', market: c.id, scope: c.scope, value: numberText(c.minSize) }
    case 'order':
      return { ...base, subject: `order-${c.status}`, market: c.market ?? '' }
    case 'position':
      return { ...base, subject: `position-${c.change}`, market: c.market ?? '' }
    case 'balance-below':
      return { ...base, subject: 'balance-below', value: numberText(c.value), currency: c.currency ?? '' }
    case 'disconnected':
      return { ...base, subject: 'disconnected', value: numberText(c.seconds) }
    case 'book-stale':
      return { ...base, subject: 'book-stale', market: c.market ?? '', value: numberText(c.seconds) }
    case 'auth-error':
      return { ...base, subject: 'auth-error' }
    case 'key-expiring':
      return { ...base, subject: 'key-expiring', value: numberText(c.days) }
  }
}

/**
 * What follows `prefix` in a subject, typed as the literal it is: `order-partially-filled` is the order status
 * `partially-filled`, `position-closed` the position change `closed` (draftFromRule writes them back the same way).
 */
function after<P extends string, S extends `${P}${string}`>(
  subject: S,
  prefix: P,
): S extends `${P}${infer Rest}` ? Rest : never {
  return subject.slice(prefix.length) as S extends `${P}${infer Rest}` ? Rest : never
}

/** Which field a message is about, so the form can mark it (aria-invalid) and focus it. */
export type DraftField = 'market' | 'value' | 'hysteresis' | 'cooldown' | 'label'

export type DraftResult =
  { ok: true; input: AlertRuleInput } | { ok: false; field: DraftField; message: string }

function parseNumber(
  text: string,
  label: string,
  field: DraftField,
  positive: boolean,
): { ok: true; n: number } | { ok: false; field: DraftField; message: string } {
  const t = text.trim()
  if (t === '') return { ok: false, field, message: `${label}: enter a number.` }
  const n = Number(t)
  if (!Number.isFinite(n)) return { ok: false, field, message: `${label}: “${t}” is not a number.` }
  if (n < 0) return { ok: false, field, message: `${label} must not be negative.` }
  if (positive && n === 0) return { ok: false, field, message: `${label} must be greater than 0.` }
  return { ok: true, n }
}

/**
 * The rule input for the engine, or the first field that is obviously wrong. `events` resolves a market to its
 * event for big-trade rules scoped to the event.
 */
export function draftToInput(draft: AlertDraft, events: readonly EventSummary[]): DraftResult {
  const f = fieldsOf(draft.subject)
  const market = draft.market.trim()
  if (f.market === 'required' && market === '')
    return { ok: false, field: 'market', message: 'Market: enter a market id.' }
  let value = 0
  if (f.value !== null) {
    const v = parseNumber(draft.value, f.value, 'value', f.positive)
    if (!v.ok) return v
    value = v.n
  }
  let condition: AlertCondition
  const s = draft.subject
  if (isPriceSubject(s))
    condition = { kind: 'price', market, subject: s, op: draft.op, value: priceFromInput(value, draft.unit) }
  else
    switch (s) {
      case 'trade-size': {
        let id = market
        if (draft.scope === 'event') {
          const found = findMarket(events, market)
          if (!found)
            return {
              ok: false,
              field: 'market',
              message: `Market: ${market} is not in the events listing, so its event is unknown.`,
            }
          id = found.event.id
        }
        condition = { kind: 'big-trade', scope: draft.scope, id, minSize: value }
        break
      }
      case 'order-filled':
      case 'order-partially-filled':
      case 'order-cancelled':
        condition = { kind: 'order', market: market || null, status: after(s, 'order-') }
        break
      case 'position-opened':
      case 'position-closed':
        condition = { kind: 'position', market: market || null, change: after(s, 'position-') }
        break
      case 'balance-below':
        condition = { kind: 'balance-below', value, currency: draft.currency.trim() || null }
        break
      case 'disconnected':
        condition = { kind: 'disconnected', seconds: value }
        break
      case 'book-stale':
        condition = { kind: 'book-stale', market: market || null, seconds: value }
        break
      case 'auth-error':
        condition = { kind: 'auth-error' }
        break
      case 'key-expiring':
        condition = { kind: 'key-expiring', days: value }
        break
    }
  // The engine refuses the same rule with the same words; saying it here spares the round trip.
  const problem = checkAlertCondition(
    condition,
    condition.kind === 'price' ? gridOfMarket(events, market) : null,
    draft.unit,
  )
  if (problem !== null)
    return { ok: false, field: inputField(problem.field) ?? 'value', message: problem.message }
  const input: AlertRuleInput = {
    condition,
    mode: draft.mode,
    sound: draft.sound,
    label: draft.label.trim() || null,
  }
  if (draft.id !== undefined) input.id = draft.id
  if (draft.enabled !== undefined) input.enabled = draft.enabled
  if (draft.mode === 'rearm') {
    if (f.hysteresis) {
      const h = parseNumber(draft.hysteresis, 'Hysteresis', 'hysteresis', false)
      if (!h.ok) return h
      input.hysteresis = isPriceSubject(s) ? priceFromInput(h.n, draft.unit) : h.n
    }
    const c = parseNumber(draft.cooldown, 'Cooldown', 'cooldown', false)
    if (!c.ok) return c
    input.cooldownSec = c.n
  }
  return { ok: true, input }
}

/** The form's field for the input field an engine refusal names (ApiError.field, e.g. `condition.value`). */
export function draftFieldOf(error: ApiError): DraftField | null {
  return error.field === undefined ? null : inputField(error.field)
}

/** The form's field for a rule input's field (`condition.value` → value). */
function inputField(field: string): DraftField | null {
  if (/^condition\.(value|minSize|seconds|days)$/.test(field)) return 'value'
  if (/^condition\.(market|id)$/.test(field)) return 'market'
  if (field === 'hysteresis') return 'hysteresis'
  if (field === 'cooldownSec') return 'cooldown'
  if (field === 'label') return 'label'
  return null
}

/** Minutes from `now` until the next 08:00 local time after today (for "snooze until tomorrow morning"). */
export function minutesUntilTomorrowMorning(now: number, hour = 8): number {
  const d = new Date(now)
  d.setDate(d.getDate() + 1)
  d.setHours(hour, 0, 0, 0)
  return Math.max(1, Math.ceil((d.getTime() - now) / 60_000))
}

/** Key of a history entry across engine runs (ids restart with the engine). */
export function eventKey(e: { id: number; at: number }): string {
  return `${e.id}@${e.at}`
}
