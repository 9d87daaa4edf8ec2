// A 4004 finds the message it refers to (docs/voxfi.md §8 item 20), against the simulator in VoxFi's dialect over
// real loopback sockets, with a tap in front of it that writes down what the venue received on each socket.
// VoxFi names no message when it closes with 4004, so the engine works out which subscription drew it; a valid
// subscription is never set aside, and every one streams again.
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../../src/sim/index'
import type { Incident } from '../../../src/shared/model'
import { startHarness, type Recorder } from '../harness'
import { waitFor } from '../helpers'
import { createWsTap } from '../ws-tap'

// Malformed ids (a space in them): the simulator refuses them with 4004, as VoxFi refuses a malformed message.
// A well-formed unknown id would be accepted (§8 item 23) and could not draw the close.
const BAD_MARKET = 'BAD market'
const BAD_EVENT = 'BAD event'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

async function venue() {
  const sim = await createSimulator({ dialect: 'voxfi', seed: 7, tickMs: 50 })
  const tap = await createWsTap(sim.wsUrl)
  const h = await startHarness({
    sim: sim as unknown as Simulator,
    endpoint: { baseUrl: sim.baseUrl, wsUrl: tap.url },
  })
  cleanups.push(async () => {
    await h.close()
    await tap.close()
    await sim.close()
  })
  const { client, rec } = h.attach('refusals')
  await client.setInspector(true)
  // VoxFi's listing wants the key: without it the engine cannot tell which markets an event carries.
  expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
  const events = sim.listing()
  // Distinct events, each with its own markets, so one market's data says which subscription carried it.
  const multi = events.filter((e) => e.markets.length > 1)
  if (multi.length < 3) throw new Error('the simulator lists too few multi-market events')
  return { sim, tap, client, rec, events: multi }
}

const incidents = (rec: Recorder): Incident[] => rec.status()?.incidents ?? []

/** Every id the incident log says was set aside. */
function setAside(rec: Recorder, ids: readonly string[]): string[] {
  return ids.filter((id) =>
    incidents(rec).some((i) => i.detail.includes(`"${id}"`) && /set aside/.test(i.detail)),
  )
}

async function refusedInInspector(rec: Recorder, id: string): Promise<void> {
  await waitFor(
    () =>
      rec.batches.some((b) =>
        (b.inspector ?? []).some(
          (f) =>
            f.classification === 'refused' &&
            f.raw.includes(`"${id}"`) &&
            /refused by the venue \(4004\)/.test(f.error ?? ''),
        ),
      ),
    `the refused subscription of "${id}" in the inspector`,
  )
}

describe('a 4004 sets aside only the subscription it refused', () => {
  it('market BAD, then event good: good streams again within 5 s and only BAD is set aside', async () => {
    const { tap, client, rec, events } = await venue()
    const good = events[0]
    const goodMarket = good?.markets[0]?.id as string
    const mark = rec.mark()
    const started = Date.now()
    // One flush: the market channel's subscribe goes first, the event's right after, both before the close.
    await client.setInterests([
      { channel: 'market', id: BAD_MARKET, filter: 'all' },
      { channel: 'event', id: good?.id as string, filter: 'all' },
    ])
    await waitFor(() => rec.streamed(goodMarket, mark), 'the good event streaming again', 5_000)
    expect(Date.now() - started).toBeLessThan(5_000)
    // The fault needs good sent after BAD on the socket the 4004 closed: the last message sent was good's.
    const first = tap.sent.filter((m) => m.socket === 1).map((m) => m.json?.channel)
    expect(first).toEqual(['market', 'event'])
    await refusedInInspector(rec, BAD_MARKET)
    await waitFor(() => setAside(rec, [BAD_MARKET]).length === 1, 'the incident naming BAD')
    expect(setAside(rec, [good?.id as string])).toEqual([])
    expect(
      incidents(rec).some(
        (i) => i.detail.includes(BAD_MARKET) && /refused by the venue \(4004\)/.test(i.detail),
      ),
    ).toBe(true)
    // BAD went out with good, then alone (its probe, which drew the close), and never again.
    expect(tap.subscribes('market', BAD_MARKET)).toEqual([1, 2])
  })

  it('market good, then event BAD: nothing is probed, BAD is set aside and good keeps streaming', async () => {
    const { tap, client, rec, events } = await venue()
    const bad = events[0]
    const market = events[1]?.markets[0]?.id as string
    expect(bad?.markets.some((m) => m.id === market)).toBe(false)
    const mark = rec.mark()
    await client.setInterests([
      { channel: 'market', id: market, filter: 'all' },
      { channel: 'event', id: BAD_EVENT, filter: 'all' },
    ])
    await refusedInInspector(rec, BAD_EVENT)
    await waitFor(() => tap.sockets() >= 2, 'the reconnect')
    await waitFor(() => rec.streamed(market, mark), 'the good market streaming', 5_000)
    expect(setAside(rec, [BAD_EVENT, market])).toEqual([BAD_EVENT])
    // The good market was acknowledged before the 4004: the close can only be BAD's, sent once.
    expect(tap.subscribes('event', BAD_EVENT)).toEqual([1])
  })

  it('three valid and one bad in one message, beside a market already flowing: all three stream, BAD alone is set aside', async () => {
    const { tap, client, rec, events } = await venue()
    const flowing = events[0]?.markets[0]?.id as string
    const [g1, g2, g3] = [
      events[1]?.markets[0]?.id,
      events[1]?.markets[1]?.id,
      events[2]?.markets[0]?.id,
    ] as [string, string, string]
    await client.setInterests([{ channel: 'market', id: flowing, filter: 'all' }])
    await waitFor(() => rec.streamed(flowing, 0), 'the first market flowing')
    const mark = rec.mark()
    await client.setInterests([
      { channel: 'market', id: flowing, filter: 'all' },
      ...[g1, g2, BAD_MARKET, g3].map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })),
    ])
    for (const id of [g1, g2, g3]) await waitFor(() => rec.streamed(id, mark), `${id} streaming`, 5_000)
    await refusedInInspector(rec, BAD_MARKET)
    expect(setAside(rec, [g1, g2, g3, flowing, BAD_MARKET])).toEqual([BAD_MARKET])
    // The four went in one message: the venue refused it whole, so the engine had to take it apart.
    const together = tap.sent.find(
      (m) => Array.isArray(m.json?.markets) && (m.json?.markets as string[]).includes(BAD_MARKET),
    )
    expect(together?.json?.markets).toEqual([g1, g2, BAD_MARKET, g3])
    // The market known to be good was sent on every socket, never held back while the others were checked.
    const sockets = tap.sockets()
    for (let n = 1; n <= sockets; n++) expect(tap.subscribes('market', flowing)).toContain(n)
    // One reconnect per refusal: the message's, then BAD's probe (sent after g1 was accepted alone), never again.
    expect(tap.subscribes('market', BAD_MARKET)).toEqual([1, 2])
  })
})
