// The Electronegativity gate passes on our sources and fails, listing the finding, on an insecure window.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')
const fixture = mkdtempSync(join(tmpdir(), 'tm-gate-fixture-'))
afterAll(() => rmSync(fixture, { recursive: true, force: true }))

function gate(input: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [join(root, 'scripts/security-gate.mjs'), '--input', input], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  })
  return { status: run.status, out: `${run.stdout}${run.stderr}` }
}

describe('security gate', () => {
  it('passes on src', () => {
    const { status, out } = gate('src')
    expect(out).toContain('security gate: passed')
    expect(status).toBe(0)
  }, 130_000)

  it('fails on an insecure window and lists the findings', () => {
    writeFileSync(
      join(fixture, 'main.js'),
      [
        "const { BrowserWindow } = require('electron')",
        'const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } })',
        "win.loadURL('http://example.com/')",
        '',
      ].join('\n'),
    )
    const { status, out } = gate(fixture)
    expect(status).toBe(1)
    expect(out).toMatch(/FAIL warning: SANDBOX_JS_CHECK main\.js:2/)
    expect(out).toMatch(/FAIL warning: CONTEXT_ISOLATION_JS_CHECK main\.js:2/)
    expect(out).toMatch(/FAIL warning: LIMIT_NAVIGATION_GLOBAL_CHECK/)
    expect(out).toContain('security gate: FAILED')
  }, 130_000)
})
