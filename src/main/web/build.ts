// Builds the renderer for the browser host when the build is missing or older than its sources, with the same
// Vite config electron-vite uses. Vite is loaded only when a build is actually needed.
import { existsSync } from 'node:fs'
import { readdir, rename, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Logger } from '../services'

const repoRoot = resolve(__dirname, '../../..')

export const RENDERER_ROOT = resolve(repoRoot, 'src/renderer')
export const RENDERER_SOURCES = [RENDERER_ROOT, resolve(repoRoot, 'src/shared')]
export const RENDERER_CONFIG = resolve(repoRoot, 'vite.renderer.config.mts')
export const RENDERER_OUT_DIR = resolve(repoRoot, 'out/renderer')

async function newestMtime(path: string): Promise<number> {
  let info
  try {
    info = await stat(path)
  } catch {
    return 0
  }
  if (!info.isDirectory()) return info.mtimeMs
  let newest = info.mtimeMs
  for (const entry of await readdir(path)) {
    newest = Math.max(newest, await newestMtime(join(path, entry)))
  }
  return newest
}

/** True when outDir/index.html is missing or older than any renderer source, shared module or the config. */
export async function rendererOutOfDate(
  outDir: string = RENDERER_OUT_DIR,
  sources: string[] = [...RENDERER_SOURCES, RENDERER_CONFIG],
): Promise<boolean> {
  let built: number
  try {
    built = (await stat(join(outDir, 'index.html'))).mtimeMs
  } catch {
    return true
  }
  for (const source of sources) {
    if ((await newestMtime(source)) > built) return true
  }
  return false
}

export interface EnsureBuiltOptions {
  logger: Logger
  outDir?: string
  /** Build even when the output looks current. */
  force?: boolean
}

export type EnsureBuiltResult = { built: boolean; outDir: string }

/**
 * Builds into a sibling directory and swaps it in, so a host already serving the old build (or a second host
 * starting at the same time) never sees a half-written directory.
 */
export async function ensureRendererBuilt(options: EnsureBuiltOptions): Promise<EnsureBuiltResult> {
  const outDir = resolve(options.outDir ?? RENDERER_OUT_DIR)
  if (!options.force && !(await rendererOutOfDate(outDir))) return { built: false, outDir }
  const entry = join(RENDERER_ROOT, 'index.html')
  if (!existsSync(entry)) throw new Error(`cannot build the renderer: ${entry} does not exist`)
  const staging = `${outDir}.building-${process.pid}-${Date.now()}`
  const retired = `${outDir}.old-${process.pid}-${Date.now()}`
  options.logger.info('web: building the renderer', { outDir })
  const started = Date.now()
  const { build } = await import('vite')
  try {
    await build({
      configFile: RENDERER_CONFIG,
      // Vite's info lines go to stdout, which belongs to the one-line startup contract; warnings go to stderr.
      logLevel: 'warn',
      build: { outDir: staging, emptyOutDir: true },
    })
    if (existsSync(outDir)) await rename(outDir, retired)
    await rename(staging, outDir)
  } finally {
    await rm(staging, { recursive: true, force: true })
    await rm(retired, { recursive: true, force: true })
  }
  options.logger.info('web: renderer built', { outDir, ms: Date.now() - started })
  return { built: true, outDir }
}
