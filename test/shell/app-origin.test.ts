import { resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { devServerOrigin, isAppUrl, resolveBundleFile, windowUrl } from '../../src/main/app-origin'

describe('isAppUrl', () => {
  it('accepts the bundle and, in development, the dev server', () => {
    expect(isAppUrl('app://bundle/index.html?view=main', null)).toBe(true)
    expect(isAppUrl('http://localhost:5173/?view=main', 'http://localhost:5173')).toBe(true)
  })

  it('refuses everything else', () => {
    for (const url of [
      'file:///etc/passwd',
      'file:///work/main/out/renderer/index.html',
      'https://evil.example/',
      'app://other/index.html',
      'app://user@bundle/index.html',
      'http://localhost:5174/',
      'about:blank',
      'data:text/html,hi',
      'not a url',
    ]) {
      expect(isAppUrl(url, null), url).toBe(false)
    }
    expect(isAppUrl('http://localhost:5173/', null)).toBe(false)
  })
})

describe('devServerOrigin', () => {
  it('accepts loopback http only', () => {
    expect(devServerOrigin('http://localhost:5173/')).toBe('http://localhost:5173')
    expect(devServerOrigin('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000')
    expect(devServerOrigin('http://evil.example:5173')).toBeNull()
    expect(devServerOrigin('file:///x')).toBeNull()
    expect(devServerOrigin(undefined)).toBeNull()
  })
})

describe('windowUrl', () => {
  it('puts the window kind in the query', () => {
    expect(windowUrl({ kind: 'main' }, null)).toBe('app://bundle/index.html?view=main')
    expect(windowUrl({ kind: 'market', market: 'M 1&x=y' }, null)).toBe(
      'app://bundle/index.html?view=market&market=M+1%26x%3Dy',
    )
    expect(windowUrl({ kind: 'event', event: 'E1' }, 'http://localhost:5173')).toBe(
      'http://localhost:5173/?view=event&event=E1',
    )
    const parsed = new URL(windowUrl({ kind: 'market', market: 'M 1&x=y' }, null))
    expect(parsed.searchParams.get('market')).toBe('M 1&x=y')
  })
})

describe('resolveBundleFile', () => {
  const root = resolve('/srv/app/out/renderer')
  it('maps bundle paths into the renderer directory', () => {
    expect(resolveBundleFile(root, 'app://bundle/index.html?view=main')).toBe(resolve(root, 'index.html'))
    expect(resolveBundleFile(root, 'app://bundle/')).toBe(resolve(root, 'index.html'))
    expect(resolveBundleFile(root, 'app://bundle/assets/app-1.js')).toBe(resolve(root, 'assets/app-1.js'))
  })

  it('never leaves the renderer directory', () => {
    for (const url of [
      'app://bundle/../../etc/passwd',
      'app://bundle/%2e%2e/%2e%2e/etc/passwd',
      'app://bundle/assets/..%2f..%2f..%2fetc/passwd',
      'app://bundle/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    ]) {
      const file = resolveBundleFile(root, url)
      if (file !== null) expect(file.startsWith(root + sep), `${url} -> ${file}`).toBe(true)
    }
    expect(resolveBundleFile(root, 'app://bundle/assets/..%2f..%2f..%2fetc/passwd')).toBeNull()
  })

  it('refuses other hosts and odd encodings', () => {
    for (const url of [
      'app://bundle/..%5c..%5cwindows',
      'app://bundle/a%00.html',
      'app://bundle/%E0%A4%A',
      'app://other/index.html',
      'file:///etc/passwd',
    ]) {
      expect(resolveBundleFile(root, url), url).toBeNull()
    }
  })
})
