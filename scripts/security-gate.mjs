// Security gate: Electronegativity over the sources, failing on any warning- or error-level finding.
// Electronegativity itself always exits 0, so this script reads its SARIF report and decides.
// A justified exception is an inline `// eng-disable CHECK_ID -- why` comment on the flagged line.
// Usage: node scripts/security-gate.mjs [--input DIR]   (default: src)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

// The "available security fixes" check asks GitHub for Electron's release list at scan time: dependency
// currency is the job of dependency updates, and a network call would make the gate's verdict depend on
// the day and the connection.
const EXCLUDED_CHECKS = ['availablesecurityfixesglobalcheck']
const FAILING_LEVELS = new Set(['warning', 'error'])

function parseArgs(argv) {
  const at = argv.indexOf('--input')
  return { input: resolve(root, at >= 0 && argv[at + 1] ? argv[at + 1] : 'src') }
}

// Electronegativity starts writing the report without waiting for it; read it once it is complete.
async function readReport(path) {
  let lastError = null
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      return JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      lastError = error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  throw new Error(
    `no readable SARIF report: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
  )
}

async function main() {
  const { input } = parseArgs(process.argv.slice(2))
  const run = require('@doyensec/electronegativity')
  const electronVersion = require('electron/package.json').version
  const dir = mkdtempSync(join(tmpdir(), 'tm-electronegativity-'))
  const sarifPath = join(dir, 'report.sarif')
  let outcome
  try {
    outcome = await run(
      {
        input,
        output: sarifPath,
        isSarif: true,
        customScan: [],
        excludeFromScan: EXCLUDED_CHECKS,
        isRelative: true,
        isVerbose: false,
        electronVersionOverride: electronVersion,
        parserPlugins: [],
      },
      false,
    )
    const sarif = await readReport(sarifPath)
    const results = sarif.runs?.flatMap((r) => r.results ?? []) ?? []
    const describe = (r) => {
      const loc = r.locations?.[0]?.physicalLocation
      const file = loc?.artifactLocation?.uri ?? '?'
      const line = loc?.region?.startLine ?? 0
      return `${r.ruleId} ${file}:${line} ${r.message?.text ?? ''}`
    }
    const failing = results.filter((r) => FAILING_LEVELS.has(r.level))
    const review = results.filter((r) => !FAILING_LEVELS.has(r.level))
    // A file the scanner cannot parse is a file it did not check.
    const unparsed = (outcome?.errors ?? []).filter((e) => !e.tolerable)

    for (const r of review) process.stdout.write(`review (${r.level}): ${describe(r)}\n`)
    for (const e of unparsed) process.stdout.write(`FAIL could not parse ${e.file}: ${e.message}\n`)
    for (const r of failing) process.stdout.write(`FAIL ${r.level}: ${describe(r)}\n`)
    const files = new Set((outcome?.issues ?? []).map((i) => i.file)).size
    if (failing.length > 0 || unparsed.length > 0) {
      process.stdout.write(
        `security gate: FAILED (${failing.length} finding(s), ${unparsed.length} unparsed file(s)) in ${input}\n`,
      )
      process.exitCode = 1
    } else {
      process.stdout.write(
        `security gate: passed (${review.length} item(s) for review, ${files} file(s) with notes) in ${input}\n`,
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  process.stdout.write(
    `security gate: could not run: ${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exitCode = 1
})
