// The soak run's judge: compares what the engine shows (polled views and pushed batches) with the ground truth,
// and follows each fault from injection to healed (or not). Every failure count is an episode, not a sample:
// one wrong (market, seq) — on VoxFi, one wrong (market, book) —, one stretch of a market stuck or behind, one
// fault not healed in time. The reference dialect is judged by seq (truth.ts); VoxFi's, which has none, by
// finding the book a view shows in the truth's sequence of whole books (vox-truth.ts).
import type { BookView, Level, StreamStatus } from '../../src/shared/model'
import { SampleSet } from '../lib/stats'
import { DROPS_CONNECTION, type FaultKind, type FaultPlan } from './schedule'
import { TRUTH_DEPTH, type SeqMark, type Truth } from './truth'
import { isCrossed, type VoxContent, type VoxMatch, type VoxTruth } from './vox-truth'

// Deadlines and windows (ms). Generous on purpose: these 2-core machines are noisy.
/** A fault must be healed this long after it ends; also how long a book may stay non-live in calm. */
export const HEAL_DEADLINE_MS = 15_000
/** `live` at seq s while the truth got a later seq more than this long ago: the view is behind. */
export const BEHIND_MS = 5000
/** Healed means no more than this behind the truth (the "truth has seen it within ~3 s" rule). */
export const CURRENT_MS = 3000
/** A view whose seq the truth has not got yet is re-checked for this long, then skipped. */
const PENDING_MS = 2000
const PENDING_CAP = 5000
/** gap / crossed: if the truth never sees the injected fault on the market (it was resyncing), stop waiting. */
const MARKER_WAIT_MS = 5000
/**
 * No heal is declared sooner than this after a fault ends: the engine must have had time to read what the fault
 * did to its socket, or an untouched-looking engine would pass for healed.
 */
const HEAL_GRACE_MS = 100
/**
 * VoxFi: a live view must show a book the truth had at some time in the last MATCH_WINDOW_MS (a stream book still
 * current then, or an orderbook answer given then). How old that book is, is liveBehind's business, as a seq's
 * age is on the reference dialect; the window only bounds the search (well inside TRUTH_HISTORY versions).
 */
export const MATCH_WINDOW_MS = 60_000
/**
 * VoxFi: a view no book of the truth matches is not counted wrong when the engine applied that book while the truth
 * itself was not subscribed (or not yet holding a book), or up to this long after: the engine may show a book
 * only it received (the stream sends to subscribers only).
 */
const HOLE_SLACK_MS = 1000
const EXAMPLES_CAP = 5
const PRICE_EPS = 1e-7
const SIZE_EPS = 1e-6

export interface Failures {
  wrongBooks: number
  stuckStale: number
  liveBehind: number
  faultsNotHealed: number
  crashes: number
  startupNotLive: number
}

export interface FaultRecord {
  n: number
  kind: FaultKind
  /** ms since the run started. */
  atMs: number
  durationMs: number
  market?: string
  count?: number
  healMs: number | null
  notHealedByDeadline: boolean
  /** proxy-blackhole only: ms from start until every book was non-live or the status not live; null: never. */
  detectMs?: number | null
}

interface Active {
  rec: FaultRecord
  startedAt: number
  endedAt: number | null
  reconnectsAtStart: number
  healedAt: number | null
  detectAt: number | null
}

interface Pending {
  market: string
  seq: number
  bids: Level[]
  asks: Level[]
  at: number
}

interface VoxPending {
  market: string
  content: VoxContent
  source: 'rest' | 'stream'
  at: number
  /** When the engine applied the book (its updatedAt), else `at`. */
  appliedAt: number
}

/** What a VoxFi view shows, as the truth keeps it: the top TRUTH_DEPTH levels of each side of both books. */
function voxContent(v: BookView): VoxContent {
  return {
    bids: v.bids.slice(0, TRUTH_DEPTH),
    asks: v.asks.slice(0, TRUTH_DEPTH),
    noBids: (v.no?.bids ?? []).slice(0, TRUTH_DEPTH),
    noAsks: (v.no?.asks ?? []).slice(0, TRUTH_DEPTH),
  }
}

export interface Summary {
  failures: Failures
  faults: FaultRecord[]
  healMs: SampleSet
  unhealed: number
  detectMs: SampleSet
  undetected: number
  cutToLiveMs: SampleSet
  viewsCompared: number
  viewsSkippedNoTruth: number
  polls: number
  examples: Record<string, unknown[]>
}

function levelsEqual(a: readonly Level[], b: readonly Level[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Level
    const y = b[i] as Level
    if (Math.abs(x[0] - y[0]) > PRICE_EPS || Math.abs(x[1] - y[1]) > SIZE_EPS) return false
  }
  return true
}

export class Checker {
  readonly failures: Failures = {
    wrongBooks: 0,
    stuckStale: 0,
    liveBehind: 0,
    faultsNotHealed: 0,
    crashes: 0,
    startupNotLive: 0,
  }
  readonly examples: Record<string, unknown[]> = {
    wrongBooks: [],
    stuckStale: [],
    liveBehind: [],
    faultsNotHealed: [],
    crashes: [],
  }
  readonly faults: FaultRecord[] = []
  readonly healMs = new SampleSet()
  readonly detectMs = new SampleSet()
  readonly cutToLiveMs = new SampleSet()
  unhealed = 0
  undetected = 0
  viewsCompared = 0
  viewsSkippedNoTruth = 0
  polls = 0

  private readonly wrongSeen = new Set<string>()
  private readonly behind = new Set<string>()
  private readonly nonLiveSince = new Map<string, number>()
  private readonly stuck = new Set<string>()
  private pending: Pending[] = []
  private voxPending: VoxPending[] = []
  private active: Active | null = null

  constructor(
    private readonly truth: Truth | VoxTruth,
    private readonly markets: readonly string[],
    private readonly startedAt: number,
    private readonly progress: (line: string) => void,
  ) {}

  example(kind: string, item: unknown): void {
    const list = this.examples[kind]
    if (list !== undefined && list.length < EXAMPLES_CAP) list.push(item)
  }

  crash(what: string): void {
    this.failures.crashes++
    this.example('crashes', what)
    this.progress(`CRASH ${what}`)
  }

  // ---------------------------------------------------------------- per view (polls and batches)

  /** wrongBooks and liveBehind for one engine view seen at `at`. */
  view(v: BookView, at: number): void {
    if (!this.markets.includes(v.market)) return
    const truth = this.truth
    if (truth.dialect === 'voxfi') {
      this.voxView(truth, v, at)
      return
    }
    if (v.state !== 'live' || v.seq === null) {
      this.behind.delete(v.market)
      return
    }
    const bids = v.bids.slice(0, TRUTH_DEPTH)
    const asks = v.asks.slice(0, TRUTH_DEPTH)
    const bb = bids[0]
    const ba = asks[0]
    if (bb !== undefined && ba !== undefined && bb[0] >= ba[0]) {
      // A crossed book is wrong whatever the truth holds (the truth never records one).
      this.wrong(v.market, v.seq, bids, asks, null, 'crossed')
    } else if (truth.has(v.market, v.seq)) {
      this.compare(truth, { market: v.market, seq: v.seq, bids, asks, at })
    } else {
      const latest = truth.latest(v.market)
      // The truth usually reads a frame before the engine (no proxy hop), but not always: wait for it a little.
      if (
        (latest === null || latest.seq < v.seq || !truth.valid(v.market)) &&
        this.pending.length < PENDING_CAP
      )
        this.pending.push({ market: v.market, seq: v.seq, bids, asks, at })
      else this.viewsSkippedNoTruth++
    }

    const next = truth.firstAfter(v.market, v.seq)
    if (next !== null && at - next.at > BEHIND_MS) {
      if (!this.behind.has(v.market)) {
        this.behind.add(v.market)
        this.failures.liveBehind++
        const item = {
          market: v.market,
          atMs: at - this.startedAt,
          engineSeq: v.seq,
          truthNextSeq: next.seq,
          truthNextAgeMs: at - next.at,
          fault: this.active?.rec.kind ?? null,
        }
        this.example('liveBehind', item)
        this.progress(`liveBehind ${JSON.stringify(item)}`)
      }
    } else this.behind.delete(v.market)
  }

  private compare(truth: Truth, p: Pending): void {
    const t = truth.top(p.market, p.seq)
    if (t === null) {
      this.viewsSkippedNoTruth++
      return
    }
    this.viewsCompared++
    if (!levelsEqual(p.bids, t.bids) || !levelsEqual(p.asks, t.asks))
      this.wrong(p.market, p.seq, p.bids, p.asks, t, 'differs from the truth')
  }

  private wrong(
    market: string,
    seq: number,
    bids: Level[],
    asks: Level[],
    truth: { bids: Level[]; asks: Level[] } | null,
    why: string,
  ): void {
    const key = `${market}@${seq}`
    if (this.wrongSeen.has(key)) return
    this.wrongSeen.add(key)
    this.failures.wrongBooks++
    this.example('wrongBooks', { market, seq, why, engine: { bids, asks }, truth })
    this.progress(`wrongBook ${market} seq ${seq}: ${why}`)
  }

  // ---------------------------------------------------------------- VoxFi: views judged by the book they show

  /** wrongBooks and liveBehind for one VoxFi view seen at `at` (no seq: the book is looked up by content). */
  private voxView(truth: VoxTruth, v: BookView, at: number): void {
    if (v.state !== 'live') {
      this.behind.delete(v.market)
      return
    }
    const content = voxContent(v)
    const source = v.source ?? 'stream'
    if (isCrossed(content)) {
      // A crossed book is wrong whatever the truth holds (the truth never records one).
      this.voxWrong(truth, v.market, content, source, at, 'crossed')
      return
    }
    const m = truth.match(v.market, content, at, MATCH_WINDOW_MS)
    if (m === null) {
      // The truth usually reads a frame before the engine (no proxy hop), but not always: wait for it a little.
      if (this.voxPending.length < PENDING_CAP)
        this.voxPending.push({ market: v.market, content, source, at, appliedAt: v.updatedAt ?? at })
      else this.viewsSkippedNoTruth++
      return
    }
    this.viewsCompared++
    if (m.supersededAt !== null && at - m.supersededAt > BEHIND_MS) {
      if (!this.behind.has(v.market)) {
        this.behind.add(v.market)
        this.failures.liveBehind++
        const latest = truth.latest(v.market)
        const item = {
          market: v.market,
          atMs: at - this.startedAt,
          engineSource: source,
          engineBook:
            m.source === 'stream' ? `version ${m.version}` : `rest answer after version ${m.version}`,
          truthLatestVersion: latest?.version ?? null,
          supersededAgoMs: at - m.supersededAt,
          fault: this.active?.rec.kind ?? null,
        }
        this.example('liveBehind', item)
        this.progress(`liveBehind ${JSON.stringify(item)}`)
      }
    } else this.behind.delete(v.market)
  }

  private voxDrainPending(truth: VoxTruth, now: number): void {
    if (this.voxPending.length === 0) return
    const keep: VoxPending[] = []
    for (const p of this.voxPending) {
      if (truth.match(p.market, p.content, p.at, MATCH_WINDOW_MS) !== null) this.viewsCompared++
      else if (now - p.at <= PENDING_MS) keep.push(p)
      else if (truth.hole(p.market, p.appliedAt - HOLE_SLACK_MS, p.appliedAt)) this.viewsSkippedNoTruth++
      else {
        this.viewsCompared++
        this.voxWrong(truth, p.market, p.content, p.source, p.at, 'matches no book of the truth')
      }
    }
    this.voxPending = keep
  }

  private voxWrong(
    truth: VoxTruth,
    market: string,
    content: VoxContent,
    source: 'rest' | 'stream',
    at: number,
    why: string,
  ): void {
    const key = `${market}#${JSON.stringify(content)}`
    if (this.wrongSeen.has(key)) return
    this.wrongSeen.add(key)
    this.failures.wrongBooks++
    const then = truth.currentAt(market, at)
    this.example('wrongBooks', {
      market,
      atMs: at - this.startedAt,
      why,
      engineSource: source,
      engine: content,
      truthAtView:
        then === null
          ? null
          : { version: then.version, ageMs: at - then.at, book: truth.content(market, then.version) },
      fault: this.active?.rec.kind ?? null,
    })
    this.progress(`wrongBook ${market} (${source} book): ${why}`)
  }

  /** The truth has a newer book than `v` shows (or `v` shows none it knows), recently: the market moves. */
  private voxMovedPast(truth: VoxTruth, m: string, v: BookView | null, now: number): boolean {
    const latest = truth.latest(m)
    if (latest === null || now - latest.at > CURRENT_MS) return false
    if (v === null) return true
    const match = truth.match(m, voxContent(v), now, MATCH_WINDOW_MS)
    return match === null || match.supersededAt !== null
  }

  /** Healed, for one VoxFi market: see healthy(). */
  private voxHealthy(truth: VoxTruth, m: string, v: BookView, now: number, a: Active): boolean {
    const match = truth.match(m, voxContent(v), now, MATCH_WINDOW_MS)
    if (match === null) return false
    const endedAt = a.endedAt as number
    const after = truth.firstReceivedSince(m, endedAt)
    if (after !== null && !voxAtOrPast(match, after.version, endedAt)) return false
    if (match.supersededAt !== null && now - match.supersededAt > CURRENT_MS) return false
    if (a.rec.market === m && a.rec.kind === 'sim-crossed') {
      const c = truth.lastCrossed(m)
      const mark = c !== null && c.at >= a.startedAt ? c : null
      if (mark !== null && match.seenAt < mark.at) return false
      if (mark === null && now - a.startedAt < MARKER_WAIT_MS) return false
    }
    return true
  }

  private voxReport(truth: VoxTruth, m: string, v: BookView | null, now: number): Record<string, unknown> {
    const t = truth.latest(m)
    const match = v === null ? null : truth.match(m, voxContent(v), now, MATCH_WINDOW_MS)
    return {
      market: m,
      state: v?.state ?? 'absent',
      staleReason: v?.staleReason ?? null,
      source: v === null ? null : (v.source ?? 'stream'),
      matched:
        match === null
          ? null
          : {
              source: match.source,
              version: match.version,
              supersededAgoMs: match.supersededAt === null ? null : now - match.supersededAt,
            },
      truthVersion: t?.version ?? null,
      truthAgeMs: t === null ? null : now - t.at,
    }
  }

  // ---------------------------------------------------------------- per poll

  poll(now: number, views: ReadonlyMap<string, BookView | null>, status: StreamStatus | null): void {
    this.polls++
    for (const v of views.values()) if (v !== null) this.view(v, now)
    const truth = this.truth
    if (truth.dialect === 'voxfi') this.voxDrainPending(truth, now)
    else this.drainPending(truth, now)

    const calm = this.calm(now)
    for (const m of this.markets) {
      const v = views.get(m) ?? null
      if (v !== null && v.state === 'live') {
        this.nonLiveSince.delete(m)
        this.stuck.delete(m)
        continue
      }
      const since = this.nonLiveSince.get(m) ?? now
      this.nonLiveSince.set(m, since)
      if (!calm || this.stuck.has(m) || now - since <= HEAL_DEADLINE_MS) continue
      // Only a market that is actually moving counts: the truth has newer data, and recently.
      let item: Record<string, unknown>
      if (truth.dialect === 'voxfi') {
        if (!this.voxMovedPast(truth, m, v, now)) continue
        item = {
          ...this.voxReport(truth, m, v, now),
          atMs: now - this.startedAt,
          nonLiveForMs: now - since,
          status: status?.state ?? null,
        }
      } else {
        const latest = truth.latest(m)
        if (latest === null || now - latest.at > CURRENT_MS) continue
        if (v !== null && v.seq !== null && latest.seq <= v.seq) continue
        item = {
          market: m,
          atMs: now - this.startedAt,
          nonLiveForMs: now - since,
          state: v?.state ?? 'absent',
          staleReason: v?.staleReason ?? null,
          engineSeq: v?.seq ?? null,
          truthSeq: latest.seq,
          status: status?.state ?? null,
        }
      }
      this.stuck.add(m)
      this.failures.stuckStale++
      this.example('stuckStale', item)
      this.progress(`stuckStale ${JSON.stringify(item)}`)
    }

    const a = this.active
    if (a === null) return
    if (a.rec.kind === 'proxy-blackhole' && a.detectAt === null && a.endedAt === null) {
      const allDown =
        status === null ||
        status.state !== 'live' ||
        this.markets.every((m) => {
          const v = views.get(m)
          return v === undefined || v === null || v.state !== 'live'
        })
      if (allDown) a.detectAt = now
    }
    if (a.endedAt === null || a.healedAt !== null || now < a.endedAt + HEAL_GRACE_MS) return
    if (this.healthy(now, views, status, a)) {
      a.healedAt = now
      a.rec.healMs = now - a.endedAt
      this.progress(`  healed ${a.rec.healMs} ms after the fault ended`)
      return
    }
    if (!a.rec.notHealedByDeadline && now >= a.endedAt + HEAL_DEADLINE_MS) {
      a.rec.notHealedByDeadline = true
      this.failures.faultsNotHealed++
      const item = {
        fault: a.rec.n,
        kind: a.rec.kind,
        status: status?.state ?? null,
        reconnects: status === null ? null : status.reconnects - a.reconnectsAtStart,
        markets: this.markets.map((m) => {
          const v = views.get(m) ?? null
          if (truth.dialect === 'voxfi') return this.voxReport(truth, m, v, now)
          const t = truth.latest(m)
          return {
            market: m,
            state: v?.state ?? 'absent',
            staleReason: v?.staleReason ?? null,
            seq: v?.seq ?? null,
            truthSeq: t?.seq ?? null,
            truthAgeMs: t === null ? null : now - t.at,
          }
        }),
      }
      this.example('faultsNotHealed', item)
      this.progress(`  NOT healed ${HEAL_DEADLINE_MS} ms after the fault ended: ${JSON.stringify(item)}`)
    }
  }

  private drainPending(truth: Truth, now: number): void {
    if (this.pending.length === 0) return
    const keep: Pending[] = []
    for (const p of this.pending) {
      if (truth.has(p.market, p.seq)) this.compare(truth, p)
      else if (now - p.at > PENDING_MS) this.viewsSkippedNoTruth++
      else keep.push(p)
    }
    this.pending = keep
  }

  /**
   * Healed: the connection is live (after a reconnect, for faults that necessarily drop it) and every watched
   * book is live, at or past the first seq the truth received after the fault ended (and past the injected gap or
   * crossed delta), and no more than CURRENT_MS behind the truth. VoxFi: the book shown is one the truth has (a
   * stream book, or an orderbook answer), no older than the first stream book the truth received after the fault
   * ended (an answer asked for after the fault ended counts), not superseded at the truth over CURRENT_MS ago, and
   * for a crossed fault seen by the truth at or after the crossed book arrived.
   */
  private healthy(
    now: number,
    views: ReadonlyMap<string, BookView | null>,
    status: StreamStatus | null,
    a: Active,
  ): boolean {
    if (status === null || status.state !== 'live') return false
    if (DROPS_CONNECTION.has(a.rec.kind) && status.reconnects <= a.reconnectsAtStart) return false
    const endedAt = a.endedAt as number
    const truth = this.truth
    for (const m of this.markets) {
      const v = views.get(m)
      if (truth.dialect === 'voxfi') {
        if (v === undefined || v === null || v.state !== 'live') return false
        if (!this.voxHealthy(truth, m, v, now, a)) return false
        continue
      }
      if (v === undefined || v === null || v.state !== 'live' || v.seq === null) return false
      const after = truth.firstReceivedSince(m, endedAt)
      if (after !== null && v.seq < after.seq) return false
      const next = truth.firstAfter(m, v.seq)
      if (next !== null && now - next.at > CURRENT_MS) return false
      if (a.rec.market === m) {
        const mark = this.marker(truth, a, m)
        if (mark !== null && v.seq < mark.seq) return false
        if (mark === null && now - a.startedAt < MARKER_WAIT_MS) return false
      }
    }
    return true
  }

  private marker(truth: Truth, a: Active, m: string): SeqMark | null {
    const mark = a.rec.kind === 'sim-gap' ? truth.lastGap(m) : truth.lastCrossed(m)
    return mark !== null && mark.at >= a.startedAt ? mark : null
  }

  // ---------------------------------------------------------------- fault lifecycle (driven by the scheduler)

  /** No fault in progress: none injected yet, or the last one healed or past its deadline. */
  calm(now: number): boolean {
    const a = this.active
    if (a === null) return true
    if (a.endedAt === null) return false
    return a.healedAt !== null || now >= a.endedAt + HEAL_DEADLINE_MS
  }

  /** Healed, or past its deadline: the scheduler may move on. */
  settled(now: number): boolean {
    return this.calm(now)
  }

  faultStarted(plan: FaultPlan, now: number, reconnects: number): FaultRecord {
    this.finishActive()
    const rec: FaultRecord = {
      n: this.faults.length + 1,
      kind: plan.kind,
      atMs: now - this.startedAt,
      durationMs: plan.durationMs,
      healMs: null,
      notHealedByDeadline: false,
    }
    if (plan.market !== undefined) rec.market = plan.market
    if (plan.count !== undefined) rec.count = plan.count
    if (plan.kind === 'proxy-blackhole') rec.detectMs = null
    this.faults.push(rec)
    this.active = {
      rec,
      startedAt: now,
      endedAt: null,
      reconnectsAtStart: reconnects,
      healedAt: null,
      detectAt: null,
    }
    return rec
  }

  faultEnded(now: number): void {
    const a = this.active
    if (a === null || a.endedAt !== null) return
    a.endedAt = now
    if (a.rec.kind === 'proxy-blackhole') {
      if (a.detectAt !== null) {
        a.rec.detectMs = a.detectAt - a.startedAt
        this.detectMs.add(a.rec.detectMs)
        this.progress(`  half-open detected after ${a.rec.detectMs} ms`)
      } else {
        this.undetected++
        this.progress('  half-open NOT detected while it lasted')
      }
    }
  }

  /** The record of the fault in progress is final once the next one starts (late heals still count). */
  finishActive(): void {
    const a = this.active
    if (a === null) return
    this.active = null
    if (a.rec.healMs === null) {
      this.unhealed++
      return
    }
    this.healMs.add(a.rec.healMs)
    if (a.rec.kind === 'proxy-cut' || a.rec.kind === 'sim-dropAll') this.cutToLiveMs.add(a.rec.healMs)
  }
}

/**
 * VoxFi: the book matched is no older than the first stream book (`version`) the truth received after the fault
 * ended at `endedAt`: that version or a later one, or an orderbook answer asked for after the fault ended.
 */
function voxAtOrPast(m: VoxMatch, version: number, endedAt: number): boolean {
  return m.source === 'stream' ? m.version >= version : m.seenAt >= endedAt
}
