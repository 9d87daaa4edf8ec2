// Fault injection in the VoxFi dialect, observed from real WebSocket clients (and, for the gap, from the runtime).
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Simulator, SimulatorOptions, VoxfiListing } from '../../src/sim'
import { WsClient, httpGet, sleep, type Msg } from './helpers'
import { startVox, steppedRuntime } from './voxfi-harness'

const open: Array<{ close(): Promise<void> | void }> = []
afterEach(async () => {
  for (const o of open.splice(0)) await o.close()
})

type Lv = { price_ticks: number }
type Book = { yes_orderbook: { bids: Lv[]; asks: Lv[] }; no_orderbook: { bids: Lv[]; asks: Lv[] } }

const start = (opts: SimulatorOptions = {}): ReturnType<typeof startVox> =>
  startVox((s) => open.push(s), opts)

async function subscribed(
  sim: Simulator<VoxfiListing>,
  market: string,
  filter = 'orderbook',
): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl)
  open.unshift(c)
  await c.request(
    { type: 'subscribe', channel: 'market', markets: [market], filter },
    (m) => m.type === 'subscribed',
  )
  await c.waitFor((m) => m.market_id === market)
  return c
}

const bookOf = (market: string) => (m: Msg) => m.market_id === market && m.orderbook !== undefined

describe('VoxFi faults', () => {
  it('dropAll terminates every connection abruptly; new connections work', async () => {
    const { sim, market } = await start()
    const a = await subscribed(sim, market)
    sim.faults.dropAll()
    expect((await a.closed).code).toBe(1006)
    expect(sim.connections()).toBe(0)
    await subscribed(sim, market)
  })

  it('stall keeps the socket and pings alive but sends no data (not even pong), then data resumes', async () => {
    const { sim, market } = await start({ pingMs: 40, pongTimeoutMs: 400 })
    const c = await subscribed(sim, market)
    sim.faults.stall(true)
    await new Promise<void>((r) => c.ws.once('ping', () => r()))
    const from = c.raw.length
    let pings = 0
    await new Promise<void>((r) => c.ws.on('ping', () => ++pings === 4 && r()))
    c.ws.send('ping')
    await sleep(100)
    expect(c.raw.length).toBe(from)
    expect(c.ws.readyState).toBe(WebSocket.OPEN)
    sim.faults.stall(false)
    const mark = c.mark()
    await c.waitFor(bookOf(market), { from: mark })
  })

  it('sendMalformed, sendOversized and sendRaw reach every connection verbatim', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    const from = c.raw.length
    sim.faults.sendMalformed(3)
    sim.faults.sendOversized(200_000)
    sim.faults.sendRaw('{"msg_type":"hello"}')
    const deadline = Date.now() + 5000
    while (!c.raw.includes('{"msg_type":"hello"}') && Date.now() < deadline) await sleep(10)
    const got = c.raw.slice(from).filter((t) => !t.includes('"market_id"'))
    expect(got).toHaveLength(5)
    for (const t of got.slice(0, 3)) expect(() => JSON.parse(t) as unknown).toThrow()
    const big = JSON.parse(got[3] as string) as { msg_type: string; padding: string }
    expect(big.msg_type).toBe('notice')
    expect(got[3]!.length).toBe(200_000)
    expect(c.ws.readyState).toBe(WebSocket.OPEN)
  })

  it('refuseConnections answers upgrades with 503 for a while; REST is unaffected', async () => {
    const { sim, market } = await start()
    sim.faults.refuseConnections(300)
    await expect(WsClient.connect(sim.wsUrl)).rejects.toThrow(/503/)
    expect(
      (await httpGet(`${sim.baseUrl}/data/events`, { headers: { 'X-Api-Key': sim.demoKey } })).status,
    ).toBe(200)
    await sleep(350)
    await subscribed(sim, market)
  })

  it('restart drops everything and listens again on the same port', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    sim.faults.stall(true)
    await sim.faults.restart()
    expect((await c.closed).code).toBe(1006)
    const again = await subscribed(sim, market)
    expect(again.ws.url).toBe(sim.wsUrl + '/')
  })

  it('crossed sends one update-orderbook whose YES book is crossed; false for an unknown market', async () => {
    const { sim, market } = await start({ tickMs: 1000 })
    const c = await WsClient.connect(sim.wsUrl)
    open.unshift(c)
    await c.request(
      { type: 'subscribe', channel: 'market', markets: [market], filter: 'orderbook' },
      (m) => m.type === 'subscribed',
    )
    const from = c.mark()
    expect(sim.faults.crossed(market)).toBe(true)
    const f = await c.waitFor(bookOf(market), { from })
    expect(f.msg_type).toBe('update-orderbook')
    const b = f.orderbook as Book & { spread_yes: number }
    expect(b.yes_orderbook.bids[0]!.price_ticks).toBeGreaterThanOrEqual(b.yes_orderbook.asks[0]!.price_ticks)
    expect(b.spread_yes).toBe(0)
    expect(sim.faults.crossed('nope')).toBe(false)
    // The real book is untouched.
    const rest = await httpGet(`${sim.baseUrl}/data/markets/${market}/orderbook`, {
      headers: { 'X-Api-Key': sim.demoKey },
    })
    const r = rest.json as Book
    expect(r.yes_orderbook.bids[0]!.price_ticks).toBeLessThan(r.yes_orderbook.asks[0]!.price_ticks)
  })

  it('gap drops the next book frame of that market (there is no seq in VoxFi); the trade of that step still goes', () => {
    // Two identical runtimes driven step by step, one with the fault: their publications differ in exactly one book.
    const twin = () => {
      const t = steppedRuntime(8, { events: 2, marketsPerEvent: 2 })
      open.push({ close: () => t.vox.close() })
      const market = t.vox.catalog.markets[0]!.uuid
      const calls: Array<[number, string, string]> = []
      t.frames.set(market, calls)
      return { gap: t.vox.gap, market, calls, run: t.run }
    }
    const [plain, faulty] = [twin(), twin()]
    plain.run(1, 20)
    faulty.run(1, 20)
    expect(faulty.calls).toEqual(plain.calls)
    expect(faulty.gap(faulty.market)).toBe(true)
    expect(faulty.gap('nope')).toBe(false)
    plain.calls.length = 0
    faulty.calls.length = 0
    plain.run(21, 60)
    faulty.run(21, 60)
    const k = plain.calls.findIndex((c, i) => JSON.stringify(c) !== JSON.stringify(faulty.calls[i]))
    expect(k).toBeGreaterThanOrEqual(0)
    const [step, book, trade] = plain.calls[k] as [number, string, string]
    expect(book).not.toBe('-')
    if (trade === '-') {
      // A book-only step: nothing at all went out for it.
      expect(faulty.calls.slice(k)).toEqual(plain.calls.slice(k + 1))
    } else {
      // A book-and-trade step: the trade alone went out.
      expect(faulty.calls[k]).toEqual([step, '-', trade])
      expect(faulty.calls.slice(k + 1)).toEqual(plain.calls.slice(k + 1))
    }
  })

  it('firehose works in VoxFi: whole-book update-orderbook and new-trade frames for synthetic markets', async () => {
    const { sim } = await start()
    const ids = sim.faults.firehose({ msgsPerSec: 2000, markets: 4 })
    expect(ids).toEqual(['fh-0001', 'fh-0002', 'fh-0003', 'fh-0004'])
    const c = await WsClient.connect(sim.wsUrl)
    open.unshift(c)
    await c.request(
      { type: 'subscribe', channel: 'market', markets: ids.slice(0, 2) },
      (m) => m.type === 'subscribed',
    )
    const books = await c.collect((m) => m.msg_type === 'update-orderbook', 30)
    await c.collect((m) => m.msg_type === 'new-trade', 3)
    for (const f of books) {
      expect(f.event_id).toBe('fh')
      expect(ids.slice(0, 2)).toContain(f.market_id)
      const b = f.orderbook as Book
      expect(b.yes_orderbook.bids).toHaveLength(10)
      expect(b.no_orderbook.asks).toHaveLength(10)
      expect(b.yes_orderbook.bids[0]!.price_ticks).toBeLessThan(b.yes_orderbook.asks[0]!.price_ticks)
    }
    expect(sim.stats().firehoseSent).toBeGreaterThan(30)
    expect(sim.faults.crossed('fh-0001')).toBe(true)
    expect(sim.faults.gap('fh-0002')).toBe(true)
    sim.faults.stopFirehose()
    expect(() => sim.faults.firehose({ msgsPerSec: 0 })).toThrow(RangeError)
  })
})
