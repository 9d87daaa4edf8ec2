// Ground truth for the soak run: a bare `ws` client connected straight to the simulator (never through the
// fault proxy), keeping each watched book from the simulator's own snapshots and deltas. It records, per
// market and per seq, when that seq arrived and the top levels it produced, so the engine's views can be
// judged at the SAME seq. It only records what it can vouch for: while it has no valid book it records nothing.
import WebSocket from 'ws'
import type { Level } from '../../src/shared/model'

/** Levels per side kept per seq (the engine's views are compared on this many). */
export const TRUTH_DEPTH = 10
/** Seqs kept per market: at the simulator's ~10 updates/s per market, several minutes. */
export const TRUTH_HISTORY = 2000
const RECONNECT_MS = 250
const HANDSHAKE_TIMEOUT_MS = 3000
/** A resubscribe whose snapshot has not come (lost in a stall, say) is repeated after this long. */
const RESUBSCRIBE_RETRY_MS = 1000
const RESYNC_TICK_MS = 250
/** Wider than the simulator's oversized test frame (2 MiB): the truth must survive every fault. */
const MAX_PAYLOAD = 16 * 1024 * 1024
const STRIDE = TRUTH_DEPTH * 4

export interface SeqMark {
  seq: number
  at: number
}

/** One market's book and its bounded, preallocated history (typed arrays: no heap growth as it fills). */
class MarketTruth {
  private readonly bids = new Map<number, number>()
  private readonly asks = new Map<number, number>()
  valid = false
  seq: number | null = null
  resubscribedAt = 0
  /** Latest recorded seq (a valid book), or null before the first. */
  latestSeq: number | null = null
  latestAt = 0
  /** The latest sequence gap / crossed delta seen (the simulator's gap and crossed faults, or a stall). */
  lastGap: SeqMark | null = null
  lastCrossed: SeqMark | null = null
  private readonly seqs = new Float64Array(TRUTH_HISTORY).fill(-1)
  private readonly recv = new Float64Array(TRUTH_HISTORY)
  private readonly counts = new Uint8Array(TRUTH_HISTORY * 2)
  private readonly levels = new Float64Array(TRUTH_HISTORY * STRIDE)

  invalidate(): void {
    this.valid = false
    this.seq = null
    this.bids.clear()
    this.asks.clear()
  }

  /** Returns 'crossed' when the result crosses (the book is then invalid and nothing is recorded). */
  snapshot(seq: number, bids: Level[], asks: Level[], at: number): 'ok' | 'crossed' {
    this.bids.clear()
    this.asks.clear()
    for (const [p, s] of bids) if (s > 0) this.bids.set(key(p), s)
    for (const [p, s] of asks) if (s > 0) this.asks.set(key(p), s)
    this.seq = seq
    return this.settle(at)
  }

  /** 'gap' and 'crossed' leave the book invalid; 'old' is a seq at or before the current one (ignored). */
  delta(seq: number, bids: Level[], asks: Level[], at: number): 'ok' | 'gap' | 'crossed' | 'old' | 'invalid' {
    if (!this.valid || this.seq === null) return 'invalid'
    if (seq <= this.seq) return 'old'
    if (seq !== this.seq + 1) {
      this.lastGap = { seq, at }
      this.invalidate()
      return 'gap'
    }
    for (const [p, s] of bids) {
      if (s > 0) this.bids.set(key(p), s)
      else this.bids.delete(key(p))
    }
    for (const [p, s] of asks) {
      if (s > 0) this.asks.set(key(p), s)
      else this.asks.delete(key(p))
    }
    this.seq = seq
    const r = this.settle(at)
    if (r === 'crossed') this.lastCrossed = { seq, at }
    return r
  }

  private settle(at: number): 'ok' | 'crossed' {
    const bidKeys = [...this.bids.keys()].sort((a, b) => b - a)
    const askKeys = [...this.asks.keys()].sort((a, b) => a - b)
    const bb = bidKeys[0]
    const ba = askKeys[0]
    if (bb !== undefined && ba !== undefined && bb >= ba) {
      this.invalidate()
      return 'crossed'
    }
    this.valid = true
    this.record(this.seq as number, at, bidKeys, askKeys)
    return 'ok'
  }

  private record(seq: number, at: number, bidKeys: number[], askKeys: number[]): void {
    const slot = seq % TRUTH_HISTORY
    // A re-sent snapshot of a seq already seen keeps the first arrival time: that is when the truth knew it.
    if (this.seqs[slot] !== seq) this.recv[slot] = at
    this.seqs[slot] = seq
    const nb = Math.min(TRUTH_DEPTH, bidKeys.length)
    const na = Math.min(TRUTH_DEPTH, askKeys.length)
    this.counts[slot * 2] = nb
    this.counts[slot * 2 + 1] = na
    const base = slot * STRIDE
    for (let i = 0; i < nb; i++) {
      const k = bidKeys[i] as number
      this.levels[base + i * 2] = k / SCALE
      this.levels[base + i * 2 + 1] = this.bids.get(k) as number
    }
    const askBase = base + TRUTH_DEPTH * 2
    for (let i = 0; i < na; i++) {
      const k = askKeys[i] as number
      this.levels[askBase + i * 2] = k / SCALE
      this.levels[askBase + i * 2 + 1] = this.asks.get(k) as number
    }
    if (this.latestSeq === null || seq >= this.latestSeq) {
      this.latestSeq = seq
      this.latestAt = at
    }
  }

  has(seq: number): boolean {
    return Number.isInteger(seq) && seq >= 0 && this.seqs[seq % TRUTH_HISTORY] === seq
  }

  receivedAt(seq: number): number | null {
    return this.has(seq) ? (this.recv[seq % TRUTH_HISTORY] as number) : null
  }

  top(seq: number): { bids: Level[]; asks: Level[] } | null {
    if (!this.has(seq)) return null
    const slot = seq % TRUTH_HISTORY
    const base = slot * STRIDE
    const bids: Level[] = []
    const asks: Level[] = []
    for (let i = 0; i < (this.counts[slot * 2] as number); i++)
      bids.push([this.levels[base + i * 2] as number, this.levels[base + i * 2 + 1] as number])
    const askBase = base + TRUTH_DEPTH * 2
    for (let i = 0; i < (this.counts[slot * 2 + 1] as number); i++)
      asks.push([this.levels[askBase + i * 2] as number, this.levels[askBase + i * 2 + 1] as number])
    return { bids, asks }
  }

  /** The earliest recorded seq after `seq` (bounded scan over the kept history). */
  firstAfter(seq: number): SeqMark | null {
    if (this.latestSeq === null || this.latestSeq <= seq) return null
    const from = Math.max(seq + 1, this.latestSeq - TRUTH_HISTORY + 1)
    for (let s = from; s <= this.latestSeq; s++) {
      if (this.has(s)) return { seq: s, at: this.recv[s % TRUTH_HISTORY] as number }
    }
    return null
  }

  /** The earliest recorded seq that arrived at or after `t` (bounded scan backwards from the latest). */
  firstReceivedSince(t: number): SeqMark | null {
    if (this.latestSeq === null) return null
    let found: SeqMark | null = null
    const stop = Math.max(0, this.latestSeq - TRUTH_HISTORY + 1)
    for (let s = this.latestSeq; s >= stop; s--) {
      if (!this.has(s)) continue
      const at = this.recv[s % TRUTH_HISTORY] as number
      if (at < t) break
      found = { seq: s, at }
    }
    return found
  }
}

const SCALE = 1e9
/** Prices arrive as decimal text; the same rounding as the engine's books puts equal prices on one key. */
function key(price: number): number {
  return Math.round(price * SCALE)
}

function isLevels(v: unknown): v is Level[] {
  return (
    Array.isArray(v) &&
    v.every(
      (l) =>
        Array.isArray(l) &&
        l.length >= 2 &&
        typeof l[0] === 'number' &&
        Number.isFinite(l[0]) &&
        typeof l[1] === 'number' &&
        Number.isFinite(l[1]),
    )
  )
}

export interface TruthStats {
  frames: number
  reconnects: number
  resubscribes: number
  gaps: number
  crossed: number
}

export interface Truth {
  readonly dialect: 'reference'
  readonly markets: readonly string[]
  valid(market: string): boolean
  has(market: string, seq: number): boolean
  receivedAt(market: string, seq: number): number | null
  top(market: string, seq: number): { bids: Level[]; asks: Level[] } | null
  latest(market: string): SeqMark | null
  firstAfter(market: string, seq: number): SeqMark | null
  firstReceivedSince(market: string, t: number): SeqMark | null
  lastGap(market: string): SeqMark | null
  lastCrossed(market: string): SeqMark | null
  stats(): TruthStats
  close(): void
}

export function startTruth(wsUrl: string, markets: readonly string[]): Truth {
  const books = new Map<string, MarketTruth>()
  for (const m of markets) books.set(m, new MarketTruth())
  const stats: TruthStats = { frames: 0, reconnects: 0, resubscribes: 0, gaps: 0, crossed: 0 }
  let ws: WebSocket | null = null
  let open = false
  let stopped = false
  let opened = 0
  let reconnectTimer: NodeJS.Timeout | null = null

  const send = (markets: readonly string[]): void => {
    if (ws === null || !open) return
    ws.send(JSON.stringify({ type: 'subscribe', channel: 'market', markets, filter: 'all' }))
  }

  const resubscribe = (market: string, now: number): void => {
    const b = books.get(market)
    if (b === undefined || !open) return
    b.resubscribedAt = now
    stats.resubscribes++
    send([market])
  }

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
    if (m.type !== 'orderbook' || typeof m.market !== 'string' || typeof m.seq !== 'number') return
    const book = books.get(m.market)
    if (book === undefined || !isLevels(m.bids) || !isLevels(m.asks)) return
    if (m.snapshot === true) {
      if (book.snapshot(m.seq, m.bids, m.asks, at) === 'crossed') {
        stats.crossed++
        resubscribe(m.market, at)
      }
      return
    }
    const r = book.delta(m.seq, m.bids, m.asks, at)
    if (r === 'gap') stats.gaps++
    if (r === 'crossed') stats.crossed++
    if (r === 'gap' || r === 'crossed') resubscribe(m.market, at)
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
      open = true
      if (opened++ > 0) stats.reconnects++
      const now = Date.now()
      for (const b of books.values()) b.resubscribedAt = now
      send(markets)
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
      open = false
      for (const b of books.values()) b.invalidate()
      if (!stopped) reconnectTimer = setTimeout(connect, RECONNECT_MS)
    })
  }

  // A resubscribe answered by nothing (its snapshot dropped by a stall) is asked again, as long as it takes.
  const resyncTimer = setInterval(() => {
    const now = Date.now()
    for (const [m, b] of books)
      if (!b.valid && now - b.resubscribedAt >= RESUBSCRIBE_RETRY_MS) resubscribe(m, now)
  }, RESYNC_TICK_MS)

  connect()

  const get = (market: string): MarketTruth | undefined => books.get(market)
  return {
    dialect: 'reference',
    markets,
    valid: (m) => get(m)?.valid ?? false,
    has: (m, s) => get(m)?.has(s) ?? false,
    receivedAt: (m, s) => get(m)?.receivedAt(s) ?? null,
    top: (m, s) => get(m)?.top(s) ?? null,
    latest: (m) => {
      const b = get(m)
      return b === undefined || b.latestSeq === null ? null : { seq: b.latestSeq, at: b.latestAt }
    },
    firstAfter: (m, s) => get(m)?.firstAfter(s) ?? null,
    firstReceivedSince: (m, t) => get(m)?.firstReceivedSince(t) ?? null,
    lastGap: (m) => get(m)?.lastGap ?? null,
    lastCrossed: (m) => get(m)?.lastCrossed ?? null,
    stats: () => ({ ...stats }),
    close: () => {
      stopped = true
      clearInterval(resyncTimer)
      if (reconnectTimer !== null) clearTimeout(reconnectTimer)
      reconnectTimer = null
      const sock = ws
      ws = null
      open = false
      if (sock !== null) {
        sock.removeAllListeners()
        sock.on('error', () => {})
        sock.terminate()
      }
    },
  }
}
