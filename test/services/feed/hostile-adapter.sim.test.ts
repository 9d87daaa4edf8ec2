// A hostile user adapter in the running engine (issue 28 §1): a profile reads the simulator's connection with a
// user adapter file holding the four patterns that each stopped the event loop for seconds. Hostile frames are
// sent down the socket; the longest event-loop stall while they are read stays small (they run on RE2), and the
// good frame sent after them is read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import type { InspectorFrame } from '../../../src/shared/model'
import { hostileAdapter } from '../../decode/hostile-adapter'
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

function settingsWithHostileAdapter(): string {
  dir = mkdtempSync(join(tmpdir(), 'tm-hostile-adapter-'))
  mkdirSync(join(dir, 'adapters'))
  writeFileSync(
    join(dir, 'adapters', 'hostile.json'),
    JSON.stringify(
      hostileAdapter({
        textPrefix: '^(a|a)*b',
        detect: {
          any: [
            { path: 's', matches: '^(a+)+$' },
            { path: 'venue', equals: 'hostile' },
          ],
        },
        rules: [
          {
            name: 'worded',
            when: [{ path: 's', matches: '^(\\w+\\s?)*$' }],
            emit: [{ kind: 'info', topic: 'words' }],
          },
          {
            name: 'tick',
            when: [],
            emit: [
              { kind: 'ticker', market: [{ path: 's', pattern: '^((?:[A-Z0-9]+-?)*)$' }, 'm'], last: 'p' },
            ],
          },
        ],
      }),
    ),
  )
  return join(dir, 'settings.json')
}

/** The frames, first at sizes JavaScript's engine takes 1–3 s on each, then at the issue's own sizes. */
const ROUNDS: ((market: string) => string[])[] = [
  (m) => [
    JSON.stringify({ venue: 'hostile', s: `${'a'.repeat(25)}!`, m, p: 0.5 }),
    JSON.stringify({ venue: 'hostile', s: 'The quick brown fox jumps over the dog!', m, p: 0.5 }),
    JSON.stringify({ venue: 'hostile', s: 'KXHIGHNY25JAN01T425KXHIG!', m, p: 0.5 }),
    'a'.repeat(25),
  ],
  (m) => [
    JSON.stringify({ venue: 'hostile', s: `${'a'.repeat(40)}!`, m, p: 0.5 }),
    JSON.stringify({
      venue: 'hostile',
      s: 'The quick brown fox jumps over the lazy dog and keeps running!',
      m,
      p: 0.5,
    }),
    JSON.stringify({ venue: 'hostile', s: 'KXHIGHNY25JAN01T425KXHIGHNY25!', m, p: 0.5 }),
    'a'.repeat(64),
  ],
]

describe('a hostile user adapter in the engine', () => {
  it('hostile frames stall the event loop for no more than a few ms; the feed goes on', async () => {
    h = await startHarness({ settingsPath: settingsWithHostileAdapter() })
    const { market } = pickTargets(h.sim)
    const { client, rec } = h.attach('hostile')
    await client.setInspector(true)
    const saved = await client.saveProfile({
      id: h.profileId,
      name: 'sim',
      baseUrl: h.sim.baseUrl,
      wsUrl: h.sim.wsUrl,
      adapter: 'hostile',
    })
    expect(saved.ok && saved.value.adapter).toBe('hostile')
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    const frames = (): InspectorFrame[] => rec.batches.flatMap((b) => b.inspector ?? [])
    // Connected, and reading with the hostile adapter (which does not know the simulator's own frames).
    await waitFor(
      () => frames().some((f) => f.error === 'the hostile adapter does not recognise this frame'),
      'frames read by the hostile adapter',
    )

    const stalls: number[] = []
    for (const [i, round] of ROUNDS.entries()) {
      const delay = monitorEventLoopDelay({ resolution: 5 })
      delay.enable()
      for (const text of round(market)) h.sim.faults.sendRaw(text)
      const good = JSON.stringify({ venue: 'hostile', s: `good ${i}.`, m: market, p: 0.61 })
      h.sim.faults.sendRaw(good)
      await waitFor(
        () => frames().some((f) => f.raw === good && f.classification === 'ok'),
        'the good frame after the hostile ones, read',
      )
      delay.disable()
      stalls.push(delay.max / 1e6)
      // Every hostile frame was read (none dropped over the budget): the wrapped one as the adapter's.
      expect(frames().some((f) => f.raw === round(market)[3] && f.error?.includes('budget'))).toBe(false)
      expect(stalls[i], `longest event-loop stall in round ${i + 1}, ms`).toBeLessThan(500)
    }
    expect(h.log.lines.filter((l) => l.includes('suspended'))).toEqual([])
    process.stdout.write(
      `hostile adapter: longest event-loop stall per round ${stalls.map((s) => s.toFixed(1)).join(', ')} ms\n`,
    )
  }, 30_000)
})
