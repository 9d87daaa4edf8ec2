// Which active rules each update can concern, built once per change of the rules so the hot path does one map
// lookup per update and never walks every rule; and what the rules need watched (their subscriptions).
import type { Interest } from '../../../shared/ipc'
import type { ChannelFilter } from '../../../shared/model'
import { uniteFilters } from '../../../shared/protocol'
import { isActive, type RuleRuntime } from './rules'

export type Index = Map<string, RuleRuntime[]>

/**
 * One market's bid/ask/mid/spread rules and the quote they last judged. Most book updates change sizes, not the
 * best prices; a rule judging the same value with the same trust again changes nothing (the state machine is
 * idempotent there), so such an update costs one comparison. What time alone changes (a snooze ending, resuming
 * from pause) is re-judged by the service; a rebuilt index starts the cache afresh.
 */
export interface BookRules {
  readonly rules: RuleRuntime[]
  /** NONE for a missing side. Never null: a field that only ever holds numbers is updated without allocating. */
  bid: number
  ask: number
  trusted: boolean
}

export const NONE = Number.NEGATIVE_INFINITY

export interface RuleIndex {
  /** Price rules on bid/ask/mid/spread, by market. */
  readonly book: Map<string, BookRules>
  /** Price rules on the last trade, by market. */
  readonly last: Index
  /** Big-trade rules by market, and by event. */
  readonly trade: Index
  readonly event: Index
  /** Order, position and balance rules. */
  readonly user: RuleRuntime[]
  /** Feed-health rules, checked on the tick. */
  readonly health: RuleRuntime[]
  /** How many rules can still fire (enabled, not spent): every rule in the index. */
  active: number
}

function addTo(index: Index, key: string, rt: RuleRuntime): void {
  const list = index.get(key)
  if (list === undefined) index.set(key, [rt])
  else list.push(rt)
}

/** Disabled and spent rules are left out: they cost the hot path nothing. */
export function buildIndex(rules: Iterable<RuleRuntime>): RuleIndex {
  const index: RuleIndex = {
    book: new Map(),
    last: new Map(),
    trade: new Map(),
    event: new Map(),
    user: [],
    health: [],
    active: 0,
  }
  for (const rt of rules) {
    if (!isActive(rt.rule)) continue
    index.active++
    const c = rt.rule.condition
    switch (c.kind) {
      case 'price':
        if (c.subject === 'last') addTo(index.last, c.market, rt)
        else {
          const entry = index.book.get(c.market)
          if (entry === undefined)
            index.book.set(c.market, { rules: [rt], bid: NONE, ask: NONE, trusted: false })
          else entry.rules.push(rt)
        }
        break
      case 'big-trade':
        addTo(c.scope === 'market' ? index.trade : index.event, c.id, rt)
        break
      case 'order':
      case 'position':
      case 'balance-below':
        index.user.push(rt)
        break
      default:
        index.health.push(rt)
    }
  }
  return index
}

/**
 * What the rules need subscribed, in a stable order: price rules want the market's book and trades, big-trade
 * rules its trades (or the event's), a book-stale rule the book, and account rules the user channel.
 */
export function indexInterests(index: RuleIndex): Interest[] {
  const markets = new Map<string, ChannelFilter>()
  const want = (id: string, filter: ChannelFilter) =>
    markets.set(id, uniteFilters(markets.get(id) ?? null, filter))
  for (const id of index.book.keys()) want(id, 'all')
  for (const id of index.last.keys()) want(id, 'all')
  for (const id of index.trade.keys()) want(id, 'trades')
  for (const rt of index.health) {
    const c = rt.rule.condition
    if (c.kind === 'book-stale' && c.market !== null) want(c.market, 'orderbook')
  }
  const list: Interest[] = []
  for (const id of [...markets.keys()].sort()) {
    list.push({ channel: 'market', id, filter: markets.get(id) as ChannelFilter })
  }
  for (const id of [...index.event.keys()].sort()) list.push({ channel: 'event', id, filter: 'trades' })
  if (index.user.length > 0) list.push({ channel: 'user' })
  return list
}
