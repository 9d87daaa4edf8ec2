// Recording files on disk: the recorder (fresh names with exclusive create, the size cap, a valid file whatever
// stopped it) and the reader (gzip or plain; bad, truncated, missing and oversized files refused with a clear
// error naming the line, and never modified).
import { randomBytes } from 'node:crypto'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FeedRecorder, recordingBaseName } from '../../../src/main/services/recording/recorder'
import { readRecording } from '../../../src/main/services/recording/file'
import { RecordReplay } from '../../../src/main/services/recording/record-replay'
import { captureLogger } from '../helpers'
import { replayDeps, tempDir } from './helpers'

const HEADER = JSON.stringify({
  format: 'trading-monitor-recording',
  version: 1,
  profile: { id: 'p1', name: 'desk' },
  startedAt: '2026-11-23T04:31:00.000Z',
})
const line = (t: number, f: string): string => JSON.stringify({ t, f })

describe('recording files', () => {
  let tmp: ReturnType<typeof tempDir>
  beforeEach(() => {
    tmp = tempDir('tm-recfile-')
  })
  afterEach(() => tmp.remove())

  function recorder(options: { now?: () => number; limitBytes?: number; notices?: string[] } = {}) {
    return new FeedRecorder({
      dir: tmp.dir,
      log: captureLogger().logger,
      now: options.now ?? Date.now,
      ...(options.limitBytes !== undefined ? { limitBytes: options.limitBytes } : {}),
      changed: () => {},
      notice: (text) => options.notices?.push(text),
    })
  }
  const source = { profile: { id: 'p1', name: 'desk' }, events: null }

  it('never overwrites: an existing name gets a fresh one, and the old file is untouched', async () => {
    const at = Date.parse('2026-11-23T04:31:00.500Z')
    const base = recordingBaseName(at, 'desk')
    expect(base).toBe('rec-2026-11-23T04-31-00Z-desk')
    const precious = join(tmp.dir, `${base}.jsonl.gz`)
    writeFileSync(precious, 'precious')
    const r = recorder({ now: () => at })
    const first = await r.start(source)
    expect(first.ok && first.value.file).toBe(`${base}-2.jsonl.gz`)
    r.frame('{"a":1}', at + 5)
    await r.stop()
    const second = await r.start(source)
    expect(second.ok && second.value.file).toBe(`${base}-3.jsonl.gz`)
    // One recording at a time.
    expect((await r.start(source)).ok).toBe(false)
    await r.stop()
    expect(readFileSync(precious, 'utf8')).toBe('precious')
    const read = await readRecording(join(tmp.dir, `${base}-2.jsonl.gz`), 'x')
    expect(read.ok && read.value.frames.toArray()).toEqual([{ t: 5, f: '{"a":1}' }])
  })

  it('stops by itself at the size cap with a notice, leaving a valid file', async () => {
    const notices: string[] = []
    const limit = 64 * 1024
    const r = recorder({ limitBytes: limit, notices })
    const started = await r.start(source)
    if (!started.ok) throw new Error(started.error.message)
    const t0 = Date.now()
    // Incompressible frames, so the compressed size grows with them.
    for (let i = 0; i < 400 && r.recording; i++) {
      r.frame(JSON.stringify({ n: i, noise: randomBytes(600).toString('base64') }), t0 + i)
      await new Promise((resolve) => setImmediate(resolve))
    }
    for (let i = 0; i < 100 && r.status() !== undefined; i++) await new Promise((x) => setTimeout(x, 10))
    expect(r.recording).toBe(false)
    expect(notices.join(' ')).toMatch(/size limit/)
    // The file is being finished: wait for it to be complete on disk.
    await r.close()
    const path = join(tmp.dir, started.value.file)
    const size = statSync(path).size
    // Near the cap: the compressor's backlog is counted ahead, so it ends a little before or just past it.
    expect(size).toBeGreaterThan(limit / 2)
    expect(size).toBeLessThan(limit + 64 * 1024)
    const read = await readRecording(path, started.value.file)
    if (!read.ok) throw new Error(read.error.message)
    expect(read.value.frames.length).toBeGreaterThan(10)
    expect(read.value.frames.length).toBeLessThan(400)
    expect(read.value.truncated).toBe(false)
  })

  it('reads plain JSON lines as well as gzip', async () => {
    const text = [HEADER, line(0, 'a'), line(10, 'b'), ''].join('\n')
    writeFileSync(join(tmp.dir, 'plain.jsonl'), text)
    writeFileSync(join(tmp.dir, 'packed.jsonl.gz'), gzipSync(text))
    for (const name of ['plain.jsonl', 'packed.jsonl.gz']) {
      const r = await readRecording(join(tmp.dir, name), name)
      if (!r.ok) throw new Error(r.error.message)
      expect(r.value.header).toMatchObject({
        profile: { name: 'desk' },
        startedAt: Date.parse('2026-11-23T04:31:00Z'),
      })
      expect(r.value.frames.toArray().map((f) => f.f)).toEqual(['a', 'b'])
      expect(r.value.durationMs).toBe(10)
    }
  })

  const bad: Array<[string, string | Buffer, RegExp]> = [
    ['garbage.jsonl.gz', Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9]), /not valid gzip|no header/],
    ['binary.jsonl', randomBytes(64), /line 1: the first line is not JSON/],
    [
      'other.jsonl',
      `${JSON.stringify({ format: 'something-else', version: 1 })}\n`,
      /line 1: bad header: format/,
    ],
    ['newer.jsonl', `${HEADER.replace('"version":1', '"version":2')}\n`, /line 1: bad header: version/],
    ['badline.jsonl', [HEADER, line(0, 'a'), '{"t":"soon","f":"b"}', ''].join('\n'), /line 3: "t" must be/],
    ['notjson.jsonl', [HEADER, line(0, 'a'), line(1, 'b'), '{oops', ''].join('\n'), /line 4: not JSON/],
    ['backwards.jsonl', [HEADER, line(50, 'a'), line(10, 'b'), ''].join('\n'), /line 3: "t" goes back/],
    ['empty.jsonl', '', /the file is empty/],
  ]

  it.each(bad)('refuses %s with a clear error and leaves it as it was', async (name, content, why) => {
    const path = join(tmp.dir, name)
    writeFileSync(path, content)
    const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs }
    const r = await readRecording(path, name)
    expect(r.ok).toBe(false)
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    expect(!r.ok && r.error.message).toContain(`"${name}"`)
    expect(!r.ok && r.error.message).toMatch(why)
    expect(readFileSync(path).equals(before.bytes)).toBe(true)
    expect(statSync(path).mtimeMs).toBe(before.mtime)
  })

  it('refuses a file that unpacks past the cap, and a missing file is not_found', async () => {
    const frames = Array.from({ length: 2000 }, (_, i) => line(i, 'x'.repeat(100)))
    const path = join(tmp.dir, 'big.jsonl.gz')
    writeFileSync(path, gzipSync([HEADER, ...frames, ''].join('\n')))
    const r = await readRecording(path, 'big.jsonl.gz', { maxBytes: 64 * 1024 })
    expect(!r.ok && r.error.message).toMatch(/larger than/)
    const missing = await readRecording(join(tmp.dir, 'nope.jsonl.gz'), 'nope.jsonl.gz')
    expect(!missing.ok && missing.error.code).toBe('not_found')
  })

  it('reads a recording cut short (no gzip end, a half line) up to where it ends', async () => {
    const whole = gzipSync(
      [HEADER, line(0, 'a'), line(5, 'b'), line(9, randomBytes(5000).toString('base64')), ''].join('\n'),
    )
    const path = join(tmp.dir, 'cut.jsonl.gz')
    writeFileSync(path, whole.subarray(0, whole.length - 30))
    const r = await readRecording(path, 'cut.jsonl.gz')
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value.frames.toArray().map((f) => f.f)).toEqual(['a', 'b'])
    expect(r.value.truncated).toBe(true)
  })

  it('lists the folder with each bad file and its error, and a replay of a bad file changes nothing', async () => {
    writeFileSync(join(tmp.dir, 'good.jsonl'), [HEADER, line(0, 'a'), line(7, 'b'), ''].join('\n'))
    writeFileSync(join(tmp.dir, 'bad.jsonl'), 'not a recording\n')
    writeFileSync(join(tmp.dir, 'notes.txt'), 'ignored')
    let suspended = 0
    const rr = new RecordReplay(
      replayDeps(tmp.dir, {
        recorder: recorder(),
        suspendLive: () => {
          suspended += 1
        },
      }),
    )
    const list = await rr.listRecordings()
    if (!list.ok) throw new Error(list.error.message)
    expect(list.value.map((r) => r.name).sort()).toEqual(['bad.jsonl', 'good.jsonl'])
    expect(list.value.find((r) => r.name === 'good.jsonl')).toMatchObject({
      profileName: 'desk',
      frames: null,
    })
    expect(list.value.find((r) => r.name === 'bad.jsonl')?.error).toMatch(/line 1/)
    const refused = await rr.startReplay({ file: 'bad.jsonl' })
    expect(refused.ok).toBe(false)
    expect(suspended).toBe(0)
    expect(rr.replaying).toBe(false)
    const played = await rr.startReplay({ file: 'good.jsonl', speed: 50 })
    expect(played.ok).toBe(true)
    expect(suspended).toBe(1)
    await rr.close()
  })
})
