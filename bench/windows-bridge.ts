// `npm run bench:windows -- --bridge [--seconds N] [--rate R] [--pages P] [--cpu-prof DIR]`: the windows bench
// through the browser host's bridge. The engine and the browser host run in their own process
// (bench/lib/host-child.ts, as `npm run web` runs them), the simulator in another (bench/lib/sim-child.ts), and
// this process drives P real pages (default 16) in the system Chromium with Playwright. Each page is the app's
// main window (?view=main, default workspace, Watchlist tab shown) on its own watchlist of 25 firehose markets,
// all on screen, so each page subscribes exactly its 25 (400 in all); the simulator offers R msgs/s (default
// 20,000) open loop over the 400. See bench/README.md, "Many windows".
import { chromium, type Browser, type Page } from '@playwright/test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from '../src/main/services'
import { ensureRendererBuilt } from '../src/main/web/build'
import { firehoseId } from '../src/sim/firehose'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/e2e/chromium.mjs'
import { PAGE_PROBE_INIT, PAGE_PROBE_START, PAGE_PROBE_STOP, type PageWindow } from './lib/bridge-page-probe'
import type { ThreadTime } from './lib/cpu'
import { spawnLineChild, type LineReply } from './lib/line-child'
import { spawnSimChild } from './lib/sim-control'
import { describeStall, type StallReport } from './lib/stall-meter'
import { round, SampleSet } from './lib/stats'
import { chromiumProcesses, clockTicksPerSecond, cpuDelta, processTicks } from './ui/procs'

export interface BridgeOptions {
  pages: number
  perPage: number
  rate: number
  seconds: number
  starvedMs: number
  /** Write a V8 CPU profile of the host process (engine + bridge) here. */
  cpuProfDir: string | null
  /**
   * The nice value of the host process and of the simulator (which stands in for a venue on another machine),
   * null = left as started (0). Chromium run as root raises its browser, IO and compositor threads to nice -8,
   * above the engine; -8 puts the engine on the same footing, to tell the two apart.
   */
  hostNice: number | null
}

const TRICKLE = 400
const WARMUP_S = 2
const OPEN_AT_ONCE = 4
/** Tall enough for the default workspace's watchlist pane to show 25 rows, so all 25 are subscribed. */
const VIEWPORT = { width: 1200, height: 1300 }

interface HostReply extends LineReply {
  url?: string
  watchlist?: string
  state?: string
  frames?: number
  stalls?: StallReport
  cpuSeconds?: number
  wallSeconds?: number
  thread?: ThreadTime | null
}

/** Opens the main window on one watchlist and waits until every one of its markets is a row on screen. */
async function openPage(browser: Browser, url: string, watchlist: string, markets: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT })
  await page.addInitScript(PAGE_PROBE_INIT)
  const u = new URL(url)
  u.searchParams.set('view', 'main')
  await page.goto(u.toString(), { timeout: 120_000 })
  await page.locator('.dv-tab', { hasText: /^Watchlist$/ }).click({ timeout: 120_000 })
  await page.getByTestId('watchlist-select').selectOption(watchlist, { timeout: 120_000 })
  const want = new Set(markets)
  const until = Date.now() + 120_000
  for (;;) {
    const shown = await page
      .locator('[data-testid="watchlist-row"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-market')))
    if (shown.length === want.size && shown.every((m) => m !== null && want.has(m))) return page
    if (Date.now() > until)
      throw new Error(`a page shows ${shown.length} watchlist rows, not its ${want.size} markets`)
    await sleep(250)
  }
}

function loadavg(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  } catch {
    return 'unknown'
  }
}

/** The longest wait between two market-data batches, counting from the window's start and to its end. */
function longestGap(w: PageWindow): number {
  let prev = w.start
  let longest = 0
  for (const t of [...w.dataAt, w.end]) {
    longest = Math.max(longest, t - prev)
    prev = t
  }
  return longest
}

export async function runBridge(o: BridgeOptions, logger: Logger): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: ${CHROMIUM} not found`)
    return 0
  }
  const cleanup: Array<() => Promise<unknown>> = []
  try {
    const built = await ensureRendererBuilt({ logger })
    const sim = await spawnSimChild(7)
    cleanup.push(() => sim.close())
    const host = await spawnLineChild<HostReply>(
      'host',
      join(__dirname, 'lib/host-child.ts'),
      ['--renderer-dir', built.outDir],
      { nodeFlags: o.cpuProfDir === null ? [] : ['--cpu-prof', '--cpu-prof-dir', resolve(o.cpuProfDir)] },
    )
    cleanup.push(() => host.close())
    if (o.hostNice !== null) {
      setPriority(host.pid, o.hostNice)
      setPriority(sim.pid, o.hostNice)
    }
    const url = String(host.ready.url)
    await host.request({ cmd: 'profile', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl })
    const ids = Array.from({ length: o.pages * o.perPage }, (_, i) => firehoseId(i))
    await sim.firehose(TRICKLE, ids.length)
    const lists: string[][] = []
    const listIds: string[] = []
    for (let p = 0; p < o.pages; p++) {
      const mine = ids.slice(p * o.perPage, (p + 1) * o.perPage)
      lists.push(mine)
      const r = await host.request({ cmd: 'watchlist', name: `Bench ${p + 1}`, markets: mine })
      listIds.push(String(r.watchlist))
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
    cleanup.push(() => browser.close())
    process.stderr.write(`windows-bridge: opening ${o.pages} pages (Chromium ${browser.version()})\n`)
    // A few at a time: sixteen start-ups at once on two busy cores outlast any sensible timeout.
    const pages: Page[] = []
    for (let p = 0; p < o.pages; p += OPEN_AT_ONCE) {
      const ids = listIds.slice(p, p + OPEN_AT_ONCE)
      pages.push(
        ...(await Promise.all(ids.map((id, i) => openPage(browser, url, id, lists[p + i] as string[])))),
      )
    }
    const liveBy = Date.now() + 60_000
    for (;;) {
      const s = await host.request({ cmd: 'status' })
      if (s.state === 'live' && (s.frames ?? 0) >= ids.length) break
      if (Date.now() > liveBy) throw new Error('the engine did not go live')
      await sleep(200)
    }
    const subs = await sim.subscriptions()
    const subscribed = subs.subscriptions.reduce((n, s) => n + s.markets, 0)

    await sim.firehose(o.rate, ids.length)
    await sleep(WARMUP_S * 1000)
    const load0 = loadavg()
    const s0 = await sim.stats()
    const f0 = Number((await host.request({ cmd: 'status' })).frames)
    const procs0 = chromiumProcesses()
    const simTicks0 = processTicks(sim.pid)
    await host.request({ cmd: 'measure' })
    const t0 = performance.now()
    const visibility = await Promise.all(pages.map((p) => p.evaluate(PAGE_PROBE_START) as Promise<string>))
    await sleep(o.seconds * 1000)
    const windows = await Promise.all(pages.map((p) => p.evaluate(PAGE_PROBE_STOP) as Promise<PageWindow>))
    const measured = await host.request({ cmd: 'measured' })
    const secs = (performance.now() - t0) / 1000
    const s1 = await sim.stats()
    const f1 = Number((await host.request({ cmd: 'status' })).frames)
    const chromiumCpu = cpuDelta(procs0, chromiumProcesses()).reduce((n, d) => n + d.seconds, 0)
    const simTicks1 = processTicks(sim.pid)
    const load1 = loadavg()
    const raised = raisedThreads()
    await sim.stop()

    const offered = (s1.sent - s0.sent) / secs
    const read = (f1 - f0) / secs
    const delivered = offered >= o.rate * 0.9 && read >= offered * 0.9
    const trades = new SampleSet()
    const batchDelay = new SampleSet()
    const venue = new SampleSet()
    for (const w of windows) {
      for (const v of w.tradeDelay) trades.add(v)
      for (const v of w.venueDelay) venue.add(v)
      for (const v of w.batchDelay) batchDelay.add(v)
    }
    const gaps = windows.map(longestGap)
    const starved = gaps.filter((g) => g > o.starvedMs).length
    const stalls = measured.stalls as StallReport
    const hostCores = (measured.cpuSeconds ?? 0) / (measured.wallSeconds ?? secs)
    const ms = (v: number | null) => (v === null ? 'n/a' : `${round(v, 1)} ms`)
    const simCpu =
      simTicks0 === null || simTicks1 === null ? null : (simTicks1 - simTicks0) / clockTicksPerSecond() / secs

    console.log(
      `mode               bridge: ${o.pages} Chromium pages x ${o.perPage} markets (${ids.length} markets, ` +
        `${subscribed} subscribed at the simulator), ${o.seconds} s measured after ${WARMUP_S} s`,
    )
    console.log(
      `machine            load average ${load0} at the start, ${load1} at the end; host process nice ` +
        `${getPriority(host.pid)}, simulator nice ${getPriority(sim.pid)}, Chromium threads at a raised priority (nice < 0): ${raised}`,
    )
    console.log(
      `load               offered ${Math.round(offered)} msgs/s (target ${o.rate}), engine read ${Math.round(read)} msgs/s` +
        `${offered < o.rate * 0.9 ? '  << the simulator did NOT deliver the load named' : ''}` +
        `${read < offered * 0.9 ? '  << the engine fell behind' : ''}`,
    )
    console.log(
      `engine stall       max ${stalls.maxMs} ms, p99 ${stalls.p99Ms} ms, p50 ${stalls.p50Ms} ms (event loop of the ` +
        `host process: engine, fan-out, bridge, socket writes); longest: ` +
        stalls.longest.map(describeStall).join(', '),
    )
    const thread = measured.thread
    console.log(
      `cpu                host process ${hostCores.toFixed(2)} cores` +
        (thread
          ? ` (main thread on CPU ${pct(thread.busy)}, waiting for a CPU ${pct(thread.waiting)})`
          : '') +
        `; all Chromium ${(chromiumCpu / secs).toFixed(2)} cores` +
        (simCpu === null ? '' : `; simulator ${simCpu.toFixed(2)} cores`),
    )
    console.log(
      `trade -> page      p50 ${ms(trades.percentile(50))}, p99 ${ms(trades.percentile(99))}, max ${ms(trades.max())} ` +
        `over ${trades.count} trades (the engine's receipt of the trade's frame to the page's receipt of the batch ` +
        `carrying it, before the page parses it; not to pixel)`,
    )
    console.log(
      `venue ts -> page   p50 ${ms(venue.percentile(50))}, p99 ${ms(venue.percentile(99))}, max ${ms(venue.max())} ` +
        `(the simulator's ts of the trade, stamped when it generates it, to the same receipt: adds the ` +
        `simulator's send and the time the frame waited in the engine's socket, e.g. through a stall)`,
    )
    console.log(
      `batch -> page      p50 ${ms(batchDelay.percentile(50))}, p99 ${ms(batchDelay.percentile(99))}, ` +
        `max ${ms(batchDelay.max())} (batch.at, the engine's emit, to the page's receipt)`,
    )
    console.log(
      `windows            starved (no market-data batch for > ${o.starvedMs} ms while the firehose ran over ` +
        `its markets) ${starved} of ${o.pages}; visibility ${[...new Set(visibility)].join(',')}`,
    )
    console.log('  page  batches  batches/s  data batches  longest wait  trades timed  trade p99')
    windows.forEach((w, i) => {
      const t = new SampleSet()
      for (const v of w.tradeDelay) t.add(v)
      console.log(
        `  ${String(i + 1).padStart(4)}  ${String(w.batches).padStart(7)}  ${(w.batches / ((w.end - w.start) / 1000)).toFixed(1).padStart(9)}` +
          `  ${String(w.dataAt.length).padStart(12)}  ${`${Math.round(gaps[i] ?? 0)} ms`.padStart(12)}` +
          `  ${String(w.tradeDelay.length).padStart(12)}  ${ms(t.percentile(99)).padStart(9)}`,
      )
    })
    return delivered ? 0 : 3
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => undefined)
  }
}

/** Chromium's threads whose nice value is below 0, counted by nice value ("98 at -8"). */
function raisedThreads(): string {
  const byNice = new Map<number, number>()
  for (const p of chromiumProcesses()) {
    let tids: string[]
    try {
      tids = readdirSync(`/proc/${p.pid}/task`)
    } catch {
      continue
    }
    for (const tid of tids) {
      let nice: number
      try {
        // Field 19 of stat, counted after the command name's closing parenthesis (it may hold spaces).
        const stat = readFileSync(`/proc/${p.pid}/task/${tid}/stat`, 'utf8')
        nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
      } catch {
        continue
      }
      if (nice < 0) byNice.set(nice, (byNice.get(nice) ?? 0) + 1)
    }
  }
  return byNice.size === 0 ? 'none' : [...byNice].map(([nice, n]) => `${n} at ${nice}`).join(', ')
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`
}
