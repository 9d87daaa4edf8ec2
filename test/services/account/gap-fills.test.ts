// What the activity read after a dropped connection adds to the account: only the executions the account lacks,
// counted by content (VoxFi's executions carry no id, and two identical ones are two), and only those made since the
// connection went down.
import { describe, expect, it } from 'vitest'
import { activityUpdates } from '../../../src/main/services/account/rest-reader'
import { GAP_SKEW_MS, missingFills } from '../../../src/main/services/account/gap-fills'
import { deriveAccount, type FillRow } from '../../../src/shared/account'
import type { Update } from '../../../src/shared/model'

type UserUpdate = Extract<Update, { kind: 'user' }>

const since = Date.parse('2026-11-29T10:00:00Z')
const at = (ms: number): string => new Date(since + ms).toISOString()
const row = (priceTicks: number, quantity: number, createdMs: number) => ({
  market_id: 'm1',
  contract_type: 'YES',
  side: 'BUY',
  price_ticks: priceTicks,
  quantity,
  created_at: at(createdMs),
})

/** The account's fills for these activity rows, as the account holds them (newest first). */
function held(updates: readonly UserUpdate[], mode?: 'paper'): FillRow[] {
  const fills = deriveAccount(
    updates.map((u, i) => ({
      seq: i + 1,
      topic: u.topic,
      market: u.market,
      data: u.data,
      receivedAt: since,
    })),
  ).fills
  return mode === undefined ? fills : fills.map((f) => ({ ...f, mode }))
}

const sizes = (us: readonly UserUpdate[]): number[] => held(us).map((f) => f.size ?? -1)

describe('executions missed while the connection was down', () => {
  it('adds one of two identical executions when the account holds the other, and none when it holds both', () => {
    const activity = activityUpdates([row(40, 5, 1_000), row(40, 5, 1_000)])
    expect(sizes(missingFills(activity, held(activity.slice(0, 1)), since))).toEqual([5])
    expect(missingFills(activity, held(activity), since)).toEqual([])
    expect(sizes(missingFills(activity, [], since))).toEqual([5, 5])
  })

  it('leaves alone what was made before the connection went down', () => {
    const activity = activityUpdates([row(40, 5, -GAP_SKEW_MS - 1_000), row(41, 2, 500)])
    expect(sizes(missingFills(activity, [], since))).toEqual([2])
  })

  it('tells executions apart by price and size, and a paper fill is never the venue’s', () => {
    const activity = activityUpdates([row(40, 5, 1_000), row(42, 5, 1_200)])
    const known = held(activityUpdates([row(40, 5, 1_000)]))
    expect(held(missingFills(activity, known, since)).map((f) => f.price)).toEqual([0.42])
    expect(sizes(missingFills(activity, held(activity, 'paper'), since))).toEqual([5, 5])
  })
})
