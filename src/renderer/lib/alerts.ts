// The alert form's model: what the trader picks in `alert-subject` (a price subject or one of the other rule
// kinds), the text of every field as typed, and the rule input built from it. Numbers are checked here too so
// an obvious mistake is named before a round trip, but the engine's validation stays the authority.
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
import { quoteTitle, quoteValues } from '../../shared/alert-text'
import type { ApiError, EventSummary, PriceGrid } from '../../shared/model'
import { findMarket } from './events'
import { plainNumber, type PriceUnit } from './format'
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
}

/**
 * A rule's condition in the trader's words: markets by their listing names (the id only where the listing does
 * not hold the market), prices in `unit` (the form, whose level is typed in 0–1, passes none); the engine's
 * summary, with ids, is the secondary text.
 */
export function conditionText(condition: AlertCondition, names: MarketNames, unit?: PriceUnit): string {
  return describeCondition(condition, (id) => marketLabel(names, id), unit)
}

/**
 * A history entry's title and detail as this window says them: a price alert's numbers in the trader's price
 * unit and its market by the listing's name (the engine's words where the window does not know the market).
 * Other entries are shown as the engine wrote them.
 */
export function alertText(
  e: AlertEvent,
  names: MarketNames,
  unit: PriceUnit,
): { title: string; detail: string } {
  const q = e.quote
  if (q === undefined) return { title: e.title, detail: e.detail }
  const held = e.kind === 'held'
  // The engine's title is its name for the market followed by the same words without one.
  const tail = quoteTitle('', q, held)
  const engineName = e.title.endsWith(tail) ? e.title.slice(0, -tail.length) : null
  const name = (e.market !== null ? names.get(e.market)?.label : undefined) ?? engineName
  return {
    title: name === null ? e.title : quoteTitle(name, q, held, unit),
    detail: e.detail.replace(quoteValues(q), quoteValues(q, unit)),
  }
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

export function emptyDraft(market: string | null = null): AlertDraft {
  return {
    subject: 'mid',
    market: market ?? '',
    op: 'crosses-above',
    value: '',
    scope: 'market',
    currency: '',
    mode: 'once',
    hysteresis: '0.01',
    cooldown: String(DEFAULT_COOLDOWN_SEC),
    sound: true,
    label: '',
  }
}

/** A draft with these fields set over the defaults (what the ladder, the quote or an order row start from). */
export function prefill(
  partial: Omit<Partial<AlertDraft>, 'market'> & { market?: string | null },
): AlertDraft {
  const { market, ...rest } = partial
  return { ...emptyDraft(market ?? null), ...rest }
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
): AlertDraft {
  const above = mid === null ? side === 'ask' : price > mid
  return prefill({
    market,
    subject: side,
    op: above ? 'crosses-above' : 'crosses-below',
    value: numberText(price),
  })
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
): AlertDraft {
  if (value === null) return prefill({ market, subject })
  const level = defaultLevel(subject, value, grid)
  return prefill({ market, subject, op: level.op, value: numberText(level.value) })
}

/** The prices the listing says a market has, or null (not listed, or the venue does not say). */
export function gridOfMarket(events: readonly EventSummary[], market: string): PriceGrid | null {
  return findMarket(events, market)?.market.priceGrid ?? null
}

export function draftFromRule(rule: AlertRuleView): AlertDraft {
  const base: AlertDraft = {
    ...emptyDraft(),
    id: rule.id,
    enabled: rule.enabled,
    mode: rule.mode,
    hysteresis: numberText(rule.hysteresis),
    cooldown: numberText(rule.cooldownSec),
    sound: rule.sound,
    label: rule.label ?? '',
  }
  const c = rule.condition
  switch (c.kind) {
    case 'price':
      return { ...base, subject: c.subject, market: c.market, op: c.op, value: numberText(c.value) }
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
  if (isPriceSubject(s)) condition = { kind: 'price', market, subject: s, op: draft.op, value }
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
      input.hysteresis = h.n
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
