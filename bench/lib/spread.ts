// Median and spread of a handful of repeated measurements (the bench's pairs of windows).

export interface Spread {
  min: number
  /** First and third quartiles (linear interpolation between order statistics). */
  q1: number
  median: number
  q3: number
  max: number
  /** (max - min) / median, in percent: how far apart the repeats were. */
  range_pct: number
}

function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const a = sorted[lo] ?? NaN
  const b = sorted[Math.min(sorted.length - 1, lo + 1)] ?? a
  return a + (b - a) * (pos - lo)
}

function finite(xs: readonly (number | null)[]): number[] {
  return xs.filter((x): x is number => x !== null && Number.isFinite(x)).sort((a, b) => a - b)
}

export function median(xs: readonly (number | null)[]): number | null {
  const s = finite(xs)
  return s.length === 0 ? null : quantile(s, 0.5)
}

/** null without any finite value. Figures are rounded to `digits` decimals (range_pct to 1). */
export function spread(xs: readonly (number | null)[], digits = 3): Spread | null {
  const s = finite(xs)
  if (s.length === 0) return null
  const f = 10 ** digits
  const r = (v: number): number => Math.round(v * f) / f
  const med = quantile(s, 0.5)
  const min = s[0] ?? NaN
  const max = s[s.length - 1] ?? NaN
  return {
    min: r(min),
    q1: r(quantile(s, 0.25)),
    median: r(med),
    q3: r(quantile(s, 0.75)),
    max: r(max),
    range_pct: med !== 0 ? Math.round(((max - min) / Math.abs(med)) * 1000) / 10 : 0,
  }
}
