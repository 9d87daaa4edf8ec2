// The scale of the ladder's depth bars: the size a full-width bar stands for. Scaled to each batch's largest
// running total, every batch that moved it (nearly all: the deepest total on the fuller side moves with any of
// its levels) rewrote all 30 bars, and each rewritten bar is a repaint and a raster of its whole row. Held steady
// instead, a batch rewrites only the bars whose own totals changed. Pure: no DOM, unit-tested.

/** Set anew, the scale is the largest total times this: the largest bar spans 1 / 1.1 ≈ 91% of the row. */
export const BAR_HEADROOM = 1.1
/** The largest total may fall to this share of the scale (its bar to 80% of the row) before the scale follows. */
export const BAR_FLOOR = 0.8

/**
 * The depth bars' scale after a batch, from the scale before it and the ladder's largest running total now.
 * It holds while the largest bar stays between BAR_FLOOR and the full row, and is set anew (with BAR_HEADROOM)
 * otherwise, so the largest bar always spans 80–100% of the row, as good as full to the eye. Never 0.
 */
export function barScale(previous: number, largest: number): number {
  if (!(largest > 0)) return previous > 0 ? previous : 1
  if (largest <= previous && largest >= previous * BAR_FLOOR) return previous
  return largest * BAR_HEADROOM
}
