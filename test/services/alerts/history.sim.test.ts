// The alert history outlives the engine: a rule fires against the simulator (its text naming the market by its
// titles), the engine is closed and a new one started on the same settings file, and the history (with what was
// read) is there; new entries go on after it.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertEvent, AlertsView } from '../../../src/shared/alerts'
import { marketLabelOf } from '../../../src/shared/market-label'
import type { MonitorClient } from '../../../src/main/services/base/types'
import type { Simulator } from '../../../src/sim'
import { waitFor } from '../helpers'
import { pickTargets, startHarness, startSim, type Harness } from '../harness'

let h: Harness | null = null
let sim: Simulator | null = null
let dir: string | null = null
afterEach(async () => {
  await h?.close()
  await sim?.close()
  if (dir !== null) await rm(dir, { recursive: true, force: true })
  h = sim = dir = null
})

async function view(client: MonitorClient): Promise<AlertsView> {
  const r = await client.getAlerts()
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('alert history across restarts', () => {
  it('a fired alert is in the history after the engine restarts on the same settings file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tm-history-'))
    const settingsPath = join(dir, 'settings.json')
    sim = await startSim()
    const { market } = pickTargets(sim)
    h = await startHarness({ sim, settingsPath })
    const { client } = h.attach('alerts')
    // The engine names the market as the windows do (event · market, from its listing, loaded with the key) and
    // writes the price as the ladder does.
    expect((await client.setApiKey({ key: sim.demoKey })).ok).toBe(true)
    const listing = await client.listEvents()
    if (!listing.ok) throw new Error(listing.error.message)
    const event = listing.value.find((e) => e.markets.some((m) => m.id === market))
    const label = marketLabelOf(event?.title ?? '', event?.markets.find((m) => m.id === market)?.title ?? '')
    expect(label).not.toBe('')
    expect(label).not.toContain(market)
    // At or above 0: fires as soon as the rule's own subscription brings a live book.
    const saved = await client.saveAlert({
      condition: { kind: 'price', market, subject: 'mid', op: 'above', value: 0 },
      mode: 'rearm',
      cooldownSec: 0,
    })
    if (!saved.ok) throw new Error(saved.error.message)
    let before: AlertEvent[] = []
    await waitFor(
      async () => (before = (await view(client)).history.filter((e) => e.kind === 'fired')).length > 0,
      'a firing',
      30_000,
    )
    const first = before[0] as AlertEvent
    expect(first.title).toBe(`${label} — mid at or above 0¢`)
    expect((await client.acknowledgeAlerts([first.id])).ok).toBe(true)
    await h.close()
    h = null
    expect(await readdir(dir)).toContain('alert-history.json')

    h = await startHarness({ sim, settingsPath })
    const again = h.attach('after restart').client
    const after = await view(again)
    const restored = after.history.find((e) => e.id === first.id)
    expect(restored).toEqual({ ...first, acknowledged: true })
    expect(after.unread).toBe(after.history.filter((e) => e.kind === 'fired' && !e.acknowledged).length)
    expect(after.rules.map((r) => r.id)).toEqual([saved.value.id])
    // A new rule's firing takes an id after every restored one.
    const top = Math.max(...after.history.map((e) => e.id))
    const next = await again.saveAlert({
      condition: { kind: 'price', market, subject: 'mid', op: 'above', value: 0 },
    })
    if (!next.ok) throw new Error(next.error.message)
    let fresh: AlertEvent | undefined
    await waitFor(
      async () => (fresh = (await view(again)).history.find((e) => e.ruleId === next.value.id)) !== undefined,
      'the new rule firing',
      30_000,
    )
    expect(fresh?.id).toBeGreaterThan(top)
    const ids = (await view(again)).history.map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
  }, 90_000)
})
