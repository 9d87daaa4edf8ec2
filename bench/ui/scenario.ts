// One scenario of the UI benchmark: simulator, engine, browser host and Chromium started fresh, one market
// window opened, load applied, then one measurement window. Everything started here is closed on the way out,
// on success and on error.
import { chromium, type Browser, type Page } from '@playwright/test'
import { createMemoryStore, createMonitor } from '../../src/main/services'
import type { Logger, MonitorClient } from '../../src/main/services'
import { startWebHost } from '../../src/main/web/server'
import { firehoseId } from '../../src/sim/firehose'
import type { Dialect } from '../../src/sim/index'
import { CHROMIUM, CHROMIUM_ARGS } from '../../test/e2e/chromium.mjs'
import { writeFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { schedSample, threadTime, type ThreadTime } from '../lib/cpu'
import { round, SampleSet } from '../lib/stats'
import { tapBridge, type BridgeTap } from './bridge-tap'
import { PROBE_INIT, PROBE_START, PROBE_STOP, spinScript, type ProbeStart, type ProbeStop } from './probe'
import { chromiumProcesses, cpuDelta, processTicks, clockTicksPerSecond, type ProcSample } from './procs'
import { startScrolling, type ScrollStats } from './scroll'
import { startSimProcess } from './sim-process'
import { startTruth, type Truth } from './truth'

/** The DevTools Profiler on the page's main thread: started now, written as a .cpuprofile by `stop`. */
async function startPageProfile(page: Page): Promise<{ stop: (file: string) => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
  await cdp.send('Profiler.start')
  return {
    stop: async (file) => {
      const { profile } = await cdp.send('Profiler.stop')
      writeFileSync(file, JSON.stringify(profile))
      await cdp.detach().catch(() => undefined)
    },
  }
}

/** The trace categories of DevTools' Performance panel: main-thread tasks, style, layout, paint, compositing. */
export const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  ...(process.env.BENCH_TRACE_EXTRA ? process.env.BENCH_TRACE_EXTRA.split(',') : []),
]

/**
 * Where a node sits, for a layout invalidation: its element (a text node's parent) and two ancestors, then the
 * dock pane holding it, or "outside the panes". Runs in the page, on the node.
 */
const LAYOUT_PATH_FN = `function () {
  const name = (e) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className.trim()
    ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
  let e = this.nodeType === 1 ? this : this.parentElement
  if (!e) return undefined
  const parts = []
  for (let x = e; x && parts.length < 3; x = x.parentElement) parts.push(name(x))
  const pane = e.closest('.dock-pane')
  return parts.join(' < ') + ' … ' + (pane ? 'pane ' + (pane.getAttribute('data-pane') || '?') : 'outside the panes')
}`

/**
 * A Chrome trace (the DevTools Performance panel's categories) of the page: started now, written by `stop`. The
 * DOM nodes its Paint events name are described (tag, id, class, data-testid, data-pane) while the page is still
 * open, and added to the trace as `bench_node` metadata events, so the summary can say what was painted.
 */
async function startPageTrace(
  browser: Browser,
  page: Page,
): Promise<{ stop: (file: string) => Promise<void> }> {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES })
  return {
    stop: async (file) => {
      const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
        traceEvents: Array<{ name?: string; args?: { data?: { nodeId?: unknown } } }>
      }
      const ids = new Set<number>()
      for (const e of trace.traceEvents) {
        const id = e.name === 'Paint' ? e.args?.data?.nodeId : undefined
        if (typeof id === 'number') ids.add(id)
      }
      const cdp = await page.context().newCDPSession(page)
      for (const id of ids) {
        try {
          const { node } = (await cdp.send('DOM.describeNode', { backendNodeId: id })) as {
            node: { nodeName: string; attributes?: string[] }
          }
          const attrs = node.attributes ?? []
          const attr = (n: string) => {
            const i = attrs.indexOf(n)
            return i >= 0 && i % 2 === 0 ? attrs[i + 1] : undefined
          }
          const parts = [node.nodeName.toLowerCase()]
          const idAttr = attr('id')
          if (idAttr) parts.push(`#${idAttr}`)
          const cls = attr('class')
          if (cls) parts.push(`.${cls.trim().split(/\s+/).join('.')}`)
          for (const a of ['data-testid', 'data-pane']) {
            const v = attr(a)
            if (v !== undefined) parts.push(`[${a}=${v}]`)
          }
          trace.traceEvents.push({
            name: 'bench_node',
            ph: 'M',
            args: { nodeId: id, node: parts.join('') },
          } as never)
        } catch {
          // A node removed since it was painted cannot be described.
        }
      }
      // With the invalidation-tracking category: where each node whose change asked for a layout sits.
      const dirtied = new Set<number>()
      for (const e of trace.traceEvents) {
        const id = e.name === 'LayoutInvalidationTracking' ? e.args?.data?.nodeId : undefined
        if (typeof id === 'number') dirtied.add(id)
      }
      for (const id of dirtied) {
        try {
          const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId: id })) as {
            object: { objectId?: string }
          }
          if (object.objectId === undefined) continue
          const { result } = (await cdp.send('Runtime.callFunctionOn', {
            objectId: object.objectId,
            functionDeclaration: LAYOUT_PATH_FN,
            returnByValue: true,
          })) as { result: { value?: unknown } }
          if (typeof result.value === 'string')
            trace.traceEvents.push({
              name: 'bench_layout_node',
              ph: 'M',
              args: { nodeId: id, node: result.value },
            } as never)
        } catch {
          // Gone from the document since.
        }
      }
      await cdp.detach().catch(() => undefined)
      writeFileSync(file, JSON.stringify(trace))
    },
  }
}

export type ScenarioKind = 'demo' | 'firehose' | 'tape-scroll' | 'watchlist-scroll'

export interface ScenarioOptions {
  kind: ScenarioKind
  /** The simulator's dialect: VoxFi's (the app's demo) or the reference dialect. */
  dialect: Dialect
  /** Firehose and tape-scroll: messages per second, all on fh-0001. */
  rate: number
  seconds: number
  warmupSeconds: number
  /** The built renderer the host serves. */
  rendererDir: string
  logger: Logger
  progress: (line: string) => void
  /** Told the browser's version once it runs. */
  onBrowser?: (version: string) => void
  /** Writes a V8 CPU profile of the page's main thread over the measurement window here (DevTools Profiler). */
  cpuProfile?: string | null
  /** Writes a Chrome trace of the page over the measurement window here (read it with bench/lib/trace-summary.ts). */
  trace?: string | null
  /**
   * Which window the trace and the CPU profile cover where there are two (demo, firehose): the CPU window (default)
   * or the frame-counted one (for the long tail of frame to pixel).
   */
  traceWindow?: 'cpu' | 'counted'
}

/** Below this share of the asked rate reaching the engine, the result is `load_not_delivered`. */
export const DELIVERED_MIN_RATIO = 0.95
const SPIN_MS = 500
/** After the window, before counting what arrived for it. */
const SETTLE_MS = 1000
const VIEWPORT = { width: 1400, height: 900 }
/** The virtualised tape's scroll container and its rows (tape-scroll). */
export const TAPE_SCROLL = {
  selector: '[data-testid="trade-tape"] [data-testid="tape-scroll"]',
  itemSelector: '[data-testid="trade-row"], [data-testid="trade-gap"]',
}
/** The watchlist's scroll container and its rows (watchlist-scroll). */
export const WATCH_SCROLL = {
  selector: '[data-testid="watchlist"] .watch-body',
  itemSelector: '[data-testid="watchlist-row"]',
}
/** watchlist-scroll: markets on the watchlist, each a firehose market streaming its share of the rate. */
export const WATCHLIST_MARKETS = 500
/** Rows the tape must hold before scrolling starts (so there is somewhere to scroll). */
const TAPE_SCROLL_MIN_ROWS = 200

export interface Latency {
  /** Painted entries inside the window whose venue ts is known. */
  n: number
  p50_ms: number | null
  p95_ms: number | null
  p99_ms: number | null
  max_ms: number | null
  /** Entries inside the window with no venue ts to join with (key or seq unknown). */
  unmatched: number
  /** Where the time goes, medians: venue ts → engine receive → batch emitted → paint. */
  venue_to_engine_p50_ms: number | null
  engine_to_batch_p50_ms: number | null
  batch_to_paint_p50_ms: number | null
  /** Paint (main thread) to presentation, median; null when presentationTime is absent. */
  paint_to_presentation_p50_ms: number | null
  /**
   * The slowest samples (the top 2%, at least one), slowest first, each split as above: where the long tail's
   * time went. `batch_to_paint_ms` ends at the presentation, like the medians' batch → paint.
   */
  slowest: SlowSample[]
}

export interface SlowSample {
  total_ms: number
  engine_to_batch_ms: number | null
  batch_to_paint_ms: number | null
  paint_to_presentation_ms: number | null
}

/** Each % of one core over a window: user + system time from /proc, all of a process's threads. */
export interface CpuFigures {
  renderer: number | null
  chromium_all: number
  browser: number
  gpu: number
  utility: number
  zygote: number
  other_renderers: number
  /** This Node process: engine, browser host, Playwright's driver, the ground truth. */
  bench_node_process: number
  /** The simulator's own Node process. */
  simulator_process: number | null
}

export interface ScenarioResult {
  scenario: ScenarioKind
  dialect: Dialect
  description: string
  market: string
  seconds: number
  load: {
    status: 'ok' | 'load_not_delivered'
    asked_msgs_per_sec: number | null
    /** StreamStatus.counters.frames over the window: every frame the engine took from the venue. */
    engine_frames_per_sec: number
    /** engine_frames_per_sec / asked (firehose only). */
    delivered_ratio: number | null
    /** Firehose messages the simulator generated for subscribed markets (firehose only). */
    sim_generated_msgs_per_sec: number | null
    /** The window's market as the ground-truth client received it (books + trades). */
    market_msgs_per_sec: number
    market_trades_per_sec: number
    /** The page's bridge socket: batches, and the market's trades and book views in them. */
    page_batches_per_sec: number
    page_trades_per_sec: number
    page_book_views_per_sec: number
  }
  cpu_pct_of_one_core: CpuFigures

  /**
   * The window `cpu_pct_of_one_core` was measured over. In `demo` and `firehose` it is a window of its own, just
   * before the frame-counted one, with no requestAnimationFrame loop of the bench's in the page: the counter makes
   * the page produce (and commit) a frame at every tick, which a window left alone does only when something
   * changed. In the scroll scenarios the scrolling is itself a rAF loop, so the CPU is the scrolled window's.
   */
  cpu_window: {
    frame_counter: boolean
    seconds: number
    renderer_main_thread_busy: number | null
    renderer_main_thread_waiting_for_cpu: number | null
  }
  /** The same processes over the frame-counted window (fps, frame to pixel): what the counter's frames add. */
  cpu_pct_of_one_core_with_frame_counter: CpuFigures
  renderer_pid: number | null
  renderer_identified: boolean
  /**
   * Contention, from /proc/PID/schedstat (main threads only): share of the window each was on a CPU and
   * runnable but waiting for one. Plus this Node process's event-loop delay (engine and bridge run on it).
   */
  contention: {
    renderer_main_thread_busy: number | null
    renderer_main_thread_waiting_for_cpu: number | null
    bench_main_thread_busy: number | null
    bench_main_thread_waiting_for_cpu: number | null
    bench_event_loop_delay_p99_ms: number | null
    bench_event_loop_delay_max_ms: number | null
  }
  fps: number | null
  frames: number
  frames_over_50ms: number
  p95_frame_ms: number | null
  longest_frame_ms: number | null
  /** tape-scroll: the tape scrolled continuously through the window (null in the other scenarios). */
  scroll: ScrollStats | null
  frame_to_pixel: {
    /**
     * Where the latency starts: the venue's ts (reference: the simulator stamps every frame) or the engine's receive
     * time (VoxFi: its frames carry no timestamp, so TradeView.ts and the book's mark are the receive time).
     */
    origin: 'venue-ts' | 'engine-receive'
    /** Which Element Timing field the paint is taken from. */
    paint_clock: 'presentationTime' | 'renderTime' | 'mixed' | null
    markers: 'present' | 'missing' | 'partial'
    /** Date.now() − (timeOrigin + performance.now()) in the page, applied to paint times. */
    page_clock_offset_ms: number
    tape: Latency & { trades_delivered: number; trades_painted: number; verified_against_venue: number }
    /** Book versions: each painted `book:<market>:<updatedAt>` mark (the engine's receipt time of the version). */
    ladder: Latency & { books_delivered: number; books_painted: number }
  }
  notes: string[]
}

const perSec = (n: number, seconds: number): number => round(n / seconds, 1) ?? 0
const pct = (cpuSeconds: number, seconds: number): number => round((cpuSeconds / seconds) * 100, 1) ?? 0

async function setUpEngine(sim: { baseUrl: string; wsUrl: string; demoKey: string }, logger: Logger) {
  const engine = await createMonitor({
    settingsPath: null,
    demo: false,
    credentials: createMemoryStore(),
    logger,
  })
  try {
    const ctl: MonitorClient = engine.attachClient({ label: 'bench-ui', sink: () => {} })
    const saved = await ctl.saveProfile({ name: 'bench', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl })
    if (!saved.ok) throw new Error(`saveProfile: ${saved.error.message}`)
    const selected = await ctl.selectProfile(saved.value.id)
    if (!selected.ok) throw new Error(`selectProfile: ${selected.error.message}`)
    const key = await ctl.setApiKey({ key: sim.demoKey, label: 'bench' })
    if (!key.ok) throw new Error(`setApiKey: ${key.error.message}`)
    return { engine, ctl }
  } catch (e) {
    await engine.close()
    throw e
  }
}

async function engineFrames(ctl: MonitorClient): Promise<number> {
  const s = await ctl.getStatus()
  if (!s.ok) throw new Error(`getStatus: ${s.error.message}`)
  return s.value.counters.frames
}

/**
 * The page's renderer: the one renderer whose CPU time jumps while the page's main thread spins. Identified when
 * it gained at least a third of the spin (the machine may be busy) and at least twice any other renderer.
 */
async function identifyRenderer(
  page: Page,
): Promise<{ pid: number | null; identified: boolean; gains: Array<{ pid: number; s: number }> }> {
  const before = chromiumProcesses().filter((p) => p.kind === 'renderer' && !p.webui)
  await page.evaluate(spinScript(SPIN_MS))
  const gains = before
    .map((p) => ({ pid: p.pid, s: ((processTicks(p.pid) ?? p.ticks) - p.ticks) / clockTicksPerSecond() }))
    .sort((a, b) => b.s - a.s)
  const best = gains[0]
  if (best === undefined) return { pid: null, identified: false, gains }
  const second = gains[1]?.s ?? 0
  return { pid: best.pid, identified: best.s >= SPIN_MS / 3000 && second <= best.s / 2, gains }
}

/** Demo: a main window with the first event of the listing expanded; returns that event's first market. */
async function openMainWindow(browser: Browser, url: string): Promise<string> {
  const main = await browser.newPage({ viewport: VIEWPORT })
  await main.goto(url)
  const eventRow = main.getByTestId('event-row').first()
  await eventRow.waitFor({ timeout: 60_000 })
  const eventId = await eventRow.getAttribute('data-event')
  await eventRow.click()
  const marketRow = main.locator(`[data-testid="market-row"][data-event="${eventId ?? ''}"]`).first()
  await marketRow.waitFor({ timeout: 30_000 })
  const market = await marketRow.getAttribute('data-market')
  if (market === null) throw new Error('main window: the expanded event shows no market')
  return market
}

type Parts = ReturnType<typeof newParts>

/** The slowest 2% of `all` (at least one), slowest first. */
function slowest(all: SlowSample[]): SlowSample[] {
  const r = (v: number | null) => (v === null ? null : (round(v, 1) ?? null))
  return all
    .slice()
    .sort((a, b) => b.total_ms - a.total_ms)
    .slice(0, Math.max(1, Math.ceil(all.length * 0.02)))
    .map((x) => ({
      total_ms: r(x.total_ms) ?? 0,
      engine_to_batch_ms: r(x.engine_to_batch_ms),
      batch_to_paint_ms: r(x.batch_to_paint_ms),
      paint_to_presentation_ms: r(x.paint_to_presentation_ms),
    }))
}

function latency(samples: SampleSet, parts: Parts, unmatched: number): Latency {
  return {
    n: samples.count,
    p50_ms: round(samples.percentile(50), 1),
    p95_ms: round(samples.percentile(95), 1),
    p99_ms: round(samples.percentile(99), 1),
    max_ms: round(samples.max(), 1),
    unmatched,
    venue_to_engine_p50_ms: round(parts.engine.percentile(50), 1),
    engine_to_batch_p50_ms: round(parts.batch.percentile(50), 1),
    batch_to_paint_p50_ms: round(parts.paint.percentile(50), 1),
    paint_to_presentation_p50_ms: round(parts.present.percentile(50), 1),
    slowest: samples.count === 0 ? [] : slowest(parts.each),
  }
}

/** Any receipt time is above this (2001-09-09); a venue's seq in an older renderer's mark is below it. */
const EPOCH_MS_FLOOR = 1e12

const newParts = () => ({
  engine: new SampleSet(),
  batch: new SampleSet(),
  paint: new SampleSet(),
  present: new SampleSet(),
  each: [] as SlowSample[],
})

function frameToPixel(
  start: ProbeStart,
  stop: ProbeStop,
  market: string,
  tap: BridgeTap,
  truth: Truth,
  delivered: { trades: number; books: number },
): ScenarioResult['frame_to_pixel'] {
  // VoxFi: TradeView.ts and the book's mark are the engine's receive time (no venue timestamp), so venue → engine
  // is not measured. Reference: a book version is timed from the venue ts of its seq (tap: receipt time → seq).
  const venueTs = truth.dialect !== 'voxfi'
  const toEpoch = (t: number): number => start.timeOrigin + t + start.clockOffsetMs
  const tape = new SampleSet()
  const ladder = new SampleSet()
  const tapeParts = newParts()
  const ladderParts = newParts()
  let tapeUnmatched = 0
  let ladderUnmatched = 0
  let verified = 0
  let tradesPainted = 0
  let booksPainted = 0
  let withPresentation = 0
  let withoutPresentation = 0
  const bookPrefix = `book:${market}:`
  const e = stop.entries
  for (let i = 0; i + 3 < e.length; i += 4) {
    const id = e[i] as string
    const renderTime = e[i + 1] as number
    const presentation = e[i + 2] as number
    const paintTime = e[i + 3] as number
    if (presentation > 0) withPresentation++
    else withoutPresentation++
    const shown = toEpoch(presentation > 0 ? presentation : renderTime)
    const present = presentation > 0 && paintTime > 0 ? presentation - paintTime : null
    if (id.startsWith('trade:')) {
      tradesPainted++
      const t = tap.trade(id.slice('trade:'.length))
      if (t === undefined) {
        tapeUnmatched++
        continue
      }
      if (truth.hasTrade(t.price, t.size, t.ts)) verified++
      tape.add(shown - t.ts)
      if (venueTs) tapeParts.engine.add(t.receivedAt - t.ts)
      const batched = Number.isFinite(t.batchAt)
      if (batched) {
        tapeParts.batch.add(t.batchAt - t.receivedAt)
        tapeParts.paint.add(shown - t.batchAt)
      }
      if (present !== null) tapeParts.present.add(present)
      tapeParts.each.push({
        total_ms: shown - t.ts,
        engine_to_batch_ms: batched ? t.batchAt - t.receivedAt : null,
        batch_to_paint_ms: batched ? shown - t.batchAt : null,
        paint_to_presentation_ms: present,
      })
    } else if (id.startsWith(bookPrefix)) {
      booksPainted++
      const mark = Number(id.slice(bookPrefix.length))
      // A renderer built before the receipt-time mark (--renderer-dir) marks the venue's seq, far below any epoch ms.
      const legacy = mark < EPOCH_MS_FLOOR
      const b = legacy ? tap.bookBySeq(mark) : tap.book(mark)
      const receivedAt = legacy ? b?.receivedAt : mark
      const seq = legacy ? mark : (b?.seq ?? null)
      const ts = venueTs ? (seq === null ? undefined : truth.seqTs(seq)) : receivedAt
      if (ts === undefined) {
        ladderUnmatched++
        continue
      }
      ladder.add(shown - ts)
      if (venueTs && receivedAt !== undefined) ladderParts.engine.add(receivedAt - ts)
      if (b !== undefined) {
        ladderParts.batch.add(b.batchAt - b.receivedAt)
        ladderParts.paint.add(shown - b.batchAt)
      }
      if (present !== null) ladderParts.present.add(present)
      ladderParts.each.push({
        total_ms: shown - ts,
        engine_to_batch_ms: b === undefined ? null : b.batchAt - b.receivedAt,
        batch_to_paint_ms: b === undefined ? null : shown - b.batchAt,
        paint_to_presentation_ms: present,
      })
    }
  }
  const clock =
    withPresentation + withoutPresentation === 0
      ? null
      : withoutPresentation === 0
        ? 'presentationTime'
        : withPresentation === 0
          ? 'renderTime'
          : 'mixed'
  return {
    origin: venueTs ? 'venue-ts' : 'engine-receive',
    paint_clock: clock,
    markers:
      tradesPainted > 0 && booksPainted > 0
        ? 'present'
        : tradesPainted + booksPainted > 0
          ? 'partial'
          : 'missing',
    page_clock_offset_ms: round(start.clockOffsetMs, 2) ?? 0,
    tape: {
      ...latency(tape, tapeParts, tapeUnmatched),
      trades_delivered: delivered.trades,
      trades_painted: tradesPainted,
      verified_against_venue: verified,
    },
    ladder: {
      ...latency(ladder, ladderParts, ladderUnmatched),
      books_delivered: delivered.books,
      books_painted: booksPainted,
    },
  }
}

function frameStats(
  frames: number[],
): Pick<ScenarioResult, 'fps' | 'frames' | 'frames_over_50ms' | 'p95_frame_ms' | 'longest_frame_ms'> {
  const gaps = new SampleSet()
  let over = 0
  for (let i = 1; i < frames.length; i++) {
    const g = (frames[i] as number) - (frames[i - 1] as number)
    gaps.add(g)
    if (g > 50) over++
  }
  const span = frames.length > 1 ? (frames[frames.length - 1] as number) - (frames[0] as number) : 0
  return {
    fps: span > 0 ? round((gaps.count / span) * 1000, 1) : null,
    frames: gaps.count,
    frames_over_50ms: over,
    p95_frame_ms: round(gaps.percentile(95), 1),
    longest_frame_ms: round(gaps.max(), 1),
  }
}

/** CPU over one window: each process's share of a core, and the two main threads' schedstat. */
interface CpuReading {
  seconds: number
  figures: CpuFigures
  /** The renderer measured: the identified one, else the window's busiest page renderer. */
  rendererPid: number | null
  rendererExited: boolean
  rendererThread: ThreadTime | null
  bench: ThreadTime | null
}

/**
 * Starts measuring CPU over a window: every Chromium process, this process and the simulator's (from /proc), and
 * the page renderer's and this process's main threads (schedstat). `stop` ends the window.
 */
function startCpuWindow(
  renderer: { pid: number | null; identified: boolean },
  simPid: number,
): { stop: () => CpuReading } {
  const benchSched0 = schedSample('self')
  const rendererSched0 = renderer.pid === null ? null : schedSample(renderer.pid)
  const procs0: ProcSample[] = chromiumProcesses()
  const node0 = process.cpuUsage()
  const simTicks0 = processTicks(simPid)
  const t0 = performance.now()
  return {
    stop: () => {
      const procs1 = chromiumProcesses()
      const node1 = process.cpuUsage(node0)
      const simTicks1 = processTicks(simPid)
      const bench = threadTime(benchSched0, schedSample('self'))
      const rendererThread =
        renderer.pid === null ? null : threadTime(rendererSched0, schedSample(renderer.pid))
      const seconds = (performance.now() - t0) / 1000
      const cpu = cpuDelta(procs0, procs1)
      const sum = (pred: (c: (typeof cpu)[number]) => boolean): number =>
        cpu.filter(pred).reduce((a, c) => a + c.seconds, 0)
      let rendererPid = renderer.pid
      if (!renderer.identified) {
        const webui = new Set(procs1.filter((p) => p.webui).map((p) => p.pid))
        const busiest = cpu
          .filter((c) => c.kind === 'renderer' && !webui.has(c.pid))
          .sort((a, b) => b.seconds - a.seconds)[0]
        rendererPid = busiest?.pid ?? null
      }
      const rendererCpu = cpu.find((c) => c.pid === rendererPid)
      return {
        seconds,
        rendererPid,
        rendererExited: rendererPid !== null && rendererCpu === undefined,
        rendererThread,
        bench,
        figures: {
          renderer: rendererCpu === undefined ? null : pct(rendererCpu.seconds, seconds),
          chromium_all: pct(
            sum(() => true),
            seconds,
          ),
          browser: pct(
            sum((c) => c.kind === 'browser'),
            seconds,
          ),
          gpu: pct(
            sum((c) => c.kind === 'gpu'),
            seconds,
          ),
          utility: pct(
            sum((c) => c.kind === 'utility'),
            seconds,
          ),
          zygote: pct(
            sum((c) => c.kind === 'zygote' || c.kind === 'other'),
            seconds,
          ),
          other_renderers: pct(
            sum((c) => c.kind === 'renderer' && c.pid !== rendererPid),
            seconds,
          ),
          bench_node_process: pct((node1.user + node1.system) / 1e6, seconds),
          simulator_process:
            simTicks0 === null || simTicks1 === null
              ? null
              : pct((simTicks1 - simTicks0) / clockTicksPerSecond(), seconds),
        },
      }
    },
  }
}

export async function runScenario(opts: ScenarioOptions): Promise<ScenarioResult> {
  const { kind, progress } = opts
  const cleanup: Array<() => Promise<unknown>> = []
  const notes: string[] = []
  try {
    const sim = await startSimProcess(1, opts.dialect)
    cleanup.push(() => sim.close())
    if (sim.dialect !== opts.dialect)
      throw new Error(`the simulator speaks ${sim.dialect}, not ${opts.dialect}`)
    const { engine, ctl } = await setUpEngine(sim, opts.logger)
    cleanup.push(() => engine.close())
    cleanup.push(async () => ctl.dispose())
    const host = await startWebHost({ monitor: engine, logger: opts.logger, rendererDir: opts.rendererDir })
    cleanup.push(() => host.close())
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
    cleanup.push(() => browser.close())
    opts.onBrowser?.(browser.version())

    let market: string
    let description: string
    if (kind === 'demo') {
      progress('demo: main window, expanding the first event')
      market = await openMainWindow(browser, host.url)
      description =
        `Demo load: the simulator as the demo runs it (${opts.dialect} dialect, seed 1, 100 ms steps, ` +
        '12 events × 4 markets; in its own process), no firehose. ' +
        `A main window (?view=main) with the first listed event expanded (its 4 markets stream quotes), and a ` +
        `market window (?view=market) on that event's first market, ${market}. Renderer = the market window's.`
    } else {
      market = firehoseId(0)
      description =
        `Firehose: ${opts.rate} msgs/s all on ${market} (firehose markets: 1; simulator in its own process, ` +
        `${opts.dialect} dialect), ` +
        `on top of the simulator's ` +
        `normal markets (unsubscribed, so unsent). Only the market window (?view=market&market=${market}) is open.`
      if (kind === 'watchlist-scroll')
        description =
          `Watchlist: ${WATCHLIST_MARKETS} firehose markets (fh-0001…) on one watchlist, the firehose at ` +
          `${opts.rate} msgs/s spread over all of them, but only the rows on screen are subscribed, so only their ` +
          `share reaches the engine. The main window (?view=main, default workspace, Watchlist tab shown) is ` +
          `open, and its watchlist is scrolled continuously (a rAF loop bouncing between its ends) through the window.`
      if (kind === 'tape-scroll')
        description +=
          ` Through the whole window the virtualised trade tape is scrolled continuously (a rAF loop moving its ` +
          `scrollTop, bouncing between its ends) while the firehose runs.`
    }
    const truth = await startTruth(sim.wsUrl, market, opts.dialect)
    cleanup.push(() => truth.close())

    const page = await browser.newPage({ viewport: VIEWPORT })
    await page.addInitScript(PROBE_INIT)
    const tap = tapBridge(page, market)
    const url = new URL(host.url)
    if (kind === 'watchlist-scroll') {
      const saved = await ctl.saveWatchlist({
        name: `Bench ${WATCHLIST_MARKETS}`,
        markets: Array.from({ length: WATCHLIST_MARKETS }, (_, i) => firehoseId(i)),
      })
      if (!saved.ok) throw new Error(`watchlist-scroll: ${saved.error.message}`)
      url.searchParams.set('view', 'main')
      progress(`${kind}: opening the main window's watchlist of ${WATCHLIST_MARKETS} markets`)
      await page.goto(url.toString())
      await page.locator('.dv-tab', { hasText: /^Watchlist$/ }).click({ timeout: 60_000 })
      await page.locator(WATCH_SCROLL.itemSelector).first().waitFor({ timeout: 60_000 })
    } else {
      url.searchParams.set('view', 'market')
      url.searchParams.set('market', market)
      progress(`${kind}: opening the market window on ${market}`)
      await page.goto(url.toString())
      await page.locator('[data-testid="orderbook"][data-state="live"]').waitFor({ timeout: 60_000 })
    }
    const renderer = await identifyRenderer(page)
    if (!renderer.identified)
      notes.push(
        `the page renderer could not be told apart by a ${SPIN_MS} ms CPU spin (CPU s gained per renderer: ` +
          `${renderer.gains.map((g) => `${g.pid}: ${g.s}`).join(', ')}); the busiest renderer is reported`,
      )

    if (kind !== 'demo') await sim.firehose(opts.rate, kind === 'watchlist-scroll' ? WATCHLIST_MARKETS : 1)
    if (kind === 'tape-scroll') {
      progress(`${kind}: waiting for the tape to hold ${TAPE_SCROLL_MIN_ROWS} rows`)
      await page.locator(TAPE_SCROLL.selector).first().waitFor({ timeout: 30_000 })
      // Polled with page.evaluate: waitForFunction evaluates a string with eval, which the page's CSP refuses.
      const tall =
        `(() => { const el = document.querySelector(${JSON.stringify(TAPE_SCROLL.selector)}); ` +
        `return !!el && el.scrollHeight >= ${TAPE_SCROLL_MIN_ROWS} * 18 })()`
      const until = Date.now() + 60_000
      while (!((await page.evaluate(tall)) as boolean)) {
        if (Date.now() > until) throw new Error(`the tape did not reach ${TAPE_SCROLL_MIN_ROWS} rows in 60 s`)
        await page.waitForTimeout(250)
      }
    }
    progress(`${kind}: warm-up ${opts.warmupSeconds} s, then measuring ${opts.seconds} s`)
    await page.waitForTimeout(opts.warmupSeconds * 1000)

    const counterFree = kind === 'demo' || kind === 'firehose'
    const traceCpu = opts.traceWindow !== 'counted' && counterFree
    let tracer: { stop: (file: string) => Promise<void> } | null = null
    let profiler: { stop: (file: string) => Promise<void> } | null = null
    const instrumentsWindow = traceCpu ? 'the CPU window' : 'the frame-counted window'
    const startInstruments = async (): Promise<void> => {
      profiler = opts.cpuProfile ? await startPageProfile(page) : null
      tracer = opts.trace ? await startPageTrace(browser, page) : null
    }
    const stopInstruments = async (): Promise<void> => {
      if (profiler !== null && opts.cpuProfile) {
        await profiler.stop(opts.cpuProfile)
        notes.push(
          `a DevTools CPU profile of the page ran through ${instrumentsWindow} (${opts.cpuProfile}): its figures include its cost`,
        )
      }
      if (tracer !== null && opts.trace) {
        await tracer.stop(opts.trace)
        notes.push(
          `a Chrome trace of the page ran through ${instrumentsWindow} (${opts.trace}): its figures include its cost`,
        )
      }
    }

    // ---- the CPU window, without the frame counter (demo, firehose: see ScenarioResult.cpu_window)
    let quiet: CpuReading | null = null
    if (counterFree) {
      progress(`${kind}: CPU window ${opts.seconds} s, no frame counter in the page`)
      if (traceCpu) await startInstruments()
      const meter = startCpuWindow(renderer, sim.pid)
      await new Promise((r) => setTimeout(r, opts.seconds * 1000))
      quiet = meter.stop()
      if (traceCpu) await stopInstruments()
      progress(`${kind}: frame-counted window ${opts.seconds} s (fps, frame to pixel)`)
    }

    // ---- the frame-counted window
    const frames0 = await engineFrames(ctl)
    const generated0 = await sim.generated()
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    const meter = startCpuWindow(renderer, sim.pid)
    const t0 = performance.now()
    const epoch0 = Date.now()
    if (!traceCpu) await startInstruments()
    const start = (await page.evaluate(PROBE_START)) as ProbeStart
    const scrolling =
      kind === 'tape-scroll'
        ? await startScrolling(page, TAPE_SCROLL)
        : kind === 'watchlist-scroll'
          ? await startScrolling(page, WATCH_SCROLL)
          : null
    await new Promise((r) => setTimeout(r, opts.seconds * 1000))
    const scroll = scrolling === null ? null : await scrolling.stop()
    const stop = (await page.evaluate(PROBE_STOP)) as ProbeStop
    const counted = meter.stop()
    loopDelay.disable()
    const frames1 = await engineFrames(ctl)
    const generated = (await sim.generated()) - generated0
    const seconds = (performance.now() - t0) / 1000
    const epoch1 = epoch0 + seconds * 1000
    // After the window: writing a trace takes seconds, which are no part of it.
    if (!traceCpu) await stopInstruments()
    // Late frames of the window (DevTools events, the ground truth's socket) are counted by their timestamps.
    await new Promise((r) => setTimeout(r, SETTLE_MS))
    const truthCounts = truth.counts(epoch0, epoch1)
    const pageCounts = tap.counts(epoch0, epoch1)
    if (kind !== 'demo') await sim.stopFirehose()

    if (start.observerError !== null) notes.push(`Element Timing observer failed: ${start.observerError}`)
    if (!start.supportedEntryTypes.includes('element'))
      notes.push('this Chromium does not list "element" in PerformanceObserver.supportedEntryTypes')

    const cpuSource = quiet ?? counted
    if (cpuSource.rendererExited || counted.rendererExited)
      notes.push('the page renderer exited during the window')
    const engineRate = (frames1 - frames0) / seconds
    // The watchlist subscribes only its visible rows, so the asked rate is not meant to arrive in full.
    const asked = kind === 'demo' || kind === 'watchlist-scroll' ? null : opts.rate
    const ratio = asked === null ? null : engineRate / asked
    const status = ratio !== null && ratio < DELIVERED_MIN_RATIO ? 'load_not_delivered' : 'ok'
    const f2p = frameToPixel(start, stop, market, tap, truth, pageCounts)
    if (kind === 'watchlist-scroll')
      notes.push(
        'the frame to pixel figures are not meaningful here: the watchlist shows tickers, which carry no ' +
          'Element Timing marks',
      )
    if (kind === 'tape-scroll')
      notes.push(
        "the tape's frame to pixel is not a latency here: with the tape scrolled, new trades are painted when " +
          'they are scrolled into view',
      )
    if (scroll !== null && scroll.blank_edge_samples > 0)
      notes.push(
        `the scrolled tape showed blank space at an edge in ${scroll.blank_edge_samples} of ${scroll.edge_samples} samples`,
      )
    if (opts.dialect === 'voxfi')
      notes.push(
        "VoxFi's frames carry no timestamp and no sequence: the tape's and the ladder's frame to pixel run from " +
          "the engine's receive time (TradeView.ts, BookView.updatedAt) to the paint, venue_to_engine is not " +
          'measured; verified_against_venue matches price, size and arrival within 1 s',
      )
    if (f2p.markers !== 'present')
      notes.push(
        f2p.markers === 'missing'
          ? 'no Element Timing markers painted (elementtiming="trade:<key>" / "book:<market>:<updatedAt>"): frame to pixel not measured'
          : `only some markers painted: ${f2p.tape.trades_painted} trade, ${f2p.ladder.books_painted} book`,
      )

    return {
      scenario: kind,
      dialect: opts.dialect,
      description,
      market,
      seconds: round(seconds, 2) ?? 0,
      load: {
        status,
        asked_msgs_per_sec: asked,
        engine_frames_per_sec: round(engineRate, 1) ?? 0,
        delivered_ratio: round(ratio, 3),
        sim_generated_msgs_per_sec: kind === 'demo' ? null : perSec(generated, seconds),
        market_msgs_per_sec: perSec(truthCounts.books + truthCounts.trades, seconds),
        market_trades_per_sec: perSec(truthCounts.trades, seconds),
        page_batches_per_sec: perSec(pageCounts.batches, seconds),
        page_trades_per_sec: perSec(pageCounts.trades, seconds),
        page_book_views_per_sec: perSec(pageCounts.books, seconds),
      },
      cpu_pct_of_one_core: cpuSource.figures,
      cpu_window: {
        frame_counter: quiet === null,
        seconds: round(cpuSource.seconds, 2) ?? 0,
        renderer_main_thread_busy: round(cpuSource.rendererThread?.busy ?? null, 3),
        renderer_main_thread_waiting_for_cpu: round(cpuSource.rendererThread?.waiting ?? null, 3),
      },
      cpu_pct_of_one_core_with_frame_counter: counted.figures,
      renderer_pid: cpuSource.rendererPid,
      renderer_identified: renderer.identified,
      contention: {
        renderer_main_thread_busy: round(counted.rendererThread?.busy ?? null, 3),
        renderer_main_thread_waiting_for_cpu: round(counted.rendererThread?.waiting ?? null, 3),
        bench_main_thread_busy: round(counted.bench?.busy ?? null, 3),
        bench_main_thread_waiting_for_cpu: round(counted.bench?.waiting ?? null, 3),
        bench_event_loop_delay_p99_ms: round(loopDelay.percentile(99) / 1e6, 1),
        bench_event_loop_delay_max_ms: round(loopDelay.max / 1e6, 1),
      },
      ...frameStats(stop.frames),
      scroll,
      frame_to_pixel: f2p,
      notes,
    }
  } finally {
    for (const close of cleanup.reverse()) {
      try {
        await close()
      } catch (e) {
        progress(`cleanup: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
  }
}
