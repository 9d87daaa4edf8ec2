// electron-builder.yml checked against electron-builder's own JSON schema, plus the choices the schema
// cannot express: every fuse as required, native keyring unpacked, all targets and architectures.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv from 'ajv'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')
const schema = JSON.parse(
  readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'),
) as object
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema)

interface TargetSpec {
  target: string
  arch: string[]
}
interface BuilderConfig {
  appId: string
  productName: string
  directories: { output: string; buildResources: string }
  files: string[]
  asar: boolean
  asarUnpack: string[]
  extraResources: { from: string; to: string; filter?: string[] }[]
  electronFuses: Record<string, boolean>
  mac: {
    hardenedRuntime: boolean
    entitlements: string
    entitlementsInherit: string
    notarize: boolean
    icon: string
    target: TargetSpec[]
  }
  win: { icon: string; target: TargetSpec[] }
  linux: { icon: string; target: TargetSpec[] }
  deb: { depends: string[] }
  publish: { provider: string; releaseType: string }
}

const raw: unknown = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'))
const config = raw as BuilderConfig

function targets(list: TargetSpec[]): string[] {
  return list.flatMap((t) => t.arch.map((a) => `${t.target}:${a}`)).sort()
}

describe('electron-builder.yml', () => {
  it('is valid against electron-builder schema', () => {
    const valid = validate(raw)
    expect(validate.errors ?? []).toEqual([])
    expect(valid).toBe(true)
  })

  it('the schema check is not a rubber stamp', () => {
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNodes: false } })).toBe(false)
    expect(validate({ ...config, asar: 'yes' })).toBe(false)
    expect(validate({ ...config, notAnOption: 1 })).toBe(false)
  })

  it('names the app and packs only the build output', () => {
    // appId and productName come from app-identity.json and package.json (app-identity.test.ts).
    expect(config.appId).toBeUndefined()
    expect(config.productName).toBeUndefined()
    expect(config.directories.output).toBe('release')
    expect(config.files.sort()).toEqual(['out/**', 'package.json'])
    expect(config.asar).toBe(true)
  })

  it('keeps the keyring native binary (and its platform package) outside the asar', () => {
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        '**/node_modules/@napi-rs/keyring/**',
        '**/node_modules/@napi-rs/keyring-*/**',
      ]),
    )
  })

  it('sets every fuse as required', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
  })

  it('builds every platform for x64 and arm64', () => {
    expect(targets(config.mac.target)).toEqual(['dmg:arm64', 'dmg:x64', 'zip:arm64', 'zip:x64'])
    expect(targets(config.win.target)).toEqual(['nsis:arm64', 'nsis:x64'])
    expect(targets(config.linux.target)).toEqual(['AppImage:arm64', 'AppImage:x64', 'deb:arm64', 'deb:x64'])
  })

  it('hardens and notarises macOS builds with the committed entitlements', () => {
    expect(config.mac.hardenedRuntime).toBe(true)
    expect(config.mac.notarize).toBe(true)
    const plist = readFileSync(join(root, config.mac.entitlements), 'utf8')
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements)
    // Nothing that weakens the hardened runtime beyond the JIT.
    const keys = [...plist.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])
    expect(keys).toEqual(['com.apple.security.cs.allow-jit'])
  })

  it('depends on the Secret Service library on Debian', () => {
    expect(config.deb.depends).toContain('libsecret-1-0')
  })

  it('points at icons that exist', () => {
    for (const path of [
      config.mac.icon,
      config.win.icon,
      join(config.linux.icon, '512x512.png'),
      'resources/icon.png',
    ]) {
      expect(existsSync(join(root, path)), path).toBe(true)
    }
  })

  it('ships the alert sound and the tray icons outside the asar, where the shell looks for them', () => {
    expect(config.extraResources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: 'resources/sounds', to: 'sounds' }),
        expect.objectContaining({ from: 'resources/tray', to: 'tray' }),
      ]),
    )
    // src/main/resources.ts: <resourcesPath>/sounds/alert.wav, <resourcesPath>/tray/<icon>.
    for (const path of [
      'resources/sounds/alert.wav',
      'resources/tray/win-live.png',
      'resources/tray/win-live@2x.png',
      'resources/tray/linux-offline.png',
      'resources/tray/macLiveTemplate.png',
      'resources/tray/macOfflineTemplate@2x.png',
    ]) {
      expect(existsSync(join(root, path)), path).toBe(true)
    }
  })

  it('publishes to a draft GitHub release', () => {
    expect(config.publish).toEqual({ provider: 'github', releaseType: 'draft' })
  })
})
