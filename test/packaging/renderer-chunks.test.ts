// The renderer build: React, the charts and (once added) the docking library each in a chunk of their own,
// every chunk under Vite's 500 kB warning limit, and no warning printed. Builds into a temporary directory with
// the same config electron-vite and the browser host use.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rendererChunkOf, rendererConfig } from '../../vite.renderer.config.mjs'

describe('renderer chunk rule', () => {
  it.each([
    ['/p/node_modules/react/cjs/react.production.js', 'react'],
    ['/p/node_modules/react-dom/cjs/react-dom-client.production.js', 'react'],
    ['/p/node_modules/scheduler/index.js', 'react'],
    ['C:\\p\\node_modules\\react-dom\\client.js', 'react'],
    ['/p/node_modules/lightweight-charts/dist/lightweight-charts.production.mjs', 'charts'],
    ['/p/node_modules/fancy-canvas/index.mjs', 'charts'],
    ['/p/node_modules/dockview-core/dist/esm/index.js', 'docking'],
    ['/p/node_modules/dockview-react/dist/esm/index.js', 'docking'],
    ['/p/node_modules/flexlayout-react/lib/index.js', 'docking'],
    ['/p/node_modules/@tanstack/react-virtual/dist/esm/index.js', null],
    ['/p/node_modules/zustand/esm/index.mjs', null],
    ['/p/node_modules/react-fast-compare/index.js', null],
    ['/p/src/renderer/views/MarketView.tsx', null],
    ['/p/src/renderer/react/thing.ts', null],
  ])('%s -> %s', (id, chunk) => {
    expect(rendererChunkOf(id)).toBe(chunk)
  })
})

describe('renderer build', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'tm-renderer-'))
  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  it('splits React and the charts into their own chunks, each under 500 kB, with no warning', async () => {
    const { build, createLogger } = await import('vite')
    const logger = createLogger('warn')
    const warnings: string[] = []
    logger.warn = (msg) => void warnings.push(msg)
    logger.warnOnce = (msg) => void warnings.push(msg)
    const config = rendererConfig()
    await build({
      ...config,
      configFile: false,
      mode: 'production',
      logLevel: 'warn',
      customLogger: logger,
      build: { ...config.build, outDir, emptyOutDir: true },
    })
    expect(warnings).toEqual([])

    const assets = join(outDir, 'assets')
    const js = readdirSync(assets).filter((f) => f.endsWith('.js'))
    const chunk = (name: string): string => {
      const file = js.find((f) => f.startsWith(`${name}-`))
      expect(file, `${name} chunk among ${js.join(', ')}`).toBeDefined()
      return readFileSync(join(assets, file ?? ''), 'utf8')
    }
    expect(chunk('react')).toMatch(/react\.transitional\.element/)
    expect(chunk('charts')).toMatch(/lightweight-charts|LightweightCharts|Lightweight Charts/i)
    // The app's own chunk has neither library in it.
    const app = chunk('index')
    expect(app).not.toMatch(/react\.transitional\.element/)
    for (const f of js) expect(statSync(join(assets, f)).size, f).toBeLessThan(500 * 1000)
  }, 60_000)
})
