// Reconnection against the real simulator: every fault ends with every interest (market, event, user) flowing again.
import { afterEach, describe, expect, it } from 'vitest'
import type { Simulator } from '../../../src/sim/index'
import { waitFor } from '../helpers'
import { pickTargets, startHarness, waitForAll, type Harness, type Recorder } from '../harness'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

async function watchEverything() {
  h = await startHarness()
  const { client, rec } = h.attach('watcher')
  const targets = pickTargets(h.sim)
  const key = await client.setApiKey({ key: h.sim.demoKey, label: 'demo' })
  expect(key.ok).toBe(true)
  const r = await client.setInterests([
    { channel: 'market', id: targets.market, filter: 'all' },
    { channel: 'event', id: targets.event, filter: 'all' },
    { channel: 'user' },
  ])
  expect(r.ok).toBe(true)
  await waitForAll(rec, 0, targets, 'initial')
  await waitFor(() => rec.status()?.state === 'live', 'live')
  return { client, rec, targets, sim: h.sim }
}

/** Whether a status after `mark` counts more reconnects than the last one before it. */
function reconnectedSince(rec: Recorder, mark: number): boolean {
  const before = rec.batches.slice(0, mark).findLast((b) => b.status)?.status?.reconnects ?? 0
  return rec.batches.slice(mark).some((b) => (b.status?.reconnects ?? 0) > before)
}

/** One subscription at the simulator with exactly our market, event and the user channel. */
function expectReplayed(sim: Simulator, targets: { market: string; event: string }): void {
  const subs = sim.subscriptions()
  expect(subs).toHaveLength(1)
  expect(subs[0]?.market.map((m) => m.id)).toEqual([targets.market])
  expect(subs[0]?.event.map((e) => e.id)).toEqual([targets.event])
  expect(subs[0]?.user).toBe(true)
}

describe('reconnection', () => {
  it('dropAll: reconnects and replays every subscription', async () => {
    const { client, rec, targets, sim } = await watchEverything()
    const mark = rec.mark()
    sim.faults.dropAll()
    await waitFor(() => rec.sawState('reconnecting', mark) || reconnectedSince(rec, mark), 'a reconnect')
    await waitForAll(rec, rec.mark(), targets, 'after dropAll')
    await waitFor(() => rec.status()?.state === 'live', 'live again')
    expectReplayed(sim, targets)
    const status = await client.getStatus()
    expect(status.ok && status.value.reconnects).toBeGreaterThanOrEqual(1)
    const incident = status.ok ? status.value.incidents.find((i) => i.kind === 'disconnect') : undefined
    expect(incident?.endedAt).not.toBeNull()
  })

  it('stall: the silence watchdog rebuilds a connection whose pings still work', async () => {
    const { rec, targets, sim, client } = await watchEverything()
    sim.faults.stall(true)
    const mark = rec.mark()
    await waitFor(async () => {
      const s = await client.getStatus()
      return s.ok && s.value.incidents.some((i) => i.kind === 'stall')
    }, 'stall incident')
    // Books go stale while data is missing; then the venue recovers.
    await waitFor(() => rec.bookState(targets.market, 'stale', mark), 'stale book')
    sim.faults.stall(false)
    await waitForAll(rec, rec.mark(), targets, 'after stall')
    expectReplayed(sim, targets)
  })

  it('restart: reconnects to the restarted server and replays', async () => {
    const { rec, targets, sim } = await watchEverything()
    const mark = rec.mark()
    await sim.faults.restart()
    // A reconnect can be faster than one fan-out interval, so windows may only see its count go up.
    await waitFor(() => rec.sawState('reconnecting', mark) || reconnectedSince(rec, mark), 'a reconnect')
    await waitForAll(rec, rec.mark(), targets, 'after restart')
    expectReplayed(sim, targets)
  })

  it('refuseConnections: keeps retrying with backoff until the server accepts again', async () => {
    const { rec, targets, sim, client } = await watchEverything()
    sim.faults.refuseConnections(1500)
    sim.faults.dropAll()
    const mark = rec.mark()
    await waitFor(() => rec.sawState('reconnecting', mark), 'reconnecting state')
    await waitFor(async () => {
      const s = await client.getStatus()
      return s.ok && s.value.nextRetryAt !== null
    }, 'a scheduled retry')
    await waitForAll(rec, rec.mark(), targets, 'after refused connections')
    expectReplayed(sim, targets)
  })

  it('subscriptions made while offline are sent on connect', async () => {
    const { client, rec, sim } = await watchEverything()
    const other = sim.listing().events[2]?.markets[0]?.id
    expect(other).toBeDefined()
    sim.faults.refuseConnections(1000)
    sim.faults.dropAll()
    await waitFor(() => rec.sawState('reconnecting'), 'reconnecting')
    const mark = rec.mark()
    const targets = pickTargets(sim)
    await client.setInterests([
      { channel: 'market', id: targets.market, filter: 'all' },
      { channel: 'market', id: other as string, filter: 'all' },
      { channel: 'event', id: targets.event, filter: 'all' },
      { channel: 'user' },
    ])
    await waitFor(() => rec.marketData(other as string, mark), 'data for the market added offline', 15_000)
  })

  it('reconnectNow() replaces the connection at once', async () => {
    const { client, rec, targets, sim } = await watchEverything()
    const before = await client.getStatus()
    const r = await client.reconnectNow()
    expect(r.ok).toBe(true)
    await waitFor(async () => {
      const s = await client.getStatus()
      return s.ok && before.ok && s.value.reconnects > before.value.reconnects
    }, 'a reconnect')
    await waitForAll(rec, rec.mark(), targets, 'after reconnectNow')
    expectReplayed(sim, targets)
  })
})
