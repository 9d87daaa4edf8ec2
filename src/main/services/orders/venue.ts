// VoxFi's trading API as the app speaks it (docs.voxfi.com.br/playground/trade/place-order, /en/api/orders,
// /en/api/errors): the paths, the bodies, the two documented answers to Place Order, and every refusal in words a
// trader can act on. Cancel and merge are named in the docs without their paths: ours are a choice, written here
// once and in docs/voxfi.md §8.
import type { ApiError } from '../../../shared/model'
import type { OrderKind, OrderOutcome, OrderSide } from '../../../shared/trading'

/** Where each trading call goes, below the REST base URL (`…/v1`). */
export const TRADE_PATHS = {
  /** Documented: POST /v1/trade/order. */
  place: { method: 'POST', path: '/trade/order' },
  /** A choice (the docs name "Cancel Order" without its path). */
  cancel: { method: 'DELETE', path: (venueId: string) => `/trade/order/${encodeURIComponent(venueId)}` },
  /** A choice (the docs name "Merge Contracts" and its fields without its path). */
  merge: { method: 'POST', path: '/trade/merge' },
} as const

/** How each path reads in a message ("the venue refused cancel at DELETE /v1/trade/order/{id}"). */
export const TRADE_PATH_LABELS = {
  place: 'POST /v1/trade/order',
  cancel: 'DELETE /v1/trade/order/{id}',
  merge: 'POST /v1/trade/merge',
} as const

export type TradeCall = keyof typeof TRADE_PATHS

export interface PlaceParams {
  eventId: string | null
  market: string
  side: OrderSide
  outcome: OrderOutcome
  kind: OrderKind
  priceTicks: number | null
  quantity: number
}

/**
 * The documented body. A market buy is MARKET_BUY_QTY (the ticket asks for contracts, never a sum); a market sell
 * is MARKET_SELL. `event_id` goes when the listing names the market's event (one version of the page requires it).
 */
export function placeBody(p: PlaceParams): Record<string, unknown> {
  const orderType =
    p.kind === 'limit'
      ? p.side === 'buy'
        ? 'LIMIT_BUY'
        : 'LIMIT_SELL'
      : p.side === 'buy'
        ? 'MARKET_BUY_QTY'
        : 'MARKET_SELL'
  return {
    ...(p.eventId !== null ? { event_id: p.eventId } : {}),
    market_id: p.market,
    order_type: orderType,
    outcome: p.outcome,
    ...(p.kind === 'limit' && p.priceTicks !== null ? { price_ticks: p.priceTicks } : {}),
    quantity: p.quantity,
  }
}

export function mergeBody(market: string, quantity: number): Record<string, unknown> {
  return { market_id: market, quantity }
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  return Number.isFinite(n) ? n : null
}
const text = (v: unknown, max = 200): string | null =>
  typeof v === 'string' && v !== ''
    ? v.slice(0, max)
    : typeof v === 'number' && Number.isFinite(v)
      ? String(v)
      : null

/** What an accepted Place Order said, in either documented shape. */
export interface PlaceOutcome {
  /** The venue's id of the order while some of it rests (shape a's `resting_order_id`, shape b's `order_id`). */
  venueId: string | null
  /** Contracts executed on arrival. */
  filled: number
  /** Volume-weighted price of those executions, in ticks; null when none or unknown. */
  avgTicks: number | null
  /** Whether anything rests in the book. */
  rests: boolean
  /** The venue said it failed (`success: false`, or shape b's FAILED). */
  failed: boolean
  message: string | null
}

/**
 * Reads a 2xx answer to Place Order. Shape (a): `{success, message, resting_order_id, spent, received, trades[]}`;
 * shape (b): `{success, message, order_id, order_status, timestamp, wanted, filled, filled_amount, remaining}`. A
 * body in neither shape is null: the order's fate is then unknown and is reconciled, never assumed.
 */
export function readPlaceAnswer(body: unknown, quantity: number): PlaceOutcome | null {
  if (!isObj(body)) return null
  const message = text(body.message)
  const success = body.success
  if ('order_status' in body || 'order_id' in body) {
    const status = text(body.order_status)?.toUpperCase() ?? null
    const filled = num(body.filled) ?? 0
    const amount = num(body.filled_amount)
    const remaining = num(body.remaining)
    const failed = success === false || status === 'FAILED'
    const rests = !failed && (status === 'PLACED' || status === 'PARTIALLY_FILLED') && (remaining ?? 1) > 0
    return {
      venueId: text(body.order_id, 100),
      filled,
      avgTicks: filled > 0 && amount !== null ? amount / filled : null,
      rests,
      failed,
      message,
    }
  }
  if (!('success' in body) && !('trades' in body) && !('resting_order_id' in body)) return null
  let filled = 0
  let value = 0
  if (Array.isArray(body.trades)) {
    for (const t of body.trades) {
      if (!isObj(t)) continue
      const q = num(t.quantity)
      const p = num(t.price_ticks)
      if (q === null || q <= 0) continue
      filled += q
      if (p !== null) value += p * q
    }
  }
  const resting = text(body.resting_order_id, 100)
  return {
    venueId: resting,
    filled: Math.min(filled, quantity),
    avgTicks: filled > 0 && value > 0 ? value / filled : null,
    rests: resting !== null,
    failed: success === false,
    message,
  }
}

/** The words for each of VoxFi's order codes: what happened, and what to do, with the field to fix. */
const PO: Record<string, { message: string; field?: string; code?: ApiError['code'] }> = {
  PO1: {
    message: 'The venue refused the price (PO1, invalid price): a limit price is 1–99¢. Correct the price.',
    field: 'price',
  },
  PO2: {
    message: 'The venue refused the quantity (PO2, invalid quantity): enter a whole number of contracts.',
    field: 'quantity',
  },
  PO3: {
    message:
      'Not enough balance for this order (PO3, insufficient balance): lower the quantity or the price, or add ' +
      'funds on VoxFi.',
    field: 'quantity',
  },
  PO4: {
    message:
      'Not enough contracts to sell (PO4): you hold fewer of this outcome than the order sells, or some are ' +
      'already offered in other orders. Lower the quantity.',
    field: 'quantity',
  },
  PO5: {
    message:
      'Not enough liquidity for this market order (PO5): nothing to trade against now. Use a limit order, or a ' +
      'smaller quantity.',
    field: 'kind',
  },
  PO6: {
    message: 'The venue has no such open order (PO6): it filled or was cancelled already.',
  },
  PO7: {
    message:
      'This key cannot create or cancel orders (PO7, not authorized): create a key with the "create orders" and ' +
      '"cancel orders" permissions on VoxFi under Profile → Security, and enter it here.',
    code: 'permission',
  },
  PO8: {
    message: 'The market is closed (PO8): it takes no orders now.',
    code: 'market_closed',
  },
  '-1': {
    message:
      'The venue had an unexpected error (-1). Check your open orders before trying again: the order may or ' +
      'may not have been placed.',
  },
}

/** The lasting key state a refused trading call leaves, in the words the ticket shows. */
export function permissionMessage(call: TradeCall): string {
  const what = call === 'cancel' ? 'cancel orders' : 'create orders'
  return (
    `This key cannot ${what}: create a key with that permission on VoxFi under Profile → Security, and ` +
    'enter it here. Market data and account reads carry on.'
  )
}

export function pathRefusedMessage(call: TradeCall, status: number): string {
  return (
    `The venue refused ${call} at ${TRADE_PATH_LABELS[call]} (HTTP ${status}): its docs do not give that path, ` +
    'and this venue does not have it. Use VoxFi’s site for this until the app is updated.'
  )
}

/**
 * A non-2xx answer to a trading call as the error the ticket shows. `path_refused` (404/405 with no order code)
 * and `permission` are lasting states the caller keeps.
 */
export function tradeError(call: TradeCall, status: number, body: unknown, retryAfterMs?: number): ApiError {
  const code = isObj(body) ? text(body.error_code, 16) : null
  const word = isObj(body) ? (text(body.error)?.trim().toLowerCase() ?? null) : null
  if (code !== null && PO[code] !== undefined) {
    const po = PO[code]
    const message = code === 'PO7' ? permissionMessage(call) : po.message
    return {
      code: po.code ?? 'venue_refused',
      message,
      venueCode: code,
      status,
      ...(po.field !== undefined ? { field: po.field } : {}),
    }
  }
  if (status === 401) {
    return {
      code: 'unauthorized',
      status,
      message:
        'The venue refused the API key (unauthorized): it is wrong, expired, disabled or revoked. Check it under ' +
        'Profile → Security on VoxFi.',
    }
  }
  if (status === 403 && word === 'ip not allowed') {
    return {
      code: 'ip_not_allowed',
      status,
      message:
        "This machine's IP address is not in the key's allowed IPs: create a key whose allowed IPs include it.",
    }
  }
  if (status === 403) return { code: 'permission', status, message: permissionMessage(call) }
  if (status === 406) return { code: 'market_closed', status, message: PO.PO8?.message ?? 'Market closed.' }
  if (status === 429) {
    const wait = retryAfterMs ?? 0
    return {
      code: 'rate_limited',
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      message: `The venue's rate limit was reached: wait ${Math.max(1, Math.ceil(wait / 1000))} s and send again. Nothing was sent twice.`,
    }
  }
  if ((status === 404 || status === 405) && call !== 'place') {
    return { code: 'path_refused', status, message: pathRefusedMessage(call, status) }
  }
  if (status >= 500) {
    return {
      code: 'server',
      status,
      message:
        `The venue had a server error (HTTP ${status}). Check your open orders before trying again: the ` +
        `${call === 'place' ? 'order' : call} may or may not have gone through.`,
    }
  }
  return {
    code: 'venue_refused',
    status,
    message: `The venue refused the ${call === 'place' ? 'order' : call} (HTTP ${status}${word ? `: ${word.slice(0, 120)}` : ''}).`,
  }
}
