// One live trading venue for a phase of bench:orders: the simulator in VoxFi's dialect (in this process), the tap
// in front of its REST port (tap.ts), and the engine (createMonitor, production defaults, a journal on disk) with one
// attached window that watches the markets and the account, keeps the newest view of every book and every order the
// account batches showed, and trades live through the profile's stored demo key.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createMemoryStore,
  createMonitor,
  type Logger,
  type MonitorClient,
  type MonitorEngine,
} from '../../src/main/services'
import type { Interest, ViewBatch } from '../../src/shared/ipc'
import type { BookView, Result } from '../../src/shared/model'
import type { AccountView, OrderRequest, OrderView, TradingLimits } from '../../src/shared/trading'
import { createSimulator, type SimConfig, type Simulator, type VoxfiListing } from '../../src/sim/index'
import { preciseNow } from '../lib/engine-harness'
import { startTap, type Tap } from './tap'

export interface VenueOptions {
  seed: number
  /** The simulator's config (its listing size and rate limits). */
  config: SimConfig
  limits: Partial<TradingLimits>
  /** Demo-account changes at most this far apart (createSimulator's accountMs). */
  accountMs?: number
}

export interface Venue {
  sim: Simulator<VoxfiListing>
  tap: Tap
  engine: MonitorEngine
  client: MonitorClient
  profileId: string
  /** VoxFi market ids of the listing, in listing order. */
  markets: string[]
  eventOf: Map<string, string>
  /** The newest view of each watched market's book. */
  books: Map<string, BookView>
  /** The newest view of every order any account batch showed (kept after the view drops a finished one). */
  orders: Map<string, OrderView>
  account(): AccountView | null
  /** Engine log lines at warn or error level. */
  problems: string[]
  /**
   * The venue's own answer to a GET below /v1, straight from the simulator with a key of the bench's own (its rate
   * limit apart from the engine's): what the venue says, for the checks.
   */
  venueGet(path: string): Promise<unknown>
  close(): Promise<void>
}

/** The bench's own key on the simulator, for reading the venue's truth without spending the engine's rate limit. */
const TRUTH_KEY = 'sk_bench_truth_0123456789abcdef0123'

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Polls `check` every `everyMs` until it holds or `ms` have passed: when it held (performance.now()), else null. */
export async function until(check: () => boolean, ms: number, everyMs = 20): Promise<number | null> {
  const deadline = performance.now() + ms
  while (!check()) {
    if (performance.now() > deadline) return null
    await sleep(everyMs)
  }
  return performance.now()
}

/** A wait that gave up: the phase did not deliver its load (exit 3), and the message says what it waited for. */
export class Deadline extends Error {}

/** How long one call to the engine or the venue may take in the bench before it gives up. */
export const CALL_MS = 30_000

/**
 * `p`, or a Deadline naming `what` once `ms` have passed without it: no wait in the bench is open-ended, and one
 * that gives up says what it was waiting for.
 */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Deadline(`gave up after ${(ms / 1000).toFixed(0)} s waiting for ${what}`)),
      ms,
    )
  })
  try {
    return await Promise.race([p, late])
  } finally {
    clearTimeout(timer)
  }
}

type Must = <T>(r: Result<T>) => T
export const must: Must = (r) => {
  if (!r.ok) throw new Error(`engine: ${r.error.code}: ${r.error.message}`)
  return r.value
}

export async function startVenue(o: VenueOptions): Promise<Venue> {
  const sim = await within(
    createSimulator({
      dialect: 'voxfi',
      seed: o.seed,
      config: { ...o.config, keys: [...(o.config.keys ?? []), { value: TRUTH_KEY, name: 'bench truth' }] },
      ...(o.accountMs !== undefined ? { accountMs: o.accountMs } : {}),
    }),
    CALL_MS,
    'the simulator to start',
  )
  const tap = await within(startTap({ port: sim.port }), CALL_MS, 'the tap to listen')
  const journalDir = mkdtempSync(join(tmpdir(), 'tm-bench-orders-'))
  const { engine, problems } = await startEngine({ journalDir })
  const books = new Map<string, BookView>()
  const orders = new Map<string, OrderView>()
  let account: AccountView | null = null
  const sink = (batch: ViewBatch): void => {
    for (const b of batch.books ?? []) books.set(b.market, b)
    if (batch.account === undefined) return
    account = batch.account
    for (const v of batch.account.orders) orders.set(v.id, v)
  }
  const client = engine.attachClient({ label: 'ticket', sink })
  const listing = sim.listing()
  const markets = listing.flatMap((e) => e.markets.map((m) => m.id))
  const eventOf = new Map(listing.flatMap((e) => e.markets.map((m) => [m.id, e.id] as const)))
  const call = async <T>(r: Promise<Result<T>>, what: string): Promise<T> =>
    must(await within(r, CALL_MS, what))
  const profile = await call(
    client.saveProfile({ name: 'orders-bench', baseUrl: tap.baseUrl, wsUrl: sim.wsUrl }),
    'saveProfile',
  )
  await call(client.selectProfile(profile.id), 'selectProfile')
  await call(client.setApiKey({ key: sim.demoKey, label: 'orders-bench' }), 'setApiKey')
  await call(client.setTrading({ mode: 'live', confirmLive: true, limits: o.limits }), 'setTrading')
  const interests: Interest[] = [
    ...markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })),
    { channel: 'user' },
  ]
  await call(client.setInterests(interests), 'setInterests')
  const ready = () => markets.every((m) => books.get(m)?.state === 'live') && account !== null
  if ((await until(ready, 30_000)) === null)
    throw new Deadline('gave up after 30 s waiting for every book live and the account in the window')
  return {
    sim,
    tap,
    engine,
    client,
    profileId: profile.id,
    markets,
    eventOf,
    books,
    orders,
    account: () => account,
    problems,
    venueGet: async (path) => {
      const res = await within(
        fetch(`${sim.baseUrl}${path}`, { headers: { 'X-Api-Key': TRUTH_KEY } }),
        CALL_MS,
        `the venue's answer to GET ${path}`,
      )
      if (!res.ok) throw new Error(`venue GET ${path}: HTTP ${res.status}`)
      return (await res.json()) as unknown
    },
    close: async () => {
      client.dispose()
      await within(engine.close(), CALL_MS, 'the engine to close')
      await within(tap.close(), CALL_MS, 'the tap to close')
      await within(sim.close(), CALL_MS, 'the simulator to close')
      rmSync(journalDir, { recursive: true, force: true })
    },
  }
}

/**
 * An engine as the app makes one (production defaults, keys in memory, no settings file, the bench's precise
 * clock), with its warnings and errors collected.
 */
export async function startEngine(dirs: {
  journalDir: string | null
  recordingsDir?: string
}): Promise<{ engine: MonitorEngine; problems: string[] }> {
  const problems: string[] = []
  const logger: Logger = {
    info: () => {},
    warn: (m, f) => void problems.push(`warn ${m} ${JSON.stringify(f ?? {})}`),
    error: (m, f) => void problems.push(`error ${m} ${JSON.stringify(f ?? {})}`),
  }
  const engine = await within(
    createMonitor({
      settingsPath: null,
      credentials: createMemoryStore(),
      demo: false,
      logger,
      now: preciseNow,
      ...dirs,
    }),
    CALL_MS,
    'the engine to start',
  )
  return { engine, problems }
}

/** A live limit buy on the venue's profile, as the ticket makes one. */
export function liveBuy(
  v: Venue,
  o: Pick<OrderRequest, 'intentId' | 'market' | 'outcome' | 'priceTicks' | 'quantity'>,
): OrderRequest {
  return { ...o, profileId: v.profileId, mode: 'live', side: 'buy', kind: 'limit', clickedAt: Date.now() }
}

/** The best bid and ask of a market's book in ticks, in `outcome`'s own terms; null without both. */
export function touch(
  book: BookView | undefined,
  outcome: 'YES' | 'NO',
): { bid: number; ask: number } | null {
  const side = outcome === 'YES' ? book : book?.no
  const bid = side?.bids[0]?.[0]
  const ask = side?.asks[0]?.[0]
  if (bid === undefined || ask === undefined) return null
  return { bid: Math.round(bid * 100), ask: Math.round(ask * 100) }
}
