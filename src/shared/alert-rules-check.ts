// Whether an alert's threshold makes sense for its market: a price the market can have, on its tick, and no
// negative spread or size. The engine refuses a save that fails it (it is the boundary) and the alert form shows
// the same words before the round trip, so both call this one function. Pure: the market's price grid is given,
// and the price unit the app shows, which the words name prices in.
import type { AlertCondition, PriceSubject } from './alerts'
import type { PriceGrid } from './model'
import { typedPrice, type PriceUnit } from './price-format'

export interface RuleProblem {
  /** The input field at fault, as saveAlert's refusals name it (`condition.value`). */
  field: string
  message: string
}

/** Float noise below this fraction of a tick is not an off-tick price (0.29 / 0.01 = 28.999999999999996). */
const TICK_SLACK = 1e-6

/** `n` rounded to the nearest multiple of `step` from `min`, without float noise. */
function snap(n: number, step: number, min: number): number {
  return Number((min + Math.round((n - min) / step) * step).toPrecision(12))
}

function onStep(n: number, step: number, min: number): boolean {
  const steps = (n - min) / step
  return Math.abs(steps - Math.round(steps)) < TICK_SLACK
}

/**
 * The first reason `condition` could never fire as meant on a market with prices `grid`, or null. Without a grid
 * (the market's prices are not known) only what holds for every market is checked: no negative threshold.
 * A price level outside the range is refused whatever the op: above the top, "crosses above" and "above" never
 * fire, and "below" would hold for good.
 */
export function checkAlertCondition(
  c: AlertCondition,
  grid: PriceGrid | null,
  unit: PriceUnit,
): RuleProblem | null {
  switch (c.kind) {
    case 'price':
      if (c.subject === 'spread') return checkSpread(c.value, grid, unit)
      return checkPrice(c.value, c.subject, grid, unit)
    case 'big-trade':
      return c.minSize > 0
        ? null
        : { field: 'condition.minSize', message: 'Min size must be greater than 0.' }
    default:
      return null
  }
}

/** The steps a subject's value moves in: a mid sits on a tick or halfway between two. */
function stepOf(subject: PriceSubject, grid: PriceGrid): number {
  return subject === 'mid' ? grid.tick / 2 : grid.tick
}

function checkPrice(
  value: number,
  subject: PriceSubject,
  grid: PriceGrid | null,
  unit: PriceUnit,
): RuleProblem | null {
  const n = (x: number) => typedPrice(x, unit)
  const field = 'condition.value'
  if (!Number.isFinite(value)) return { field, message: 'Price must be a number.' }
  if (value < 0) return { field, message: 'Price must not be negative.' }
  if (grid === null) return null
  if (value < grid.min || value > grid.max) {
    return {
      field,
      message: `Price ${n(value)} is outside this market's prices (${n(grid.min)} to ${n(grid.max)}): the alert could never fire as meant.`,
    }
  }
  const step = stepOf(subject, grid)
  if (onStep(value, step, grid.min)) return null
  const below = Math.max(grid.min, snap(value - step / 2, step, grid.min))
  const above = Math.min(grid.max, snap(value + step / 2, step, grid.min))
  return {
    field,
    message: `Price ${n(value)} is not a price this market trades at (tick ${n(step)}): use ${n(below)} or ${n(above)}.`,
  }
}

function checkSpread(value: number, grid: PriceGrid | null, unit: PriceUnit): RuleProblem | null {
  const n = (x: number) => typedPrice(x, unit)
  const field = 'condition.value'
  if (!Number.isFinite(value)) return { field, message: 'Spread must be a number.' }
  if (value < 0) return { field, message: 'Spread must not be negative.' }
  if (grid === null) return null
  const widest = grid.max - grid.min
  if (value > widest) {
    return {
      field,
      message: `Spread ${n(value)} is wider than this market's prices allow (at most ${n(widest)}): the alert could never fire as meant.`,
    }
  }
  if (onStep(value, grid.tick, 0)) return null
  return {
    field,
    message: `Spread ${n(value)} is not a whole number of ticks (tick ${n(grid.tick)}): use ${n(snap(value - grid.tick / 2, grid.tick, 0))} or ${n(snap(value + grid.tick / 2, grid.tick, 0))}.`,
  }
}

/**
 * The alert form's default level for a subject now at `value`: the nearest value the subject can have on this
 * market (0.2500001 → 0.25; a mid may stay halfway between ticks), so the default is the price the trader sees,
 * and the direction toward it from where the value is. Without a grid the value is kept as it is.
 */
export function defaultLevel(
  subject: PriceSubject,
  value: number,
  grid: PriceGrid | null,
): { value: number; op: 'crosses-above' | 'crosses-below' } {
  if (grid === null || !Number.isFinite(value)) return { value, op: 'crosses-above' }
  const spread = subject === 'spread'
  const low = spread ? 0 : grid.min
  const high = spread ? grid.max - grid.min : grid.max
  const step = stepOf(subject, grid)
  const level = Math.min(high, Math.max(low, snap(value, step, low)))
  return { value: level, op: level < value - step * TICK_SLACK ? 'crosses-below' : 'crosses-above' }
}
