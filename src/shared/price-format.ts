// How a price reads, in windows and in the engine's alert texts alike ("0.10", "40¢"), so a notification says a
// price the way the ladder does. The renderer's lib/format.ts re-exports it beside the other formatters.

/**
 * How a price in 0–1 is shown: `cents` of R$1 per contract ("40¢", as VoxFi's own UI), or as a `probability`
 * ("0.40"). The trader's choice (store/prefs.ts); the functions here default to `probability`, so a caller that
 * passes no unit (CSV, tests, the engine) keeps the plain number.
 */
export type PriceUnit = 'cents' | 'probability'

export const DASH = '—'

/** A number as a trader types and reads it: float noise (0.30000000000000004) rounded away, no exponent. */
export function plainNumber(n: number): string {
  return String(Number(n.toPrecision(10)))
}

/** A number of cents without trailing zeros: 40 → "40", 53.5 → "53.5"; a finer tick keeps up to 2 decimals. */
export function centsText(cents: number): string {
  const text = (Math.round(cents * 100) / 100).toFixed(2).replace(/\.?0+$/, '')
  return text === '-0' ? '0' : text
}

/**
 * A price in the trader's unit. In cents only a value within ±1 (a probability, or a spread or change of one) is
 * shown as "40¢"; anything larger is a plain number whatever the unit (a venue whose prices are not
 * probabilities). Probabilities: two decimals (0.53); a finer tick keeps its extra digits.
 */
export function formatPrice(price: number | null | undefined, unit: PriceUnit = 'probability'): string {
  if (price === null || price === undefined || !Number.isFinite(price)) return DASH
  if (unit === 'cents' && Math.abs(price) <= 1) return `${centsText(price * 100)}¢`
  if (price > 0 && price < 1) {
    const cents = price * 100
    // A sub-cent tick (0.535) would otherwise be rounded away and two levels would read the same.
    return Math.abs(cents - Math.round(cents)) < 1e-6 ? price.toFixed(2) : price.toFixed(3)
  }
  if (Math.abs(price) >= 1000) return price.toLocaleString('en-US', { maximumFractionDigits: 2 })
  return price.toFixed(2)
}
