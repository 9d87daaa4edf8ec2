// Book deltas end to end: random book histories (VoxFi's whole YES and NO books, a reference venue's level deltas,
// state changes) through the real order books and fan-out into a window that takes deltas, through the browser
// host's fold (a backed-up socket) and the renderer's frame queue (both mergeBatches), into the books the window
// holds as its store keeps them (shared/book-delta.ts receiveBooks); after every batch it applies, each book it
// shows must be the engine's whole view as that batch was built.
import { describe, expect, it } from 'vitest'
import { PAGE_MERGE_CAPS } from '../../../src/main/web/bridge'
import { Fanout } from '../../../src/main/services/fanout/fanout'
import { BookStore } from '../../../src/main/services/market/books'
import { mergeBatches } from '../../../src/shared/batch-merge'
import { receiveBooks, type HeldBooks } from '../../../src/shared/book-delta'
import type { ViewBatch } from '../../../src/shared/ipc'
import type { BookView, Level } from '../../../src/shared/model'
import { mulberry32 } from '../../../src/sim/rng'
import { status } from '../../shared/batch-fixtures'

const VOX = 'vox'
const REF = 'ref'
const MARKETS = [VOX, REF]
const DEPTHS = [3, 5, 25]

/** A view as the window shows it: the engine's view plus the number deltas name it by. */
function shown(view: BookView | undefined): BookView | undefined {
  if (view === undefined) return undefined
  const { version: _version, ...rest } = view
  return rest
}

interface Rig {
  books: BookStore
  fanout: Fanout
  /** Batches the fan-out sent, not yet given to the page (a backed-up socket holds them merged). */
  wire: ViewBatch | null
  /** Per batch seq, the engine's views of the window's markets when it was built. */
  expected: Map<number, Map<string, BookView>>
  /** Each market's learnt gap (the liveness tracker's), which moves its view without moving its levels. */
  gaps: Map<string, number>
  depth: number
  visible: boolean
  markets: string[]
}

function rig(): Rig {
  const gaps = new Map<string, number>()
  const books = new BookStore((m) => gaps.get(m) ?? null)
  let now = 1_000
  const r: Rig = {
    books,
    fanout: new Fanout({
      intervalMs: 16,
      now: () => now++,
      setTimer: () => 0,
      clearTimer: () => undefined,
      defer: () => undefined,
      provider: {
        bookView: (m, d) => books.bookView(m, d),
        ticker: () => null,
        status: () => status(),
      },
    }),
    wire: null,
    expected: new Map(),
    gaps,
    depth: 25,
    visible: true,
    markets: [...MARKETS],
  }
  r.fanout.addClient(
    'w',
    (batch) => {
      const views = new Map<string, BookView>()
      if (r.visible)
        for (const m of r.markets) {
          const view = books.bookView(m, r.depth)
          if (view !== null) views.set(m, view)
        }
      r.expected.set(batch.seq, views)
      r.wire = r.wire === null ? batch : mergeBatches(r.wire, batch, PAGE_MERGE_CAPS)
    },
    { bookDeltas: true },
  )
  r.fanout.setClientMarkets('w', r.markets)
  return r
}

function levels(rnd: () => number, count: number, zeros: boolean): Level[] {
  const out: Level[] = []
  for (let i = 0; i < count; i++) {
    const price = Math.round(1 + rnd() * 98) / 100
    const size = zeros && rnd() < 0.3 ? 0 : Math.ceil(rnd() * 5)
    out.push([price, size])
  }
  return out
}

/** One random thing happening to the engine or the window. */
function step(r: Rig, rnd: () => number, now: number): void {
  const roll = rnd()
  const market = rnd() < 0.6 ? VOX : REF
  if (roll < 0.35) {
    // A whole book, as VoxFi sends each: YES and (VoxFi) NO together, most often shallow, sometimes deep.
    const n = rnd() < 0.2 ? 40 : Math.floor(rnd() * 8)
    const split = (l: Level[]): [Level[], Level[]] => [
      l.filter(([p]) => p < 0.5).map(([p, s]) => [p, s || 1] as Level),
      l.filter(([p]) => p >= 0.5).map(([p, s]) => [p, s || 1] as Level),
    ]
    const [bids, asks] = split(levels(rnd, n, false))
    r.books.apply({ kind: 'book', market, snapshot: true, bids, asks, seq: now }, now)
    if (market === VOX) {
      const [noBids, noAsks] = split(levels(rnd, Math.floor(rnd() * 10), false))
      r.books.apply({ kind: 'book', market, snapshot: true, bids: noBids, asks: noAsks, outcome: 'no' }, now)
    }
  } else if (roll < 0.7) {
    // A reference venue's level delta (size 0 removes): levels leave and enter the top N.
    const bids = levels(rnd, 1 + Math.floor(rnd() * 4), true).filter(([p]) => p < 0.5)
    const asks = levels(rnd, 1 + Math.floor(rnd() * 4), true).filter(([p]) => p >= 0.5)
    if (market === VOX && rnd() < 0.5)
      r.books.apply({ kind: 'book', market, snapshot: false, bids, asks, outcome: 'no' }, now)
    else r.books.apply({ kind: 'book', market, snapshot: false, bids, asks }, now)
  } else if (roll < 0.76) {
    if (rnd() < 0.5) r.books.markStale(market, 'gap')
    else r.books.markResyncing(market, 1 + Math.floor(rnd() * 3))
  } else if (roll < 0.8) {
    if (rnd() < 0.3) r.gaps.delete(market)
    else r.gaps.set(market, Math.floor(rnd() * 500))
  } else if (roll < 0.84) {
    r.depth = DEPTHS[Math.floor(rnd() * DEPTHS.length)] as number
    r.fanout.setDepth('w', r.depth)
    return
  } else if (roll < 0.88) {
    r.visible = !r.visible
    r.fanout.setVisible('w', r.visible)
    return
  } else if (roll < 0.91) {
    r.markets = r.markets.length === 2 ? [market] : [...MARKETS]
    r.fanout.setClientMarkets('w', r.markets)
    return
  } else if (roll < 0.93) {
    r.books.delete(market)
  }
  r.fanout.bookChanged(market)
}

/**
 * The page takes what the socket holds into its frame queue (the same fold), and at random moments applies the
 * queue to the books it holds as the store does (receiveBooks); then every book it shows must be the engine's
 * view as the newest batch applied was built.
 */
function deliver(r: Rig, w: Window, rnd: () => number): void {
  if (r.wire !== null && rnd() < 0.6) {
    w.queue = w.queue === null ? r.wire : mergeBatches(w.queue, r.wire)
    r.wire = null
  }
  if (w.queue !== null && rnd() < 0.6) {
    const { books, bases, lost } = receiveBooks(w.held, w.queue)
    w.held = { books, bases }
    if (lost) w.lost++
    for (const [market, view] of r.expected.get(w.queue.seq) ?? [])
      expect(shown(w.held.books[market]), market).toEqual(view)
    w.queue = null
  }
}

interface Window {
  queue: ViewBatch | null
  held: HeldBooks
  lost: number
}

describe('book deltas through the fan-out, the host fold and the renderer queue', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('keeps the window on the engine whole view (seed %i)', (seed) => {
    const rnd = mulberry32(seed)
    const r = rig()
    const w: Window = { queue: null, held: { books: {}, bases: {} }, lost: 0 }
    let deltas = 0
    for (let i = 0; i < 600; i++) {
      step(r, rnd, 2_000 + i)
      r.fanout.flush()
      deltas += r.wire?.bookDeltas?.length ?? 0
      deliver(r, w, rnd)
    }
    expect(w.lost).toBe(0)
    // The run must have sent deltas, or it tested nothing new.
    expect(deltas).toBeGreaterThan(50)
    r.fanout.close()
  })
})

describe('which books a window that takes deltas gets whole', () => {
  function setup(): {
    books: BookStore
    fanout: Fanout
    got: ViewBatch[]
    fail: { next: boolean }
    change: (bid: number) => void
  } {
    const books = new BookStore()
    const fanout = new Fanout({
      intervalMs: 16,
      setTimer: () => 0,
      clearTimer: () => undefined,
      defer: () => undefined,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      provider: { bookView: (m, d) => books.bookView(m, d), ticker: () => null, status: () => status() },
    })
    const got: ViewBatch[] = []
    const fail = { next: false }
    fanout.addClient(
      'w',
      (b) => {
        if (fail.next) {
          fail.next = false
          throw new Error('the window is gone for a moment')
        }
        got.push(b)
      },
      { bookDeltas: true },
    )
    fanout.setClientMarkets('w', ['m'])
    let seq = 0
    const change = (bid: number): void => {
      seq++
      const bids: Level[] = [
        [bid, seq],
        [0.1, 1],
      ]
      books.apply({ kind: 'book', market: 'm', snapshot: true, bids, asks: [[0.9, 1]], seq }, seq)
      fanout.bookChanged('m')
      fanout.flush()
    }
    return { books, fanout, got, fail, change }
  }

  const last = (got: ViewBatch[]): ViewBatch => got[got.length - 1] as ViewBatch

  it('sends the first view whole and numbered, then deltas naming the view before', () => {
    const s = setup()
    s.change(0.2)
    const first = last(s.got).books?.[0]
    expect(first?.version).toEqual(expect.any(Number))
    s.change(0.3)
    const delta = last(s.got).bookDeltas?.[0]
    expect(last(s.got).books).toBeUndefined()
    expect(delta).toMatchObject({
      base: first?.version,
      bids: [
        [0.3, 2],
        [0.2, 0],
      ],
    })
    expect(delta?.asks).toBeUndefined()
    s.change(0.25)
    expect(last(s.got).bookDeltas?.[0]?.base).toBe(delta?.version)
    // Told of a change that left the view as it was: a delta of no levels, not the book again.
    s.fanout.bookChanged('m')
    s.fanout.flush()
    expect(last(s.got).bookDeltas?.[0]).not.toHaveProperty('bids')
  })

  it('sends books whole after a depth change, a repeated depth (a window that lost a book), a resume, a failed send, and a market watched again', () => {
    const s = setup()
    s.change(0.2)
    const whole = (why: string): void => {
      expect(last(s.got).books, why).toHaveLength(1)
      expect(last(s.got).bookDeltas, why).toBeUndefined()
    }
    s.change(0.3)
    expect(last(s.got).bookDeltas).toHaveLength(1)
    s.fanout.setDepth('w', 10)
    s.fanout.flush()
    whole('depth')
    s.change(0.31)
    s.fanout.setDepth('w', 10)
    s.fanout.flush()
    whole('same depth again')
    s.change(0.32)
    s.fanout.setVisible('w', false)
    s.fanout.setVisible('w', true)
    s.fanout.flush()
    whole('resume')
    expect(last(s.got).resume).toBe(true)
    s.change(0.33)
    s.fail.next = true
    s.change(0.34)
    s.change(0.35)
    whole('after a failed send')
    s.change(0.36)
    s.fanout.setClientMarkets('w', [])
    s.fanout.setClientMarkets('w', ['m'])
    s.fanout.flush()
    whole('watched again')
    s.change(0.37)
    expect(last(s.got).bookDeltas).toHaveLength(1)
  })

  it('gives windows at the same view the same delta object, and a window that takes none whole views', () => {
    const s = setup()
    const other: ViewBatch[] = []
    const plain: ViewBatch[] = []
    s.fanout.addClient('w2', (b) => other.push(b), { bookDeltas: true })
    s.fanout.addClient('w3', (b) => plain.push(b))
    s.fanout.setClientMarkets('w2', ['m'])
    s.fanout.setClientMarkets('w3', ['m'])
    s.change(0.2)
    s.change(0.3)
    expect(last(s.got).bookDeltas?.[0]).toBe(last(other).bookDeltas?.[0])
    expect(last(plain).bookDeltas).toBeUndefined()
    expect(last(plain).books?.[0]).toBe(s.books.bookView('m', 25))
  })
})
