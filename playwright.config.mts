// End-to-end tests in the system Chromium against the browser host (DESIGN §6: never `playwright install`).
import { defineConfig } from '@playwright/test'
import { CHROMIUM, CHROMIUM_ARGS } from './test/e2e/chromium.mjs'

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: /.*\.spec\.ts$/,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: 'list',
  outputDir: 'test-results',
  use: {
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
})
