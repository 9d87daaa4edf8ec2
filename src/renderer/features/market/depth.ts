// Pure helpers of the depth chart: cumulative depth per side, the price and size domain to draw, nice axis
// ticks, and the cumulative size at a price (the hover readout). No DOM here, so all of it is unit-tested.
import type { Level } from '../../../shared/model'

/** One level with the running total from the best price outwards. */
export interface DepthPoint {
  price: number
  size: number
  total: number
}

/** Running totals, best level first (bids descending, asks ascending, as BookView holds them). */
export function cumulative(levels: readonly Level[]): DepthPoint[] {
  let total = 0
  const out: DepthPoint[] = []
  for (const [price, size] of levels) {
    if (!Number.isFinite(price) || !Number.isFinite(size)) continue
    total += size
    out.push({ price, size, total })
  }
  return out
}

/**
 * When one side reaches much further from the mid than the other, the view around the mid is limited to this
 * many times the shorter side's reach, so a deep side does not squeeze the near-touch levels into a few pixels.
 */
export const MAX_REACH_RATIO = 4
/** Room left beyond the outermost drawn level, as a share of the half-width. */
const PAD = 0.04

export interface DepthModel {
  /** Drawn levels only (inside the x domain), best first. */
  bids: DepthPoint[]
  asks: DepthPoint[]
  /** A side had levels beyond the x domain: its last step runs on to the edge. */
  bidsClipped: boolean
  asksClipped: boolean
  bestBid: number | null
  bestAsk: number | null
  mid: number | null
  spread: number | null
  x0: number
  x1: number
  /** Top of the size axis (largest drawn total plus headroom); never 0. */
  yMax: number
  /** Levels drawn, both sides. */
  levels: number
}

/** What to draw for a book; null when neither side has a level. */
export function depthModel(
  bidLevels: readonly Level[],
  askLevels: readonly Level[],
  maxRatio = MAX_REACH_RATIO,
): DepthModel | null {
  const bidsAll = cumulative(bidLevels)
  const asksAll = cumulative(askLevels)
  const bestBid = bidsAll[0]?.price ?? null
  const bestAsk = asksAll[0]?.price ?? null
  if (bestBid === null && bestAsk === null) return null
  const lowest = Math.min(bidsAll[bidsAll.length - 1]?.price ?? Infinity, bestAsk ?? Infinity)
  const highest = Math.max(asksAll[asksAll.length - 1]?.price ?? -Infinity, bestBid ?? -Infinity)

  let x0: number
  let x1: number
  let mid: number | null = null
  if (bestBid !== null && bestAsk !== null) {
    mid = (bestBid + bestAsk) / 2
    const bidReach = mid - (bidsAll[bidsAll.length - 1] as DepthPoint).price
    const askReach = (asksAll[asksAll.length - 1] as DepthPoint).price - mid
    const near = Math.min(bidReach, askReach)
    let half = Math.max(bidReach, askReach)
    if (near > 0) half = Math.min(half, near * maxRatio)
    if (!(half > 0)) half = Math.max(Math.abs(mid) * 0.01, 1e-6)
    x0 = mid - half * (1 + PAD)
    x1 = mid + half * (1 + PAD)
  } else {
    const range = highest - lowest
    const pad = range > 0 ? range * PAD : Math.max(Math.abs(highest) * 0.01, 1e-6)
    x0 = lowest - pad
    x1 = highest + pad
  }
  // Prices are never negative: no axis below 0 for a book near the bottom of the range.
  if (lowest >= 0 && x0 < 0) x0 = 0

  const bids = bidsAll.filter((p) => p.price >= x0)
  const asks = asksAll.filter((p) => p.price <= x1)
  const top = Math.max(bids[bids.length - 1]?.total ?? 0, asks[asks.length - 1]?.total ?? 0)
  return {
    bids,
    asks,
    bidsClipped: bids.length < bidsAll.length,
    asksClipped: asks.length < asksAll.length,
    bestBid,
    bestAsk,
    mid,
    spread: bestBid !== null && bestAsk !== null ? bestAsk - bestBid : null,
    x0,
    x1,
    yMax: top > 0 ? top * 1.1 : 1,
    levels: bids.length + asks.length,
  }
}

/** Round numbers (1, 2 or 5 × 10^k apart) between min and max, about `count` of them. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max <= min || count < 1) return []
  const raw = (max - min) / count
  const mag = 10 ** Math.floor(Math.log10(raw))
  // As d3's ticks: the 1-2-5 step nearest to the raw one (so the count is about, not at most, `count`).
  const r = raw / mag
  const step = (r >= Math.SQRT2 * 5 ? 10 : r >= Math.sqrt(10) ? 5 : r >= Math.SQRT2 ? 2 : 1) * mag
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1)
  const out: number[] = []
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    out.push(Number(v.toFixed(decimals)))
  }
  return out
}

/**
 * Cumulative size at a price: on the bid side (at or below the best bid) the size bid at that price or better,
 * on the ask side (at or above the best ask) the size offered at that price or better; null inside the spread.
 */
export function cumulativeAt(
  bids: readonly DepthPoint[],
  asks: readonly DepthPoint[],
  price: number,
): { side: 'bid' | 'ask'; total: number } | null {
  const bestBid = bids[0]?.price
  const bestAsk = asks[0]?.price
  if (bestBid !== undefined && price <= bestBid) {
    let total = 0
    for (const p of bids) {
      if (p.price < price) break
      total = p.total
    }
    return { side: 'bid', total }
  }
  if (bestAsk !== undefined && price >= bestAsk) {
    let total = 0
    for (const p of asks) {
      if (p.price > price) break
      total = p.total
    }
    return { side: 'ask', total }
  }
  return null
}
