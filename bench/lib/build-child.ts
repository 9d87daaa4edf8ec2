// Bench-only: builds the renderer (when it is out of date) in a process of its own and exits, so the memory a
// Vite build keeps (over 300 MB once) never lands in the RSS of the process a benchmark measures.
// Exit code 0 when the build is current, 1 with the reason on stderr.
import { ensureRendererBuilt } from '../../src/main/web/build'
import { createStderrLogger } from '../../src/main/web/logger'

async function main(): Promise<void> {
  const { built } = await ensureRendererBuilt({ logger: createStderrLogger() })
  process.stderr.write(built ? 'renderer: built\n' : 'renderer: build is current\n')
}

main().catch((error: unknown) => {
  process.stderr.write(`renderer build failed: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
