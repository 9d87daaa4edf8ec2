// `npm run test:bundle`: builds the Electron bundle (main, preload, simulator worker, renderer) and checks what
// the packaged app will load at run time. electron-vite keeps the runtime `dependencies` external and bundles
// everything else; this pins that outcome: a sandboxed preload may require only `electron`, and the main
// bundle only Node built-ins, `electron` and runtime dependencies (electron-builder packs nothing else, so an
// external devDependency would crash the installed app at launch). A build that fails or misses an entry fails.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const build = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
})
if (build.status !== 0) {
  console.error('test:bundle: electron-vite build failed')
  process.exit(1)
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const runtime = new Set(Object.keys(pkg.dependencies ?? {}))
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))
const problems = []

function requiresOf(file) {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])
}
function packageName(spec) {
  return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
}

for (const file of [
  'out/main/index.js',
  'out/main/sim-worker.js',
  'out/preload/index.js',
  'out/renderer/index.html',
]) {
  if (!existsSync(join(root, file))) problems.push(`${file} was not built`)
}
for (const spec of requiresOf(join(root, 'out/preload/index.js'))) {
  if (spec !== 'electron')
    problems.push(`the sandboxed preload requires ${spec}: only electron can be required there`)
}
const mainFiles = ['out/main/index.js', 'out/main/sim-worker.js']
const chunks = join(root, 'out/main/chunks')
if (existsSync(chunks)) for (const f of readdirSync(chunks)) mainFiles.push(join('out/main/chunks', f))
for (const file of mainFiles) {
  for (const spec of requiresOf(join(root, file))) {
    if (spec.startsWith('.') || spec === 'electron' || builtins.has(spec)) continue
    if (!runtime.has(packageName(spec)))
      problems.push(`${file} requires ${spec}, which is not a runtime dependency in package.json`)
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(`test:bundle: ${p}`)
  process.exit(1)
}
console.log('test:bundle: main, preload, simulator worker and renderer built; runtime requires are packaged')
