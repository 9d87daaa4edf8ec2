// The engine's candle history against the real simulator: built from the trades it takes, sent with the market
// snapshot through the tape's newest trade, and kept across a reconnect.
import { afterEach, describe, expect, it } from 'vitest'
import { INTERVAL_SECONDS, bucketStart } from '../../../src/shared/candles'
import { TAPE_TRADES } from '../../../src/shared/ipc'
import type { MonitorClient } from '../../../src/main/services/base/types'
import { waitFor } from '../helpers'
import { pickTargets, startHarness, type Harness } from '../harness'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

async function snapshot(client: MonitorClient, market: string) {
  const r = await client.getMarketSnapshot(market)
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('candle history (engine vs simulator)', () => {
  it('is built from the trades taken, sent with the snapshot, and kept across a reconnect', async () => {
    h = await startHarness()
    const { market } = pickTargets(h.sim)
    const { client, rec } = h.attach('chart')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(async () => (await snapshot(client, market)).trades.length >= 3, 'three trades', 20_000)

    const before = await snapshot(client, market)
    const lastBefore = before.trades[before.trades.length - 1]
    expect(before.candles?.through).toBe(lastBefore?.key)
    const oneMinute = before.candles?.candles['1m'] ?? []
    expect(oneMinute.at(-1)?.time).toBe(bucketStart(lastBefore?.ts ?? 0, INTERVAL_SECONDS['1m']))
    expect(oneMinute.at(-1)?.close).toBe(lastBefore?.price)
    if (before.trades.length < TAPE_TRADES) {
      // Every trade the tape holds is in the candles, and nothing else.
      const volume = (cs: { volume: number }[]) => cs.reduce((sum, c) => sum + c.volume, 0)
      const traded = before.trades.reduce((sum, t) => sum + t.size, 0)
      expect(volume(oneMinute)).toBeCloseTo(traded, 6)
      expect(volume(before.candles?.candles['5m'] ?? [])).toBeCloseTo(traded, 6)
    }

    const mark = rec.mark()
    h.sim.faults.dropAll()
    await waitFor(() => rec.sawState('reconnecting', mark), 'the link dropped')
    await waitFor(
      async () => (await snapshot(client, market)).trades.some((t) => t.gapBefore === true),
      'a trade after the reconnect',
      20_000,
    )
    const after = await snapshot(client, market)
    const first = oneMinute[0]
    const kept = after.candles?.candles['1m'].find((c) => c.time === first?.time)
    // The oldest candle from before the drop is still there, with at least what it held.
    expect(kept?.volume).toBeGreaterThanOrEqual(first?.volume ?? Number.POSITIVE_INFINITY)
    expect(after.candles?.through).toBe(after.trades[after.trades.length - 1]?.key)
  })
})
