// The account (open orders, fills, positions, balances) derived from user-channel updates. The payloads are
// not specified, so each field is looked up under the names real venues use; an update that yields nothing
// usable is only counted, and still shows in the raw feed. Shared: windows build the account pane from it and
// the engine's alert rules read orders, positions and balances with the same rules.
import type { Outcome, Side, UserUpdateView } from './model'

export interface OrderRow {
  id: string
  market: string | null
  side: Side | null
  /** The order's own price (0–1), in its own outcome where the venue names one. */
  price: number | null
  size: number | null
  filled: number | null
  status: string | null
  updatedAt: number
  /** Which contract the order trades, where the venue says (VoxFi's YES/NO). */
  outcome?: Outcome
  /** When the venue says it was created (ms since epoch). */
  createdAt?: number
}

export interface FillRow {
  key: string
  orderId: string | null
  market: string | null
  side: Side | null
  price: number | null
  size: number | null
  ts: number
  /** Which contract of a binary market was filled, where the record says (VoxFi's YES/NO). */
  outcome?: Outcome
  /** The fee as the engine delivers it, in the account's money (VoxFi's centavos are already reais). */
  fee?: number
  /** A paper fill (docs/trading.md): never the venue's. */
  mode?: 'paper'
}

export interface PositionRow {
  market: string
  /**
   * Signed size in YES terms: NO contracts held are a short YES position, so every row marks to the YES book.
   * A venue that keeps YES and NO apart (VoxFi) has a row for each it holds (`outcome`, `contracts`).
   */
  size: number
  avgPrice: number | null
  /** What the venue calls the position's P&L or unrealised P&L, as it sent it (never computed here). */
  pnl: number | null
  /** Realised P&L as the venue sent it; null when it sends none. */
  realizedPnl: number | null
  updatedAt: number
  /** Which contract the row holds, where the venue says (VoxFi's contract_type). */
  outcome?: Outcome
  /** Contracts of that outcome held, as the venue said (positive). */
  contracts?: number
}

/** Positions are kept per market and, where the venue says it, per outcome: YES and NO of one market are two. */
export function positionKey(market: string, outcome: Outcome | undefined): string {
  return outcome === undefined ? market : `${market}\u0000${outcome}`
}

export interface BalanceRow {
  currency: string
  total: number | null
  available: number | null
  updatedAt: number
}

export interface AccountState {
  /** Open orders by id, in arrival order. */
  orders: Record<string, OrderRow>
  /** Newest first, capped. */
  fills: FillRow[]
  positions: Record<string, PositionRow>
  balances: Record<string, BalanceRow>
  /** Updates that carried no recognisable record. */
  undecoded: number
  lastUpdateAt: number | null
}

export const FILLS_CAP = 200
/** Closed orders are dropped; a bound on open ones keeps a runaway stream from growing memory. */
export const ORDERS_CAP = 500

export function emptyAccount(): AccountState {
  return { orders: {}, fills: [], positions: {}, balances: {}, undecoded: 0, lastUpdateAt: null }
}

export type Obj = Record<string, unknown>

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v)
    return Number.isFinite(n) ? n : null
  }
  return null
}

function str(v: unknown): string | null {
  if (typeof v === 'string' && v !== '') return v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return null
}

/** A list at the top, or under the names such lists go by; never more than `cap` items. */
export function listOf(body: unknown, names: readonly string[], cap = 500): Obj[] {
  let list: unknown = body
  if (isObj(body)) {
    list = undefined
    for (const n of [...names, 'data', 'items', 'results']) {
      const v = body[n]
      if (Array.isArray(v)) {
        list = v
        break
      }
      if (isObj(v)) {
        for (const inner of names) if (Array.isArray(v[inner])) list = v[inner]
        if (list !== undefined) break
      }
    }
  }
  return Array.isArray(list) ? list.filter(isObj).slice(0, cap) : []
}

/** The first of `names` that holds a finite number (or numeric text). */
export function pickNum(o: Obj, names: readonly string[]): number | null {
  for (const n of names) {
    const v = num(o[n])
    if (v !== null) return v
  }
  return null
}

/** The first of `names` that holds non-empty text or a finite number, as text. */
export function pickStr(o: Obj, names: readonly string[]): string | null {
  for (const n of names) {
    const v = str(o[n])
    if (v !== null) return v
  }
  return null
}

const ID_FIELDS = ['id', 'order_id', 'orderId', 'orderID', 'client_order_id', 'clientOrderId']
const MARKET_FIELDS = [
  'market',
  'market_id',
  'marketId',
  'asset_id',
  'ticker',
  'symbol',
  'product_id',
  'instrument',
]
const SIZE_FIELDS = ['size', 'quantity', 'qty', 'amount', 'original_size', 'count', 'shares']
const PRICE_FIELDS = ['price', 'limit_price', 'limitPrice', 'px', 'avg_price']

export function normaliseSide(v: unknown): Side | null {
  if (typeof v === 'boolean') return null
  const s = typeof v === 'string' ? v.trim().toLowerCase() : ''
  if (s === 'buy' || s === 'bid' || s === 'long' || s === 'b') return 'buy'
  if (s === 'sell' || s === 'ask' || s === 'short' || s === 's' || s === 'offer') return 'sell'
  return null
}

/** YES or NO, as venues write it (VoxFi's `contract_type`, in English or Portuguese); null for anything else. */
export function outcomeOf(v: unknown): Outcome | null {
  if (typeof v !== 'string') return null
  const s = v.trim().toLowerCase()
  if (s === 'yes' || s === 'sim') return 'yes'
  if (s === 'no' || s === 'não' || s === 'nao') return 'no'
  return null
}

/** ms since epoch from a number (s or ms) or an ISO string. */
export function normaliseTime(v: unknown): number | null {
  const n = num(v)
  if (n !== null) return n < 1e11 ? n * 1000 : n
  if (typeof v === 'string') {
    const t = Date.parse(v)
    return Number.isFinite(t) ? t : null
  }
  return null
}

/** The record(s) inside an update: `data`, `data.<topic>`, `data.data`, or arrays of them. */
function records(data: unknown, keys: readonly string[]): Obj[] {
  if (Array.isArray(data)) return data.filter(isObj)
  if (!isObj(data)) return []
  for (const k of keys) {
    const inner = data[k]
    if (Array.isArray(inner)) return inner.filter(isObj)
    if (isObj(inner)) return [inner]
  }
  return [data]
}

const CLOSED = new Set([
  'filled',
  'cancelled',
  'canceled',
  'rejected',
  'expired',
  'done',
  'closed',
  'matched',
  'killed',
])

export function isOpenOrder(o: OrderRow): boolean {
  if (o.status !== null) return !CLOSED.has(o.status)
  if (o.size !== null && o.filled !== null) return o.filled < o.size
  return true
}

/** An order record's id, under whichever name the venue uses; null when it has none. */
export function orderId(r: Obj): string | null {
  return pickStr(r, ID_FIELDS)
}

/** One order record as a row; fields the record lacks are taken from `prev` (the order's last known row). */
export function orderRow(r: Obj, u: UserUpdateView, prev: OrderRow | undefined): OrderRow | null {
  const id = orderId(r)
  if (id === null) return null
  const status = pickStr(r, ['status', 'state', 'order_status'])
  const row: OrderRow = {
    id,
    market: pickStr(r, MARKET_FIELDS) ?? u.market ?? prev?.market ?? null,
    side: normaliseSide(r.side ?? r.direction) ?? prev?.side ?? null,
    price: pickNum(r, PRICE_FIELDS) ?? prev?.price ?? null,
    size: pickNum(r, SIZE_FIELDS) ?? prev?.size ?? null,
    filled:
      pickNum(r, [
        'filled',
        'filled_size',
        'filledSize',
        'size_matched',
        'filled_quantity',
        'executed',
        'cum_qty',
      ]) ??
      prev?.filled ??
      null,
    status: status !== null ? status.toLowerCase() : (prev?.status ?? null),
    updatedAt: u.receivedAt,
  }
  const outcome = outcomeOf(r.outcome ?? r.contract_type) ?? prev?.outcome ?? null
  if (outcome !== null) row.outcome = outcome
  const created = normaliseTime(r.created_at ?? r.createdAt) ?? prev?.createdAt ?? null
  if (created !== null) row.createdAt = created
  return row
}

/** What one record changed in the account: what a reader of the one model (the alert rules) needs to judge news. */
export type AccountChange =
  | { kind: 'order'; before: OrderRow | undefined; after: OrderRow }
  | { kind: 'position'; before: PositionRow | undefined; after: PositionRow }
  | { kind: 'balance'; row: BalanceRow }
  | { kind: 'fill'; row: FillRow }

type Report = (change: AccountChange) => void

function applyOrder(state: AccountState, r: Obj, u: UserUpdateView, report?: Report): boolean {
  const id = orderId(r)
  if (id === null) return false
  const before = state.orders[id]
  const row = orderRow(r, u, before)
  if (row === null) return false
  report?.({ kind: 'order', before, after: row })
  const orders = { ...state.orders }
  if (isOpenOrder(row)) {
    orders[id] = row
    const ids = Object.keys(orders)
    for (let i = 0; i < ids.length - ORDERS_CAP; i++) delete orders[ids[i] as string]
  } else {
    delete orders[id]
  }
  state.orders = orders
  return true
}

function applyFill(state: AccountState, r: Obj, u: UserUpdateView, report?: Report): boolean {
  const price = pickNum(r, PRICE_FIELDS)
  const size = pickNum(r, SIZE_FIELDS)
  if (price === null && size === null) return false
  const id = pickStr(r, ['fill_id', 'fillId', 'trade_id', 'tradeId', 'execution_id', 'id'])
  const fill: FillRow = {
    key: id ?? `u${u.seq}-${state.fills.length}`,
    orderId: pickStr(r, ['order_id', 'orderId', 'orderID']),
    market: pickStr(r, MARKET_FIELDS) ?? u.market,
    side: normaliseSide(r.side ?? r.direction),
    price,
    size,
    ts: normaliseTime(r.ts ?? r.time ?? r.timestamp ?? r.created_at ?? r.createdAt) ?? u.receivedAt,
  }
  const outcome = outcomeOf(r.outcome ?? r.contract_type)
  if (outcome !== null) fill.outcome = outcome
  const fee = num(r.fee)
  if (fee !== null) fill.fee = fee
  if (id !== null && state.fills.some((f) => f.key === id)) return true
  state.fills = [fill, ...state.fills].slice(0, FILLS_CAP)
  report?.({ kind: 'fill', row: fill })
  return true
}

/** One position record as a row; a size of 0 means the position is closed. */
export function positionRow(r: Obj, u: UserUpdateView): PositionRow | null {
  const market = pickStr(r, MARKET_FIELDS) ?? u.market
  const raw = pickNum(r, ['size', 'quantity', 'qty', 'position', 'shares', 'amount', 'net', 'balance'])
  if (market === null || raw === null) return null
  // Some venues send an unsigned size plus a side.
  const size = normaliseSide(r.side) === 'sell' && raw > 0 ? -raw : raw
  const row: PositionRow = {
    market,
    size,
    avgPrice: pickNum(r, ['avg_price', 'avgPrice', 'average_price', 'entry_price', 'entryPrice', 'price']),
    pnl: pickNum(r, ['pnl', 'unrealized_pnl', 'unrealizedPnl', 'unrealised_pnl', 'unrealisedPnl', 'upnl']),
    realizedPnl: pickNum(r, ['realized_pnl', 'realizedPnl', 'realised_pnl', 'realisedPnl', 'rpnl']),
    updatedAt: u.receivedAt,
  }
  const outcome = outcomeOf(r.outcome ?? r.contract_type)
  if (outcome !== null) row.outcome = outcome
  const contracts = pickNum(r, ['contracts'])
  if (contracts !== null) row.contracts = contracts
  return row
}

function applyPosition(state: AccountState, r: Obj, u: UserUpdateView, report?: Report): boolean {
  const row = positionRow(r, u)
  if (row === null) return false
  const positions = { ...state.positions }
  const key = positionKey(row.market, row.outcome)
  report?.({ kind: 'position', before: positions[key], after: row })
  if (row.size === 0) delete positions[key]
  else positions[key] = row
  state.positions = positions
  return true
}

export function balanceRow(r: Obj, u: UserUpdateView): BalanceRow | null {
  const total = pickNum(r, ['balance', 'total', 'equity', 'amount', 'value', 'cash_balance'])
  const available = pickNum(r, [
    'available',
    'free',
    'available_balance',
    'availableBalance',
    'cash',
    'withdrawable',
  ])
  if (total === null && available === null) return null
  const currency = pickStr(r, ['currency', 'asset', 'ccy', 'coin', 'denomination']) ?? 'USD'
  return { currency, total, available, updatedAt: u.receivedAt }
}

function applyBalance(state: AccountState, r: Obj, u: UserUpdateView, report?: Report): boolean {
  const row = balanceRow(r, u)
  if (row === null) return false
  report?.({ kind: 'balance', row })
  state.balances = { ...state.balances, [row.currency]: row }
  return true
}

const APPLY: Record<
  Exclude<UserUpdateView['topic'], 'other'>,
  {
    keys: readonly string[]
    apply: (s: AccountState, r: Obj, u: UserUpdateView, report?: Report) => boolean
  }
> = {
  order: { keys: ['order', 'orders', 'data'], apply: applyOrder },
  fill: { keys: ['fill', 'fills', 'trade', 'trades', 'data'], apply: applyFill },
  position: { keys: ['position', 'positions', 'data'], apply: applyPosition },
  balance: { keys: ['balance', 'balances', 'wallet', 'data'], apply: applyBalance },
}

/** The records one update carries (for its topic: `data`, `data.<topic>`, `data.data`, or lists of them). */
export function userRecords(u: UserUpdateView): Obj[] {
  if (u.topic === 'other') return []
  return records(u.data, APPLY[u.topic].keys)
}

/**
 * Apply updates to an account and return the new state; unchanged parts keep their identity. `report` hears each
 * record's change, in order (the engine's one account tells the alert rules with it).
 */
export function applyUserUpdates(
  prev: AccountState,
  updates: readonly UserUpdateView[],
  report?: (change: AccountChange) => void,
): AccountState {
  if (updates.length === 0) return prev
  const state: AccountState = { ...prev }
  for (const u of updates) {
    state.lastUpdateAt = u.receivedAt
    if (u.topic === 'other') {
      state.undecoded += 1
      continue
    }
    const { keys, apply } = APPLY[u.topic]
    const rs = records(u.data, keys)
    let used = false
    for (const r of rs) used = apply(state, r, u, report) || used
    if (!used) state.undecoded += 1
  }
  return state
}

export function deriveAccount(updates: readonly UserUpdateView[]): AccountState {
  return applyUserUpdates(emptyAccount(), updates)
}
