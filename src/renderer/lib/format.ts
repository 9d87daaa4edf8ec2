// Number and time formatting shared by every pane, so a price or a size reads the same everywhere.

import {
  centsText,
  DASH,
  formatPrice,
  plainNumber,
  priceFromInput,
  priceInput,
  type PriceUnit,
} from '../../shared/price-format'

export { formatPrice, plainNumber, priceFromInput, priceInput, type PriceUnit }

const sizeFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })

/** Sizes: grouped integers, up to two decimals; compact above a million so columns keep their width. */
export function formatSize(size: number | null | undefined): string {
  if (size === null || size === undefined || !Number.isFinite(size)) return DASH
  const abs = Math.abs(size)
  if (abs >= 1e9) return `${(size / 1e9).toFixed(2)}B`
  if (abs >= 1e6) return `${(size / 1e6).toFixed(2)}M`
  return sizeFormat.format(size)
}

/** Money amounts (balances, PnL): always two decimals, grouped. */
export function formatAmount(amount: number | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return DASH
  return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
}

/** A price change in the trader's unit: +0.02 / -0.01, or +2¢ / -1¢; no sign when it rounds to nothing. */
export function formatPriceChange(value: number | null | undefined, unit: PriceUnit = 'probability'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH
  if (unit !== 'cents' || Math.abs(value) > 1) return formatSigned(value)
  const text = centsText(Math.abs(value) * 100)
  if (Number(text) === 0) return '0¢'
  return `${value > 0 ? '+' : '-'}${text}¢`
}

/** The venue's chance of YES (0–1) as a whole percent: "40%", "<1%" and ">99%" near the ends. */
export function formatChance(chance: number | null | undefined): string {
  if (chance === null || chance === undefined || !Number.isFinite(chance)) return DASH
  if (chance > 0 && chance < 0.005) return '<1%'
  if (chance < 1 && chance > 0.995) return '>99%'
  return `${Math.round(chance * 100)}%`
}

const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })

/** Large counts in a few characters (volume, liquidity): 9,800 stays grouped, then 29.5K, 1.2M. */
export function formatCompact(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return DASH
  return Math.abs(n) < 10_000 ? sizeFormat.format(n) : compactFormat.format(n)
}

/** Currencies shown with their symbol (Intl's), e.g. VoxFi's reais; any other keeps its code beside the amount. */
const SYMBOL_CURRENCIES: ReadonlySet<string> = new Set(['BRL'])
const moneyFormats = new Map<string, Intl.NumberFormat>()

/**
 * A money amount in its currency: "R$ 1,234.56" for BRL (the symbol, a no-break space, two decimals, grouped);
 * other currencies (which may be crypto, with more decimals than two) as formatAmount.
 */
export function formatMoney(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return DASH
  const code = currency?.toUpperCase() ?? ''
  if (!SYMBOL_CURRENCIES.has(code)) return formatAmount(amount)
  let format = moneyFormats.get(code)
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code, currencyDisplay: 'symbol' })
    moneyFormats.set(code, format)
  }
  let out = ''
  const parts = format.formatToParts(amount)
  parts.forEach((p, i) => {
    out += p.value
    // "R$1.00" → "R$ 1.00": a gap between the symbol and the number, as Brazilians write it.
    if (p.type === 'currency' && parts[i + 1]?.type !== 'literal') out += '\u00a0'
  })
  return out
}

/** Whether a currency is shown with a symbol by formatMoney (its code then need not be repeated). */
export function hasMoneySymbol(currency: string | null | undefined): boolean {
  return SYMBOL_CURRENCIES.has(currency?.toUpperCase() ?? '')
}

/** A signed change, e.g. +0.02 / -0.01, for spreads and deviations. */
export function formatSigned(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH
  const text = Math.abs(value).toFixed(decimals)
  if (Number(text) === 0) return text
  return value > 0 ? `+${text}` : `-${text}`
}

/** A duration or an age, compact: 0.4s, 12s, 3m 05s, 2h 10m. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH
  const clamped = Math.max(0, ms)
  if (clamped < 10_000) return `${(clamped / 1000).toFixed(1)}s`
  const seconds = Math.floor(clamped / 1000)
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`
  return `${Math.floor(hours / 24)}d ${hours % 24}h`
}

/**
 * An age that counts up on screen, in whole seconds so it changes at most once a second: "<1s", "7s", "12s",
 * "3m 05s", "2h 10m".
 */
export function formatAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH
  const clamped = Math.max(0, ms)
  if (clamped < 1_000) return '<1s'
  if (clamped < 10_000) return `${Math.floor(clamped / 1000)}s`
  return formatDuration(clamped)
}

/** A countdown in whole seconds, rounded up so it reads 1s until it is over: "12s", "3m 05s", then "0s". */
export function formatCountdown(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH
  if (ms <= 0) return '0s'
  const seconds = Math.ceil(ms / 1000)
  return seconds < 60 ? `${seconds}s` : formatDuration(seconds * 1000)
}

/**
 * Time left to a moment far ahead, to the minute (rounded up, so it reads "1m" until it is over): "3d 4h",
 * "5h 20m", "12m"; "0m" once it is over. For countdowns that tick once a minute (event resolution).
 */
export function formatTimeLeft(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH
  if (ms <= 0) return '0m'
  const minutes = Math.ceil(ms / 60_000)
  const days = Math.floor(minutes / 1440)
  const hours = Math.floor((minutes % 1440) / 60)
  if (days > 0) return `${days}d ${hours}h`
  if (hours > 0) return `${hours}h ${minutes % 60}m`
  return `${minutes}m`
}

function pad2(n: number): string {
  return String(n).padStart(2, '0')
}

/** Local wall-clock time, HH:MM:SS (the tape and the incident log). */
export function formatClock(ts: number | null | undefined): string {
  if (ts === null || ts === undefined || !Number.isFinite(ts)) return DASH
  const d = new Date(ts)
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`
}

/** A local date and time to the minute, YYYY-MM-DD HH:MM (event start and resolution). */
export function formatDateTime(ts: number | null | undefined): string {
  if (ts === null || ts === undefined || !Number.isFinite(ts)) return DASH
  const d = new Date(ts)
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`
}

/** Local time with milliseconds, for the inspector where frame order matters. */
export function formatClockMs(ts: number | null | undefined): string {
  if (ts === null || ts === undefined || !Number.isFinite(ts)) return DASH
  return `${formatClock(ts)}.${String(new Date(ts).getMilliseconds()).padStart(3, '0')}`
}

/** Spread between best bid and best ask, or null when a side is missing. */
export function spreadOf(bid: number | null | undefined, ask: number | null | undefined): number | null {
  if (bid === null || bid === undefined || ask === null || ask === undefined) return null
  return ask - bid
}

/** Mids are often half a tick: always three decimals (or one decimal of a cent) so a column of them lines up. */
export function formatMid(mid: number | null | undefined, unit: PriceUnit = 'probability'): string {
  if (mid === null || mid === undefined || !Number.isFinite(mid)) return DASH
  if (unit === 'cents' && Math.abs(mid) <= 1) return `${(mid * 100).toFixed(1)}¢`
  return mid.toFixed(3)
}

export function midOf(bid: number | null | undefined, ask: number | null | undefined): number | null {
  if (bid === null || bid === undefined || ask === null || ask === undefined) return null
  return (bid + ask) / 2
}
