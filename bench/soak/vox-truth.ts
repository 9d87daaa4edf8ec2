// Ground truth for the soak run on VoxFi's dialect: a bare `ws` client connected straight to the simulator (never
// through the fault proxy), subscribed to the watched markets. VoxFi has no seq and sends whole books, so the truth
// keeps, per market, the SEQUENCE of distinct whole books it received (a version number per change of content),
// each with its arrival time and its top levels (YES and NO books, ticks / 100 as the engine shows them). An engine
// view is judged by finding the book it shows in that sequence (checks.ts).
//
// The stream is not the only way a book reaches the engine: VoxFi sends none on subscribe, so the engine reads
// `GET /v1/data/markets/{id}/orderbook` first and on every resync, also while the stream is stalled, when that
// answer is a book the stream never carried. The harness therefore hands every orderbook answer the simulator gave
// the engine (read off the wire by `tapRestBooks`, parsed here, never by the engine's decoder) to `restBook`; those
// are kept apart, with when they were asked for and answered, and only count as books a view may show.
import diagnostics from 'node:diagnostics_channel'
import type http from 'node:http'
import WebSocket from 'ws'
import type { Level } from '../../src/shared/model'
import { TRUTH_DEPTH, TRUTH_HISTORY } from './truth'

/** REST answers kept per market (a handful per fault at most). */
export const REST_HISTORY = 256
/** Holes (the truth not subscribed, or waiting for its first book) kept per market. */
const HOLE_HISTORY = 64
const RECONNECT_MS = 250
const HANDSHAKE_TIMEOUT_MS = 3000
/** Wider than the simulator's oversized test frame (2 MiB): the truth must survive every fault. */
const MAX_PAYLOAD = 16 * 1024 * 1024
/** YES bids, YES asks, NO bids, NO asks. */
const SIDES = 4
const STRIDE = SIDES * TRUTH_DEPTH * 2
const PRICE_EPS = 1e-7
const SIZE_EPS = 1e-6

/** The part of a book the soak compares: the top TRUTH_DEPTH levels of each side of both books, 0–1 prices. */
export interface VoxContent {
  bids: Level[]
  asks: Level[]
  noBids: Level[]
  noAsks: Level[]
}

export interface VersionMark {
  version: number
  at: number
}

/** Where an engine's book sits in the truth's sequence. */
export interface VoxMatch {
  /** 'stream': a book the truth received; 'rest': an orderbook answer the simulator gave the engine. */
  source: 'stream' | 'rest'
  /** stream: the version; rest: the latest stream version received before the answer (-1: none). */
  version: number
  /** stream: when the truth received it; rest: when the engine asked for it (its state is at least that new). */
  seenAt: number
  /** When the truth first received a newer stream book (a different one); null: none yet, it is current. */
  supersededAt: number | null
}

/** Sorted (bids descending, asks ascending), positive sizes, top TRUTH_DEPTH; null if not a list of levels. */
function side(v: unknown, bids: boolean): Level[] | null {
  if (!Array.isArray(v)) return null
  const byTick = new Map<number, number>()
  for (const l of v) {
    if (typeof l !== 'object' || l === null) return null
    const { price_ticks: t, quantity: q } = l as Record<string, unknown>
    if (typeof t !== 'number' || !Number.isFinite(t) || typeof q !== 'number' || !Number.isFinite(q))
      return null
    if (q > 0) byTick.set(t, q)
  }
  const ticks = [...byTick.keys()].sort((a, b) => (bids ? b - a : a - b)).slice(0, TRUTH_DEPTH)
  // Ticks to 0–1 the way the engine shows them (ticks / 100); compared with a tolerance anyway.
  return ticks.map((t) => [t / 100, byTick.get(t) as number])
}

/** The content of a VoxFi `orderbook` object (stream frame or REST body), or null when it is not one. */
export function parseOrderbook(ob: unknown): VoxContent | null {
  if (typeof ob !== 'object' || ob === null) return null
  const o = ob as Record<string, unknown>
  const yes = o.yes_orderbook as Record<string, unknown> | undefined
  const no = o.no_orderbook as Record<string, unknown> | undefined
  if (typeof yes !== 'object' || yes === null) return null
  const bids = side(yes.bids, true)
  const asks = side(yes.asks, false)
  if (bids === null || asks === null) return null
  const hasNo = typeof no === 'object' && no !== null
  const noBids = hasNo ? side(no.bids, true) : []
  const noAsks = hasNo ? side(no.asks, false) : []
  if (noBids === null || noAsks === null) return null
  return { bids, asks, noBids, noAsks }
}

export function isCrossed(c: VoxContent): boolean {
  const bb = c.bids[0]
  const ba = c.asks[0]
  return bb !== undefined && ba !== undefined && bb[0] >= ba[0]
}

/** A bounded ring of book contents in typed arrays (no heap growth as it fills). */
class ContentRing {
  private readonly counts: Uint8Array
  private readonly levels: Float64Array

  constructor(readonly size: number) {
    this.counts = new Uint8Array(size * SIDES)
    this.levels = new Float64Array(size * STRIDE)
  }

  write(n: number, c: VoxContent): void {
    const slot = n % this.size
    const sides = [c.bids, c.asks, c.noBids, c.noAsks]
    for (let s = 0; s < SIDES; s++) {
      const list = sides[s] as Level[]
      const k = Math.min(TRUTH_DEPTH, list.length)
      this.counts[slot * SIDES + s] = k
      const base = slot * STRIDE + s * TRUTH_DEPTH * 2
      for (let i = 0; i < k; i++) {
        const l = list[i] as Level
        this.levels[base + i * 2] = l[0]
        this.levels[base + i * 2 + 1] = l[1]
      }
    }
  }

  equals(n: number, c: VoxContent): boolean {
    const slot = n % this.size
    const sides = [c.bids, c.asks, c.noBids, c.noAsks]
    for (let s = 0; s < SIDES; s++) {
      const list = sides[s] as Level[]
      const k = Math.min(TRUTH_DEPTH, list.length)
      if (this.counts[slot * SIDES + s] !== k) return false
      const base = slot * STRIDE + s * TRUTH_DEPTH * 2
      for (let i = 0; i < k; i++) {
        const l = list[i] as Level
        if (Math.abs((this.levels[base + i * 2] as number) - l[0]) > PRICE_EPS) return false
        if (Math.abs((this.levels[base + i * 2 + 1] as number) - l[1]) > SIZE_EPS) return false
      }
    }
    return true
  }

  read(n: number): VoxContent {
    const slot = n % this.size
    const out: Level[][] = []
    for (let s = 0; s < SIDES; s++) {
      const k = this.counts[slot * SIDES + s] as number
      const base = slot * STRIDE + s * TRUTH_DEPTH * 2
      const list: Level[] = []
      for (let i = 0; i < k; i++)
        list.push([this.levels[base + i * 2] as number, this.levels[base + i * 2 + 1] as number])
      out.push(list)
    }
    return {
      bids: out[0] as Level[],
      asks: out[1] as Level[],
      noBids: out[2] as Level[],
      noAsks: out[3] as Level[],
    }
  }
}

class MarketVoxTruth {
  /** Subscribed and holding a book from the stream (since its first book after the last (re)subscribe). */
  valid = false
  /** Versions recorded so far; version n is in the ring while n >= count - TRUTH_HISTORY. */
  count = 0
  private readonly books = new ContentRing(TRUTH_HISTORY)
  private readonly recv = new Float64Array(TRUTH_HISTORY)
  restCount = 0
  private readonly rest = new ContentRing(REST_HISTORY)
  private readonly restAsked = new Float64Array(REST_HISTORY)
  private readonly restAnswered = new Float64Array(REST_HISTORY)
  /** The latest crossed book the stream sent (the simulator's crossed fault); never recorded as a version. */
  lastCrossed: { at: number } | null = null
  /** [start, end] of times the truth could not have seen a book (end Infinity while it lasts). */
  private readonly holes: Array<[number, number]> = []

  constructor(now: number) {
    this.holes.push([now, Infinity])
  }

  invalidate(at: number): void {
    if (!this.valid) return
    this.valid = false
    this.holes.push([at, Infinity])
    if (this.holes.length > HOLE_HISTORY) this.holes.shift()
  }

  /** A book from the stream. */
  book(c: VoxContent, at: number): 'ok' | 'crossed' {
    if (isCrossed(c)) {
      // The simulator's lie: its real book did not change, so the latest version stays current.
      this.lastCrossed = { at }
      return 'crossed'
    }
    if (!this.valid) {
      this.valid = true
      const h = this.holes[this.holes.length - 1]
      if (h !== undefined && h[1] === Infinity) h[1] = at
    }
    // One version per change of content: a frame that only moved what is not compared is the same version.
    if (this.count > 0 && this.books.equals(this.count - 1, c)) return 'ok'
    const n = this.count++
    this.books.write(n, c)
    this.recv[n % TRUTH_HISTORY] = at
    return 'ok'
  }

  restBook(c: VoxContent, askedAt: number, answeredAt: number): void {
    const i = this.restCount++
    this.rest.write(i, c)
    this.restAsked[i % REST_HISTORY] = askedAt
    this.restAnswered[i % REST_HISTORY] = answeredAt
  }

  private oldest(): number {
    return Math.max(0, this.count - TRUTH_HISTORY)
  }

  recvAt(n: number): number {
    return this.recvOf(n)
  }

  private recvOf(n: number): number {
    return this.recv[n % TRUTH_HISTORY] as number
  }

  latest(): VersionMark | null {
    return this.count === 0 ? null : { version: this.count - 1, at: this.recvOf(this.count - 1) }
  }

  content(version: number): VoxContent | null {
    return version >= this.oldest() && version < this.count ? this.books.read(version) : null
  }

  /** The earliest version received at or after `t` (bounded scan backwards from the latest). */
  firstReceivedSince(t: number): VersionMark | null {
    let found: VersionMark | null = null
    for (let n = this.count - 1; n >= this.oldest(); n--) {
      const at = this.recvOf(n)
      if (at < t) break
      found = { version: n, at }
    }
    return found
  }

  /** The latest version received at or before `t`, or -1. */
  lastReceivedBy(t: number): number {
    for (let n = this.count - 1; n >= this.oldest(); n--) if (this.recvOf(n) <= t) return n
    return -1
  }

  /**
   * Where `c` sits in what the truth has: the newest stream version with this content that was still current at
   * `at - windowMs` or later, and the newest REST answer with this content given at `at - windowMs` or later;
   * of the two, the one superseded last (then: the one seen last). Null: no such book.
   */
  match(c: VoxContent, at: number, windowMs: number): VoxMatch | null {
    const from = at - windowMs
    let best: VoxMatch | null = null
    for (let n = this.count - 1; n >= this.oldest(); n--) {
      const sup = n + 1 < this.count ? this.recvOf(n + 1) : null
      if (sup !== null && sup < from) break
      if (this.books.equals(n, c)) {
        best = { source: 'stream', version: n, seenAt: this.recvOf(n), supersededAt: sup }
        break
      }
    }
    const oldestRest = Math.max(0, this.restCount - REST_HISTORY)
    for (let i = this.restCount - 1; i >= oldestRest; i--) {
      const answered = this.restAnswered[i % REST_HISTORY] as number
      if (answered < from) break
      if (!this.rest.equals(i, c)) continue
      // The answer is the simulator's book somewhere between the request and the answer: a stream book the truth
      // received after the answer is certainly newer.
      const before = this.lastReceivedBy(answered)
      const next = before + 1 < this.count ? this.recvOf(before + 1) : null
      const cand: VoxMatch = {
        source: 'rest',
        version: before,
        seenAt: this.restAsked[i % REST_HISTORY] as number,
        supersededAt: next,
      }
      if (best === null || better(cand, best)) best = cand
      break
    }
    return best
  }

  /** Whether the truth could have missed a book at some time in [from, to]. */
  hole(from: number, to: number): boolean {
    return this.holes.some(([s, e]) => s <= to && e >= from)
  }
}

function better(a: VoxMatch, b: VoxMatch): boolean {
  if (a.supersededAt === null) return b.supersededAt !== null || a.seenAt > b.seenAt
  if (b.supersededAt === null) return false
  return a.supersededAt > b.supersededAt || (a.supersededAt === b.supersededAt && a.seenAt > b.seenAt)
}

export interface VoxTruthStats {
  frames: number
  reconnects: number
  resubscribes: number
  gaps: number
  crossed: number
  /** Books recorded (distinct versions, all markets). */
  versions: number
  /** Orderbook answers the simulator gave the engine, recorded. */
  restBooks: number
}

export interface VoxTruth {
  readonly dialect: 'voxfi'
  readonly markets: readonly string[]
  valid(market: string): boolean
  latest(market: string): VersionMark | null
  content(market: string, version: number): VoxContent | null
  firstReceivedSince(market: string, t: number): VersionMark | null
  /** The version current at `t` (the latest received at or before it). */
  currentAt(market: string, t: number): VersionMark | null
  match(market: string, c: VoxContent, at: number, windowMs: number): VoxMatch | null
  hole(market: string, from: number, to: number): boolean
  lastCrossed(market: string): { at: number } | null
  /** An orderbook answer (the REST body) the simulator gave for `market`, asked at `askedAt`, read at `answeredAt`. */
  restBook(market: string, body: unknown, askedAt: number, answeredAt: number): void
  stats(): VoxTruthStats
  close(): void
}

export function startVoxTruth(wsUrl: string, markets: readonly string[]): VoxTruth {
  const books = new Map<string, MarketVoxTruth>()
  const t0 = Date.now()
  for (const m of markets) books.set(m, new MarketVoxTruth(t0))
  const stats: VoxTruthStats = {
    frames: 0,
    reconnects: 0,
    resubscribes: 0,
    gaps: 0,
    crossed: 0,
    versions: 0,
    restBooks: 0,
  }
  let ws: WebSocket | null = null
  let stopped = false
  let opened = 0
  let reconnectTimer: NodeJS.Timeout | null = null

  const onMessage = (data: WebSocket.RawData): void => {
    const at = Date.now()
    stats.frames++
    let msg: unknown
    try {
      msg = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data))
    } catch {
      return // the malformed-frame fault reaches the truth too
    }
    if (typeof msg !== 'object' || msg === null) return
    const m = msg as Record<string, unknown>
    if (m.msg_type !== 'update-orderbook' && m.msg_type !== 'update') return
    if (typeof m.market_id !== 'string') return
    const book = books.get(m.market_id)
    const c = parseOrderbook(m.orderbook)
    if (book === undefined || c === null) return
    const before = book.count
    if (book.book(c, at) === 'crossed') stats.crossed++
    stats.versions += book.count - before
  }

  const connect = (): void => {
    reconnectTimer = null
    if (stopped) return
    const sock = new WebSocket(wsUrl, {
      perMessageDeflate: false,
      maxPayload: MAX_PAYLOAD,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    })
    ws = sock
    sock.on('open', () => {
      if (sock !== ws) return
      if (opened++ > 0) stats.reconnects++
      // No book comes on subscribe: each market is valid again from its next book.
      sock.send(JSON.stringify({ type: 'subscribe', channel: 'market', markets, filter: 'all' }))
    })
    sock.on('message', (data) => {
      if (sock === ws) onMessage(data)
    })
    sock.on('error', () => {
      // 'close' follows (refused upgrades, resets): handled there.
    })
    sock.on('close', () => {
      if (sock !== ws) return
      ws = null
      const now = Date.now()
      for (const b of books.values()) b.invalidate(now)
      if (!stopped) reconnectTimer = setTimeout(connect, RECONNECT_MS)
    })
  }

  connect()

  const get = (market: string): MarketVoxTruth | undefined => books.get(market)
  return {
    dialect: 'voxfi',
    markets,
    valid: (m) => get(m)?.valid ?? false,
    latest: (m) => get(m)?.latest() ?? null,
    content: (m, v) => get(m)?.content(v) ?? null,
    firstReceivedSince: (m, t) => get(m)?.firstReceivedSince(t) ?? null,
    currentAt: (m, t) => {
      const b = get(m)
      const n = b === undefined ? -1 : b.lastReceivedBy(t)
      return b === undefined || n < 0 ? null : { version: n, at: b.recvAt(n) }
    },
    match: (m, c, at, w) => get(m)?.match(c, at, w) ?? null,
    hole: (m, from, to) => get(m)?.hole(from, to) ?? true,
    lastCrossed: (m) => get(m)?.lastCrossed ?? null,
    restBook: (m, body, askedAt, answeredAt) => {
      const b = get(m)
      // The REST body is the stream frame's `orderbook` object (some venues wrap it in `data`).
      const inner =
        typeof body === 'object' && body !== null && !Array.isArray(body) && 'data' in body
          ? (body as { data: unknown }).data
          : body
      const c = parseOrderbook(inner)
      if (b === undefined || c === null || isCrossed(c)) return
      b.restBook(c, askedAt, answeredAt)
      stats.restBooks++
    },
    stats: () => ({ ...stats }),
    close: () => {
      stopped = true
      if (reconnectTimer !== null) clearTimeout(reconnectTimer)
      reconnectTimer = null
      const sock = ws
      ws = null
      if (sock !== null) {
        sock.removeAllListeners()
        sock.on('error', () => {})
        sock.terminate()
      }
    },
  }
}

/**
 * Hands every `GET …/data/markets/{id}/orderbook` answer (200) this process receives to `onBook`, off node's http
 * client, which the engine's REST reads use (feed/rest-reads.ts): its diagnostics channels give each request as it
 * starts and its response as the headers arrive, and the body is read beside the engine's own reader, which gets
 * every byte untouched. Returns the function that stops the tap.
 */
export function tapRestBooks(
  onBook: (market: string, body: unknown, askedAt: number, answeredAt: number) => void,
): () => void {
  const askedAt = new WeakMap<object, number>()
  const onStart = (message: unknown): void => {
    const { request } = message as { request: http.ClientRequest }
    askedAt.set(request, Date.now())
  }
  const onResponse = (message: unknown): void => {
    const { request, response } = message as { request: http.ClientRequest; response: http.IncomingMessage }
    const hit = /\/data\/markets\/([^/?]+)\/orderbook$/.exec(request.path)
    if (hit === null || response.statusCode !== 200) return
    const market = decodeURIComponent(hit[1] as string)
    const asked = askedAt.get(request) ?? Date.now()
    const chunks: Buffer[] = []
    response.on('data', (chunk: Buffer) => chunks.push(chunk))
    // Cut off mid-body ('aborted', no 'end'): the engine did not get it either.
    response.on('end', () => {
      try {
        onBook(market, JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown, asked, Date.now())
      } catch {
        // Not JSON: nothing to record.
      }
    })
  }
  diagnostics.subscribe('http.client.request.start', onStart)
  diagnostics.subscribe('http.client.response.finish', onResponse)
  return () => {
    diagnostics.unsubscribe('http.client.request.start', onStart)
    diagnostics.unsubscribe('http.client.response.finish', onResponse)
  }
}
