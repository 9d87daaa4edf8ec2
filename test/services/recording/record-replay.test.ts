// Record and replay through the real engine against the real simulator over loopback sockets: a recording of the
// live feed (header, times, no key in it), replayed at speed into the same books, seeks that re-derive the books,
// pause and speed, and a replay that is read-only (no socket, nothing sent, no reconnect) until it is stopped.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REDACTED } from '../../../src/main/services/base/key-scrub'
import { readRecording, type RecordedFrame, type Recording } from '../../../src/main/services/recording/file'
import type { MonitorClient } from '../../../src/main/services/base/types'
import type { ReplayStatus } from '../../../src/shared/model'
import { pickTargets, startHarness, type Harness, type Recorder } from '../harness'
import { never, waitFor } from '../helpers'
import { expectedBook, levels, tempDir } from './helpers'

const KEY = 'sk-replaytest-7f3c9a1b2d4e5f60'

async function replayStatus(client: MonitorClient): Promise<ReplayStatus | undefined> {
  const s = await client.getStatus()
  return s.ok ? s.value.replay : undefined
}

async function snapshotOf(client: MonitorClient, market: string) {
  const r = await client.getMarketSnapshot(market)
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('record and replay (engine + simulator)', () => {
  const tmp = tempDir()
  let h: Harness
  let client: MonitorClient
  let rec: Recorder
  let market: string
  let file: string
  let recording: Recording
  let frames: RecordedFrame[]
  let liveBefore: Awaited<ReturnType<typeof snapshotOf>> | undefined

  beforeAll(async () => {
    h = await startHarness({ settingsPath: join(tmp.dir, 'settings.json') })
    h.sim.addKey({ value: KEY, name: 'replay-test' })
    ;({ client, rec } = h.attach('window', true))
    const stored = await client.setApiKey({ key: KEY })
    expect(stored.ok).toBe(true)
    market = pickTargets(h.sim).market
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }, { channel: 'user' }])
    await waitFor(() => rec.bookState(market, 'live'), 'a live book before recording')

    const started = await client.startRecording()
    if (!started.ok) throw new Error(started.error.message)
    file = started.value.file
    expect(file).toMatch(/^rec-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-sim\.jsonl\.gz$/)
    await waitFor(async () => (await client.getStatus()).ok, 'status')
    // A venue that echoes the key back: the recording must hold the scrubbed frame only.
    h.sim.faults.sendRaw(JSON.stringify({ type: 'notice', message: `your key ${KEY} is fine` }))
    // Long enough for the tests below (played at 1× and at 10×, sought to its middle): frames over 2 s.
    await waitFor(
      async () => {
        const s = await client.getStatus()
        const r = s.ok ? s.value.recording : undefined
        return r !== undefined && r.frames >= 20 && Date.now() - r.startedAt >= 2_000
      },
      'a recording spanning 2 s',
      15_000,
    )
    const status = await client.getStatus()
    expect(status.ok && status.value.recording?.file).toBe(file)
    const stopped = await client.stopRecording()
    if (!stopped.ok) throw new Error(stopped.error.message)
    expect(stopped.value.name).toBe(file)
    const read = await readRecording(join(tmp.dir, 'recordings', file), file)
    if (!read.ok) throw new Error(read.error.message)
    recording = read.value
    frames = recording.frames.toArray()
  }, 30_000)

  afterAll(async () => {
    await h?.close()
    tmp.remove()
  })

  it('writes a gzip JSON-lines file: a header naming the profile, then frames with increasing t', () => {
    const text = gunzipSync(readFileSync(join(tmp.dir, 'recordings', file))).toString('utf8')
    const lines = text.trimEnd().split('\n')
    const header = JSON.parse(lines[0] as string) as Record<string, unknown>
    expect(header.format).toBe('trading-monitor-recording')
    expect(header.version).toBe(1)
    expect(header.profile).toEqual({ id: h.profileId, name: 'sim' })
    expect(typeof header.startedAt).toBe('string')
    expect(Array.isArray(header.events) && header.events.length).toBeGreaterThan(0)
    // Nothing that could carry a secret: no URL, no key.
    expect(lines[0]).not.toMatch(/ws:\/\/|http:\/\/|baseUrl|wsUrl/)
    expect(recording.frames.length).toBeGreaterThan(10)
    expect(lines.length).toBe(recording.frames.length + 1)
    for (let i = 1; i < recording.frames.length; i++)
      expect(frames[i]!.t).toBeGreaterThanOrEqual(frames[i - 1]!.t)
    expect(recording.durationMs).toBeGreaterThan(1_500)
    expect(recording.durationMs).toBeLessThan(10_000)
    // The recording opens with a fresh snapshot of the watched book (it asked for one when it started).
    expect(expectedBook(frames, market, recording.durationMs)?.state).toBe('live')
  })

  it('never writes the API key, only the scrubbed frame', () => {
    const text = gunzipSync(readFileSync(join(tmp.dir, 'recordings', file))).toString('utf8')
    expect(text).not.toContain(KEY)
    expect(text).toContain(`your key ${REDACTED} is fine`)
  })

  it('scrubs the key out of the profile name in a recording header, in the listing', async () => {
    const name = 'rec-2000-01-01T00-00-00Z-keyed.jsonl'
    const path = join(tmp.dir, 'recordings', name)
    const head = { format: 'trading-monitor-recording', version: 1, startedAt: 0 }
    writeFileSync(path, `${JSON.stringify({ ...head, profile: { id: 'x', name: `k ${KEY}` } })}\n`)
    try {
      const list = await client.listRecordings()
      if (!list.ok) throw new Error(list.error.message)
      expect(JSON.stringify(list.value)).not.toContain(KEY)
      expect(list.value.find((r) => r.name === name)?.profileName).toBe(`k ${REDACTED}`)
    } finally {
      rmSync(path)
    }
  })

  it('lists the recording from its header alone', async () => {
    const list = await client.listRecordings()
    if (!list.ok) throw new Error(list.error.message)
    const row = list.value.find((r) => r.name === file)
    // Only the first line is read for a listing: the duration and frame count are not known there.
    expect(row).toMatchObject({ profileName: 'sim', frames: null, durationMs: null })
    expect(row?.startedAt).toBe(recording.header.startedAt)
    expect(row?.error).toBeUndefined()
  })

  it('replays read-only at 50×: no socket, books as the frames build them, seek back and forward re-derive them', async () => {
    await waitFor(async () => (await snapshotOf(client, market)).trades.length > 0, 'a live trade', 10_000)
    liveBefore = await snapshotOf(client, market)
    const replayed = await client.startReplay({ file, speed: 50 })
    if (!replayed.ok) throw new Error(replayed.error.message)
    expect(replayed.value).toMatchObject({ file, speed: 50, profileName: 'sim' })
    // The live connection is gone and stays gone: nothing is sent to the venue, reconnects are ignored.
    await waitFor(() => h.sim.connections() === 0, 'the live socket closed')
    h.engine.reconnectNow()
    expect((await client.reconnectNow()).ok).toBe(true)
    const status = await client.getStatus()
    expect(status.ok && status.value.profileId).toBe('replay')
    expect(status.ok && status.value.state).toBe('offline')
    expect(status.ok && status.value.replay?.file).toBe(file)
    // The events listing is the recording's.
    const events = await client.listEvents()
    expect(events.ok && events.value.length).toBe((recording.header.events ?? []).length)

    await waitFor(async () => (await replayStatus(client))?.state === 'ended', 'the replay to end', 10_000)
    const end = await client.getMarketSnapshot(market)
    if (!end.ok) throw new Error(end.error.message)
    const full = expectedBook(frames, market, recording.durationMs)
    expect(end.value.book?.state).toBe('live')
    expect(levels(end.value.book)).toEqual(levels(full))
    expect(h.sim.connections()).toBe(0)

    // Seek back to the middle: the book is what a straight replay to that point builds (not the end's).
    const mid = Math.round(recording.durationMs / 2)
    const back = await client.controlReplay({ seekMs: mid, paused: true })
    if (!back.ok) throw new Error(back.error.message)
    expect(back.value).toMatchObject({ positionMs: mid, paused: true, state: 'paused' })
    const atMid = await client.getMarketSnapshot(market)
    const wantMid = expectedBook(frames, market, mid)
    expect(levels(atMid.ok ? atMid.value.book : null)).toEqual(levels(wantMid))
    expect(levels(wantMid)).not.toEqual(levels(full))

    // Seek forward from there: the same as a straight replay again.
    const q3 = Math.round((recording.durationMs * 3) / 4)
    await client.controlReplay({ seekMs: q3 })
    const atQ3 = await client.getMarketSnapshot(market)
    expect(levels(atQ3.ok ? atQ3.value.book : null)).toEqual(levels(expectedBook(frames, market, q3)))

    // Paused: the position holds (the same status showed it moving, to the end, above).
    await never(
      async () => (await replayStatus(client))?.positionMs !== q3,
      'the paused replay moving on',
      300,
    )
    // A window's view carries the replay too (pushed with the status).
    await waitFor(() => rec.status()?.replay?.positionMs === q3, 'the replay status pushed to the window')
  }, 30_000)

  it('plays at the chosen speed and pauses', async () => {
    // The position against the wall clock since the replay was told (which can only be later than it began).
    const played = async (from: number, ms: number) => {
      let position = -1
      await waitFor(
        async () => (position = (await replayStatus(client))?.positionMs ?? -1) >= ms,
        `the replay ${ms} ms in`,
      )
      return { position, wall: Date.now() - from }
    }
    // At 1× it plays, never ahead of the clock.
    const slowFrom = Date.now()
    await client.controlReplay({ seekMs: 0, speed: 1, paused: false })
    const slow = await played(slowFrom, 200)
    expect(slow.position).toBeLessThanOrEqual(slow.wall)
    // At 10× it is well ahead of the clock (more than twice, whatever the polling costs).
    const fastFrom = Date.now()
    await client.controlReplay({ seekMs: 0, speed: 10 })
    const fast = await played(fastFrom, 1_000)
    expect((await replayStatus(client))?.speed).toBe(10)
    expect(fast.position).toBeGreaterThan(2 * fast.wall)
    const paused = await client.controlReplay({ paused: true })
    const at = paused.ok ? paused.value.positionMs : -1
    // Paused, it holds where it was (it was just seen moving).
    await never(
      async () => (await replayStatus(client))?.positionMs !== at,
      'the paused replay moving on',
      200,
    )
    // Speed is schema-checked.
    const tooFast = await client.controlReplay({ speed: 51 })
    expect(tooFast.ok).toBe(false)
    expect(!tooFast.ok && tooFast.error.code).toBe('invalid_argument')
  })

  it('stopping the replay reconnects the live profile and its books go live again', async () => {
    const mark = rec.mark()
    expect((await client.stopReplay()).ok).toBe(true)
    // The live tape and candles held before the replay are back (the replay's are gone), before any new live trade.
    const back = await snapshotOf(client, market)
    const keys = new Set(back.trades.map((t) => t.key))
    expect(liveBefore?.trades.length).toBeGreaterThan(0)
    expect(liveBefore?.trades.every((t) => keys.has(t.key))).toBe(true)
    expect(back.candles?.candles['1m'].map((c) => c.time)).toEqual(
      liveBefore?.candles?.candles['1m'].map((c) => c.time),
    )
    await waitFor(() => h.sim.connections() === 1, 'the live socket again')
    await waitFor(() => rec.bookState(market, 'live', mark), 'a live book from the venue')
    const status = await client.getStatus()
    expect(status.ok && status.value.replay).toBeUndefined()
    expect(status.ok && status.value.profileId).toBe(h.profileId)
    expect((await client.stopReplay()).ok).toBe(false)
  }, 20_000)

  it('refuses names with a path, and a missing recording says so', async () => {
    for (const bad of ['../settings.json', 'a/b.jsonl', '..', '.hidden.jsonl']) {
      const r = await client.startReplay({ file: bad })
      expect(r.ok).toBe(false)
      expect(!r.ok && r.error.code).toBe('invalid_argument')
    }
    const missing = await client.startReplay({ file: 'rec-missing.jsonl.gz' })
    expect(missing.ok).toBe(false)
    expect(!missing.ok && missing.error.code).toBe('not_found')
    expect(!missing.ok && missing.error.message).toContain('rec-missing.jsonl.gz')
    // The live connection was never touched by the failed attempts.
    expect(h.sim.connections()).toBe(1)
    expect((await client.getStatus()).ok && (await replayStatus(client))).toBeUndefined()
  })
})
