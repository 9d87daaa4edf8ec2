// Trading from the app (docs/trading.md): the modes, the order a window asks for, the order as the engine keeps it,
// the per-profile limits, and the account view windows draw. Shared: the engine owns every order and the one account
// per profile; windows only send intents and draw views (DESIGN §3.7 names the UI hooks).
import { z } from 'zod'
import type { ApiError, ConfirmReason } from './model'
import type { BalanceRow, FillRow, PositionRow } from './account'

// ---------------------------------------------------------------- modes and settings

/** Off: no order is sent. Paper: orders rest against the live book and never reach the venue. Live: real orders. */
export const TRADING_MODES = ['off', 'paper', 'live'] as const
export type TradingMode = (typeof TRADING_MODES)[number]
export const tradingModeSchema = z.enum(TRADING_MODES)

export interface TradingLimits {
  /** The most contracts one order may ask for. */
  maxContracts: number
  /** The most one order may cost, in the account's money (R$): price × quantity plus the estimated fee. */
  maxOrderValue: number
  /** The most open orders (live ones, pending and unknown included) the profile may have at once. */
  maxOpenOrders: number
  /** A limit order more than this many ticks through the touch asks first (a fat finger). */
  farTicks: number
}

export const DEFAULT_LIMITS: TradingLimits = {
  maxContracts: 1_000,
  maxOrderValue: 1_000,
  maxOpenOrders: 50,
  farTicks: 5,
}

export const tradingLimitsSchema = z
  .object({
    maxContracts: z.number().int().min(1).max(10_000_000),
    maxOrderValue: z.number().min(0.01).max(100_000_000),
    maxOpenOrders: z.number().int().min(1).max(10_000),
    farTicks: z.number().int().min(1).max(99),
  })
  .strict()

/** What a profile keeps about trading (settings file, section `trading`, by profile id). */
export interface TradingSettings {
  mode: TradingMode
  /** One click sends: no confirmation before an order. Off by default. */
  oneClick: boolean
  limits: TradingLimits
}

export const tradingSettingsSchema = z
  .object({ mode: tradingModeSchema, oneClick: z.boolean(), limits: tradingLimitsSchema })
  .strict()

/** A change to the active profile's trading settings; `live` needs `confirmLive` (the window asked first). */
export interface TradingSettingsInput {
  mode?: TradingMode
  /** Required true to switch to live: a window can only do it after the user confirmed. */
  confirmLive?: boolean
  oneClick?: boolean
  limits?: Partial<TradingLimits>
}

export const tradingSettingsInputSchema = z
  .object({
    mode: tradingModeSchema.optional(),
    confirmLive: z.boolean().optional(),
    oneClick: z.boolean().optional(),
    limits: tradingLimitsSchema.partial().optional(),
  })
  .strict()

// ---------------------------------------------------------------- the order a window asks for

export type OrderSide = 'buy' | 'sell'
export type OrderOutcome = 'YES' | 'NO'
export type OrderKind = 'limit' | 'market'

export type { ConfirmReason }
/** The warnings the user must accept before an order goes: sent back with the same intent once accepted. */
export const CONFIRM_REASONS = ['duplicate', 'far_through'] as const satisfies readonly ConfirmReason[]

/** An id a window makes once per press: the engine sends at most one order per intent, whatever arrives. */
export const intentIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'an intent id has letters, digits, "_" and "-" only')

export interface OrderRequest {
  intentId: string
  /** The profile and mode the window showed when the user pressed: the engine refuses the order if either changed. */
  profileId: string
  mode: Exclude<TradingMode, 'off'>
  market: string
  side: OrderSide
  outcome: OrderOutcome
  kind: OrderKind
  /** Limit orders: the outcome's own price in ticks (1–99, VoxFi's unit); absent for market orders. */
  priceTicks?: number
  /** Contracts, a positive integer. */
  quantity: number
  /** When the user pressed (ms since epoch): the order's round trip is measured from here. */
  clickedAt: number
  /** Warnings the user accepted for this intent. */
  confirmed?: ConfirmReason[]
}

export const orderRequestSchema = z
  .object({
    intentId: intentIdSchema,
    profileId: z.string().min(1).max(200),
    mode: z.enum(['paper', 'live']),
    market: z.string().min(1).max(200),
    side: z.enum(['buy', 'sell']),
    outcome: z.enum(['YES', 'NO']),
    kind: z.enum(['limit', 'market']),
    priceTicks: z
      .number()
      .int()
      .min(1, 'a price from 1 to 99 ticks')
      .max(99, 'a price from 1 to 99 ticks')
      .optional(),
    quantity: z.number().int().min(1, 'at least 1 contract').max(10_000_000),
    clickedAt: z.number().finite().nonnegative(),
    confirmed: z.array(z.enum(CONFIRM_REASONS)).max(CONFIRM_REASONS.length).optional(),
  })
  .strict()
  .refine((r) => (r.kind === 'limit') === (r.priceTicks !== undefined), {
    message: 'a limit order needs a price; a market order has none',
    path: ['priceTicks'],
  })

// ---------------------------------------------------------------- the order as the engine keeps it

/**
 * pending: sent, no answer yet. unknown: the answer was lost (timeout, dropped connection); the engine is finding
 * out from the venue's open orders and activity, never by sending again. cancelling: a cancel is on its way.
 */
export const ORDER_STATES = [
  'pending',
  'open',
  'partially_filled',
  'cancelling',
  'cancelled',
  'filled',
  'rejected',
  'unknown',
] as const
export type OrderState = (typeof ORDER_STATES)[number]

/** States in which an order may still trade (and a cancel-all must reach it). */
export function isWorking(state: OrderState): boolean {
  return (
    state === 'pending' ||
    state === 'open' ||
    state === 'partially_filled' ||
    state === 'cancelling' ||
    state === 'unknown'
  )
}

export interface OrderView {
  /** The app's id for the order (the venue's may come later, or never for a paper order). */
  id: string
  venueId: string | null
  /** The window's intent; empty for an order seen at the venue but placed elsewhere (VoxFi's site). */
  intentId: string
  mode: 'live' | 'paper'
  /** Where the order came from: this app, or the venue's open-orders list. */
  origin: 'app' | 'venue'
  market: string
  side: OrderSide
  outcome: OrderOutcome
  kind: OrderKind
  /** The order's own outcome's price in ticks; null for a market order. */
  priceTicks: number | null
  quantity: number
  filled: number
  /** Volume-weighted price of its fills so far, in ticks of its outcome; null before any. */
  avgFillTicks: number | null
  state: OrderState
  /** Why it is rejected, unknown or cancelled, in words, where there is more to say than the state. */
  reason?: string
  /** The venue's or the app's refusal, for a rejected order. */
  error?: ApiError
  createdAt: number
  /** Click to the venue's answer (ms); null until answered (a paper order: click to the engine's answer). */
  rttMs: number | null
  updatedAt: number
}

export interface CancelAllResult {
  /** Orders asked to cancel (open at the venue, in flight, or paper). */
  asked: number
  cancelled: number
  failed: number
  /** Orders still in flight when cancel-all ran: each is cancelled as soon as the venue names it. */
  deferred: number
}

export interface MergeResult {
  market: string
  quantity: number
  /** What the merge paid, in the account's money (R$1.00 per pair). */
  received: number
}

// ---------------------------------------------------------------- what windows draw

/** A reason live orders cannot be sent now that lasts until something changes (a new key, a restart). */
export interface TradingBlock {
  code: 'permission' | 'path_refused' | 'trading_disabled' | 'replay' | 'no_key'
  message: string
}

export interface TradingView {
  profileId: string
  settings: TradingSettings
  /** Why live orders cannot go now; null when they can. Paper orders go regardless. */
  blocked: TradingBlock | null
  /** A cancel-all in progress (new orders wait until it ends). */
  cancelling: boolean
}

/** Which account reads could be done, and why not (a key without a permission still reads the rest). */
export type AccountEndpoint = 'balance' | 'portfolio' | 'orders' | 'activity'
export interface AccountRead {
  ok: boolean
  at: number
  error?: ApiError
}

export interface PaperAccount {
  balance: BalanceRow
  positions: PositionRow[]
}

/** The one account of the active profile, as the engine folds it: sent to windows when it changes. */
export interface AccountView {
  profileId: string
  trading: TradingView
  /** The venue's account (REST reads and the user channel). */
  balances: BalanceRow[]
  positions: PositionRow[]
  /** Newest first, live and paper (FillRow.mode marks paper), capped. */
  fills: FillRow[]
  /** Working orders and today's finished ones, live and paper, newest first, capped. */
  orders: OrderView[]
  paper: PaperAccount
  reads: Partial<Record<AccountEndpoint, AccountRead>>
  /** User updates that carried nothing the account could use. */
  undecoded: number
  lastUpdateAt: number | null
}

// ---------------------------------------------------------------- the order journal (docs/trading.md)

/** What an entry records: a request as it left, or what came of it. */
export type JournalAction = 'place' | 'cancel' | 'cancel-all' | 'merge'
export type JournalOutcome =
  /** Refused by the app before anything was sent (mode, limits, a warning not yet accepted). */
  | 'refused'
  /** On its way to the venue (or the paper broker). */
  | 'sent'
  | 'accepted'
  | 'rejected'
  /** No answer (timeout, dropped connection): reconciled later, never resent. */
  | 'unknown'
  /** What the venue's open orders and activity said of an unknown order. */
  | 'reconciled'

/** One line of the local order journal (JSON lines, the key never in it). */
export interface JournalEntry {
  /** Increasing within one engine run. */
  seq: number
  at: number
  profileId: string
  mode: 'live' | 'paper'
  action: JournalAction
  outcome: JournalOutcome
  orderId: string | null
  venueId: string | null
  market: string | null
  side?: OrderSide
  outcomeOf?: OrderOutcome
  kind?: OrderKind
  priceTicks?: number | null
  quantity?: number
  /** The venue's HTTP status, where it answered. */
  status?: number
  /** The venue's error code (PO3 …) or the app's (too_large …). */
  code?: string
  message?: string
  rttMs?: number | null
}
