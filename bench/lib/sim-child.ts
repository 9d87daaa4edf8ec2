// Bench-only: the simulator in its own process, so its firehose never shares a thread (or a heap) with the code
// being measured. The worker form (src/sim/worker.ts) has no firehose control, hence this script.
// Protocol (one JSON object per line): stdout first prints {"type":"ready",wsUrl,baseUrl,demoKey}, then one
// reply per stdin command, echoing its `id`. Commands:
//   {id, cmd:'firehose', msgsPerSec, markets}   open-loop load at a fixed rate; reply {ids}
//   {id, cmd:'flow', msgsPerSec, markets, high, low}
//       closed-loop saturation: like firehose, but paused while more than `high` messages are unread by the
//       consumer (as told by 'ack') and resumed below `low`, so a consumer slower than the simulator is kept
//       busy without tripping the simulator's slow-consumer cut-off (64 MiB buffered)
//   {id?, cmd:'ack', received}                  consumer's count of firehose messages since the last start
//   {id, cmd:'stop'}                            stop the firehose; reply {sent}
//   {id, cmd:'stats'}                           reply {sent, framesSent} (firehose messages since the last start)
//   {id, cmd:'listing'}                         reply {markets: [{id, event}]}: the listed markets, in listing order
//                                               (either dialect: VoxFi's bare array of events is flattened the same way)
//   {id, cmd:'keyState', revoked?, enabled?}    sim.setKeyState(demoKey, {...}); reply {changed}
//   {id, cmd:'subscriptions'}                   reply {connections, subscriptions: [{connection, markets, events, user}]}
//   {id, cmd:'quit'}                            close the simulator and exit
// `--demo` runs the simulator as the app's demo does: createSimulator's defaults (12 events x 4 markets, 100 ms
// steps, the demo account); without it, a tiny listing (the benchmark only uses the firehose's fh-NNNN markets).
// `--dialect voxfi|reference` (default reference, the library's default: bench/run.ts's raw client reads the
// reference frames); the app's demo runs voxfi (src/main/services/feed/demo.ts).
import { createInterface } from 'node:readline'
import {
  createSimulator,
  DIALECTS,
  type Dialect,
  type EventsListing,
  type Simulator,
  type VoxfiListing,
} from '../../src/sim/index'

interface Command {
  id?: number
  cmd: string
  msgsPerSec?: number
  markets?: number
  high?: number
  low?: number
  received?: number
  revoked?: boolean
  enabled?: boolean
}

function reply(value: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(value)}\n`)
}

function parseCommand(line: string): Command | null {
  try {
    const v: unknown = JSON.parse(line)
    if (typeof v !== 'object' || v === null || typeof (v as { cmd?: unknown }).cmd !== 'string') return null
    return v as Command
  } catch {
    return null
  }
}

function positive(v: number | undefined, name: string): number {
  if (v === undefined || !(v > 0) || !Number.isFinite(v))
    throw new RangeError(`${name} must be a positive number`)
  return v
}

async function main(): Promise<void> {
  const seedArg = process.argv.indexOf('--seed')
  const seed = seedArg >= 0 ? Number(process.argv[seedArg + 1]) : 7
  const demo = process.argv.includes('--demo')
  const dialectArg = process.argv.indexOf('--dialect')
  const dialect = (dialectArg >= 0 ? process.argv[dialectArg + 1] : 'reference') as Dialect
  if (!DIALECTS.includes(dialect)) throw new RangeError(`--dialect must be ${DIALECTS.join(' or ')}`)
  // Few listed markets unless --demo: the engine benchmark only subscribes to the firehose's fh-NNNN markets.
  // Typed as the library default's simulator whatever the dialect; listing() is read by sim.dialect below.
  const sim: Simulator = demo
    ? await createSimulator({ port: 0, seed, dialect })
    : await createSimulator({ port: 0, seed, dialect, config: { events: 2, marketsPerEvent: 2 } })
  /** The listed markets and their events, in listing order, in either dialect. */
  const listed = (): { id: string; event: string }[] => {
    const body: unknown = sim.listing()
    if (sim.dialect === 'voxfi') {
      // VoxFi: GET /v1/data/events is a bare array of events, each with its markets.
      const events = body as VoxfiListing
      return events.flatMap((e) => e.markets.map((m) => ({ id: m.id, event: e.id })))
    }
    return (body as EventsListing).events.flatMap((e) => e.markets.map((m) => ({ id: m.id, event: e.id })))
  }

  let base = 0
  let flow: { rate: number; markets: number; high: number; low: number; running: boolean } | null = null
  const sent = (): number => sim.stats().firehoseSent - base

  const start = (rate: number, markets: number): string[] => {
    base = sim.stats().firehoseSent
    return sim.faults.firehose({ msgsPerSec: rate, markets })
  }

  const handle = async (c: Command): Promise<void> => {
    switch (c.cmd) {
      case 'firehose': {
        flow = null
        const ids = start(positive(c.msgsPerSec, 'msgsPerSec'), c.markets ?? 100)
        reply({ id: c.id, ok: true, ids })
        return
      }
      case 'flow': {
        const rate = positive(c.msgsPerSec, 'msgsPerSec')
        const markets = c.markets ?? 100
        const high = positive(c.high, 'high')
        const low = positive(c.low, 'low')
        const ids = start(rate, markets)
        flow = { rate, markets, high, low, running: true }
        reply({ id: c.id, ok: true, ids })
        return
      }
      case 'ack': {
        if (flow !== null && typeof c.received === 'number') {
          const backlog = sent() - c.received
          if (flow.running && backlog > flow.high) {
            sim.faults.stopFirehose()
            flow.running = false
          } else if (!flow.running && backlog < flow.low) {
            // Restarting resets the firehose's rate clock, so a pause never turns into a catch-up burst.
            sim.faults.firehose({ msgsPerSec: flow.rate, markets: flow.markets })
            flow.running = true
          }
        }
        if (c.id !== undefined) reply({ id: c.id, ok: true })
        return
      }
      case 'stop':
        flow = null
        sim.faults.stopFirehose()
        reply({ id: c.id, ok: true, sent: sent() })
        return
      case 'stats':
        reply({ id: c.id, ok: true, sent: sent(), framesSent: sim.stats().framesSent })
        return
      case 'listing':
        reply({ id: c.id, ok: true, markets: listed() })
        return
      case 'keyState': {
        const patch: { revoked?: boolean; enabled?: boolean } = {}
        if (typeof c.revoked === 'boolean') patch.revoked = c.revoked
        if (typeof c.enabled === 'boolean') patch.enabled = c.enabled
        reply({ id: c.id, ok: true, changed: sim.setKeyState(sim.demoKey, patch) })
        return
      }
      case 'subscriptions':
        reply({
          id: c.id,
          ok: true,
          connections: sim.connections(),
          subscriptions: sim.subscriptions().map((s) => ({
            connection: s.connection,
            markets: s.market.length,
            events: s.event.length,
            user: s.user,
          })),
        })
        return
      case 'quit':
        await sim.close()
        reply({ id: c.id, ok: true })
        process.exit(0)
        return
      default:
        reply({ id: c.id, ok: false, error: `unknown command ${JSON.stringify(c.cmd)}` })
    }
  }

  const rl = createInterface({ input: process.stdin })
  rl.on('line', (line) => {
    const c = parseCommand(line)
    if (c === null) {
      reply({ ok: false, error: 'bad command line' })
      return
    }
    handle(c).catch((e: unknown) => reply({ id: c.id, ok: false, error: String(e) }))
  })
  // The parent died or closed our stdin: do not linger as an orphan serving a firehose.
  rl.on('close', () => {
    void sim.close().finally(() => process.exit(0))
  })
  reply({ type: 'ready', wsUrl: sim.wsUrl, baseUrl: sim.baseUrl, demoKey: sim.demoKey, dialect: sim.dialect })
}

main().catch((e: unknown) => {
  process.stderr.write(`sim-child: ${String(e)}\n`)
  process.exit(1)
})
