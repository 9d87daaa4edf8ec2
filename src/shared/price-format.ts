// How a price reads and is typed, in windows and in the engine's alert texts alike ("0.10", "40¢"), so a
// notification says a price the way the ladder does. The renderer's lib/format.ts re-exports it beside the other
// formatters.

/**
 * How a price in 0–1 is shown and typed: `cents` of R$1 per contract ("40¢": VoxFi's ticks, as its own UI), or as
 * a `probability` ("0.40"). One setting of the app, kept by the engine (docs/alerts.md, "Prices in texts"), which
 * writes its alert texts in it and tells every window. The formatters default to `probability`, so a caller that
 * passes no unit (CSV exports, `data-price`) keeps the plain number.
 */
export const PRICE_UNITS = ['cents', 'probability'] as const
export type PriceUnit = (typeof PRICE_UNITS)[number]
/** As VoxFi's own UI: 40¢. */
export const DEFAULT_PRICE_UNIT: PriceUnit = 'cents'

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

/** A price as a trader types it in `unit`, in a field or a message: "45" (cents) or "0.45"; no float noise. */
export function priceInput(price: number, unit: PriceUnit): string {
  return plainNumber(unit === 'cents' ? price * 100 : price)
}

/** A number typed in `unit` as the price in 0–1 the engine keeps: 45 (cents) is 0.45. */
export function priceFromInput(typed: number, unit: PriceUnit): number {
  return unit === 'cents' ? Number((typed / 100).toPrecision(12)) : typed
}

/** A typed price named in a message, with its unit where it has a sign: "45¢", "0.45", "500¢". */
export function typedPrice(price: number, unit: PriceUnit): string {
  return unit === 'cents' ? `${priceInput(price, unit)}¢` : priceInput(price, unit)
}
