// The words of a price alert's firing, from its numbers: the engine writes them once (notifications, the
// history file) in 0–1 units, and a window writes the same words again in the trader's price unit, so a toast
// reads its prices the way the ladder does.
import type { AlertQuote } from './alerts'
import { formatPrice, type PriceUnit } from './price-format'

const OP_TEXT = {
  'crosses-above': 'crossed above',
  'crosses-below': 'crossed below',
  above: 'at or above',
  below: 'at or below',
} as const

/** "Event · Market — mid crossed above 0.45" (", held" when the rule waits for live data). */
export function quoteTitle(name: string, q: AlertQuote, held: boolean, unit?: PriceUnit): string {
  return `${name} — ${q.subject} ${OP_TEXT[q.op]} ${formatPrice(q.level, unit)}${held ? ', held' : ''}`
}

/** "mid 0.455 (bid 0.45 · ask 0.46)", or "last trade 0.39": the observation that was judged. */
export function quoteValues(q: AlertQuote, unit?: PriceUnit): string {
  if (q.fromTrade || q.subject === 'last') return `last trade ${formatPrice(q.value, unit)}`
  const bid = q.bid !== null ? `bid ${formatPrice(q.bid, unit)}` : null
  const ask = q.ask !== null ? `ask ${formatPrice(q.ask, unit)}` : null
  const others = q.subject === 'bid' ? [ask] : q.subject === 'ask' ? [bid] : [bid, ask]
  const rest = others.filter((s): s is string => s !== null).join(' · ')
  return `${q.subject} ${formatPrice(q.value, unit)}${rest !== '' ? ` (${rest})` : ''}`
}
