// Bad frames against the real simulator: malformed, oversized and unplaceable frames are counted and shown in the
// inspector, and the stream keeps delivering.
import { afterEach, describe, expect, it } from 'vitest'
import type { InspectorFrame } from '../../src/shared/model'
import { waitFor } from './helpers'
import { pickTargets, startHarness, type Harness } from './harness'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

async function watch() {
  h = await startHarness()
  const { client, rec } = h.attach('frames')
  const { market } = pickTargets(h.sim)
  await client.setInspector(true)
  await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
  await waitFor(() => rec.marketData(market, 0), 'market data')
  const frames = (mark: number): InspectorFrame[] => rec.batches.slice(mark).flatMap((b) => b.inspector ?? [])
  return { client, rec, market, sim: h.sim, frames }
}

async function counters(client: Awaited<ReturnType<typeof watch>>['client']) {
  const s = await client.getStatus()
  if (!s.ok) throw new Error(s.error.message)
  return s.value.counters
}

describe('bad frames', () => {
  it('counts malformed frames, shows them in the inspector and keeps streaming', async () => {
    const { client, rec, market, sim, frames } = await watch()
    const mark = rec.mark()
    sim.faults.sendMalformed(5)
    await waitFor(async () => (await counters(client)).malformed >= 5, 'malformed counted')
    await waitFor(
      () => frames(mark).filter((f) => f.classification === 'malformed').length >= 5,
      'inspector frames',
    )
    const bad = frames(mark).find((f) => f.classification === 'malformed')
    expect(bad?.error).toBeTruthy()
    const later = rec.mark()
    await waitFor(() => rec.marketData(market, later), 'data after the malformed frames')
    const s = await client.getStatus()
    expect(s.ok && s.value.state).toBe('live')
    expect(s.ok && s.value.reconnects).toBe(0)
    expect(s.ok && s.value.incidents.some((i) => i.kind === 'bad_frame')).toBe(true)
  })

  it('counts an oversized frame, survives it and streams again', async () => {
    const { client, rec, market, sim, frames } = await watch()
    const mark = rec.mark()
    sim.faults.sendOversized(2 * 1024 * 1024)
    await waitFor(async () => (await counters(client)).oversized >= 1, 'oversized counted')
    await waitFor(
      () => frames(mark).some((f) => f.classification === 'oversized'),
      'oversized in the inspector',
    )
    const later = rec.mark()
    await waitFor(() => rec.marketData(market, later), 'data after the oversized frame', 15_000)
    expect(sim.subscriptions()[0]?.market.map((m) => m.id)).toEqual([market])
  })

  it('frames it cannot place are counted unknown, kept in the inspector, never dropped silently', async () => {
    const { client, rec, market, sim, frames } = await watch()
    const mark = rec.mark()
    sim.faults.sendRaw('{"type":"notice","message":"maintenance at noon"}')
    sim.faults.sendRaw(
      '{"channel":"market","type":"orderbook","market":"not-subscribed","snapshot":true,"seq":1,"bids":[[0.4,10]],"asks":[[0.6,10]]}',
    )
    await waitFor(async () => (await counters(client)).unknown >= 2, 'unknown counted')
    await waitFor(
      () => frames(mark).filter((f) => f.classification === 'unknown').length >= 2,
      'unknown frames shown',
    )
    const snap = await client.getMarketSnapshot('not-subscribed')
    expect(snap.ok && snap.value.book).toBeNull()
    const later = rec.mark()
    await waitFor(() => rec.marketData(market, later), 'data keeps flowing')
  })
})
