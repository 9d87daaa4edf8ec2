// The browser bridge's wire format (JSON text frames), shared by the host (src/main/web) and the page
// (src/renderer/api/bridge-client.ts); each side validates what it receives. The Electron preload takes its
// batches, the same JSON text, with the same check.
//   page -> host   { "id": number, "method": MonitorMethod, "args": unknown[] }
//                  { "ack": number }                       batches this socket has delivered to the page so far
//   host -> page   { "id": number, "result": Result }      reply to one call
//                  { "batch": ViewBatch }                  push
//                  { "error": ApiError }                   a frame that could not be answered by id
import type { ViewBatch } from './ipc'
import type { ApiError, Result } from './model'

export const BRIDGE_PATH = '/bridge'

export interface BridgeCall {
  id: number
  method: string
  args: unknown[]
}

export type HostFrame = { id: number; result: Result<unknown> } | { batch: ViewBatch } | { error: ApiError }

export type ParsedCall = { ok: true; call: BridgeCall } | { ok: false; id: number | null; message: string }

/** What a page sent: a call, an acknowledgement of the batches it has taken in, or a refusal (ParsedCall). */
export type ParsedPageFrame = ParsedCall | { ok: true; ack: number }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** JSON text's value; undefined (which JSON cannot say) for anything that is not JSON text. */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * A batch as a page receives it, or null: the engine built it, so an object with a numeric `seq` is check
 * enough (the Electron preload's batches and the browser bridge's alike).
 */
export function asBatch(value: unknown): ViewBatch | null {
  return isRecord(value) && typeof value.seq === 'number' ? (value as unknown as ViewBatch) : null
}

/**
 * Shape check only; a call's method and arguments are checked against the MonitorApi schemas afterwards, and an
 * acknowledgement against the batches actually sent.
 */
export function parsePageFrame(text: string): ParsedPageFrame {
  const frame = parseJson(text)
  if (frame === undefined) return { ok: false, id: null, message: 'the frame is not valid JSON' }
  if (!isRecord(frame)) return { ok: false, id: null, message: 'the frame must be a JSON object' }
  if ('ack' in frame) {
    const { ack } = frame
    if (typeof ack !== 'number' || !Number.isSafeInteger(ack) || ack < 0) {
      return { ok: false, id: null, message: '"ack" must be a non-negative integer' }
    }
    return { ok: true, ack }
  }
  const { id, method, args } = frame
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
    return { ok: false, id: null, message: 'every call needs a non-negative integer "id"' }
  }
  if (typeof method !== 'string') return { ok: false, id, message: 'the call needs a "method" string' }
  if (args !== undefined && !Array.isArray(args)) return { ok: false, id, message: '"args" must be an array' }
  return { ok: true, call: { id, method, args: args ?? [] } }
}

function isResult(value: unknown): value is Result<unknown> {
  if (!isRecord(value)) return false
  if (value.ok === true) return true
  return value.ok === false && isRecord(value.error) && typeof value.error.code === 'string'
}

/** The page's side: a host frame, or null for anything it should ignore. */
export function parseHostFrame(text: unknown): HostFrame | null {
  const frame = parseJson(text)
  if (!isRecord(frame)) return null
  const batch = asBatch(frame.batch)
  if (batch !== null) return { batch }
  if (typeof frame.id === 'number' && isResult(frame.result)) return { id: frame.id, result: frame.result }
  if (isRecord(frame.error) && typeof frame.error.code === 'string') {
    return { error: frame.error as unknown as ApiError }
  }
  return null
}
