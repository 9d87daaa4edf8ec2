// Self-healing on production defaults, against the real simulator over loopback, with a TCP fault proxy in front
// of it where the network itself misbehaves. Bounds are generous (noisy 2-core machines); the soak and the
// benchmarks report the real distributions against the targets.
import { afterEach, describe, expect, it } from 'vitest'
import { createFaultProxy, type FaultProxy } from '../../../bench/soak/fault-proxy'
import type { MonitorClient } from '../../../src/main/services/base/types'
import type { BookView } from '../../../src/shared/model'
import type { Simulator } from '../../../src/sim/index'
import { LIVENESS_DEFAULTS } from '../../../src/main/services/health/thresholds'
import { waitFor } from '../helpers'
import { startHarness, startSim, type Harness } from '../harness'

let h: Harness | null = null
let sim: Simulator | null = null
let proxy: FaultProxy | null = null
afterEach(async () => {
  await h?.close()
  await proxy?.close()
  await sim?.close()
  h = null
  proxy = null
  sim = null
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function someMarkets(s: Simulator, n: number): string[] {
  return s
    .listing()
    .events.flatMap((e) => e.markets.map((m) => m.id))
    .slice(0, n)
}

async function books(client: MonitorClient, markets: readonly string[]): Promise<Array<BookView | null>> {
  return Promise.all(
    markets.map(async (m) => {
      const r = await client.getMarketSnapshot(m)
      return r.ok ? r.value.book : null
    }),
  )
}

/** Every market live at a seq beyond `after` (when given): the engine vouches for fresh data again. */
async function allLive(client: MonitorClient, markets: readonly string[], after?: Map<string, number>) {
  const views = await books(client, markets)
  return views.every(
    (v) =>
      v !== null && v.state === 'live' && (after === undefined || (v.seq ?? 0) > (after.get(v.market) ?? 0)),
  )
}

async function seqs(client: MonitorClient, markets: readonly string[]): Promise<Map<string, number>> {
  const views = await books(client, markets)
  return new Map(views.flatMap((v) => (v ? [[v.market, v.seq ?? 0] as [string, number]] : [])))
}

async function watch(markets: readonly string[]): Promise<MonitorClient> {
  if (!h) throw new Error('no harness')
  const { client } = h.attach('watcher')
  const r = await client.setInterests(
    markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })),
  )
  expect(r.ok).toBe(true)
  await waitFor(() => allLive(client, markets), 'every book live', 15_000)
  return client
}

function viaProxy(p: FaultProxy) {
  return { baseUrl: `http://127.0.0.1:${p.port}/v1`, wsUrl: `ws://127.0.0.1:${p.port}/ws` }
}

async function startBehindProxy(): Promise<void> {
  sim = await startSim()
  proxy = await createFaultProxy({ targetPort: Number(new URL(sim.baseUrl).port) })
  // Production defaults: no stream tuning.
  h = await startHarness({ sim, stream: {}, endpoint: viaProxy(proxy) })
}

describe('self-healing', () => {
  it('books whose resync snapshots were lost in a 25 s stall are live again within seconds of its end', async () => {
    h = await startHarness({ stream: {} })
    const markets = someMarkets(h.sim, 3)
    const client = await watch(markets)
    const first = await seqs(client, markets)
    // Until a few gaps are seen the engine knows no rhythm and gives a silence its outer bound (120 s, see
    // thresholds.ts): the stall must come after each market has shown its pace, as it would after any real
    // subscription, or "not live within 10 s" would depend on how soon after the snapshot the stall began.
    const warmed = LIVENESS_DEFAULTS.marketQuiet.warmupSamples + 1
    await waitFor(
      async () => {
        const now = await seqs(client, markets)
        return markets.every((m) => (now.get(m) ?? 0) >= (first.get(m) ?? 0) + warmed)
      },
      'each market past its warm-up',
      10_000,
    )
    const before = await seqs(client, markets)

    h.sim.faults.stall(true)
    const stalledAt = Date.now()
    // While the venue sends nothing, no book may claim to be live.
    await waitFor(
      async () => (await books(client, markets)).every((v) => v?.state !== 'live'),
      'not live',
      10_000,
    )
    const flaggedMs = Date.now() - stalledAt
    await sleep(Math.max(0, 25_000 - (Date.now() - stalledAt)))
    h.sim.faults.stall(false)
    const resumedAt = Date.now()
    await waitFor(() => allLive(client, markets, before), 'live again after the stall', 15_000)
    const healMs = Date.now() - resumedAt
    console.log(`stall 25 s: not live after ${flaggedMs} ms; live again ${healMs} ms after it ended`)
    expect(flaggedMs).toBeLessThan(10_000)
    expect(healMs).toBeLessThan(10_000)
    const status = await client.getStatus()
    expect(status.ok && status.value.state).toBe('live')
  }, 90_000)

  it('a half-open link is flagged on an active market and rebuilt, and the books heal after it', async () => {
    await startBehindProxy()
    if (!h || !proxy) throw new Error('setup')
    const markets = someMarkets(h.sim, 2)
    const client = await watch(markets)
    const before = await seqs(client, markets)

    proxy.blackhole(8_000)
    const cutAt = Date.now()
    await waitFor(
      async () => (await books(client, markets)).every((v) => v?.state !== 'live'),
      'flagged',
      10_000,
    )
    const flaggedMs = Date.now() - cutAt
    await waitFor(
      async () => {
        const s = await client.getStatus()
        // Whichever side notices first (our ping or silence check: a stall; the venue's ping: a disconnect).
        return s.ok && s.value.incidents.some((i) => i.kind === 'stall' || i.kind === 'disconnect')
      },
      'the dead link is torn down',
      10_000,
    )
    const rebuiltMs = Date.now() - cutAt
    await waitFor(() => allLive(client, markets, before), 'live after the half-open period', 20_000)
    const healMs = Date.now() - cutAt - 8_000
    console.log(
      `half-open: flagged after ${flaggedMs} ms, rebuilt after ${rebuiltMs} ms, live ${healMs} ms after it ended`,
    )
    expect(flaggedMs).toBeLessThan(10_000)
  }, 90_000)

  it('repeated drops 10 s apart each recover quickly', async () => {
    await startBehindProxy()
    if (!h || !proxy) throw new Error('setup')
    const markets = someMarkets(h.sim, 2)
    const client = await watch(markets)
    const recoveries: number[] = []
    for (let i = 0; i < 3; i++) {
      const before = await seqs(client, markets)
      const cutAt = Date.now()
      proxy.cut()
      await waitFor(() => allLive(client, markets, before), `live after drop ${i + 1}`, 10_000)
      recoveries.push(Date.now() - cutAt)
      const s = await client.getStatus()
      expect(s.ok && s.value.state).toBe('live')
      await sleep(Math.max(0, 10_000 - (Date.now() - cutAt)))
    }
    console.log(`drops 10 s apart: live again after ${recoveries.join(', ')} ms`)
    const status = await client.getStatus()
    expect(status.ok && status.value.reconnects).toBeGreaterThanOrEqual(3)
    for (const ms of recoveries) expect(ms).toBeLessThan(10_000)
  }, 90_000)
})
