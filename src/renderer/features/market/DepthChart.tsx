// Market depth: cumulative bid size (stepped area, buy colour) left of the mid and cumulative ask size (sell
// colour) right of it, price on x, cumulative size on y, with a mid/spread marker. One <canvas>, sized by a
// ResizeObserver at the device pixel ratio and redrawn only when the book view or the size changes, in the
// commit that brings the change (no loop: an unchanged book costs nothing). The book is followed at most every
// CHART_INTERVAL_MS (under a firehose it changes every frame; the ladder shows every version), except that a
// change of state (stale, resyncing, live again) shows at once. The hover crosshair and its readout are
// DOM elements moved with a transform, so pointing never redraws the canvas. A stale or resyncing book gets the
// ladder's overlay (StaleOverlay.tsx); a quiet one a static "Quiet?" mark.
// Where the venue keeps the NO contract's book apart (VoxFi), the chart is the YES book with the NO book folded in
// as the ladder folds it (ladder.ts: a NO bid at q adds to the YES asks at 1 − q), sizes summed per price: the
// depth a trader can deal at, whichever book holds it. The ladder's NO-book toggle does not change the chart.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react'
import { cumulativeAt, depthModel, niceTicks, type DepthModel, type DepthPoint } from './depth'
import { formatMid, formatPrice, formatSize, type PriceUnit } from '../../lib/format'
import { foldedLevels } from './ladder'
import { CHART_INTERVAL_MS, useThrottled } from '../../lib/throttle'
import type { BookView } from '../../../shared/model'
import { QuietMark } from './QuietMark'
import { StaleOverlay } from './StaleOverlay'
import { useFreshnessNoAge } from '../../hooks/freshness'
import { viewFreshness } from '../../lib/freshness'
import { useMonitor, type MonitorState } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'

const selectBook = (s: MonitorState, market: string): BookView | undefined => s.books[market]
/** What the overlay and the badge say: shown at once, not at the chart's pace. */
const stateChanged = (next: BookView | undefined, shown: BookView | undefined): boolean =>
  next?.state !== shown?.state ||
  next?.resyncAttempt !== shown?.resyncAttempt ||
  next?.staleReason !== shown?.staleReason

interface Colours {
  buy: string
  sell: string
  fg: string
  muted: string
  grid: string
  border: string
  font: string
}

function readColours(): Colours {
  const css = getComputedStyle(document.documentElement)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  return {
    buy: v('--buy', '#22c38e'),
    sell: v('--sell', '#f45b69'),
    fg: v('--fg', '#d5dae3'),
    muted: v('--fg-muted', '#7b8598'),
    grid: v('--grid', 'rgba(140,150,170,0.1)'),
    border: v('--border-strong', '#2e3747'),
    font: v('--font-ui', 'system-ui'),
  }
}

interface Size {
  /** CSS pixels. */
  width: number
  height: number
  dpr: number
}

/** The plot area inside the canvas, in CSS pixels; kept from the last draw for the hover readout. */
interface Plot {
  left: number
  right: number
  top: number
  bottom: number
  model: DepthModel
}

const PAD_LEFT = 8
const PAD_TOP = 20
const AXIS_BOTTOM = 18
const LABEL_FONT = 10

function draw(
  canvas: HTMLCanvasElement,
  size: Size,
  model: DepthModel | null,
  c: Colours,
  unit: PriceUnit,
): Plot | null {
  const w = Math.round(size.width * size.dpr)
  const h = Math.round(size.height * size.dpr)
  if (canvas.width !== w) canvas.width = w
  if (canvas.height !== h) canvas.height = h
  const ctx = canvas.getContext('2d')
  if (!ctx) return null
  ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0)
  ctx.clearRect(0, 0, size.width, size.height)
  if (!model || size.width < 60 || size.height < 50) return null

  ctx.font = `${LABEL_FONT}px ${c.font}`
  const top = PAD_TOP
  const bottom = size.height - AXIS_BOTTOM
  const yTicks = niceTicks(0, model.yMax, Math.max(2, Math.floor((bottom - top) / 32)))
  const yLabels = yTicks.map((t) => formatSize(t))
  const labelWidth = Math.max(0, ...yLabels.map((l) => ctx.measureText(l).width))
  const left = PAD_LEFT
  const right = size.width - Math.ceil(labelWidth) - 10
  if (right - left < 40) return null
  const x = (p: number) => left + ((p - model.x0) / (model.x1 - model.x0)) * (right - left)
  const y = (v: number) => bottom - (v / model.yMax) * (bottom - top)

  // Grid and the size axis on the right.
  ctx.lineWidth = 1
  ctx.strokeStyle = c.grid
  ctx.fillStyle = c.muted
  ctx.textAlign = 'left'
  ctx.textBaseline = 'middle'
  yTicks.forEach((t, i) => {
    const yy = Math.round(y(t)) + 0.5
    ctx.beginPath()
    ctx.moveTo(left, yy)
    ctx.lineTo(right, yy)
    ctx.stroke()
    if (t > 0) ctx.fillText(yLabels[i] as string, right + 6, yy)
  })

  // The price axis at the bottom.
  ctx.strokeStyle = c.border
  ctx.beginPath()
  ctx.moveTo(left, Math.round(bottom) + 0.5)
  ctx.lineTo(right, Math.round(bottom) + 0.5)
  ctx.stroke()
  const xTicks = niceTicks(model.x0, model.x1, Math.max(2, Math.floor((right - left) / 64)))
  ctx.textAlign = 'center'
  ctx.textBaseline = 'top'
  ctx.fillStyle = c.muted
  for (const t of xTicks) {
    const xx = Math.round(x(t)) + 0.5
    ctx.beginPath()
    ctx.moveTo(xx, bottom)
    ctx.lineTo(xx, bottom + 4)
    ctx.stroke()
    // A label that would run off the canvas is left out (its tick stays).
    const label = formatPrice(t, unit)
    const half = ctx.measureText(label).width / 2
    if (xx - half >= 0 && xx + half <= size.width) ctx.fillText(label, xx, bottom + 5)
  }

  // The spread: a faint band between the best bid and the best ask.
  if (model.bestBid !== null && model.bestAsk !== null) {
    ctx.fillStyle = c.grid
    ctx.fillRect(x(model.bestBid), top, x(model.bestAsk) - x(model.bestBid), bottom - top)
  }

  const side = (points: readonly DepthPoint[], clipped: boolean, edge: number, colour: string) => {
    const first = points[0]
    if (!first) return
    const outline = new Path2D()
    outline.moveTo(x(first.price), y(0))
    points.forEach((p, i) => {
      const next = points[i + 1]
      const nextX = next ? x(next.price) : clipped ? edge : x(p.price)
      outline.lineTo(x(p.price), y(p.total))
      outline.lineTo(nextX, y(p.total))
    })
    const last = points[points.length - 1] as DepthPoint
    const area = new Path2D(outline)
    area.lineTo(clipped ? edge : x(last.price), y(0))
    area.closePath()
    ctx.globalAlpha = 0.2
    ctx.fillStyle = colour
    ctx.fill(area)
    ctx.globalAlpha = 1
    ctx.strokeStyle = colour
    ctx.lineWidth = 1.5
    ctx.lineJoin = 'miter'
    ctx.stroke(outline)
    ctx.lineWidth = 1
  }
  ctx.save()
  ctx.beginPath()
  ctx.rect(left, top - 2, right - left, bottom - top + 2)
  ctx.clip()
  side(model.bids, model.bidsClipped, left, c.buy)
  side(model.asks, model.asksClipped, right, c.sell)
  ctx.restore()

  // The mid: a dashed line with its price and the spread above the plot.
  if (model.mid !== null) {
    const xm = Math.round(x(model.mid)) + 0.5
    ctx.strokeStyle = c.muted
    ctx.setLineDash([3, 3])
    ctx.beginPath()
    ctx.moveTo(xm, top)
    ctx.lineTo(xm, bottom)
    ctx.stroke()
    ctx.setLineDash([])
    const label = `mid ${formatMid(model.mid, unit)} · spread ${formatPrice(model.spread, unit)}`
    const lw = ctx.measureText(label).width
    const lx = Math.min(Math.max(xm, left + lw / 2), right - lw / 2)
    ctx.fillStyle = c.fg
    ctx.textAlign = 'center'
    ctx.textBaseline = 'middle'
    ctx.fillText(label, lx, top / 2)
  }
  return { left, right, top, bottom, model }
}

interface Hover {
  x: number
  y: number
  price: number
  side: 'bid' | 'ask' | null
  total: number
  flip: boolean
}

export function DepthChart({ market }: { market: string }) {
  const book = useThrottled(useMonitor, market, selectBook, CHART_INTERVAL_MS, stateChanged)
  const state = book?.state ?? 'empty'
  // The quiet mark follows the badge rule: no "Quiet?" (a live claim's shadow) in a replay or without an engine.
  const fresh = useFreshnessNoAge(viewFreshness(book))
  const unit = usePriceUnit()
  const folded = book?.no !== undefined
  const model = useMemo(() => {
    if (!book) return null
    const { bids, asks } = foldedLevels(book)
    return depthModel(bids, asks)
  }, [book])
  const box = useRef<HTMLDivElement | null>(null)
  const canvas = useRef<HTMLCanvasElement | null>(null)
  const [size, setSize] = useState<Size | null>(null)
  const plot = useRef<Plot | null>(null)
  const [hover, setHover] = useState<Hover | null>(null)

  // The box's size, at the device pixel ratio; a change of either (resize, zoom, another screen) redraws.
  useEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () => {
      const r = el.getBoundingClientRect()
      const next = {
        width: Math.round(r.width),
        height: Math.round(r.height),
        dpr: window.devicePixelRatio || 1,
      }
      setSize((s) =>
        s && s.width === next.width && s.height === next.height && s.dpr === next.dpr ? s : next,
      )
    }
    measure()
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    ro?.observe(el)
    let dprQuery: MediaQueryList | null = null
    const watchDpr = () => {
      dprQuery?.removeEventListener('change', onDpr)
      dprQuery = window.matchMedia?.(`(resolution: ${window.devicePixelRatio || 1}dppx)`) ?? null
      dprQuery?.addEventListener('change', onDpr)
    }
    const onDpr = () => {
      measure()
      watchDpr()
    }
    watchDpr()
    return () => {
      ro?.disconnect()
      dprQuery?.removeEventListener('change', onDpr)
    }
  }, [])

  // Theme colours: read at the first draw, and again when the OS switches between light and dark.
  const colours = useRef<Colours | null>(null)
  const [theme, setTheme] = useState(0)
  useEffect(() => {
    const scheme = window.matchMedia?.('(prefers-color-scheme: light)')
    const onScheme = () => {
      colours.current = null
      setTheme((n) => n + 1)
    }
    scheme?.addEventListener('change', onScheme)
    return () => scheme?.removeEventListener('change', onScheme)
  }, [])

  // Drawn in the commit that brings a new book, size, theme or unit. The store applies batches in an animation
  // frame and React commits them within it, so the canvas changes in the frame that applies the batch, with the
  // ladder and the tape; a draw requested for the next animation frame made every book change a second frame
  // (style, paint, layerize, commit) of its own. The store commits at most once a frame, and this chart's book at
  // most every CHART_INTERVAL_MS.
  useLayoutEffect(() => {
    const el = canvas.current
    if (!el || !size) return
    colours.current ??= readColours()
    plot.current = draw(el, size, model, colours.current, unit)
  }, [model, size, theme, unit])

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const pl = plot.current
    const el = box.current
    if (!pl || !el) return
    const r = el.getBoundingClientRect()
    const px = e.clientX - r.left
    const py = e.clientY - r.top
    if (px < pl.left || px > pl.right || py < pl.top || py > pl.bottom) {
      setHover(null)
      return
    }
    const price = pl.model.x0 + ((px - pl.left) / (pl.right - pl.left)) * (pl.model.x1 - pl.model.x0)
    const at = cumulativeAt(pl.model.bids, pl.model.asks, price)
    const total = at?.total ?? 0
    setHover({
      x: px,
      y: pl.bottom - (total / pl.model.yMax) * (pl.bottom - pl.top),
      price,
      side: at?.side ?? null,
      total,
      flip: px > (pl.left + pl.right) / 2,
    })
  }

  const empty = !model
  const describe = model
    ? `Market depth: ${model.bids.length} bid and ${model.asks.length} ask levels${folded ? ' (with those implied from the NO book)' : ''}, mid ${formatMid(model.mid, unit)}`
    : 'Market depth: no book yet'
  return (
    <div
      className={`depth-chart state-${state}`}
      data-testid="depth-chart"
      data-market={market}
      data-state={state}
      data-fresh={fresh.state}
      data-levels={model?.levels ?? 0}
      data-folded={folded ? 'true' : undefined}
    >
      <div
        className="depth-box"
        ref={box}
        onPointerMove={empty ? undefined : onPointerMove}
        onPointerLeave={() => setHover(null)}
      >
        <canvas className="depth-canvas" ref={canvas} role="img" aria-label={describe} />
        {hover && !empty ? (
          <>
            <div className="depth-cross" style={{ transform: `translateX(${hover.x}px)` }} />
            <div
              className={`depth-readout${hover.flip ? ' flip' : ''}`}
              data-testid="depth-readout"
              style={{ transform: `translate(${hover.x}px, ${Math.max(hover.y, 24)}px)` }}
            >
              <b>{formatMid(hover.price, unit)}</b>
              {hover.side === null ? (
                <span className="muted">in the spread</span>
              ) : (
                <span className={hover.side === 'bid' ? 'bid-text' : 'ask-text'}>
                  {hover.side === 'bid' ? 'bids' : 'asks'} {formatSize(hover.total)}
                </span>
              )}
            </div>
          </>
        ) : null}
        {fresh.state === 'quiet' ? <QuietMark testId="depth-quiet-mark" className="depth-quiet" /> : null}
        <StaleOverlay
          book={book}
          what="Depth"
          testIds={{ overlay: 'depth-stale-overlay', resync: 'depth-resync-button' }}
        />
        {empty ? (
          <div className="book-overlay soft" data-testid="depth-empty">
            <span className="muted">No book yet</span>
          </div>
        ) : null}
      </div>
    </div>
  )
}
