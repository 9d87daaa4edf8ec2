// What a message says it is. Venues name the message kind under many keys (`type`, `event_type`, `e`,
// `channel`, `topic`, `op`, `action`, `method`, ...); this reads them all and maps their words to a category
// and a snapshot/delta flag. Structure is judged elsewhere: a hint only steers which shape is tried.
import type { ControlTopic, UserTopic } from '../model'
import { keyList, keysOf, memoSlot, type Shape } from './shape'
import { has, isObj, type Obj } from './values'

export type DataCategory = 'book' | 'trade' | 'ticker'
export type Category = DataCategory | 'user' | 'control'

export interface Hints {
  /** Lower-cased hint words in priority order. */
  words: string[]
  category: Category | null
  control: ControlTopic | null
  /** true for snapshot words, false for delta words, undefined when none. */
  snapshot: boolean | undefined
}

const HINT_KEYS = [
  'type',
  'event_type',
  'eventType',
  'e',
  'msg_type',
  'msgType',
  'op',
  'action',
  'method',
  'channel',
  'topic',
  'stream',
  'ch',
] as const

// Our simulator (and others) put an event *id* under `event`; OKX and Bitstamp put the message kind there.
// Only words that cannot plausibly be an id are taken from it.
const EVENT_WORDS = new Set([
  'trade',
  'trades',
  'book',
  'orderbook',
  'data',
  'subscribe',
  'subscribed',
  'unsubscribe',
  'unsubscribed',
  'error',
  'ping',
  'pong',
  'heartbeat',
  'info',
  'update',
  'snapshot',
  'ticker',
  'login',
])

const CONTROL_OTHER = new Set([
  'info',
  'status',
  'systemstatus',
  'welcome',
  'connected',
  'connection',
  'login',
  'auth',
  'authenticated',
  'ok',
  'ack',
])

/** What one hint word says: read once per distinct word (a feed repeats a handful), see `wordHints`. */
export interface WordHints {
  control: ControlTopic | null
  category: Category | null
  snapshot: boolean | undefined
}

/**
 * Words already classified. A hint word is at most 200 characters; the table stops growing at MAX_WORDS, so a
 * feed that sends ever new words costs memory once and is then classified word by word, as before.
 */
const wordTable = new Map<string, WordHints>()
export const MAX_WORDS = 1024

/** What a lower-cased hint word says, read afresh. */
export function classifyWord(w: string): WordHints {
  const control = controlOf(w)
  return { control, category: control !== null ? 'control' : categoryOf(w), snapshot: snapshotOf(w) }
}

/** What a lower-cased hint word says, from the table when it was read before. */
export function wordHints(w: string): WordHints {
  let h = wordTable.get(w)
  if (h !== undefined) return h
  h = classifyWord(w)
  if (wordTable.size < MAX_WORDS) wordTable.set(w, h)
  return h
}

const HINT_LIST = keyList(HINT_KEYS)
const INNER_CHANNEL_LIST = keyList(['arg', 'params'])

// What a shape's last few messages said, by the values they said it with. A feed sends the same few words under
// the same keys again and again (`type: "orderbook_delta"`, `channel: "market"`), and a message's hints are read
// from nothing else than the values under the hint keys and `event` (the shape decides which it has), unless it
// nests a channel (`arg`, `params`): then it is read afresh. Values are compared with ===, so a reading is reused
// only for the very same strings; only strings a hint word can be made of are kept (shorter than 200), so a
// frame's huge value is never held.
const MEMO_LIST = keyList([...HINT_KEYS, 'event'])
const MEMO_SLOT = memoSlot()
/** Readings kept per shape (a feed's few message kinds of one shape); then the oldest is replaced. */
export const READINGS_PER_SHAPE = 4
const MAX_WORD = 200

interface Reading {
  /** The values under the shape's MEMO_LIST keys, in order. */
  values: unknown[]
  /** Shared by every message it is reused for: read-only. */
  hints: Hints
}

interface Readings {
  list: Reading[]
  /** The slot the next new reading takes once the list is full. */
  next: number
}

/** What `o` says it is; `shape` (shape.ts), when given, is o's. The result is read-only (it may be shared). */
export function readHints(o: Obj, shape: Shape | null = null): Hints {
  if (shape === null || keysOf(shape, INNER_CHANNEL_LIST).length > 0) return readAfresh(o, shape)
  const keys = keysOf(shape, MEMO_LIST)
  let readings = shape.memo(MEMO_SLOT) as Readings | undefined
  if (readings !== undefined) {
    for (const r of readings.list) if (sameValues(o, keys, r.values)) return r.hints
  }
  const hints = readAfresh(o, shape)
  const values: unknown[] = []
  for (const k of keys) {
    const v = o[k]
    if (typeof v === 'string' && v.length >= MAX_WORD) return hints
    values.push(v)
  }
  if (readings === undefined) {
    readings = { list: [], next: 0 }
    shape.setMemo(MEMO_SLOT, readings)
  }
  if (readings.list.length < READINGS_PER_SHAPE) readings.list.push({ values, hints })
  else {
    readings.list[readings.next] = { values, hints }
    readings.next = (readings.next + 1) % READINGS_PER_SHAPE
  }
  return hints
}

/** How many readings `shape` keeps (tests: a frame's huge value is never kept, and no shape keeps more than four). */
export function keptReadings(shape: Shape): number {
  return (shape.memo(MEMO_SLOT) as Readings | undefined)?.list.length ?? 0
}

/** Whether `o`'s values under `keys` are those of a reading (the keys are o's own: `keys` is narrowed to its shape). */
function sameValues(o: Obj, keys: readonly string[], values: readonly unknown[]): boolean {
  for (let i = 0; i < keys.length; i++) if (o[keys[i] as string] !== values[i]) return false
  return true
}

function readAfresh(o: Obj, shape: Shape | null): Hints {
  const words: string[] = []
  for (const k of keysOf(shape, HINT_LIST)) {
    if (!has(o, k)) continue
    const v = o[k]
    if (typeof v === 'string' && v.length > 0 && v.length < 200) words.push(v.toLowerCase())
  }
  if (has(o, 'event')) {
    const v = o['event']
    if (typeof v === 'string') {
      const w = v.toLowerCase()
      if (EVENT_WORDS.has(w) || w.includes(':')) words.push(w)
    }
  }
  // OKX: {arg:{channel:"books"}}; Deribit: {params:{channel:"book.X.100ms"}}.
  for (const k of keysOf(shape, INNER_CHANNEL_LIST)) {
    if (!has(o, k)) continue
    const inner = o[k]
    if (isObj(inner) && typeof inner['channel'] === 'string') words.push(inner['channel'].toLowerCase())
  }
  let category: Category | null = null
  let control: ControlTopic | null = null
  let snapshot: boolean | undefined
  for (const w of words) {
    // The first word that names a category (or a control topic) and the first that says snapshot or delta
    // decide; once both are known the rest change nothing.
    if (category !== null && snapshot !== undefined) break
    const h = wordHints(w)
    if (category === null) {
      category = h.category
      control = h.control
    }
    if (snapshot === undefined) snapshot = h.snapshot
  }
  return { words, category, control, snapshot }
}

function controlOf(w: string): ControlTopic | null {
  if (w === 'error' || w === 'err' || w.endsWith(':error')) return 'error'
  if (w.includes('heartbeat') || w === 'ping' || w === 'pong' || w === 'hb' || w === 'keepalive') {
    return 'heartbeat'
  }
  if (w.includes('unsubscri')) return 'unsubscribed'
  if (
    w === 'subscribe' ||
    w === 'subscribed' ||
    w === 'subscriptions' ||
    w.includes('subscription_succeeded')
  ) {
    return 'subscribed'
  }
  if (CONTROL_OTHER.has(w)) return 'other'
  return null
}

function categoryOf(w: string): Category | null {
  if (w === 'user' || w.startsWith('user')) return 'user'
  if (w.includes('ticker') || w.includes('best_bid_ask') || w === 'bbo' || w === 'quote' || w === 'quotes') {
    return 'ticker'
  }
  if (w.includes('trade') || w.includes('match')) return 'trade'
  if (
    w.includes('book') ||
    w.includes('depth') ||
    w.includes('l2') ||
    w.includes('level2') ||
    w.includes('price_change')
  ) {
    return 'book'
  }
  if (userTopicOf(w) !== null) return 'user'
  return null
}

function snapshotOf(w: string): boolean | undefined {
  if (w.includes('snapshot') || w.includes('partial')) return true
  if (w.includes('delta') || w.includes('update') || w.includes('change') || w.includes('incremental')) {
    return false
  }
  // Polymarket's `book` event is always a full book.
  if (w === 'book') return true
  return undefined
}

export function userTopicOf(w: string): UserTopic | null {
  if (w.includes('fill') || w.includes('trade') || w.includes('execution') || w.includes('match')) {
    return w.includes('executionreport') ? 'order' : 'fill'
  }
  if (w.includes('position')) return 'position'
  if (w.includes('balance') || w.includes('wallet') || w.includes('account')) return 'balance'
  if (w.includes('order') && !w.includes('book')) return 'order'
  return null
}
