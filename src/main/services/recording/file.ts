// Reading a recording (docs/recording.md): a file of JSON lines, gzip or plain, is untrusted input. The header is
// checked with zod, every frame line is checked, each refusal names the line. The file is streamed and counted as
// it is read, and refused past a limit on decompressed bytes, on lines, on a line's length and on the compression
// ratio, so a small file cannot unpack into an unbounded amount of memory or time. Lines are split in linear time
// (each byte is searched once). Reading never writes to the file.
import { createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { constants, createGunzip, type Gunzip } from 'node:zlib'
import { z } from 'zod'
import { fail, ok } from '../../../shared/ipc'
import type { ApiError, EventSummary, Result } from '../../../shared/model'
import { errorMessage } from '../base/errors'
import { FrameStore, type RecordedFrame } from './frame-store'

export { FrameStore, type RecordedFrame, type ReplayFrames } from './frame-store'

export const RECORDING_FORMAT = 'trading-monitor-recording'
export const RECORDING_VERSION = 1
const MIB = 1024 * 1024
/** Decompressed bytes a recording may have (also where the recorder stops, so its files always replay). */
export const MAX_RECORDING_RAW_BYTES = 256 * MIB
/**
 * Lines (frames) a recording may have. The recorder stops at 256 MiB uncompressed; a real frame line is 100 bytes
 * or more (a VoxFi trade or ticker with its `{"t":…,"f":…}` wrapping), so a full recording has under 2.7 M lines.
 */
export const MAX_RECORDING_LINES = 3_000_000
/**
 * Decompressed bytes per compressed byte, checked once RATIO_GRACE_BYTES are decompressed. Recorded feeds
 * compress about 5 to 20 times; gzip's ceiling is about 1,030, which only a bomb of repeated bytes comes near.
 */
export const MAX_COMPRESSION_RATIO = 100
const RATIO_GRACE_BYTES = MIB
/** One line: a frame is at most 1 MiB on the wire, and JSON escaping can double it. */
export const MAX_LINE_BYTES = 4 * MIB
/** Header lines carry the events listing, which can be large, but not unbounded. */
export const MAX_HEADER_BYTES = 16 * MIB
/** A frame's `t` past this is impossible (no recording runs a month: the size cap stops it long before). */
export const MAX_RECORDING_SPAN_MS = 31 * 24 * 3600 * 1000

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()])
const extra = z.record(z.string(), scalar).optional()
const eventSchema = z.object({
  id: z.string().min(1).max(200),
  title: z.string().max(1000),
  markets: z
    .array(z.object({ id: z.string().min(1).max(200), title: z.string().max(1000), extra }).strip())
    .max(10_000),
  extra,
})

/** What a recording says about the profile it came from: a name, an id, the adapter. Never a key or a URL. */
const profileSchema = z
  .object({
    id: z.string().min(1).max(200),
    name: z.string().max(200),
    adapter: z.string().min(1).max(200).optional(),
  })
  .strip()

const startedAt = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .max(64)
    .refine((s) => Number.isFinite(Date.parse(s)), 'startedAt is not a date'),
])

export const recordingHeaderSchema = z
  .object({
    format: z.literal(RECORDING_FORMAT, { error: `format must be "${RECORDING_FORMAT}"` }),
    version: z.literal(RECORDING_VERSION, { error: `version must be ${RECORDING_VERSION}` }),
    profile: profileSchema,
    startedAt,
    /** The events listing when the recording started (optional: replay then has no listing). */
    events: z.array(eventSchema).max(10_000).optional(),
  })
  .strip()

export type RecordingHeaderInput = z.input<typeof recordingHeaderSchema>

export interface RecordingHeader {
  profile: { id: string; name: string; adapter?: string }
  /** ms since epoch. */
  startedAt: number
  events: EventSummary[] | null
}

export interface Recording {
  header: RecordingHeader
  /** The frames, held compactly (frame-store.ts). */
  frames: FrameStore
  /** The last frame's t (0 for a recording without frames). */
  durationMs: number
  /** Size of the file on disk. */
  bytes: number
  /** The file ends inside a line or a gzip block (a recording cut short, e.g. by a crash); read up to there. */
  truncated: boolean
}

export interface ReadOptions {
  /** Decompressed bytes allowed (default MAX_RECORDING_RAW_BYTES). */
  maxBytes?: number
  /** Lines allowed, the header included (default MAX_RECORDING_LINES). */
  maxLines?: number
  /** Stop after the header: frames stay empty, durationMs 0. */
  headerOnly?: boolean
}

/** A recording that cannot be read: the file's name and the line say where. */
function bad(name: string, what: string): ApiError {
  return { code: 'invalid_argument', message: `Recording "${name}" cannot be replayed: ${what}` }
}

function zodWhy(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid'
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
  return `${where}${issue.message}`
}

/** Parses and checks a header line's text. */
export function parseHeader(text: string): Result<RecordingHeader> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return fail({ code: 'invalid_argument', message: 'the first line is not JSON (not a recording)' })
  }
  const r = recordingHeaderSchema.safeParse(json)
  if (!r.success) return fail({ code: 'invalid_argument', message: `bad header: ${zodWhy(r.error)}` })
  const h = r.data
  return ok({
    profile: {
      id: h.profile.id,
      name: h.profile.name,
      ...(h.profile.adapter !== undefined ? { adapter: h.profile.adapter } : {}),
    },
    startedAt: typeof h.startedAt === 'number' ? h.startedAt : Date.parse(h.startedAt),
    events: h.events ?? null,
  })
}

/** Checks one frame line; the reason when it is not `{"t": ms, "f": "text"}`. */
export function parseFrameLine(text: string): RecordedFrame | string {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return 'not JSON'
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'not a JSON object'
  const { t, f } = json as { t?: unknown; f?: unknown }
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) return '"t" must be a number of ms, 0 or more'
  if (t > MAX_RECORDING_SPAN_MS)
    return `"t" is ${t} ms, past the ${MAX_RECORDING_SPAN_MS / (24 * 3600 * 1000)} days a recording can span`
  if (typeof f !== 'string') return '"f" must be the frame text (a string)'
  return { t, f }
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r')
  try {
    const buf = Buffer.alloc(2)
    const { bytesRead } = await handle.read(buf, 0, 2, 0)
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b
  } finally {
    await handle.close()
  }
}

function mib(bytes: number): string {
  return `${Math.round((bytes / MIB) * 10) / 10} MiB`
}

/**
 * Splits a byte stream into lines in linear time: each chunk is searched once for newlines, and a line that spans
 * chunks is kept as a list of pieces (joined once, when its newline comes). A line longer than `cap(lineNo)` is
 * reported as soon as it is longer, without waiting for its end.
 */
class LineSplitter {
  private parts: Buffer[] = []
  private partBytes = 0

  /** Lines handed out so far. */
  lines = 0

  constructor(
    private readonly cap: (lineNo: number) => number,
    /** One whole line (without its newline, nor a trailing CR); false stops the splitting. */
    private readonly take: (line: string, lineNo: number) => boolean,
    /** A line grew past its cap. */
    private readonly tooLong: (lineNo: number, cap: number) => void,
  ) {}

  /** Feeds a chunk; false when splitting stopped (take said so, or a line is too long). */
  write(chunk: Buffer): boolean {
    let pos = 0
    for (;;) {
      const nl = chunk.indexOf(10, pos)
      if (nl < 0) break
      const line = this.join(chunk.subarray(pos, nl))
      pos = nl + 1
      this.lines += 1
      if (line.length > this.cap(this.lines)) {
        this.tooLong(this.lines, this.cap(this.lines))
        return false
      }
      if (!this.take(this.text(line), this.lines)) return false
    }
    if (pos < chunk.length) {
      this.parts.push(chunk.subarray(pos))
      this.partBytes += chunk.length - pos
      const cap = this.cap(this.lines + 1)
      if (this.partBytes > cap) {
        this.tooLong(this.lines + 1, cap)
        return false
      }
    }
    return true
  }

  /** What is left after the last newline (a last line without one), or null. */
  rest(): string | null {
    if (this.partBytes === 0) return null
    const line = this.join(Buffer.alloc(0))
    return this.text(line)
  }

  private join(tail: Buffer): Buffer {
    if (this.parts.length === 0) return tail
    this.parts.push(tail)
    const line = Buffer.concat(this.parts, this.partBytes + tail.length)
    this.parts = []
    this.partBytes = 0
    return line
  }

  private text(line: Buffer): string {
    const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length
    return line.toString('utf8', 0, end)
  }
}

/**
 * Reads and validates a recording, streaming: nothing but the current line and the compact frames (frame-store.ts)
 * is held. `name` is how errors name the file. A missing file is `not_found`; a bad one is `invalid_argument`
 * naming the line or the limit passed; the file is opened read-only. With `headerOnly` the reading stops at the
 * first newline (listRecordings).
 */
export async function readRecording(
  path: string,
  name: string,
  options: ReadOptions = {},
): Promise<Result<Recording>> {
  const maxBytes = options.maxBytes ?? MAX_RECORDING_RAW_BYTES
  const maxLines = options.maxLines ?? MAX_RECORDING_LINES
  let bytes: number
  let gzip: boolean
  try {
    const st = await stat(path)
    if (!st.isFile()) return fail(bad(name, 'it is not a file'))
    bytes = st.size
    gzip = await isGzip(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return fail({
        code: 'not_found',
        message: `Recording "${name}" was not found in the recordings folder.`,
      })
    return fail(bad(name, `it cannot be read (${errorMessage(error)})`))
  }
  if (bytes === 0) return fail(bad(name, 'the file is empty'))

  const file = createReadStream(path, { highWaterMark: 64 * 1024 })
  // A truncated gzip (a recording cut short) is read as far as it goes instead of failing at its end.
  const gunzip: Gunzip | null = gzip
    ? createGunzip({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 })
    : null
  const source = gunzip ? file.pipe(gunzip) : file
  if (gunzip) file.on('error', (error) => gunzip.destroy(error))
  let header: RecordingHeader | null = null
  const frames = new FrameStore()
  let raw = 0
  let lastT = 0
  let error: ApiError | null = null
  let doneEarly = false

  const take = (line: string, lineNo: number): boolean => {
    if (header === null) {
      const h = parseHeader(line)
      if (!h.ok) {
        error = bad(name, `line 1: ${h.error.message}`)
        return false
      }
      header = h.value
      return !options.headerOnly
    }
    if (lineNo > maxLines) {
      error = bad(
        name,
        `it has more than ${maxLines.toLocaleString('en-US')} lines (the most a recording may have)`,
      )
      return false
    }
    if (line.trim() === '') return true
    const frame = parseFrameLine(line)
    if (typeof frame === 'string') {
      error = bad(name, `line ${lineNo}: ${frame}`)
      return false
    }
    if (frame.t < lastT) {
      error = bad(name, `line ${lineNo}: "t" goes back in time (${frame.t} after ${lastT})`)
      return false
    }
    lastT = frame.t
    frames.push(frame.t, frame.f)
    return true
  }
  const splitter = new LineSplitter(
    (lineNo) => (lineNo === 1 ? MAX_HEADER_BYTES : MAX_LINE_BYTES),
    take,
    (lineNo, cap) => {
      error = bad(
        name,
        `line ${lineNo} is longer than ${mib(cap)} (the longest a ${lineNo === 1 ? 'header' : 'frame'} line may be)`,
      )
    },
  )

  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      raw += chunk.length
      if (raw > maxBytes) {
        error = bad(name, `it is larger than ${mib(maxBytes)} uncompressed (the most a recording may hold)`)
        break
      }
      // The compressed bytes the decompressor has taken in so far (the file is read a little ahead of it).
      if (
        gunzip &&
        raw > RATIO_GRACE_BYTES &&
        raw > MAX_COMPRESSION_RATIO * Math.max(1, gunzip.bytesWritten)
      ) {
        error = bad(
          name,
          `it unpacks to more than ${MAX_COMPRESSION_RATIO} times its compressed size (${mib(raw)} from ` +
            `${Math.round(gunzip.bytesWritten / 1024)} KiB; a recording compresses far less: a compression bomb?)`,
        )
        break
      }
      if (!splitter.write(chunk)) {
        doneEarly = true
        break
      }
    }
  } catch (e) {
    const why = gzip ? `it is not valid gzip (${errorMessage(e)})` : `it cannot be read (${errorMessage(e)})`
    error ??= bad(name, why)
  } finally {
    file.destroy()
    gunzip?.destroy()
  }
  if (error) return fail(error)
  let truncated = false
  const rest = doneEarly ? null : splitter.rest()
  if (rest !== null && rest.trim() !== '') {
    if (header === null) {
      if (!take(rest, 1)) return fail(error ?? bad(name, 'line 1: bad header'))
    } else if (!options.headerOnly) {
      // The last line has no newline: a recording cut short. A whole line is kept; a cut one is dropped.
      const frame = parseFrameLine(rest)
      if (typeof frame !== 'string' && frame.t >= lastT && splitter.lines + 1 <= maxLines) {
        frames.push(frame.t, frame.f)
        lastT = frame.t
      } else truncated = true
    }
  }
  if (header === null) return fail(bad(name, 'it has no header line'))
  return ok({ header, frames: frames.finish(), durationMs: lastT, bytes, truncated })
}
