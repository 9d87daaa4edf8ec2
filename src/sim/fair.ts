// Fair values of an event whose markets are mutually exclusive, exhaustive outcomes (an election's candidates,
// a rate decision's options): probabilities that always sum to 1, moving together step by step.
// A latent logit per outcome wanders around a "home" level (mean-reverting, so a long run never drifts into
// nonsense) and news occasionally moves one outcome's home; the softmax of the logits, squeezed into
// [FAIR_MIN, FAIR_MAX] without changing the sum, is the fair value. Moving the latent vector and renormalising
// is what makes the other outcomes give way when one rises, as they must when exactly one outcome happens.
import { deriveSeed, mulberry32, type Rng } from './rng'

/** Longest shot and surest favourite a book can quote with a 0.01 tick and room on both sides. */
export const FAIR_MIN = 0.02
export const FAIR_MAX = 0.97

// Per-step logit noise and pull towards home. With 10 steps a second the fair value of a 30% outcome moves
// about a cent a second and strays about five cents from home (news moves home itself).
const SIGMA = 0.015
const REVERT = 0.002
// Roughly one piece of news per event every 100 s at the default step.
const NEWS_CHANCE = 0.001

function gaussian(r: Rng): number {
  // Box–Muller; 1 - r() is in (0, 1] so the log is finite.
  return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())
}

/**
 * Weights -> probabilities that sum to 1 with each in [lo, hi] where that is possible (n·lo ≤ 1 ≤ n·hi): the
 * weights are scaled by the one factor k at which the clamped values sum to 1, so outcomes inside the range
 * keep their proportions and the rest sit on its edges.
 */
export function squeeze(weights: readonly number[], lo: number, hi: number): number[] {
  const n = weights.length
  if (n === 0) return []
  if (n * lo >= 1) return weights.map(() => 1 / n)
  if (n * hi <= 1) return weights.map(() => hi)
  // A zero weight would stay at lo for every k; a tiny positive one lets k push everything up to hi if needed.
  const w = weights.map((x) => (x > 1e-300 ? x : 1e-300))
  let total = 0
  for (const x of w) total += x
  const clamp = (v: number): number => (v < lo ? lo : v > hi ? hi : v)
  // Fast path, exact: guess which outcomes sit on an edge from the current factor, solve the factor for the
  // rest, repeat until the guess holds (usually one or two rounds). Bisection below settles any oscillation.
  const edge = new Int8Array(n)
  let k = 1 / total
  for (let round = 0; round <= n + 1; round++) {
    let changed = false
    for (let i = 0; i < n; i++) {
      const v = (w[i] as number) * k
      const e = v < lo ? -1 : v > hi ? 1 : 0
      if (e !== edge[i]) {
        edge[i] = e
        changed = true
      }
    }
    if (!changed && round > 0) return w.map((x, i) => (edge[i] === -1 ? lo : edge[i] === 1 ? hi : x * k))
    let fixed = 0
    let free = 0
    for (let i = 0; i < n; i++) {
      if (edge[i] === -1) fixed += lo
      else if (edge[i] === 1) fixed += hi
      else free += w[i] as number
    }
    if (free === 0 || fixed >= 1) break
    k = (1 - fixed) / free
  }
  const sumAt = (k: number): number => {
    let t = 0
    for (const x of w) t += clamp(x * k)
    return t
  }
  // sumAt grows with k from n·lo < 1 to n·hi > 1: bracket the crossing, then bisect.
  let a = 0
  let b = 1 / total
  for (let i = 0; i < 2100 && sumAt(b) < 1; i++) {
    a = b
    b *= 2
  }
  for (let i = 0; i < 80; i++) {
    const m = (a + b) / 2
    if (sumAt(m) < 1) a = m
    else b = m
  }
  // Solve the outcomes left inside the range exactly, so the sum is 1 to rounding error.
  let fixed = 0
  let free = 0
  for (const x of w) {
    const v = x * b
    if (v <= lo || v >= hi) fixed += clamp(v)
    else free += x
  }
  const exact = free > 0 ? (1 - fixed) / free : b
  return w.map((x) => {
    const v = x * b
    return v <= lo || v >= hi ? clamp(v) : clamp(x * exact)
  })
}

export class OutcomeFairs {
  private readonly rng: Rng
  private readonly home: number[]
  private readonly logit: number[]
  private probs: number[]
  private stepNo = 0

  constructor(
    seed: number,
    /** The event's position in the catalog; gives each event its own random stream. */
    salt: number,
    readonly outcomes: number,
    /** Outcomes are adjacent ranges of one quantity (rate moves, price bands): belief is one hump, not scattered. */
    ordered = false,
  ) {
    this.rng = mulberry32(deriveSeed(seed, 0xfa170000 + salt))
    const r = this.rng
    this.home = []
    if (ordered) {
      // A bell over the ranges around a seeded centre, a little noise so neighbours are not mirror images.
      const centre = r() * Math.max(0, outcomes - 1)
      const width = 0.6 + 0.9 * r()
      for (let i = 0; i < outcomes; i++)
        this.home.push(-0.5 * ((i - centre) / width) ** 2 + 0.3 * gaussian(r))
    } else {
      // Exponential weights make a uniform draw from the simplex (a flat Dirichlet): sometimes a clear
      // favourite, sometimes a close race, with long shots among them.
      for (let i = 0; i < outcomes; i++) this.home.push(Math.log(Math.max(1e-6, -Math.log(1 - r()))))
    }
    this.logit = this.home.slice()
    this.probs = this.compute()
  }

  /** Outcome i's fair probability as of step `stepNo`. The process only moves forward, one step at a time. */
  fair(i: number, stepNo: number): number {
    while (this.stepNo < stepNo) this.advance()
    return this.probs[i] ?? FAIR_MIN
  }

  /** All outcomes' fair probabilities now (sum 1 when n·FAIR_MIN ≤ 1 ≤ n·FAIR_MAX). */
  current(): number[] {
    return this.probs.slice()
  }

  private advance(): void {
    const r = this.rng
    this.stepNo++
    const n = this.outcomes
    if (r() < NEWS_CHANCE && n > 0) {
      const i = Math.floor(r() * n)
      const jump = (r() < 0.5 ? -1 : 1) * (0.2 + 0.4 * r())
      this.home[i] = (this.home[i] ?? 0) + 0.7 * jump
      this.logit[i] = (this.logit[i] ?? 0) + jump
      // Only differences between logits matter; re-centring keeps the numbers small over a long run.
      let mean = 0
      for (const h of this.home) mean += h / n
      for (let k = 0; k < n; k++) {
        this.home[k] = (this.home[k] ?? 0) - mean
        this.logit[k] = (this.logit[k] ?? 0) - mean
      }
    }
    for (let k = 0; k < n; k++) {
      const x = this.logit[k] ?? 0
      this.logit[k] = x + REVERT * ((this.home[k] ?? 0) - x) + SIGMA * gaussian(r)
    }
    this.probs = this.compute()
  }

  private compute(): number[] {
    let max = -Infinity
    for (const x of this.logit) if (x > max) max = x
    return squeeze(
      this.logit.map((x) => Math.exp(x - max)),
      FAIR_MIN,
      FAIR_MAX,
    )
  }
}
