// Venue adapters in the running engine, against the real simulator over loopback: `auto` settles on the
// simulator's adapter and says so; a profile that names another venue's adapter reads nothing it cannot vouch
// for (the inspector says why) until the right one is chosen; a user's bad adapter file is refused by name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { InspectorFrame } from '../../../src/shared/model'
import { waitFor } from '../helpers'
import { pickTargets, startHarness, type Harness } from '../harness'

let h: Harness | null = null
let dir: string | null = null
afterEach(async () => {
  await h?.close()
  h = null
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = null
})

function userAdapters(): string {
  dir = mkdtempSync(join(tmpdir(), 'tm-adapters-engine-'))
  const folder = join(dir, 'adapters')
  mkdirSync(folder)
  writeFileSync(
    join(folder, 'mine.json'),
    JSON.stringify({
      format: 'trading-monitor-adapter',
      version: 1,
      name: 'mine',
      title: 'My venue',
      docs: [],
      detect: { path: 'my_venue', exists: true },
      rules: [{ name: 'tick', when: [], emit: [{ kind: 'ticker', market: 'm', last: 'p' }] }],
    }),
  )
  writeFileSync(
    join(folder, 'broken.json'),
    JSON.stringify({ format: 'trading-monitor-adapter', version: 1 }),
  )
  return join(dir, 'settings.json')
}

describe('venue adapters in the engine', () => {
  it('auto picks the simulator adapter from the first frames; a bad user file is named; user adapters are offered', async () => {
    h = await startHarness({ settingsPath: userAdapters() })
    const { market } = pickTargets(h.sim)
    const { client, rec } = h.attach('adapters')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.bookState(market, 'live'), 'a live book')
    await waitFor(async () => {
      const s = await client.getStatus()
      return s.ok && s.value.adapter?.picked === 'sim'
    }, 'status names the picked adapter')
    const status = await client.getStatus()
    expect(status.ok && status.value.adapter).toEqual({ selected: 'auto', picked: 'sim' })
    const notices = (status.ok && status.value.notices) || []
    expect(notices.some((n) => /^adapter broken\.json: name: /.test(n))).toBe(true)
    const profiles = await client.listProfiles()
    const names = profiles.ok ? (profiles.value.adapters ?? []).map((a) => a.name) : []
    expect(names[0]).toBe('mine')
    expect(names).toContain('sim')
    expect(names).toContain('kalshi')
  })

  it('a profile naming another venue’s adapter shows no book and says why; choosing the right one heals', async () => {
    h = await startHarness()
    const { market } = pickTargets(h.sim)
    const { client, rec } = h.attach('adapters')
    await client.setInspector(true)
    const wrong = await client.saveProfile({
      id: h.profileId,
      name: 'sim',
      baseUrl: h.sim.baseUrl,
      wsUrl: h.sim.wsUrl,
      adapter: 'kraken',
    })
    expect(wrong.ok && wrong.value.adapter).toBe('kraken')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    const unknownFrames = (): InspectorFrame[] =>
      rec.batches.flatMap((b) => b.inspector ?? []).filter((f) => f.classification === 'unknown')
    await waitFor(() => unknownFrames().length > 0, 'unknown frames in the inspector')
    expect(unknownFrames()[0]?.error).toBe('the kraken adapter does not recognise this frame')
    const s = await client.getStatus()
    expect(s.ok && s.value.adapter).toEqual({ selected: 'kraken', picked: 'kraken' })
    expect(rec.bookState(market, 'live')).toBe(false)

    const mark = rec.mark()
    const right = await client.saveProfile({
      id: h.profileId,
      name: 'sim',
      baseUrl: h.sim.baseUrl,
      wsUrl: h.sim.wsUrl,
      adapter: 'sim',
    })
    expect(right.ok).toBe(true)
    await waitFor(() => rec.bookState(market, 'live', mark), 'a live book once the right adapter reads')
    const refused = await client.saveProfile({
      id: h.profileId,
      name: 'sim',
      baseUrl: h.sim.baseUrl,
      wsUrl: h.sim.wsUrl,
      adapter: 'Not A Name',
    })
    expect(refused.ok).toBe(false)
  })
})
