// A market id the venue never answers (the simulator acknowledges it as unknown and sends nothing for it), on a
// connection whose other markets stream: after a bounded number of requests it is marked unknown and no longer
// asked for; a new connection asks once more. Pacing is shortened so the bound is reached in seconds.
import { afterEach, expect, it } from 'vitest'
import { UNKNOWN_MARKET } from '../../../src/shared/model'
import type { Simulator } from '../../../src/sim/index'
import { never, waitFor } from '../helpers'
import { pickTargets, startHarness, startSim, type Harness } from '../harness'
import { createWsTap, type WsTap } from '../ws-tap'

let h: Harness | null = null
let sim: Simulator | null = null
let tap: WsTap | null = null
afterEach(async () => {
  await h?.close()
  await tap?.close()
  await sim?.close()
  h = null
  tap = null
  sim = null
})

const NOWHERE = 'no-such-market'

it('marks a market the venue never answers unknown, stops asking, and asks again after a reconnect', async () => {
  sim = await startSim()
  // A tap in front of the venue counts each time the market is asked for.
  tap = await createWsTap(sim.wsUrl)
  h = await startHarness({
    sim,
    endpoint: { baseUrl: sim.baseUrl, wsUrl: tap.url },
    resync: { baseMs: 100, capMs: 200, attemptsBeforeUnknown: 6 },
  })
  const { market } = pickTargets(sim)
  const { client, rec } = h.attach('window')
  const set = await client.setInterests([
    { channel: 'market', id: market, filter: 'all' },
    { channel: 'market', id: NOWHERE, filter: 'all' },
  ])
  expect(set.ok).toBe(true)
  await waitFor(() => rec.bookState(market, 'live'), 'the known market live')
  const isUnknown = () => {
    const v = rec.latestBook(NOWHERE)
    return v?.state === 'stale' && v.staleReason === UNKNOWN_MARKET
  }
  await waitFor(isUnknown, 'the unknown market marked unknown', 15_000)
  expect(
    rec.status()?.incidents.some((i) => i.market === NOWHERE && /does not seem to know/.test(i.detail)),
  ).toBe(true)

  // Asked for again and again until then (the tap saw each request)...
  const asked = tap.subscribes('market', NOWHERE).length
  expect(asked).toBeGreaterThan(2)
  // ...and not asked again: before, a request went every 200 ms (ten in this window), each with its "resyncing" view.
  const mark = rec.mark()
  await never(
    () =>
      (tap?.subscribes('market', NOWHERE).length ?? 0) > asked || rec.bookState(NOWHERE, 'resyncing', mark),
    'the unknown market asked for again',
    2_000,
  )
  expect(isUnknown()).toBe(true)
  expect(rec.marketData(market, mark)).toBe(true)

  // A new connection asks once more, and the market is marked unknown again after its round.
  const before = rec.mark()
  h.engine.reconnectNow()
  await waitFor(() => rec.bookState(NOWHERE, 'resyncing', before), 'asked again after the reconnect')
  await waitFor(isUnknown, 'marked unknown again', 15_000)
})
