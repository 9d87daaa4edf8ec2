// Where the packaged app finds what it loads at run time, checked against the files that decide it: the
// electron-vite build (electron.vite.config.ts), package.json's `main`, electron-builder.yml's `files` and
// `asarUnpack` (matched with electron-builder's own matcher), @napi-rs/keyring's loader and the release
// workflow. No Electron binary is needed. docs/electron.md says why each path is where it is.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import electronViteConfig from '../../electron.vite.config'
import { startSimulatorWorker } from '../../src/sim/worker'

const root = join(__dirname, '../..')
const requireHere = createRequire(__filename)

interface TargetSpec {
  target: string
  arch: string[]
}
interface BuilderConfig {
  files: string[]
  asar: boolean | { smartUnpack?: boolean }
  asarUnpack: string[]
  mac: { target: TargetSpec[] }
  win: { target: TargetSpec[] }
  linux: { target: TargetSpec[] }
}
const builder = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string
  dependencies: Record<string, string>
}

// electron-builder's own glob matcher (app-builder-lib/out/fileMatcher), so that a pattern means here exactly
// what it means when the asar is packed: paths relative to the app directory, minimatch with dot: true.
interface FilterStats {
  isDirectory(): boolean
  moduleFullFilePath?: string
}
interface FileMatcherClass {
  new (
    from: string,
    to: string,
    macroExpander: (pattern: string) => string,
    patterns: string[],
  ): { createFilter(): (file: string, stat: FilterStats) => boolean }
}
const { FileMatcher } = requireHere('app-builder-lib/out/fileMatcher') as { FileMatcher: FileMatcherClass }

/** Whether electron-builder's patterns select `relativePath` (a file of the app directory, `/`-separated). */
function selects(patterns: string[], relativePath: string): boolean {
  const appDir = join(root, '.app-dir-under-test')
  const filter = new FileMatcher(appDir, '/dest', (p) => p, patterns).createFilter()
  const isNodeModule = relativePath.startsWith('node_modules/')
  const stat: FilterStats = {
    isDirectory: () => false,
    // Files of node_modules are matched by their path inside the app (NodeModuleCopyHelper sets this).
    ...(isNodeModule ? { moduleFullFilePath: relativePath } : {}),
  }
  return filter(join(appDir, ...relativePath.split('/')), stat)
}

/** The unpack decision electron-builder makes for a file (asarUnpack patterns; smartUnpack is extra). */
const unpacked = (relativePath: string): boolean => selects(builder.asarUnpack, relativePath)

const RESOURCES = '/opt/Trading Monitor/resources'
const APP_ASAR = `${RESOURCES}/app.asar`

describe('the simulator worker', () => {
  const main = electronViteConfig.main as {
    build: { outDir: string; rollupOptions: { input: Record<string, string> } }
  }

  it('is built as sim-worker.js beside the main entry that package.json names', () => {
    expect(main.build.rollupOptions.input['index']).toBe(join(root, 'src/main/index.ts'))
    expect(main.build.rollupOptions.input['sim-worker']).toBe(join(root, 'src/sim/worker-entry.ts'))
    // The entry asks for join(__dirname, 'sim-worker.js') (test/shell/lifecycle.test.ts checks that), and
    // __dirname is the directory of package.json's `main` both in development and when packaged.
    expect(pkg.main).toBe(`${main.build.outDir}/index.js`)
  })

  it('unpackaged (electron .): out/main/sim-worker.js in the repository', () => {
    const appPath = root
    const worker = join(appPath, dirname(pkg.main), 'sim-worker.js')
    expect(relative(root, worker).split(sep).join('/')).toBe('out/main/sim-worker.js')
  })

  it('packaged: inside app.asar, packed together with the modules it requires', () => {
    const worker = `${APP_ASAR}/${dirname(pkg.main)}/sim-worker.js`
    expect(worker).toBe(`${RESOURCES}/app.asar/out/main/sim-worker.js`)
    const inApp = worker.slice(APP_ASAR.length + 1)
    // In the archive at all: `files` selects it.
    expect(selects(builder.files, inApp)).toBe(true)
    // Kept inside the archive, beside the chunks and node_modules it requires: Electron's asar support runs in
    // worker threads (electron/electron#33216), while an unpacked worker would look for zod and ws under
    // app.asar.unpacked/node_modules, which holds only the keyring.
    expect(unpacked(inApp)).toBe(false)
    expect(unpacked('out/main/chunks/protocol.js')).toBe(false)
    expect(unpacked('node_modules/ws/index.js')).toBe(false)
    expect(unpacked('node_modules/zod/index.cjs')).toBe(false)
    // What the worker requires is packed because it is a runtime dependency (npm run test:bundle checks the
    // built file's requires against this list).
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['ws', 'zod']))
  })

  const built = join(root, 'out/main/sim-worker.js')
  const builtMain = join(root, 'out/main/index.js')
  // `npm test` builds (test:bundle) before the unit tests; a bare vitest run without a build skips these, but
  // under CI a missing build is a failure, not a skip.
  const ci = process.env['CI'] === 'true'
  if (!existsSync(builtMain) && !ci) console.log('SKIP built-bundle checks: no out/main (run npm run build)')
  it.skipIf(!existsSync(builtMain) && !ci)(
    'the built main bundle resolves the worker from its own CommonJS __dirname (skipped until npm run build)',
    () => {
      const text = readFileSync(builtMain, 'utf8')
      // A bundle that rewrote __dirname (or an ESM build, where it does not exist) would point elsewhere.
      expect(text).toMatch(/join\)?\(__dirname, "sim-worker\.js"\)/)
      expect(text).toMatch(/join\)?\(__dirname, "\.\.\/preload\/index\.js"\)/)
      expect(text).not.toContain('import.meta')
      expect(existsSync(built)).toBe(true)
    },
  )
  it.skipIf(!existsSync(built) && !ci)(
    'the built worker file starts the simulator in a worker thread (skipped until npm run build)',
    async () => {
      const sim = await startSimulatorWorker({ entry: built, host: '127.0.0.1', port: 0, seed: 3 })
      try {
        const response = await fetch(`${sim.baseUrl}/data/events`, { headers: { 'X-Api-Key': sim.demoKey } })
        expect(response.status).toBe(200)
        const body = (await response.json()) as { events?: unknown }
        expect(Array.isArray(body.events)).toBe(true)
      } finally {
        await sim.close()
      }
    },
  )
})

describe('the keyring native module', () => {
  const keyringDir = join(root, 'node_modules/@napi-rs/keyring')
  const keyring = JSON.parse(readFileSync(join(keyringDir, 'package.json'), 'utf8')) as {
    optionalDependencies: Record<string, string>
  }
  const loader = readFileSync(join(keyringDir, 'index.js'), 'utf8')

  /**
   * The binding @napi-rs/keyring's index.js loads for an Electron build's platform and arch: glibc on Linux
   * (Electron's Linux builds are glibc), MSVC on Windows (Electron's process.config has neither
   * shlib_suffix 'dll.a' nor node_target_type 'shared_library', the two things that switch the loader to -gnu).
   */
  function binding(platform: 'mac' | 'win' | 'linux', arch: string): string {
    if (platform === 'mac') return `darwin-${arch}`
    if (platform === 'win') return `win32-${arch}-msvc`
    return `linux-${arch}-gnu`
  }
  const targets = (['mac', 'win', 'linux'] as const).flatMap((platform) =>
    [...new Set(builder[platform].target.flatMap((t) => t.arch))].map((arch) => ({
      platform,
      arch,
      name: binding(platform, arch),
    })),
  )

  it('every platform and arch the app is built for has a published binding the loader asks for', () => {
    expect(targets.map((t) => t.name).sort()).toEqual([
      'darwin-arm64',
      'darwin-x64',
      'linux-arm64-gnu',
      'linux-x64-gnu',
      'win32-arm64-msvc',
      'win32-x64-msvc',
    ])
    for (const { name } of targets) {
      expect(Object.keys(keyring.optionalDependencies)).toContain(`@napi-rs/keyring-${name}`)
      expect(loader).toContain(`require('@napi-rs/keyring-${name}')`)
    }
  })

  it('each of those bindings is unpacked from app.asar (asarUnpack, matched as electron-builder does)', () => {
    for (const { name } of targets) {
      // The loader's require('@napi-rs/keyring-<name>') reaches this file; Electron then dlopens its copy in
      // app.asar.unpacked instead of extracting it to a temporary file.
      const file = `node_modules/@napi-rs/keyring-${name}/keyring.${name}.node`
      expect(unpacked(file), file).toBe(true)
      expect(unpacked(`node_modules/@napi-rs/keyring-${name}/package.json`)).toBe(true)
    }
    // The loader itself sits beside its bindings (its ./keyring.<name>.node fallbacks are looked up there).
    expect(unpacked('node_modules/@napi-rs/keyring/index.js')).toBe(true)
    // Only the keyring: everything else stays packed.
    expect(unpacked('node_modules/@napi-rs/other/x.node')).toBe(false)
    expect(unpacked('out/main/index.js')).toBe(false)
  })

  it('the bindings installed here are unpacked too, whatever their file names', () => {
    const scope = join(root, 'node_modules/@napi-rs')
    const installed = readdirSync(scope).filter((d) => d.startsWith('keyring-'))
    expect(installed.length).toBeGreaterThan(0)
    for (const dir of installed) {
      const nodes = readdirSync(join(scope, dir)).filter((f) => f.endsWith('.node'))
      expect(nodes.length, dir).toBeGreaterThan(0)
      for (const file of nodes) expect(unpacked(`node_modules/@napi-rs/${dir}/${file}`), file).toBe(true)
    }
  })

  it('a packaged build loads the binding from app.asar.unpacked', () => {
    const installed = readdirSync(join(root, 'node_modules/@napi-rs')).find((d) => d.startsWith('keyring-'))
    expect(installed).toBeDefined()
    const name = (installed ?? '').slice('keyring-'.length)
    const inApp = `node_modules/@napi-rs/keyring-${name}/keyring.${name}.node`
    // Electron's asar layer: a file flagged unpacked in the archive header is read from the sibling directory.
    const loaded = unpacked(inApp) ? `${RESOURCES}/app.asar.unpacked/${inApp}` : `${APP_ASAR}/${inApp}`
    expect(loaded).toBe(
      `${RESOURCES}/app.asar.unpacked/node_modules/@napi-rs/keyring-${name}/keyring.${name}.node`,
    )
    // It is packed at all only as a runtime dependency, required (not bundled) by the main process bundle.
    expect(Object.keys(pkg.dependencies)).toContain('@napi-rs/keyring')
    expect(
      builder.asar === true || (typeof builder.asar === 'object' && builder.asar.smartUnpack !== false),
    ).toBe(true)
  })

  it('the release workflow installs the binding of every arch it packages, per OS runner', () => {
    const workflow = parse(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8')) as {
      jobs: Record<string, { strategy: { matrix: { include: { os: string; keyring: string }[] } } }>
    }
    const matrix = Object.values(workflow.jobs)[0]?.strategy.matrix.include ?? []
    const runnerOf = { mac: 'macos', win: 'windows', linux: 'ubuntu' } as const
    for (const platform of ['mac', 'win', 'linux'] as const) {
      const entry = matrix.find((m) => m.os.startsWith(runnerOf[platform]))
      expect(entry, platform).toBeDefined()
      const wanted = targets.filter((t) => t.platform === platform).map((t) => t.name)
      expect((entry?.keyring ?? '').split(/\s+/).filter(Boolean).sort(), platform).toEqual(wanted.sort())
    }
  })
})
