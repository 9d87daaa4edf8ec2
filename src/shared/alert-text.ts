// The words of an alert's firing, kept with their prices as numbers and their market by id (AlertWords), so they
// are written out in the price unit the app shows at the moment they are shown: the engine writes them once, in
// its unit, for the OS notification and the history file, and a window writes them again in the unit on screen
// now, so an entry fired before the trader switched ¢ and 0–1 reads like the ladder beside it.
import type { AlertQuote, WordPart } from './alerts'
import { formatPrice, type PriceUnit } from './price-format'

export type { WordPart }
export type Words = WordPart[]

/** A price that is written in the unit shown. */
export function price(value: number): { price: number } {
  return { price: value }
}

/** A market that a window names by its own listing; `name` is the engine's (null: none, the id is said). */
export function marketWord(id: string, name: string | null): { market: string; name: string } {
  return { market: id, name: name ?? id }
}

/**
 * Words from a template: `words\`${side} ${size} @ ${price(p)}\``. Plain values become text; price and market
 * parts stay parts. Neighbouring text is joined, so the words are as short as they read.
 */
export function words(strings: TemplateStringsArray, ...values: ReadonlyArray<WordPart | number>): Words {
  const out: Words = []
  const push = (part: WordPart) => {
    const last = out[out.length - 1]
    if (typeof part === 'string' && typeof last === 'string') out[out.length - 1] = last + part
    else if (part !== '') out.push(part)
  }
  strings.forEach((text, i) => {
    push(text)
    if (i < values.length) {
      const v = values[i] as WordPart | number
      push(typeof v === 'number' ? String(v) : v)
    }
  })
  return out
}

/**
 * The words as text: prices in `unit`, markets by `name` (a window passes the listing's; absent, the engine's
 * name from when it fired).
 */
export function wordsText(
  parts: readonly WordPart[],
  unit: PriceUnit,
  name?: (market: string) => string | undefined,
): string {
  let out = ''
  for (const p of parts) {
    if (typeof p === 'string') out += p
    else if ('price' in p) out += formatPrice(p.price, unit)
    else out += name?.(p.market) ?? p.name
  }
  return out
}

const OP_TEXT = {
  'crosses-above': 'crossed above',
  'crosses-below': 'crossed below',
  above: 'at or above',
  below: 'at or below',
} as const

/** "Event · Market — mid crossed above 45¢" (", held" when the rule waits for live data). */
export function quoteTitle(market: { market: string; name: string }, q: AlertQuote, held: boolean): Words {
  return words`${market} — ${q.subject} ${OP_TEXT[q.op]} ${price(q.level)}${held ? ', held' : ''}`
}

/** "mid 45.5¢ (bid 45¢ · ask 46¢)", or "last trade 39¢": the observation that was judged. */
export function quoteValues(q: AlertQuote): Words {
  if (q.fromTrade || q.subject === 'last') return words`last trade ${price(q.value)}`
  const bid = q.bid !== null ? words`bid ${price(q.bid)}` : null
  const ask = q.ask !== null ? words`ask ${price(q.ask)}` : null
  const others = (q.subject === 'bid' ? [ask] : q.subject === 'ask' ? [bid] : [bid, ask]).filter(
    (w): w is Words => w !== null,
  )
  const out = words`${q.subject} ${price(q.value)}`
  if (others.length === 0) return out
  return [...out, ' (', ...others.flatMap((w, i) => (i === 0 ? w : [' · ', ...w])), ')']
}
