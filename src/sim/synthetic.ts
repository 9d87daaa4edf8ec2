// The firehose's synthetic markets, the same in both dialects: their ids `fh-0001`…, their one event "fh", and the
// fixed tick grid and starting sizes of their books.

export const FIREHOSE_EVENT = 'fh'
const ID_RE = /^fh-\d{4,}$/

export function isFirehoseId(id: string): boolean {
  return ID_RE.test(id)
}

export function firehoseId(i: number): string {
  return `fh-${String(i + 1).padStart(4, '0')}`
}

/** Levels a side. */
export const LEVELS = 10
// Bids at ticks 40…49, asks at 51…60: fixed ticks, so no update can cross a book.
export const BID_TOP = 49
export const ASK_TOP = 51

/** `count` level sizes, varied but all from 100 to 999, the same for every book. */
export function startingSizes(count: number): Int32Array {
  const sizes = new Int32Array(count)
  for (let i = 0; i < count; i++) sizes[i] = 100 + ((i * 7919) % 900)
  return sizes
}
