// The lists of market names an event template draws, in either dialect's words: two-word names that do not repeat
// a word, a rate decision's moves, adjacent ranges, and fixed questions. Both dialects draw from the same random
// stream the same way, so what changes between them is only the wording.
import type { Rng } from './rng'

export function shuffled<T>(r: Rng, items: readonly T[]): T[] {
  const out = items.slice()
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    const t = out[i] as T
    out[i] = out[j] as T
    out[j] = t
  }
  return out
}

/**
 * n different names, each one word from `firsts` and one from `lasts`. Walking the shuffled lists' pairs
 * diagonal by diagonal visits every pair once and, for small n, never repeats a word on either side, so an
 * event does not list "Mei Reyes" next to "Mei Okafor". Numbered names (`other` 11, …) only beyond every pair.
 */
export function distinct(
  r: Rng,
  n: number,
  firsts: readonly string[],
  lasts: readonly string[],
  other: string,
): string[] {
  const a = shuffled(r, firsts)
  const b = shuffled(r, lasts)
  const out: string[] = []
  for (let d = 0; d < b.length; d++) {
    for (let i = 0; i < a.length && out.length < n; i++)
      out.push(`${a[i] ?? ''} ${b[(i + d) % b.length] ?? ''}`)
  }
  while (out.length < n) out.push(`${other} ${out.length + 1}`)
  return out
}

export interface RateWords {
  /** The one option when there is only one. */
  any: string
  hold: string
  /** "No change" as the top option, which then also covers every hike. */
  holdOrHike: string
  /** A cut (bps < 0) or hike of |bps|; `open` at either end, where it also covers larger moves. */
  move: (bps: number, open: boolean) => string
}

/** A rate decision's options in steps of 25 bps around no change, cut-heavy, the end ones open. */
export function rateMoves(n: number, w: RateWords): string[] {
  if (n === 1) return [w.any]
  const out: string[] = []
  for (let k = 0; k < n; k++) {
    const bps = 25 * (k - Math.floor(n / 2))
    const end = k === 0 || k === n - 1
    if (bps === 0) out.push(k === n - 1 ? w.holdOrHike : w.hold)
    else out.push(w.move(bps, end))
  }
  return out
}

export interface RangeWords {
  /** The one option when there is only one. */
  any: string
  below: (edge: string) => string
  between: (lo: string, hi: string) => string
  orMore: (edge: string) => string
}

/** Adjacent ranges of `width` around `centre` that cover the whole line, in order, open at both ends. */
export function ranges(
  n: number,
  centre: number,
  width: number,
  fmt: (x: number) => string,
  w: RangeWords,
): string[] {
  if (n === 1) return [w.any]
  const first = centre - Math.floor((n - 2) / 2) * width
  const edges = Array.from({ length: n - 1 }, (_, k) => first + k * width)
  return edges
    .map((e, k) => (k === 0 ? w.below(fmt(e)) : w.between(fmt(edges[k - 1] as number), fmt(e))))
    .concat(w.orMore(fmt(edges[n - 2] as number)))
}

/** The first n of a fixed list of questions, numbered ones (`other` 7, …) beyond it. */
export function questions(list: readonly string[], n: number, other: string): string[] {
  return Array.from({ length: n }, (_, j) => list[j] ?? `${other} ${j + 1}`)
}
