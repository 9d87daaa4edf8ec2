// A key the exchange refuses must not touch the feed (issue 28 §2). It used to join the key scrub before it was
// verified and stay there, and the scrub ran on every frame before decoding: a refused key that is a common
// substring of the venue's frames (`"type":"orderbook"` is in every book frame) turned every later frame into
// broken JSON, froze the books in resyncing and corrupted recordings until a restart. Now frames are decoded as
// received, only a key the venue accepted is scrubbed, and only from the copies that leave the engine.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { REDACTED } from '../../../src/main/services/feed/redact'
import type { StreamCounters } from '../../../src/shared/model'
import { MIN_KEY_LENGTH } from '../../../src/shared/ipc'
import { tempDir } from '../recording/helpers'
import { pickTargets, startHarness, type Harness } from '../harness'
import { waitFor } from '../helpers'

const KEY = 'sk_live_RRRRrrrr5555SECRETrefused'
/** Long enough for the input rule, refused by the exchange, and a substring of every book frame the sim sends. */
const REFUSED = '"type":"orderbook"'

let h: Harness | null = null
const tmp = tempDir('tm-refused-key-')
afterEach(async () => {
  await h?.close()
  h = null
})
afterAll(() => tmp.remove())

describe('a refused key (engine + simulator)', () => {
  it('leaves every later frame, book and recording intact; an accepted key echoed back is still scrubbed', async () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(MIN_KEY_LENGTH)
    h = await startHarness({ settingsPath: join(tmp.dir, 'settings.json'), config: { keys: [] } })
    h.sim.addKey({ value: KEY, name: 'accepted' })
    const { client, rec } = h.attach('window', true)
    await client.setInspector(true)
    expect((await client.setApiKey({ key: KEY })).ok).toBe(true)
    const { market } = pickTargets(h.sim)
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.bookState(market, 'live'), 'a live book')

    const refused = await client.setApiKey({ key: REFUSED })
    expect(!refused.ok && refused.error.code).toBe('unauthorized')
    const counters = async (): Promise<StreamCounters> => {
      const s = await client.getStatus()
      if (!s.ok) throw new Error(s.error.message)
      return s.value.counters
    }
    const before = await counters()
    const mark = rec.mark()
    const started = await client.startRecording()
    if (!started.ok) throw new Error(started.error.message)
    // The venue echoes the accepted key: scrubbed from every copy that leaves the engine.
    h.sim.faults.sendRaw(JSON.stringify({ type: 'notice', message: `your key ${KEY} is fine` }))
    // Until the feed has gone on well past the refusal (and the echo was read), however slow the machine.
    await waitFor(
      async () => {
        const c = await counters()
        const seen = rec.batches.slice(mark).flatMap((b) => b.inspector ?? [])
        return (
          c.frames - before.frames > 10 &&
          c.updates - before.updates > 10 &&
          seen.filter((f) => f.raw.includes(REFUSED)).length > 5 &&
          seen.some((f) => f.raw.includes(`your key ${REDACTED}`))
        )
      },
      'the feed read on after the refusal',
      20_000,
      100,
    )
    const stopped = await client.stopRecording()
    if (!stopped.ok) throw new Error(stopped.error.message)
    const after = await counters()

    // 0 frames corrupted: every frame since the refusal was read, and the book stayed live.
    const frames = after.frames - before.frames
    expect(frames).toBeGreaterThan(10)
    expect(after.malformed - before.malformed).toBe(0)
    expect(after.updates - before.updates).toBeGreaterThan(10)
    expect(rec.marketData(market, mark)).toBe(true)
    expect(rec.latestBook(market)?.state).toBe('live')

    // The refused key is not scrubbed anywhere: the inspector shows book frames as received.
    const inspected = rec.batches.slice(mark).flatMap((b) => b.inspector ?? [])
    const books = inspected.filter((f) => f.raw.includes(REFUSED))
    expect(books.length).toBeGreaterThan(0)
    expect(books.every((f) => f.classification === 'ok')).toBe(true)

    // The recording made after the refusal holds the frames as received, the accepted key scrubbed.
    const text = gunzipSync(readFileSync(join(tmp.dir, 'recordings', stopped.value.name))).toString('utf8')
    const lines = text.trimEnd().split('\n').slice(1)
    const recorded = lines.map((l) => (JSON.parse(l) as { f: string }).f)
    expect(recorded.filter((f) => f.includes(REFUSED)).length).toBeGreaterThan(5)
    for (const f of recorded) expect(() => JSON.parse(f) as unknown).not.toThrow()
    expect(recorded.some((f) => f.includes(`your key ${REDACTED} is fine`))).toBe(true)
    expect(text).not.toContain(KEY)

    // The echoed key reached no window, no inspector frame and no log line.
    expect(inspected.some((f) => f.raw.includes(`your key ${REDACTED}`))).toBe(true)
    for (const t of [...rec.serialised, ...h.log.lines]) expect(t.includes(KEY)).toBe(false)
  }, 30_000)

  it('refuses a key shorter than the minimum at input, naming it, before anything is sent', async () => {
    h = await startHarness({ config: { keys: [] } })
    const { client } = h.attach('short')
    const r = await client.setApiKey({ key: 'market' })
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    expect(!r.ok && r.error.message).toContain(`${MIN_KEY_LENGTH} characters`)
    expect(!r.ok && r.error.message.includes('market')).toBe(false)
    const stored = await h.credentials.get(h.profileId)
    expect(stored.ok && stored.value).toBeNull()
  })
})
