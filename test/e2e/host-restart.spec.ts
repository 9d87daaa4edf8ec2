// A restarted browser host on the same settings file answers at the same URL (port and token kept beside the
// settings, src/main/web/host-identity.ts), so an open page comes back by itself, never reloaded.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { openLive } from './helpers'
import { startHost, type Host } from './host'

let dir = ''
const hosts: Host[] = []

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tm-e2e-restart-'))
})

test.afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()))
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('the open page reconnects by itself to a restarted host', async ({ page }) => {
  const args = ['--demo', '--settings', join(dir, 'web-settings.json')]
  const first = await startHost({ args })
  hosts.push(first)
  await openLive(page, first.url)
  const status = page.getByTestId('connection-status')

  await first.close()
  await expect(status).not.toHaveAttribute('data-state', 'live', { timeout: 30_000 })
  await expect(page.getByTestId('connection-error')).toContainText('Lost the connection to the browser host')

  const second = await startHost({ args })
  hosts.push(second)
  expect(second.url).toBe(first.url)
  await expect(status).toHaveAttribute('data-state', 'live', { timeout: 60_000 })
  await expect(page.getByTestId('connection-error')).toHaveCount(0)
  expect(page.url()).toBe(first.url)
})
