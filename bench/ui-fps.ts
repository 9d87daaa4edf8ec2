// UI frame rate under the simulator's firehose: a market window on a firehose market in the system Chromium,
// frames counted with requestAnimationFrame for ~10 s. Prints one JSON line. A measurement, not a test.
//   npx tsx bench/ui-fps.ts [--rate MSGS_PER_SEC] [--markets N] [--seconds S] [--no-animations]
import { chromium } from '@playwright/test'
import { existsSync } from 'node:fs'
import { createMemoryStore, createMonitor } from '../src/main/services'
import type { Logger } from '../src/main/services/types'
import { ensureRendererBuilt } from '../src/main/web/build'
import { startWebHost } from '../src/main/web/server'
import { createSimulator } from '../src/sim'
import { firehoseId } from '../src/sim/firehose'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/e2e/chromium.mjs'

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`)
  return v
}

const quiet: Logger = {
  info: () => {},
  warn: () => {},
  error: (m, f) => process.stderr.write(`${m} ${JSON.stringify(f ?? {})}\n`),
}

async function main(): Promise<void> {
  const rate = arg('rate', 5000)
  const markets = Math.round(arg('markets', 100))
  const seconds = arg('seconds', 10)
  if (!existsSync(CHROMIUM)) {
    console.log(JSON.stringify({ bench: 'ui-fps', skipped: `${CHROMIUM} not found` }))
    return
  }
  await ensureRendererBuilt({ logger: quiet })
  const sim = await createSimulator({ seed: 1 })
  const engine = await createMonitor({
    settingsPath: null,
    demo: false,
    credentials: createMemoryStore(),
    logger: quiet,
  })
  const setup = engine.attachClient({ label: 'bench-setup', sink: () => {} })
  const saved = await setup.saveProfile({ name: 'bench', baseUrl: sim.baseUrl, wsUrl: sim.wsUrl })
  if (!saved.ok) throw new Error(`saveProfile: ${saved.error.message}`)
  await setup.selectProfile(saved.value.id)
  const key = await setup.setApiKey({ key: sim.demoKey, label: 'bench' })
  if (!key.ok) throw new Error(`setApiKey: ${key.error.message}`)
  setup.dispose()
  const host = await startWebHost({ monitor: engine, logger: quiet })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    const market = firehoseId(0)
    const url = new URL(host.url)
    url.searchParams.set('view', 'market')
    url.searchParams.set('market', market)
    await page.goto(url.toString())
    await page.locator('[data-testid="orderbook"][data-state="live"]').waitFor({ timeout: 60_000 })
    // Diagnostic: how much of the frame budget goes to CSS animations and transitions.
    const extraCss = process.argv.indexOf('--css')
    if (process.argv.includes('--no-animations'))
      await page.addStyleTag({
        content: '*, *::before { animation: none !important; transition: none !important; }',
      })
    else if (extraCss >= 0) await page.addStyleTag({ content: process.argv[extraCss + 1] ?? '' })
    const started = sim.stats().firehoseSent
    sim.faults.firehose({ msgsPerSec: rate, markets })
    await page.waitForTimeout(1_000)
    // Browser-side code as text: this file typechecks against Node's libs.
    const result = (await page.evaluate(`new Promise((resolve) => {
      const times = []
      const end = performance.now() + ${seconds * 1000}
      const step = (t) => {
        times.push(t)
        if (t < end) requestAnimationFrame(step)
        else resolve(times)
      }
      requestAnimationFrame(step)
    })`)) as number[]
    sim.faults.stopFirehose()
    const gaps = result.slice(1).map((t, i) => t - (result[i] as number))
    const durationMs = (result[result.length - 1] ?? 0) - (result[0] ?? 0)
    const sorted = [...gaps].sort((a, b) => a - b)
    const tradeRows = await page.getByTestId('trade-row').count()
    console.log(
      JSON.stringify({
        bench: 'ui-fps',
        market,
        msgsPerSec: rate,
        markets,
        seconds,
        fps: Math.round((gaps.length / durationMs) * 1000 * 10) / 10,
        frames: gaps.length,
        p95FrameMs: Math.round((sorted[Math.floor(sorted.length * 0.95)] ?? 0) * 10) / 10,
        longestFrameMs: Math.round((sorted[sorted.length - 1] ?? 0) * 10) / 10,
        framesOver50ms: gaps.filter((g) => g > 50).length,
        firehoseDelivered: sim.stats().firehoseSent - started,
        tradeRowsShown: tradeRows,
      }),
    )
  } finally {
    await browser.close()
    await host.close()
    await engine.close()
    await sim.close()
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`ui-fps: ${e instanceof Error ? e.stack : String(e)}\n`)
  process.exit(1)
})
