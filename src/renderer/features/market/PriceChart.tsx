// Candles from the market's trades with lightweight-charts. Built once with setData when the chart opens (or
// the tape is re-seeded, at once), from the engine's candle history of the market and the tape's trades after it
// (so a chart opened late shows the last hour, not one candle), then one series.update per changed candle, at most
// CHART_INTERVAL_MS apart: under a firehose the trades of several frames go in one update (candles a second or a
// minute wide look the same), so the chart's canvases are not redrawn, repainted and composited every frame. The
// updates are made when the store's next batch is queued (store/batch-frame-throttle.ts), so the chart, which draws
// in an animation frame, draws in that batch's frame rather than in one of its own after it: a candle moves about
// one batch after its trade reached the tape, at most CHART_MAX_LAG_MS. The price axis reads in the trader's unit
// (¢ or probability), switched without rebuilding the chart.
import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  type IChartApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts'
import { useEffect, useRef, useState } from 'react'
import type { TradeView } from '../../../shared/model'
import {
  CANDLE_INTERVALS,
  CandleBuilder,
  chartCandles,
  INTERVAL_SECONDS,
  type Candle,
  type CandleInterval,
} from '../../../shared/candles'
import { formatPrice } from '../../lib/format'
import { CHART_INTERVAL_MS } from '../../lib/throttle'
import { batchFrameThrottle } from '../../store/batch-frame-throttle'
import { NO_TRADES, useMonitor } from '../../store/monitor'
import { usePrefs, usePriceUnit } from '../../store/prefs'

/** How long a new trade may wait for a batch's frame before the chart draws it in a frame of its own. */
const CHART_MAX_LAG_MS = 250

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return v || fallback
}

function themeOptions() {
  const fg = cssVar('--fg-muted', '#8a94a6')
  const grid = cssVar('--grid', 'rgba(128,128,128,0.12)')
  return {
    layout: {
      background: { type: ColorType.Solid, color: cssVar('--bg-pane', '#131722') },
      textColor: fg,
      fontFamily: cssVar('--font-ui', 'system-ui'),
      fontSize: 11,
      attributionLogo: false,
    },
    grid: { vertLines: { color: grid }, horzLines: { color: grid } },
    rightPriceScale: { borderColor: grid },
    timeScale: { borderColor: grid },
  }
}

function pad2(n: number): string {
  return String(n).padStart(2, '0')
}

function localTime(time: Time, withSeconds: boolean): string {
  if (typeof time !== 'number') return String(time)
  const d = new Date(time * 1000)
  const hm = `${pad2(d.getHours())}:${pad2(d.getMinutes())}`
  return withSeconds ? `${hm}:${pad2(d.getSeconds())}` : hm
}

export function PriceChart({ market }: { market: string }) {
  const container = useRef<HTMLDivElement | null>(null)
  const [interval, setIntervalChoice] = useState<CandleInterval>('1m')
  const hasTrades = useMonitor(
    (s) => (s.trades[market] ?? NO_TRADES).length > 0 || (s.candles[market]?.candles['1m'].length ?? 0) > 0,
  )
  const unit = usePriceUnit()
  const chartRef = useRef<IChartApi | null>(null)

  useEffect(() => {
    const el = container.current
    if (!el) return
    const seconds = INTERVAL_SECONDS[interval]
    const up = cssVar('--buy', '#26a69a')
    const down = cssVar('--sell', '#ef5350')
    const chart: IChartApi = createChart(el, {
      autoSize: true,
      ...themeOptions(),
      localization: {
        timeFormatter: (t: Time) => localTime(t, true),
        priceFormatter: (p: number) => formatPrice(p, usePrefs.getState().priceUnit),
      },
      timeScale: {
        ...themeOptions().timeScale,
        timeVisible: true,
        secondsVisible: seconds < 60,
        rightOffset: 4,
        tickMarkFormatter: (t: Time) => localTime(t, seconds < 60),
      },
      crosshair: { mode: 0 },
    })
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: up,
      downColor: down,
      borderUpColor: up,
      borderDownColor: down,
      wickUpColor: up,
      wickDownColor: down,
      priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
    })
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: 'vol',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    })
    chart.priceScale('vol').applyOptions({ scaleMargins: { top: 0.82, bottom: 0 } })
    candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.22 } })

    const bar = (c: Candle) => ({
      time: c.time as UTCTimestamp,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
    })
    const vol = (c: Candle) => ({
      time: c.time as UTCTimestamp,
      value: c.volume,
      color: c.close >= c.open ? `${up}66` : `${down}66`,
    })

    const builder = new CandleBuilder(seconds)
    let lastKey: string | null = null
    // How many candles the series holds, on the element for tests: the canvas cannot be read back.
    let drawn = 0
    let drawnUpTo = Number.NEGATIVE_INFINITY
    const count = (cs: readonly Candle[]) => {
      for (const c of cs) {
        if (c.time <= drawnUpTo) continue
        drawn++
        drawnUpTo = c.time
      }
      el.dataset.candles = String(drawn)
    }

    const rebuild = (trades: readonly TradeView[]) => {
      const cs = chartCandles(useMonitor.getState().candles[market], interval, trades)
      candles.setData(cs.map(bar))
      volume.setData(cs.map(vol))
      builder.seed(cs[cs.length - 1] ?? null)
      lastKey = trades[trades.length - 1]?.key ?? null
      drawn = 0
      drawnUpTo = Number.NEGATIVE_INFINITY
      count(cs)
    }

    const append = (trades: readonly TradeView[]) => {
      let start = 0
      if (lastKey !== null) {
        let i = trades.length - 1
        while (i >= 0 && (trades[i] as TradeView).key !== lastKey) i--
        // The last trade we drew fell out of the capped tape: too much happened at once, redraw.
        if (i < 0) return rebuild(trades)
        start = i + 1
      }
      const changed = new Map<number, Candle>()
      for (let i = start; i < trades.length; i++) {
        const c = builder.add(trades[i] as TradeView)
        if (c) changed.set(c.time, c)
      }
      for (const c of changed.values()) {
        candles.update(bar(c))
        volume.update(vol(c))
      }
      count([...changed.values()])
      lastKey = trades[trades.length - 1]?.key ?? lastKey
    }

    rebuild(useMonitor.getState().trades[market] ?? NO_TRADES)
    const appendLatest = batchFrameThrottle(
      () => append(useMonitor.getState().trades[market] ?? NO_TRADES),
      CHART_INTERVAL_MS,
      CHART_MAX_LAG_MS,
    )
    const unsubscribe = useMonitor.subscribe((s, prev) => {
      if (s.tapeEpoch[market] !== prev.tapeEpoch[market] || s.candles[market] !== prev.candles[market]) {
        appendLatest.cancel()
        rebuild(s.trades[market] ?? NO_TRADES)
      } else if (s.trades[market] !== prev.trades[market]) appendLatest.schedule()
    })

    const media = window.matchMedia('(prefers-color-scheme: dark)')
    const onTheme = () => chart.applyOptions(themeOptions())
    media.addEventListener('change', onTheme)
    chartRef.current = chart
    return () => {
      chartRef.current = null
      media.removeEventListener('change', onTheme)
      unsubscribe()
      appendLatest.cancel()
      chart.remove()
    }
  }, [market, interval])

  // A new unit: the axis and crosshair labels are drawn again (the formatter reads the unit when called).
  useEffect(() => {
    chartRef.current?.applyOptions({ localization: { priceFormatter: (p: number) => formatPrice(p, unit) } })
  }, [unit])

  return (
    <div className="chart-pane">
      <div className="pane-toolbar">
        <span className="pane-title">Price</span>
        <div className="seg" role="group" aria-label="Candle interval">
          {CANDLE_INTERVALS.map((i) => (
            <button
              key={i}
              className={i === interval ? 'on' : ''}
              aria-pressed={i === interval}
              data-testid={`interval-${i}`}
              onClick={() => setIntervalChoice(i)}
            >
              {i}
            </button>
          ))}
        </div>
      </div>
      <div className="chart-box">
        <div
          className="chart-canvas"
          ref={container}
          data-testid="price-chart"
          data-market={market}
          data-interval={interval}
        />
        {!hasTrades ? <div className="chart-empty muted">Waiting for trades to build candles…</div> : null}
      </div>
    </div>
  )
}
