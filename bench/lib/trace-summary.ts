// `npx tsx bench/lib/trace-summary.ts FILE.json [--top N] [--url TEXT]`: where a page's renderer spent its time in
// a Chrome trace (from `bench:ui --trace`, or DevTools' Performance panel): per thread of the page's renderer
// process, the time busy in top-level tasks; on its main thread, self and inclusive time per event name (style,
// layout, paint, compositing, script), grouped, with what the style, layout and paint events say they touched
// (elements restyled, layout objects dirty and in all, where layouts were rooted, which layers were repainted),
// and script tasks by function. The page's process is the one whose frame's URL contains --url (default
// "view=market"), else the busiest renderer main thread. Painted nodes are named when the trace has bench:ui's
// `bench_node` metadata events.
import { readFileSync } from 'node:fs'

interface TraceEvent {
  name: string
  cat?: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: Record<string, unknown>
}

function events(parsed: unknown): TraceEvent[] {
  const list = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'object' &&
        parsed !== null &&
        Array.isArray((parsed as { traceEvents?: unknown }).traceEvents)
      ? (parsed as { traceEvents: unknown[] }).traceEvents
      : null
  if (list === null) throw new Error('not a Chrome trace (no traceEvents)')
  return list.filter(
    (e): e is TraceEvent =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as TraceEvent).name === 'string' &&
      typeof (e as TraceEvent).ph === 'string',
  )
}

/** An event with a duration on one thread (complete events, and begin/end pairs matched). */
interface Span {
  name: string
  start: number
  end: number
  args: Record<string, unknown>
  endArgs: Record<string, unknown>
}

function spansByThread(all: TraceEvent[]): Map<string, Span[]> {
  const out = new Map<string, Span[]>()
  const open = new Map<string, TraceEvent[]>()
  const push = (key: string, s: Span) => {
    let l = out.get(key)
    if (!l) out.set(key, (l = []))
    l.push(s)
  }
  for (const e of all) {
    const key = `${e.pid}:${e.tid}`
    if (e.ph === 'X' && typeof e.dur === 'number') {
      push(key, { name: e.name, start: e.ts, end: e.ts + e.dur, args: e.args ?? {}, endArgs: {} })
    } else if (e.ph === 'B') {
      let st = open.get(key)
      if (!st) open.set(key, (st = []))
      st.push(e)
    } else if (e.ph === 'E') {
      const st = open.get(key)
      // An E closes the innermost B of the same name (they nest).
      let i = st ? st.length - 1 : -1
      while (st && i >= 0 && (st[i] as TraceEvent).name !== e.name) i--
      if (st && i >= 0) {
        const b = st.splice(i, 1)[0] as TraceEvent
        push(key, { name: b.name, start: b.ts, end: e.ts, args: b.args ?? {}, endArgs: e.args ?? {} })
      }
    }
  }
  for (const l of out.values()) l.sort((a, b) => a.start - b.start || b.end - a.end)
  return out
}

/** Self time per name (a span's time minus that of the spans nested in it), inclusive time, counts, busy time. */
function attribute(spans: Span[], onSelf?: (s: Span, selfUs: number) => void) {
  const self = new Map<string, number>()
  const incl = new Map<string, number>()
  const count = new Map<string, number>()
  const stack: Array<{ s: Span; child: number }> = []
  let busy = 0
  const close = (upTo: number) => {
    while (stack.length > 0 && (stack[stack.length - 1] as { s: Span }).s.end <= upTo) {
      const top = stack.pop() as { s: Span; child: number }
      const d = top.s.end - top.s.start
      self.set(top.s.name, (self.get(top.s.name) ?? 0) + Math.max(0, d - top.child))
      onSelf?.(top.s, Math.max(0, d - top.child))
      const parent = stack[stack.length - 1]
      if (parent) parent.child += d
      else busy += d
    }
  }
  for (const s of spans) {
    close(s.start)
    // A span that overlaps its parent's end without nesting (clock rounding) is cut at the parent's end.
    const parent = stack[stack.length - 1]
    const cut = parent && s.end > parent.s.end ? { ...s, end: parent.s.end } : s
    stack.push({ s: cut, child: 0 })
    // Inclusive time counts a name once per nesting (a recursive name is not double-counted).
    if (!stack.slice(0, -1).some((f) => f.s.name === s.name))
      incl.set(s.name, (incl.get(s.name) ?? 0) + (cut.end - cut.start))
    count.set(s.name, (count.get(s.name) ?? 0) + 1)
  }
  close(Infinity)
  return { self, incl, count, busy }
}

const GROUPS: Array<[string, RegExp]> = [
  [
    'style',
    /^(UpdateLayoutTree|RecalculateStyles|ScheduleStyleRecalculation|InvalidateLayout|StyleInvalidator)/,
  ],
  [
    'layout',
    /^(Layout|UpdateLayout|IntersectionObserverController|ResizeObserverController|ComputeIntersections)/,
  ],
  ['paint', /^(PrePaint|Paint|PaintImage|RasterTask|Decode|PaintSetup)$/],
  [
    'compositing',
    /^(Layerize|UpdateLayer|UpdateLayerTree|Commit|CompositeLayers|UpdateLayerTree|BeginMainThreadFrame|ScrollLayer|ProxyMain::BeginMainFrame.*|LocalFrameView::RunPostLifecycleSteps)/,
  ],
  [
    'script',
    /^(FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|MajorGC|MinorGC|BlinkGC|ParseHTML|CompileScript|XHR|WebSocket|HandlePostMessage|GCEvent|FireIdleCallback|ThreadState)/,
  ],
]

function groupOf(name: string): string {
  for (const [g, re] of GROUPS) if (re.test(name)) return g
  return 'other'
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

function main(): void {
  const file = process.argv[2]
  if (file === undefined) {
    process.stderr.write('usage: trace-summary FILE.json [--top N] [--url TEXT]\n')
    process.exit(2)
  }
  const opt = (name: string) => {
    const i = process.argv.indexOf(`--${name}`)
    return i >= 0 ? process.argv[i + 1] : undefined
  }
  const top = Number(opt('top')) || 30
  const urlPart = opt('url') ?? 'view=market'
  const all = events(JSON.parse(readFileSync(file, 'utf8')) as unknown)

  const threadName = new Map<string, string>()
  for (const e of all)
    if (e.ph === 'M' && e.name === 'thread_name')
      threadName.set(`${e.pid}:${e.tid}`, String((e.args as { name?: unknown } | undefined)?.name ?? ''))
  const spans = spansByThread(all)
  // Added by bench:ui --trace: what each painted node is.
  const nodeName = new Map<number, string>()
  for (const e of all)
    if (e.ph === 'M' && e.name === 'bench_node') {
      const a = e.args as { nodeId?: unknown; node?: unknown } | undefined
      if (typeof a?.nodeId === 'number' && typeof a.node === 'string') nodeName.set(a.nodeId, a.node)
    }

  // The page's process: from the frames the trace says it started with, else the busiest renderer main thread.
  let pid: number | null = null
  for (const e of all) {
    if (e.name !== 'TracingStartedInBrowser') continue
    const frames = ((e.args?.data as { frames?: unknown[] } | undefined)?.frames ?? []) as Array<{
      url?: string
      processId?: number
    }>
    const f = frames.find((x) => typeof x.url === 'string' && x.url.includes(urlPart))
    if (f && typeof f.processId === 'number') pid = f.processId
  }
  const mains = [...threadName].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k)
  if (pid === null || !mains.some((k) => k.startsWith(`${pid}:`))) {
    let best = -1
    for (const k of mains) {
      const b = attribute(spans.get(k) ?? []).busy
      if (b > best) {
        best = b
        pid = Number(k.split(':')[0])
      }
    }
  }
  if (pid === null) throw new Error('no renderer main thread in the trace')
  const mainKey = mains.find((k) => k.startsWith(`${pid}:`)) as string
  const mainSpans = spans.get(mainKey) ?? []
  const t0 = Math.min(...mainSpans.map((s) => s.start))
  const t1 = Math.max(...mainSpans.map((s) => s.end))
  const windowUs = Math.max(1, t1 - t0)
  const sec = windowUs / 1e6
  const out: string[] = []
  const ms = (us: number) => (us / 1000).toFixed(0).padStart(7)
  const pct = (us: number) => `${((100 * us) / windowUs).toFixed(1).padStart(5)}%`
  out.push(`renderer pid ${pid}, ${sec.toFixed(2)} s of main-thread events`)

  out.push('', 'threads of the page renderer (busy in top-level events, % of the window):')
  for (const [k, l] of spans) {
    if (!k.startsWith(`${pid}:`)) continue
    const a = attribute(l)
    if (a.busy < 1000) continue
    out.push(`  ${pct(a.busy)}  ${ms(a.busy)} ms  ${threadName.get(k) ?? k}`)
  }

  // Per painted node, and per script function, their self time.
  const paintSelf = new Map<unknown, number>()
  const fnSelf = new Map<string, { us: number; n: number }>()
  const a = attribute(mainSpans, (s, us) => {
    if (s.name === 'Paint') {
      const id = (s.args.data as { nodeId?: unknown } | undefined)?.nodeId
      paintSelf.set(id, (paintSelf.get(id) ?? 0) + us)
    } else if (
      s.name === 'FunctionCall' ||
      s.name === 'TimerFire' ||
      s.name === 'FireAnimationFrame' ||
      s.name === 'EventDispatch'
    ) {
      const d = (s.args.data ?? {}) as {
        functionName?: unknown
        url?: unknown
        lineNumber?: unknown
        type?: unknown
      }
      const url = typeof d.url === 'string' ? d.url.replace(/^.*\/(assets|src)\//, '$1/') : ''
      const key = `${s.name} ${typeof d.type === 'string' ? d.type : ''}${typeof d.functionName === 'string' && d.functionName ? ` ${d.functionName}` : ''}${url ? ` ${url}:${String(d.lineNumber ?? '')}` : ''}`
      const f = fnSelf.get(key) ?? { us: 0, n: 0 }
      f.us += us
      f.n++
      fnSelf.set(key, f)
    }
  })
  out.push(
    '',
    `main thread: busy ${pct(a.busy)} (${ms(a.busy).trim()} ms); self time by group (% of the window):`,
  )
  const groups = new Map<string, number>()
  for (const [n, us] of a.self) groups.set(groupOf(n), (groups.get(groupOf(n)) ?? 0) + us)
  for (const [g, us] of [...groups].sort((x, y) => y[1] - x[1])) out.push(`  ${pct(us)}  ${ms(us)} ms  ${g}`)

  out.push('', `main thread: top ${top} events by self time (% of the window, ms, count/s, inclusive ms):`)
  for (const [n, us] of [...a.self].sort((x, y) => y[1] - x[1]).slice(0, top)) {
    const c = a.count.get(n) ?? 0
    out.push(
      `  ${pct(us)}  ${ms(us)} ms  ${(c / sec).toFixed(1).padStart(7)}/s  incl ${ms(a.incl.get(n) ?? 0)} ms  ${n}`,
    )
  }

  // What the lifecycle events say they touched.
  let styleN = 0
  let styleEls = 0
  let layoutN = 0
  let dirty = 0
  let totalObjs = 0
  let paintN = 0
  let paintArea = 0
  const paintByNode = new Map<string, { n: number; area: number; us: number }>()
  // Where layouts started: a relayout boundary (a contained pane, row or cell), or the document.
  const layoutRoots = new Map<string, { n: number; us: number; dirty: number }>()
  for (const s of mainSpans) {
    if (s.name === 'UpdateLayoutTree' || s.name === 'RecalculateStyles') {
      styleN++
      styleEls += num(s.args.elementCount) || num((s.endArgs as { elementCount?: unknown }).elementCount)
    } else if (s.name === 'Layout') {
      layoutN++
      const b = (s.args.beginData ?? {}) as { dirtyObjects?: unknown; totalObjects?: unknown }
      dirty += num(b.dirtyObjects)
      totalObjs += num(b.totalObjects)
      // Complete events carry endData in their args, begin/end pairs in the end event's.
      const endData = (s.args.endData ?? s.endArgs.endData ?? {}) as { layoutRoots?: unknown }
      const roots = (Array.isArray(endData.layoutRoots) ? endData.layoutRoots : []) as Array<{
        nodeName?: unknown
      }>
      const names = [
        ...new Set(roots.map((r) => String(r.nodeName ?? '?').replace(/ id='[^']*'/, ''))),
      ].sort()
      const key =
        names.length === 0 ? '(none)' : `${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}`
      const r = layoutRoots.get(key) ?? { n: 0, us: 0, dirty: 0 }
      r.n++
      r.us += s.end - s.start
      r.dirty += num(b.dirtyObjects)
      layoutRoots.set(key, r)
    } else if (s.name === 'Paint') {
      paintN++
      const d = (s.args.data ?? {}) as { clip?: unknown; nodeId?: unknown; layerId?: unknown }
      const c = Array.isArray(d.clip) ? (d.clip as number[]) : []
      let area = 0
      if (c.length === 8) {
        // An unbounded cull rect (a scrolled layer's) is clamped to 10,000 px either way.
        const clamp = (v: unknown) => Math.max(-1e4, Math.min(1e4, num(v)))
        const xs = [c[0], c[2], c[4], c[6]].map(clamp)
        const ys = [c[1], c[3], c[5], c[7]].map(clamp)
        area = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys))
      }
      paintArea += area
      const key = `node ${String(d.nodeId ?? '?')} ${typeof d.nodeId === 'number' ? (nodeName.get(d.nodeId) ?? '') : ''}`
      const p = paintByNode.get(key) ?? { n: 0, area: 0, us: 0 }
      p.n++
      p.area += area
      if (!paintByNode.has(key)) p.us = paintSelf.get(d.nodeId) ?? 0
      paintByNode.set(key, p)
    }
  }
  out.push(
    '',
    `style recalcs: ${(styleN / sec).toFixed(1)}/s, ${styleN ? (styleEls / styleN).toFixed(1) : 0} elements each`,
    `layouts: ${(layoutN / sec).toFixed(1)}/s, ${layoutN ? (dirty / layoutN).toFixed(1) : 0} dirty of ${layoutN ? (totalObjs / layoutN).toFixed(0) : 0} objects each`,
    `paints: ${(paintN / sec).toFixed(1)}/s, ${paintN ? (paintArea / paintN / 1000).toFixed(1) : 0} k px² each`,
  )
  out.splice(out.length - 1, 0, '  layout roots (layouts/s, % of the window, dirty objects each):')
  for (const [k, r] of [...layoutRoots].sort((x, y) => y[1].us - x[1].us).slice(0, 6))
    out.splice(
      out.length - 1,
      0,
      `    ${(r.n / sec).toFixed(1).padStart(6)}/s  ${pct(r.us)}  ${(r.dirty / r.n).toFixed(0).padStart(5)}  ${k.slice(0, 140)}`,
    )
  const nodes = [...paintByNode].sort((x, y) => y[1].us - x[1].us).slice(0, 10)
  if (nodes.length > 0) {
    // A Paint event is the paint walk of a node's paint layer, and its clip the cull rect it walked, not what was
    // repainted or rasterised: the #document's is every frame's walk from the root, over the whole viewport.
    out.push(
      '  Paint events by node, by self time (% of the window, paints/s, cull rect walked, not repainted):',
    )
    for (const [k, p] of nodes)
      out.push(
        `    ${pct(p.us)}  ${(p.n / sec).toFixed(1).padStart(6)}/s  ${(p.area / p.n / 1000).toFixed(1).padStart(7)} k px² each  ${k}`,
      )
  }
  // With bench:ui's invalidation-tracking trace (BENCH_TRACE_EXTRA): what asked for layouts, and where it sits.
  const layoutNode = new Map<number, string>()
  for (const e of all)
    if (e.ph === 'M' && e.name === 'bench_layout_node') {
      const la = e.args as { nodeId?: unknown; node?: unknown } | undefined
      if (typeof la?.nodeId === 'number' && typeof la.node === 'string') layoutNode.set(la.nodeId, la.node)
    }
  const dirtiedBy = new Map<string, number>()
  for (const e of all) {
    if (e.pid !== pid || e.name !== 'LayoutInvalidationTracking') continue
    const d = e.args?.data as { nodeId?: unknown; reason?: unknown } | undefined
    const where = typeof d?.nodeId === 'number' ? (layoutNode.get(d.nodeId) ?? 'a node gone since') : '?'
    const k = `${String(d?.reason ?? '?')}: ${where}`
    dirtiedBy.set(k, (dirtiedBy.get(k) ?? 0) + 1)
  }
  if (dirtiedBy.size > 0) {
    out.push('  layout invalidations (per second, reason: node … its pane):')
    for (const [k, n] of [...dirtiedBy].sort((x, y) => y[1] - x[1]).slice(0, 16))
      out.push(`    ${(n / sec).toFixed(1).padStart(6)}/s  ${k.slice(0, 160)}`)
  }
  out.push('', `script tasks by self time (top ${Math.min(top, fnSelf.size)}; % of the window, count/s):`)
  for (const [k, f] of [...fnSelf].sort((x, y) => y[1].us - x[1].us).slice(0, top))
    out.push(`  ${pct(f.us)}  ${(f.n / sec).toFixed(1).padStart(7)}/s  ${k}`)
  process.stdout.write(`${out.join('\n')}\n`)
}

main()
