// Alerts: what a rule says, how a rule is checked before the engine accepts it, and what the engine tells windows
// and the shell about rules and firings. Rules are evaluated in the engine (main), never in a window.
import { z } from 'zod'
import { formatPrice, type PriceUnit } from './price-format'

/** Market values a price rule watches. `spread` is ask - bid. */
export const PRICE_SUBJECTS = ['bid', 'ask', 'mid', 'last', 'spread'] as const
export type PriceSubject = (typeof PRICE_SUBJECTS)[number]

/**
 * `above` / `below` fire as soon as the value is at or past the level (also when it already is when the rule is
 * made); `crosses-above` / `crosses-below` fire only on a crossing: the value was seen on the other side first.
 */
export const ALERT_OPS = ['crosses-above', 'crosses-below', 'above', 'below'] as const
export type AlertOp = (typeof ALERT_OPS)[number]

export const ORDER_STATUSES = ['filled', 'partially-filled', 'cancelled'] as const
export type OrderAlertStatus = (typeof ORDER_STATUSES)[number]

export const POSITION_CHANGES = ['opened', 'closed'] as const
export type PositionChange = (typeof POSITION_CHANGES)[number]

export type AlertCondition =
  | { kind: 'price'; market: string; subject: PriceSubject; op: AlertOp; value: number }
  /** A single trade of at least `minSize`, in one market or in any market of one event. */
  | { kind: 'big-trade'; scope: 'market' | 'event'; id: string; minSize: number }
  /** An order of the account (in `market`, or any when null) reached this status. */
  | { kind: 'order'; market: string | null; status: OrderAlertStatus }
  | { kind: 'position'; market: string | null; change: PositionChange }
  /** A wallet balance (of `currency`, or any when null) went below `value`. */
  | { kind: 'balance-below'; value: number; currency: string | null }
  | { kind: 'disconnected'; seconds: number }
  /** A watched book (this one, or any when null) not live for `seconds`. */
  | { kind: 'book-stale'; market: string | null; seconds: number }
  | { kind: 'auth-error' }
  | { kind: 'key-expiring'; days: number }

/**
 * once: fires one time, then stays `fired` until re-enabled. rearm: fires again after the condition stopped
 * holding (for levels: the value went back past the level by `hysteresis`) and `cooldownSec` has passed.
 */
export type AlertMode = 'once' | 'rearm'

/** What a window sends to create (no id) or edit (id) a rule. */
export interface AlertRuleInput {
  id?: string
  label?: string | null
  condition: AlertCondition
  mode?: AlertMode
  /** Price units for price, spread and balance rules; 0 re-arms as soon as the value is back across the level. */
  hysteresis?: number
  cooldownSec?: number
  sound?: boolean
  enabled?: boolean
}

/** A stored rule (settings section `alertRules`). `v` is the rule format's version. */
export interface AlertRule {
  v: 1
  id: string
  label: string | null
  condition: AlertCondition
  mode: AlertMode
  hysteresis: number
  cooldownSec: number
  sound: boolean
  enabled: boolean
  /** ms since epoch; firing is held back until then. */
  snoozedUntil: number | null
  createdAt: number
  /** ms since epoch of the last firing (a `once` rule with one is spent). */
  firedAt: number | null
}

export type AlertRuleState = 'armed' | 'fired' | 'disabled' | 'snoozed'

export interface AlertRuleView extends AlertRule {
  state: AlertRuleState
  /** Human text for the rule, e.g. "mkt-1 mid crosses above 0.45". */
  summary: string
  /** Why an armed rule is not firing now, e.g. "held: the book is stale (gap)"; null when nothing to say. */
  note: string | null
}

/** A price firing's numbers, kept with its entry so a window can write them in the trader's price unit. */
export interface AlertQuote {
  subject: PriceSubject
  op: AlertOp
  /** The rule's level. */
  level: number
  /** The value judged, and the book's best prices it came from (or a trade: `fromTrade`). */
  value: number
  bid: number | null
  ask: number | null
  fromTrade: boolean
}

/**
 * A piece of an alert's words (shared/alert-text.ts): text; a price in 0–1, written in the unit shown; or a
 * market, with the engine's name for it when it fired (its id without a listing).
 */
export type WordPart = string | { price: number } | { market: string; name: string }

/**
 * One entry of the alert history. fired: the rule fired (a notification was sent). held: the condition held on
 * data the engine cannot vouch for (a stale, resyncing or crossed book), so the rule waits for live data.
 */
export interface AlertEvent {
  /** Increasing per engine run. */
  id: number
  ruleId: string
  kind: 'fired' | 'held'
  at: number
  /** Notification title, e.g. "mkt-1 mid crossed above 0.45". */
  title: string
  /** More about it, e.g. "mid 0.455 (bid 0.45 / ask 0.46)"; may say it fired once the book was live again. */
  detail: string
  /** The value that triggered, when there is one. */
  value: number | null
  /** The market it is about, when there is one (a click opens it). */
  market: string | null
  sound: boolean
  acknowledged: boolean
  /** Price rules: the numbers the title and detail were written from. */
  quote?: AlertQuote
  /**
   * The title and detail with their prices and markets kept apart (shared/alert-text.ts), so a window writes
   * them in the price unit it shows now; absent for words without a price or market (and older entries).
   */
  words?: { title: WordPart[]; detail: WordPart[] }
}

/** What the shell does when every window is closed: keep watching while any rule is armed, always, or quit. */
export type KeepRunning = 'auto' | 'always' | 'never'

/** Pushed to every window when anything about alerts changes (ViewBatch.alerts), and returned by getAlerts. */
export interface AlertsView {
  rules: AlertRuleView[]
  /** Newest first, capped (ALERT_HISTORY_CAP). */
  history: AlertEvent[]
  /** Fired entries not yet acknowledged. */
  unread: number
  /** All alerts paused (tray or manager): nothing fires. */
  paused: boolean
  keepRunning: KeepRunning
}

/** What the tray and the quit policy read (MonitorEngine.shellState). */
export interface AlertsSummary {
  /** Rules that can still fire: enabled and not spent (armed, snoozed, or a re-arming rule waiting to re-arm). */
  armed: number
  unread: number
  paused: boolean
  keepRunning: KeepRunning
}

export const MAX_ALERT_RULES = 1000
export const ALERT_HISTORY_CAP = 200
export const MAX_SNOOZE_MINUTES = 7 * 24 * 60
export const DEFAULT_COOLDOWN_SEC = 60

// ---------------------------------------------------------------- validation (IPC and settings)

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/
const idText = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is empty`)
    .max(200, `${what} is longer than 200 characters`)
    .refine((s) => !CONTROL_CHARS.test(s), `${what} contains control characters`)

const finite = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .refine((n) => Number.isFinite(n), `${what} must be a finite number`)
const nonNegative = (what: string) => finite(what).refine((n) => n >= 0, `${what} must not be negative`)
const positive = (what: string) => finite(what).refine((n) => n > 0, `${what} must be greater than 0`)

export const alertConditionSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('price'),
        market: idText('market'),
        subject: z.enum(PRICE_SUBJECTS, { error: `subject must be one of ${PRICE_SUBJECTS.join(', ')}` }),
        op: z.enum(ALERT_OPS, { error: `op must be one of ${ALERT_OPS.join(', ')}` }),
        value: nonNegative('value'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('big-trade'),
        scope: z.enum(['market', 'event'], { error: 'scope must be market or event' }),
        id: idText('id'),
        minSize: positive('minSize'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('order'),
        market: idText('market').nullable(),
        status: z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(', ')}` }),
      })
      .strict(),
    z
      .object({
        kind: z.literal('position'),
        market: idText('market').nullable(),
        change: z.enum(POSITION_CHANGES, { error: 'change must be opened or closed' }),
      })
      .strict(),
    z
      .object({
        kind: z.literal('balance-below'),
        value: nonNegative('value'),
        currency: idText('currency').nullable(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('disconnected'),
        seconds: positive('seconds').refine((n) => n <= 86_400, 'seconds must be at most 86400'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('book-stale'),
        market: idText('market').nullable(),
        seconds: positive('seconds').refine((n) => n <= 86_400, 'seconds must be at most 86400'),
      })
      .strict(),
    z.object({ kind: z.literal('auth-error') }).strict(),
    z
      .object({
        kind: z.literal('key-expiring'),
        days: positive('days').refine((n) => n <= 365, 'days must be at most 365'),
      })
      .strict(),
  ],
  { error: 'condition.kind is not a known alert kind' },
)

const modeSchema = z.enum(['once', 'rearm'], { error: 'mode must be once or rearm' })
const labelSchema = z.string().trim().max(200, 'label is longer than 200 characters').nullable()
const cooldownSchema = nonNegative('cooldownSec').refine(
  (n) => n <= 86_400,
  'cooldownSec must be at most 86400',
)

export const alertRuleInputSchema = z
  .object({
    id: idText('id').optional(),
    label: labelSchema.optional(),
    condition: alertConditionSchema,
    mode: modeSchema.optional(),
    hysteresis: nonNegative('hysteresis').optional(),
    cooldownSec: cooldownSchema.optional(),
    sound: z.boolean({ error: 'sound must be true or false' }).optional(),
    enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  })
  .strict()

const epochMs = z.number().int().min(0).max(8.64e15)

export const alertRuleSchema = z
  .object({
    v: z.literal(1, { error: 'unknown rule format version (this version reads v: 1)' }),
    id: idText('id'),
    label: labelSchema,
    condition: alertConditionSchema,
    mode: modeSchema,
    hysteresis: nonNegative('hysteresis'),
    cooldownSec: cooldownSchema,
    sound: z.boolean(),
    enabled: z.boolean(),
    snoozedUntil: epochMs.nullable(),
    createdAt: epochMs,
    firedAt: epochMs.nullable(),
  })
  .strict()

/** Words as stored: a bounded list of text, price and market parts whose text is bounded as a whole. */
function wordsSchema(maxText: number) {
  const part = z.union([
    z.string(),
    z.object({ price: finite('price') }).strict(),
    z.object({ market: idText('market'), name: z.string().max(400) }).strict(),
  ])
  return z
    .array(part)
    .max(64)
    .refine(
      (parts) => parts.reduce((n, p) => n + (typeof p === 'string' ? p.length : 0), 0) <= maxText,
      `words longer than ${maxText} characters`,
    )
}

/** A history entry as stored beside the settings (what a restart reads back). */
export const alertEventSchema = z
  .object({
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    ruleId: idText('ruleId'),
    kind: z.enum(['fired', 'held']),
    at: epochMs,
    title: z.string().max(1000),
    detail: z.string().max(4000),
    value: finite('value').nullable(),
    market: idText('market').nullable(),
    sound: z.boolean(),
    acknowledged: z.boolean(),
    quote: z
      .object({
        subject: z.enum(PRICE_SUBJECTS),
        op: z.enum(ALERT_OPS),
        level: finite('level'),
        value: finite('value'),
        bid: finite('bid').nullable(),
        ask: finite('ask').nullable(),
        fromTrade: z.boolean(),
      })
      .strict()
      .optional(),
    words: z
      .object({ title: wordsSchema(1000), detail: wordsSchema(4000) })
      .strict()
      .optional(),
  })
  .strict()

export const keepRunningSchema = z.enum(['auto', 'always', 'never'])

/** The field a validation issue is about, as the user knows it: "condition.value", "cooldownSec", … */
export function issueField(path: readonly PropertyKey[]): string {
  return path.length > 0 ? path.map(String).join('.') : 'rule'
}

/** A rule's market, when it has one (what a notification click opens). */
export function conditionMarket(condition: AlertCondition): string | null {
  switch (condition.kind) {
    case 'price':
    case 'order':
    case 'position':
    case 'book-stale':
      return condition.market
    case 'big-trade':
      return condition.scope === 'market' ? condition.id : null
    default:
      return null
  }
}

/**
 * Human text for a rule's condition, e.g. "mkt-1 mid crosses above 0.45". `name` gives a market's words (a
 * window passes the listing's titles); the engine, without one, says the id. Prices in `unit` (default 0–1).
 */
export function describeCondition(
  c: AlertCondition,
  name: (market: string) => string = (id) => id,
  unit?: PriceUnit,
): string {
  switch (c.kind) {
    case 'price':
      return `${name(c.market)} ${c.subject} ${c.op.replace('-', ' ')} ${formatPrice(c.value, unit)}`
    case 'big-trade':
      return `trade of ${c.minSize} or more in ${c.scope === 'event' ? `event ${c.id}` : name(c.id)}`
    case 'order':
      return `order ${c.status.replace('-', ' ')}${c.market ? ` in ${name(c.market)}` : ''}`
    case 'position':
      return `position ${c.change}${c.market ? ` in ${name(c.market)}` : ''}`
    case 'balance-below':
      return `${c.currency ?? 'balance'} below ${c.value}`
    case 'disconnected':
      return `disconnected for ${c.seconds} s`
    case 'book-stale':
      return `${c.market !== null ? name(c.market) : 'any book'} not live for ${c.seconds} s`
    case 'auth-error':
      return 'the key is refused'
    case 'key-expiring':
      return `the key expires within ${c.days} days`
  }
}
