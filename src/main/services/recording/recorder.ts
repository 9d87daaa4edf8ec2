// Recording the raw feed (docs/recording.md): each frame the live socket delivers, after the key scrub, becomes one
// JSON line `{"t": ms since start, "f": text}` behind a header line, gzip-compressed to a NEW file in the
// recordings folder (exclusive create: an existing file is never overwritten). Writing happens in the background:
// the hot path only hands a line to the gzip stream. A disk that cannot keep up, the size cap or a write error
// stops the recording cleanly with a notice; the file written so far stays valid.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { join } from 'node:path'
import { createGzip, type Gzip } from 'node:zlib'
import { fail, ok } from '../../../shared/ipc'
import type { EventSummary, RecordingInfo, RecordingStatus, Result } from '../../../shared/model'
import { errorMessage } from '../base/errors'
import { MAX_RECORDING_RAW_BYTES, RECORDING_FORMAT, RECORDING_VERSION } from './file'
import type { Logger } from '../base/types'

/** Default cap on a recording's compressed size. */
export const DEFAULT_RECORDING_LIMIT_BYTES = 256 * 1024 * 1024
/** Bytes waiting in memory for the compressor and the disk before the recording gives up (a stalled disk). */
const MAX_BACKLOG_BYTES = 32 * 1024 * 1024
/** The compressor is flushed this often, so a crash loses at most this much of the recording. */
const FLUSH_MS = 2_000
/** The status (bytes written) is pushed to windows at most this often while recording. */
const STATUS_MS = 1_000

export interface RecorderOptions {
  /** The recordings folder; null: recording is not available (no settings folder). */
  dir: string | null
  log: Logger
  now(): number
  /** Compressed bytes at which the recording stops (default DEFAULT_RECORDING_LIMIT_BYTES). */
  limitBytes?: number
  /** Uncompressed bytes at which it stops (default MAX_RECORDING_RAW_BYTES: what a replay will read). */
  rawLimitBytes?: number
  /** The recording state changed (started, stopped, bytes written). */
  changed(): void
  /** The user must be told (the recording stopped by itself, and why). */
  notice(text: string): void
}

export interface RecordingSource {
  profile: { id: string; name: string; adapter?: string }
  events: EventSummary[] | null
}

interface Active {
  file: string
  path: string
  startedAt: number
  gzip: Gzip
  out: WriteStream
  bytes: number
  raw: number
  frames: number
  lastT: number
  stopping: Promise<RecordingInfo> | null
  flushTimer: NodeJS.Timeout
  statusTimer: NodeJS.Timeout
  lastReported: number
}

/** `rec-2026-11-23T04-31-00Z-<profile>`: sortable, safe in every file system, never a secret (a name only). */
export function recordingBaseName(at: number, profileName: string): string {
  const stamp = new Date(at)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')
  const slug =
    profileName
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'profile'
  return `rec-${stamp}-${slug}`
}

export class FeedRecorder {
  private active: Active | null = null
  private starting = false
  private readonly limitBytes: number
  private readonly rawLimitBytes: number

  constructor(private readonly o: RecorderOptions) {
    this.limitBytes = o.limitBytes ?? DEFAULT_RECORDING_LIMIT_BYTES
    this.rawLimitBytes = o.rawLimitBytes ?? MAX_RECORDING_RAW_BYTES
  }

  /** The recordings folder (null: none). */
  get dir(): string | null {
    return this.o.dir
  }

  get recording(): boolean {
    return this.active !== null && this.active.stopping === null
  }

  status(): RecordingStatus | undefined {
    const a = this.active
    if (a === null || a.stopping !== null) return undefined
    return {
      file: a.file,
      bytes: a.bytes,
      startedAt: a.startedAt,
      limitBytes: this.limitBytes,
      frames: a.frames,
    }
  }

  async start(source: RecordingSource): Promise<Result<RecordingStatus>> {
    const { dir } = this.o
    if (dir === null)
      return fail({
        code: 'unavailable',
        message: 'Recording needs a settings folder (settings are in memory).',
      })
    if (this.active !== null || this.starting)
      return fail({
        code: 'invalid_argument',
        message: `Already recording${this.active ? ` to ${this.active.file}` : ''}.`,
      })
    this.starting = true
    try {
      return await this.begin(dir, source)
    } finally {
      this.starting = false
    }
  }

  private async begin(dir: string, source: RecordingSource): Promise<Result<RecordingStatus>> {
    const startedAt = this.o.now()
    const header = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      // A name, an id and the adapter only: never a key, never a URL (which could carry one).
      profile: {
        id: source.profile.id,
        name: source.profile.name,
        ...(source.profile.adapter !== undefined ? { adapter: source.profile.adapter } : {}),
      },
      startedAt: new Date(startedAt).toISOString(),
      ...(source.events !== null ? { events: source.events } : {}),
    }
    let opened: { file: string; path: string; out: WriteStream }
    try {
      mkdirSync(dir, { recursive: true })
      opened = await this.openFresh(dir, recordingBaseName(startedAt, source.profile.name))
    } catch (error) {
      this.o.log.warn('recorder: cannot create a recording file', { error: errorMessage(error) })
      return fail({ code: 'internal', message: `Cannot create a recording file: ${errorMessage(error)}` })
    }
    const gzip = createGzip()
    const a: Active = {
      ...opened,
      startedAt,
      gzip,
      bytes: 0,
      raw: 0,
      frames: 0,
      lastT: 0,
      stopping: null,
      flushTimer: setInterval(() => {
        if (a.stopping === null) gzip.flush()
      }, FLUSH_MS),
      statusTimer: setInterval(() => {
        if (a.stopping === null && a.bytes !== a.lastReported) {
          a.lastReported = a.bytes
          this.o.changed()
        }
      }, STATUS_MS),
      lastReported: 0,
    }
    a.flushTimer.unref()
    a.statusTimer.unref()
    gzip.on('data', (chunk: Buffer) => {
      a.bytes += chunk.length
      if (a.bytes >= this.limitBytes && a.stopping === null) {
        this.stopWith(a, `Recording stopped: ${a.file} reached its size limit (${mb(this.limitBytes)}).`)
      }
    })
    gzip.pipe(a.out)
    const failed = (error: Error): void => {
      this.o.log.warn('recorder: write failed', { error: errorMessage(error) })
      this.stopWith(a, `Recording stopped: writing ${a.file} failed (${errorMessage(error)}).`)
    }
    gzip.on('error', failed)
    a.out.on('error', failed)
    this.active = a
    this.write(a, JSON.stringify(header) + '\n')
    this.o.log.info('recorder: started', { file: a.file })
    this.o.changed()
    return ok(this.status() as RecordingStatus)
  }

  /** Hot path: one frame as the windows' engine read it (after the key scrub). */
  frame(text: string, receivedAt: number): void {
    const a = this.active
    if (a === null || a.stopping !== null) return
    // Never backwards, whatever the wall clock does.
    const t = Math.max(a.lastT, receivedAt - a.startedAt)
    a.lastT = t
    a.frames += 1
    this.write(a, JSON.stringify({ t, f: text }) + '\n')
  }

  /** Ends the recording; resolves once the file is complete on disk. */
  async stop(): Promise<Result<RecordingInfo>> {
    const a = this.active
    if (a === null) return fail({ code: 'invalid_argument', message: 'Nothing is being recorded.' })
    return ok(await this.finish(a))
  }

  /** The engine is closing: finish the file. */
  async close(): Promise<void> {
    if (this.active) await this.finish(this.active)
  }

  private write(a: Active, line: string): void {
    const size = Buffer.byteLength(line)
    if (a.raw + size > this.rawLimitBytes) {
      this.stopWith(
        a,
        `Recording stopped: ${a.file} reached its size limit (${mb(this.rawLimitBytes)} uncompressed).`,
      )
      return
    }
    a.raw += size
    a.gzip.write(line)
    // The compressor runs behind the feed: what waits for it counts towards the cap at the ratio seen so far
    // (at 1:1 until there is a ratio), so the file ends close to the cap instead of a backlog past it.
    const waiting = a.gzip.writableLength
    const consumed = a.raw - waiting
    const ratio = consumed >= 64 * 1024 && a.bytes > 0 ? a.bytes / consumed : 1
    if (a.bytes + waiting * ratio >= this.limitBytes) {
      this.stopWith(a, `Recording stopped: ${a.file} reached its size limit (${mb(this.limitBytes)}).`)
      return
    }
    // Backpressure: the gzip stream buffers what the disk has not taken yet. A bounded backlog is fine; past it the
    // disk is not keeping up with the feed, and the recording stops rather than grow memory without bound.
    if (a.gzip.writableLength + a.out.writableLength > MAX_BACKLOG_BYTES) {
      this.stopWith(a, `Recording stopped: the disk is not keeping up with the feed (${a.file}).`)
    }
  }

  private stopWith(a: Active, notice: string): void {
    if (a.stopping !== null) return
    this.o.log.warn('recorder: stopped by itself', { file: a.file })
    this.o.notice(notice)
    void this.finish(a)
  }

  private finish(a: Active): Promise<RecordingInfo> {
    if (a.stopping !== null) return a.stopping
    clearInterval(a.flushTimer)
    clearInterval(a.statusTimer)
    a.stopping = new Promise<RecordingInfo>((resolve) => {
      const done = (): void => {
        if (this.active === a) this.active = null
        this.o.log.info('recorder: stopped', { file: a.file, frames: a.frames, bytes: a.bytes })
        this.o.changed()
        resolve({
          name: a.file,
          bytes: a.out.bytesWritten,
          startedAt: a.startedAt,
          durationMs: a.lastT,
          frames: a.frames,
          profileName: null,
        })
      }
      if (a.out.closed || a.out.destroyed) {
        done()
        return
      }
      a.out.once('close', done)
      a.gzip.end()
    })
    this.o.changed()
    return a.stopping
  }

  /** Opens a file that did not exist (`wx`): the name, then `-2`, `-3`, … */
  private async openFresh(
    dir: string,
    base: string,
  ): Promise<{ file: string; path: string; out: WriteStream }> {
    for (let n = 1; n <= 100; n++) {
      const file = `${base}${n === 1 ? '' : `-${n}`}.jsonl.gz`
      const path = join(dir, file)
      const out = createWriteStream(path, { flags: 'wx' })
      const result = await new Promise<'ok' | 'exists' | Error>((resolve) => {
        out.once('open', () => resolve('ok'))
        out.once('error', (error: NodeJS.ErrnoException) =>
          resolve(error.code === 'EEXIST' ? 'exists' : error),
        )
      })
      if (result === 'ok') return { file, path, out }
      if (result !== 'exists') throw result
    }
    throw new Error('no free file name')
  }
}

function mb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`
}
