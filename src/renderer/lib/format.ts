// Number and time formatting shared by every pane, so a price or a size reads the same everywhere.

const DASH = '—'

/** Prices on this venue are probabilities: two decimals (0.53); a finer tick keeps its extra digits. */
export function formatPrice(price: number | null | undefined): string {
  if (price === null || price === undefined || !Number.isFinite(price)) return DASH
  if (price > 0 && price < 1) {
    const cents = price * 100
    // A sub-cent tick (0.535) would otherwise be rounded away and two levels would read the same.
    return Math.abs(cents - Math.round(cents)) < 1e-6 ? price.toFixed(2) : price.toFixed(3)
  }
  if (Math.abs(price) >= 1000) return price.toLocaleString('en-US', { maximumFractionDigits: 2 })
  return price.toFixed(2)
}

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

function pad2(n: number): string {
  return String(n).padStart(2, '0')
}

/** Local wall-clock time, HH:MM:SS (the tape and the incident log). */
export function formatClock(ts: number | null | undefined): string {
  if (ts === null || ts === undefined || !Number.isFinite(ts)) return DASH
  const d = new Date(ts)
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`
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

/** Mids are often half a tick: always three decimals so a column of them lines up. */
export function formatMid(mid: number | null | undefined): string {
  if (mid === null || mid === undefined || !Number.isFinite(mid)) return DASH
  return mid.toFixed(3)
}

export function midOf(bid: number | null | undefined, ask: number | null | undefined): number | null {
  if (bid === null || bid === undefined || ask === null || ask === undefined) return null
  return (bid + ask) / 2
}
