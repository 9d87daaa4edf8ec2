// `npm run --silent sim -- [--host H] [--port P] [--seed N] [--config FILE] [--dialect voxfi|reference]`
// (DESIGN §3.1): one JSON line on stdout once listening, logs on stderr, clean exit on SIGTERM/SIGINT, exit 2 on
// bad flags or config. The CLI speaks VoxFi's dialect unless told otherwise.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfigFile, type SimConfig } from './config'
import { createSimulator, DIALECTS, type Dialect } from './index'

const USAGE = 'usage: sim [--host H] [--port P] [--seed N] [--config FILE] [--dialect voxfi|reference]'

interface CliOptions {
  host: string
  port: number
  seed: number | undefined
  config: SimConfig | undefined
  dialect: Dialect
}

class UsageError extends Error {}

function parseCli(argv: string[]): CliOptions | 'help' {
  let values: {
    host?: string
    port?: string
    seed?: string
    config?: string
    dialect?: string
    help?: boolean
  }
  try {
    values = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        seed: { type: 'string' },
        config: { type: 'string' },
        dialect: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0] ?? 'bad arguments'} (${USAGE})`)
  }
  if (values.help === true) return 'help'
  const host = values.host ?? '127.0.0.1'
  if (host.length === 0) throw new UsageError('--host must not be empty')
  let port = 0
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
      throw new UsageError(`--port must be an integer in [0, 65535], got ${JSON.stringify(values.port)}`)
    }
    port = Number(values.port)
  }
  let seed: number | undefined
  if (values.seed !== undefined) {
    if (!/^-?\d{1,10}$/.test(values.seed)) {
      throw new UsageError(`--seed must be an integer, got ${JSON.stringify(values.seed)}`)
    }
    seed = Number(values.seed)
  }
  const dialect = values.dialect ?? 'voxfi'
  if (!(DIALECTS as readonly string[]).includes(dialect)) {
    throw new UsageError(`--dialect must be "voxfi" or "reference", got ${JSON.stringify(dialect)}`)
  }
  const config = values.config === undefined ? undefined : loadConfigFile(values.config)
  return { host, port, seed, config, dialect: dialect as Dialect }
}

async function main(): Promise<void> {
  let opts: CliOptions | 'help'
  try {
    opts = parseCli(process.argv.slice(2))
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      process.stderr.write(`sim: ${e.message}\n`)
      process.exit(2)
    }
    throw e
  }
  if (opts === 'help') {
    process.stderr.write(`${USAGE}\n`)
    return
  }
  let sim: Awaited<ReturnType<typeof createSimulator>>
  try {
    sim = await createSimulator({
      dialect: opts.dialect,
      host: opts.host,
      port: opts.port,
      seed: opts.seed,
      config: opts.config,
      log: (line) => process.stderr.write(`${line}\n`),
    })
  } catch (e) {
    process.stderr.write(`sim: cannot start: ${(e as Error).message}\n`)
    process.exit(1)
  }
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    process.stderr.write(`sim: ${signal}, shutting down\n`)
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  process.stdout.write(
    `${JSON.stringify({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, demoKey: sim.demoKey })}\n`,
  )
}

void main()
