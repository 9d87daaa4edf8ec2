// Self-healing on production defaults, against the real simulator over loopback, with a TCP fault proxy in front
// of it where the network itself misbehaves. Bounds are generous (noisy 2-core machines); the soak and the
// benchmarks report the real distributions against the targets.
import { afterEach, describe, expect, it } from 'vitest'
import { createFaultProxy, type FaultProxy } from '../../../bench/soak/fault-proxy'
import type { MonitorClient } from '../../../src/main/services/base/types'
import type { BookView } from '../../../src/shared/model'
import type { Simulator } from '../../../src/sim/index'
import { LIVENESS_DEFAULTS, RECONNECT_DEFAULTS } from '../../../src/main/services/health/thresholds'
import { waitFor } from '../helpers'
import { startHarness, startSim, type Harness, type Recorder } from '../harness'

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

async function watch(markets: readonly string[]): Promise<{ client: MonitorClient; rec: Recorder }> {
  if (!h) throw new Error('no harness')
  const { client, rec } = h.attach('watcher')
  const r = await client.setInterests(
    markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })),
  )
  expect(r.ok).toBe(true)
  await waitFor(() => allLive(client, markets), 'every book live', 15_000)
  return { client, rec }
}

/**
 * How long the engine waited to reconnect after each socket that ended with an incident of `kind` ('stall': closed
 * for silence; 'disconnect': closed by the venue or for an oversized frame), from `mark` on: from the incident the
 * close opened to the retry it scheduled, both read off the engine's clock in the same call, so a loaded machine
 * does not change them.
 */
function reconnectWaits(rec: Recorder, kind: 'stall' | 'disconnect', mark = 0): number[] {
  const waits = new Map<number, number>()
  for (const b of rec.batches.slice(mark)) {
    const status = b.status
    if (status === undefined || status.nextRetryAt === null) continue
    // The newest close: the one this wait follows.
    const close = status.incidents.find((i) => i.kind === 'stall' || i.kind === 'disconnect')
    if (close?.kind !== kind || close.startedAt > status.nextRetryAt) continue
    waits.set(status.nextRetryAt, status.nextRetryAt - close.startedAt)
  }
  return [...waits.values()]
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
    // Production defaults, with the reconnect jitter at the top of its range: a rebuild counted as a failed
    // attempt then waits its whole backoff, so the reconnect check below cannot pass by luck.
    h = await startHarness({ stream: { random: () => 0.999 } })
    const markets = someMarkets(h.sim, 3)
    const { client, rec } = await watch(markets)
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
    // The fault itself lasts 25 s: nothing is awaited here, the venue is silent for that long.
    await sleep(Math.max(0, 25_000 - (Date.now() - stalledAt)))
    h.sim.faults.stall(false)
    const resumedAt = Date.now()
    await waitFor(() => allLive(client, markets, before), 'live again after the stall', 15_000)
    const healMs = Date.now() - resumedAt
    const waits = reconnectWaits(rec, 'stall')

    // A fault soon after the stall (an oversized frame closes the socket; a failed attempt) starts the backoff at
    // its first step: the stall's rebuilds left nothing to escalate from.
    const beforeOversized = await seqs(client, markets)
    const mark = rec.mark()
    h.sim.faults.sendOversized()
    await waitFor(() => reconnectWaits(rec, 'disconnect', mark).length > 0, 'the oversized close', 10_000)
    await waitFor(
      () => allLive(client, markets, beforeOversized),
      'live again after the oversized frame',
      15_000,
    )
    const [oversizedWait] = reconnectWaits(rec, 'disconnect', mark)
    console.log(
      `stall 25 s: not live after ${flaggedMs} ms; live again ${healMs} ms after it ended; reconnect waits ${waits.join(', ')} ms; after the oversized frame ${oversizedWait} ms`,
    )
    expect(flaggedMs).toBeLessThan(10_000)
    expect(healMs).toBeLessThan(10_000)
    // Each rebuild for silence found the venue answering (its handshake and pings), so it reconnected at once.
    // Counted as failed attempts, the rebuilds doubled the reconnect backoff: a stall that ended during a wait
    // left no socket to hear the venue for up to 30 s, and a fault in the next 30 s waited as long.
    // With this jitter a quick retry waits 149 ms and the backoff's steps 499, 999, 1998 ms…; the bounds sit
    // between them, with room for the engine's own work between the close and the retry it schedules.
    const { quickRetryMs, baseMs } = RECONNECT_DEFAULTS
    expect(waits.length).toBeGreaterThanOrEqual(3)
    for (const ms of waits) expect(ms).toBeLessThan((quickRetryMs + baseMs) / 2)
    expect(oversizedWait).toBeLessThan(1.5 * baseMs)
    const status = await client.getStatus()
    expect(status.ok && status.value.state).toBe('live')
  }, 90_000)

  it('a half-open link is flagged on an active market and rebuilt, and the books heal after it', async () => {
    await startBehindProxy()
    if (!h || !proxy) throw new Error('setup')
    const markets = someMarkets(h.sim, 2)
    const { client } = await watch(markets)
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
    const { client } = await watch(markets)
    const recoveries: number[] = []
    for (let i = 0; i < 3; i++) {
      const before = await seqs(client, markets)
      const cutAt = Date.now()
      proxy.cut()
      await waitFor(() => allLive(client, markets, before), `live after drop ${i + 1}`, 10_000)
      recoveries.push(Date.now() - cutAt)
      const s = await client.getStatus()
      expect(s.ok && s.value.state).toBe('live')
      // The drops are spaced 10 s apart by design (the fault's rhythm), not waiting for anything.
      await sleep(Math.max(0, 10_000 - (Date.now() - cutAt)))
    }
    console.log(`drops 10 s apart: live again after ${recoveries.join(', ')} ms`)
    const status = await client.getStatus()
    expect(status.ok && status.value.reconnects).toBeGreaterThanOrEqual(3)
    for (const ms of recoveries) expect(ms).toBeLessThan(10_000)
  }, 90_000)
})
