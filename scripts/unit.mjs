// `npm run test:unit`: vitest, inside a throwaway unlocked gnome-keyring on Linux (scripts/with-keyring.sh) so
// the real-keychain tests run for real. Elsewhere vitest runs directly and those tests skip with a reason.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const args = ['vitest', 'run', ...process.argv.slice(2)]
const cmd =
  process.platform === 'linux'
    ? spawnSync('bash', [resolve(root, 'scripts/with-keyring.sh'), 'npx', ...args], {
        cwd: root,
        stdio: 'inherit',
      })
    : spawnSync('npx', args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
if (cmd.error) {
  console.error(`test:unit: ${cmd.error.message}`)
  process.exit(1)
}
process.exit(cmd.status ?? 1)
