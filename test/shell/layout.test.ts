import { describe, expect, it } from 'vitest'
import { WINDOW_SIZE, placeWindow } from '../../src/main/layout'
import type { DisplayArea } from '../../src/main/layout'
import type { Bounds } from '../../src/shared/model'

const primary: DisplayArea = { id: 1, workArea: { x: 0, y: 25, width: 1920, height: 1055 } }
const right: DisplayArea = { id: 2, workArea: { x: 1920, y: 0, width: 2560, height: 1440 } }

function inside(b: Bounds, area: Bounds): boolean {
  return (
    b.x >= area.x &&
    b.y >= area.y &&
    b.x + b.width <= area.x + area.width &&
    b.y + b.height <= area.y + area.height
  )
}

describe('placeWindow', () => {
  it('keeps a window where it was when its display still exists', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 1200, height: 800 }, displayId: 2, maximized: false }
    expect(placeWindow(saved, [primary, right], 1)).toEqual({
      bounds: saved.bounds,
      displayId: 2,
      maximized: false,
    })
  })

  it('moves a window whose display is gone to the primary display, inside the work area', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 1200, height: 800 }, displayId: 2, maximized: false }
    const placed = placeWindow(saved, [primary], 1)
    expect(placed.displayId).toBe(1)
    expect(inside(placed.bounds, primary.workArea)).toBe(true)
    expect(placed.bounds.width).toBe(1200)
    expect(placed.bounds.height).toBe(800)
  })

  it('shrinks a window larger than the work area of its new display', () => {
    const saved = { bounds: { x: 1920, y: 0, width: 2560, height: 1440 }, displayId: 2, maximized: false }
    const placed = placeWindow(saved, [primary], 1)
    expect(placed.bounds).toEqual(primary.workArea)
  })

  it('pulls off-screen bounds back onto the display', () => {
    const saved = { bounds: { x: -5000, y: -5000, width: 800, height: 600 }, displayId: 1, maximized: false }
    const placed = placeWindow(saved, [primary, right], 1)
    expect(placed.displayId).toBe(1)
    expect(inside(placed.bounds, primary.workArea)).toBe(true)
  })

  it('clamps a window hanging over an edge', () => {
    const saved = { bounds: { x: 1500, y: 900, width: 800, height: 600 }, displayId: 1, maximized: false }
    const placed = placeWindow(saved, [primary], 1)
    expect(placed.bounds).toEqual({ x: 1920 - 800, y: 25 + 1055 - 600, width: 800, height: 600 })
  })

  it('grows tiny bounds to the minimum size', () => {
    const saved = { bounds: { x: 10, y: 30, width: 5, height: 3 }, displayId: 1, maximized: false }
    const placed = placeWindow(saved, [primary], 1)
    expect(placed.bounds.width).toBe(WINDOW_SIZE.minWidth)
    expect(placed.bounds.height).toBe(WINDOW_SIZE.minHeight)
    expect(inside(placed.bounds, primary.workArea)).toBe(true)
  })

  it('keeps the maximised flag and restores normal bounds on a fitting display', () => {
    const saved = { bounds: { x: 100, y: 100, width: 1000, height: 700 }, displayId: 99, maximized: true }
    const placed = placeWindow(saved, [primary], 1)
    expect(placed.maximized).toBe(true)
    expect(placed.displayId).toBe(1)
    expect(placed.bounds).toEqual({ x: 100, y: 100, width: 1000, height: 700 })
  })

  it('uses centred default bounds for missing or corrupt bounds', () => {
    for (const bounds of [
      null,
      { x: Number.NaN, y: 0, width: 100, height: 100 },
      { x: 0, y: 0, width: -1, height: 5 },
    ]) {
      const placed = placeWindow({ bounds, displayId: null, maximized: false }, [primary], 1)
      expect(placed.bounds.width).toBe(WINDOW_SIZE.defaultWidth)
      expect(inside(placed.bounds, primary.workArea)).toBe(true)
    }
  })

  it('never exceeds a display smaller than the minimum size', () => {
    const small: DisplayArea = { id: 7, workArea: { x: 0, y: 0, width: 600, height: 400 } }
    const placed = placeWindow(
      { bounds: { x: 0, y: 0, width: 2000, height: 2000 }, displayId: 7, maximized: false },
      [small],
      7,
    )
    expect(placed.bounds).toEqual(small.workArea)
  })

  it('copes with no displays reported at all', () => {
    const placed = placeWindow(null, [], 1)
    expect(placed.bounds.width).toBeGreaterThan(0)
    expect(placed.displayId).toBe(1)
  })
})
