// Sum of mids across an event's markets. If the markets were mutually exclusive and exhaustive, the mids
// would sum to about 1; the spec does not say they are, so the figure is informational only.
import { midOf } from './format'

export const OVERROUND_WARN = 0.05

export interface OverroundResult {
  /** Sum of the mids that are known; null when none is. */
  sum: number | null
  /** Markets with both a bid and an ask. */
  counted: number
  total: number
  /** sum - 1, only when every market has a mid. */
  deviation: number | null
  /** |sum - 1| above the threshold with every market quoted. */
  warn: boolean
}

export function overround(
  quotes: ReadonlyArray<{ bestBid: number | null; bestAsk: number | null } | undefined>,
  threshold = OVERROUND_WARN,
): OverroundResult {
  let sum = 0
  let counted = 0
  for (const q of quotes) {
    const mid = q ? midOf(q.bestBid, q.bestAsk) : null
    if (mid === null) continue
    sum += mid
    counted += 1
  }
  const total = quotes.length
  const complete = total > 0 && counted === total
  const deviation = complete ? sum - 1 : null
  return {
    sum: counted > 0 ? sum : null,
    counted,
    total,
    deviation,
    warn: deviation !== null && Math.abs(deviation) > threshold,
  }
}
