// `npm run --silent web -- [--port P] [--demo] [--settings FILE|none] [--no-build]`
// stdout carries exactly one JSON line, {"url": ...}, once the host is ready; everything else goes to stderr.
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ensureRendererBuilt, RENDERER_OUT_DIR } from './build'
import { parseCliArgs, USAGE, type CliOptions } from './cli-args'
import { createStderrLogger } from './logger'
import { startWebHost } from './server'
import { errorMessage } from '../services'

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
  const host = await startWebHost({
    port: options.port,
    demo: options.demo,
    settingsPath: options.settingsPath,
    logger,
    testHooks: process.env['TM_WEB_TEST_HOOKS'] === '1',
  })
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
