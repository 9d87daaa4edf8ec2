// A recording of the VoxFi simulator's feed, in the recording format (docs/recording.md), generated offline: the
// simulator's own runtime (books, prints, the demo account) stepped one step at a time without its timer
// (test/sim/voxfi-harness.ts steppedRuntime), each step's market frames built as the simulator's hub sends them to
// a subscription of filter `all` (`update` when the book changed and a print happened, else `update-orderbook` or
// `new-trade`), stamped with a synthetic time of step × tickMs. So ten minutes of feed take seconds to make and are
// the same for a seed.
import { once } from 'node:events'
import { createWriteStream, statSync } from 'node:fs'
import { createGzip } from 'node:zlib'
import { newTradeFrame, updateFrame, updateOrderbookFrame } from '../../src/sim/voxfi/frames'
import { steppedRuntime } from '../../test/sim/voxfi-harness'

export interface RecordingOptions {
  seed: number
  events: number
  marketsPerEvent: number
  minutes: number
  /** The simulator's step (createSimulator's default is 100 ms). */
  tickMs: number
}

export interface RecordingMade {
  file: string
  markets: string[]
  frames: number
  /** Frames that carry a print (`new-trade` or `update`). */
  prints: number
  durationMs: number
  bytes: number
}

export async function writeRecording(path: string, o: RecordingOptions): Promise<RecordingMade> {
  const rt = steppedRuntime(o.seed, { events: o.events, marketsPerEvent: o.marketsPerEvent })
  let lines: string[] = []
  let t = 0
  let frames = 0
  let prints = 0
  rt.vox.hub.publishMarket = (market, event, book, trade) => {
    const f =
      book !== null && trade !== null
        ? updateFrame(event, market, book(), trade())
        : book !== null
          ? updateOrderbookFrame(event, market, book())
          : trade !== null
            ? newTradeFrame(event, market, trade())
            : null
    if (f === null) return
    frames++
    if (trade !== null) prints++
    lines.push(JSON.stringify({ t, f }))
  }
  const listing = rt.vox.listing()
  const startedAt = Date.UTC(2026, 0, 5, 13, 0, 0)
  const header = {
    format: 'trading-monitor-recording',
    version: 1,
    profile: { id: 'bench-orders', name: 'bench orders (generated)', adapter: 'voxfi' },
    startedAt: new Date(startedAt).toISOString(),
    events: listing.map((e) => ({
      id: e.id,
      title: e.description,
      markets: e.markets.map((m) => ({ id: m.id, title: m.description })),
    })),
  }
  const gzip = createGzip({ level: 6 })
  const out = gzip.pipe(createWriteStream(path))
  const write = async (text: string): Promise<void> => {
    if (!gzip.write(text)) await once(gzip, 'drain')
  }
  await write(`${JSON.stringify(header)}\n`)
  const steps = Math.round((o.minutes * 60_000) / o.tickMs)
  for (let step = 1; step <= steps; step++) {
    t = step * o.tickMs
    rt.run(step, step)
    if (lines.length === 0) continue
    await write(`${lines.join('\n')}\n`)
    lines = []
  }
  gzip.end()
  await once(out, 'finish')
  return {
    file: path,
    markets: rt.markets,
    frames,
    prints,
    durationMs: steps * o.tickMs,
    bytes: statSync(path).size,
  }
}
