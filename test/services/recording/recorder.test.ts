// FeedRecorder beyond file.test.ts: the gzip JSON-lines file holds a header with the profile's name, id and adapter only, then frames whose t never goes back; the uncompressed cap stops it cleanly with a notice; without a folder it is unavailable.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FeedRecorder, type RecorderOptions } from '../../../src/main/services/recording/recorder'
import { captureLogger } from '../helpers'
import { tempDir } from './helpers'

const START = Date.parse('2026-11-23T04:31:00.000Z')

describe('FeedRecorder', () => {
  let tmp: ReturnType<typeof tempDir>
  beforeEach(() => {
    tmp = tempDir('tm-recorder-')
  })
  afterEach(() => tmp.remove())

  function recorder(patch: Partial<RecorderOptions> = {}) {
    const notices: string[] = []
    let changes = 0
    const r = new FeedRecorder({
      dir: tmp.dir,
      log: captureLogger().logger,
      now: () => START,
      changed: () => void changes++,
      notice: (text) => void notices.push(text),
      ...patch,
    })
    return { r, notices, changes: () => changes }
  }

  /** The file's lines, unzipped and parsed. */
  const lines = (file: string): Record<string, unknown>[] =>
    gunzipSync(readFileSync(join(tmp.dir, file)))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)

  it('writes a header naming the profile only, then one line per frame with t since the start, never backwards', async () => {
    const { r, changes } = recorder()
    const events = [{ id: 'e1', title: 'Event', markets: [{ id: 'm1', title: 'Market' }] }]
    const started = await r.start({ profile: { id: 'p-1', name: 'desk', adapter: 'kalshi' }, events })
    if (!started.ok) throw new Error(started.error.message)
    expect(started.value).toMatchObject({ file: 'rec-2026-11-23T04-31-00Z-desk.jsonl.gz', frames: 0 })
    expect(r.recording).toBe(true)
    r.frame('{"a":1}', START + 40)
    // The wall clock stepped back: the frame keeps the last t.
    r.frame('{"a":2}', START + 10)
    r.frame('{"a":3}', START + 75)
    expect(r.status()?.frames).toBe(3)
    const stopped = await r.stop()
    if (!stopped.ok) throw new Error(stopped.error.message)
    expect(stopped.value).toMatchObject({
      name: started.value.file,
      frames: 3,
      durationMs: 75,
      startedAt: START,
    })
    expect(r.recording).toBe(false)
    expect(changes()).toBeGreaterThanOrEqual(2)
    expect(lines(started.value.file)).toEqual([
      {
        format: 'trading-monitor-recording',
        version: 1,
        profile: { id: 'p-1', name: 'desk', adapter: 'kalshi' },
        startedAt: '2026-11-23T04:31:00.000Z',
        events,
      },
      { t: 40, f: '{"a":1}' },
      { t: 40, f: '{"a":2}' },
      { t: 75, f: '{"a":3}' },
    ])
  })

  it('a header without a listing or adapter leaves those out', async () => {
    const { r } = recorder()
    const started = await r.start({ profile: { id: 'p-1', name: 'desk' }, events: null })
    await r.stop()
    expect(started.ok && lines(started.value.file)[0]).toEqual({
      format: 'trading-monitor-recording',
      version: 1,
      profile: { id: 'p-1', name: 'desk' },
      startedAt: '2026-11-23T04:31:00.000Z',
    })
  })

  it('stops by itself at the uncompressed cap, with a notice, keeping every whole frame before it', async () => {
    const { r, notices } = recorder({ rawLimitBytes: 1_000 })
    const started = await r.start({ profile: { id: 'p-1', name: 'desk' }, events: null })
    if (!started.ok) throw new Error(started.error.message)
    const frame = 'x'.repeat(200)
    let sent = 0
    while (r.recording && sent < 100) r.frame(frame, START + ++sent)
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(
      /^Recording stopped: rec-.*\.jsonl\.gz reached its size limit \(.* uncompressed\)\.$/,
    )
    // Frames after the stop are not written.
    r.frame(frame, START + 500)
    await r.close()
    const written = lines(started.value.file)
    expect(written.length).toBeGreaterThan(1)
    expect(written.length).toBeLessThan(sent + 1)
    expect(written.slice(1).every((l) => l.f === frame)).toBe(true)
  })

  it('without a recordings folder it is unavailable; stop with nothing recorded is refused', async () => {
    const { r } = recorder({ dir: null })
    const started = await r.start({ profile: { id: 'p-1', name: 'desk' }, events: null })
    expect(!started.ok && started.error.code).toBe('unavailable')
    expect(r.status()).toBeUndefined()
    r.frame('{"a":1}', START)
    const stopped = await r.stop()
    expect(!stopped.ok && stopped.error).toEqual({
      code: 'invalid_argument',
      message: 'Nothing is being recorded.',
    })
  })
})
