// The account read from VoxFi's REST: the docs' wallet example in reais, positions in YES terms, orders that leave
// the list closed, activity as fills, and a reader that pushes only what changed and stops on the first refusal.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import {
  ACCOUNT_PATHS,
  AccountReader,
  activityUpdates,
  balanceUpdate,
  orderUpdates,
  positionUpdates,
} from '../../../src/main/services/account/rest-reader'
import { positionKey, deriveAccount } from '../../../src/shared/account'
import type { Result, Update, UserUpdateView } from '../../../src/shared/model'
import { captureLogger, waitFor } from '../helpers'

type UserUpdate = Extract<Update, { kind: 'user' }>

function fixture(name: string): { url: string; example: unknown } {
  return JSON.parse(readFileSync(join(__dirname, '../../fixtures/voxfi', name), 'utf8')) as {
    url: string
    example: unknown
  }
}

function views(updates: readonly UserUpdate[]): UserUpdateView[] {
  return updates.map((u, i) => ({
    seq: i + 1,
    topic: u.topic,
    market: u.market,
    data: u.data,
    receivedAt: 1000,
  }))
}

/** An account with a balance and nothing else; `seen` hears each path asked for. */
function quietAccount(seen: (path: string) => void): { get(path: string): Promise<Result<unknown>> } {
  return {
    get: async (path) => {
      seen(path)
      return { ok: true, value: path === ACCOUNT_PATHS.balance ? { total_balance: 10000 } : [] }
    },
  }
}

describe('VoxFi account over REST', () => {
  it('reads the docs wallet example as R$ from centavos (https://docs.voxfi.com.br/en/api/wallets)', () => {
    const u = balanceUpdate(fixture('rest-wallet-balance.json').example)
    expect(u).not.toBeNull()
    const account = deriveAccount(views([u as UserUpdate]))
    expect(account.balances.BRL).toMatchObject({ currency: 'BRL', total: 26988.8, available: 9956.1 })
    expect((u?.data as Record<string, unknown>).unrealized_pnl).toBe(1910.97)
  })

  it('holds NO contracts as a short YES position at 1 − price, keeping what the venue said', () => {
    const updates = positionUpdates({
      data: [
        { market_id: 'm1', contract_type: 'YES', quantity: 10, avg_price: 40, unrealized_pnl: 150 },
        { market_id: 'm2', contract_type: 'NO', quantity: 4, avg_price: 70 },
        { market_id: 'm3' },
      ],
    })
    expect(updates).toHaveLength(2)
    const account = deriveAccount(views(updates))
    // Kept per market and outcome: a market's YES and NO rows are two positions.
    expect(account.positions[positionKey('m1', 'yes')]).toMatchObject({
      size: 10,
      avgPrice: 0.4,
      pnl: 1.5,
      outcome: 'yes',
      contracts: 10,
    })
    const no = account.positions[positionKey('m2', 'no')]
    expect(no?.size).toBe(-4)
    expect(no?.avgPrice).toBeCloseTo(0.3, 10)
    expect(no).toMatchObject({ outcome: 'no', contracts: 4 })
    expect((updates[1]?.data as Record<string, unknown>).outcome).toBe('no')
  })

  it('closes an order that left the open list', () => {
    const first = orderUpdates(
      [{ id: 'o1', market_id: 'm1', side: 'BUY', price_ticks: 40, quantity: 5 }],
      new Set(),
    )
    expect(deriveAccount(views(first.updates)).orders.o1).toMatchObject({ price: 0.4, size: 5, side: 'buy' })
    const second = orderUpdates([], first.ids)
    const account = deriveAccount(views([...first.updates, ...second.updates]))
    expect(account.orders.o1).toBeUndefined()
  })

  it('reads activity as fills, oldest first, in 0–1 prices', () => {
    const fills = activityUpdates([
      {
        market_id: 'm1',
        contract_type: 'YES',
        created_at: '2026-11-26T10:01:00Z',
        price_ticks: 41,
        quantity: 2,
        side: 'SELL',
      },
      {
        market_id: 'm1',
        contract_type: 'YES',
        created_at: '2026-11-26T10:00:00Z',
        price_ticks: 40,
        quantity: 3,
        side: 'BUY',
      },
    ])
    const account = deriveAccount(views(fills))
    expect(account.fills.map((f) => [f.price, f.size, f.side])).toEqual([
      [0.41, 2, 'sell'],
      [0.4, 3, 'buy'],
    ])
  })

  it('reads each endpoint once a round, pushes only what changed, and stops a round at a refusal', async () => {
    const calls: string[] = []
    let refuse = false
    const bodies: Record<string, unknown> = {
      [ACCOUNT_PATHS.balance]: { total_balance: 10000, available: 5000 },
      [ACCOUNT_PATHS.portfolio]: [],
      [ACCOUNT_PATHS.orders]: [],
      [ACCOUNT_PATHS.activity]: [],
    }
    const rest = {
      get: async (path: string): Promise<Result<unknown>> => {
        calls.push(path)
        if (refuse)
          return { ok: false, error: { code: 'rate_limited', message: 'wait', retryAfterMs: 60_000 } }
        return { ok: true, value: bodies[path] }
      },
    }
    const pushed: UserUpdate[][] = []
    const reader = new AccountReader({
      rest: () => rest,
      key: async () => 'k-1234567890',
      wanted: () => true,
      push: (u) => pushed.push([...u]),
      log: captureLogger().logger,
      now: () => Date.now(),
      intervalMs: 60_000,
      settleMs: 5,
      minGapMs: 5,
    })
    try {
      reader.refresh()
      await waitFor(() => pushed.length === 1, 'the first round')
      expect(calls).toEqual(Object.values(ACCOUNT_PATHS))
      expect(pushed[0]?.map((u) => u.topic)).toEqual(['balance'])
      // An execution: the next round reads again, but activity only once, and an unchanged balance is not pushed.
      calls.length = 0
      reader.executed()
      await waitFor(() => calls.length === 3, 'the second round')
      expect(calls).not.toContain(ACCOUNT_PATHS.activity)
      await new Promise((r) => setTimeout(r, 30))
      expect(pushed).toHaveLength(1)
      refuse = true
      calls.length = 0
      reader.executed()
      await waitFor(() => calls.length === 1, 'the refused round')
      await new Promise((r) => setTimeout(r, 30))
      expect(calls).toEqual([ACCOUNT_PATHS.balance])
    } finally {
      reader.close()
    }
  })

  it('after a drop reads the activity again until a read made 2 s after the connection was back', async () => {
    let clock = 100_000
    let rounds = 0
    const calls: string[] = []
    const rest = quietAccount((path) => calls.push(path))
    const reader = new AccountReader({
      rest: () => rest,
      key: async () => 'k-1234567890',
      wanted: () => true,
      push: () => undefined,
      ordersRead: () => void rounds++,
      fills: () => [],
      log: captureLogger().logger,
      now: () => clock,
      intervalMs: 60_000,
      settleMs: 1,
      minGapMs: 1,
    })
    const activityReads = (): number => calls.filter((c) => c === ACCOUNT_PATHS.activity).length
    const round = async (): Promise<void> => {
      const n = rounds
      reader.executed()
      await waitFor(() => rounds > n, 'a round')
    }
    try {
      await round()
      expect(activityReads()).toBe(1)
      await round()
      expect(activityReads()).toBe(1)
      reader.userDown(clock)
      // While the connection is down, and right after it is back, a read cannot close the gap.
      await round()
      expect(activityReads()).toBe(2)
      reader.userUp((clock += 1_000))
      await round()
      expect(activityReads()).toBe(3)
      clock += 2_500
      await round()
      expect(activityReads()).toBe(4)
      await round()
      expect(activityReads()).toBe(4)
    } finally {
      reader.close()
    }
  })

  it('after a drop reads the activity page after page back to the drop, and says when it could not get there', async () => {
    const downAt = Date.parse('2026-11-29T10:00:00Z')
    let clock = downAt - 60_000
    let rounds = 0
    /** Executions in the activity, newest first: `since` of them made while the connection was down, then older. */
    let activity: object[] = []
    const execution = (at: number, price: number) => ({
      market_id: 'm1',
      contract_type: 'YES',
      side: 'BUY',
      price_ticks: price,
      quantity: 1,
      created_at: new Date(at).toISOString(),
    })
    const made = (since: number, before: number) => {
      activity = [
        ...Array.from({ length: since }, (_, i) => execution(downAt + 60_000 - i * 100, 30 + (i % 40))),
        ...Array.from({ length: before }, (_, i) => execution(downAt - 60_000 - i * 1_000, 20)),
      ]
    }
    const pages: string[] = []
    /** Runs before the next page 2 is answered: an execution made between two pages' reads. */
    let beforePage2: (() => void) | null = null
    const rest = {
      get: async (path: string): Promise<Result<unknown>> => {
        if (!path.startsWith('/data/activity?'))
          return { ok: true, value: path === ACCOUNT_PATHS.balance ? { total_balance: 10000 } : [] }
        pages.push(path)
        const q = new URLSearchParams(path.slice(path.indexOf('?') + 1))
        const size = Number(q.get('pageSize'))
        const page = Number(q.get('page'))
        if (page === 2 && beforePage2 !== null) {
          beforePage2()
          beforePage2 = null
        }
        return { ok: true, value: activity.slice((page - 1) * size, page * size) }
      },
    }
    const pageNumbers = (): (string | null)[] =>
      pages.map((p) => new URLSearchParams(p.slice(p.indexOf('?') + 1)).get('page'))
    const pushed: UserUpdate[] = []
    const results: { endpoint: string; code: string | null }[] = []
    const reader = new AccountReader({
      rest: () => rest,
      key: async () => 'k-1234567890',
      wanted: () => true,
      push: (u) => void pushed.push(...u),
      readResult: (endpoint, _at, error) => void results.push({ endpoint, code: error?.code ?? null }),
      ordersRead: () => void rounds++,
      fills: () => [],
      log: captureLogger().logger,
      now: () => clock,
      intervalMs: 600_000,
      settleMs: 1,
      minGapMs: 1,
    })
    const round = async (): Promise<void> => {
      const n = rounds
      reader.executed()
      await waitFor(() => rounds > n, 'a round')
    }
    const fillsPushed = (): number => pushed.filter((u) => u.topic === 'fill').length
    try {
      await round()
      expect(pages).toHaveLength(1)
      pushed.length = 0
      pages.length = 0
      // 120 executions while the connection was down: three pages reach back to the drop. One more is made while
      // they are read, so a row is on two pages: that read is no answer, and the next reads each row once.
      reader.userDown(downAt)
      made(120, 40)
      beforePage2 = () => void activity.unshift(execution(downAt + 65_000, 77))
      clock = downAt + 70_000
      reader.userUp(clock)
      clock += 3_000
      await round()
      // The gap still open, the reader reads it again by itself.
      await waitFor(() => fillsPushed() > 0, 'the gap read again')
      expect(pageNumbers()).toEqual(['1', '2', '3', '1', '1', '2', '3', '1'])
      expect(fillsPushed()).toBe(121)
      expect(results.filter((r) => r.endpoint === 'activity').every((r) => r.code === null)).toBe(true)
      // The gap is closed: the next round reads no activity.
      pages.length = 0
      await round()
      expect(pages).toHaveLength(0)

      // More than the reader goes back through: what it read is added, and the account says the fills lack the rest.
      pushed.length = 0
      results.length = 0
      pages.length = 0
      reader.userDown((clock += 1_000))
      made(600, 0)
      activity = activity.map((a) => ({ ...a, created_at: new Date(clock + 50_000).toISOString() }))
      reader.userUp((clock += 60_000))
      clock += 3_000
      await round()
      expect(pageNumbers()).toEqual([...Array.from({ length: 10 }, (_, i) => String(i + 1)), '1'])
      expect(fillsPushed()).toBe(500)
      expect(results.filter((r) => r.endpoint === 'activity').at(-1)?.code).toBe('incomplete')
    } finally {
      reader.close()
    }
  })

  it('after a drop, an activity read refused again and again is asked for at the rounds’ pace, not at once', async () => {
    const calls: string[] = []
    let refuse = false
    const rest = {
      get: async (path: string): Promise<Result<unknown>> => {
        calls.push(path)
        if (refuse && path.startsWith('/data/activity'))
          return { ok: false, error: { code: 'server', message: 'busy', status: 503 } }
        return { ok: true, value: path === ACCOUNT_PATHS.balance ? { total_balance: 10000 } : [] }
      },
    }
    const reader = new AccountReader({
      rest: () => rest,
      key: async () => 'k-1234567890',
      wanted: () => true,
      push: () => undefined,
      fills: () => [],
      log: captureLogger().logger,
      now: () => Date.now(),
      intervalMs: 600_000,
      settleMs: 1,
      minGapMs: 200,
    })
    try {
      reader.refresh()
      await waitFor(() => calls.length >= 4, 'the first round')
      refuse = true
      calls.length = 0
      reader.userDown(Date.now())
      reader.userUp(Date.now() - 5_000)
      reader.refresh()
      await new Promise((r) => setTimeout(r, 1_000))
      // Rounds 200 ms apart at most: about five in the second, not hundreds.
      const reads = calls.filter((c) => c.startsWith('/data/activity')).length
      expect(reads).toBeGreaterThanOrEqual(3)
      expect(reads).toBeLessThanOrEqual(8)
    } finally {
      reader.close()
    }
  })

  it('tells the orders service when the open orders were asked for, not when the round ended', async () => {
    // An order answered while the list was on its way may be missing from it: the order service judges what left
    // the list against the moment the list speaks of (bench:orders saw a resting order taken for cancelled).
    let clock = 1_000
    let askedAt: number | null = null
    const rest = {
      get: async (path: string): Promise<Result<unknown>> => {
        if (path === ACCOUNT_PATHS.orders) {
          askedAt = clock
          // Its answer takes half a second to come back.
          clock += 500
        }
        clock += 1
        return { ok: true, value: path === ACCOUNT_PATHS.balance ? { total_balance: 10000 } : [] }
      },
    }
    const reads: number[] = []
    const reader = new AccountReader({
      rest: () => rest,
      key: async () => 'k-1234567890',
      wanted: () => true,
      push: () => undefined,
      ordersRead: (at) => reads.push(at),
      log: captureLogger().logger,
      now: () => clock,
      intervalMs: 60_000,
    })
    try {
      reader.refresh()
      await waitFor(() => reads.length === 1, 'the round')
      expect(askedAt).not.toBeNull()
      expect(reads).toEqual([askedAt])
    } finally {
      reader.close()
    }
  })

  it('keeps its default pacing: 5 s between rounds after an execution, 750 ms of settle, a round every 30 s', async () => {
    vi.useFakeTimers()
    const rounds: number[] = []
    const rest = quietAccount((path) => {
      if (path === ACCOUNT_PATHS.balance) rounds.push(Date.now())
    })
    // No timing option: the defaults are what is under test.
    const reader = new AccountReader({
      rest: () => rest,
      key: async () => 'k-1234567890',
      wanted: () => true,
      push: () => undefined,
      log: captureLogger().logger,
      now: () => Date.now(),
    })
    /** Runs the clock `ms` on and says how many rounds began meanwhile. */
    const after = async (ms: number): Promise<number> => {
      const before = rounds.length
      await vi.advanceTimersByTimeAsync(ms)
      return rounds.length - before
    }
    try {
      reader.refresh()
      expect(await after(0)).toBe(1)
      // An execution right after a round waits out the 5 s gap since it began.
      reader.executed()
      expect(await after(4_999)).toBe(0)
      expect(await after(1)).toBe(1)
      // Long after the last round, an execution waits only for its burst to settle.
      expect(await after(10_000)).toBe(0)
      reader.executed()
      expect(await after(749)).toBe(0)
      expect(await after(1)).toBe(1)
      // With nothing to hear of, the account is read again 30 s after the last round.
      expect(await after(29_999)).toBe(0)
      expect(await after(1)).toBe(1)
      expect(rounds.slice(1).map((t, i) => t - (rounds[i] as number))).toEqual([5_000, 10_750, 30_000])
    } finally {
      reader.close()
      vi.useRealTimers()
    }
  })
})
