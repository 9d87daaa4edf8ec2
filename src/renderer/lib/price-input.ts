// A price as the trader types it, in the unit the app shows (store/prefs.ts): "40" or "40¢" in cents, "0.40" as a
// probability. Typed text becomes a price in 0–1 here, and a price becomes the text a field starts from, so the
// ticket and whatever fills it (a ladder row, a position's close) write and read prices the same way.
import { centsText, type PriceUnit } from '../../shared/price-format'

export type PriceParse = { ok: true; price: number } | { ok: false; message: string }

/** The text a price field shows for `price` (0–1): "40" in cents (the field says ¢), "0.40" as a probability. */
export function priceInputText(price: number, unit: PriceUnit): string {
  return unit === 'cents' ? centsText(price * 100) : price.toFixed(2)
}

/**
 * The price (0–1) typed in `unit`, on VoxFi's grid of whole ticks (1¢): "40", "40¢" and "40c" in cents, "0.4" or
 * ".40" as a probability. Float noise is forgiven (0.1 + 0.2); a price between two ticks is not rounded to one.
 */
export function parsePriceInput(text: string, unit: PriceUnit): PriceParse {
  const trimmed = text.trim().replace(/\s*[¢c]$/i, '')
  if (trimmed === '') return { ok: false, message: 'Enter a price.' }
  if (!/^(\d+\.?\d*|\.\d+)$/.test(trimmed))
    return { ok: false, message: `“${text.trim()}” is not a price: type a number such as ${example(unit)}.` }
  const n = Number(trimmed)
  if (unit === 'probability' && n >= 1)
    return {
      ok: false,
      message: `Prices show as probabilities: type 0.01 to 0.99 (or switch to ¢ in the status bar).`,
    }
  if (unit === 'cents' && n > 0 && n < 1)
    return {
      ok: false,
      message: `Prices show in ¢: type ${Math.round(n * 100)} for ${Math.round(n * 100)}¢.`,
    }
  const cents = unit === 'cents' ? n : n * 100
  const ticks = Math.round(cents)
  if (Math.abs(cents - ticks) > 1e-6)
    return { ok: false, message: 'Prices are whole cents (ticks of R$0.01): 40¢, not 40.5¢.' }
  return { ok: true, price: ticks / 100 }
}

function example(unit: PriceUnit): string {
  return unit === 'cents' ? '40' : '0.40'
}

/** What a field typed in one unit shows in another: its price re-written, or the text as it was if not a price. */
export function priceTextIn(text: string, from: PriceUnit, to: PriceUnit): string {
  if (from === to) return text
  const parsed = parsePriceInput(text, from)
  return parsed.ok ? priceInputText(parsed.price, to) : text
}
