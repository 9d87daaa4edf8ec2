// Playwright config for the Electron e2e suite (test/electron). Run it through scripts/electron-e2e.mjs,
// which skips with one clear line when no Electron binary exists and builds out/ when it is stale.
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: './test/electron',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  outputDir: 'test-results/electron',
  reporter: [['list']],
})
