// Seeded pseudo-random numbers: every piece of generated data derives from the seed, so a run can be replayed.

export type Rng = () => number

/** mulberry32: tiny, fast and good enough for synthetic market data (not for anything secret). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A child seed for an independent stream (one per market), so one market's output does not depend on others. */
export function deriveSeed(seed: number, salt: number): number {
  let h = (seed ^ Math.imul(salt + 0x9e3779b9, 0x85ebca6b)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0
  return (h ^ (h >>> 16)) >>> 0
}

/** Integer in [lo, hi] inclusive. */
export function randInt(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1))
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)]
  if (item === undefined) throw new Error('pick from an empty list')
  return item
}

export function hexId(rng: Rng, chars: number): string {
  let s = ''
  for (let i = 0; i < chars; i++) s += Math.floor(rng() * 16).toString(16)
  return s
}

/**
 * An LCG of 32-bit draws, cheap enough for the firehose. Its low bits repeat with short periods (bit k every
 * 2^(k+1) draws), so a choice must read high bits: low ones once made only a quarter of the markets ever trade.
 */
export function lcg32(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s
  }
}
