import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration tests open real loopback sockets; two workers match the 2-core machines.
    maxWorkers: 2,
    environment: 'node',
  },
})
