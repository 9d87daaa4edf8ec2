// Server frame -> Update[] (DESIGN §3.2). Tolerant by contract: any JSON value decodes to at least one
// Update, anything unclassifiable becomes `unknown`, nothing throws. Our simulator's shapes are checked
// first and cheaply because this runs for every frame in the engine.
import type { ControlTopic, Level, Update, UserTopic } from '../model'
import { tryBook } from './book'
import { limitUpdates } from './limits'
import { ROOT_CTX, type Ctx } from './context'
import { readHints, userTopicOf, type DataCategory } from './hints'
import { keyList, keysOf, shapeOf, type Shape } from './shape'
import { tryTicker } from './ticker'
import { tryTrade } from './trade'
import { flag, has, idString, isObj, marketOf, num, pick, tsMs, tsOf, validPairs, type Obj } from './values'

export type DecodeResult = { ok: true; updates: Update[]; unknown: boolean } | { ok: false; error: string }

const MAX_DEPTH = 8

/** Decode one WebSocket text frame. `ok: false` only when the text is not JSON. */
export function decodeFrame(text: string): DecodeResult {
  if (typeof text !== 'string') return { ok: false, error: 'frame is not text' }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    // Polymarket and others answer keep-alives with bare PING/PONG text.
    const t = text.trim().toLowerCase()
    if (t === 'ping' || t === 'pong') {
      return {
        ok: true,
        updates: [{ kind: 'control', topic: 'heartbeat', data: text.trim() }],
        unknown: false,
      }
    }
    const reason = e instanceof Error ? e.message.replace(/\s+/g, ' ').slice(0, 200) : 'parse error'
    return { ok: false, error: `invalid JSON: ${reason}` }
  }
  const updates = decodeValue(value)
  let unknown = false
  for (const u of updates) if (u.kind === 'unknown') unknown = true
  return { ok: true, updates, unknown }
}

/**
 * Decode an already-parsed JSON value. Always returns at least one Update. The raw JSON an update keeps (account
 * data, control messages, unread values) is within shared/json-limits.ts's limits: a 10,000-deep `data` is
 * trimmed here, where it arrives, never found unserialisable in a window's batch later.
 */
export function decodeValue(value: unknown): Update[] {
  const out: Update[] = []
  try {
    decodeAny(value, ROOT_CTX, out)
  } catch {
    // Not reachable for JSON values; a hostile object (throwing getter, proxy) must not take the engine down.
    return limitUpdates([{ kind: 'unknown', raw: value }])
  }
  if (out.length === 0) out.push({ kind: 'unknown', raw: value })
  return limitUpdates(out)
}

function decodeAny(v: unknown, ctx: Ctx, out: Update[]): void {
  if (ctx.depth > MAX_DEPTH) {
    out.push({ kind: 'unknown', raw: v })
    return
  }
  if (Array.isArray(v)) {
    if (v.length === 0 && ctx.depth === 0) return
    const child = { ...ctx, depth: ctx.depth + 1 }
    for (const item of v) {
      if (isObj(item)) decodeObject(item, child, out)
      else out.push({ kind: 'unknown', raw: item })
    }
    return
  }
  if (isObj(v)) {
    decodeObject(v, ctx, out)
    return
  }
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase()
    if (t === 'ping' || t === 'pong' || t === 'heartbeat') {
      out.push({ kind: 'control', topic: 'heartbeat', data: v })
      return
    }
  }
  out.push({ kind: 'unknown', raw: v })
}

// ---------------------------------------------------------------- simulator fast path

function fastLevels(list: unknown[]): Level[] | null {
  // Validated [number, number] pairs: reuse them rather than copy.
  return validPairs(list, false) ? list : null
}

/** The simulator's own market-data frames, or null to take the general path. */
function fastSim(o: Obj): Update | null {
  const type = o['type']
  const market = o['market']
  // Each of the simulator's market-data frames names its one market.
  if (typeof market !== 'string' || market.length === 0) return null
  if (type === 'orderbook') {
    const snapshot = o['snapshot']
    const b = o['bids']
    const a = o['asks']
    if (typeof snapshot !== 'boolean' || !Array.isArray(b) || !Array.isArray(a)) return null
    const bids = fastLevels(b)
    const asks = bids && fastLevels(a)
    if (!bids || !asks) return null
    const u: Update = { kind: 'book', market, snapshot, bids, asks }
    const seq = o['seq']
    if (typeof seq === 'number' && Number.isFinite(seq)) u.seq = seq
    return u
  }
  if (type === 'trade' && o['channel'] !== 'user') {
    const price = o['price']
    const size = o['size']
    const side = o['side']
    if (
      typeof price !== 'number' ||
      typeof size !== 'number' ||
      (side !== 'buy' && side !== 'sell') ||
      !Number.isFinite(price) ||
      !(size >= 0) ||
      size === Infinity
    ) {
      return null
    }
    const u: Update = { kind: 'trade', market, price, size, side, ts: tsMs(o['ts']) }
    const id = idString(o['id'])
    if (id !== undefined) u.id = id
    return u
  }
  return null
}

// ---------------------------------------------------------------- general path

const CONTAINER_KEYS = ['data', 'msg', 'params', 'payload', 'result', 'events'] as const
const TRADE_LISTS = ['trades', 'fills'] as const
const TICKER_LISTS = ['tickers'] as const
const SNAPSHOT_LIST = keyList(['snapshot', 'is_snapshot', 'isSnapshot'])
const ACCOUNT_LIST = keyList(['user_id', 'userId'])

const isUserWord = (w: string): boolean => w.startsWith('user')
/** Coinbase's `match`: the trade's side is the maker's. */
const isMatchWord = (w: string): boolean => w === 'match' || w === 'last_match'

function decodeObject(o: Obj, ctx: Ctx, out: Update[]): void {
  const fast = fastSim(o)
  if (fast !== null) {
    out.push(fast)
    return
  }
  // Null for a shape too large to keep: then every list is probed whole.
  const shape = shapeOf(o)
  const hints = readHints(o, shape)

  const control = controlTopic(o, hints.control, hints.category)
  if (control !== null) {
    out.push(controlUpdate(o, control))
    return
  }
  if (
    hints.category === 'user' ||
    hints.words.some(isUserWord) ||
    (hints.category === 'trade' && isPolymarketUserTrade(o)) ||
    namesAnAccount(o, shape)
  ) {
    out.push(userUpdate(o, hints.words))
    return
  }

  const own: DataCategory | null =
    hints.category === 'book' || hints.category === 'trade' || hints.category === 'ticker'
      ? hints.category
      : null
  const category = own ?? ctx.category
  const seq = num(o['seq'])
  const c: Ctx = {
    // OKX names the instrument only in the subscription echo: {arg:{channel, instId}, data:[...]}.
    market: marketOf(o, shape) ?? (isObj(o['arg']) ? marketOf(o['arg']) : undefined) ?? ctx.market,
    category,
    snapshot:
      flag(pick(o, keysOf(shape, SNAPSHOT_LIST))) ?? hints.snapshot ?? snapshotByShape(o) ?? ctx.snapshot,
    seq: seq !== undefined && Number.isFinite(seq) ? seq : ctx.seq,
    ts: tsOf(o, shape) ?? ctx.ts,
    makerSide: ctx.makerSide || hints.words.some(isMatchWord),
    depth: ctx.depth + 1,
  }

  if ((category === null || category === 'book') && tryBook(o, c, category === 'book', out, shape)) return
  if ((category === null || category === 'trade') && tryTrade(o, c, category === 'trade', out, shape)) return
  if ((category === null || category === 'ticker') && tryTicker(o, c, category === 'ticker', out)) return

  let found = false
  for (const k of TRADE_LISTS) found = container(o, k, { ...c, category: 'trade' }, out) || found
  for (const k of TICKER_LISTS) found = container(o, k, { ...c, category: 'ticker' }, out) || found
  if (found) return
  for (const k of CONTAINER_KEYS) if (container(o, k, c, out)) return

  out.push({ kind: 'unknown', raw: o })
}

/** Decodes `o[key]` when it is an object or array; empty arrays count as found (nothing to report). */
function container(o: Obj, key: string, ctx: Ctx, out: Update[]): boolean {
  if (!has(o, key)) return false
  const v = o[key]
  if (Array.isArray(v)) {
    const before = out.length
    decodeAny(v, ctx, out)
    // An empty list decodes to nothing; keep the message visible rather than silently dropping it.
    if (out.length === before && v.length === 0) out.push({ kind: 'unknown', raw: o })
    return true
  }
  if (isObj(v)) {
    decodeAny(v, ctx, out)
    return true
  }
  return false
}

/** Binance partial depth `{lastUpdateId, bids, asks}` carries no type but is a full book. */
function snapshotByShape(o: Obj): boolean | undefined {
  return has(o, 'lastUpdateId') && !has(o, 'e') ? true : undefined
}

// ---------------------------------------------------------------- control and user messages

function controlTopic(o: Obj, hinted: ControlTopic | null, category: string | null): ControlTopic | null {
  if (o['success'] === false) return 'error'
  if (hinted !== null) return hinted
  if (category !== null) return null
  if (has(o, 'error') && o['error'] !== null && o['error'] !== '' && o['error'] !== false) return 'error'
  // Huobi-style {"ping": 123} / {"pong": 123}.
  if ((has(o, 'ping') || has(o, 'pong')) && Object.keys(o).length <= 2) return 'heartbeat'
  // JSON-RPC response to our own request (Binance {result:null,id:1}, Deribit subscribe result).
  if (has(o, 'id') && has(o, 'result') && !has(o, 'method') && !has(o, 'params')) return 'other'
  return null
}

function controlUpdate(o: Obj, topic: ControlTopic): Update {
  const u: Update = { kind: 'control', topic, data: o }
  if (topic === 'error') u.error = errorCode(o)
  return u
}

/** The machine-readable error code: `error` when it is a string (our server), else `code`, else a message. */
function errorCode(o: Obj): string {
  const e = o['error']
  if (typeof e === 'string' && e.length > 0) return e
  for (const src of [e, o, o['msg'], o['data']]) {
    if (!isObj(src)) continue
    const code = pick(src, ['code', 'error_code', 'errorCode', 'ret_code', 'retCode'])
    if (typeof code === 'string' && code.length > 0) return code
    if (typeof code === 'number' && Number.isFinite(code)) return String(code)
    const msg = pick(src, ['message', 'msg', 'ret_msg', 'reason'])
    if (typeof msg === 'string' && msg.length > 0) return msg
  }
  return 'error'
}

/** Polymarket's user channel reports the account's own trades as `event_type: "trade"` with order details. */
function isPolymarketUserTrade(o: Obj): boolean {
  // Not `taker_order_id`: Coinbase's public `match` carries that too.
  return Array.isArray(o['maker_orders']) || has(o, 'trade_owner') || has(o, 'owner')
}

/**
 * A record that names the account it belongs to (VoxFi's user channel sends `user_id` with an execution's `side`,
 * `price` and `quantity`, and no word saying what it is): the account's own data, never a public trade. Public
 * frames name their traders under other keys (`taker_id`, `maker_id`), one level down.
 */
function namesAnAccount(o: Obj, shape: Shape | null): boolean {
  return idString(pick(o, keysOf(shape, ACCOUNT_LIST))) !== undefined
}

function userUpdate(o: Obj, words: string[]): Update {
  let topic: UserTopic = 'other'
  for (const w of words) {
    const t = userTopicOf(w)
    if (t !== null) {
      topic = t
      break
    }
  }
  if (topic === 'other' && isPolymarketUserTrade(o)) topic = 'fill'
  let market = marketOf(o)
  if (market === undefined) {
    for (const k of ['msg', 'data', 'order', 'fill', 'position'] as const) {
      const inner = o[k]
      if (isObj(inner)) market = marketOf(inner)
      if (market !== undefined) break
    }
  }
  return { kind: 'user', topic, market: market ?? null, data: o }
}
