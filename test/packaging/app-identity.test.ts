// The app's identity is written once and read by both electron-builder and the app: the appId in
// app-identity.json (electron-builder.yml extends it; src/shared/app-identity.ts imports it), the product name,
// publisher and homepage in package.json. Checked through electron-builder's own config loader and AppInfo, so
// what is compared is what the installers would get.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { AppInfo } from 'app-builder-lib'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { DebugLogger } from 'builder-util'
import { describe, expect, it, vi } from 'vitest'
import { APP_ID } from '../../src/shared/app-identity'

vi.mock('electron', () => ({ Notification: class {} }))

const root = join(__dirname, '../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  productName: string
  author: { name: string; email: string; url?: string }
  homepage: string
}
const identity = JSON.parse(readFileSync(join(root, 'app-identity.json'), 'utf8')) as Record<string, unknown>

async function builderConfig(): Promise<Record<string, unknown>> {
  return (await getConfig(root, null, null)) as Record<string, unknown>
}

/** electron-builder's AppInfo for this project: the id, names and copyright the installers are given. */
function appInfo(config: Record<string, unknown>): AppInfo {
  const info = {
    metadata: pkg,
    config,
    devMetadata: null,
    framework: { defaultAppIdPrefix: 'com.electron.' },
  }
  return new AppInfo(info as unknown as ConstructorParameters<typeof AppInfo>[0], null)
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : [path]
  })
}

describe('app identity', () => {
  it('electron-builder loads the appId from app-identity.json, and the merged config is valid', async () => {
    const config = await builderConfig()
    expect(config.appId).toBe(identity.appId)
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
  })

  it('the app uses the same appId as its Windows AppUserModelID', async () => {
    const { APP_USER_MODEL_ID } = await import('../../src/main/notifier')
    expect(APP_ID).toBe(identity.appId)
    expect(APP_USER_MODEL_ID).toBe(APP_ID)
  })

  it('the installers get the id, name, publisher and copyright from that one place', async () => {
    const app = appInfo(await builderConfig())
    expect(app.id).toBe(APP_ID)
    expect(app.macBundleIdentifier).toBe(APP_ID)
    expect(app.productName).toBe(pkg.productName)
    expect(app.companyName).toBe(pkg.author.name)
    expect(app.copyright).toBe(`Copyright © ${new Date().getFullYear()} ${pkg.author.name}`)
  })

  it('is a real-looking identity, not a placeholder', () => {
    expect(APP_ID).toMatch(/^[a-z0-9]+(\.[a-z0-9-]+)+$/)
    expect(pkg.productName).toBe('Trading Monitor')
    // The .deb's maintainer and vendor are "name <email>" from package.json's author (FpmTarget).
    expect(pkg.author.email).toMatch(/^[^@\s]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/)
    expect(pkg.homepage).toMatch(/^https:\/\//)
    for (const value of [APP_ID, pkg.author.email, pkg.homepage, pkg.author.name]) {
      expect(value).not.toMatch(
        /\.(invalid|example|test|localhost)\b|example\.(com|org)|your\.id|^com\.electron\./,
      )
    }
  })

  it('nothing else writes the identity down', async () => {
    const config = await builderConfig()
    // electron-builder.yml restates none of it; it would override app-identity.json and package.json.
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8')
    expect(yml).not.toMatch(/^(appId|productName|copyright):/m)
    expect(yml).not.toMatch(/^\s+(maintainer|vendor):/m)
    expect((config.linux as Record<string, unknown> | undefined)?.maintainer).toBeUndefined()
    // The id is spelled out in app-identity.json only; the old placeholders are gone everywhere.
    const sources = [
      ...files(join(root, 'src')),
      join(root, 'electron-builder.yml'),
      join(root, 'package.json'),
    ]
    for (const file of sources) {
      const text = readFileSync(file, 'utf8')
      const where = relative(root, file)
      expect(text.includes(APP_ID), where).toBe(false)
      expect(text, where).not.toMatch(/com\.tradingmonitor\.desktop|trading-monitor\.invalid/)
    }
  })
})
