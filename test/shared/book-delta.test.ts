// A delta's changes per side: found by walking both best-first sides at once, they must be what a diff by price
// finds, level for level, for any two sides, and for sides out of order too.
import { describe, expect, it } from 'vitest'
import { applyBookDelta, bookDelta } from '../../src/shared/book-delta'
import type { BookView, Level, LevelChanges } from '../../src/shared/model'
import { mulberry32 } from '../../src/sim/rng'
import { book } from './batch-fixtures'

function view(bids: Level[], asks: Level[], no?: { bids: Level[]; asks: Level[] }): BookView {
  const v: BookView = { ...book('m1', 1), bids, asks, depth: { bids: bids.length, asks: asks.length } }
  if (no) v.no = { ...no, depth: { bids: no.bids.length, asks: no.asks.length } }
  return v
}

/** The changes by price, as a map price -> new size (0: gone), whatever order they are listed in. */
function byPrice(changes: LevelChanges | undefined): Map<number, number> {
  return new Map((changes ?? []).map(([p, s]) => [p, s]))
}

/** What the changes from `before` to `after` are, diffed by price. */
function expected(before: Level[], after: Level[]): Map<number, number> {
  const out = new Map<number, number>()
  const held = new Map(before)
  for (const [p, s] of after) if (held.get(p) !== s) out.set(p, s)
  for (const [p] of before) if (!after.some(([q]) => q === p)) out.set(p, 0)
  return out
}

/** A side of up to `n` distinct prices in cents, best first (or shuffled), sizes 1 to 5. */
function side(rnd: () => number, n: number, descending: boolean, shuffled = false): Level[] {
  const prices = new Set<number>()
  for (let i = 0; i < n; i++) prices.add(Math.round(1 + rnd() * 20) / 100)
  const levels = [...prices].map((p): Level => [p, Math.ceil(rnd() * 5)])
  levels.sort(descending ? (a, b) => b[0] - a[0] : (a, b) => a[0] - b[0])
  if (shuffled) levels.sort(() => rnd() - 0.5)
  return levels
}

/** A side moved on as a book moves: some levels kept, some resized, some gone, some new. */
function moved(rnd: () => number, levels: Level[], descending: boolean): Level[] {
  const out = new Map<number, number>()
  for (const [p, s] of levels) {
    const r = rnd()
    if (r < 0.6) out.set(p, s)
    else if (r < 0.8) out.set(p, s + 1)
  }
  for (const [p, s] of side(rnd, Math.floor(rnd() * 4), descending)) out.set(p, s)
  return [...out].sort(descending ? (a, b) => b[0] - a[0] : (a, b) => a[0] - b[0])
}

describe('book delta sides', () => {
  it('finds every change a diff by price finds, on best-first sides, and the delta rebuilds the view', () => {
    const rnd = mulberry32(11)
    let compared = 0
    for (let i = 0; i < 2_000; i++) {
      const bids = side(rnd, Math.floor(rnd() * 12), true)
      const asks = side(rnd, Math.floor(rnd() * 12), false)
      const noBids = side(rnd, Math.floor(rnd() * 12), true)
      const noAsks = side(rnd, Math.floor(rnd() * 12), false)
      const before = view(bids, asks, { bids: noBids, asks: noAsks })
      const after = view(moved(rnd, bids, true), moved(rnd, asks, false), {
        bids: moved(rnd, noBids, true),
        asks: moved(rnd, noAsks, false),
      })
      const delta = bookDelta(before, after, 1, 2)
      const changes = [
        expected(before.bids, after.bids),
        expected(before.asks, after.asks),
        expected(noBids, after.no?.bids ?? []),
        expected(noAsks, after.no?.asks ?? []),
      ].reduce((n, c) => n + c.size, 0)
      const levels =
        after.bids.length + after.asks.length + (after.no?.bids.length ?? 0) + (after.no?.asks.length ?? 0)
      // Whole (null) exactly when a diff by price finds no fewer changes than the view has levels.
      expect(delta === null).toBe(changes > 0 && changes >= levels)
      if (delta === null) continue
      compared++
      expect(byPrice(delta.bids)).toEqual(expected(before.bids, after.bids))
      expect(byPrice(delta.asks)).toEqual(expected(before.asks, after.asks))
      expect(byPrice(delta.no?.bids)).toEqual(expected(noBids, after.no?.bids ?? []))
      expect(byPrice(delta.no?.asks)).toEqual(expected(noAsks, after.no?.asks ?? []))
      const rebuilt = applyBookDelta({ ...before, version: 1 }, delta)
      expect({ ...rebuilt, version: undefined }).toEqual({ ...after, version: undefined })
    }
    expect(compared).toBeGreaterThan(1_000)
  })

  it('finds them on sides out of order, or with a price twice, as a diff by price does', () => {
    const rnd = mulberry32(12)
    for (let i = 0; i < 500; i++) {
      const before = side(rnd, 2 + Math.floor(rnd() * 10), true, true)
      const after = moved(rnd, before, true).sort(() => rnd() - 0.5)
      const delta = bookDelta(view(before, []), view(after, []), 1, 2)
      const changes = expected(before, after)
      // Whole (null) exactly when a diff by price finds no fewer changes than the view has levels.
      expect(delta === null).toBe(changes.size > 0 && changes.size >= after.length)
      if (delta !== null) expect(byPrice(delta.bids)).toEqual(changes)
    }
    const twice: Level[] = [
      [0.5, 1],
      [0.5, 2],
      [0.4, 1],
    ]
    expect(byPrice(bookDelta(view([[0.5, 1]], []), view(twice, []), 1, 2)?.bids)).toEqual(
      new Map([
        [0.5, 2],
        [0.4, 1],
      ]),
    )
  })

  it('sends a side that did not change as no changes, and one with a level of size 0 whole', () => {
    const bids: Level[] = [
      [0.5, 1],
      [0.4, 2],
    ]
    const same = bookDelta(view(bids, []), view([...bids], [[0.6, 1]]), 1, 2)
    expect(same?.bids).toBeUndefined()
    expect(same?.asks).toEqual([[0.6, 1]])
    expect(bookDelta(view(bids, []), view([[0.5, 0]], []), 1, 2)).toBeNull()
  })
})
