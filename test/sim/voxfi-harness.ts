// Small VoxFi venues for fault tests: a simulator of two events, and the VoxFi runtime without the simulator's timer
// (its books, demo account and runtime built for a seed and driven step by step by the test, with what it publishes
// on the market channels recorded per market; two of them for one seed show what a fault or an order changed).
import { createSimulator, type Simulator, type SimulatorOptions, type VoxfiListing } from '../../src/sim'
import { DemoAccount, type AccountPrint } from '../../src/sim/account'
import { buildCatalog } from '../../src/sim/catalog'
import type { SimKeyConfig } from '../../src/sim/config'
import { KeyStore } from '../../src/sim/keys'
import { buildMarketBooks, type TradeOut } from '../../src/sim/market'
import { createVoxRuntime, type VoxRuntime } from '../../src/sim/voxfi'

export interface SteppedRuntime {
  vox: VoxRuntime
  /** The VoxFi ids of the markets, in the order their books step. */
  markets: string[]
  /** Per market: [step, book, trade] of every publication, `-` for a part it did not carry. */
  frames: Map<string, Array<[number, string, string]>>
  /** Steps a to b; `print` replaces one market's print (by index in `markets`) in each of them. */
  run(a: number, b: number, print?: { market: number; trade: TradeOut }): void
}

export function steppedRuntime(
  seed: number,
  size: { events: number; marketsPerEvent: number },
  keys: SimKeyConfig[] = [],
): SteppedRuntime {
  const catalog = buildCatalog(seed, size.events, size.marketsPerEvent)
  const books = buildMarketBooks(catalog, seed)
  const account = new DemoAccount(
    seed,
    books.map((b) => ({
      id: b.id,
      eventId: b.eventId,
      quote: () => ({ bid: b.bestBidTick(), ask: b.bestAskTick() }),
    })),
    5,
  )
  const vox = createVoxRuntime({
    seed,
    catalog,
    books,
    account,
    keys: new KeyStore(keys),
    rateLimit: { requests: 100, windowMs: 1000 },
    pingMs: 10_000,
    pongTimeoutMs: 20_000,
    epochMs: Date.UTC(2026, 0, 1),
    log: () => {},
  })
  const frames = new Map<string, Array<[number, string, string]>>()
  let step = 0
  vox.hub.hasSubscribers = () => true
  vox.hub.publishMarket = (m, _event, book, trade) => {
    const list = frames.get(m) ?? []
    list.push([step, book === null ? '-' : book(), trade === null ? '-' : trade()])
    frames.set(m, list)
  }
  return {
    vox,
    markets: books.map((b) => vox.catalog.marketByInternal.get(b.id)!.uuid),
    frames,
    run: (a, b, print) => {
      for (step = a; step <= b; step++) {
        const prints: AccountPrint[] = []
        const outs = books.map((x, i) => {
          const o = x.step(step)
          if (print !== undefined && i === print.market) o.trade = print.trade
          if (o.trade !== null) prints.push({ market: x.id, ...o.trade })
          return o
        })
        vox.onStep(step, outs, account.step(step, 0, prints))
      }
    },
  }
}

/** A VoxFi simulator of 2 events × 2 markets, stepping every 20 ms, handed to `track` to be closed; and its first market. */
export async function startVox(
  track: (sim: Simulator<VoxfiListing>) => void,
  opts: SimulatorOptions = {},
): Promise<{ sim: Simulator<VoxfiListing>; market: string }> {
  const sim = await createSimulator({
    seed: 4,
    tickMs: 20,
    config: { events: 2, marketsPerEvent: 2 },
    ...opts,
    dialect: 'voxfi',
  })
  track(sim)
  return { sim, market: sim.listing()[0]!.markets[0]!.id }
}
