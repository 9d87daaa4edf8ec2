// One account per profile (issue 27): two profiles on two VoxFi simulators of different seeds (so their markets
// differ), switched back and forth, also while the first profile's account reads are still in flight (a REST
// proxy in front of the first holds its replies back on demand). A window must never get an account update of a market of the other profile's
// venue after the switch, and getUserHistory must hold only the current profile's.
import { afterEach, describe, expect, it } from 'vitest'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ViewBatch } from '../../../src/shared/ipc'
import type { UserUpdateView } from '../../../src/shared/model'
import { createSimulator, type Simulator } from '../../../src/sim/index'
import { waitFor } from '../helpers'
import { startHarness, type Harness } from '../harness'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

async function voxfiSim(seed: number): Promise<Simulator> {
  const sim = await createSimulator({ dialect: 'voxfi', seed, tickMs: 50, accountMs: 400 })
  closers.push(() => sim.close())
  // The harness only reads the URLs and the key; its listing type is the reference dialect's.
  return sim as unknown as Simulator
}

/**
 * An HTTP proxy to `target` that holds replies back `delayMs` while set, and counts the requests it holds and
 * those not answered yet.
 */
async function delayingProxy(target: number) {
  const state = { delayMs: 0, held: 0, open: 0 }
  const server = createServer((req, res) => {
    state.open++
    res.on('close', () => state.open--)
    const upstream = request(
      { host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        const body: Buffer[] = []
        reply.on('data', (c: Buffer) => body.push(c))
        reply.on('end', () => {
          const send = (): void => {
            res.writeHead(reply.statusCode ?? 502, reply.headers)
            res.end(Buffer.concat(body))
          }
          if (state.delayMs === 0) return send()
          state.held++
          setTimeout(send, state.delayMs)
        })
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  closers.push(
    () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  )
  return { state, baseUrl: `http://127.0.0.1:${port}/v1` }
}

/** Every market id the simulator lists. */
function marketsOf(sim: Simulator): Set<string> {
  const events = sim.listing() as unknown as { markets: { id: string }[] }[]
  return new Set(events.flatMap((e) => e.markets.map((m) => m.id)))
}

/** Each batch's user updates with the profile whose status was current when the batch was sent. */
function userByProfile(batches: readonly ViewBatch[]): { profile: string; update: UserUpdateView }[] {
  const out: { profile: string; update: UserUpdateView }[] = []
  let profile = ''
  for (const b of batches) {
    // A batch's status is read when it is sent; the engine drops queued account updates on a switch, so a
    // batch's updates are those of the profile its status names.
    if (b.status) profile = b.status.profileId
    for (const update of b.user ?? []) out.push({ profile, update })
  }
  return out
}

describe('two profiles on two venues', () => {
  it('never show each other’s orders, positions or fills, switching back and forth and mid-read', async () => {
    const simA = await voxfiSim(7)
    const simB = await voxfiSim(11)
    const marketsA = marketsOf(simA)
    const marketsB = marketsOf(simB)
    expect([...marketsA].some((m) => marketsB.has(m))).toBe(false)

    const proxy = await delayingProxy(simA.port)
    const h: Harness = await startHarness({
      sim: simA,
      endpoint: { baseUrl: proxy.baseUrl, wsUrl: simA.wsUrl },
    })
    closers.push(() => h.close())
    const { client, rec } = h.attach('account')
    const profileA = h.profileId
    expect((await client.setApiKey({ key: simA.demoKey })).ok).toBe(true)
    expect((await client.setInterests([{ channel: 'user' }])).ok).toBe(true)

    const savedB = await client.saveProfile({ name: 'B', baseUrl: simB.baseUrl, wsUrl: simB.wsUrl })
    if (!savedB.ok) throw new Error(savedB.error.message)
    const profileB = savedB.value.id
    const marketsFor = (profile: string): Set<string> => (profile === profileA ? marketsA : marketsB)

    /** Whether the window got an order of `profile`'s venue since `mark`. */
    const ordersOf = (profile: string, mark: number): boolean =>
      userByProfile(rec.batches.slice(mark)).some(
        (u) => u.update.topic === 'order' && marketsFor(profile).has(u.update.market ?? ''),
      )

    const select = async (profile: string): Promise<number> => {
      const mark = rec.mark()
      expect((await client.selectProfile(profile)).ok).toBe(true)
      return mark
    }

    await waitFor(() => ordersOf(profileA, 0), 'profile A’s orders', 15_000)
    let mark = await select(profileB)
    expect((await client.setApiKey({ key: simB.demoKey })).ok).toBe(true)
    await waitFor(() => ordersOf(profileB, mark), 'profile B’s orders', 15_000)

    for (let round = 0; round < 2; round++) {
      mark = await select(profileA)
      await waitFor(() => ordersOf(profileA, mark), 'profile A’s orders again', 15_000)
      mark = await select(profileB)
      await waitFor(() => ordersOf(profileB, mark), 'profile B’s orders again', 15_000)
    }

    // Profile A's account replies are held back 2 s; B is selected while one is on the way.
    proxy.state.delayMs = 2_000
    mark = await select(profileA)
    await waitFor(() => proxy.state.held > 0, 'a reply of profile A held back', 15_000)
    const switched = await select(profileB)
    await waitFor(() => ordersOf(profileB, switched), 'profile B’s orders after the mid-read switch', 15_000)
    // A's late replies have all been answered (and must be dropped). The engine reads them no later than an order
    // of B's that arrives after them, and a window hears of both by the batch after that order's.
    await waitFor(() => proxy.state.open === 0, 'profile A’s held replies answered', 15_000)
    const landedAt = Date.now()
    await waitFor(
      () =>
        userByProfile(rec.batches).some(
          (u) =>
            u.update.topic === 'order' &&
            marketsB.has(u.update.market ?? '') &&
            u.update.receivedAt > landedAt,
        ),
      'profile B’s orders after A’s late replies',
      15_000,
    )
    const seen = rec.mark()
    await waitFor(() => rec.mark() > seen, 'the next batch')

    const leaks = userByProfile(rec.batches).filter(
      (u) => u.update.market !== null && !marketsFor(u.profile).has(u.update.market),
    )
    expect(leaks).toEqual([])
    const history = await client.getUserHistory()
    if (!history.ok) throw new Error(history.error.message)
    const foreign = history.value.filter((u) => u.market !== null && !marketsB.has(u.market))
    expect(foreign).toEqual([])
    expect(history.value.some((u) => u.market !== null && marketsB.has(u.market))).toBe(true)
    // B's venue never saw A's key (it would have refused it).
    expect(rec.status()?.authError ?? null).toBeNull()
  }, 120_000)
})
