// What counts as "our page": the bundled renderer served on app://bundle (or the dev server during
// `electron-vite dev`). Pure, so the trust decisions can be tested without Electron.
import { isAbsolute, relative, resolve, sep } from 'node:path'
import type { WindowTarget } from '../shared/model'

export const APP_SCHEME = 'app'
export const APP_HOST = 'bundle'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

/** Parse a URL, or null. */
function parse(raw: string): URL | null {
  try {
    return new URL(raw)
  } catch {
    return null
  }
}

/** The dev server's origin when running under `electron-vite dev`; only http(s) on loopback is accepted. */
export function devServerOrigin(raw: string | undefined): string | null {
  if (!raw) return null
  const url = parse(raw)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null
  if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return null
  return url.origin
}

/** True when the URL is one of our pages: the app:// bundle, or the dev server when one is in use. */
export function isAppUrl(raw: string, devOrigin: string | null): boolean {
  const url = parse(raw)
  if (!url) return false
  // app: is not a special scheme to WHATWG URL, so its origin reads "null"; compare scheme and host instead.
  if (
    url.protocol === `${APP_SCHEME}:` &&
    url.host === APP_HOST &&
    url.username === '' &&
    url.password === ''
  ) {
    return true
  }
  return devOrigin !== null && url.origin === devOrigin
}

/**
 * The renderer learns its window kind from the query only:
 * `?view=main`, `?view=market&market=ID`, `?view=event&event=ID`.
 */
export function windowQuery(target: WindowTarget): string {
  const params = new URLSearchParams({ view: target.kind })
  if (target.kind === 'market') params.set('market', target.market)
  if (target.kind === 'event') params.set('event', target.event)
  return params.toString()
}

export function windowUrl(target: WindowTarget, devOrigin: string | null): string {
  const base = devOrigin !== null ? `${devOrigin}/` : `${APP_ORIGIN}/index.html`
  return `${base}?${windowQuery(target)}`
}

/**
 * Map an app:// request to a file inside the renderer's build directory, or null when it points anywhere
 * else (other host, traversal, encoded separators, absolute paths).
 */
export function resolveBundleFile(rendererDir: string, requestUrl: string): string | null {
  const url = parse(requestUrl)
  if (!url || url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    return null
  }
  if (path.includes('\0') || path.includes('\\')) return null
  if (path === '/' || path === '') path = '/index.html'
  const root = resolve(rendererDir)
  const file = resolve(root, `.${path}`)
  const rel = relative(root, file)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return null
  return file
}
