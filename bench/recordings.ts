// Recordings benchmark (issue 28 §3, docs/recording.md "Limits"): hostile and ordinary recordings replayed through
// the engine (createMonitor, demo off, settings in memory, a throwaway recordings folder), in this process, with RSS
// sampled every 5 ms against the RSS just before each call (after a GC).
//   bomb      a gzip of a header and 201 MiB of tiny frame lines (13 M lines): startReplay refused (time, peak RSS)
//   normal    a recording of ~235 MiB of order-book-like frames (random prices and sizes, 1.35 M lines):
//             startReplay accepted (time, peak RSS, what the frames are held in), then a seek to its end and one
//             back to its middle: each until it lands, and the engine's longest event-loop stall meanwhile
//   listing   listRecordings() over a folder with the bomb, the normal recording and 20 small ones (median of 5)
//   longline  a plain file with a 17 MiB line 2, and one with a 17 MiB line 1 (the header): refused (time)
//   future    t = 1e12 refused; a replay whose next frame is 20 days on (jumped over), and one waiting 9 minutes
//             for its next frame: CPU used over 1 s, TimeoutOverflowWarnings, the status's `skipped`
//   npm run bench:recordings [-- --keep] [-- --only normal,listing] [-- --tsx | --src DIR]
//     --only: just these phases. By default the bench bundles itself with the engine by esbuild, as the app's build
//     bundles its main process, and runs that with node (bench/lib/bundle.ts): the figures are the shipped code's.
//     --tsx runs it in place under tsx instead (slower hot paths: tsx's module wrappers). --src DIR bundles it
//     against another checkout's src (e.g. /work/wt-base/src, for a "before" figure from the same bench code).
//     BENCH_NODE_FLAGS (space-separated) adds node flags to the bundled run (e.g. --cpu-prof).
// Prints one line per figure (what it includes) and a JSON summary last. Exit 3 when a phase did not deliver the
// load it names (e.g. the bomb is not 201 MiB decompressed), 1 on an error. Targets are reported, not asserted.
import { once } from 'node:events'
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { createGzip, gzipSync } from 'node:zlib'
import {
  createMemoryStore,
  createMonitor,
  type Logger,
  type MonitorClient,
  type MonitorEngine,
} from '../src/main/services'
import type { ReplayStatus, Result } from '../src/shared/model'
import { buildLabel, runSelfBundled } from './lib/bundle'

const MIB = 1024 * 1024
const keep = process.argv.includes('--keep')
const onlyAt = process.argv.indexOf('--only')
const only = onlyAt >= 0 ? new Set((process.argv[onlyAt + 1] ?? '').split(',')) : null
/** The recordings folder (made once this run is the one that measures). */
let dir = ''
const summary: Record<string, unknown> = {}
let shortfall = false
/** What the engine logged when a replay started (the frames held). */
let started: Record<string, unknown> = {}
const logger: Logger = {
  info: (message, fields) => {
    if (message === 'replay: started' && fields) started = fields
  },
  warn: () => {},
  error: () => {},
}
let engine: MonitorEngine
let client: MonitorClient

const header = (name: string): string =>
  JSON.stringify({
    format: 'trading-monitor-recording',
    version: 1,
    profile: { id: 'p1', name },
    startedAt: '2026-11-23T04:31:00.000Z',
  })

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc
  if (g) {
    g()
    g()
  }
}

/** Runs `fn`, sampling RSS every 5 ms; the peak is above the RSS just before (after a GC when exposed). */
async function measure<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakMb: number }> {
  gc()
  const base = process.memoryUsage.rss()
  let peak = base
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 5)
  const t0 = performance.now()
  const value = await fn()
  const ms = performance.now() - t0
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage.rss())
  return { value, ms: Math.round(ms), peakMb: Math.round((peak - base) / MIB) }
}

/** Writes a gzip recording from pieces; returns the decompressed bytes and lines written. */
async function writeGzip(
  path: string,
  level: number,
  pieces: () => Generator<string | Buffer>,
): Promise<{ raw: number; lines: number }> {
  const gzip = createGzip({ level })
  const out = gzip.pipe(createWriteStream(path))
  let raw = 0
  let lines = 0
  for (const piece of pieces()) {
    const buf = typeof piece === 'string' ? Buffer.from(piece) : piece
    raw += buf.length
    for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) lines += 1
    if (!gzip.write(buf)) await once(gzip, 'drain')
  }
  gzip.end()
  await once(out, 'finish')
  return { raw, lines }
}

/** How often the stall probe's timer asks to run. */
const PROBE_MS = 5

/**
 * The engine's longest event-loop stall (ms) while `fn` runs (the engine runs in this process): a timer asked to
 * run every PROBE_MS, and the longest it waited past that. It waits for one more tick after `fn`, so a stall that
 * lasts until `fn` answers (a synchronous seek) is counted too.
 */
async function stalls<T>(fn: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now()
  let longest = 0
  const probe = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last - PROBE_MS)
    last = now
  }, PROBE_MS)
  const value = await fn()
  await new Promise((tick) => setTimeout(tick, PROBE_MS * 2))
  clearInterval(probe)
  return { value, stallMs: Math.round(longest) }
}

function report(name: string, figure: string, includes: string): void {
  console.log(`${name.padEnd(9)} ${figure.padEnd(34)} ${includes}`)
}

function outcome(r: Result<ReplayStatus>): string {
  return r.ok ? `accepted, ${String(started.frames)} frames` : `refused: ${r.error.message}`
}

/** startReplay of a file in the folder (speed 50, so an accepted one ends soon). */
function replay(file: string, speed = 50): Promise<Result<ReplayStatus>> {
  return client.startReplay({ file, speed })
}

async function stop(): Promise<void> {
  await client.stopReplay()
}

async function bomb(): Promise<string> {
  const path = join(dir, 'rec-2026-11-23T05-00-00Z-bomb.jsonl.gz')
  const tiny = `${JSON.stringify({ t: 0, f: 'x' })}\n`
  const piece = Buffer.alloc(MIB - (MIB % tiny.length), tiny)
  const load = await writeGzip(path, 9, function* () {
    yield `${header('bomb')}\n`
    for (let i = 0; i < 201; i++) yield piece
  })
  const bytes = statSync(path).size
  const delivered = load.raw >= 200 * MIB && load.lines > 12_000_000
  shortfall ||= !delivered
  report(
    'bomb',
    `${(bytes / 1024).toFixed(0)} KiB → ${(load.raw / MIB).toFixed(1)} MiB`,
    `${load.lines} lines (load ${delivered ? 'delivered' : 'NOT delivered'})`,
  )
  const m = await measure(() => replay(basename(path)))
  report('bomb', `${m.ms} ms, peak +${m.peakMb} MB RSS`, `startReplay to its answer: ${outcome(m.value)}`)
  summary.bomb = {
    fileKiB: Math.round(bytes / 1024),
    rawMiB: load.raw / MIB,
    lines: load.lines,
    ms: m.ms,
    peakMb: m.peakMb,
    refused: !m.value.ok,
  }
  return path
}

function* bookFrames(count: number): Generator<string> {
  let seed = 7
  const rand = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  let t = 0
  let chunk: string[] = []
  for (let i = 0; i < count; i++) {
    t += Math.floor(rand() * 30)
    const market = `VX-${Math.floor(rand() * 20)}-26NOV23`
    const f = JSON.stringify({
      channel: 'market',
      type: rand() < 0.8 ? 'orderbook_delta' : 'trade',
      market,
      seq: i,
      price: Math.round(rand() * 100) / 100,
      size: Math.floor(rand() * 5_000),
      side: rand() < 0.5 ? 'yes' : 'no',
      ts: 1_795_000_000_000 + t,
    })
    chunk.push(JSON.stringify({ t, f }))
    if (chunk.length === 4_096) {
      yield `${chunk.join('\n')}\n`
      chunk = []
    }
  }
  if (chunk.length > 0) yield `${chunk.join('\n')}\n`
}

async function normal(): Promise<string> {
  const path = join(dir, 'rec-2026-11-23T04-00-00Z-normal.jsonl.gz')
  const count = 1_350_000
  const load = await writeGzip(path, 6, function* () {
    yield `${header('normal')}\n`
    yield* bookFrames(count)
  })
  const bytes = statSync(path).size
  const delivered = load.raw > 200 * MIB && load.lines === count + 1
  shortfall ||= !delivered
  report(
    'normal',
    `${(bytes / MIB).toFixed(1)} MiB → ${(load.raw / MIB).toFixed(1)} MiB`,
    `${load.lines} lines, ratio ${(load.raw / bytes).toFixed(1)}:1 (load ${delivered ? 'delivered' : 'NOT delivered'})`,
  )
  const m = await measure(() => replay(basename(path), 1))
  report('normal', `${m.ms} ms, peak +${m.peakMb} MB RSS`, `startReplay to its answer: ${outcome(m.value)}`)
  if (!m.value.ok || started.frames !== count) shortfall = true
  if (m.value.ok) {
    const held = Number(started.heldBytes) / MIB
    report(
      'normal',
      `${held.toFixed(1)} MiB held`,
      'the frames as the replay holds them (times, offsets, deflated text)',
    )
    const durationMs = m.value.value.durationMs
    const seek = async (label: string, seekMs: number) => {
      // CPU time as well as wall time: on a machine shared by several runs, the wall time mostly says how long the
      // process waited for a core.
      const cpu0 = process.cpuUsage()
      const s = await measure(() => stalls(() => client.controlReplay({ seekMs })))
      const cpu = process.cpuUsage(cpu0)
      const cpuMs = Math.round((cpu.user + cpu.system) / 1_000)
      const landed = s.value.value
      report(
        'normal',
        `${s.ms} ms (CPU ${cpuMs} ms), longest stall ${s.value.stallMs} ms`,
        `a seek ${label} (${landed.ok ? landed.value.positionMs : 'failed'} ms) through ${count} frames ` +
          `of the recording, until it lands (peak +${s.peakMb} MB RSS; CPU: this process, user and system)`,
      )
      return { ms: s.ms, cpuMs, stallMs: s.value.stallMs, peakMb: s.peakMb }
    }
    const toEnd = await seek('to the end', durationMs)
    const back = await seek('back to the middle', Math.round(durationMs / 2))
    await stop()
    summary.normal = {
      fileMiB: bytes / MIB,
      rawMiB: load.raw / MIB,
      lines: load.lines,
      frames: started.frames,
      ms: m.ms,
      peakMb: m.peakMb,
      heldMiB: held,
      seekMs: toEnd.ms,
      seekCpuMs: toEnd.cpuMs,
      seekStallMs: toEnd.stallMs,
      seekPeakMb: toEnd.peakMb,
      seekBackMs: back.ms,
      seekBackCpuMs: back.cpuMs,
      seekBackStallMs: back.stallMs,
    }
  }
  return path
}

async function listing(): Promise<void> {
  for (let i = 0; i < 20; i++)
    writeFileSync(
      join(dir, `rec-2026-11-22T${String(i).padStart(2, '0')}-00-00Z-small.jsonl.gz`),
      gzipSync(`${header(`small ${i}`)}\n${JSON.stringify({ t: 0, f: 'x' })}\n`),
    )
  const times: number[] = []
  let peak = 0
  let rows = 0
  for (let i = 0; i < 5; i++) {
    const m = await measure(() => client.listRecordings())
    times.push(m.ms)
    peak = Math.max(peak, m.peakMb)
    rows = m.value.ok ? m.value.value.filter((r) => r.profileName !== null).length : 0
  }
  if (rows !== 22) shortfall = true
  const median = [...times].sort((a, b) => a - b)[2] as number
  report(
    'listing',
    `${median} ms median, peak +${peak} MB RSS`,
    `listRecordings of 22 files, the bomb among them (${rows} with header facts; runs ${times.join(', ')} ms)`,
  )
  summary.listing = { medianMs: median, runsMs: times, peakMb: peak, rows }
}

async function longLine(): Promise<void> {
  const long = JSON.stringify({ t: 0, f: 'y'.repeat(17 * MIB) })
  for (const [label, text] of [
    ['line 2', `${header('long')}\n${long}\n`],
    ['line 1 (header)', `${long}\n`],
  ] as const) {
    const path = join(dir, 'long.jsonl')
    writeFileSync(path, text)
    const size = statSync(path).size
    if (size < 17 * MIB) shortfall = true
    const m = await measure(() => replay('long.jsonl'))
    report(
      'longline',
      `${m.ms} ms, peak +${m.peakMb} MB RSS`,
      `a ${(size / MIB).toFixed(1)} MiB file, 17 MiB ${label}: ${outcome(m.value)}`,
    )
    summary[`longLine ${label}`] = { ms: m.ms, peakMb: m.peakMb, refused: !m.value.ok }
  }
}

async function future(): Promise<void> {
  const warnings: string[] = []
  process.on('warning', (w) => warnings.push(w.name))
  const line = (t: number): string => JSON.stringify({ t, f: 'x' })
  writeFileSync(join(dir, 'future.jsonl'), `${header('future')}\n${line(0)}\n${line(1e12)}\n`)
  const refused = await replay('future.jsonl')
  report('future', refused.ok ? 'accepted' : 'refused', `t = 1e12: ${outcome(refused)}`)
  if (refused.ok) await stop()
  for (const [label, last] of [
    ['20-day gap', 20 * 24 * 3600 * 1000],
    ['9-min wait', 9 * 60_000],
  ] as const) {
    const file = `gap-${last}.jsonl`
    writeFileSync(join(dir, file), `${header('gap')}\n${line(0)}\n${line(last)}\n`)
    const r = await replay(file, 1)
    if (!r.ok) throw new Error(r.error.message)
    const cpu0 = process.cpuUsage()
    await new Promise((done) => setTimeout(done, 1_000))
    const cpu = process.cpuUsage(cpu0)
    const cpuPct = ((cpu.user + cpu.system) / 1e6) * 100
    const status = await client.getStatus()
    const replayed = status.ok ? status.value.replay : undefined
    await stop()
    report(
      'future',
      `CPU ${cpuPct.toFixed(1)}% over 1 s`,
      `${label}: the engine replaying (${replayed?.state ?? '?'}, skipped ${JSON.stringify(replayed?.skipped ?? null)}), ${warnings.length} TimeoutOverflowWarnings`,
    )
    summary[label] = {
      cpuPct,
      state: replayed?.state,
      skipped: replayed?.skipped ?? null,
      warnings: warnings.length,
    }
  }
}

async function main(): Promise<void> {
  const code = await runSelfBundled(process.argv[1] as string, process.argv.slice(2), ['--expose-gc'])
  if (code !== null) process.exit(code)
  console.log(`bench:recordings: ${buildLabel()}`)
  dir = mkdtempSync(join(tmpdir(), 'tm-bench-rec-'))
  engine = await createMonitor({
    settingsPath: null,
    recordingsDir: dir,
    credentials: createMemoryStore(),
    demo: false,
    logger,
  })
  client = engine.attachClient({ label: 'bench', sink: () => {} })
  try {
    const phases: Array<[string, () => Promise<unknown>]> = [
      ['bomb', bomb],
      ['normal', normal],
      ['listing', listing],
      ['longline', longLine],
      ['future', future],
    ]
    for (const [name, run] of phases) if (only === null || only.has(name)) await run()
  } finally {
    await engine.close()
    if (!keep) rmSync(dir, { recursive: true, force: true })
  }
  console.log(JSON.stringify(summary))
  if (shortfall) {
    console.error('bench:recordings: a phase did not deliver the load it names')
    process.exit(3)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
