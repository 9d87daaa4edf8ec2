// Bench-only: the raw client (raw-client.ts) in its own process, so that the ceiling it measures shares neither
// the heap (the engine's old generation, and its garbage collections) nor the event loop (the engine's timers)
// with the engine. Driven by raw-control.ts over stdin/stdout, one JSON object per line: stdout first prints
// {"type":"ready"}, then one reply per command, echoing its `id`:
//   {id, cmd:'connect', wsUrl}                  connect the client
//   {id, cmd:'subscribe', markets}              subscribe and wait for the ack
//   {id, cmd:'burst', pauseMs, periodMs}        read in bursts (RawClient.burst); 0 turns it off
//   {id, cmd:'count'}                           reply {count, parseErrors}
//   {id, cmd:'open', simPid}                    start a measurement window; reply {count, atMs}
//   {id, cmd:'close'}                           end it; reply {count, atMs, cpuSeconds, probe}
//   {id, cmd:'quit'}                            close and exit
import { createInterface } from 'node:readline'
import { startProbe, watchGc, type Probe } from './probe'
import { connectRawClient, type RawClient } from './raw-client'

interface Command {
  id?: number
  cmd?: string
  wsUrl?: string
  markets?: string[]
  pauseMs?: number
  periodMs?: number
  simPid?: number
}

const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6

function reply(value: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(value)}\n`)
}

let client: RawClient | null = null
let current: { count: number; probe: Probe; cpu: NodeJS.CpuUsage } | null = null

function need(): RawClient {
  if (client === null) throw new Error('not connected')
  return client
}

async function handle(c: Command): Promise<Record<string, unknown>> {
  switch (c.cmd) {
    case 'connect':
      if (typeof c.wsUrl !== 'string') throw new Error('connect needs wsUrl')
      client = await connectRawClient(c.wsUrl)
      return {}
    case 'subscribe':
      await need().subscribe(c.markets ?? [])
      return {}
    case 'burst':
      need().burst(c.pauseMs ?? 0, c.periodMs ?? 0)
      return {}
    case 'count':
      return { count: need().frames, parseErrors: need().parseErrors }
    case 'open': {
      const count = need().frames
      const atMs = monotonicMs()
      current = { count, probe: startProbe(c.simPid ?? null), cpu: process.cpuUsage() }
      return { count, atMs }
    }
    case 'close': {
      if (current === null) throw new Error('no open window')
      const count = need().frames
      const atMs = monotonicMs()
      const cpu = process.cpuUsage(current.cpu)
      const probe = current.probe.end(count - current.count)
      current = null
      return { count, atMs, cpuSeconds: (cpu.user + cpu.system) / 1e6, probe }
    }
    case 'quit':
      await client?.close()
      reply({ id: c.id, ok: true })
      process.exit(0)
      return {}
    default:
      throw new Error(`unknown command ${JSON.stringify(c.cmd)}`)
  }
}

watchGc()
const rl = createInterface({ input: process.stdin })
rl.on('line', (line) => {
  let c: Command
  try {
    c = JSON.parse(line) as Command
  } catch {
    reply({ ok: false, error: 'bad command line' })
    return
  }
  handle(c).then(
    (r) => reply({ id: c.id, ok: true, ...r }),
    (e: unknown) => reply({ id: c.id, ok: false, error: String(e) }),
  )
})
// The parent died or closed our stdin: do not linger.
rl.on('close', () => {
  void (client?.close() ?? Promise.resolve()).finally(() => process.exit(0))
})
reply({ type: 'ready' })
