// `npm run test:e2e`: build the renderer when it is missing or older than its sources, then run Playwright in
// the system Chromium. Without /usr/bin/chromium the run is skipped (exit 0), except under CI=true where a
// missing browser is a failure. On Linux Playwright runs inside scripts/with-keyring.sh (a throwaway unlocked
// gnome-keyring on a private session bus), so a host started without --demo stores keys in a real Secret
// Service; elsewhere it runs directly.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
// TM_CHROMIUM points at another Chromium-based browser (e.g. Google Chrome on GitHub's macOS/Windows runners).
const CHROMIUM = process.env.TM_CHROMIUM || '/usr/bin/chromium'
const ci = process.env.CI === 'true'

if (!existsSync(CHROMIUM)) {
  if (ci) {
    console.error(`e2e: ${CHROMIUM} is missing; CI must install it (apt-get install -y chromium). Failing.`)
    process.exit(1)
  }
  console.log(
    `SKIP e2e: ${CHROMIUM} not found (install it with apt-get install -y chromium; never playwright install)`,
  )
  process.exit(0)
}

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env })
  if (r.error) throw r.error
  return r.status ?? 1
}

const builtIndex = join(root, 'out/renderer/index.html')
const sources = [join(root, 'src/renderer'), join(root, 'src/shared')]
const stale = !existsSync(builtIndex) || Math.max(...sources.map(newestMtime)) > statSync(builtIndex).mtimeMs
if (stale) {
  console.log('e2e: building the renderer')
  const status = run('npx', ['vite', 'build', '--config', 'vite.renderer.config.mts', '--logLevel', 'warn'])
  if (status !== 0) process.exit(status)
}

const playwright = ['npx', 'playwright', 'test', '-c', 'playwright.config.mts', ...process.argv.slice(2)]
process.exit(
  process.platform === 'linux'
    ? run('bash', [join(root, 'scripts/with-keyring.sh'), ...playwright])
    : run(playwright[0], playwright.slice(1)),
)
