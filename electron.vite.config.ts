import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { rendererConfig } from './vite.renderer.config.mjs'

// electron-vite 6 externalises dependencies by default (build.externalizeDeps); the old
// externalizeDepsPlugin() is deprecated and no longer needed.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // Demo mode runs the simulator in a worker thread; the packaged app needs it as a file of its own.
          'sim-worker': resolve(__dirname, 'src/sim/worker-entry.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only 'electron' and a few built-ins: bundle everything else into it.
      externalizeDeps: false,
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: rendererConfig(),
})
