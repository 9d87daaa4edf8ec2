// The tolerant reader narrows the key lists it probes to each object's shape (shape.ts), so a frame of a shape
// already seen costs one Object.keys instead of some fifty lookups (a seek reads a million frames). The narrowed
// path must read every frame exactly as the full lists do: the same Update[] with the shape table on (cold, then
// warm from every frame before) and off, for the venue recordings, the documented venue examples, the fixtures,
// the benchmark's frame shape, and seeded random and mutated frames.
import { afterEach, describe, expect, it } from 'vitest'
import { readCorpus } from '../../scripts/lib/corpus'
import { decodeValue } from '../../src/shared/decode'
import { keptReadings, readHints, READINGS_PER_SHAPE } from '../../src/shared/decode/hints'
import { shapeOf, useShapes, type Shape } from '../../src/shared/decode/shape'
import type { Update } from '../../src/shared/model'
import { mulberry32 } from '../../src/sim/rng'
import { mutate, randomValue } from './fuzz-lib'
import { venueCases } from './venue-cases'
import { fixtureValues, parsed } from './fixture-values'
import { RECORDINGS_DIR, recordingsOrReason, recordingsPresent } from './venue-recordings'

recordingsOrReason('shapes')

afterEach(() => {
  useShapes(true)
})

/** Decodes every value with the shape table off, then on twice (cold, then warm); the three must agree. */
function expectSameReading(values: readonly unknown[]): void {
  useShapes(false)
  const full = values.map((v) => decodeValue(v))
  useShapes(true)
  const cold = values.map((v) => decodeValue(v))
  const warm = values.map((v) => decodeValue(v))
  for (let i = 0; i < values.length; i++) {
    const what = JSON.stringify(values[i])?.slice(0, 300)
    expect(cold[i] as Update[], what).toEqual(full[i])
    expect(warm[i] as Update[], what).toEqual(full[i])
  }
}

const benchFrame = (i: number): unknown => ({
  channel: 'market',
  type: i % 5 === 0 ? 'trade' : 'orderbook_delta',
  market: `VX-${i % 20}-26NOV23`,
  seq: i,
  price: (i % 100) / 100,
  size: (i * 37) % 5_000,
  side: i % 2 === 0 ? 'yes' : 'no',
  ts: 1_795_000_000_000 + i,
})

describe('shape-narrowed key lists', () => {
  it.skipIf(!recordingsPresent)('the venue recordings read the same', () => {
    const values = readCorpus(RECORDINGS_DIR).flatMap((v) => v.frames.map((f) => parsed(f.text)))
    expect(values.length).toBeGreaterThan(300)
    expectSameReading(values)
  })

  it('the documented venue examples and the fixtures read the same', () => {
    const values = [...venueCases().map((c) => parsed(c.text)), ...fixtureValues()]
    expect(values.length).toBeGreaterThan(100)
    expectSameReading(values)
  })

  it("the seek benchmark's frames read the same", () => {
    expectSameReading(Array.from({ length: 2_000 }, (_, i) => benchFrame(i)))
  })

  it('seeded random frames and mutations of the venue examples read the same', () => {
    const rnd = mulberry32(0x5ea9e)
    const bases = venueCases()
      .map((c) => parsed(c.text))
      .filter((v) => v !== undefined)
    const values: unknown[] = []
    for (let i = 0; i < 3_000; i++) {
      const v = i % 2 === 0 ? randomValue(rnd, 0) : mutate(bases[i % bases.length], rnd)
      // A JSON value, as the reader is given: what JSON.stringify cannot carry (undefined) is left out.
      const text = JSON.stringify(v)
      if (text !== undefined) values.push(JSON.parse(text))
    }
    expectSameReading(values)
  })

  it('a shape is used from its second object on, and the table rests after a run of new shapes', () => {
    useShapes(true)
    const known = { type: 'orderbook_delta', market: 'M', price: 0.5 }
    expect(shapeOf({ ...known, fresh: 1 })).toBeNull()
    expect(shapeOf({ ...known, fresh: 2 })).not.toBeNull()
    expect(shapeOf(known) ?? shapeOf(known)).not.toBeNull()
    // A hostile frame: ever new shapes. After 64 misses in a row the table rests, known shapes included.
    for (let i = 0; i < 65; i++) expect(shapeOf({ [`k${i}`]: i })).toBeNull()
    let rested = 0
    while (shapeOf(known) === null && rested < 10_000) rested += 1
    expect(rested).toBe(4_096)
    // Wider than 32 keys: never kept.
    const wide = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`w${i}`, i]))
    expect(shapeOf(wide) ?? shapeOf(wide)).toBeNull()
  })
})

/** `o`'s shape, seen twice so the table uses it. */
function knownShape(o: Record<string, unknown>): Shape {
  const shape = shapeOf(o) ?? shapeOf(o)
  expect(shape).not.toBeNull()
  return shape as Shape
}

describe("a shape's hint readings", () => {
  it('a message that nests its channel is read afresh, not from the reading of the same words', () => {
    useShapes(true)
    // OKX: the same top-level words, the kind of message only in arg.channel.
    const okx = (channel: string) => ({ event: 'update', arg: { channel, instId: 'BTC-USDT' }, data: [] })
    for (let i = 0; i < 3; i++) {
      expect(readHints(okx('trades'), knownShape(okx('trades'))).category).toBe('trade')
      expect(readHints(okx('books'), knownShape(okx('books'))).category).toBe('book')
    }
  })

  it('a reading is reused only for the same values', () => {
    useShapes(true)
    const msg = (type: string) => ({ type, market: 'M', price: 0.5, size: 3, side: 'buy' })
    const shape = knownShape(msg('trade'))
    for (let i = 0; i < 3; i++) {
      expect(readHints(msg('trade'), shape).category).toBe('trade')
      expect(readHints(msg('orderbook_delta'), shape)).toMatchObject({ category: 'book', snapshot: false })
      expect(readHints(msg('book_snapshot'), shape)).toMatchObject({ category: 'book', snapshot: true })
    }
  })

  it('keeps at most four readings a shape, and never a value too long to be a hint word', () => {
    useShapes(true)
    const msg = (type: string) => ({ type, market: 'M', price: 0.5 })
    const shape = knownShape(msg('x'))
    for (let i = 0; i < 10; i++) readHints(msg(`kind-${i}`), shape)
    expect(keptReadings(shape)).toBe(READINGS_PER_SHAPE)
    const huge = { kind: 'long', type: 'x'.repeat(1_000_000) }
    const hugeShape = knownShape(huge)
    expect(readHints(huge, hugeShape).words).toEqual([])
    expect(keptReadings(hugeShape)).toBe(0)
  })

  it('YES and NO are binary sides in any case, but not with anything around them', () => {
    // A YES/NO level's price is a binary one (55 cents: 0.55); a padded word is still a side, its price taken as sent.
    const level = (side: string) => ({ type: 'orderbook_delta', market: 'M', price: 55, size: 3, side })
    for (let i = 0; i < 2; i++) {
      expect(decodeValue(level('YES'))).toEqual([
        { kind: 'book', market: 'M', snapshot: false, bids: [[0.55, 3]], asks: [] },
      ])
      expect(decodeValue(level('No'))).toEqual([
        { kind: 'book', market: 'M', snapshot: false, bids: [], asks: [[0.45, 3]] },
      ])
      expect(decodeValue(level(' yes'))).toEqual([
        { kind: 'book', market: 'M', snapshot: false, bids: [[55, 3]], asks: [] },
      ])
      expect(decodeValue(level('no '))).toEqual([
        { kind: 'book', market: 'M', snapshot: false, bids: [], asks: [[55, 3]] },
      ])
    }
  })
})
