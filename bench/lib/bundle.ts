// Bench-only: runs a benchmark entry bundled by esbuild (CommonJS, as electron-vite bundles the app's main process), instead of
// under tsx. tsx compiles each module on load and wraps the code (module getters, `__name` helpers), which costs a
// hot path noticeably more than the shipped code does (bench/README.md, "Seek's duration"); a bundled run measures
// the code the app runs. The bundle goes to a temp dir outside the repo (deleted after the run), beside a
// `node_modules` link to the repo's, so packages stay external as in the app's main bundle (electron-vite
// externalises them).
//
// `srcRoot` bundles the same entry against another checkout's `src` (e.g. `/work/wt-base/src` for a "before"
// figure): the entry's imports that land in this repo's `src` are resolved in that folder instead, so before and
// after run the same bench code.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve, sep } from 'node:path'
import { build, type Plugin } from 'esbuild'
import { REPO_ENV, REPO_ROOT } from './repo'

const ROOT = REPO_ROOT
const SRC = join(ROOT, 'src')

/** Set in a bundled run's environment: how it was built (its bench prints it). */
export const BUNDLED_ENV = 'BENCH_BUNDLED'

export interface BundleOptions {
  /** Another checkout's `src` folder to bundle the entry against (default: this repo's). */
  srcRoot?: string
}

export interface Bundle {
  /** The bundled entry (CommonJS). */
  file: string
  /** What a bench run says it measured. */
  label: string
  /** Deletes the temp dir. */
  remove(): void
}

/** Redirects imports of this repo's `src` to `srcRoot`'s, wherever they are written (bench files, bench/lib). */
function otherSrc(srcRoot: string): Plugin {
  return {
    name: 'other-src',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === 'redirected' || args.importer.startsWith(srcRoot + sep)) return undefined
        const target = resolve(args.resolveDir, args.path)
        if (target !== SRC && !target.startsWith(SRC + sep)) return undefined
        const moved = join(srcRoot, target.slice(SRC.length))
        const r = await b.resolve(`./${moved.slice(dirname(moved).length + 1)}`, {
          kind: args.kind,
          resolveDir: dirname(moved),
          pluginData: 'redirected',
        })
        return r.errors.length > 0 ? { errors: r.errors } : { path: r.path }
      })
    },
  }
}

export async function bundle(entry: string, opts: BundleOptions = {}): Promise<Bundle> {
  const srcRoot = opts.srcRoot === undefined ? undefined : resolve(opts.srcRoot)
  if (srcRoot !== undefined && !existsSync(srcRoot)) throw new Error(`no such folder: ${srcRoot}`)
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-bundle-'))
  const file = join(dir, 'entry.cjs')
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
    await build({
      entryPoints: [resolve(entry)],
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
      plugins: srcRoot === undefined ? [] : [otherSrc(srcRoot)],
    })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  const label = `bundled by esbuild (CommonJS as the app's main process, packages external), run by node ${process.version}, engine from ${srcRoot ?? SRC}`
  return { file, label, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Bundles `entry` and runs it with node and `args` (stdio inherited); resolves to its exit code. The child sees
 * BUNDLED_ENV set to the bundle's label and REPO_ENV to this repo. This process waits for the child's exit code: a
 * Ctrl-C reaches the child from the terminal (one process group), so this one ignores SIGINT, and passes a SIGTERM
 * on (which is sent to this process alone).
 */
export async function runBundled(
  entry: string,
  args: readonly string[],
  opts: BundleOptions & { nodeFlags?: readonly string[] } = {},
): Promise<number> {
  const b = await bundle(entry, opts)
  const ignore = (): void => {}
  let forward = ignore
  const onTerm = (): void => forward()
  process.on('SIGINT', ignore)
  process.on('SIGTERM', onTerm)
  try {
    return await new Promise<number>((done, fail) => {
      const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), b.file, ...args], {
        stdio: 'inherit',
        env: { ...process.env, [BUNDLED_ENV]: b.label, [REPO_ENV]: ROOT },
      })
      forward = () => void child.kill('SIGTERM')
      child.on('error', fail)
      child.on('exit', (code, signal) => done(code ?? (signal === null ? 1 : 128)))
    })
  } finally {
    process.off('SIGINT', ignore)
    process.off('SIGTERM', onTerm)
    b.remove()
  }
}

/** What a bench run measures: its bundle's label in a bundled run, else that it runs under tsx. */
export function buildLabel(): string {
  return process.env[BUNDLED_ENV] ?? `under tsx, run by node ${process.version}, engine from ${SRC}`
}

/**
 * A bench's own entry point, bundled by default: unless this is already the bundled run or `argv` has `--tsx`,
 * bundles `entry` (against `--src DIR`'s checkout when given) and runs it with the rest of `argv` and node flags
 * (`nodeFlags`, then BENCH_NODE_FLAGS, space-separated, e.g. --cpu-prof); resolves to its exit code, or null when
 * this process is the one to measure.
 */
export async function runSelfBundled(
  entry: string,
  argv: readonly string[],
  nodeFlags: readonly string[] = [],
): Promise<number | null> {
  const srcAt = argv.indexOf('--src')
  if (process.env[BUNDLED_ENV] !== undefined || argv.includes('--tsx')) {
    if (srcAt >= 0) throw new Error('--src needs a bundled run (drop --tsx)')
    return null
  }
  const srcRoot = srcAt >= 0 ? argv[srcAt + 1] : undefined
  if (srcAt >= 0 && srcRoot === undefined) throw new Error('--src needs a folder')
  const args = srcAt >= 0 ? [...argv.slice(0, srcAt), ...argv.slice(srcAt + 2)] : argv
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter((f) => f.length > 0)
  return runBundled(entry, args, {
    ...(srcRoot === undefined ? {} : { srcRoot }),
    nodeFlags: [...nodeFlags, ...flags],
  })
}
