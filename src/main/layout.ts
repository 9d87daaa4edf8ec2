// Where a restored window goes. Pure: given the saved layout and the displays that exist now, return bounds
// that are fully usable (on a display, inside its work area, at least the minimum size).
import type { Bounds, WindowLayout } from '../shared/model'

export interface DisplayArea {
  id: number
  workArea: Bounds
}

export interface SizeLimits {
  minWidth: number
  minHeight: number
  defaultWidth: number
  defaultHeight: number
}

export const WINDOW_SIZE: SizeLimits = {
  minWidth: 640,
  minHeight: 420,
  defaultWidth: 1280,
  defaultHeight: 820,
}

export interface PlacedLayout {
  bounds: Bounds
  displayId: number
  maximized: boolean
}

function finite(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n)
}

function usableBounds(bounds: Bounds | null | undefined): Bounds | null {
  if (!bounds) return null
  const { x, y, width, height } = bounds
  if (!finite(x) || !finite(y) || !finite(width) || !finite(height) || width <= 0 || height <= 0) return null
  return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) }
}

function overlapArea(a: Bounds, b: Bounds): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return w > 0 && h > 0 ? w * h : 0
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high))
}

/** Centre a default-sized window on the given work area. */
export function defaultBounds(area: Bounds, limits: SizeLimits = WINDOW_SIZE): Bounds {
  const width = Math.min(limits.defaultWidth, area.width)
  const height = Math.min(limits.defaultHeight, area.height)
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  }
}

/**
 * Fit a saved layout to the current displays. The saved display wins when it still exists and the window
 * overlaps it; otherwise the display the window overlaps most; otherwise the primary display.
 */
export function placeWindow(
  saved: Pick<WindowLayout, 'bounds' | 'displayId' | 'maximized'> | null,
  displays: readonly DisplayArea[],
  primaryId: number,
  limits: SizeLimits = WINDOW_SIZE,
): PlacedLayout {
  const primary = displays.find((d) => d.id === primaryId) ?? displays[0]
  const fallbackArea: Bounds = primary?.workArea ?? {
    x: 0,
    y: 0,
    width: limits.defaultWidth,
    height: limits.defaultHeight,
  }
  const fallbackId = primary?.id ?? primaryId
  const bounds = usableBounds(saved?.bounds)
  const maximized = saved?.maximized === true
  if (!bounds) return { bounds: defaultBounds(fallbackArea, limits), displayId: fallbackId, maximized }

  let target = displays.find((d) => d.id === saved?.displayId && overlapArea(d.workArea, bounds) > 0)
  if (!target) {
    let best = 0
    for (const d of displays) {
      const area = overlapArea(d.workArea, bounds)
      if (area > best) {
        best = area
        target = d
      }
    }
  }
  const area = target?.workArea ?? fallbackArea
  const displayId = target?.id ?? fallbackId
  const width = clamp(bounds.width, Math.min(limits.minWidth, area.width), area.width)
  const height = clamp(bounds.height, Math.min(limits.minHeight, area.height), area.height)
  // A window that moved to another display keeps its size but starts centred there.
  const moved = !target
  const x = moved
    ? area.x + Math.round((area.width - width) / 2)
    : clamp(bounds.x, area.x, area.x + area.width - width)
  const y = moved
    ? area.y + Math.round((area.height - height) / 2)
    : clamp(bounds.y, area.y, area.y + area.height - height)
  return { bounds: { x, y, width, height }, displayId, maximized }
}
