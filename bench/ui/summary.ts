// The human summary of a UI benchmark run (stderr); the JSON line on stdout carries everything.
import type { Latency, ScenarioResult } from './scenario'

export interface Report {
  chromium: string
  dialect: string
  cores: number
  loadavg_before: number[]
  loadavg_after: number[]
  seconds: number
  scenarios: ScenarioResult[]
  notes: string[]
}

const f = (v: number | null, unit = ''): string => (v === null ? 'n/a' : `${v}${unit}`)

function lat(name: string, l: Latency, extra: string): string {
  if (l.n === 0) return `  ${name}: no painted markers matched (${extra})\n`
  return (
    `  ${name}: p50 ${f(l.p50_ms)} / p95 ${f(l.p95_ms)} / p99 ${f(l.p99_ms)} ms (max ${f(l.max_ms)}; n=${l.n}` +
    `${l.unmatched > 0 ? `, ${l.unmatched} unmatched` : ''}; ${extra})\n` +
    `      medians: venue→engine ${f(l.venue_to_engine_p50_ms)}, engine→batch ${f(l.engine_to_batch_p50_ms)},` +
    ` batch→paint ${f(l.batch_to_paint_p50_ms)}, paint→presentation ${f(l.paint_to_presentation_p50_ms)} ms\n` +
    `      slowest (total = [venue→engine +] engine→batch + batch→paint): ${l.slowest
      .map(
        (x) =>
          `${f(x.total_ms)} = ${f(x.engine_to_batch_ms)} + ${f(x.batch_to_paint_ms)} ` +
          `(paint→presentation ${f(x.paint_to_presentation_ms)})`,
      )
      .join('; ')} ms\n`
  )
}

export function summary(r: Report): string {
  let out =
    `\nUI benchmark — simulator in the ${r.dialect} dialect; Chromium ${r.chromium}, headless, software raster; ` +
    `${r.cores} cores; ` +
    `load avg ${r.loadavg_before.join(' ')} → ${r.loadavg_after.join(' ')}\n`
  for (const s of r.scenarios) {
    const l = s.load
    const c = s.cpu_pct_of_one_core
    out += `\n[${s.scenario}] ${s.description}\n`
    out +=
      l.asked_msgs_per_sec === null
        ? `  load: engine took ${l.engine_frames_per_sec} frames/s; the market ${l.market_msgs_per_sec} msgs/s ` +
          `(${l.market_trades_per_sec} trades/s)\n`
        : `  load: asked ${l.asked_msgs_per_sec} msgs/s, engine took ${l.engine_frames_per_sec} frames/s ` +
          `(${f(l.delivered_ratio === null ? null : Math.round(l.delivered_ratio * 1000) / 10, '%')}) → ` +
          `${l.status === 'ok' ? 'delivered' : 'LOAD NOT DELIVERED'} (simulator generated ` +
          `${f(l.sim_generated_msgs_per_sec)} msgs/s)\n`
    out +=
      `  page got ${l.page_batches_per_sec} batches/s carrying ${l.page_trades_per_sec} trades/s and ` +
      `${l.page_book_views_per_sec} book views/s\n`
    const w = s.cpu_window
    const k0 = s.cpu_pct_of_one_core_with_frame_counter
    out +=
      `  CPU (% of one core over ${w.seconds} s, ${w.frame_counter ? 'with' : 'without'} the bench's frame counter): ` +
      `page renderer ${f(c.renderer)}, all Chromium ${c.chromium_all} ` +
      `(browser ${c.browser}, GPU ${c.gpu}, utility ${c.utility}, zygotes ${c.zygote}, other renderers ` +
      `${c.other_renderers}); bench Node process ${c.bench_node_process}, simulator ${f(c.simulator_process)}\n`
    if (!w.frame_counter)
      out +=
        `  CPU with the frame counter (the window below, ${s.seconds} s): page renderer ${f(k0.renderer)}, ` +
        `all Chromium ${k0.chromium_all} (GPU ${k0.gpu})\n`
    const k = s.contention
    out +=
      `  main threads (share of the frame-counted window on a CPU / waiting for one): renderer ${f(k.renderer_main_thread_busy)} / ` +
      `${f(k.renderer_main_thread_waiting_for_cpu)}, bench ${f(k.bench_main_thread_busy)} / ` +
      `${f(k.bench_main_thread_waiting_for_cpu)}; bench event-loop delay p99 ${f(k.bench_event_loop_delay_p99_ms)} ms, ` +
      `max ${f(k.bench_event_loop_delay_max_ms)} ms\n`
    out +=
      `  frames: ${f(s.fps)} fps, ${s.frames_over_50ms} of ${s.frames} over 50 ms, p95 ${f(s.p95_frame_ms)} ms, ` +
      `longest ${f(s.longest_frame_ms)} ms\n`
    const sc = s.scroll
    if (sc !== null)
      out +=
        `  scrolling ${sc.selector} at ${sc.px_per_frame} px/frame: ${f(sc.fps)} fps, ${sc.frames_over_50ms} of ` +
        `${sc.frames} frames over 50 ms, p95 ${f(sc.p95_frame_ms)} ms, longest ${f(sc.longest_frame_ms)} ms; ` +
        `${sc.px_scrolled} px, ${sc.reversals} turns, list ${sc.scroll_height_px} px in a ${sc.client_height_px} px box, ` +
        `at most ${sc.rendered_items_max} rows in the DOM, blank edges ${sc.blank_edge_samples} of ${sc.edge_samples}\n`
    const p = s.frame_to_pixel
    const origin = p.origin === 'venue-ts' ? 'venue ts' : 'engine receive'
    out += `  frame to pixel (${origin} → ${p.paint_clock ?? 'paint'}; markers ${p.markers}):\n`
    out += lat(
      'tape  ',
      p.tape,
      `${p.tape.trades_painted} of ${p.tape.trades_delivered} delivered trades painted, ` +
        `${p.tape.verified_against_venue} checked against the venue`,
    )
    out += lat(
      'ladder',
      p.ladder,
      `${p.ladder.books_painted} of ${p.ladder.books_delivered} delivered book versions painted`,
    )
    for (const n of s.notes) out += `  note: ${n}\n`
  }
  for (const n of r.notes) out += `\nnote: ${n}\n`
  return out + '\n'
}
