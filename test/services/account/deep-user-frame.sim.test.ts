// A hostile account frame through the running engine (issue 28 §6): a user frame whose data nests 10,000 deep
// is trimmed where it arrives, so a window's batches keep arriving (none fails to serialise) and getUserHistory
// answers with it.
import { afterEach, describe, expect, it } from 'vitest'
import { TRIMMED_DEEP } from '../../../src/shared/json-limits'
import type { UserUpdateView } from '../../../src/shared/model'
import { waitFor } from '../helpers'
import { pickTargets, startHarness, type Harness } from '../harness'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

const DEPTH = 10_000

function isDeepUpdate(u: UserUpdateView): boolean {
  return (u.data as { id?: unknown } | null)?.id === 'deep-order'
}

describe('a 10,000-deep user frame', () => {
  it('is kept trimmed, the window keeps its batches and getUserHistory answers', async () => {
    h = await startHarness()
    // keepText: the sink serialises every batch as the Electron and browser transports do.
    const { client, rec } = h.attach('deep', true)
    const { market } = pickTargets(h.sim)
    expect((await client.setApiKey({ key: h.sim.demoKey, label: 'demo' })).ok).toBe(true)
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }, { channel: 'user' }])
    await waitFor(() => rec.marketData(market, 0), 'market data')
    await waitFor(() => rec.userData(0), 'user data')

    const mark = rec.serialised.length
    const deep = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH)
    h.sim.faults.sendRaw(
      `{"channel":"user","type":"order","market":${JSON.stringify(market)},"id":"deep-order","status":"open","data":${deep}}`,
    )
    await waitFor(
      () => rec.batches.some((b) => (b.user ?? []).some(isDeepUpdate)),
      'the deep update in a batch',
    )
    const later = rec.batches.length
    await waitFor(() => rec.marketData(market, later), 'market data after the deep frame')

    expect(h.log.lines.filter((l) => l.includes('fanout sink failed'))).toEqual([])
    // The batch that carried it was serialised, trimmed.
    const sent = rec.serialised.slice(mark).find((t) => t.includes('"deep-order"'))
    expect(sent).toBeDefined()
    expect(sent).toContain(JSON.stringify(TRIMMED_DEEP))

    const history = await client.getUserHistory()
    expect(history.ok).toBe(true)
    const views = history.ok ? history.value : []
    const kept = views.find(isDeepUpdate)
    expect(kept).toMatchObject({ topic: 'order', market })
    // The reply crosses IPC (structured clone) or the bridge (JSON): both must take it.
    expect(() => JSON.stringify(views)).not.toThrow()
    expect(() => structuredClone(views)).not.toThrow()
  }, 30_000)
})
