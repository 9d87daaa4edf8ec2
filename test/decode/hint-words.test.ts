// The tolerant reader keeps what each hint word says in a table (hints.ts, `wordHints`), so a feed's few words
// are classified once, not on every frame (a seek through a recording reads a million frames). The table must
// never change an answer: every word in the venue recordings and the fixtures reads the same from the table,
// cold and warm, as read afresh; a full table still answers new words right. The frame shape a seek benchmark
// reads with the tolerant reader (side-tagged single levels) decodes to the exact updates.
import { describe, expect, it } from 'vitest'
import { readCorpus } from '../../scripts/lib/corpus'
import { decodeValue } from '../../src/shared/decode'
import { classifyWord, MAX_WORDS, readHints, wordHints } from '../../src/shared/decode/hints'
import { fixtureValues, parsed } from './fixture-values'
import { RECORDINGS_DIR, recordingsOrReason, recordingsPresent } from './venue-recordings'

recordingsOrReason('hint words')

/** Every hint word of every object inside `v` (nested ones too, as the reader descends into containers). */
function wordsIn(v: unknown, into: Set<string>, depth = 0): void {
  if (depth > 10 || typeof v !== 'object' || v === null) return
  if (Array.isArray(v)) {
    for (const item of v) wordsIn(item, into, depth + 1)
    return
  }
  const o = v as Record<string, unknown>
  for (const w of readHints(o).words) into.add(w)
  for (const inner of Object.values(o)) wordsIn(inner, into, depth + 1)
}

function expectTableAgrees(words: Iterable<string>): number {
  let n = 0
  for (const w of words) {
    const fresh = classifyWord(w)
    expect(wordHints(w), w).toEqual(fresh)
    expect(wordHints(w), `${w} (warm)`).toEqual(fresh)
    n += 1
  }
  return n
}

describe('hint words', () => {
  it('the fixtures: every word reads the same from the table as afresh', () => {
    const words = new Set<string>()
    for (const value of fixtureValues()) wordsIn(value, words)
    expect(expectTableAgrees(words)).toBeGreaterThan(10)
  })

  it.skipIf(!recordingsPresent)('the venue recordings: every word reads the same from the table', () => {
    const words = new Set<string>()
    for (const venue of readCorpus(RECORDINGS_DIR))
      for (const frame of venue.frames) wordsIn(parsed(frame.text), words)
    expect(expectTableAgrees(words)).toBeGreaterThan(50)
  })

  it('a full table still classifies new words', () => {
    for (let i = 0; i <= MAX_WORDS; i++) wordHints(`filler-${i}`)
    expect(expectTableAgrees(['orderbook_delta-new', 'book_snapshot-new', 'trade-new', 'ping-new'])).toBe(4)
    expect(wordHints('orderbook_delta-new')).toEqual({ control: null, category: 'book', snapshot: false })
  })

  it('side-tagged single levels (the seek benchmark frames) decode to one level each, NO at the complement', () => {
    const frame = (side: string, seq: number) => ({
      channel: 'market',
      type: 'orderbook_delta',
      market: 'VX-3-26NOV23',
      seq,
      price: 0.45,
      size: 1200,
      side,
      ts: 1_795_000_000_000,
    })
    for (let round = 0; round < 2; round++) {
      expect(decodeValue(frame('yes', 1))).toEqual([
        { kind: 'book', market: 'VX-3-26NOV23', snapshot: false, bids: [[0.45, 1200]], asks: [], seq: 1 },
      ])
      expect(decodeValue(frame('NO', 2))).toEqual([
        { kind: 'book', market: 'VX-3-26NOV23', snapshot: false, bids: [], asks: [[0.55, 1200]], seq: 2 },
      ])
      // The market named only by what encloses the level: the enclosing message's market is kept.
      expect(
        decodeValue({ type: 'orderbook_delta', arg: { instId: 'M-1' }, price: 0.3, size: 5, side: 'buy' }),
      ).toEqual([{ kind: 'book', market: 'M-1', snapshot: false, bids: [[0.3, 5]], asks: [] }])
    }
  })
})
