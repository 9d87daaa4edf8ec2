// The one account in the engine, against the simulator's VoxFi dialect over real sockets: identical fills are two
// fills (the duplicate filter is for market data only), a key without `read_wallet` still reads its positions and
// orders and the account says which read failed and why, and the account is the engine's, whatever window asks.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator, type SimConfig, type Simulator, type VoxfiListing } from '../../../src/sim/index'
import type { AccountView } from '../../../src/shared/trading'
import type { MonitorClient } from '../../../src/main/services/base/types'
import { startHarness, type Harness } from '../harness'
import { waitFor } from '../helpers'

const DOCS_ORDER_INFO = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/voxfi/ws-user-order-info.json'), 'utf8'),
) as { url: string; example: Record<string, unknown> }

const open: Array<{ h: Harness; sim: Simulator }> = []
afterEach(async () => {
  for (const { h, sim } of open.splice(0)) {
    await h.close()
    await sim.close()
  }
})

async function start(config: SimConfig = {}, key?: string) {
  const sim = await createSimulator({ dialect: 'voxfi', seed: 5, tickMs: 50, accountMs: 60_000, config })
  const h = await startHarness({ sim: sim as unknown as Simulator })
  open.push({ h, sim: sim as unknown as Simulator })
  const { client, rec } = h.attach('account')
  const keyed = await client.setApiKey({ key: key ?? sim.demoKey })
  if (!keyed.ok) throw new Error(keyed.error.message)
  await client.setInterests([{ channel: 'user' }])
  return { sim, h, client, rec }
}

async function account(client: MonitorClient): Promise<AccountView> {
  const r = await client.getAccount()
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('the engine’s one account', () => {
  it(`keeps both of two identical order-info fills sent 100 ms apart (${DOCS_ORDER_INFO.url})`, async () => {
    const { sim, client } = await start()
    // The user subscription is acked (the simulator answers it), so frames reach the account.
    await waitFor(async () => (await account(client)).lastUpdateAt !== null, 'the account read', 15_000)
    const text = JSON.stringify(DOCS_ORDER_INFO.example)
    const before = (await account(client)).fills.filter((f) => f.market === 'market-789').length
    sim.faults.sendRaw(text)
    await new Promise((r) => setTimeout(r, 100))
    sim.faults.sendRaw(text)
    await waitFor(
      async () =>
        (await account(client)).fills.filter((f) => f.market === 'market-789').length === before + 2,
      'both fills',
      10_000,
    )
    const fills = (await account(client)).fills.filter((f) => f.market === 'market-789')
    expect(fills.map((f) => [f.price, f.size, f.side])).toEqual([
      [0.4, 10, 'buy'],
      [0.4, 10, 'buy'],
    ])
  }, 30_000)

  it('a key without read_wallet still reads positions and orders, and says the wallet could not be read', async () => {
    const key = 'sk_no_wallet_0123456789abcdef0123'
    const { client } = await start(
      { keys: [{ value: key, permissions: ['read_orders', 'read_positions'] }] },
      key,
    )
    // The demo account holds positions from the start: they come although the wallet was refused.
    await waitFor(async () => (await account(client)).positions.length > 0, 'positions read', 15_000)
    const view = await account(client)
    expect(view.reads.balance).toMatchObject({ ok: false, error: { code: 'permission' } })
    expect(view.reads.balance?.error?.message).toMatch(/Profile → Security/)
    expect(view.reads.balance?.error?.message).not.toMatch(/IP/)
    expect(view.reads.portfolio?.ok).toBe(true)
    expect(view.reads.orders?.ok).toBe(true)
    expect(view.balances).toEqual([])
  }, 30_000)

  it('is the same account for every window, and a window that closes takes nothing of it', async () => {
    const { h, client } = await start()
    await waitFor(async () => (await account(client)).positions.length > 0, 'positions', 15_000)
    const other = h.attach('second')
    const a = await account(client)
    other.client.dispose()
    const b = await account(client)
    expect(b.positions).toEqual(a.positions)
    const third = h.attach('third')
    const seen = await third.client.getAccount()
    expect(seen.ok && seen.value.positions.length).toBe(a.positions.length)
  }, 30_000)

  it('an execution made while the connection was down reaches the account once it is back, once', async () => {
    const { sim, client, rec } = await start()
    await waitFor(async () => (await account(client)).lastUpdateAt !== null, 'the account read', 15_000)
    await waitFor(() => rec.status()?.state === 'live', 'live', 15_000)
    const market = (sim as unknown as Simulator<VoxfiListing>).listing()[0]?.markets[0]?.id as string
    const mine = async () => (await account(client)).fills.filter((f) => f.market === market)
    const before = (await mine()).length
    // Down for 4 s: an order placed on VoxFi's site meanwhile executes, and its order-info frames reach no one.
    sim.faults.refuseConnections(4_000)
    sim.faults.dropAll()
    await waitFor(() => rec.status()?.state !== 'live', 'the drop seen', 5_000)
    const answer = await fetch(`${sim.baseUrl}/trade/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Api-Key': sim.demoKey },
      body: JSON.stringify({ market_id: market, order_type: 'MARKET_BUY_QTY', outcome: 'YES', quantity: 3 }),
    })
    const body = (await answer.json()) as { trades?: Array<{ quantity: number }> }
    const executions = body.trades?.length ?? 0
    expect(executions).toBeGreaterThan(0)
    await waitFor(async () => (await mine()).length >= before + executions, 'the missed executions', 20_000)
    // Later rounds read the activity again while the gap is open: nothing is added twice.
    await new Promise((r) => setTimeout(r, 3_000))
    expect((await mine()).length).toBe(before + executions)
  }, 40_000)
})
