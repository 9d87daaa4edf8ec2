// A ticket as typed, read into the order it stands for: the shape the estimate works on while the trader types,
// and on a press the request the engine gets (checked against the contract's own schema, so the ticket refuses
// exactly what the engine would, with the field named). Pure: unit-tested without a DOM.
import type { ApiError, Result } from '../../../shared/model'
import { orderRequestSchema, type OrderRequest, type TradingView } from '../../../shared/trading'
import { parsePriceInput } from '../../lib/price-input'
import type { TicketDraft } from '../../store/trading'
import type { OrderShape } from './estimate'

/** A ticket field's problem, as the engine would name it (`field`: price or quantity). */
function invalid(field: 'price' | 'quantity', message: string): ApiError {
  return { code: 'invalid_argument', message, field }
}

export type TicketRead = { ok: true; shape: OrderShape } | { ok: false; error: ApiError }

/** The order the ticket holds, or why it holds none yet (the price, then the quantity). */
export function readTicket(draft: TicketDraft): TicketRead {
  let ticks: number | null = null
  if (draft.kind === 'limit') {
    const price = parsePriceInput(draft.price, draft.priceUnit)
    if (!price.ok) return { ok: false, error: invalid('price', price.message) }
    ticks = Math.round(price.price * 100)
  }
  const text = draft.quantity.trim()
  if (!/^\d+$/.test(text))
    return {
      ok: false,
      error: invalid(
        'quantity',
        text === '' ? 'Enter a quantity in contracts.' : `“${text}” is not a quantity: whole contracts only.`,
      ),
    }
  return {
    ok: true,
    shape: { side: draft.side, outcome: draft.outcome, kind: draft.kind, ticks, quantity: Number(text) },
  }
}

/** The schema's names for the ticket's fields. */
const FIELD_OF: Record<string, 'price' | 'quantity'> = { priceTicks: 'price', quantity: 'quantity' }

/**
 * The request one press sends: the ticket's order for `market`, with the profile and mode the window shows, a new
 * intent and the moment of the press. Refused here, with nothing sent, while trading is off or the ticket holds
 * no valid order.
 */
export function ticketRequest(
  draft: TicketDraft,
  market: string,
  trading: Pick<TradingView, 'profileId' | 'settings'>,
  intentId: string,
  clickedAt: number,
): Result<OrderRequest> {
  const mode = trading.settings.mode
  if (mode === 'off')
    return { ok: false, error: { code: 'off', message: 'Trading is off for this profile.' } }
  const read = readTicket(draft)
  if (!read.ok) return read
  const { shape } = read
  const request: OrderRequest = {
    intentId,
    profileId: trading.profileId,
    mode,
    market,
    side: shape.side,
    outcome: shape.outcome,
    kind: shape.kind,
    ...(shape.ticks !== null ? { priceTicks: shape.ticks } : {}),
    quantity: shape.quantity,
    clickedAt,
  }
  const checked = orderRequestSchema.safeParse(request)
  if (checked.success) return { ok: true, value: request }
  const issue = checked.error.issues[0]
  const field = FIELD_OF[String(issue?.path[0] ?? '')]
  const message = issue?.message ?? 'This order is not valid.'
  return {
    ok: false,
    error: field
      ? invalid(field, `${field === 'price' ? 'Price' : 'Quantity'}: ${message}.`)
      : { code: 'invalid_argument', message },
  }
}
