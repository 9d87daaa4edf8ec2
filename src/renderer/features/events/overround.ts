// Sum of mids across an event's markets. If the markets are mutually exclusive and exhaustive, the mids sum
// to about 1. The spec does not say whether they are; some venues (and our simulator) flag it in the listing.
import type { EventSummary } from '../../../shared/model'
import { midOf } from '../../lib/format'

export type Exclusivity = 'exclusive' | 'independent' | 'unknown'

const EXCLUSIVE_FIELDS = ['mutuallyExclusive', 'mutually_exclusive', 'exclusive']

/** What the listing says about an event's markets; 'unknown' when it says nothing usable. */
export function exclusivityOf(event: Pick<EventSummary, 'extra'>): Exclusivity {
  for (const field of EXCLUSIVE_FIELDS) {
    const v = event.extra?.[field]
    if (v === true || v === 'true') return 'exclusive'
    if (v === false || v === 'false') return 'independent'
  }
  return 'unknown'
}

export const OVERROUND_WARN = 0.05

export interface OverroundResult {
  /** Sum of the mids that are known; null when none is. */
  sum: number | null
  /** Markets with both a bid and an ask. */
  counted: number
  total: number
  /** sum - 1, only when every market has a mid. */
  deviation: number | null
  /** |sum - 1| above the threshold with every market quoted, unless the markets are known to be independent. */
  warn: boolean
}

export function overround(
  quotes: ReadonlyArray<{ bestBid: number | null; bestAsk: number | null } | undefined>,
  threshold = OVERROUND_WARN,
  exclusivity: Exclusivity = 'unknown',
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
    warn: exclusivity !== 'independent' && deviation !== null && Math.abs(deviation) > threshold,
  }
}
