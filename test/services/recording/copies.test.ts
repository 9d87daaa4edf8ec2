// A replay tells a frame's copy from a new frame as its recording's profile reads them, whatever the live profile
// is (docs/recording.md, "Replay"): VoxFi sends each market frame on two channels, so its recording drops the copy
// within a second (docs/voxfi.md §8), while the reference dialect sends each print once, so two identical prints in
// its recording are two prints. Before, the filter followed the live profile's adapter.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MonitorEngine } from '../../../src/main/services'
import { waitFor } from '../helpers'
import { replayEngine, tempDir } from './helpers'
import tradeFixture from '../../fixtures/voxfi/ws-market-new-trade.json'

const tmp = tempDir()
let engine: MonitorEngine | null = null
afterEach(async () => {
  await engine?.close()
  engine = null
})

/** The tape of `market` once a replay of `frames` (recorded with `adapter`) has ended, with `live` as the live profile's adapter. */
async function tapeAfterReplay(
  adapter: string,
  live: string | undefined,
  market: string,
  frames: readonly string[],
): Promise<number[]> {
  const file = `rec-${adapter}-${live ?? 'default'}.jsonl`
  const header = {
    format: 'trading-monitor-recording',
    version: 1,
    profile: { id: 'p1', name: 'copies', adapter },
    startedAt: '2026-11-23T04:31:00.000Z',
  }
  // The copy comes 100 ms after its original, within the filter's second.
  const lines = [header, ...frames.map((f, i) => ({ t: i * 100, f }))]
  writeFileSync(join(tmp.dir, file), lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
  engine = await replayEngine(tmp.dir)
  const client = engine.attachClient({ label: 'window', sink: () => {} })
  if (live !== undefined) {
    // Nothing listens there: the live profile only has to name its adapter.
    const saved = await client.saveProfile({
      name: 'live',
      baseUrl: 'http://127.0.0.1:9',
      wsUrl: 'ws://127.0.0.1:9',
      adapter: live,
    })
    if (!saved.ok) throw new Error(saved.error.message)
    expect((await client.selectProfile(saved.value.id)).ok).toBe(true)
  }
  await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
  const started = await client.startReplay({ file, speed: 50 })
  if (!started.ok) throw new Error(started.error.message)
  await waitFor(async () => {
    const status = await client.getStatus()
    return status.ok && status.value.replay?.state === 'ended'
  }, 'the replay to end')
  const r = await client.getMarketSnapshot(market)
  if (!r.ok) throw new Error(r.error.message)
  return r.value.trades.map((t) => t.size)
}

describe("a replay's duplicate filter follows the recording's profile", () => {
  it('keeps both of two identical prints in a reference recording, though the live profile may be VoxFi', async () => {
    const print = JSON.stringify({
      channel: 'market',
      type: 'trade',
      market: 'M1',
      price: 0.42,
      size: 7,
      side: 'buy',
      ts: 1_795_000_000_000,
    })
    expect(await tapeAfterReplay('sim', undefined, 'M1', [print, print])).toEqual([7, 7])
  })

  it('drops the copy in a VoxFi recording, though the live profile reads the reference dialect', async () => {
    const print = JSON.stringify(tradeFixture.example)
    const market = tradeFixture.example.market_id
    expect(await tapeAfterReplay('voxfi', 'sim', market, [print, print])).toEqual([10])
  })
})
