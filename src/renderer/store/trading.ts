// This window's side of trading: each market's ticket as typed (kept per market, so a ticket filled from the
// ladder or from a position's close, or switched away from and back, shows what it held), the refusal each
// ticket shows, and the cancel-all in progress or waiting for its confirmation. The orders themselves are the
// engine's (store/monitor.ts, `account`).
import { create } from 'zustand'
import type { ApiError } from '../../shared/model'
import type { CancelAllResult, OrderKind, OrderOutcome, OrderSide } from '../../shared/trading'
import { priceInputText } from '../lib/price-input'
import type { PriceUnit } from '../lib/format'
import { usePrefs } from './prefs'

export interface TicketDraft {
  side: OrderSide
  outcome: OrderOutcome
  kind: OrderKind
  /** The price as typed, in the unit it was typed in (the app's unit may have changed since). */
  price: string
  priceUnit: PriceUnit
  /** Contracts, as typed. */
  quantity: string
  /** Increases with every fill from outside the ticket (a ladder row, a position's close). */
  filled: number
}

export const EMPTY_DRAFT: TicketDraft = Object.freeze({
  side: 'buy',
  outcome: 'YES',
  kind: 'limit',
  price: '',
  priceUnit: 'cents',
  quantity: '',
  filled: 0,
})

export interface CancelAllState {
  /** The confirmation is open (confirmations on). */
  asking: boolean
  running: boolean
  result: CancelAllResult | null
  error: ApiError | null
}

export interface TradingUiState {
  /** The window's tickets show only their head (a small screen gives the ladder the room); a fill opens them. */
  collapsed: boolean
  drafts: Record<string, TicketDraft>
  /** What each market's ticket shows in `order-error`: its last refusal, or a cancel from its ladder refused. */
  refusals: Record<string, ApiError>
  cancelAll: CancelAllState
}

export const useTradingUi = create<TradingUiState>()(() => ({
  collapsed: false,
  drafts: {},
  refusals: {},
  cancelAll: { asking: false, running: false, result: null, error: null },
}))

/** The market's ticket as typed (the empty one until something is typed or filled). */
export function useTicketDraft(market: string): TicketDraft {
  return useTradingUi((s) => s.drafts[market] ?? EMPTY_DRAFT)
}

export function editTicket(market: string, patch: Partial<Omit<TicketDraft, 'filled'>>): void {
  useTradingUi.setState((s) => ({
    drafts: { ...s.drafts, [market]: { ...(s.drafts[market] ?? EMPTY_DRAFT), ...patch } },
  }))
}

/**
 * Fills a market's ticket from elsewhere: a ladder row (its side and price) or a position's close (the opposite
 * order for the held quantity at the touch). The price (0–1, null: none known) is written in the app's unit; a
 * quantity given replaces the typed one, else that one stays.
 */
export function fillTicket(
  market: string,
  fill: {
    side: OrderSide
    outcome: OrderOutcome
    price: number | null
    kind?: OrderKind
    quantity?: number
  },
): void {
  const unit = usePrefs.getState().priceUnit
  useTradingUi.setState((s) => {
    const was = s.drafts[market] ?? EMPTY_DRAFT
    const draft: TicketDraft = {
      ...was,
      side: fill.side,
      outcome: fill.outcome,
      kind: fill.kind ?? (fill.price === null ? was.kind : 'limit'),
      price: fill.price === null ? was.price : priceInputText(fill.price, unit),
      priceUnit: fill.price === null ? was.priceUnit : unit,
      quantity: fill.quantity === undefined ? was.quantity : String(fill.quantity),
      filled: was.filled + 1,
    }
    return { drafts: { ...s.drafts, [market]: draft }, collapsed: false }
  })
}

export function setTicketsCollapsed(collapsed: boolean): void {
  if (useTradingUi.getState().collapsed !== collapsed) useTradingUi.setState({ collapsed })
}

/** Sets (or with null clears) what the market's ticket shows as its refusal. */
export function setTicketRefusal(market: string, error: ApiError | null): void {
  useTradingUi.setState((s) => {
    if (error === null) {
      if (!(market in s.refusals)) return {}
      const { [market]: _gone, ...rest } = s.refusals
      return { refusals: rest }
    }
    return { refusals: { ...s.refusals, [market]: error } }
  })
}

export function setCancelAll(patch: Partial<CancelAllState>): void {
  useTradingUi.setState((s) => ({ cancelAll: { ...s.cancelAll, ...patch } }))
}
