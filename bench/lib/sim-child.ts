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
//   {id, cmd:'quit'}                            close the simulator and exit
// `--demo` runs the simulator as the app's demo does: createSimulator's defaults (12 events x 4 markets, 100 ms
// steps, the demo account); without it, a tiny listing (the benchmark only uses the firehose's fh-NNNN markets).
import { createInterface } from 'node:readline'
import { createSimulator, type Simulator } from '../../src/sim/index'

interface Command {
  id?: number
  cmd: string
  msgsPerSec?: number
  markets?: number
  high?: number
  low?: number
  received?: number
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
  // Few listed markets unless --demo: the engine benchmark only subscribes to the firehose's fh-NNNN markets.
  const sim: Simulator = demo
    ? await createSimulator({ port: 0, seed })
    : await createSimulator({ port: 0, seed, config: { events: 2, marketsPerEvent: 2 } })

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
      case 'listing': {
        const markets = sim.listing().events.flatMap((e) => e.markets.map((m) => ({ id: m.id, event: e.id })))
        reply({ id: c.id, ok: true, markets })
        return
      }
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
  reply({ type: 'ready', wsUrl: sim.wsUrl, baseUrl: sim.baseUrl, demoKey: sim.demoKey })
}

main().catch((e: unknown) => {
  process.stderr.write(`sim-child: ${String(e)}\n`)
  process.exit(1)
})
