// Bench-only: the engine and the browser host in their own process, as `npm run web` runs them, so that what
// drives Chromium (Playwright, which gets every WebSocket frame of every page over DevTools) shares neither event
// loop nor CPU time accounting with the engine being measured.
// Protocol (one JSON object per line): stdout first prints {"type":"ready",url,pid}, then one reply per stdin
// command, echoing its `id`:
//   {id, cmd:'profile', baseUrl, wsUrl}   save and select a profile on the simulator; reply {}
//   {id, cmd:'watchlist', name, markets}  save a watchlist; reply {watchlist}
//   {id, cmd:'status'}                    reply {state, frames, connections}
//   {id, cmd:'measure'}                   start the stall meter and the CPU clock; reply {}
//   {id, cmd:'measured'}                  stop them; reply {stalls, cpuSeconds, wallSeconds, thread}
//   {id, cmd:'quit'}                      close the host and the engine, then exit
// `--renderer-dir DIR` is the built renderer to serve.
import { createInterface } from 'node:readline'
import { createMemoryStore, createMonitor, type Logger } from '../../src/main/services'
import { startWebHost } from '../../src/main/web/server'
import { schedSample, threadTime } from './cpu'
import { startStallMeter, type StallReport } from './stall-meter'

interface Command {
  id: number
  cmd: string
  baseUrl?: string
  wsUrl?: string
  name?: string
  markets?: string[]
}

function reply(value: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(value)}\n`)
}

async function main(): Promise<void> {
  const dirArg = process.argv.indexOf('--renderer-dir')
  const rendererDir = dirArg > 0 ? process.argv[dirArg + 1] : undefined
  if (rendererDir === undefined) throw new Error('--renderer-dir is required')
  const logger: Logger = {
    info: () => {},
    warn: (m, f) => process.stderr.write(`host: warn ${m} ${JSON.stringify(f ?? {})}\n`),
    error: (m, f) => process.stderr.write(`host: error ${m} ${JSON.stringify(f ?? {})}\n`),
  }
  const engine = await createMonitor({
    settingsPath: null,
    credentials: createMemoryStore(),
    demo: false,
    logger,
  })
  const host = await startWebHost({ monitor: engine, logger, rendererDir })
  const ctl = engine.attachClient({ label: 'bench-host', sink: () => {} })
  let meter: { stop(): StallReport } | null = null
  let cpu0 = process.cpuUsage()
  let sched0 = schedSample('self')
  let t0 = performance.now()

  const handle = async (c: Command): Promise<Record<string, unknown>> => {
    switch (c.cmd) {
      case 'profile': {
        const saved = await ctl.saveProfile({ name: 'bench', baseUrl: c.baseUrl ?? '', wsUrl: c.wsUrl ?? '' })
        if (!saved.ok) throw new Error(saved.error.message)
        const selected = await ctl.selectProfile(saved.value.id)
        if (!selected.ok) throw new Error(selected.error.message)
        return {}
      }
      case 'watchlist': {
        const saved = await ctl.saveWatchlist({ name: c.name ?? 'bench', markets: c.markets ?? [] })
        if (!saved.ok) throw new Error(saved.error.message)
        return { watchlist: saved.value.id }
      }
      case 'status': {
        const s = await ctl.getStatus()
        if (!s.ok) throw new Error(s.error.message)
        return { state: s.value.state, frames: s.value.counters.frames }
      }
      case 'measure':
        meter = startStallMeter()
        cpu0 = process.cpuUsage()
        sched0 = schedSample('self')
        t0 = performance.now()
        return {}
      case 'measured': {
        if (meter === null) throw new Error('measured before measure')
        const stalls = meter.stop()
        meter = null
        const cpu = process.cpuUsage(cpu0)
        return {
          stalls,
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
          wallSeconds: (performance.now() - t0) / 1000,
          thread: threadTime(sched0, schedSample('self')),
        }
      }
      case 'quit':
        ctl.dispose()
        await host.close()
        await engine.close()
        return {}
      default:
        throw new Error(`unknown command ${c.cmd}`)
    }
  }

  createInterface({ input: process.stdin }).on('line', (line) => {
    let c: Command
    try {
      c = JSON.parse(line) as Command
    } catch {
      process.stderr.write(`host: unreadable command ${line}\n`)
      return
    }
    handle(c).then(
      (value) => {
        reply({ id: c.id, ok: true, ...value })
        if (c.cmd === 'quit') process.exit(0)
      },
      (error: unknown) =>
        reply({ id: c.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    )
  })
  reply({ type: 'ready', url: host.url, pid: process.pid })
}

main().catch((error: unknown) => {
  process.stderr.write(`host: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
