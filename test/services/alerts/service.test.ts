// AlertService with fake deps and a fake clock: validation, the hot index, price rules with trust and holds,
// big trades, account and feed-health rules, interests, history and the rule rows.
import { AccountModel } from '../../../src/main/services/account/model'
import { describe, expect, it } from 'vitest'
import {
  ALERT_HISTORY_CAP,
  DEFAULT_COOLDOWN_SEC,
  MAX_ALERT_RULES,
  type AlertCondition,
  type AlertRuleView,
} from '../../../src/shared/alerts'
import type { AlertEvent, AlertRule, AlertRuleInput, KeepRunning } from '../../../src/shared/alerts'
import type { Interest } from '../../../src/shared/ipc'
import type {
  ApiError,
  BookState,
  ConnectionState,
  PriceGrid,
  TickerView,
  TradeView,
  UserTopic,
  UserUpdateView,
} from '../../../src/shared/model'
import { AlertService, type AlertServiceDeps } from '../../../src/main/services/alerts/service'
import type { OrderBook } from '../../../src/main/services/market/books'
import type { PriceUnit } from '../../../src/shared/price-format'
import { wordsText } from '../../../src/shared/alert-text'
import { captureLogger } from '../helpers'

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0)

interface FakeBook {
  bestBid: number | null
  bestAsk: number | null
  state: BookState
  staleReason: string | null
}

interface World {
  svc: AlertService
  deps: AlertServiceDeps
  now: number
  advance(ms: number): void
  books: Map<string, FakeBook>
  tickers: Map<string, TickerView>
  /** How many times the service read a book (hot-path cost checks). */
  bookReads: number
  known: Map<string, boolean | null>
  events: Map<string, string>
  titles: Map<string, string>
  /** The price grids the listing gives, by market (none: not known). */
  grids: Map<string, PriceGrid>
  connection: ConnectionState
  auth: ApiError | null
  keyDate: string | null
  wanted: Set<string>
  interests: Interest[][]
  persisted: { rules: AlertRule[]; keepRunning: KeepRunning }[]
  changed: number
  fired: AlertEvent[]
  logs: string[]
  /** The app's price unit, as the engine's setting says (probability unless a test says otherwise). */
  unit: PriceUnit
  timers: { fn: () => void; ms: number; cleared: boolean }[]
  /** Sets a book and tells the service (as the frame router does after applying an update). */
  book(
    market: string,
    bid: number | null,
    ask: number | null,
    state?: BookState,
    reason?: string | null,
  ): void
  trade(market: string, price: number, size?: number, side?: 'buy' | 'sell' | null): void
  user(topic: UserTopic, data: unknown, market?: string | null): void
  save(input: AlertRuleInput): AlertRule
}

function world(
  initial: { rules: AlertRule[]; keepRunning: KeepRunning } = { rules: [], keepRunning: 'auto' },
): World {
  const log = captureLogger()
  let tradeNo = 0
  let userSeq = 0
  const w = {
    now: T0,
    books: new Map<string, FakeBook>(),
    tickers: new Map<string, TickerView>(),
    bookReads: 0,
    known: new Map<string, boolean | null>(),
    events: new Map<string, string>(),
    titles: new Map<string, string>(),
    grids: new Map<string, PriceGrid>(),
    connection: 'live' as ConnectionState,
    auth: null as ApiError | null,
    keyDate: null as string | null,
    wanted: new Set<string>(),
    interests: [] as Interest[][],
    persisted: [] as { rules: AlertRule[]; keepRunning: KeepRunning }[],
    changed: 0,
    fired: [] as AlertEvent[],
    logs: log.lines,
    unit: 'probability' as PriceUnit,
    timers: [] as { fn: () => void; ms: number; cleared: boolean }[],
  } as World
  // The engine's one account: the rules read what it folded (account/model.ts).
  const account = new AccountModel({ changed: () => undefined })
  const deps: AlertServiceDeps = {
    now: () => w.now,
    balances: () => Object.values(account.state().balances),
    books: {
      get: (market) => {
        w.bookReads++
        return w.books.get(market) as unknown as OrderBook | undefined
      },
      ticker: (market) => {
        const b = w.books.get(market)
        const t = w.tickers.get(market)
        if (b === undefined) return t ?? null
        return {
          market,
          bestBid: b.bestBid,
          bestAsk: b.bestAsk,
          last: t?.last ?? null,
          updatedAt: w.now,
          state: b.state,
        }
      },
      lastPrice: (market) => w.tickers.get(market)?.last ?? null,
    },
    eventOf: (market) => w.events.get(market),
    isKnownMarket: (market) => (w.known.has(market) ? (w.known.get(market) ?? null) : true),
    marketTitle: (market) => w.titles.get(market) ?? null,
    priceGrid: (market) => w.grids.get(market) ?? null,
    priceUnit: () => w.unit,
    connectionState: () => w.connection,
    authError: () => w.auth,
    keyExpiresAt: () => w.keyDate,
    wantedBooks: () => w.wanted,
    setInterests: (list) => w.interests.push(list),
    log: log.logger,
    tickMs: 1000,
    setInterval: (fn, ms) => {
      const t = { fn, ms, cleared: false }
      w.timers.push(t)
      return t
    },
    clearInterval: (handle) => {
      ;(handle as { cleared: boolean }).cleared = true
    },
  }
  w.deps = deps
  w.advance = (ms) => {
    w.now += ms
  }
  w.book = (market, bid, ask, state = 'live', reason = null) => {
    w.books.set(market, { bestBid: bid, bestAsk: ask, state, staleReason: reason })
    w.svc.onBook(market)
  }
  w.trade = (market, price, size = 1, side = 'buy') => {
    const t: TradeView = { key: `t${++tradeNo}`, market, price, size, side, ts: w.now, receivedAt: w.now }
    w.svc.onTrade(t)
  }
  w.user = (topic, data, market = null) => {
    const u: UserUpdateView = { seq: ++userSeq, topic, market, data, receivedAt: w.now }
    w.svc.onAccount(account.apply([u]))
  }
  w.save = (input) => {
    const r = w.svc.save(input)
    if (!r.ok) throw new Error(r.error.message)
    const { state: _s, summary: _m, note: _n, ...rule } = r.value
    return rule
  }
  w.svc = new AlertService(deps, initial)
  w.svc.onDidChangeRules((state) => w.persisted.push(state))
  w.svc.onDidChange(() => {
    w.changed++
  })
  w.svc.onDidFire((event) => w.fired.push(event))
  return w
}

function mid(market: string, op: 'crosses-above' | 'crosses-below' | 'above' | 'below', value: number) {
  return { kind: 'price' as const, market, subject: 'mid' as const, op, value }
}

function storedRule(id: string, condition: AlertCondition): AlertRule {
  return {
    v: 1,
    id,
    label: null,
    condition,
    mode: 'once',
    hysteresis: 0,
    cooldownSec: 60,
    sound: false,
    enabled: true,
    snoozedUntil: null,
    createdAt: T0,
    firedAt: null,
  }
}

// ------------------------------------------------------------------ tests

const validWorld = () => {
  const w = world()
  w.svc.start()
  return w
}

describe('saving rules', () => {
  it('fills in the defaults and persists', () => {
    const w = validWorld()
    const rule = w.save({ condition: mid('m1', 'crosses-above', 0.45) })
    expect(rule).toMatchObject({
      v: 1,
      label: null,
      mode: 'once',
      hysteresis: 0,
      cooldownSec: DEFAULT_COOLDOWN_SEC,
      sound: false,
      enabled: true,
      snoozedUntil: null,
      createdAt: T0,
      firedAt: null,
    })
    expect(rule.id).toMatch(/^a-[0-9a-z]+$/)
    expect(w.persisted.at(-1)?.rules).toEqual([rule])
    expect(w.svc.view().rules[0]).toMatchObject({
      id: rule.id,
      state: 'armed',
      summary: 'm1 mid crosses above 0.45',
      note: 'waits for mid below 0.45 first',
    })
    const other = w.save({ condition: mid('m1', 'above', 0.9) })
    expect(other.id).not.toBe(rule.id)
  })

  it('refuses invalid input with a message naming the field', () => {
    const w = validWorld()
    const refuse = (input: unknown) => {
      const r = w.svc.save(input as AlertRuleInput)
      expect(r.ok).toBe(false)
      return r.ok ? '' : r.error.message
    }
    expect(refuse({ condition: mid('m1', 'above', -1) })).toBe(
      'Invalid alert: condition.value: value must not be negative',
    )
    // The field travels as data too, so a form marks it without reading the message.
    const fieldOf = (input: unknown) => {
      const r = w.svc.save(input as AlertRuleInput)
      return r.ok ? null : (r.error.field ?? null)
    }
    expect(fieldOf({ condition: mid('m1', 'above', -1) })).toBe('condition.value')
    expect(fieldOf({ condition: mid('m1', 'above', 0.5), cooldownSec: -5 })).toBe('cooldownSec')
    w.known.set('nope', false)
    expect(fieldOf({ condition: mid('nope', 'above', 0.5) })).toBe('condition.market')
    expect(refuse({ condition: mid('m1', 'above', Number.NaN) })).toMatch(
      /^Invalid alert: condition\.value: /,
    )
    expect(refuse({ condition: mid('m1', 'above', 0.5), cooldownSec: -5 })).toMatch(
      /^Invalid alert: cooldownSec: /,
    )
    expect(refuse({ condition: { kind: 'big-trade', scope: 'market', id: 'm1', minSize: 0 } })).toMatch(
      /^Invalid alert: condition\.minSize: /,
    )
    w.known.set('nope', false)
    expect(refuse({ condition: mid('nope', 'above', 0.5) })).toBe(
      'Invalid alert: condition.market: unknown market "nope"',
    )
    expect(refuse({ condition: { kind: 'big-trade', scope: 'market', id: 'nope', minSize: 5 } })).toBe(
      'Invalid alert: condition.id: unknown market "nope"',
    )
    expect(refuse({ id: 'a-missing', condition: mid('m1', 'above', 0.5) })).toBe(
      'Invalid alert: id: no rule "a-missing"',
    )
    expect(w.svc.view().rules).toHaveLength(0)
    expect(w.persisted).toHaveLength(0)
  })

  it('accepts a market it cannot judge yet (listing not loaded) and events it cannot check', () => {
    const w = validWorld()
    w.known.set('later', null)
    expect(w.svc.save({ condition: mid('later', 'above', 0.5) }).ok).toBe(true)
    expect(w.svc.save({ condition: { kind: 'big-trade', scope: 'event', id: 'e-x', minSize: 5 } }).ok).toBe(
      true,
    )
    // Account rules may name markets the listing leaves out.
    w.known.set('gone', false)
    expect(w.svc.save({ condition: { kind: 'order', market: 'gone', status: 'filled' } }).ok).toBe(true)
  })

  it('refuses a rule that cannot fire on its market: price out of range or off the tick, negative spread or size', () => {
    const w = validWorld()
    w.grids.set('m1', { min: 0, max: 1, tick: 0.01 })
    const refusal = (input: AlertRuleInput) => {
      const r = w.svc.save(input)
      return r.ok ? null : { field: r.error.field ?? null, message: r.error.message }
    }
    expect(refusal({ condition: mid('m1', 'crosses-above', 5) })).toEqual({
      field: 'condition.value',
      message:
        "Invalid alert: condition.value: Price 5 is outside this market's prices (0 to 1): the alert could never fire as meant.",
    })
    expect(refusal({ condition: { ...mid('m1', 'above', 0.255), subject: 'bid' } })).toEqual({
      field: 'condition.value',
      message:
        'Invalid alert: condition.value: Price 0.255 is not a price this market trades at (tick 0.01): use 0.25 or 0.26.',
    })
    expect(refusal({ condition: { ...mid('m1', 'above', 1.5), subject: 'spread' } })?.message).toMatch(
      /^Invalid alert: condition\.value: Spread 1\.5 is wider than/,
    )
    expect(refusal({ condition: { ...mid('m1', 'above', -0.01), subject: 'spread' } })?.field).toBe(
      'condition.value',
    )
    expect(refusal({ condition: { kind: 'big-trade', scope: 'market', id: 'm1', minSize: -3 } })?.field).toBe(
      'condition.minSize',
    )
    expect(w.svc.view().rules).toHaveLength(0)
    // On the grid: accepted, a mid halfway between two ticks too.
    expect(w.svc.save({ condition: mid('m1', 'crosses-above', 0.255) }).ok).toBe(true)
    expect(w.svc.save({ condition: { ...mid('m1', 'below', 0.02), subject: 'spread' } }).ok).toBe(true)
    // A market whose prices the listing does not give: only what holds everywhere is checked.
    expect(w.svc.save({ condition: mid('other', 'crosses-above', 5) }).ok).toBe(true)
    expect(refusal({ condition: mid('other', 'crosses-above', -5) })?.field).toBe('condition.value')
  })

  it('a stored rule the listing shows can never fire says so on its row', () => {
    const w = world({ rules: [storedRule('a-1', mid('m1', 'crosses-above', 5))], keepRunning: 'auto' })
    w.svc.start()
    expect(w.svc.view().rules[0]?.note).toBe('waits for mid below 5.00 first')
    w.grids.set('m1', { min: 0, max: 1, tick: 0.01 })
    expect(w.svc.view().rules[0]?.note).toMatch(/^never fires: Price 5 is outside this market's prices/)
  })

  it('refuses the 1001st rule', () => {
    const w = validWorld()
    for (let i = 0; i < MAX_ALERT_RULES; i++) w.save({ condition: mid(`m${i % 100}`, 'above', 0.99) })
    const r = w.svc.save({ condition: mid('m1', 'above', 0.99) })
    expect(r.ok ? null : r.error.message).toBe('Invalid alert: rules: at most 1000 rules')
    // Editing one of the thousand is still fine.
    const first = w.svc.view().rules[0] as AlertRuleView
    expect(w.svc.save({ id: first.id, condition: mid('m1', 'above', 0.98) }).ok).toBe(true)
  })

  it('an edit keeps id, position and createdAt, takes missing fields from the rule, and starts it over', () => {
    const w = validWorld()
    const a = w.save({ condition: mid('m1', 'above', 0.5), mode: 'rearm', sound: true, label: 'mine' })
    const b = w.save({ condition: mid('m2', 'above', 0.5) })
    w.book('m1', 0.5, 0.52)
    expect(w.fired).toHaveLength(1)
    w.advance(5000)
    const edited = w.save({ id: a.id, condition: mid('m1', 'above', 0.6) })
    expect(edited).toMatchObject({
      id: a.id,
      createdAt: T0,
      firedAt: null,
      mode: 'rearm',
      sound: true,
      label: 'mine',
    })
    expect(w.svc.view().rules.map((r) => r.id)).toEqual([a.id, b.id])
    expect(w.svc.view().rules[0]?.state).toBe('armed')
  })

  it('an edit that keeps a market the listing dropped is still allowed', () => {
    const w = validWorld()
    const a = w.save({ condition: mid('m1', 'above', 0.5) })
    w.known.set('m1', false)
    expect(w.svc.save({ id: a.id, label: 'renamed', condition: mid('m1', 'above', 0.5) }).ok).toBe(true)
    expect(w.svc.save({ id: a.id, condition: mid('m9', 'above', 0.5) }).ok).toBe(true)
  })

  it('sets aside stored rules that are invalid or repeated, without throwing', () => {
    const good = storedRule('a-1', mid('m1', 'above', 0.5))
    const w = world({
      rules: [
        good,
        { ...good, condition: { ...good.condition, value: -1 } } as AlertRule,
        { ...good, v: 2 } as unknown as AlertRule,
        null as unknown as AlertRule,
        { ...good },
        storedRule('a-2', { kind: 'auth-error' }),
      ],
      keepRunning: 'bogus' as KeepRunning,
    })
    expect(w.svc.view().rules.map((r) => r.id)).toEqual(['a-1', 'a-2'])
    expect(w.svc.view().keepRunning).toBe('auto')
    expect(w.logs.filter((l) => l.startsWith('warn'))).toHaveLength(4)
    expect(() => world({ rules: 'x' as unknown as AlertRule[], keepRunning: 'always' })).not.toThrow()
  })

  it('delete, enable, snooze refuse an unknown id', () => {
    const w = validWorld()
    expect(w.svc.delete('zz').ok).toBe(false)
    expect(w.svc.setEnabled('zz', true).ok).toBe(false)
    const r = w.svc.snooze('zz', 5)
    expect(r.ok ? '' : r.error.message).toBe('Invalid alert: id: no rule "zz"')
  })
})

describe('price rules', () => {
  it('fires exactly once on a crossing, with the market title and the values', () => {
    const w = validWorld()
    w.titles.set('m1', 'Will X win?')
    const rule = w.save({ condition: mid('m1', 'crosses-above', 0.45), sound: true })
    w.book('m1', 0.42, 0.44)
    expect(w.fired).toHaveLength(0)
    w.book('m1', 0.45, 0.46)
    w.book('m1', 0.47, 0.48)
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.47, 0.48)
    expect(w.fired).toHaveLength(1)
    expect(w.fired[0]).toMatchObject({
      ruleId: rule.id,
      kind: 'fired',
      title: 'Will X win? — mid crossed above 0.45',
      detail: 'mid 0.455 (bid 0.45 · ask 0.46)',
      value: 0.455,
      market: 'm1',
      sound: true,
      acknowledged: false,
      at: T0,
    })
    const view = w.svc.view()
    expect(view.history[0]).toEqual(w.fired[0])
    expect(view.unread).toBe(1)
    expect(view.rules[0]).toMatchObject({ state: 'fired', firedAt: T0 })
    expect(w.persisted.at(-1)?.rules[0]?.firedAt).toBe(T0)
  })

  it('an above rule fires at once when the condition already holds at creation', () => {
    const w = validWorld()
    w.books.set('m1', { bestBid: 0.5, bestAsk: 0.52, state: 'quiet', staleReason: null })
    w.save({ condition: mid('m1', 'above', 0.45) })
    expect(w.fired.map((e) => e.title)).toEqual(['m1 — mid at or above 0.45'])
  })

  it('a crossing rule made while the value is already past the level waits for the other side', () => {
    const w = validWorld()
    w.books.set('m1', { bestBid: 0.5, bestAsk: 0.52, state: 'live', staleReason: null })
    w.save({ condition: mid('m1', 'crosses-above', 0.45) })
    w.book('m1', 0.5, 0.53)
    expect(w.fired).toHaveLength(0)
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.5, 0.53)
    expect(w.fired).toHaveLength(1)
  })

  it('never fires from a stale, resyncing, empty or crossed book; holds once and says why', () => {
    const w = validWorld()
    const rule = w.save({ condition: mid('m1', 'above', 0.5) })
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.55, 0.56, 'stale', 'gap')
    w.book('m1', 0.57, 0.58, 'stale', 'gap')
    w.book('m1', 0.57, 0.58, 'resyncing', 'gap')
    w.book('m1', 0.6, 0.58)
    w.book('m1', null, null, 'empty')
    expect(w.fired).toHaveLength(0)
    const held = w.svc.view().history
    expect(held).toHaveLength(1)
    expect(held[0]).toMatchObject({
      ruleId: rule.id,
      kind: 'held',
      title: 'm1 — mid at or above 0.50, held',
      sound: false,
    })
    expect(held[0]?.detail).toBe(
      'held: the book is stale (gap); waiting for it to be live again · mid 0.555 (bid 0.55 · ask 0.56)',
    )
    expect(w.svc.view().unread).toBe(0)
    expect(w.svc.view().rules[0]?.note).toBe('held: the book is stale (gap)')
    // Live again and still past the level: it fires now, and says so.
    w.book('m1', 0.55, 0.56)
    expect(w.fired).toHaveLength(1)
    expect(w.fired[0]?.detail).toBe('mid 0.555 (bid 0.55 · ask 0.56) · fired once the book was live again')
    expect(w.svc.view().rules[0]?.note).toMatch(/^fired at /)
  })

  it('a crossing that happened while the book was stale fires once the book is live', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'crosses-above', 0.5) })
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.4, 0.42, 'stale', 'reconnect')
    w.book('m1', 0.6, 0.62)
    expect(w.fired).toHaveLength(1)
    expect(w.fired[0]?.detail).toMatch(/fired once the book was live again$/)
  })

  it('a stale book does not prime a crossing', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'crosses-above', 0.5) })
    w.book('m1', 0.4, 0.42, 'stale', 'gap')
    w.book('m1', 0.6, 0.62)
    expect(w.fired).toHaveLength(0)
  })

  it('re-arms with hysteresis and respects the cooldown', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'above', 0.5), mode: 'rearm', hysteresis: 0.02, cooldownSec: 30 })
    w.book('m1', 0.5, 0.52)
    expect(w.fired).toHaveLength(1)
    expect(w.svc.view().rules[0]).toMatchObject({ state: 'fired', note: 're-arms when mid ≤ 0.48' })
    w.advance(40_000)
    w.book('m1', 0.48, 0.5) // mid 0.49: back below, not by the hysteresis
    w.book('m1', 0.5, 0.52)
    expect(w.fired).toHaveLength(1)
    w.book('m1', 0.46, 0.48) // mid 0.47: re-armed
    expect(w.svc.view().rules[0]?.state).toBe('armed')
    w.book('m1', 0.5, 0.52)
    expect(w.fired).toHaveLength(2)
    // Within the cooldown: leaves and re-enters, not fired, and not fired later either.
    w.advance(10_000)
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.5, 0.52)
    w.advance(30_000)
    w.book('m1', 0.51, 0.53)
    expect(w.fired).toHaveLength(2)
    expect(w.persisted.at(-1)?.rules[0]?.firedAt).toBe(T0 + 40_000)
  })

  it('reads bid, ask, spread and last; mid needs both sides', () => {
    const w = validWorld()
    w.save({ condition: { kind: 'price', market: 'm1', subject: 'spread', op: 'above', value: 0.05 } })
    w.save({ condition: { kind: 'price', market: 'm1', subject: 'bid', op: 'below', value: 0.3 } })
    w.save({ condition: { kind: 'price', market: 'm1', subject: 'ask', op: 'above', value: 0.9 } })
    w.save({ condition: mid('m1', 'above', 0.0) })
    w.save({ condition: { kind: 'price', market: 'm1', subject: 'last', op: 'crosses-below', value: 0.4 } })
    w.book('m1', 0.3, null)
    expect(w.fired.map((e) => e.detail)).toEqual(['bid 0.30'])
    w.book('m1', 0.3, 0.36)
    expect(w.fired.map((e) => e.detail)).toEqual([
      'bid 0.30',
      'spread 0.06 (bid 0.30 · ask 0.36)',
      'mid 0.33 (bid 0.30 · ask 0.36)',
    ])
    w.book('m1', 0.31, 0.95)
    expect(w.fired.at(-1)?.detail).toBe('ask 0.95 (bid 0.31)')
    w.trade('m1', 0.45)
    w.trade('m1', 0.39)
    expect(w.fired.at(-1)).toMatchObject({
      title: 'm1 — last crossed below 0.40',
      detail: 'last trade 0.39',
      value: 0.39,
    })
  })

  it('ticker-only markets: bid/ask/last from the ticker', () => {
    const w = validWorld()
    w.save({ condition: mid('t1', 'crosses-above', 0.5) })
    w.save({ condition: { kind: 'price', market: 't1', subject: 'last', op: 'above', value: 0.7 } })
    const tick = (bid: number, ask: number, last: number, state: BookState = 'live') => {
      w.tickers.set('t1', { market: 't1', bestBid: bid, bestAsk: ask, last, updatedAt: w.now, state })
      w.svc.onTicker('t1')
    }
    tick(0.4, 0.42, 0.41)
    tick(0.6, 0.62, 0.61, 'stale')
    expect(w.fired).toHaveLength(0)
    tick(0.6, 0.62, 0.71)
    expect(w.fired.map((e) => e.detail)).toEqual([
      'mid 0.61 (bid 0.60 · ask 0.62) · fired once the book was live again',
      'last trade 0.71',
    ])
  })

  it('snoozed: no firing and no held entry; a level still past it fires when the snooze ends', () => {
    const w = validWorld()
    const rule = w.save({ condition: mid('m1', 'above', 0.5) })
    const bad = w.svc.snooze(rule.id, 0)
    expect(bad.ok ? '' : bad.error.message).toBe(
      'Invalid alert: minutes: minutes must be greater than 0 and at most 10080',
    )
    expect(w.svc.snooze(rule.id, 5).ok).toBe(true)
    expect(w.svc.view().rules[0]).toMatchObject({ state: 'snoozed', snoozedUntil: T0 + 300_000 })
    w.book('m1', 0.55, 0.56, 'stale', 'gap')
    w.book('m1', 0.55, 0.56)
    expect(w.svc.view().history).toHaveLength(0)
    w.advance(300_000)
    const persists = w.persisted.length
    w.svc.tick()
    expect(w.fired).toHaveLength(1)
    expect(w.svc.view().rules[0]?.snoozedUntil).toBeNull()
    expect(w.persisted.length).toBeGreaterThan(persists)
  })

  it('a crossing during a snooze is not fired afterwards', () => {
    const w = validWorld()
    const rule = w.save({ condition: mid('m1', 'crosses-above', 0.5) })
    w.book('m1', 0.4, 0.42)
    w.svc.snooze(rule.id, 1)
    w.book('m1', 0.55, 0.56)
    w.svc.snooze(rule.id, null)
    w.book('m1', 0.56, 0.57)
    expect(w.fired).toHaveLength(0)
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.55, 0.56)
    expect(w.fired).toHaveLength(1)
  })

  it('paused: nothing fires; resuming fires a level that still holds', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'above', 0.5) })
    w.svc.pause(true)
    w.book('m1', 0.55, 0.56)
    expect(w.fired).toHaveLength(0)
    expect(w.svc.summary()).toMatchObject({ paused: true })
    w.svc.pause(false)
    expect(w.fired).toHaveLength(1)
  })

  it('a spent once rule is re-armed by enabling it', () => {
    const w = validWorld()
    const rule = w.save({ condition: mid('m1', 'crosses-above', 0.5) })
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.55, 0.56)
    expect(w.interests.at(-1)).toEqual([])
    const r = w.svc.setEnabled(rule.id, true)
    expect(r.ok && r.value).toMatchObject({ state: 'armed', firedAt: null })
    expect(w.interests.at(-1)).toEqual([{ channel: 'market', id: 'm1', filter: 'all' }])
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.55, 0.56)
    expect(w.fired).toHaveLength(2)
  })

  it('the hot path does nothing for markets without rules, nor for disabled or spent rules', () => {
    const w = validWorld()
    const rule = w.save({ condition: mid('m1', 'above', 0.5) })
    const reads = w.bookReads
    for (let i = 0; i < 100; i++) w.book('m2', 0.6, 0.62)
    w.trade('m2', 0.6)
    expect(w.bookReads).toBe(reads)
    w.svc.setEnabled(rule.id, false)
    w.book('m1', 0.6, 0.62)
    expect(w.fired).toHaveLength(0)
    expect(w.bookReads).toBe(reads)
  })

  it('a failure inside a rule check never escapes the hot path, and is logged once', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'above', 0.5) })
    w.save({ condition: mid('m2', 'above', 0.5) })
    w.deps.marketTitle = () => {
      throw new Error('boom')
    }
    expect(() => w.book('m1', 0.6, 0.62)).not.toThrow()
    expect(() => w.book('m2', 0.6, 0.62)).not.toThrow()
    expect(w.logs.filter((l) => l.includes('boom'))).toHaveLength(1)
  })
})

describe('big trades', () => {
  it('fires on a trade of at least minSize in the market; rearm honours the cooldown', () => {
    const w = validWorld()
    w.titles.set('m1', 'Will X win?')
    w.save({
      condition: { kind: 'big-trade', scope: 'market', id: 'm1', minSize: 100 },
      mode: 'rearm',
      cooldownSec: 10,
    })
    w.trade('m1', 0.45, 99)
    w.trade('m2', 0.45, 500)
    expect(w.fired).toHaveLength(0)
    w.trade('m1', 0.45, 100, 'sell')
    expect(w.fired[0]).toMatchObject({
      title: 'Will X win? — trade of 100',
      detail: 'sell 100 @ 0.45 (at least 100)',
      value: 100,
      market: 'm1',
    })
    w.advance(5000)
    w.trade('m1', 0.45, 300)
    expect(w.fired).toHaveLength(1)
    w.advance(5000)
    w.trade('m1', 0.46, 300)
    expect(w.fired).toHaveLength(2)
  })

  it('event scope: any market of the event; once fires once', () => {
    const w = validWorld()
    w.events.set('m1', 'e1')
    w.events.set('m2', 'e1')
    w.events.set('m3', 'e2')
    w.save({ condition: { kind: 'big-trade', scope: 'event', id: 'e1', minSize: 10 } })
    w.trade('m3', 0.5, 50)
    expect(w.fired).toHaveLength(0)
    w.trade('m2', 0.5, 50)
    w.trade('m1', 0.5, 50)
    expect(w.fired.map((e) => e.market)).toEqual(['m2'])
    expect(w.fired[0]?.detail).toBe('buy 50 @ 0.50 (at least 10 in event e1)')
  })
})

describe('account rules', () => {
  const order = (id: string, status: string, filled: number, size = 10, market = 'm1') => ({
    id,
    market,
    side: 'buy',
    price: 0.45,
    size,
    filled,
    status,
  })

  it('fires filled, partially filled and cancelled once each; the baseline is silent', () => {
    const w = validWorld()
    w.save({ condition: { kind: 'order', market: null, status: 'filled' } })
    w.save({
      condition: { kind: 'order', market: null, status: 'partially-filled' },
      mode: 'rearm',
      cooldownSec: 0,
    })
    w.save({ condition: { kind: 'order', market: 'm2', status: 'cancelled' }, mode: 'rearm', cooldownSec: 0 })
    // Before the first connect: baseline.
    w.user('order', order('o1', 'partially_filled', 4))
    w.svc.connected()
    w.user('order', order('o2', 'partially_filled', 2))
    w.advance(3000)
    expect(w.fired).toHaveLength(0)
    w.user('order', order('o1', 'partially_filled', 4))
    expect(w.fired).toHaveLength(0)
    w.user('order', order('o1', 'partially_filled', 6))
    w.user('order', order('o1', 'partially_filled', 6))
    expect(w.fired.map((e) => e.title)).toEqual(['m1 — order partially filled'])
    expect(w.fired[0]?.detail).toBe('buy 10 @ 0.45 · filled 6/10 · partially_filled · order o1')
    w.user('order', order('o1', 'filled', 10))
    w.user('order', order('o1', 'filled', 10))
    w.user('order', [order('o3', 'canceled', 0, 5, 'm2'), order('o4', 'canceled', 0, 5, 'm1')])
    expect(w.fired.map((e) => e.title)).toEqual([
      'm1 — order partially filled',
      'm1 — order filled',
      'm2 — order cancelled',
    ])
  })

  it('positions: opened and closed, first sight in the baseline is silent', () => {
    const w = validWorld()
    w.save({ condition: { kind: 'position', market: null, change: 'opened' }, mode: 'rearm', cooldownSec: 0 })
    w.save({ condition: { kind: 'position', market: 'm1', change: 'closed' }, mode: 'rearm', cooldownSec: 0 })
    w.svc.connected()
    w.user('position', { market: 'm1', size: 10, avgPrice: 0.4 })
    w.advance(3000)
    w.user('position', { market: 'm1', size: 15, avgPrice: 0.4 })
    w.user('position', { market: 'm2', size: 5, avgPrice: 0.3 })
    w.user('position', { market: 'm1', size: 0 })
    expect(w.fired.map((e) => `${e.title} | ${e.detail}`)).toEqual([
      'm2 — position opened | size 5 @ avg 0.30',
      'm1 — position closed | was 15, now 0',
    ])
  })

  it('balance below: fires on first sight, re-arms above the level plus the hysteresis', () => {
    const w = validWorld()
    w.save({
      condition: { kind: 'balance-below', value: 100, currency: 'USDC' },
      mode: 'rearm',
      hysteresis: 10,
      cooldownSec: 0,
    })
    w.user('balance', { currency: 'USDC', total: 90, available: 80 })
    expect(w.fired[0]).toMatchObject({
      title: 'USDC balance below 100',
      detail: 'balance 90 (available 80)',
      value: 90,
    })
    w.user('balance', { currency: 'USDC', total: 105 })
    w.user('balance', { currency: 'USDC', total: 95 })
    w.user('balance', { currency: 'EUR', total: 1 })
    expect(w.fired).toHaveLength(1)
    expect(w.svc.view().rules[0]?.note).toBe('re-arms when USDC ≥ 110')
    w.user('balance', { currency: 'USDC', total: 110 })
    w.user('balance', { currency: 'USDC', total: 99.5 })
    expect(w.fired).toHaveLength(2)
  })

  it('a balance rule made later is judged on the balance already known', () => {
    const w = validWorld()
    w.user('balance', { currency: 'USDC', total: 50 })
    w.save({ condition: { kind: 'balance-below', value: 100, currency: null } })
    expect(w.fired.map((e) => e.value)).toEqual([50])
  })

  it('reset starts every rule over, even when the next quote equals the last one', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'crosses-above', 0.5) })
    w.book('m1', 0.4, 0.42)
    w.svc.reset()
    expect(w.svc.view().rules[0]?.note).toBe('waits for mid below 0.50 first')
    w.book('m1', 0.4, 0.42)
    w.book('m1', 0.6, 0.62)
    expect(w.fired).toHaveLength(1)
  })

  it('reset forgets the account: the next snapshot is baseline again', () => {
    const w = validWorld()
    w.save({ condition: { kind: 'position', market: null, change: 'opened' } })
    w.svc.connected()
    w.advance(5000)
    w.svc.reset()
    w.user('position', { market: 'm1', size: 10 })
    w.svc.connected()
    w.advance(5000)
    w.user('position', { market: 'm1', size: 12 })
    expect(w.fired).toHaveLength(0)
  })
})

describe('feed health', () => {
  it('disconnected for N seconds fires once per episode (rearm)', () => {
    const w = validWorld()
    w.save({ condition: { kind: 'disconnected', seconds: 5 }, mode: 'rearm', cooldownSec: 0 })
    w.connection = 'reconnecting'
    w.svc.tick()
    w.advance(4000)
    w.svc.tick()
    expect(w.fired).toHaveLength(0)
    w.advance(1000)
    w.svc.tick()
    w.advance(1000)
    w.svc.tick()
    expect(w.fired.map((e) => e.title)).toEqual(['Disconnected for 5 s'])
    expect(w.fired[0]?.detail).toMatch(/^the connection is reconnecting since \d\d:\d\d:\d\d$/)
    w.connection = 'live'
    w.svc.tick()
    w.connection = 'offline'
    w.svc.tick()
    w.advance(5000)
    w.svc.tick()
    expect(w.fired).toHaveLength(2)
  })

  it('book not live for N seconds, for one market or any wanted one; names market and reason', () => {
    const w = validWorld()
    w.save({ condition: { kind: 'book-stale', market: 'm1', seconds: 3 } })
    w.save({ condition: { kind: 'book-stale', market: null, seconds: 3 }, mode: 'rearm', cooldownSec: 0 })
    w.books.set('m1', { bestBid: 0.4, bestAsk: 0.5, state: 'stale', staleReason: 'gap' })
    w.books.set('m2', { bestBid: 0.4, bestAsk: 0.5, state: 'resyncing', staleReason: 'crossed' })
    w.books.set('m3', { bestBid: 0.4, bestAsk: 0.5, state: 'quiet', staleReason: null })
    w.wanted = new Set(['m2', 'm3', 'm4'])
    w.svc.tick()
    w.advance(3000)
    w.svc.tick()
    expect(w.fired.map((e) => `${e.title} | ${e.detail.replace(/\d\d:\d\d:\d\d/, 'T')}`).sort()).toEqual([
      'm1 — book not live for 3 s | the book is stale (gap) since T (m1)',
      'm2 — book not live for 3 s | the book is resyncing (crossed) since T (m2)',
    ])
    // m2 recovers and breaks again: the any-book rule fires again for it.
    w.books.set('m2', { bestBid: 0.4, bestAsk: 0.5, state: 'live', staleReason: null })
    w.svc.tick()
    w.books.set('m2', { bestBid: 0.4, bestAsk: 0.5, state: 'stale', staleReason: 'reconnect' })
    w.svc.tick()
    w.advance(3000)
    w.svc.tick()
    expect(w.fired).toHaveLength(3)
    expect(w.interests.at(-1)).toEqual([])
  })

  it('auth error and key expiring', () => {
    const w = validWorld()
    w.save({ condition: { kind: 'auth-error' }, mode: 'rearm', cooldownSec: 0 })
    w.save({ condition: { kind: 'key-expiring', days: 7 }, mode: 'rearm', cooldownSec: 0 })
    w.keyDate = '2030-01-20'
    w.svc.tick()
    expect(w.fired).toHaveLength(0)
    w.keyDate = '2030-01-05'
    w.auth = { code: 'unauthorized', message: 'The key was refused.' }
    w.svc.tick()
    w.svc.tick()
    expect(w.fired.map((e) => `${e.title} | ${e.detail}`)).toEqual([
      'The API key is refused | The key was refused.',
      'The API key expires in 4 days | expiry date 2030-01-05',
    ])
    // A new date re-arms the rule even while still within the window.
    w.keyDate = '2030-01-06'
    w.auth = null
    w.svc.tick()
    w.auth = { code: 'ip_not_allowed', message: 'Not from this IP.' }
    w.svc.tick()
    expect(w.fired).toHaveLength(4)
  })

  it('the timer is the injected one, unref-safe, and close stops it', () => {
    const w = world()
    w.svc.start()
    w.svc.start()
    expect(w.timers).toHaveLength(1)
    expect(w.timers[0]?.ms).toBe(1000)
    w.save({ condition: { kind: 'auth-error' } })
    w.auth = { code: 'unauthorized', message: 'no' }
    w.timers[0]?.fn()
    expect(w.fired).toHaveLength(1)
    w.svc.close()
    expect(w.timers[0]?.cleared).toBe(true)
  })
})

describe('interests, history and views', () => {
  it('asks for what the active rules need, merged, and only when that changes', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'above', 0.9) })
    w.save({ condition: { kind: 'big-trade', scope: 'market', id: 'm2', minSize: 5 } })
    w.save({ condition: { kind: 'book-stale', market: 'm2', seconds: 5 } })
    w.save({ condition: { kind: 'book-stale', market: 'm3', seconds: 5 } })
    w.save({ condition: { kind: 'big-trade', scope: 'event', id: 'e1', minSize: 5 } })
    const order = w.save({ condition: { kind: 'order', market: null, status: 'filled' } })
    const calls = w.interests.length
    w.save({ condition: mid('m1', 'below', 0.01) })
    expect(w.interests).toHaveLength(calls)
    expect(w.interests.at(-1)).toEqual([
      { channel: 'market', id: 'm1', filter: 'all' },
      { channel: 'market', id: 'm2', filter: 'all' },
      { channel: 'market', id: 'm3', filter: 'orderbook' },
      { channel: 'event', id: 'e1', filter: 'trades' },
      { channel: 'user' },
    ])
    w.svc.setEnabled(order.id, false)
    expect(w.interests.at(-1)?.some((i) => i.channel === 'user')).toBe(false)
  })

  it('history is newest first, capped, with increasing ids; acknowledge by ids or all', () => {
    const w = validWorld()
    w.save({
      condition: { kind: 'big-trade', scope: 'market', id: 'm1', minSize: 1 },
      mode: 'rearm',
      cooldownSec: 0,
    })
    for (let i = 0; i < ALERT_HISTORY_CAP + 5; i++) w.trade('m1', 0.5, 1)
    const view = w.svc.view()
    expect(view.history).toHaveLength(ALERT_HISTORY_CAP)
    expect(view.history[0]?.id).toBe(ALERT_HISTORY_CAP + 5)
    expect(view.history.at(-1)?.id).toBe(6)
    expect(view.unread).toBe(ALERT_HISTORY_CAP)
    const before = view.history[0]
    w.svc.acknowledge([ALERT_HISTORY_CAP + 5, ALERT_HISTORY_CAP + 4, 99_999])
    expect(w.svc.summary().unread).toBe(ALERT_HISTORY_CAP - 2)
    // A view already handed out is not changed behind its holder's back.
    expect(before?.acknowledged).toBe(false)
    w.svc.acknowledge('all')
    expect(w.svc.view().unread).toBe(0)
  })

  it('summary counts the rules that can still fire; keep-running is persisted; delete removes', () => {
    const w = validWorld()
    const a = w.save({ condition: mid('m1', 'above', 0.9) })
    w.save({ condition: mid('m1', 'above', 0.9), enabled: false })
    const c = w.save({ condition: mid('m1', 'above', 0.9) })
    w.svc.snooze(c.id, 10)
    // The snoozed rule still counts: the app must keep watching for it.
    expect(w.svc.summary()).toEqual({ armed: 2, unread: 0, paused: false, keepRunning: 'auto' })
    w.svc.setKeepRunning('always')
    expect(w.persisted.at(-1)?.keepRunning).toBe('always')
    expect(w.svc.delete(a.id).ok).toBe(true)
    expect(w.svc.summary().armed).toBe(1)
    expect(w.svc.delete(c.id).ok).toBe(true)
    expect(w.svc.summary().armed).toBe(0)
    expect(w.persisted.at(-1)?.rules).toHaveLength(1)
  })

  it('tells the windows when a cooldown ends with time alone', () => {
    const w = validWorld()
    w.save({ condition: mid('m1', 'above', 0.5), mode: 'rearm', cooldownSec: 10 })
    w.book('m1', 0.55, 0.56)
    w.book('m1', 0.4, 0.42)
    expect(w.svc.view().rules[0]?.state).toBe('fired')
    w.svc.tick()
    const changes = w.changed
    w.advance(10_000)
    w.svc.tick()
    expect(w.changed).toBe(changes + 1)
    expect(w.svc.view().rules[0]?.state).toBe('armed')
    w.svc.tick()
    expect(w.changed).toBe(changes + 1)
  })
})

describe('hot path cost', () => {
  it('1,000 rules over 100 markets stay cheap per update', () => {
    const w = validWorld()
    for (let m = 0; m < 100; m++) {
      for (let r = 0; r < 10; r++)
        w.save({ condition: mid(`m${m}`, r % 2 ? 'crosses-above' : 'above', 0.9 - r * 0.01) })
    }
    for (let m = 0; m < 100; m++)
      w.books.set(`m${m}`, { bestBid: 0.5, bestAsk: 0.52, state: 'live', staleReason: null })
    const n = 200_000
    const start = performance.now()
    for (let i = 0; i < n; i++) w.svc.onBook(`m${i % 100}`)
    const perUpdate = ((performance.now() - start) * 1e6) / n
    expect(w.fired).toHaveLength(0)
    // Generous bound for slow CI machines; typical is well under 1 µs.
    expect(perUpdate).toBeLessThan(5000)
  })
})

describe('prices in the unit the app shows', () => {
  it("writes every alert's prices in the engine's unit, and keeps them for a window to write in its own", () => {
    const w = validWorld()
    w.unit = 'cents'
    w.titles.set('m1', 'Will X win?')
    w.save({ condition: mid('m1', 'crosses-above', 0.45) })
    w.save({ condition: { kind: 'big-trade', scope: 'market', id: 'm1', minSize: 100 } })
    w.save({ condition: { kind: 'order', market: null, status: 'filled' } })
    w.save({ condition: { kind: 'position', market: null, change: 'opened' } })
    // The account's snapshot after a connect is a baseline, not news.
    w.svc.connected()
    w.advance(3000)
    w.book('m1', 0.42, 0.44)
    w.book('m1', 0.45, 0.46)
    w.trade('m1', 0.45, 100, 'sell')
    w.user('order', {
      id: 'o1',
      market: 'm1',
      side: 'buy',
      price: 0.45,
      size: 10,
      filled: 10,
      status: 'filled',
    })
    w.user('position', { market: 'm1', size: 10, avgPrice: 0.4 })
    expect(w.fired.map((e) => `${e.title} | ${e.detail}`)).toEqual([
      'Will X win? — mid crossed above 45¢ | mid 45.5¢ (bid 45¢ · ask 46¢)',
      'Will X win? — trade of 100 | sell 100 @ 45¢ (at least 100)',
      'Will X win? — order filled | buy 10 @ 45¢ · filled 10/10 · filled · order o1',
      'Will X win? — position opened | size 10 @ avg 40¢',
    ])
    // Each entry keeps its words: a window writes them again in the unit it shows, and names the market itself.
    const again = w.fired.map((e) =>
      wordsText(e.words?.detail ?? [], 'probability', (m) => (m === 'm1' ? 'X · Yes' : undefined)),
    )
    expect(again).toEqual([
      'mid 0.455 (bid 0.45 · ask 0.46)',
      'sell 100 @ 0.45 (at least 100)',
      'buy 10 @ 0.45 · filled 10/10 · filled · order o1',
      'size 10 @ avg 0.40',
    ])
    expect(wordsText(w.fired[0]?.words?.title ?? [], 'probability', () => 'X · Yes')).toBe(
      'X · Yes — mid crossed above 0.45',
    )
  })

  it('writes the rules’ notes and refusals in the unit, and tells the windows when it changes', () => {
    const w = validWorld()
    w.unit = 'cents'
    w.save({ condition: mid('m1', 'crosses-above', 0.45) })
    expect(w.svc.view().rules[0]).toMatchObject({
      summary: 'm1 mid crosses above 45¢',
      note: 'waits for mid below 45¢ first',
    })
    w.grids.set('m1', { min: 0, max: 1, tick: 0.01 })
    const refused = w.svc.save({ condition: mid('m1', 'above', 5) })
    expect(refused.ok ? null : refused.error.message).toBe(
      "Invalid alert: condition.value: Price 500¢ is outside this market's prices (0¢ to 100¢): the alert could never fire as meant.",
    )
    const changes = w.changed
    w.unit = 'probability'
    w.svc.priceUnitChanged()
    expect(w.changed).toBe(changes + 1)
    expect(w.svc.view().rules[0]?.note).toBe('waits for mid below 0.45 first')
  })
})
