// Same seed, same exchange: listing, demo key and every market's update sequence (DESIGN §3.1).
import { afterAll, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/sim'
import { WsClient, isAck, isBook, isTrade, type Msg } from './helpers'

const sims: Simulator[] = []
const clients: WsClient[] = []
afterAll(async () => {
  for (const c of clients) await c.close()
  for (const s of sims) await s.close()
})

const shape = (s: Simulator): unknown =>
  s.listing().events.map((e) => ({ ...e, markets: e.markets.map((m) => [m.id, m.title, m.question]) }))

async function watch(sim: Simulator, market: string): Promise<WsClient> {
  const c = await WsClient.connect(sim.wsUrl)
  clients.push(c)
  await c.request({ type: 'subscribe', channel: 'market', markets: [market] }, isAck('subscribed', 'market'))
  return c
}

// Wall-clock timestamps are the only part allowed to differ.
const strip = (m: Msg): Msg => {
  const { ts: _ts, ...rest } = m
  return rest
}

describe('determinism', () => {
  it('same seed: same listing, demo key and per-market deltas and trades; another seed differs', async () => {
    const a = await createSimulator({ seed: 99, tickMs: 20 })
    sims.push(a)
    const market = a.listing().events[2]?.markets[1]?.id as string
    const ca = await watch(a, market)
    // Start the twin later on purpose: its stream must still line up by seq and trade id.
    await ca.collect(isBook('market', market, false), 5)
    const b = await createSimulator({ seed: 99, tickMs: 20 })
    sims.push(b)
    const c = await createSimulator({ seed: 100 })
    sims.push(c)
    expect(b.demoKey).toBe(a.demoKey)
    expect(shape(b)).toEqual(shape(a))
    expect(c.demoKey).not.toBe(a.demoKey)
    expect(shape(c)).not.toEqual(shape(a))

    const cb = await watch(b, market)
    await cb.collect(isBook('market', market, false), 40)
    await cb.collect(isTrade('market', market), 10)
    const bDeltas = new Map(cb.since(0, isBook('market', market, false)).map((m) => [m.seq, strip(m)]))
    const bTrades = new Map(cb.since(0, isTrade('market', market)).map((m) => [m.id, strip(m)]))
    const maxSeq = Math.max(...(bDeltas.keys() as Iterable<number>))
    await ca.waitFor((m) => isBook('market', market, false)(m) && (m.seq as number) >= maxSeq)
    const aDeltas = new Map(ca.since(0, isBook('market', market, false)).map((m) => [m.seq, strip(m)]))
    const aTrades = new Map(ca.since(0, isTrade('market', market)).map((m) => [m.id, strip(m)]))
    // Either side may have subscribed a step or two earlier: compare what both saw, and require plenty of it.
    let sameDeltas = 0
    for (const [seq, m] of bDeltas) {
      const other = aDeltas.get(seq)
      if (other === undefined) continue
      expect(other, `seq ${String(seq)}`).toEqual(m)
      sameDeltas++
    }
    let sameTrades = 0
    for (const [id, t] of bTrades) {
      const other = aTrades.get(id)
      if (other === undefined) continue
      expect(other, `trade ${String(id)}`).toEqual(t)
      sameTrades++
    }
    expect(sameDeltas).toBeGreaterThanOrEqual(35)
    expect(sameTrades).toBeGreaterThanOrEqual(8)
  })
})
