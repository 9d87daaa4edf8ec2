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

/**
 * `shown`: the code of the lasting state the ticket already says in its note (useBlock), if any. A refusal of that
 * very code (the venue's PO7 once the key is known to lack the permission, a cancel-all in progress) is then said
 * once, by the note; the refusal only says that this order met it.
 */
export function explainRefusal(error: ApiError, shown: string | null = null): Refusal {
  if (shown !== null && error.code === shown) {
    return {
      code: error.venueCode ?? error.code,
      sentence:
        error.venueCode !== undefined
          ? `The venue refused this order (${error.venueCode}), for the reason above.`
          : 'This order was not sent, for the reason above.',
      field: null,
      detail: null,
    }
  }
  // The engine words the venue's codes (orders/venue.ts, one place): its message is the sentence.
  const sentence = error.venueCode !== undefined ? error.message : appSentence(error)
  return {
    code: error.venueCode ?? error.code,
    sentence,
    field: fieldNamed(error.field),
    detail: sentence.includes(error.message) ? null : error.message,
  }
}

/** Why live orders cannot go now, in words: the app's sentence for a state it knows, else the engine's. */
export function explainBlock(block: TradingBlock): string {
  return LASTING[block.code] ?? block.message
}
