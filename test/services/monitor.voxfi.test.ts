// The engine against the simulator in VoxFi's dialect, over real loopback sockets (docs/voxfi.md): the first book
// from REST, both books, trades with their outcome, the account from REST in reais with executions never on the
// public tape, every close code, the heartbeat, and 429.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createSimulator, type SimConfig, type Simulator } from '../../src/sim/index'
import type { BookView, TradeView } from '../../src/shared/model'
import { startHarness, type Harness } from './harness'
import { never, waitFor } from './helpers'
import { createWsTap, type WsTap } from './ws-tap'

const harnesses: Harness[] = []
afterEach(async () => {
  while (harnesses.length > 0) await harnesses.pop()?.close()
})

async function voxfi(
  config?: SimConfig,
  extra: { pingMs?: number; pongTimeoutMs?: number; voxfiListingEnvelope?: 'bare' | 'data' | 'events' } = {},
  /** A tap between the engine and the venue's socket, to count what the venue received. */
  tapped = false,
) {
  const sim = await createSimulator({
    dialect: 'voxfi',
    seed: 7,
    tickMs: 50,
    ...extra,
    ...(config ? { config } : {}),
  })
  const tap: WsTap | null = tapped ? await createWsTap(sim.wsUrl) : null
  // The harness only points the engine at the simulator's URLs; its listing type is the reference dialect's.
  const h = await startHarness({
    sim: sim as unknown as Simulator,
    ...(tap ? { endpoint: { baseUrl: sim.baseUrl, wsUrl: tap.url } } : {}),
  })
  harnesses.push({ ...h, close: async () => (await h.close(), await tap?.close(), await sim.close()) })
  const events = sim.listing()
  const multi = events.find((e) => e.markets.length > 1) ?? events[0]
  const single = events.find((e) => e.markets.length === 1) ?? events[1]
  if (!multi || !single) throw new Error('the simulator lists too few events')
  return { sim, h, tap, market: multi.markets[0]?.id as string, single, events }
}

const allTrades = (h: { batches: { trades?: TradeView[] }[] }): TradeView[] =>
  h.batches.flatMap((b) => b.trades ?? [])

/** A fill read from a user-channel frame (it carries the frame's trade_type), not from the REST activity. */
const isStreamFill = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && 'orderType' in data

describe('the engine on VoxFi', () => {
  it('reads the listing: titles from description, categories, tags and resolvesAt', async () => {
    const { sim, h, single } = await voxfi()
    const { client } = h.attach('events')
    // VoxFi's REST wants X-Api-Key on every request, the listing included.
    expect((await client.listEvents()).ok).toBe(false)
    expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
    const r = await client.listEvents()
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const ev = r.value.find((e) => e.id === single.id)
    expect(ev?.title).toBe(single.description)
    expect(ev?.category).toBe(single.category)
    expect(ev?.tags).toEqual(single.tags)
    expect(ev?.resolvesAt).toBe(Date.parse(single.resolves_at as string))
    // A single-market event's market has an empty description: it takes the event's title, never its id.
    expect(ev?.markets[0]?.title).toBe(single.description)
  })

  for (const envelope of ['bare', 'data', 'events'] as const) {
    it(`reads a listing sent ${envelope === 'bare' ? 'as a bare array' : `under "${envelope}"`}`, async () => {
      const { sim, h, events } = await voxfi(undefined, { voxfiListingEnvelope: envelope })
      const { client } = h.attach('envelope')
      expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
      const r = await client.listEvents({ refresh: true })
      expect(r.ok && r.value.map((e) => e.id)).toEqual(events.map((e) => e.id))
    })
  }

  it('takes the first book from REST while the stream is silent, then the stream replaces it; both books and the ticker', async () => {
    const { sim, h, market } = await voxfi()
    sim.faults.stall(true)
    const { client, rec } = h.attach('book')
    expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
    await client.setBookDepth(15)
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.latestBook(market)?.state === 'live', 'a live book from REST')
    const fromRest = rec.latestBook(market) as BookView
    expect(fromRest.source).toBe('rest')
    expect(fromRest.bids.length + fromRest.asks.length).toBeGreaterThan(0)
    expect(fromRest.no).toBeDefined()
    for (const [p] of [...fromRest.bids, ...fromRest.asks, ...(fromRest.no?.bids ?? [])]) {
      expect(p).toBeGreaterThan(0)
      expect(p).toBeLessThan(1)
    }
    sim.faults.stall(false)
    await waitFor(() => {
      const b = rec.latestBook(market)
      return b !== undefined && b.state === 'live' && b.source === undefined
    }, 'the stream replacing the REST book')
    const ticker = rec.batches
      .flatMap((b) => b.tickers ?? [])
      .find((t) => t.market === market && t.chance !== undefined)
    expect(ticker?.chance).toBeGreaterThan(0)
    expect(ticker?.chance).toBeLessThan(1)
    await waitFor(() => allTrades(rec).some((t) => t.market === market), 'a trade')
    const t = allTrades(rec).find((x) => x.market === market) as TradeView
    expect(['yes', 'no']).toContain(t.outcome)
    expect(t.price).toBeLessThan(1)
  })

  it("reads the account from REST in reais, and the account's executions never reach the public tape", async () => {
    const { sim, h, events } = await voxfi()
    const { client, rec } = h.attach('account')
    const markets = events.flatMap((e) => e.markets.map((m) => m.id))
    await client.setInterests([
      { channel: 'user' },
      ...markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })),
    ])
    expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
    const user = () => rec.batches.flatMap((b) => b.user ?? [])
    await waitFor(() => user().some((u) => u.topic === 'balance'), 'the balance from REST')
    const balance = user().find((u) => u.topic === 'balance')?.data as Record<string, unknown>
    expect(balance.currency).toBe('BRL')
    expect(typeof balance.total).toBe('number')
    // The stream's executions, not the REST activity's backfill: only the user channel's frames could be misread
    // as public prints.
    const executions = () => user().filter((u) => u.topic === 'fill' && isStreamFill(u.data))
    await waitFor(() => executions().length > 0, 'an execution on the user channel', 20_000)
    // The public tape is flowing too, so a leaked execution would have had somewhere to go.
    await waitFor(() => allTrades(rec).length > 0, 'a public trade')
    const fill = executions()[0]?.data as Record<string, unknown>
    expect(fill.price).toBeGreaterThan(0)
    expect(fill.price).toBeLessThan(1)
    // No public trade is one of the account's executions: the same market, price, size and side, received with it
    // (VoxFi's frames carry no time, so a trade read from the execution's frame is dated when that frame came).
    const leaked = executions().flatMap((u) => {
      const f = u.data as Record<string, unknown>
      return allTrades(rec).filter(
        (t) =>
          t.market === f.market &&
          t.price === f.price &&
          t.size === f.size &&
          t.side === f.side &&
          t.receivedAt === u.receivedAt,
      )
    })
    expect(leaked).toEqual([])
  })

  it('4001: the key state is lasting, market data keeps flowing, and the key is not resent', async () => {
    const { sim, h, tap, market } = await voxfi(undefined, {}, true)
    if (!tap) throw new Error('no tap')
    const { client, rec } = h.attach('auth')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }, { channel: 'user' }])
    expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
    await waitFor(() => sim.subscriptions().some((s) => s.user), 'the user subscription')
    expect(tap.subscribes('user')).toEqual([1])
    sim.setKeyState(sim.demoKey, { revoked: true })
    await waitFor(() => rec.status()?.authError?.code === 'unauthorized', 'the key state')
    expect(rec.status()?.authError?.message).toMatch(/expired|disabled|allowed IPs/)
    // The 4001 closed the socket: the market is asked for again on the next one, and its data flows.
    await waitFor(() => tap.subscribes('market', market).includes(2), 'the market on the new socket')
    const mark = rec.mark()
    await waitFor(() => rec.streamed(market, mark), 'market data after the 4001')
    expect(rec.status()?.state).toBe('auth-error')
    // A key entered anew is sent at once, on the same socket: anything the engine had sent with the refused key
    // since the 4001 is in the tap before it.
    expect(sim.setKeyState(sim.demoKey, { revoked: false })).toBe(true)
    expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
    await waitFor(() => tap.subscribes('user').length >= 2, 'the new key subscribed')
    expect(tap.subscribes('user')).toEqual([1, tap.sockets()])
  })

  it('an injected 4004 with every message answered sets nothing aside: the market streams again, no retry loop; 4003 reconnects and resubscribes', async () => {
    const { sim, h, market } = await voxfi()
    const { client, rec } = h.attach('codes')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.streamed(market, 0), 'the market streaming')
    const before = rec.status()?.reconnects ?? 0
    sim.faults.closeAll(4004, 'invalid channel')
    await waitFor(
      () =>
        (rec.status()?.incidents ?? []).some(
          (i) => /4004/.test(i.detail) && /nothing is set aside/.test(i.detail),
        ),
      'the 4004 in the incident log',
    )
    await waitFor(() => (rec.status()?.reconnects ?? 0) > before, 'the reconnect')
    const mark = rec.mark()
    // The market's subscribe was acknowledged before its data came: the close was not about it.
    await waitFor(() => rec.streamed(market, mark), "the market's data after the 4004")
    expect(sim.subscriptions().some((s) => s.market.some((m) => m.id === market))).toBe(true)
    expect((rec.status()?.reconnects ?? 0) - before).toBe(1)

    const at4003 = rec.mark()
    sim.faults.serverError()
    await waitFor(
      () => (rec.status()?.reconnects ?? 0) > before + 1 || rec.sawState('reconnecting', at4003),
      'the 4003 reconnect',
    )
    await waitFor(
      () => sim.subscriptions().some((s) => s.market.some((m) => m.id === market)),
      'the market resubscribed',
    )
  })

  it('counts each print once when one window watches a market and another its event (both channels carry it)', async () => {
    const { sim, h, events } = await voxfi()
    const ev = events.find((e) => e.markets.length > 1) ?? events[0]
    const market = ev?.markets[0]?.id as string
    const a = h.attach('market')
    const b = h.attach('event')
    await a.client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await b.client.setInterests([{ channel: 'event', id: ev?.id as string, filter: 'all' }])
    await waitFor(
      () => sim.subscriptions().some((x) => x.market.length > 0 && x.event.length > 0),
      'both channels',
    )
    // A plain client on the market channel alone counts the venue's prints over the same stretch.
    const raw = new WebSocket(sim.wsUrl)
    let venuePrints = 0
    raw.on('message', (d) => {
      const f = JSON.parse(String(d)) as { market_id?: string; last_trade?: unknown }
      if (f.market_id === market && f.last_trade !== undefined) venuePrints++
    })
    await new Promise((r) => raw.once('open', r))
    raw.send(JSON.stringify({ type: 'subscribe', channel: 'market', markets: [market] }))
    const engineTrades = () => allTrades(a.rec).filter((t) => t.market === market).length
    await waitFor(() => venuePrints > 0, 'the plain client hearing prints')
    const from = engineTrades()
    const venueFrom = venuePrints
    // A stretch of ten prints, then until the engine has about as many (give or take the edges of the stretch):
    // counted twice, it would have twenty.
    await waitFor(() => venuePrints - venueFrom >= 10, 'ten prints', 20_000)
    await waitFor(() => engineTrades() - from >= venuePrints - venueFrom - 3, 'the engine hearing them')
    const engine = engineTrades() - from
    const venue = venuePrints - venueFrom
    raw.close()
    // Not twice as many (each print came on both channels), give or take the edges of the stretch.
    expect(Math.abs(engine - venue)).toBeLessThanOrEqual(3)
  })

  it('keeps two identical prints as two while no event channel is wanted, and drops the copy once one is', async () => {
    const { sim, h, market, events } = await voxfi()
    const ev = events.find((e) => e.markets.some((m) => m.id === market))
    const a = h.attach('market')
    await a.client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => sim.subscriptions().some((x) => x.market.length > 0), 'the market channel')
    const fixture = JSON.parse(
      readFileSync(join(__dirname, '../fixtures/voxfi/ws-market-new-trade.json'), 'utf8'),
    ) as { example: { market_id: string; event_id: string; last_trade: { qty_contracts: number } } }
    /** The docs' print on this market, of a size the simulator never trades. */
    const print = (size: number): string => {
      const frame = structuredClone(fixture.example)
      frame.market_id = market
      frame.event_id = ev?.id as string
      frame.last_trade.qty_contracts = size
      return JSON.stringify(frame)
    }
    const sized = (size: number): number => allTrades(a.rec).filter((t) => t.size === size).length
    /** Prints `size` twice in a row, then another once: on one socket, when that one is in, so are both. */
    const twice = async (size: number, then: number): Promise<number> => {
      sim.faults.sendRaw(print(size))
      sim.faults.sendRaw(print(size))
      sim.faults.sendRaw(print(then))
      await waitFor(() => sized(then) === 1, 'the print after')
      return sized(size)
    }
    // The market channel alone: nothing sends a copy, so the same text twice is two prints (docs/voxfi.md §8
    // item 27).
    expect(await twice(4321, 4322)).toBe(2)
    // With the event channel wanted too, the second arrival within the second is the other channel's copy.
    const b = h.attach('event')
    await b.client.setInterests([{ channel: 'event', id: ev?.id as string, filter: 'all' }])
    await waitFor(() => sim.subscriptions().some((x) => x.event.length > 0), 'the event channel')
    expect(await twice(4323, 4324)).toBe(1)
  })

  it('answers the server pings: no heartbeat close while the venue pings every 300 ms', async () => {
    const { sim, h, market } = await voxfi(undefined, { pingMs: 300, pongTimeoutMs: 600 })
    const { client, rec } = h.attach('heartbeat')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.latestBook(market)?.state === 'live', 'a live book')
    // A close by the venue shows in the reconnect count...
    const first = rec.status()?.reconnects ?? 0
    sim.faults.dropAll()
    await waitFor(() => (rec.status()?.reconnects ?? 0) > first, 'the reconnect after a drop')
    const mark = rec.mark()
    await waitFor(() => rec.streamed(market, mark), 'data on the new socket')
    // ...and the heartbeat's would too: none in ten of the venue's pings, each unanswered one closing in 600 ms.
    const before = rec.status()?.reconnects ?? 0
    await never(() => (rec.status()?.reconnects ?? 0) > before, 'a heartbeat close', 3_000)
  })

  it('honours 429 and retry_after: requests are held back and the status says until when', async () => {
    const { sim, h, events } = await voxfi({ rateLimit: { requests: 3, windowMs: 60_000 } })
    const { client, rec } = h.attach('limits')
    expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
    const markets = events.flatMap((e) => e.markets.map((m) => m.id)).slice(0, 8)
    await client.setInterests(
      markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })),
    )
    await waitFor(() => (rec.status()?.rateLimit?.blockedUntil ?? 0) > Date.now(), 'the rate-limit block')
    const until = rec.status()?.rateLimit?.blockedUntil ?? 0
    expect(until - Date.now()).toBeGreaterThan(30_000)
  })
})
