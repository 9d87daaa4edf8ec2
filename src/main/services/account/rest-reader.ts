// The account from the venue's REST (VoxFi): its user channel pushes only order executions, never balances or
// positions, so balance, positions, open orders and recent activity are read over REST when the account is
// first wanted, soon after every execution the stream reports, and on a slow timer, always inside the rate
// limit. Each answer becomes the same user updates a pushing venue would send (docs/voxfi.md, "Account"), in
// our units: prices 0–1 from ticks, money in reais from centavos, so the account pane and the alert rules
// read one model whatever the venue.
import type { ApiError, Outcome, Result, Update } from '../../../shared/model'
import type { AccountEndpoint } from '../../../shared/trading'
import { isObj, listOf, pickNum, pickStr as pickText, type FillRow, type Obj } from '../../../shared/account'
import type { Logger } from '../base/types'
import { ACTIVITY_PAGE_SIZE, activityPath, activitySince } from './activity-pages'
import { GAP_SKEW_MS, missingFills } from './gap-fills'

/** How long after the connection is back its replayed user subscription has surely taken effect. */
const RESUBSCRIBED_MS = 2_000

/** How many activity pages a read after a drop goes back through at most (the simulator allows 120 reads a minute). */
const GAP_PAGES = 10

type UserUpdate = Extract<Update, { kind: 'user' }>

export interface AccountRest {
  get(path: string, apiKey: string): Promise<Result<unknown>>
}

/**
 * Where VoxFi keeps the account. Its docs name these reads ("Get User Balance and Totals", "Get Portfolio",
 * "List User Orders", "Get User Activity") without their paths: these are our choice, one place to change.
 */
export const ACCOUNT_PATHS = {
  balance: '/data/wallet/balance',
  portfolio: '/data/wallet/portfolio',
  orders: '/data/orders',
  activity: activityPath(1),
} as const

export interface AccountReaderDeps {
  rest(): AccountRest | null
  /** The stored key of the active profile: the account is never read with a borrowed one. */
  key(): Promise<string | null>
  /** Whether some window (or alert rule) wants the account, and the venue is one whose account lives in REST. */
  wanted(): boolean
  /** Each read's records, as user updates. */
  push(updates: readonly UserUpdate[], at: number): void
  /** Each read's outcome: the account says which reads could not be done, and why. */
  readResult?(endpoint: AccountEndpoint, at: number, error: ApiError | null): void
  /**
   * The open orders were read (after their updates were pushed): the orders service settles what left the list.
   * `askedAt`: when the list was asked for, the moment it speaks of.
   */
  ordersRead?(askedAt: number): void
  /** The account's fills as it holds them (newest first): what a gap's activity read is compared with. */
  fills?(): readonly FillRow[]
  log: Logger
  now(): number
  /** Between reads while nothing happens (default 30 s): four requests a round, well inside VoxFi's limit. */
  intervalMs?: number
  /** After an execution, the read waits this long for the rest of a burst (default 750 ms). */
  settleMs?: number
  /** Executions never make rounds closer than this (default 5 s): an active account costs at most 36 reads a minute. */
  minGapMs?: number
}

const CURRENCY = 'BRL'

// The venue's text travels in every window's account rows: a runaway field is cut there, not passed on.
function pickStr(o: Obj, names: readonly string[]): string | null {
  return pickText(o, names)?.slice(0, 200) ?? null
}

const ticks = (v: number | null): number | null => (v === null ? null : v / 100)
const reais = (v: number | null): number | null => (v === null ? null : v / 100)

function outcomeOf(o: Obj): Outcome {
  const v = pickStr(o, ['contract_type', 'outcome', 'option'])
  return v !== null && v.toUpperCase() === 'NO' ? 'no' : 'yes'
}

function sideOf(o: Obj): 'buy' | 'sell' | null {
  const v = pickStr(o, ['side'])?.toUpperCase()
  return v === 'BUY' ? 'buy' : v === 'SELL' ? 'sell' : null
}

function user(topic: UserUpdate['topic'], market: string | null, data: Obj): UserUpdate {
  return { kind: 'user', topic, market, data }
}

/** The wallet's balance and totals: centavos to reais. */
export function balanceUpdate(body: unknown): UserUpdate | null {
  const b = isObj(body) && isObj(body.data) ? body.data : body
  if (!isObj(b)) return null
  const total = reais(pickNum(b, ['total_balance', 'balance']))
  const available = reais(pickNum(b, ['available']))
  if (total === null && available === null) return null
  return user('balance', null, {
    currency: CURRENCY,
    total,
    available,
    locked: reais(pickNum(b, ['locked_waiting_orders'])),
    realized_pnl: reais(pickNum(b, ['total_realized_pnl'])),
    unrealized_pnl: reais(pickNum(b, ['total_unrealized_pnl'])),
    raw: b,
  })
}

/**
 * A position in YES terms, so that one row per market marks to the YES book: NO contracts held are a short
 * YES position at 1 − their price (`outcome` and `contracts` keep what the venue said).
 */
export function positionUpdates(body: unknown): UserUpdate[] {
  const out: UserUpdate[] = []
  for (const p of listOf(body, ['positions', 'portfolio'])) {
    const market = pickStr(p, ['market_id', 'market', 'marketId'])
    const contracts = pickNum(p, ['quantity', 'qty_contracts', 'contracts', 'size'])
    if (market === null || contracts === null) continue
    const outcome = outcomeOf(p)
    const avg = ticks(pickNum(p, ['avg_price', 'average_price', 'avg_price_ticks', 'price_ticks']))
    out.push(
      user('position', market, {
        market,
        size: outcome === 'no' ? -contracts : contracts,
        avg_price: avg === null ? null : outcome === 'no' ? 1 - avg : avg,
        pnl: reais(pickNum(p, ['unrealized_pnl', 'pnl'])),
        realized_pnl: reais(pickNum(p, ['realized_pnl'])),
        outcome,
        contracts,
        raw: p,
      }),
    )
  }
  return out
}

/** Open orders; `seen` is the previous read's ids, so that an order that left the list closes its row. */
export function orderUpdates(
  body: unknown,
  seen: ReadonlySet<string>,
): { updates: UserUpdate[]; ids: Set<string> } {
  const updates: UserUpdate[] = []
  const ids = new Set<string>()
  for (const o of listOf(body, ['orders'])) {
    const id = pickStr(o, ['id', 'order_id', 'orderId'])
    if (id === null) continue
    ids.add(id)
    const market = pickStr(o, ['market_id', 'market', 'marketId'])
    const status = pickStr(o, ['status', 'order_status'])
    updates.push(
      user('order', market, {
        id,
        market,
        side: sideOf(o),
        outcome: outcomeOf(o),
        price: ticks(pickNum(o, ['price_ticks', 'price'])),
        size: pickNum(o, ['quantity', 'wanted', 'size']),
        filled: pickNum(o, ['filled', 'filled_quantity']),
        status: status === null ? 'open' : status.toLowerCase(),
        raw: o,
      }),
    )
  }
  for (const id of seen) {
    if (!ids.has(id)) updates.push(user('order', null, { id, status: 'closed' }))
  }
  return { updates, ids }
}

/** The activity page's executions, as fills (the stream's `order-info` brings the ones after start). */
export function activityUpdates(body: unknown): UserUpdate[] {
  const out: UserUpdate[] = []
  for (const a of listOf(body, ['activity', 'activities'])) {
    const price = ticks(pickNum(a, ['price_ticks', 'price']))
    const size = pickNum(a, ['quantity', 'qty_contracts'])
    if (price === null || size === null) continue
    const market = pickStr(a, ['market_id', 'market', 'marketId'])
    const ts = pickStr(a, ['created_at'])
    const id = pickStr(a, ['id', 'trade_id'])
    out.push(
      user('fill', market, {
        ...(id !== null ? { id } : {}),
        market,
        side: sideOf(a),
        outcome: outcomeOf(a),
        price,
        size,
        ...(ts !== null ? { created_at: ts } : {}),
        raw: a,
      }),
    )
  }
  // Oldest first, as fills arrive.
  return out.reverse()
}

/** A read this round could not make (the endpoint refused it): its records are left as they were. */
const NOT_READ: unique symbol = Symbol('not read')

class RoundOver extends Error {}

export class AccountReader {
  private timer: NodeJS.Timeout | null = null
  private dueAt: number | null = null
  private lastRoundAt: number | null = null
  private running = false
  private again = false
  private client: AccountRest | null = null
  private orderIds = new Set<string>()
  private backfilled = false
  /** When the user channel went down, until an activity read has brought what it missed (gap-fills.ts). */
  private gapSince: number | null = null
  /** When the channel came back; null while it is down. */
  private upSince: number | null = null
  private drops = 0
  /** What was last pushed per record, so a round that changed nothing pushes nothing. */
  private last = new Map<string, string>()
  private closed = false
  /** Bumped by reset(): a round begun for an earlier profile or key pushes nothing when its replies land. */
  private generation = 0

  constructor(private readonly d: AccountReaderDeps) {}

  /** Something changed (the account became wanted, a key was stored, a profile opened): read now. */
  refresh(): void {
    this.schedule(0)
  }

  /** The stream reported an execution: read once the burst has settled, and not sooner than minGapMs after the last. */
  executed(): void {
    const settle = this.d.settleMs ?? 750
    const gap = (this.lastRoundAt ?? -Infinity) + (this.d.minGapMs ?? 5_000) - this.d.now()
    const wait = Math.max(settle, gap)
    // An earlier read already due (a refresh, or the settle of this burst) is kept.
    if (this.timer !== null && this.dueAt !== null && this.dueAt <= this.d.now() + wait) return
    this.schedule(wait)
  }

  /**
   * The connection went down: executions made from now until the user channel is back reach the app only through
   * the activity, so rounds read it again and add what the account lacks, until one read it after the channel was
   * back (`userUp`) and had had time to resubscribe.
   */
  userDown(at: number): void {
    this.drops++
    this.upSince = null
    if (this.backfilled && this.gapSince === null) this.gapSince = at
  }

  /**
   * The connection is open again (its subscriptions are being replayed): the rounds from now read what the gap
   * missed, the last of them at least RESUBSCRIBED_MS after this.
   */
  userUp(at: number): void {
    this.upSince = at
  }

  /** Another profile or key: nothing of the old account is kept. */
  reset(): void {
    this.generation++
    this.client = null
    this.orderIds = new Set()
    this.backfilled = false
    this.gapSince = null
    this.upSince = null
    this.last = new Map()
  }

  /** Only records that changed since the last round: the user feed is history, not a polling log. */
  private changed(updates: readonly UserUpdate[]): UserUpdate[] {
    const out: UserUpdate[] = []
    for (const u of updates) {
      const data = u.data as Obj
      const id = u.topic === 'order' ? String(data.id) : u.topic === 'fill' ? '' : (u.market ?? '')
      if (u.topic === 'fill') {
        out.push(u)
        continue
      }
      const key = `${u.topic}:${id}`
      const text = JSON.stringify(data)
      if (this.last.get(key) === text) continue
      this.last.set(key, text)
      out.push(u)
    }
    return out
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(ms: number): void {
    if (this.closed) return
    if (this.timer) clearTimeout(this.timer)
    this.dueAt = this.d.now() + ms
    this.timer = setTimeout(() => {
      this.timer = null
      this.dueAt = null
      void this.read()
    }, ms)
    this.timer.unref?.()
  }

  private async read(): Promise<void> {
    if (this.running) {
      this.again = true
      return
    }
    this.running = true
    this.lastRoundAt = this.d.now()
    try {
      await this.round()
    } catch (e) {
      this.d.log.warn('account rest: read failed', { error: String(e) })
    } finally {
      this.running = false
      if (this.again) {
        this.again = false
        this.schedule(0)
      } else if (this.gapSince !== null && this.upSince !== null) {
        // The gap is still open with the channel back: read it again once the subscription has surely taken effect,
        // and never sooner than rounds are paced (a read refused, or activity that would not hold still, is not
        // asked for again at once).
        const due =
          Math.max(
            this.upSince + RESUBSCRIBED_MS + 250,
            (this.lastRoundAt ?? 0) + (this.d.minGapMs ?? 5_000),
          ) - this.d.now()
        if (this.dueAt === null || this.dueAt > this.d.now() + due) this.schedule(Math.max(0, due))
      } else if (this.timer === null) this.schedule(this.d.intervalMs ?? 30_000)
    }
  }

  /**
   * The activity made since the gap began, page after page (activity-pages.ts). More executions during one outage
   * than GAP_PAGES pages hold: the ones read are added, and the account says the fills lack older ones.
   */
  private async gapActivity(
    get: (endpoint: AccountEndpoint, path: string) => Promise<unknown>,
    gap: number,
  ): Promise<unknown> {
    const read = await activitySince(
      async (path) => {
        const body = await get('activity', path)
        return body === NOT_READ ? undefined : body
      },
      gap - GAP_SKEW_MS,
      GAP_PAGES,
    )
    if (read === undefined) return NOT_READ
    if (!read.complete) {
      const message =
        `more than ${GAP_PAGES * ACTIVITY_PAGE_SIZE} executions while the connection was down: ` +
        'the older of them are not among the fills shown (VoxFi’s site has them)'
      this.d.readResult?.('activity', this.d.now(), { code: 'incomplete', message })
      this.d.log.warn('account rest: the activity read after a drop did not reach back to it', {
        pages: GAP_PAGES,
      })
    }
    return read.rows
  }

  private async round(): Promise<void> {
    const rest = this.d.rest()
    if (rest === null || !this.d.wanted()) return
    if (rest !== this.client) {
      this.reset()
      this.client = rest
    }
    const generation = this.generation
    const stillCurrent = (): boolean =>
      generation === this.generation && rest === this.d.rest() && rest === this.client
    const key = await this.d.key()
    // After a switch (here, or between two reads below) the old venue is asked nothing more.
    if (key === null || !stillCurrent()) return
    /**
     * One read. A refusal of one endpoint stops only that read: a key without `read_wallet` still reads positions
     * and orders, and the account says which read failed and why. A 401 (the key itself is refused) or a 429 (every
     * request is held back) ends the round: the other reads would be refused the same way.
     */
    const get = async (endpoint: AccountEndpoint, path: string): Promise<unknown> => {
      if (!stillCurrent()) throw new RoundOver('profile switched')
      const r = await rest.get(path, key)
      if (!stillCurrent()) throw new RoundOver('profile switched')
      this.d.readResult?.(endpoint, this.d.now(), r.ok ? null : r.error)
      if (r.ok) return r.value
      if (
        r.error.code === 'unauthorized' ||
        r.error.code === 'rate_limited' ||
        r.error.code === 'ip_not_allowed'
      )
        throw new RoundOver(`${path}: ${r.error.code}`)
      this.d.log.info('account rest: a read was refused; the others go on', { path, code: r.error.code })
      return NOT_READ
    }
    try {
      const balanceBody = await get('balance', ACCOUNT_PATHS.balance)
      const portfolioBody = await get('portfolio', ACCOUNT_PATHS.portfolio)
      // The list is the venue's as of when it was asked for: an order answered while it was on its way may be
      // missing from it without having left the venue.
      const ordersAskedAt = this.d.now()
      const ordersBody = await get('orders', ACCOUNT_PATHS.orders)
      const gap = this.backfilled ? this.gapSince : null
      const drops = this.drops
      // Executions made before the channel's subscription took effect are in this read only if it comes after.
      const closesGap = this.upSince !== null && this.d.now() - this.upSince >= RESUBSCRIBED_MS
      // The first round reads the latest page (fills from before the app started); after a drop, everything since.
      const activityBody: unknown =
        gap !== null
          ? await this.gapActivity(get, gap)
          : this.backfilled
            ? NOT_READ
            : await get('activity', ACCOUNT_PATHS.activity)
      if (!stillCurrent()) return
      const balance = balanceBody === NOT_READ ? null : balanceUpdate(balanceBody)
      const positions = portfolioBody === NOT_READ ? [] : positionUpdates(portfolioBody)
      const orders = ordersBody === NOT_READ ? null : orderUpdates(ordersBody, this.orderIds)
      const activity = activityBody === NOT_READ ? [] : activityUpdates(activityBody)
      const fills = gap === null ? activity : missingFills(activity, this.d.fills?.() ?? [], gap)
      if (orders !== null) this.orderIds = orders.ids
      if (activityBody !== NOT_READ) {
        this.backfilled = true
        // A drop while this round was on its way is read again by the next one.
        if (gap !== null && closesGap && this.drops === drops) this.gapSince = null
      }
      const updates = this.changed([
        ...(balance ? [balance] : []),
        ...positions,
        ...(orders?.updates ?? []),
        ...fills,
      ])
      const at = this.d.now()
      if (updates.length > 0) this.d.push(updates, at)
      if (orders !== null) this.d.ordersRead?.(ordersAskedAt)
    } catch (e) {
      if (stillCurrent()) this.d.log.info('account rest: round stopped', { reason: String(e).slice(0, 200) })
    }
  }
}
