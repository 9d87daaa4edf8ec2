// The release workflow's structure: three platforms, tests before packaging, Electron e2e under a virtual
// display on Linux, artifacts always uploaded, draft release only from v* tags.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
interface Job {
  'runs-on': string
  strategy: { matrix: { include: { name: string; os: string }[] } }
  steps: Step[]
  permissions?: Record<string, string>
}
interface Workflow {
  name: string
  on: { push: { branches: string[]; tags: string[] }; pull_request: unknown }
  permissions: Record<string, string>
  jobs: Record<string, Job>
}

const workflow = parse(
  readFileSync(join(__dirname, '../../.github/workflows/release.yml'), 'utf8'),
) as Workflow
const job = Object.values(workflow.jobs)[0] as Job
const steps = job.steps

function indexOf(predicate: (s: Step) => boolean, what: string): number {
  const i = steps.findIndex(predicate)
  expect(i, what).toBeGreaterThanOrEqual(0)
  return i
}
const runs = (text: string) => (s: Step) => typeof s.run === 'string' && s.run.includes(text)

describe('release workflow', () => {
  it('runs on pushes, pull requests and v* tags with read-only default permissions', () => {
    expect(workflow.on.push.tags).toEqual(['v*'])
    expect(workflow.on.pull_request).toBeDefined()
    expect(workflow.permissions).toEqual({ contents: 'read' })
    expect(Object.keys(workflow.jobs)).toHaveLength(1)
  })

  it('builds on macOS, Windows and Ubuntu', () => {
    expect(job['runs-on']).toBe('${{ matrix.os }}')
    expect(job.strategy.matrix.include.map((m) => m.os).sort()).toEqual([
      'macos-latest',
      'ubuntu-latest',
      'windows-latest',
    ])
  })

  it('installs, tests, runs the Electron e2e, then packages, in that order', () => {
    const install = indexOf(runs('npm ci'), 'npm ci')
    // npm test's parts; the Electron suite runs in its own steps (under xvfb on Linux).
    const test = indexOf(
      (s) => ['typecheck', 'lint', 'test:unit', 'test:e2e'].every((part) => runs(`npm run ${part}`)(s)),
      'typecheck, lint, unit and browser e2e',
    )
    const gate = indexOf(runs('npm run security'), 'security gate')
    const e2eLinux = indexOf(
      (s) => runs('npm run test:electron')(s) && (s.run ?? '').includes('xvfb-run'),
      'xvfb e2e',
    )
    const dist = indexOf(runs('npm run dist'), 'npm run dist')
    expect(install).toBeLessThan(test)
    expect(test).toBeLessThan(gate)
    expect(gate).toBeLessThan(e2eLinux)
    expect(e2eLinux).toBeLessThan(dist)
    expect(steps[e2eLinux]?.if).toBe("runner.os == 'Linux'")
    expect(steps.some((s) => runs('npm run test:electron')(s) && s.if === "runner.os != 'Linux'")).toBe(true)
  })

  it('publishes a draft release only from v* tags, with the token only there', () => {
    const publishing = steps.filter(runs('--publish always'))
    expect(publishing).toHaveLength(1)
    expect(publishing[0]?.if).toContain("startsWith(github.ref, 'refs/tags/v')")
    expect(publishing[0]?.env?.['GH_TOKEN']).toBe('${{ secrets.GITHUB_TOKEN }}')
    const plain = steps.filter(runs('--publish never'))
    expect(plain).toHaveLength(1)
    expect(plain[0]?.if).toContain("!startsWith(github.ref, 'refs/tags/v')")
    expect(steps.filter((s) => JSON.stringify(s).includes('GITHUB_TOKEN'))).toHaveLength(1)
  })

  it('uploads the installers as artifacts', () => {
    const upload = steps.find(
      (s) => s.uses?.startsWith('actions/upload-artifact') && String(s.with?.['path']).includes('release/'),
    )
    expect(upload).toBeDefined()
    expect(upload?.with?.['if-no-files-found']).toBe('error')
    for (const ext of ['dmg', 'exe', 'AppImage', 'deb'])
      expect(String(upload?.with?.['path'])).toContain(`*.${ext}`)
  })
})
