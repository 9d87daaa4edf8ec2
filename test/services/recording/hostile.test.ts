// Hostile recordings (issue 28 §3): a gzip bomb of tiny lines, a 17 MiB line, far-future times and a key in the
// header's profile name. Each is refused quickly in bounded memory, or replayed without spinning, and says why.
import { createWriteStream, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { once } from 'node:events'
import { createGzip, gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FrameStore, MAX_RECORDING_SPAN_MS, readRecording } from '../../../src/main/services/recording/file'
import { RecordReplay } from '../../../src/main/services/recording/record-replay'
import { MAX_GAP_MS, ReplayClock } from '../../../src/main/services/recording/replay'
import { cpuTime } from '../helpers'
import { replayDeps, tempDir } from './helpers'

const KEY = 'sk-hostile-9d8c7b6a5f4e3d2c'
const header = (name = 'desk'): string =>
  JSON.stringify({
    format: 'trading-monitor-recording',
    version: 1,
    profile: { id: 'p1', name },
    startedAt: '2026-11-23T04:31:00.000Z',
  })
const line = (t: number, f: string): string => JSON.stringify({ t, f })
const MIB = 1024 * 1024

/** A gzip of a header and `mib` MiB of tiny frame lines, written in pieces (never held whole). */
async function writeBomb(path: string, mib: number): Promise<void> {
  const gzip = createGzip({ level: 9 })
  const out = gzip.pipe(createWriteStream(path))
  gzip.write(`${header()}\n`)
  const tiny = `${line(0, 'x')}\n`
  const piece = Buffer.alloc(MIB - (MIB % tiny.length), tiny)
  for (let i = 0; i < mib; i++) if (!gzip.write(piece)) await once(gzip, 'drain')
  gzip.end()
  await once(out, 'finish')
}

describe('hostile recordings', () => {
  let tmp: ReturnType<typeof tempDir>
  beforeEach(() => {
    tmp = tempDir('tm-rechostile-')
  })
  afterEach(() => tmp.remove())

  it('refuses a gzip bomb of 201 MiB of tiny lines within 2 s of CPU and bounded memory, naming the ratio limit', async () => {
    const path = join(tmp.dir, 'bomb.jsonl.gz')
    await writeBomb(path, 201)
    global.gc?.()
    const rss0 = process.memoryUsage().rss
    let peak = rss0
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }, 5)
    // Reading the whole bomb took 5.4 s of a quiet core; refused at its first MiB, 0.1 s.
    const { value: r, cpuMs, wallMs } = await cpuTime(() => readRecording(path, 'bomb.jsonl.gz'))
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.message).toMatch(/more than 100 times its compressed size/)
    expect(cpuMs, `${cpuMs.toFixed(0)} ms of CPU in ${wallMs.toFixed(0)} ms`).toBeLessThan(2_000)
    // Generous: the target is 200 MB above baseline; the reader holds a few MiB.
    expect((peak - rss0) / MIB).toBeLessThan(200)
  }, 60_000)

  it('refuses a recording with more lines than the limit, naming it', async () => {
    const path = join(tmp.dir, 'many.jsonl')
    const lines = [header()]
    for (let i = 0; i < 50; i++) lines.push(line(i, `f${i}`))
    writeFileSync(path, `${lines.join('\n')}\n`)
    const r = await readRecording(path, 'many.jsonl', { maxLines: 20 })
    expect(!r.ok && r.error.message).toMatch(/more than 20 lines \(the most a recording may have\)/)
    expect((await readRecording(path, 'many.jsonl')).ok).toBe(true)
  })

  it('lists the folder within 1 s of CPU with a bomb in it, reading only headers', async () => {
    await writeBomb(join(tmp.dir, 'rec-2026-11-23T05-00-00Z-bomb.jsonl.gz'), 201)
    writeFileSync(
      join(tmp.dir, 'rec-2026-11-23T04-00-00Z-a.jsonl.gz'),
      gzipSync(`${header('a')}\n${line(0, 'x')}\n`),
    )
    writeFileSync(join(tmp.dir, 'rec-2026-11-23T03-00-00Z-b.jsonl'), `${header('b')}\n${line(0, 'x')}\n`)
    const rr = new RecordReplay(replayDeps(tmp.dir))
    const { value: list, cpuMs, wallMs } = await cpuTime(() => rr.listRecordings())
    if (!list.ok) throw new Error(list.error.message)
    expect(cpuMs, `${cpuMs.toFixed(0)} ms of CPU in ${wallMs.toFixed(0)} ms`).toBeLessThan(1_000)
    expect(list.value.map((r) => r.profileName)).toEqual(['desk', 'a', 'b'])
    expect(list.value.every((r) => r.error === undefined)).toBe(true)
  }, 60_000)

  it('refuses a 17 MiB line in under 1 s of CPU, as a frame line and as a header line', async () => {
    const long = 'y'.repeat(17 * MIB)
    const frame = join(tmp.dir, 'long-frame.jsonl')
    writeFileSync(frame, `${header()}\n${line(0, long)}\n`)
    const top = join(tmp.dir, 'long-header.jsonl')
    writeFileSync(top, `${long}\n`)
    for (const [path, want] of [
      [frame, /line 2 is longer than 4 MiB/],
      [top, /line 1 is longer than 16 MiB/],
    ] as const) {
      const { value: r, cpuMs, wallMs } = await cpuTime(() => readRecording(path, 'long'))
      expect(!r.ok && r.error.message).toMatch(want)
      expect(cpuMs, `${cpuMs.toFixed(0)} ms of CPU in ${wallMs.toFixed(0)} ms`).toBeLessThan(1_000)
    }
  })

  it('refuses a frame time past the span a recording can have (1e12, 1e308), naming the line', async () => {
    for (const t of [1e12, 1e308]) {
      const path = join(tmp.dir, 'future.jsonl')
      writeFileSync(path, `${header()}\n${line(0, 'a')}\n${line(t, 'b')}\n`)
      const r = await readRecording(path, 'future.jsonl')
      expect(!r.ok && r.error.message).toMatch(/line 3: "t" is .* past the 31 days a recording can span/)
    }
    expect(MAX_RECORDING_SPAN_MS).toBe(31 * 24 * 3600 * 1000)
  })

  it('replays far-future frames without overflowing a timer or spinning, and says it skipped them', async () => {
    const frames = FrameStore.from([
      { t: 0, f: 'a' },
      { t: 1e12, f: 'b' },
      { t: 1e308, f: 'c' },
    ])
    const warnings: Error[] = []
    const onWarning = (w: Error): void => {
      warnings.push(w)
    }
    process.on('warning', onWarning)
    // The bound on the wait below, armed before the spy so that the spy counts the clock's timers alone.
    let endedOrNot: (error?: Error) => void = () => {}
    const ended = new Promise<void>((resolve, reject) => {
      endedOrNot = (error) => (error ? reject(error) : resolve())
    })
    const bound = setTimeout(() => endedOrNot(new Error('the replay did not end within 5 s')), 5_000)
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout')
    const fed: string[] = []
    let changes = 0
    const clock: ReplayClock = new ReplayClock(
      frames,
      1e308,
      {
        feed: (text) => fed.push(text),
        reset: () => {},
        changed: () => {
          changes += 1
          if (clock.state() === 'ended') endedOrNot()
        },
        now: Date.now,
      },
      { speed: 1 },
    )
    try {
      clock.start()
      await ended
      // Nothing is left to run after the end: one more turn of the loop arms nothing.
      await new Promise((r) => setImmediate(r))
      const delays = setTimeoutSpy.mock.calls
        .map((c) => c[1])
        .filter((d): d is number => typeof d === 'number')
      // Old code: a 1e12 ms timer overflows to 1 ms and re-arms every millisecond, with a warning each time, and
      // never reaches the end.
      expect(delays.length).toBeLessThanOrEqual(2)
      expect(delays.every((d) => d <= 2 ** 31 - 1)).toBe(true)
      expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning')).toEqual([])
      expect(fed).toEqual(['a', 'b', 'c'])
      expect(clock.state()).toBe('ended')
      expect(clock.skipped().gaps).toBe(2)
      expect(changes).toBeGreaterThan(0)
    } finally {
      clearTimeout(bound)
      clock.stop()
      setTimeoutSpy.mockRestore()
      process.off('warning', onWarning)
    }
  })

  it('waits at most one bounded timer through an ordinary gap, and jumps a gap over 10 minutes', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] })
    try {
      const fed: string[] = []
      const frames = FrameStore.from([
        { t: 0, f: 'a' },
        { t: 5 * 60_000, f: 'b' },
        { t: 5 * 60_000 + MAX_GAP_MS + 1, f: 'c' },
      ])
      const clock = new ReplayClock(
        frames,
        frames.t(2),
        { feed: (text) => fed.push(text), reset: () => {}, changed: () => {}, now: Date.now },
        { speed: 1 },
      )
      clock.start()
      expect(fed).toEqual(['a'])
      expect(vi.getTimerCount()).toBe(1)
      vi.advanceTimersByTime(5 * 60_000)
      // b is fed at 5 minutes; c is more than 10 minutes later, so the replay jumps to it at once.
      expect(fed).toEqual(['a', 'b', 'c'])
      expect(clock.skipped()).toEqual({ gaps: 1, ms: MAX_GAP_MS + 1 })
      expect(clock.state()).toBe('ended')
      clock.stop()
    } finally {
      vi.useRealTimers()
    }
  })

  it('scrubs a key written into the header profile name, in the listing and the replay status', async () => {
    const name = 'rec-2026-11-23T04-31-00Z-desk.jsonl'
    writeFileSync(
      join(tmp.dir, name),
      `${header(`desk ${KEY}`)}\n${line(0, 'a')}\n${line(MAX_GAP_MS * 2, 'b')}\n`,
    )
    const rr = new RecordReplay(replayDeps(tmp.dir, { scrub: (text) => text.split(KEY).join('[redacted]') }))
    const list = await rr.listRecordings()
    if (!list.ok) throw new Error(list.error.message)
    expect(list.value[0]?.profileName).toBe('desk [redacted]')
    const started = await rr.startReplay({ file: name })
    if (!started.ok) throw new Error(started.error.message)
    expect(JSON.stringify(rr.replayStatus())).not.toContain(KEY)
    expect(rr.replayStatus()?.profileName).toBe('desk [redacted]')
    // The 20-minute silence was jumped over, and the status says so.
    expect(rr.replayStatus()?.skipped?.gaps).toBe(1)
    expect(rr.replayStatus()?.skipped?.ms).toBeGreaterThan(MAX_GAP_MS * 2 - 1_000)
    await rr.close()
  })
})
