// The order service's safety rules, each against a venue that answers what the test says (the simulator's own
// order API is exercised over real sockets in service.sim.test.ts). Every rule here has a test that fails without
// it: one intent one order, the window's profile and mode, off, the limits, the fat-finger and duplicate warnings,
// no POST retried (unknown, then reconciled), a lasting permission or path refusal, cancel-all's reach and pace,
// paper never sent and filled only by a print, the browser host's reach, no live order during a replay.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiError, BookView, Result, UserUpdateView } from '../../../src/shared/model'
import {
  DEFAULT_LIMITS,
  type OrderRequest,
  type OrderView,
  type TradingSettings,
  type TradingSettingsInput,
} from '../../../src/shared/trading'
import { takerFeeCents } from '../../../src/shared/voxfi-orders'
import { AccountModel } from '../../../src/main/services/account/model'
import { OrderJournal } from '../../../src/main/services/orders/journal'
import { CANNOT_TELL } from '../../../src/main/services/orders/reconcile'
import { OrderService, CANCEL_RATE_PER_S, type TradingVenue } from '../../../src/main/services/orders/service'
import type { TradeRequest, TradeResult } from '../../../src/main/services/feed/rest'
import { captureLogger, waitFor } from '../helpers'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

type Answer = TradeResult | Promise<TradeResult>

/** A venue whose every trading answer the test scripts; it records what reached it. */
class ScriptedVenue implements TradingVenue {
  readonly sent: TradeRequest[] = []
  /** What the next sends answer, in order; when empty, `fallback`. */
  readonly answers: Array<(r: TradeRequest) => Answer> = []
  fallback: (r: TradeRequest) => Answer = (r) => accepted(r)
  openOrders: unknown[] = []
  activity: unknown[] = []
  /** When set, the activity by page (1-based) instead of `activity`. */
  activityPages: ((page: number) => unknown[]) | null = null
  readonly paths: string[] = []
  reads = 0
  readable = true

  async send(request: TradeRequest): Promise<TradeResult> {
    this.sent.push(request)
    const next = this.answers.shift() ?? this.fallback
    return next(request)
  }

  async get(path: string): Promise<Result<unknown>> {
    this.reads++
    this.paths.push(path)
    if (!this.readable) return { ok: false, error: { code: 'network', message: 'down' } }
    if (path.startsWith('/data/orders')) return { ok: true, value: this.openOrders }
    if (path.startsWith('/data/activity')) {
      const page = Number(new URL(path, 'http://venue').searchParams.get('page') ?? '1')
      return { ok: true, value: this.activityPages?.(page) ?? this.activity }
    }
    return { ok: false, error: { code: 'not_found', message: path } }
  }

  places(): TradeRequest[] {
    return this.sent.filter((r) => r.method === 'POST' && r.path === '/trade/order')
  }

  cancels(): TradeRequest[] {
    return this.sent.filter((r) => r.method === 'DELETE')
  }
}

let restingNo = 0
/** The documented answer (a): everything rests. */
function accepted(r: TradeRequest): TradeResult {
  if (r.method === 'DELETE')
    return { ok: true, value: { status: 200, body: { success: true, order_id: 'x' } } }
  return {
    ok: true,
    value: {
      status: 200,
      body: { success: true, message: 'ok', resting_order_id: `v-${++restingNo}`, trades: [] },
    },
  }
}

const venueError = (status: number, body: unknown, retryAfterMs?: number): TradeResult => ({
  ok: true,
  value: { status, body, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
})

const lost = (sent: 'no' | 'maybe'): TradeResult => ({
  ok: false,
  sent,
  error: { code: 'timeout', message: 'no answer within 8 s' },
})

function book(partial: Partial<BookView> = {}): BookView {
  return {
    market: 'm1',
    state: 'live',
    staleReason: null,
    bids: [
      [0.4, 100],
      [0.39, 100],
    ],
    asks: [
      [0.42, 100],
      [0.43, 100],
    ],
    depth: { bids: 2, asks: 2 },
    seq: null,
    updatedAt: 1,
    ...partial,
  }
}

interface Rig {
  svc: OrderService
  venue: ScriptedVenue
  account: AccountModel
  journal: OrderJournal
  settings: Map<string, TradingSettings>
  profile: { id: string; demo: boolean; replay: boolean }
  clock: { now: number }
  /** Lets scheduled reconcile reads run: advances the clock by what each asks to wait. */
  changes: () => number
  dir: string
}

/** An execution of another order on the same account and market (one placed on VoxFi's site), made at `at`. */
const othersExecution = (at: number) => ({
  market_id: 'm1',
  contract_type: 'YES',
  side: 'SELL',
  price_ticks: 60,
  quantity: 1,
  created_at: new Date(at).toISOString(),
})

function rig(mode: TradingSettings['mode'] = 'live', demo = true): Rig {
  const dir = mkdtempSync(join(tmpdir(), 'tm-orders-'))
  dirs.push(dir)
  const log = captureLogger()
  const clock = { now: 1_800_000_000_000 }
  const venue = new ScriptedVenue()
  const profile = { id: demo ? 'demo' : 'desk', demo, replay: false }
  const settings = new Map<string, TradingSettings>([
    [profile.id, { mode, oneClick: false, limits: { ...DEFAULT_LIMITS } }],
  ])
  let changed = 0
  const account = new AccountModel({ changed: () => undefined })
  const journal = new OrderJournal({ dir, log: log.logger, now: () => clock.now })
  const svc = new OrderService({
    log: log.logger,
    now: () => clock.now,
    profile: () => profile,
    venue: () => venue,
    key: async () => 'sk_test_0123456789abcdef0123',
    settings: {
      get: (id) => settings.get(id) ?? { mode: 'off', oneClick: false, limits: { ...DEFAULT_LIMITS } },
      set: async (id: string, input: TradingSettingsInput) => {
        const cur = settings.get(id) as TradingSettings
        const next = { ...cur, ...(input.mode ? { mode: input.mode } : {}) }
        settings.set(id, next)
        return { ok: true, value: next }
      },
    },
    book: () => book(),
    eventOf: () => 'e1',
    account,
    journal,
    feeCents: takerFeeCents,
    refreshAccount: () => undefined,
    changed: () => void changed++,
    journalled: () => undefined,
    // Reconcile and pace waits move the test clock instead of real time.
    sleep: async (ms) => {
      clock.now += ms
      await new Promise((r) => setImmediate(r))
    },
  })
  return { svc, venue, account, journal, settings, profile, clock, changes: () => changed, dir }
}

let intentNo = 0
function request(partial: Partial<OrderRequest> = {}): OrderRequest {
  return {
    intentId: `intent-${String(++intentNo).padStart(6, '0')}`,
    profileId: 'demo',
    mode: 'live',
    market: 'm1',
    side: 'buy',
    outcome: 'YES',
    kind: 'limit',
    priceTicks: 40,
    quantity: 10,
    clickedAt: 1_800_000_000_000,
    ...partial,
  }
}

function refused(r: Result<unknown>): ApiError {
  if (r.ok) throw new Error('expected a refusal')
  return r.error
}

describe('one intent, one order', () => {
  it('sends an intent once, whatever arrives after: repeats return the first order', async () => {
    const r = rig()
    const req = request()
    const first = await r.svc.place(req, 'any')
    const again = await r.svc.place({ ...req }, 'any')
    expect(first.ok && again.ok && first.value.id === again.value.id).toBe(true)
    expect(r.venue.places()).toHaveLength(1)
  })

  it('two presses of one intent arriving together (a held key, a double click) send one order', async () => {
    const r = rig()
    let release: (v: TradeResult) => void = () => undefined
    r.venue.answers.push((req) => new Promise((res) => (release = () => res(accepted(req)))))
    const req = request()
    const a = r.svc.place(req, 'any')
    const b = r.svc.place(req, 'any')
    await waitFor(() => r.venue.places().length === 1, 'the one send')
    release(accepted(r.venue.places()[0] as TradeRequest))
    const [ra, rb] = await Promise.all([a, b])
    expect(r.venue.places()).toHaveLength(1)
    expect(ra.ok && rb.ok && ra.value.id === rb.value.id).toBe(true)
  })
})

describe('what the window showed', () => {
  it('refuses, sending nothing, when the profile or the mode differs from the engine’s', async () => {
    const r = rig('live')
    expect(refused(await r.svc.place(request({ profileId: 'other' }), 'any')).code).toBe('mode_changed')
    expect(refused(await r.svc.place(request({ mode: 'paper' }), 'any')).code).toBe('mode_changed')
    r.settings.set('demo', { ...(r.settings.get('demo') as TradingSettings), mode: 'paper' })
    // The window still shows live: a live order must never leave while the engine is in paper.
    expect(refused(await r.svc.place(request({ mode: 'live' }), 'any')).code).toBe('mode_changed')
    expect(r.venue.sent).toHaveLength(0)
  })

  it('refuses everything while trading is off', async () => {
    const r = rig('off')
    const e = refused(await r.svc.place(request(), 'any'))
    expect(e.code).toBe('off')
    expect(e.message).toMatch(/status bar/)
    expect(r.venue.sent).toHaveLength(0)
  })
})

describe('limits and warnings', () => {
  it('refuses an order over the contracts or money limit, or past the open orders limit, naming it', async () => {
    const r = rig()
    const big = refused(await r.svc.place(request({ quantity: DEFAULT_LIMITS.maxContracts + 1 }), 'any'))
    expect(big).toMatchObject({ code: 'too_large', field: 'quantity' })
    expect(big.message).toMatch(/limit of 1,000 an order/)
    // With R$ 100 an order: 250 at 40¢ (resting, no fee) is R$ 100 and goes; 251 is over.
    r.settings.set('demo', {
      ...(r.settings.get('demo') as TradingSettings),
      limits: { ...DEFAULT_LIMITS, maxOrderValue: 100 },
    })
    const dear = refused(await r.svc.place(request({ quantity: 251 }), 'any'))
    expect(dear).toMatchObject({ code: 'too_large', field: 'quantity' })
    expect(dear.message).toMatch(/R\$ 100\.40, over this profile's limit of R\$ 100\.00/)
    expect((await r.svc.place(request({ quantity: 250 }), 'any')).ok).toBe(true)
    r.settings.set('demo', {
      ...(r.settings.get('demo') as TradingSettings),
      limits: { ...DEFAULT_LIMITS, maxOpenOrders: 2 },
    })
    expect((await r.svc.place(request({ priceTicks: 39 }), 'any')).ok).toBe(true)
    expect(refused(await r.svc.place(request({ priceTicks: 38 }), 'any')).code).toBe('too_many_orders')
    expect(r.venue.places()).toHaveLength(2)
  })

  it('asks before a limit more than farTicks through the touch, and sends it once accepted', async () => {
    const r = rig()
    // The best ask is 42: a buy at 48 is 6 ticks through (over 5), at 47 only 5.
    const far = request({ priceTicks: 48 })
    const e = refused(await r.svc.place(far, 'any'))
    expect(e).toMatchObject({ code: 'confirm', confirm: ['far_through'] })
    expect(r.venue.sent).toHaveLength(0)
    expect((await r.svc.place(request({ priceTicks: 47 }), 'any')).ok).toBe(true)
    expect((await r.svc.place({ ...far, confirmed: ['far_through'] }, 'any')).ok).toBe(true)
    expect(r.venue.places()).toHaveLength(2)
  })

  it('asks before a second identical order within a second, not after', async () => {
    const r = rig()
    expect((await r.svc.place(request(), 'any')).ok).toBe(true)
    const twin = request()
    expect(refused(await r.svc.place(twin, 'any'))).toMatchObject({ code: 'confirm', confirm: ['duplicate'] })
    expect((await r.svc.place({ ...twin, confirmed: ['duplicate'] }, 'any')).ok).toBe(true)
    r.clock.now += 1_001
    expect((await r.svc.place(request(), 'any')).ok).toBe(true)
    expect(r.venue.places()).toHaveLength(3)
  })
})

describe('a POST is never retried', () => {
  it('a lost answer leaves the order unknown, and the venue’s open orders settle it, with one send', async () => {
    const r = rig()
    r.venue.answers.push(() => lost('maybe'))
    const sentAt = r.clock.now
    // What the venue did with it: it rests there, under its own id.
    r.venue.openOrders = [
      {
        id: 'v-lost',
        market_id: 'm1',
        outcome: 'YES',
        side: 'BUY',
        price_ticks: 40,
        quantity: 10,
        filled_quantity: 0,
        created_at: new Date(sentAt).toISOString(),
      },
    ]
    const e = refused(await r.svc.place(request(), 'any'))
    expect(e.code).toBe('network')
    expect(e.message).toMatch(/never be sent again/)
    const id = e.orderId as string
    expect(r.svc.account().orders.find((o) => o.id === id)?.state).toBe('unknown')
    await waitFor(() => r.svc.account().orders.find((o) => o.id === id)?.state === 'open', 'reconciled')
    expect(r.svc.account().orders.find((o) => o.id === id)?.venueId).toBe('v-lost')
    expect(r.venue.places()).toHaveLength(1)
  })

  it('found executed in the activity it is filled; found nowhere by the last read it was not placed', async () => {
    const r = rig()
    r.venue.answers.push(() => lost('maybe'))
    r.venue.activity = [
      {
        market_id: 'm1',
        contract_type: 'YES',
        side: 'BUY',
        price_ticks: 40,
        quantity: 10,
        created_at: new Date(r.clock.now).toISOString(),
      },
    ]
    const filled = refused(await r.svc.place(request(), 'any')).orderId as string
    await waitFor(() => r.svc.account().orders.find((o) => o.id === filled)?.state === 'filled', 'filled')
    r.venue.activity = []
    r.venue.answers.push(() => lost('maybe'))
    const gone = refused(await r.svc.place(request({ priceTicks: 30 }), 'any')).orderId as string
    await waitFor(() => r.svc.account().orders.find((o) => o.id === gone)?.state === 'rejected', 'not placed')
    expect(r.svc.account().orders.find((o) => o.id === gone)?.reason).toMatch(/not placed/)
    expect(r.venue.places()).toHaveLength(2)
  })

  it('an execution larger than the order is not the lost order’s', async () => {
    const r = rig()
    // Someone else's trade on the same account (an order placed on VoxFi's site): 20 contracts, within the limit.
    r.venue.activity = [
      {
        market_id: 'm1',
        contract_type: 'YES',
        side: 'BUY',
        price_ticks: 38,
        quantity: 20,
        created_at: new Date(r.clock.now).toISOString(),
      },
    ]
    r.venue.answers.push(() => lost('maybe'))
    const id = refused(await r.svc.place(request({ quantity: 8 }), 'any')).orderId as string
    await waitFor(() => r.svc.account().orders.find((o) => o.id === id)?.state === 'rejected', 'not placed')
    expect(r.venue.places()).toHaveLength(1)
  })

  it('reads the market’s activity page after page while it reaches back to the send', async () => {
    const r = rig()
    const at = new Date(r.clock.now + 500).toISOString()
    const other = othersExecution(r.clock.now + 500)
    const mine = {
      market_id: 'm1',
      contract_type: 'YES',
      side: 'BUY',
      price_ticks: 40,
      quantity: 10,
      created_at: at,
    }
    // A busy account: a full page of other executions since the send stands before the order's own.
    r.venue.activityPages = (page) =>
      page === 1 ? Array.from({ length: 50 }, () => other) : page === 2 ? [mine] : []
    r.venue.answers.push(() => lost('maybe'))
    const id = refused(await r.svc.place(request(), 'any')).orderId as string
    await waitFor(() => r.svc.account().orders.find((o) => o.id === id)?.state === 'filled', 'filled')
    expect(r.venue.paths.filter((p) => p.startsWith('/data/activity')).slice(0, 2)).toEqual([
      '/data/activity?marketId=m1&page=1&pageSize=50',
      '/data/activity?marketId=m1&page=2&pageSize=50',
    ])
  })

  it('activity pages that never reach back to the send are no answer: the order stays unknown, never "not placed"', async () => {
    const r = rig()
    const other = othersExecution(r.clock.now + 500)
    // More executions since the send than the look reads: the order's own could be on a page it never reached.
    r.venue.activityPages = () => Array.from({ length: 50 }, () => other)
    r.venue.answers.push(() => lost('maybe'))
    const id = refused(await r.svc.place(request(), 'any')).orderId as string
    // Five looks of four pages: past the last of RECONCILE_AT_MS, where an order found nowhere is called not placed.
    await waitFor(
      () => r.venue.paths.filter((p) => p.startsWith('/data/activity')).length >= 20,
      'looks past the last',
    )
    expect(r.svc.account().orders.find((o) => o.id === id)?.state).toBe('unknown')
    expect(r.venue.places()).toHaveLength(1)
  })

  it('a server error or VoxFi’s -1 is not a refusal: the order may have executed, so it is reconciled', async () => {
    const r = rig()
    r.venue.answers.push(() => venueError(500, { error: 'boom' }))
    const e = refused(await r.svc.place(request(), 'any'))
    expect(r.svc.account().orders.find((o) => o.id === e.orderId)?.state).toBe('unknown')
    r.venue.answers.push(() => venueError(400, { error: 'unexpected error', error_code: '-1' }))
    const f = refused(await r.svc.place(request({ priceTicks: 30 }), 'any'))
    expect(r.svc.account().orders.find((o) => o.id === f.orderId)?.state).toBe('unknown')
  })

  it('a request that certainly never left (the connection refused) is rejected, not unknown', async () => {
    const r = rig()
    r.venue.answers.push(() => lost('no'))
    const e = refused(await r.svc.place(request(), 'any'))
    expect(r.svc.account().orders.find((o) => o.id === e.orderId)?.state).toBe('rejected')
  })
})

describe('what the venue refuses', () => {
  it('each PO code in words at the ticket, with the field; PO7 blocks live orders until another key', async () => {
    const r = rig()
    r.venue.answers.push(() => venueError(400, { error: 'insufficient balance', error_code: 'PO3' }))
    expect(refused(await r.svc.place(request(), 'any'))).toMatchObject({
      code: 'venue_refused',
      venueCode: 'PO3',
      field: 'quantity',
    })
    r.venue.answers.push(() => venueError(403, { error: 'permission denied', error_code: 'PO7' }))
    const denied = refused(await r.svc.place(request({ priceTicks: 30 }), 'any'))
    expect(denied).toMatchObject({ code: 'permission', venueCode: 'PO7' })
    expect(denied.message).toMatch(/Profile → Security/)
    expect(denied.message).not.toMatch(/IP/)
    expect(r.svc.account().trading.blocked?.code).toBe('permission')
    const sends = r.venue.sent.length
    expect(refused(await r.svc.place(request({ priceTicks: 31 }), 'any')).code).toBe('permission')
    expect(r.venue.sent).toHaveLength(sends)
    r.svc.keyChanged()
    expect(r.svc.account().trading.blocked).toBeNull()
    expect((await r.svc.place(request({ priceTicks: 32 }), 'any')).ok).toBe(true)
  })

  it('a 403 "permission denied" without a code is the same lasting state, never "IP not allowed"', async () => {
    const r = rig()
    r.venue.answers.push(() => venueError(403, { error: 'permission denied' }))
    expect(refused(await r.svc.place(request(), 'any')).code).toBe('permission')
    expect(r.svc.account().trading.blocked?.message).toMatch(/cannot create orders/)
  })

  it('429 says how long to wait; 406 says the market is closed', async () => {
    const r = rig()
    r.venue.answers.push(() => venueError(429, { error: 'rate limit exceeded', retry_after: 7 }, 7_000))
    expect(refused(await r.svc.place(request(), 'any'))).toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 7_000,
    })
    r.venue.answers.push(() => venueError(406, { error: 'market closed' }))
    expect(refused(await r.svc.place(request({ priceTicks: 30 }), 'any')).code).toBe('market_closed')
  })

  it('a cancel answered 404 without a code is a lasting, named path refusal', async () => {
    const r = rig()
    const placed = await r.svc.place(request(), 'any')
    if (!placed.ok) throw new Error('not placed')
    r.venue.answers.push(() => venueError(404, { error: 'not found' }))
    const e = refused(await r.svc.cancel(placed.value.id))
    expect(e.code).toBe('path_refused')
    expect(e.message).toMatch(/DELETE \/v1\/trade\/order\/\{id\}/)
    expect(r.svc.account().trading.blocked?.code).toBe('path_refused')
    // The order is still open, as far as anything says.
    expect(r.svc.account().orders.find((o) => o.id === placed.value.id)?.state).toBe('open')
  })
})

describe('cancel-all', () => {
  it('cancels every working order, the in-flight one as soon as the venue names it, and holds new ones', async () => {
    const r = rig()
    for (let i = 0; i < 3; i++) await r.svc.place(request({ priceTicks: 30 + i }), 'any')
    let release: () => void = () => undefined
    r.venue.answers.push((req) => new Promise((res) => (release = () => res(accepted(req)))))
    const inFlight = r.svc.place(request({ priceTicks: 20 }), 'any')
    await waitFor(() => r.venue.places().length === 4, 'the fourth order on its way')
    const all = r.svc.cancelAll()
    // While it runs, new orders wait.
    expect(refused(await r.svc.place(request({ priceTicks: 10 }), 'any')).code).toBe('busy')
    const result = await all
    expect(result.ok && result.value).toMatchObject({ asked: 4, cancelled: 3, deferred: 1 })
    release()
    const placed = await inFlight
    if (!placed.ok) throw new Error('not placed')
    await waitFor(() => r.venue.cancels().length === 4, 'the in-flight order cancelled once named')
    await waitFor(() => r.svc.account().orders.every((o) => o.state === 'cancelled'), 'every order cancelled')
  })

  it('keeps to its pace: never more than CANCEL_RATE_PER_S cancels started in any second', async () => {
    const r = rig()
    r.settings.set('demo', {
      ...(r.settings.get('demo') as TradingSettings),
      limits: { ...DEFAULT_LIMITS, maxOpenOrders: 100 },
    })
    for (let i = 0; i < 60; i++) {
      const placed = await r.svc.place(request({ priceTicks: 1 + (i % 40), quantity: 1 + i }), 'any')
      expect(placed.ok).toBe(true)
    }
    const startedAt: number[] = []
    r.venue.fallback = (req) => {
      if (req.method === 'DELETE') startedAt.push(r.clock.now)
      return accepted(req)
    }
    const result = await r.svc.cancelAll()
    expect(result.ok && result.value.cancelled).toBe(60)
    for (const t of startedAt) {
      expect(startedAt.filter((u) => u >= t && u < t + 1_000).length).toBeLessThanOrEqual(CANCEL_RATE_PER_S)
    }
  })

  it('sends a cancel the rate limit refused again after its wait (a 429 executed nothing)', async () => {
    const r = rig()
    const placed = await r.svc.place(request(), 'any')
    if (!placed.ok) throw new Error('not placed')
    r.venue.answers.push(() => venueError(429, { error: 'rate limit exceeded' }, 2_000))
    const before = r.clock.now
    const result = await r.svc.cancelAll()
    expect(result.ok && result.value.cancelled).toBe(1)
    expect(r.venue.cancels()).toHaveLength(2)
    expect(r.clock.now - before).toBeGreaterThanOrEqual(2_000)
  })
})

describe('paper', () => {
  it('sends nothing to the venue, and fills only on a print at or through its price, never a touch', async () => {
    const r = rig('paper')
    const placed = await r.svc.place(request({ mode: 'paper', priceTicks: 40, quantity: 10 }), 'any')
    if (!placed.ok) throw new Error(placed.error.message)
    expect(placed.value).toMatchObject({ mode: 'paper', state: 'open' })
    expect(r.venue.sent).toHaveLength(0)
    // A print above its price: nothing.
    r.svc.onPrint('m1', 0.41, 100)
    expect(r.svc.account().orders[0]?.filled).toBe(0)
    // At its price, for less than it wants: partly filled, at its own price.
    r.svc.onPrint('m1', 0.4, 4)
    expect(r.svc.account().orders[0]).toMatchObject({
      state: 'partially_filled',
      filled: 4,
      avgFillTicks: 40,
    })
    // Through it: the rest.
    r.svc.onPrint('m1', 0.35, 50)
    expect(r.svc.account().orders[0]).toMatchObject({ state: 'filled', filled: 10 })
    const view = r.svc.account()
    expect(view.fills.every((f) => f.mode === 'paper')).toBe(true)
    expect(view.paper.positions[0]).toMatchObject({ market: 'm1', contracts: 10, outcome: 'yes' })
    expect(view.paper.balance.total).toBeCloseTo(10_000 - 4, 6)
    expect(r.venue.sent).toHaveLength(0)
  })

  it('a NO order compares the print’s NO price, and a sell needs paper contracts to sell', async () => {
    const r = rig('paper')
    const noBuy = await r.svc.place(
      request({ mode: 'paper', outcome: 'NO', side: 'buy', priceTicks: 55, quantity: 5 }),
      'any',
    )
    expect(noBuy.ok).toBe(true)
    // A YES print at 0.50 is a NO price of 0.50: at or through 55.
    r.svc.onPrint('m1', 0.5, 5)
    expect(r.svc.account().orders.find((o) => o.outcome === 'NO')?.state).toBe('filled')
    expect(
      refused(
        await r.svc.place(request({ mode: 'paper', outcome: 'YES', side: 'sell', priceTicks: 60 }), 'any'),
      ).venueCode,
    ).toBe('PO4')
  })
})

describe('who may trade what', () => {
  it('a browser page without --allow-trading reaches the built-in simulator only', async () => {
    const venueProfile = rig('live', false)
    const e = refused(await venueProfile.svc.place(request({ profileId: 'desk' }), 'builtin-simulator'))
    expect(e.code).toBe('trading_disabled')
    expect(e.message).toMatch(/--allow-trading/)
    expect(venueProfile.venue.sent).toHaveLength(0)
    expect((await venueProfile.svc.place(request({ profileId: 'desk' }), 'any')).ok).toBe(true)
    const demo = rig('live', true)
    expect((await demo.svc.place(request(), 'builtin-simulator')).ok).toBe(true)
  })

  it('no live order during a replay; paper goes on', async () => {
    const r = rig('live')
    r.profile.replay = true
    expect(refused(await r.svc.place(request(), 'any')).code).toBe('trading_disabled')
    expect(r.venue.sent).toHaveLength(0)
  })
})

describe('the journal', () => {
  it('writes each request before it leaves and its answer after, never with the key', async () => {
    const r = rig()
    await r.svc.place(request(), 'any')
    r.venue.answers.push(() => venueError(400, { error: 'invalid price', error_code: 'PO1' }))
    await r.svc.place(request({ priceTicks: 30 }), 'any')
    const entries = r.journal.readDay(new Date(r.clock.now).toISOString().slice(0, 10).replace(/-/g, ''))
    expect(entries.map((e) => `${e.action} ${e.outcome}${e.code ? ` ${e.code}` : ''}`)).toEqual([
      'place sent',
      'place accepted',
      'place sent',
      'place rejected PO1',
    ])
    expect(JSON.stringify(entries)).not.toContain('sk_test_')
  })
})

describe('an order that left the venue’s open list', () => {
  let seq = 0
  /** A fill as the user channel brings it (VoxFi's `order-info`: no order id). */
  function fill(r: Rig, priceTicks: number, size: number): void {
    const u: UserUpdateView = {
      seq: ++seq,
      topic: 'fill',
      market: 'm1',
      data: { market: 'm1', side: 'buy', outcome: 'yes', price: priceTicks / 100, size },
      receivedAt: r.clock.now,
    }
    r.account.apply([u])
  }
  function openRow(r: Rig, venueId: string, priceTicks: number, size: number, filled: number): void {
    const u: UserUpdateView = {
      seq: ++seq,
      topic: 'order',
      market: 'm1',
      data: {
        id: venueId,
        market: 'm1',
        side: 'buy',
        outcome: 'yes',
        price: priceTicks / 100,
        size,
        filled,
        status: 'open',
      },
      receivedAt: r.clock.now,
    }
    r.account.apply([u])
  }
  async function resting(r: Rig, priceTicks: number, quantity: number): Promise<OrderView> {
    const placed = await r.svc.place(request({ priceTicks, quantity }), 'any')
    if (!placed.ok) throw new Error(placed.error.message)
    expect(placed.value.state).toBe('open')
    r.clock.now += 2_000
    return placed.value
  }
  const stateOf = (r: Rig, o: OrderView): string | undefined =>
    r.svc.account().orders.find((x) => x.id === o.id)?.state

  it('is filled by fills at its price or better, never by another order’s through its limit', async () => {
    const r = rig()
    // The older order is looked at first: without the price rule it would take the other's fill.
    const low = await resting(r, 35, 10)
    const high = await resting(r, 40, 10)
    fill(r, 40, 10)
    r.clock.now += 1_000
    r.svc.venueOrdersRead(r.clock.now)
    expect(stateOf(r, high)).toBe('filled')
    expect(stateOf(r, low)).toBe('cancelled')
  })

  it('one fill is one order’s: two orders alike, one filled, one cancelled', async () => {
    const r = rig()
    const first = await resting(r, 40, 10)
    const second = await resting(r, 40, 10)
    fill(r, 40, 6)
    fill(r, 40, 4)
    r.clock.now += 1_000
    r.svc.venueOrdersRead(r.clock.now)
    expect([stateOf(r, first), stateOf(r, second)]).toEqual(['filled', 'cancelled'])
  })

  it('counts the executions its own answer named, and no other order’s', async () => {
    const r = rig()
    // Partly executed on arrival (4 of 10, named in the answer), the rest rests.
    const named = (rest: string) => (): TradeResult => ({
      ok: true,
      value: {
        status: 200,
        body: {
          success: true,
          message: 'ok',
          resting_order_id: rest,
          trades: [
            { maker_user_id: 'u9', outcome: 'YES', price_ticks: 40, quantity: 4, trade_id: `t-${rest}` },
          ],
        },
      },
    })
    r.venue.answers.push(named('v-a'))
    const a = await r.svc.place(request({ priceTicks: 40, quantity: 10 }), 'any')
    r.clock.now += 2_000
    r.venue.answers.push(named('v-b'))
    const b = await r.svc.place(request({ priceTicks: 40, quantity: 8 }), 'any')
    if (!a.ok || !b.ok) throw new Error('placed')
    r.clock.now += 2_000
    fill(r, 40, 4)
    fill(r, 40, 4)
    fill(r, 40, 6)
    r.clock.now += 1_000
    r.svc.venueOrdersRead(r.clock.now)
    // a: its named 4 and the 6 after; b: its named 4 only, and nothing else is left for it.
    expect([stateOf(r, a.value), stateOf(r, b.value)]).toEqual(['filled', 'cancelled'])
  })

  it('what a working order has filled at the venue is not another’s', async () => {
    const r = rig()
    const working = await resting(r, 40, 10)
    const gone = await resting(r, 41, 5)
    fill(r, 40, 5)
    openRow(r, working.venueId as string, 40, 10, 5)
    r.clock.now += 1_000
    r.svc.venueOrdersRead(r.clock.now)
    expect(stateOf(r, working)).toBe('partially_filled')
    expect(stateOf(r, gone)).toBe('cancelled')
  })

  it('a lost order whose execution can be a working order’s stays unknown and says so: neither filled nor not placed', async () => {
    const r = rig()
    const working = await resting(r, 40, 10)
    r.venue.answers.push(() => lost('maybe'))
    const id = refused(await r.svc.place(request({ priceTicks: 40, quantity: 5 }), 'any')).orderId as string
    // Then the venue's list says the working order has filled 5, and its activity holds one execution of 5 at 40
    // since the send: the working order's, or the lost one's.
    openRow(r, working.venueId as string, 40, 10, 5)
    r.svc.venueOrdersRead(r.clock.now)
    r.venue.activity = [
      {
        market_id: 'm1',
        contract_type: 'YES',
        side: 'BUY',
        price_ticks: 40,
        quantity: 5,
        created_at: new Date(r.clock.now).toISOString(),
      },
    ]
    const lostOrder = () => r.svc.account().orders.find((o) => o.id === id)
    await waitFor(() => lostOrder()?.reason === CANNOT_TELL, 'the reconciliation to give its doubt')
    expect(lostOrder()?.state).toBe('unknown')
    expect(stateOf(r, working)).toBe('partially_filled')
    expect(r.venue.places()).toHaveLength(2)
    expect(
      r.journal
        .today()
        .filter((e) => e.orderId === id)
        .map((e) => e.outcome),
    ).toEqual(['sent', 'unknown', 'reconciled'])
  })
})
