// `npm run --silent web -- [--port P] [--demo] [--settings FILE|none] [--no-build] [--allow-trading]`
// stdout carries exactly one JSON line, {"url": ...}, once the host is ready; everything else goes to stderr.
// The URL stays the same across restarts on the same settings file (host-identity.ts).
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ensureRendererBuilt, RENDERER_OUT_DIR } from './build'
import { parseCliArgs, USAGE, type CliOptions } from './cli-args'
import { createStderrLogger } from './logger'
import { identityPath, loadIdentity, saveIdentity } from './host-identity'
import { createToken } from './access'
import { startWebHost, type WebHost } from './server'
import { errorMessage, type Logger } from '../services'

/**
 * With a settings file, the host answers at the port and token it had last time (host-identity.ts), so an open
 * page reconnects by itself; an explicit --port wins, and a kept port now taken by another program gives way
 * to a new one. With `--settings none`, a random port and token as before.
 */
async function startKeepingIdentity(options: CliOptions, logger: Logger): Promise<WebHost> {
  const file = options.settingsPath === null ? null : identityPath(options.settingsPath)
  const loaded = file === null ? { identity: null } : await loadIdentity(file)
  if (loaded.problem !== undefined) logger.warn('web: host identity not reused', { problem: loaded.problem })
  const kept = loaded.identity
  const wanted = options.port !== 0 ? options.port : (kept?.port ?? 0)
  const host = await startWebHost({
    port: wanted,
    // Only a kept port gives way; a port the user asked for with --port must be that port.
    portFallback: options.port === 0,
    demo: options.demo,
    settingsPath: options.settingsPath,
    allowTrading: options.allowTrading,
    logger,
    testHooks: process.env['TM_WEB_TEST_HOOKS'] === '1',
    ...(file !== null ? { token: kept?.token ?? createToken() } : {}),
  })
  // The identity only saves a reconnect after a restart: a host that cannot write it still serves.
  if (file !== null)
    await saveIdentity(file, { port: host.port, token: host.token }).catch((error: unknown) =>
      logger.warn('web: host identity not saved', { file, error: errorMessage(error) }),
    )
  return host
}

async function main(): Promise<void> {
  const logger = createStderrLogger()
  let options: CliOptions
  try {
    options = parseCliArgs(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`)
    process.exit(2)
  }
  if (options.build) {
    try {
      await ensureRendererBuilt({ logger })
    } catch (error) {
      // A stale build beats no page at all (e.g. the sources are mid-edit); without any build, stop.
      if (!existsSync(join(RENDERER_OUT_DIR, 'index.html'))) throw error
      logger.warn('web: renderer build failed, serving the previous build', {
        error: (error as Error).message,
      })
    }
  }
  if (options.settingsPath) mkdirSync(dirname(options.settingsPath), { recursive: true, mode: 0o700 })
  const host = await startKeepingIdentity(options, logger)
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    logger.info('web: shutting down', { signal })
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.stdout.write(`${JSON.stringify({ url: host.url })}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`web: ${errorMessage(error)}\n`)
  process.exit(1)
})
