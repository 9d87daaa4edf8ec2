// Generated assets (icons, tray images, the alert sound) are committed; each generator either rewrites them or,
// with --check, fails when a committed file no longer matches what the generator makes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** True when `moduleUrl` (import.meta.url) is the script node was started with. */
export function isMain(moduleUrl) {
  return Boolean(process.argv[1]) && fileURLToPath(moduleUrl) === process.argv[1]
}

/** Writes `files` ({path, data} relative to the repo), or with --check exits 1 listing those out of date. */
export function writeOrCheck(files, what, script) {
  const check = process.argv.includes('--check')
  const stale = []
  for (const { path, data } of files) {
    const target = join(root, path)
    if (check) {
      let current = null
      try {
        current = readFileSync(target)
      } catch {
        // Missing counts as out of date.
      }
      if (!current || !current.equals(data)) stale.push(path)
    } else {
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, data)
      process.stdout.write(`wrote ${path} (${data.length} bytes)\n`)
    }
  }
  if (!check) return
  if (stale.length > 0) {
    process.stdout.write(`${what} out of date (run node ${script}): ${stale.join(', ')}\n`)
    process.exit(1)
  }
  process.stdout.write(`${what} up to date\n`)
}
