// An order, cancel or merge the engine or the venue refused, in words at the ticket: what happened, what to do,
// and the field at fault where there is one (docs/trading.md, "Errors in plain words"). What was typed stays.
import type { ApiError } from '../../../shared/model'
import type { TradingBlock } from '../../../shared/trading'

/** A ticket field a refusal can name. */
export type TicketField = 'price' | 'quantity'

export interface Refusal {
  /** What `order-error` carries as data-code: the venue's own code (PO3 …) or the app's (too_large …). */
  code: string
  /** What happened and what to do. */
  sentence: string
  field: TicketField | null
  /** The engine's own words, where they say more than the sentence. */
  detail: string | null
}

const KEY_STEPS =
  'create a key with that permission on VoxFi under Profile → Security and store it in Key settings'

/** What the lasting states say (a refusal of that code, or the ticket blocked by it): one sentence for both. */
const LASTING: Partial<Record<TradingBlock['code'], string>> = {
  permission: `This key cannot create orders (or cancel them): ${KEY_STEPS}.`,
  trading_disabled:
    'This host may not send live orders to this venue: start the browser host with --allow-trading to trade here (paper orders go regardless).',
  no_key: 'No API key is stored for this profile: add one in Key settings to trade live (paper needs none).',
}

/** The venue's order errors (VoxFi's PO1–PO8 and -1, en/api/errors). */
const VENUE: Record<string, { sentence: string; field?: TicketField }> = {
  PO1: {
    sentence:
      'The venue refused the price (PO1): a limit price is a whole cent from 1¢ to 99¢. Correct it and send again.',
    field: 'price',
  },
  PO2: {
    sentence: 'The venue refused the quantity (PO2): whole contracts, at least 1. Correct it and send again.',
    field: 'quantity',
  },
  PO3: {
    sentence:
      'Insufficient balance (PO3): the wallet cannot pay for this order and its fee. Lower the quantity or the price, or add funds on VoxFi.',
  },
  PO4: {
    sentence:
      'Not enough contracts to sell (PO4): you hold fewer of this outcome than the quantity. Sell at most what Positions shows.',
    field: 'quantity',
  },
  PO5: {
    sentence:
      'Not enough liquidity (PO5): the book cannot fill this market order. Use a limit order or a smaller quantity.',
  },
  PO6: { sentence: 'Order not found (PO6): the venue no longer has it; it was filled or cancelled already.' },
  PO7: { sentence: `Not authorised (PO7): this key cannot create or cancel orders; ${KEY_STEPS}.` },
  PO8: { sentence: 'Market closed (PO8): this market takes no orders now.' },
  '-1': {
    sentence:
      'The venue failed unexpectedly (-1). Check the open orders before sending again: nothing is ever resent by itself.',
  },
}

function fieldNamed(field: string | undefined): TicketField | null {
  if (field === 'priceTicks' || field === 'price') return 'price'
  if (field === 'quantity') return 'quantity'
  return null
}

function waitText(ms: number | undefined): string {
  return ms === undefined ? 'a moment' : `${Math.max(1, Math.ceil(ms / 1000))} s`
}

function appSentence(error: ApiError): string {
  switch (error.code) {
    case 'permission':
    case 'trading_disabled':
    case 'no_key':
      return `${LASTING[error.code]}`
    case 'rate_limited':
      return `Too many requests: the venue asks to wait ${waitText(error.retryAfterMs)}. Send again after that.`
    case 'too_large':
      return `${error.message} Change the limit under Limits in this ticket.`
    case 'too_many_orders':
      return `${error.message} Cancel some open orders, or raise the limit under Limits in this ticket.`
    case 'off':
      return 'Trading is off for this profile: choose Paper or Live in the status bar.'
    case 'mode_changed':
      return 'The trading mode or profile changed in another window, so nothing was sent. Check the mode and send again.'
    case 'market_closed':
      return 'Market closed: this market takes no orders now.'
    case 'busy':
      return 'A cancel-all is in progress: new orders wait until it ends.'
    case 'network':
    case 'timeout':
      return 'The venue could not be reached. Nothing is ever resent by itself: check the connection and the open orders before sending again.'
    case 'unavailable':
      return `Trading is not available here: ${error.message}`
    default:
      return error.message
  }
}

export function explainRefusal(error: ApiError): Refusal {
  const venue = error.venueCode === undefined ? undefined : VENUE[error.venueCode]
  const code = error.venueCode ?? error.code
  const sentence = venue
    ? venue.sentence
    : error.venueCode !== undefined
      ? `The venue refused it (code ${error.venueCode}): ${error.message}`
      : appSentence(error)
  return {
    code,
    sentence,
    field: venue?.field ?? fieldNamed(error.field),
    detail: sentence.includes(error.message) ? null : error.message,
  }
}

/** Why live orders cannot go now, in words: the app's sentence for a state it knows, else the engine's. */
export function explainBlock(block: TradingBlock): string {
  return LASTING[block.code] ?? block.message
}
