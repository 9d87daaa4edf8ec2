// A venue whose data stops while its socket, pings, acks and REST keep answering (the simulator's `freeze`): the
// engine rebuilds the silent socket, and each new socket is acked at once, yet nothing streams. Through the whole
// silence episode windows are told the data is paused (so no book is shown live, however fresh its REST copy),
// the episode is named with its rebuild count, each rebuild waits longer than the one before, and the first data
// ends it all. Real simulator, real sockets.
import { afterEach, describe, expect, it } from 'vitest'
import type { StreamStatus } from '../../../src/shared/model'
import type { StreamTuning } from '../../../src/main/services/monitor'
import { SILENCE_BACKOFF_MAX_FACTOR } from '../../../src/main/services/health/venue-silence'
import { createSimulator, type Simulator } from '../../../src/sim/index'
import { pickTargets, startHarness, type Harness } from '../harness'
import { waitFor } from '../helpers'

/** A silence limit short enough for a test, with room above it for the episode's backoff. */
const SILENCE_MIN_MS = 1_000
const TUNING: StreamTuning = {
  backoff: { baseMs: 50, capMs: 500, stableMs: 5000 },
  pingIntervalMs: 1000,
  pongTimeoutMs: 1500,
  connectTimeoutMs: 3000,
  silence: { minMs: SILENCE_MIN_MS, multiple: 10, maxMs: 20_000 },
}

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  await h?.sim.close()
  h = null
})

// VoxFi acks a subscribe and sends no book (its books come over REST); the reference dialect answers a subscribe
// with a snapshot. Neither answer is the venue moving.
describe.each(['voxfi', 'reference'] as const)('a frozen venue (%s): one silence episode', (dialect) => {
  it('keeps the data paused through acked rebuilds, backs the rebuilds off, and ends with the first data', async () => {
    const market =
      dialect === 'voxfi'
        ? await (async () => {
            const sim = await createSimulator({ dialect, seed: 7, tickMs: 50, pingMs: 1000 })
            // The harness only points the engine at the simulator's URLs; its listing type is the reference one's.
            h = await startHarness({ sim: sim as unknown as Simulator, stream: TUNING })
            // VoxFi's REST wants the key for everything, its books included.
            const keyed = await h.attach('key').client.setApiKey({ key: sim.demoKey })
            if (!keyed.ok) throw new Error(keyed.error.message)
            return sim.listing()[0]?.markets[0]?.id as string
          })()
        : await (async () => {
            const sim = await createSimulator({ dialect, seed: 7, tickMs: 50, pingMs: 1000 })
            h = await startHarness({ sim, stream: TUNING })
            return pickTargets(sim).market
          })()
    if (h === null) throw new Error('no harness')
    const { client, rec } = h.attach('w')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.bookState(market, 'live'), 'a live book')
    // The feed's own rhythm is learnt first: a second or so of traffic.
    await waitFor(() => (rec.status()?.counters.frames ?? 0) >= 30, 'traffic')

    try {
      const mark = rec.mark()
      h.sim.faults.freeze(true)
      await waitFor(
        () => (rec.status()?.venueSilent?.rebuilds ?? 0) >= 1,
        'the first rebuild for silence',
        10_000,
      )
      const begun = rec.mark()
      await waitFor(() => (rec.status()?.venueSilent?.rebuilds ?? 0) >= 3, 'two more rebuilds', 30_000)

      // Every status a window got in the episode: never open and unpaused, whatever the acks and REST said.
      const statuses = rec.batches
        .slice(begun)
        .map((b) => b.status)
        .filter((s): s is StreamStatus => s !== undefined)
      expect(statuses.length).toBeGreaterThan(0)
      expect(statuses.filter((s) => s.state === 'live' && s.dataPaused !== true)).toEqual([])
      expect(statuses.every((s) => s.venueSilent !== undefined)).toBe(true)
      // The rebuilt sockets were acked (the simulator answers subscribes while frozen): a REST book came too.
      expect(rec.batches.slice(begun).some((b) => (b.books ?? []).some((v) => v.market === market))).toBe(
        true,
      )

      // Each rebuild of the episode waited longer: the time between the second and third rebuilds is about twice
      // that between the first and second (the limit doubles, up to SILENCE_BACKOFF_MAX_FACTOR).
      const rebuiltAt: number[] = []
      let counted = 0
      for (const b of rec.batches.slice(mark)) {
        const n = b.status?.venueSilent?.rebuilds ?? counted
        if (n > counted) rebuiltAt.push(b.at)
        counted = n
      }
      expect(rebuiltAt.length).toBeGreaterThanOrEqual(3)
      const first = (rebuiltAt[1] as number) - (rebuiltAt[0] as number)
      const second = (rebuiltAt[2] as number) - (rebuiltAt[1] as number)
      expect(first).toBeGreaterThanOrEqual(2 * SILENCE_MIN_MS - 100)
      expect(second).toBeGreaterThan(first * 1.5)
      expect(SILENCE_BACKOFF_MAX_FACTOR).toBeGreaterThanOrEqual(4)
    } finally {
      h.sim.faults.freeze(false)
    }
    // The first data ends the episode and the pause, at once.
    await waitFor(() => rec.status()?.venueSilent === undefined, 'the episode to end', 10_000)
    await waitFor(() => rec.status()?.dataPaused === undefined, 'the pause to end', 10_000)
  }, 60_000)
})
