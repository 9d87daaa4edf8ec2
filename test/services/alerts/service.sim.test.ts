// Alert rules in the engine against the real simulator over loopback: rules fire from the same stream that
// drives the books, with no window watching the market, and never from a book the engine cannot vouch for.
// Where a test needs exact prices it streams a market of its own through the simulator's socket (sendRaw), so
// every frame still crosses a real connection and the real decoder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertEvent, AlertRuleInput, AlertsView } from '../../../src/shared/alerts'
import type { MonitorClient } from '../../../src/main/services/base/types'
import type { Level } from '../../../src/shared/model'
import { createSimulator, type Simulator } from '../../../src/sim/index'
import { never, waitFor } from '../helpers'
import { pickTargets, startHarness, type Harness, type Recorder } from '../harness'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

function fired(rec: Recorder, ruleId: string): AlertEvent[] {
  return rec.batches.flatMap((b) => b.alertsFired ?? []).filter((e) => e.ruleId === ruleId)
}

async function view(client: MonitorClient): Promise<AlertsView> {
  const r = await client.getAlerts()
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

async function save(client: MonitorClient, input: AlertRuleInput): Promise<string> {
  const r = await client.saveAlert(input)
  if (!r.ok) throw new Error(`saveAlert refused: ${r.error.message}`)
  return r.value.id
}

/** A market of the test's own, streamed through the simulator's socket with exact prices. */
class CraftedMarket {
  seq = 0
  constructor(
    private readonly harness: Harness,
    readonly id: string,
  ) {}

  snapshot(bids: Level[], asks: Level[]): void {
    this.seq++
    this.send(true, bids, asks)
  }

  delta(bids: Level[], asks: Level[], skip = 0): void {
    this.seq += 1 + skip
    this.send(false, bids, asks)
  }

  /** A book whose mid is `mid`: one level a cent either side. */
  mid(mid: number): void {
    const bid = Math.round((mid - 0.01) * 1000) / 1000
    const ask = Math.round((mid + 0.01) * 1000) / 1000
    this.snapshot([[bid, 10]], [[ask, 10]])
  }

  private send(snapshot: boolean, bids: Level[], asks: Level[]): void {
    this.harness.sim.faults.sendRaw(
      JSON.stringify({
        channel: 'market',
        type: 'orderbook',
        market: this.id,
        snapshot,
        seq: this.seq,
        bids,
        asks,
        ts: Date.now(),
      }),
    )
  }
}

/** Watch a crafted market from a window until the engine holds a live book of it at `mid`. */
async function crafted(harness: Harness, id: string, mid: number) {
  const { client, rec } = harness.attach(`watch ${id}`)
  const r = await client.setInterests([{ channel: 'market', id, filter: 'all' }])
  if (!r.ok) throw new Error(r.error.message)
  const market = new CraftedMarket(harness, id)
  await waitFor(
    () => harness.sim.subscriptions().some((s) => s.market.some((m) => m.id === id)),
    'subscribed',
  )
  market.mid(mid)
  await waitFor(() => rec.bookState(id, 'live'), `a live book of ${id}`)
  return { market, client, rec }
}

async function liveMid(client: MonitorClient, market: string): Promise<number | null> {
  const r = await client.getMarketSnapshot(market)
  const book = r.ok ? r.value.book : null
  const bid = book?.bids[0]?.[0]
  const ask = book?.asks[0]?.[0]
  return book?.state === 'live' && bid !== undefined && ask !== undefined ? (bid + ask) / 2 : null
}

describe('alert rules against the simulator', () => {
  it('a price rule fires exactly once when a demo market crosses, with no window watching it', async () => {
    h = await startHarness()
    const { market } = pickTargets(h.sim)
    // Read the market's mid once, then stop watching it: the rule must keep it subscribed on its own.
    const peek = h.attach('peek')
    await peek.client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    let mid: number | null = null
    await waitFor(async () => (mid = await liveMid(peek.client, market)) !== null, 'a live mid')
    peek.client.dispose()
    const { client, rec } = h.attach('bystander')
    const start = mid as unknown as number
    // One rule each way, a cent away: the demo's fair values move about a cent a second, so one crosses soon.
    const up = await save(client, {
      condition: { kind: 'price', market, subject: 'mid', op: 'crosses-above', value: start + 0.01 },
    })
    const down = await save(client, {
      condition: { kind: 'price', market, subject: 'mid', op: 'crosses-below', value: start - 0.01 },
    })
    await waitFor(() => fired(rec, up).length + fired(rec, down).length > 0, 'a crossing', 60_000)
    // Several more seconds of a moving market: a once rule stays spent (its firing shows on this channel).
    await never(
      () => fired(rec, up).length > 1 || fired(rec, down).length > 1,
      'a spent once rule firing again',
      4_000,
    )
    const events = [...fired(rec, up), ...fired(rec, down)]
    expect(events.length).toBeGreaterThanOrEqual(1)
    for (const id of [up, down]) expect(fired(rec, id).length).toBeLessThanOrEqual(1)
    const first = events[0] as AlertEvent
    expect(first.market).toBe(market)
    if (first.ruleId === up) expect(first.value).toBeGreaterThanOrEqual(start + 0.01 - 1e-9)
    else expect(first.value).toBeLessThanOrEqual(start - 0.01 + 1e-9)
    const after = await view(client)
    const rule = after.rules.find((r) => r.id === first.ruleId)
    expect(rule?.state).toBe('fired')
    expect(after.history.filter((e) => e.kind === 'fired' && e.ruleId === first.ruleId)).toHaveLength(1)
    expect(after.unread).toBeGreaterThanOrEqual(1)
    // Nobody's window watches the market, yet the engine keeps it subscribed for the rule that still waits.
    expect(h.sim.subscriptions().some((s) => s.market.some((m) => m.id === market))).toBe(
      fired(rec, up).length === 0 || fired(rec, down).length === 0,
    )
  }, 90_000)

  it('a re-arming rule with hysteresis fires again only after the price leaves and re-enters', async () => {
    h = await startHarness()
    const { market, rec } = await crafted(h, 'x-hyst', 0.48)
    const { client } = h.attach('alerts')
    const id = await save(client, {
      condition: { kind: 'price', market: market.id, subject: 'mid', op: 'crosses-above', value: 0.5 },
      mode: 'rearm',
      hysteresis: 0.02,
      cooldownSec: 0,
    })
    const count = () => fired(rec, id).length
    const step = async (mid: number, expected: number) => {
      market.mid(mid)
      // The rule judges a book as it is applied, and its firing goes out with the book's view or before it.
      await waitFor(() => rec.latestBook(market.id)?.seq === market.seq, `the book at mid ${mid}`, 3_000)
      await waitFor(() => count() >= expected, `${expected} firing(s) at mid ${mid}`, 3_000)
      expect(count(), `after mid ${mid}`).toBe(expected)
    }
    await step(0.51, 1)
    await step(0.49, 1) // back below the level, but not by the hysteresis: not re-armed
    await step(0.51, 1)
    await step(0.47, 1) // 0.03 below: re-armed
    await step(0.52, 2)
    expect(fired(rec, id).map((e) => e.value)).toEqual([0.51, 0.52])
  }, 30_000)

  it('no price alert fires from a book marked stale; it fires once the book is live again and says so', async () => {
    h = await startHarness()
    const { market, rec } = await crafted(h, 'x-stale', 0.4)
    const { client } = h.attach('alerts')
    const id = await save(client, {
      condition: { kind: 'price', market: market.id, subject: 'bid', op: 'above', value: 0.5 },
    })
    // A gap: the engine marks the book stale; the delta would put the bid above the level.
    market.delta([[0.55, 5]], [[0.6, 5]], 1)
    await waitFor(() => rec.bookState(market.id, 'resyncing') || rec.bookState(market.id, 'stale'), 'stale')
    // A crossed book is not vouched for either.
    market.snapshot([[0.62, 5]], [[0.6, 5]])
    // The rule judged the crossed book and held its firing.
    await waitFor(
      async () => (await view(client)).history.some((e) => e.kind === 'held' && e.ruleId === id),
      'the firing held',
    )
    expect(fired(rec, id)).toHaveLength(0)
    const held = await view(client)
    expect(held.rules.find((r) => r.id === id)?.state).toBe('armed')
    // A fresh, sane snapshot: live again, and the rule fires from it.
    market.snapshot([[0.56, 5]], [[0.58, 5]])
    await waitFor(() => fired(rec, id).length === 1, 'the firing once live', 5_000)
    const event = fired(rec, id)[0] as AlertEvent
    expect(event.value).toBe(0.56)
    expect(event.detail).toMatch(/live again/i)
  }, 30_000)

  it('a fill alert fires from the demo account', async () => {
    h = await startHarness()
    const { client, rec } = h.attach('account')
    const key = await client.setApiKey({ key: h.sim.demoKey })
    expect(key.ok).toBe(true)
    const id = await save(client, { condition: { kind: 'order', market: null, status: 'filled' } })
    await waitFor(() => fired(rec, id).length > 0, 'an order filled', 60_000)
    const event = fired(rec, id)[0] as AlertEvent
    expect(event.title).toMatch(/fill/i)
    expect(event.market).not.toBeNull()
  }, 90_000)

  it('a feed-health alert fires when the simulator drops and refuses connections, and re-arms once live', async () => {
    h = await startHarness()
    const { market } = pickTargets(h.sim)
    const { client, rec } = h.attach('health')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.bookState(market, 'live'), 'live')
    const rule: AlertRuleInput = {
      condition: { kind: 'disconnected', seconds: 1 },
      mode: 'rearm',
      cooldownSec: 0,
    }
    const id = await save(client, rule)
    h.sim.faults.refuseConnections(4_000)
    h.sim.faults.dropAll()
    await waitFor(() => fired(rec, id).length === 1, 'the disconnect alert', 10_000)
    const mark = rec.mark()
    await waitFor(() => rec.sawState('live', mark), 'live again', 20_000)
    // While live, neither it nor a rule saved now fires (a firing shows on this channel, as just seen), through
    // more than two of the health checks that judge them every second.
    const later = await save(client, rule)
    await never(
      () => fired(rec, id).length > 1 || fired(rec, later).length > 0,
      'a disconnect alert while live',
      2_500,
    )
    // Live again: a second outage fires both.
    h.sim.faults.refuseConnections(3_000)
    h.sim.faults.dropAll()
    await waitFor(
      () => fired(rec, id).length === 2 && fired(rec, later).length === 1,
      'the second disconnect alerts',
      10_000,
    )
  }, 60_000)

  it('keeps rules across a restart, a spent once-rule stays spent, and a corrupt rule is set aside', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tm-alerts-'))
    const settingsPath = join(dir, 'settings.json')
    try {
      h = await startHarness({ settingsPath })
      await crafted(h, 'x-keep', 0.4)
      const { client, rec } = h.attach('alerts')
      const spentId = await save(client, {
        condition: { kind: 'price', market: 'x-keep', subject: 'bid', op: 'above', value: 0.35 },
        sound: true,
      })
      await waitFor(() => fired(rec, spentId).length === 1, 'the firing')
      const keptId = await save(client, {
        label: 'outage',
        condition: { kind: 'disconnected', seconds: 30 },
        mode: 'rearm',
      })
      await h.close()
      h = null
      // Spoil one more rule by hand, as a bad edit or a newer version would.
      const doc = JSON.parse(await readFile(settingsPath, 'utf8')) as { alertRules: unknown[] }
      doc.alertRules.push({ v: 1, id: 'a-broken', condition: { kind: 'price', value: -3 } })
      await writeFile(settingsPath, JSON.stringify(doc))

      h = await startHarness({ settingsPath })
      const { client: again, rec: rec2 } = h.attach('after restart')
      const restored = await view(again)
      expect(restored.rules.map((r) => r.id).sort()).toEqual([keptId, spentId].sort())
      expect(restored.rules.find((r) => r.id === spentId)?.state).toBe('fired')
      expect(restored.rules.find((r) => r.id === keptId)).toMatchObject({ label: 'outage', mode: 'rearm' })
      await waitFor(() => rec2.status() !== undefined, 'a status')
      expect(rec2.status()?.notices?.join(' ')).toMatch(/alertRules "a-broken"/)
    } finally {
      await h?.close()
      h = null
      await rm(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('refuses invalid rules with a message naming the field', async () => {
    h = await startHarness()
    const { market } = pickTargets(h.sim)
    const { client } = h.attach('forms')
    // The listing needs a key; without one an unknown market cannot be told from a new one, and is accepted.
    expect((await client.setApiKey({ key: h.sim.demoKey })).ok).toBe(true)
    const refuse = async (input: unknown, field: RegExp) => {
      const r = await (client.saveAlert as (x: unknown) => ReturnType<MonitorClient['saveAlert']>)(input)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.code).toBe('invalid_argument')
        expect(r.error.message).toMatch(field)
      }
    }
    const price = { kind: 'price', market, subject: 'mid', op: 'above', value: 0.5 }
    await refuse({ condition: { ...price, value: Number.NaN } }, /condition\.value/)
    await refuse({ condition: { ...price, value: -1 } }, /condition\.value/)
    await refuse({ condition: { ...price, market: 'no-such-market' } }, /condition\.market.*no-such-market/)
    await refuse({ condition: { kind: 'big-trade', scope: 'market', id: market, minSize: 0 } }, /minSize/)
    await refuse({ condition: price, cooldownSec: -5 }, /cooldownSec/)
    // The 1,001st rule is refused; the first thousand are kept.
    for (let i = 0; i < 1000; i++) await save(client, { condition: { ...price, value: 0.5 } as never })
    await refuse({ condition: price }, /rules.*1000/)
    expect((await view(client)).rules).toHaveLength(1000)
  }, 60_000)

  it("saveAlert refuses a level outside a listed VoxFi market's prices, naming the field", async () => {
    const sim = await createSimulator({ dialect: 'voxfi', seed: 7, tickMs: 50 })
    // The harness only points the engine at the simulator's URLs; its listing type is the reference dialect's.
    const started = await startHarness({ sim: sim as unknown as Simulator })
    h = { ...started, close: async () => (await started.close(), await sim.close()) }
    const market = sim.listing()[0]?.markets[0]?.id as string
    const { client } = h.attach('alerts')
    expect((await client.setApiKey({ key: h.sim.demoKey })).ok).toBe(true)
    expect((await client.listEvents()).ok).toBe(true)
    const impossible = await client.saveAlert({
      condition: { kind: 'price', market, subject: 'last', op: 'crosses-above', value: 5 },
    })
    expect(impossible.ok ? null : impossible.error).toMatchObject({
      field: 'condition.value',
      message:
        // In the app's price unit, cents unless the trader chose probabilities (docs/alerts.md).
        "Invalid alert: condition.value: Price 500¢ is outside this market's prices (0¢ to 100¢): the alert could never fire as meant.",
    })
    const offTick = await client.saveAlert({
      condition: { kind: 'price', market, subject: 'bid', op: 'above', value: 0.333 },
    })
    expect(offTick.ok ? null : offTick.error.field).toBe('condition.value')
    expect((await view(client)).rules).toHaveLength(0)
    expect(
      (
        await client.saveAlert({
          condition: { kind: 'price', market, subject: 'last', op: 'above', value: 0.33 },
        })
      ).ok,
    ).toBe(true)
  }, 30_000)
})
