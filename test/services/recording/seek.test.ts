// A seek through the real engine lands on what a straight replay to the same point builds: books and tapes, after a
// seek back and then forward. VoxFi's frames (docs/voxfi.md), whose duplicate filter drops the second copy of a
// text within a second, so a seek must stamp its frames as a straight replay would: a genuine second print of the
// same text a minute later in the recording stays on the tape. Then the replay service's side of a seek in slices:
// its status while it runs, a pause during it, and a stop that cuts it short.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MonitorEngine } from '../../../src/main/services'
import type { MonitorClient } from '../../../src/main/services/base/types'
import type { ViewBatch } from '../../../src/shared/ipc'
import { waitFor } from '../helpers'
import { levels, replayDeps, replayEngine, tempDir } from './helpers'
import { RecordReplay } from '../../../src/main/services/recording/record-replay'
import bookFixture from '../../fixtures/voxfi/ws-market-update-orderbook.json'
import tradeFixture from '../../fixtures/voxfi/ws-market-new-trade.json'

const MARKET = bookFixture.example.market_id
const book = (bid: number, ask: number): string => {
  const f = structuredClone(bookFixture.example)
  f.orderbook.yes_orderbook.bids[0]!.price_ticks = bid
  f.orderbook.yes_orderbook.asks[0]!.price_ticks = ask
  return JSON.stringify(f)
}
const trade = (qty: number): string => {
  const f = structuredClone(tradeFixture.example)
  f.last_trade.qty_contracts = qty
  return JSON.stringify(f)
}
/** 70 s of recording; the print at 60.1 s has the very text of the one at 0.1 s. */
const FRAMES = [
  { t: 0, f: book(40, 41) },
  { t: 100, f: trade(10) },
  { t: 60_100, f: trade(10) },
  { t: 61_000, f: book(45, 47) },
  { t: 70_000, f: trade(3) },
]

describe('seek through the engine', () => {
  const tmp = tempDir()
  let engine: MonitorEngine
  let client: MonitorClient
  const batches: ViewBatch[] = []
  const file = 'rec-2026-11-23T04-31-00Z-seek.jsonl'

  beforeAll(async () => {
    const header = {
      format: 'trading-monitor-recording',
      version: 1,
      profile: { id: 'p1', name: 'seek', adapter: 'voxfi' },
      startedAt: '2026-11-23T04:31:00.000Z',
    }
    writeFileSync(
      join(tmp.dir, file),
      [header, ...FRAMES].map((line) => `${JSON.stringify(line)}\n`).join(''),
    )
    engine = await replayEngine(tmp.dir)
    client = engine.attachClient({ label: 'window', sink: (batch) => void batches.push(batch) })
    await client.setInterests([{ channel: 'market', id: MARKET, filter: 'all' }])
  })
  afterAll(async () => {
    await engine.close()
    tmp.remove()
  })

  const at = async () => {
    const r = await client.getMarketSnapshot(MARKET)
    if (!r.ok) throw new Error(r.error.message)
    return { book: levels(r.value.book), tape: r.value.trades.map((t) => [t.price, t.size]) }
  }

  it('a seek back then forward lands on the books and tape a straight replay builds', async () => {
    // The straight replay, at 50×: 70 s of recording in 1.4 s; the prints a minute apart are 1.2 s apart.
    const started = await client.startReplay({ file, speed: 50 })
    if (!started.ok) throw new Error(started.error.message)
    await waitFor(
      async () => {
        const status = await client.getStatus()
        return status.ok && status.value.replay?.state === 'ended'
      },
      'the straight replay to end',
      10_000,
    )
    const straight = await at()
    expect(straight.tape).toHaveLength(3)

    const back = await client.controlReplay({ paused: true, seekMs: 30_000 })
    expect(back.ok && back.value).toMatchObject({ positionMs: 30_000, paused: true })
    expect(back.ok && back.value.seeking).toBeUndefined()
    const middle = await at()
    expect(middle.tape).toHaveLength(1)
    expect(middle.book).not.toEqual(straight.book)

    batches.length = 0
    const forward = await client.controlReplay({ seekMs: 70_000 })
    expect(forward.ok && forward.value.positionMs).toBe(70_000)
    expect(await at()).toEqual(straight)
    // The window hears the book where the seek landed (its frames were kept from it on the way).
    await waitFor(
      () => batches.some((b) => b.books?.some((v) => v.market === MARKET && levels(v) !== null)),
      'the landed book pushed to the window',
    )
    const pushed = batches.flatMap((b) => b.books ?? []).filter((v) => v.market === MARKET)
    expect(levels(pushed.at(-1))).toEqual(straight.book)

    // From the start to the end in one seek: both prints are fed by it, a minute of recording apart.
    await client.controlReplay({ seekMs: 0 })
    const whole = await client.controlReplay({ seekMs: 70_000 })
    expect(whole.ok && whole.value.positionMs).toBe(70_000)
    expect(await at()).toEqual(straight)
    await client.stopReplay()
  }, 20_000)
})

describe('a seek as the replay service answers it', () => {
  const tmp = tempDir()
  const file = 'slow.jsonl'
  afterAll(() => tmp.remove())

  /** A replay whose frames cost ~0.2 ms each to feed: a seek through 400 of them takes many slices. */
  async function slowReplay() {
    const header = { format: 'trading-monitor-recording', version: 1, profile: { id: 'p1', name: 'slow' } }
    const lines = [
      { ...header, startedAt: '2026-11-23T04:31:00.000Z' },
      ...Array.from({ length: 400 }, (_, i) => ({ t: i * 10, f: `f${i}` })),
    ]
    writeFileSync(join(tmp.dir, file), lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
    const service = new RecordReplay(
      replayDeps(tmp.dir, {
        skim: () => {
          const until = performance.now() + 0.2
          while (performance.now() < until);
        },
      }),
    )
    const started = await service.startReplay({ file, speed: 1 })
    if (!started.ok) throw new Error(started.error.message)
    return service
  }

  it('says seeking until the seek lands, and a stop meanwhile makes the seek answer that it was cut short', async () => {
    const service = await slowReplay()
    const seeking = service.controlReplay({ seekMs: 3_990, paused: false })
    expect(service.replayStatus()).toMatchObject({ seeking: true, positionMs: 3_990 })
    const landed = await seeking
    expect(landed.ok && landed.value).toMatchObject({ positionMs: 3_990, epoch: 1, state: 'ended' })
    expect(service.replayStatus()?.seeking).toBeUndefined()

    // A pause while a seek runs is kept: the seek's own resume does not undo it.
    const back = service.controlReplay({ seekMs: 2_000, paused: false })
    await service.controlReplay({ paused: true })
    await back
    expect(service.replayStatus()).toMatchObject({ paused: true, positionMs: 2_000 })

    const cut = service.controlReplay({ seekMs: 0 })
    const again = service.controlReplay({ seekMs: 3_990 })
    expect((await service.stopReplay()).ok).toBe(true)
    for (const r of await Promise.all([cut, again])) {
      expect(r.ok).toBe(false)
      expect(!r.ok && r.error.message).toBe('The replay was stopped before the seek landed.')
    }
  })
})
