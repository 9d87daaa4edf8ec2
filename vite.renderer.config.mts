// The renderer's Vite config, shared by electron-vite (Electron build) and the browser host (which builds
// the same renderer when it is missing or out of date).
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import type { UserConfig } from 'vite'

export const rendererRoot = resolve(__dirname, 'src/renderer')
export const rendererOutDir = resolve(__dirname, 'out/renderer')

export function rendererConfig(): UserConfig {
  return {
    root: rendererRoot,
    base: './',
    plugins: [react()],
    build: {
      outDir: rendererOutDir,
      emptyOutDir: true,
      sourcemap: false,
      rollupOptions: { input: resolve(rendererRoot, 'index.html') },
    },
  }
}

export default rendererConfig()
