// Reading a recording (docs/recording.md): a file of JSON lines, gzip or plain, is untrusted input. The header is
// checked with zod, every frame line is checked, each refusal names the line, and the decompressed size is capped
// so a small file cannot unpack into an unbounded amount of memory. Reading never writes to the file.
import { createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import { constants, createGunzip } from 'node:zlib'
import { z } from 'zod'
import { fail, ok } from '../../../shared/ipc'
import type { ApiError, EventSummary, Result } from '../../../shared/model'
import { errorMessage } from '../base/errors'

export const RECORDING_FORMAT = 'trading-monitor-recording'
export const RECORDING_VERSION = 1
/** Decompressed bytes a recording may have (also where the recorder stops, so its files always replay). */
export const MAX_RECORDING_RAW_BYTES = 256 * 1024 * 1024
/** One line: a frame is at most 1 MiB on the wire, and JSON escaping can double it. */
const MAX_LINE_CHARS = 4 * 1024 * 1024
/** Header lines carry the events listing, which can be large, but not unbounded. */
const MAX_HEADER_CHARS = 16 * 1024 * 1024

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

export interface RecordedFrame {
  /** ms since the recording started. */
  t: number
  /** The frame's text, as received (keys scrubbed). */
  f: string
}

export interface Recording {
  header: RecordingHeader
  frames: RecordedFrame[]
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

/**
 * Reads and validates a whole recording. `name` is how errors name the file. A missing file is `not_found`; a bad
 * one is `invalid_argument` with the line number; the file is opened read-only.
 */
export async function readRecording(
  path: string,
  name: string,
  options: ReadOptions = {},
): Promise<Result<Recording>> {
  const maxBytes = options.maxBytes ?? MAX_RECORDING_RAW_BYTES
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

  const file = createReadStream(path)
  // A truncated gzip (a recording cut short) is read as far as it goes instead of failing at its end.
  const source = gzip ? file.pipe(createGunzip({ finishFlush: constants.Z_SYNC_FLUSH })) : file
  if (gzip) file.on('error', (error) => source.destroy(error))
  const decoder = new StringDecoder('utf8')
  let header: RecordingHeader | null = null
  const frames: RecordedFrame[] = []
  let lineNo = 0
  let pending = ''
  let raw = 0
  let lastT = 0
  let error: ApiError | null = null
  let doneEarly = false

  const take = (line: string): boolean => {
    lineNo += 1
    if (header === null) {
      const h = parseHeader(line)
      if (!h.ok) {
        error = bad(name, `line 1: ${h.error.message}`)
        return false
      }
      header = h.value
      return !options.headerOnly
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
    frames.push(frame)
    return true
  }

  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      raw += chunk.length
      if (raw > maxBytes) {
        error = bad(name, `it is larger than ${Math.round(maxBytes / (1024 * 1024))} MiB uncompressed`)
        break
      }
      pending += decoder.write(chunk)
      let start = 0
      for (;;) {
        const nl = pending.indexOf('\n', start)
        if (nl < 0) break
        const line = pending.slice(start, nl)
        start = nl + 1
        if (!take(line.endsWith('\r') ? line.slice(0, -1) : line)) {
          doneEarly = true
          break
        }
      }
      if (doneEarly) break
      pending = pending.slice(start)
      const cap = header === null ? MAX_HEADER_CHARS : MAX_LINE_CHARS
      if (pending.length > cap) {
        error = bad(name, `line ${lineNo + 1} is longer than ${Math.round(cap / (1024 * 1024))} MiB`)
        break
      }
    }
  } catch (e) {
    const why = gzip ? `it is not valid gzip (${errorMessage(e)})` : `it cannot be read (${errorMessage(e)})`
    error ??= bad(name, why)
  } finally {
    file.destroy()
    if (source !== file) source.destroy()
  }
  if (error) return fail(error)
  let truncated = false
  if (!doneEarly) {
    const rest = pending + decoder.end()
    if (rest.trim() !== '') {
      if (header === null) {
        if (!take(rest)) return fail(error ?? bad(name, 'line 1: bad header'))
      } else {
        // The last line has no newline: a recording cut short. A whole line is kept; a cut one is dropped.
        const frame = parseFrameLine(rest)
        if (typeof frame !== 'string' && frame.t >= lastT) {
          frames.push(frame)
          lastT = frame.t
        } else truncated = true
      }
    }
  }
  if (header === null) return fail(bad(name, 'it has no header line'))
  return ok({ header, frames, durationMs: lastT, bytes, truncated })
}
