// `npm run sim`: runs the simulator CLI (src/sim/cli.ts) as this process's one child and passes SIGTERM, SIGINT
// and SIGHUP on to it, so stopping `npm run sim` stops the simulator. Without this, npm delivers SIGTERM only to
// the `sh -c` it runs scripts in, which dies without passing it on, and the simulator lives on as an orphan
// holding its port. So the wrapper also notices when that shell is gone (this process is re-parented) and stops
// the simulator then. Exits with the simulator's own status (or its signal).
// One case no wrapper can reach: SIGINT sent to npm's pid alone. Debian's sh (dash) keeps it and waits for its
// child; a terminal's Ctrl-C signals the whole process group, and works.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP']
const ORPHAN_POLL_MS = 200

// `--import tsx` loads TypeScript in the same process: no tsx CLI in between, so the signal reaches the CLI itself.
const child = spawn(
  process.execPath,
  ['--import', 'tsx', resolve(root, 'src/sim/cli.ts'), ...process.argv.slice(2)],
  {
    cwd: process.cwd(),
    stdio: 'inherit',
  },
)

const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal)
}
for (const signal of SIGNALS) process.on(signal, () => forward(signal))

const parent = process.ppid
const watch = setInterval(() => {
  if (process.ppid !== parent) forward('SIGTERM')
}, ORPHAN_POLL_MS)
watch.unref()

child.on('error', (err) => {
  console.error(`sim: cannot start the simulator: ${err.message}`)
  process.exit(1)
})
child.on('exit', (code, signal) => {
  clearInterval(watch)
  if (signal) {
    // End the way the simulator did, so a caller sees the same status as without the wrapper.
    for (const s of SIGNALS) process.removeAllListeners(s)
    process.kill(process.pid, signal)
    return
  }
  process.exit(code ?? 1)
})
