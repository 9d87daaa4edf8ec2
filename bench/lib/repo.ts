// Where this checkout is, for bench code that names its files or spawns its TypeScript children. Under tsx a
// module's folder is where it lies in the repo; a bundled run (bundle.ts) runs from a temp dir, so there the process
// that bundled it says where the repo is (REPO_ENV).
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Set in a bundled run's environment: the repo's root folder. */
export const REPO_ENV = 'BENCH_REPO'

/** The repo's root folder. */
export const REPO_ROOT = process.env[REPO_ENV] ?? resolve(__dirname, '..', '..')

/** A path inside the repo, from its root (e.g. `repoPath('bench', 'lib', 'sim-child.ts')`). */
export function repoPath(...segments: string[]): string {
  return join(REPO_ROOT, ...segments)
}

/** Node's arguments that run `script` (a .ts file) under tsx's loader, as the bench's children run. */
export function tsxArgs(script: string): string[] {
  const loader = pathToFileURL(createRequire(repoPath('package.json')).resolve('tsx')).href
  return ['--import', loader, script]
}
