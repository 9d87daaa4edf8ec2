// Every fault mode of the library form (DESIGN §3.1), observed from real WebSocket clients.
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/sim'
import {
  WsClient,
  applyBook,
  bestAsk,
  bestBid,
  httpGet,
  isAck,
  isBook,
  type BookLevels,
  type Msg,
} from './helpers'

const open: Array<{ close(): Promise<void> }> = []

async function start(opts: SimulatorOptions = {}): Promise<{ sim: Simulator; market: string }> {
  const sim = await createSimulator({
    seed: 5,
    tickMs: 20,
    config: { events: 3, marketsPerEvent: 2 },
    ...opts,
  })
  open.push(sim)
  return { sim, market: sim.listing().events[0]?.markets[0]?.id as string }
}

async function client(sim: Simulator): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl)
  open.unshift(c)
  return c
}

async function subscribed(sim: Simulator, market: string): Promise<WsClient> {
  const c = await client(sim)
  await c.request({ type: 'subscribe', channel: 'market', markets: [market] }, isAck('subscribed', 'market'))
  await c.waitFor(isBook('market', market, true))
  return c
}

afterEach(async () => {
  for (const o of open.splice(0)) await o.close()
})

const deltas = (c: WsClient, market: string, from = 0): Msg[] =>
  c.since(from, isBook('market', market, false))

describe('faults', () => {
  it('dropAll terminates every connection abruptly; new connections work', async () => {
    const { sim, market } = await start()
    const a = await subscribed(sim, market)
    const b = await client(sim)
    expect(sim.connections()).toBe(2)
    sim.faults.dropAll()
    expect((await a.closed).code).toBe(1006)
    expect((await b.closed).code).toBe(1006)
    expect(sim.connections()).toBe(0)
    expect(sim.subscriptions()).toEqual([])
    await subscribed(sim, market)
  })

  it('stall keeps the socket and pings alive but sends no data, then data resumes', async () => {
    const { sim, market } = await start({ pingMs: 50 })
    const c = await subscribed(sim, market)
    await c.collect(isBook('market', market, false), 3)
    sim.faults.stall(true)
    // Let any frame already in flight land before counting.
    await new Promise<void>((resolve) => c.ws.once('ping', () => resolve()))
    const from = c.raw.length
    let pings = 0
    await new Promise<void>((resolve) =>
      c.ws.on('ping', () => {
        if (++pings === 5) resolve()
      }),
    )
    expect(c.raw.length).toBe(from)
    expect(c.ws.readyState).toBe(WebSocket.OPEN)
    // Requests during the stall go unanswered too.
    c.send({ type: 'subscribe', channel: 'market', markets: [market] })
    await new Promise<void>((resolve) => c.ws.once('ping', () => resolve()))
    expect(c.raw.length).toBe(from)
    sim.faults.stall(false)
    const mark = c.mark()
    await c.collect(isBook('market', market, false), 3, { from: mark })
  })

  it('sendMalformed sends invalid JSON text frames and the stream continues', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    const from = c.raw.length
    sim.faults.sendMalformed(3)
    await c.collect(isBook('market', market, false), 3, { from: c.mark() })
    const bad = c.raw.slice(from).filter((t) => {
      try {
        JSON.parse(t)
        return false
      } catch {
        return true
      }
    })
    expect(bad).toHaveLength(3)
    expect(c.ws.readyState).toBe(WebSocket.OPEN)
  })

  it('sendOversized sends one huge valid-JSON frame (default about 2 MB)', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    const from = c.mark()
    sim.faults.sendOversized()
    const big = await c.waitFor((m) => typeof m.padding === 'string', { from })
    expect(JSON.stringify(big).length).toBeGreaterThan(2_000_000)
    expect(JSON.stringify(big).length).toBeLessThan(2_200_000)
    sim.faults.sendOversized(10_000)
    const small = await c.waitFor(
      (m) => typeof m.padding === 'string' && (m.padding as string).length < 20_000,
      {
        from: from + 1,
      },
    )
    expect(JSON.stringify(small).length).toBeGreaterThan(9_000)
  })

  it('refuseConnections answers upgrades with 503 for a while; REST and open connections are unaffected', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    sim.faults.refuseConnections(400)
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(sim.wsUrl)
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0)
        ws.terminate()
      })
      ws.on('open', () => reject(new Error('connection was accepted')))
      ws.on('error', () => {})
    })
    expect(status).toBe(503)
    expect(
      (await httpGet(`${sim.baseUrl}/data/events`, { headers: { 'X-Api-Key': sim.demoKey } })).status,
    ).toBe(200)
    await c.collect(isBook('market', market, false), 3, { from: c.mark() })
    // Once the period is over, connections are accepted again.
    await expect
      .poll(
        async () => {
          try {
            const x = await WsClient.connect(sim.wsUrl)
            await x.close()
            return true
          } catch {
            return false
          }
        },
        { timeout: 5000, interval: 100 },
      )
      .toBe(true)
  })

  it('restart drops everyone and listens on the same port; resubscribing starts with a snapshot, seqs continue', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    await c.collect(isBook('market', market, false), 3)
    const lastSeq = deltas(c, market).at(-1)?.seq as number
    const port = sim.port
    await sim.faults.restart()
    expect((await c.closed).code).toBe(1006)
    expect(sim.port).toBe(port)
    expect(sim.subscriptions()).toEqual([])
    const again = await client(sim)
    const from = again.mark()
    again.send({ type: 'subscribe', channel: 'market', markets: [market] })
    const snap = await again.waitFor(isBook('market', market), { from })
    expect(snap.snapshot).toBe(true)
    expect(snap.seq as number).toBeGreaterThanOrEqual(lastSeq)
    expect(
      (await httpGet(`${sim.baseUrl}/data/events`, { headers: { 'X-Api-Key': sim.demoKey } })).status,
    ).toBe(200)
  })

  it('gap skips exactly one seq on the next delta of that market', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    await c.collect(isBook('market', market, false), 2)
    expect(sim.faults.gap(market)).toBe(true)
    expect(sim.faults.gap('no-such-market')).toBe(false)
    const from = c.mark()
    await c.collect(isBook('market', market, false), 3, { from })
    const seqs = c.since(0, isBook('market', market)).map((m) => m.seq as number)
    const steps = seqs.slice(1).map((s, i) => s - (seqs[i] as number))
    expect(steps.filter((d) => d === 2)).toHaveLength(1)
    expect(steps.every((d) => d === 1 || d === 2)).toBe(true)
  })

  it('crossed sends one delta that crosses the book (bid >= ask), in sequence', async () => {
    const { sim, market } = await start()
    const c = await subscribed(sim, market)
    await c.collect(isBook('market', market, false), 2)
    expect(sim.faults.crossed('no-such-market')).toBe(false)
    const from = c.mark()
    expect(sim.faults.crossed(market)).toBe(true)
    await c.collect(isBook('market', market, false), 2, { from })
    const book: BookLevels = { bids: new Map(), asks: new Map() }
    let crossedAt = -1
    let prevSeq = -1
    for (const m of c.since(0, isBook('market', market))) {
      if (m.snapshot !== true) expect(m.seq).toBe(prevSeq + 1)
      prevSeq = m.seq as number
      applyBook(book, m)
      if (crossedAt < 0 && bestBid(book) >= bestAsk(book)) crossedAt = c.messages.indexOf(m)
    }
    expect(crossedAt).toBeGreaterThanOrEqual(from)
  })

  it('sendRaw reaches every connection verbatim', async () => {
    const { sim } = await start()
    const a = await client(sim)
    const b = await client(sim)
    sim.faults.sendRaw('{"hello":"raw"}')
    sim.faults.sendRaw('plain text')
    for (const c of [a, b]) {
      await c.waitFor((m) => m.hello === 'raw')
      await expect.poll(() => c.raw.includes('plain text')).toBe(true)
    }
  })

  it('firehose delivers valid, in-sequence updates on synthetic markets at a high rate', async () => {
    const { sim } = await start({ tickMs: 1000 })
    const c = await client(sim)
    // Synthetic ids are subscribable before the firehose starts, with a snapshot.
    await c.request(
      { type: 'subscribe', channel: 'market', markets: ['fh-0001'] },
      isAck('subscribed', 'market'),
    )
    const snap = await c.waitFor(isBook('market', 'fh-0001', true))
    expect(snap.seq).toBe(0)
    const ids = sim.faults.firehose({ msgsPerSec: 50_000, markets: 40 })
    expect(ids).toHaveLength(40)
    expect(ids[0]).toBe('fh-0001')
    c.send({ type: 'subscribe', channel: 'market', markets: ids })
    const t0 = Date.now()
    const from = c.mark()
    await c.collect((m) => m.channel === 'market' && m.type === 'trade', 2000, { from, timeoutMs: 20_000 })
    const got = c.since(from, (m) => m.channel === 'market' && 'market' in m)
    const rate = Math.round(got.length / ((Date.now() - t0) / 1000))
    console.info(`firehose: ${got.length} messages, about ${rate} msg/s delivered to one client`)
    sim.faults.stopFirehose()
    const books = new Map<string, BookLevels>()
    const seqs = new Map<string, number>()
    for (const m of got) {
      const id = m.market as string
      expect(ids).toContain(id)
      if (m.type !== 'orderbook') {
        expect(m.type).toBe('trade')
        expect(['buy', 'sell']).toContain(m.side)
        continue
      }
      const b = books.get(id) ?? { bids: new Map(), asks: new Map() }
      books.set(id, b)
      if (m.snapshot === true) seqs.set(id, m.seq as number)
      else {
        const prev = seqs.get(id)
        if (prev !== undefined) expect(m.seq).toBe(prev + 1)
        seqs.set(id, m.seq as number)
      }
      applyBook(b, m)
      if (b.bids.size > 0 && b.asks.size > 0) expect(bestBid(b)).toBeLessThan(bestAsk(b))
    }
    expect(sim.stats().firehoseSent).toBeGreaterThanOrEqual(2000)
  })
})
