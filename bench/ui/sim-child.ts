// The UI benchmark's simulator in its own Node process, so its timers (the firehose ticks every 10 ms and drops
// what it cannot catch up on) never wait behind the engine, the browser host or Playwright's driver.
// createSimulator({ seed, dialect }) with the default listing, as the demo runs it: `--dialect voxfi` (default, the
// app's demo: src/main/services/feed/demo.ts) or `--dialect reference`. Protocol, one JSON object per line:
// stdout first {"type":"ready",wsUrl,baseUrl,demoKey,dialect}, then one reply per stdin command, echoing its id:
//   {id, cmd:'firehose', msgsPerSec, markets} → {id, ok}     {id, cmd:'stop'} → {id, ok}
//   {id, cmd:'generated'} → {id, ok, generated}  (firehose messages sent to subscribers so far)
//   {id, cmd:'quit'} → {id, ok}, then exit. The child also exits when its stdin closes (the bench is gone).
import { createInterface } from 'node:readline'
import { createSimulator, DIALECTS, type Dialect } from '../../src/sim/index'

interface Command {
  id?: unknown
  cmd?: unknown
  msgsPerSec?: unknown
  markets?: unknown
}

function reply(value: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(value)}\n`)
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--seed')
  const seed = i >= 0 ? Number(process.argv[i + 1]) : 1
  const d = process.argv.indexOf('--dialect')
  const dialect = (d >= 0 ? process.argv[d + 1] : 'voxfi') as Dialect
  if (!DIALECTS.includes(dialect)) throw new RangeError(`--dialect must be ${DIALECTS.join(' or ')}`)
  const sim = await createSimulator({ seed, dialect })
  let quitting = false
  const quit = async (): Promise<void> => {
    if (quitting) return
    quitting = true
    await sim.close()
    process.exit(0)
  }
  reply({ type: 'ready', wsUrl: sim.wsUrl, baseUrl: sim.baseUrl, demoKey: sim.demoKey, dialect: sim.dialect })
  const rl = createInterface({ input: process.stdin })
  rl.on('close', () => void quit())
  rl.on('line', (line) => {
    let c: Command
    try {
      c = JSON.parse(line) as Command
    } catch {
      return
    }
    const id = c.id
    try {
      if (c.cmd === 'firehose') {
        const rate = Number(c.msgsPerSec)
        const markets = Number(c.markets)
        if (!(rate > 0) || !(markets >= 1)) throw new RangeError('msgsPerSec and markets must be positive')
        sim.faults.firehose({ msgsPerSec: rate, markets })
        reply({ id, ok: true })
      } else if (c.cmd === 'stop') {
        sim.faults.stopFirehose()
        reply({ id, ok: true })
      } else if (c.cmd === 'generated') {
        reply({ id, ok: true, generated: sim.stats().firehoseSent })
      } else if (c.cmd === 'quit') {
        reply({ id, ok: true })
        void quit()
      } else reply({ id, ok: false, error: `unknown command ${JSON.stringify(c.cmd)}` })
    } catch (e) {
      reply({ id, ok: false, error: String(e) })
    }
  })
}

main().catch((e: unknown) => {
  process.stderr.write(`ui sim child: ${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
})
