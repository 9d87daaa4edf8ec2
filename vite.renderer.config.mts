// The renderer's Vite config, shared by electron-vite (Electron build) and the browser host (which builds
// the same renderer when it is missing or out of date).
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import type { UserConfig } from 'vite'

export const rendererRoot = resolve(import.meta.dirname, 'src/renderer')
export const rendererOutDir = resolve(import.meta.dirname, 'out/renderer')

/**
 * The renderer's library chunks, each cached and parsed apart from the app's own code: React (with its
 * scheduler), the charts, and the docking layout (dockview or flexlayout, when one is added). Matched on the
 * package directory, so `react-dom/client` joins React and `@tanstack/react-virtual` does not.
 */
export const RENDERER_CHUNKS: { name: string; packages: string[] }[] = [
  { name: 'react', packages: ['react', 'react-dom', 'scheduler'] },
  { name: 'charts', packages: ['lightweight-charts', 'fancy-canvas'] },
  {
    name: 'docking',
    packages: ['dockview', 'dockview-core', 'dockview-react', 'flexlayout-react', 'rc-dock', 'golden-layout'],
  },
]

/** The library chunk a module belongs in, or null for the app's own chunk. */
export function rendererChunkOf(id: string): string | null {
  const path = id.split('\\').join('/')
  const at = path.lastIndexOf('/node_modules/')
  if (at < 0) return null
  const rest = path.slice(at + '/node_modules/'.length).split('/')
  const pkg = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? '')
  return RENDERER_CHUNKS.find((chunk) => chunk.packages.includes(pkg))?.name ?? null
}

export function rendererConfig(): UserConfig {
  return {
    root: rendererRoot,
    base: './',
    plugins: [react()],
    build: {
      outDir: rendererOutDir,
      emptyOutDir: true,
      sourcemap: false,
      // electron-vite turns minification off by default; the renderer is shipped, so both builds minify it.
      minify: true,
      // Vite 8 bundles with Rolldown: `rolldownOptions` (electron-vite 6 ignores a renderer `rollupOptions`) and
      // `output.codeSplitting`, which replaces Rollup's `manualChunks`.
      rolldownOptions: {
        input: resolve(rendererRoot, 'index.html'),
        output: {
          codeSplitting: {
            groups: RENDERER_CHUNKS.map((chunk) => ({
              name: chunk.name,
              test: (id: string) => rendererChunkOf(id) === chunk.name,
            })),
          },
        },
      },
    },
  }
}

export default rendererConfig()
