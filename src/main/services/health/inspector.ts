// The raw-frame inspector: stream counters (always) and a capped ring of recent frames. Building a frame object
// costs an allocation and a string copy per message, so ordinary frames are only kept while a window has the
// inspector open; bad frames (malformed, unknown, oversized) are rare and always kept, so a window that opens
// the inspector after a problem still sees it.
import type { FrameClass, InspectorFrame, StreamCounters, Update } from '../../../shared/model'

export interface InspectorOptions {
  /** Frames kept in the ring. */
  capacity?: number
  /** Characters of raw text kept per frame. */
  rawCap?: number
}

export interface Inspector {
  /**
   * Count one received frame; returns the InspectorFrame when one was built (inspector on, or a bad frame),
   * so the caller can push it to inspecting windows.
   */
  record(
    text: string,
    receivedAt: number,
    classification: FrameClass,
    updates: readonly Update[],
    error?: string,
  ): InspectorFrame | null
  /** A frame the socket refused for its size: there is no text, only what we know about it. */
  recordOversized(receivedAt: number, detail: string): InspectorFrame
  /**
   * A message we sent that the venue refused by closing the socket (VoxFi's 4004): `sent` is its text with every
   * key already scrubbed. Not counted as a received frame.
   */
  recordRefused(sent: string, at: number, detail: string): InspectorFrame
  /** Whether ordinary frames are kept (some window has the inspector on). */
  setEnabled(enabled: boolean): void
  enabled(): boolean
  counters(): StreamCounters
  /** Oldest first. */
  recent(limit?: number): InspectorFrame[]
  clear(): void
}

export const INSPECTOR_DEFAULTS = { capacity: 500, rawCap: 4096 }

export function createInspector(options: InspectorOptions = {}): Inspector {
  const capacity = Math.max(1, options.capacity ?? INSPECTOR_DEFAULTS.capacity)
  const rawCap = Math.max(16, options.rawCap ?? INSPECTOR_DEFAULTS.rawCap)
  const counters: StreamCounters = { frames: 0, updates: 0, malformed: 0, unknown: 0, oversized: 0 }
  const ring: InspectorFrame[] = []
  let head = 0 // next write position once the ring is full
  let seq = 0
  let on = false

  function keep(frame: InspectorFrame): void {
    if (ring.length < capacity) ring.push(frame)
    else {
      ring[head] = frame
      head = (head + 1) % capacity
    }
  }

  function build(
    raw: string,
    receivedAt: number,
    classification: FrameClass,
    updates: readonly Update[],
    error?: string,
  ): InspectorFrame {
    const truncated = raw.length > rawCap
    const frame: InspectorFrame = {
      seq,
      receivedAt,
      raw: truncated ? raw.slice(0, rawCap) : raw,
      truncated,
      classification,
      decoded: [...updates],
    }
    if (error !== undefined) frame.error = error
    return frame
  }

  return {
    record(text, receivedAt, classification, updates, error) {
      seq += 1
      counters.frames += 1
      counters.updates += updates.length
      if (classification === 'malformed') counters.malformed += 1
      else if (classification === 'unknown') counters.unknown += 1
      else if (classification === 'oversized') counters.oversized += 1
      if (!on && classification === 'ok') return null
      const frame = build(text, receivedAt, classification, updates, error)
      keep(frame)
      return frame
    },
    recordOversized(receivedAt, detail) {
      seq += 1
      counters.frames += 1
      counters.oversized += 1
      const frame = build('', receivedAt, 'oversized', [], detail)
      keep(frame)
      return frame
    },
    recordRefused(sent, at, detail) {
      seq += 1
      const frame = build(sent, at, 'refused', [], detail)
      keep(frame)
      return frame
    },
    setEnabled(enabled) {
      on = enabled
    },
    enabled() {
      return on
    },
    counters() {
      return { ...counters }
    },
    recent(limit) {
      const ordered = ring.length < capacity ? [...ring] : [...ring.slice(head), ...ring.slice(0, head)]
      return limit === undefined ? ordered : ordered.slice(Math.max(0, ordered.length - limit))
    },
    clear() {
      ring.length = 0
      head = 0
    },
  }
}
