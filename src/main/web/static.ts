// Serves the built renderer, read-only, from one directory: nothing outside it is reachable, whatever the URL.
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, posix, resolve, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
}

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/** The Electron window's CSP, plus the bridge socket on this port. */
export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // The page URL carries the token: keep it out of caches.
    'Cache-Control': 'no-store',
  }
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string>,
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  })
  res.end(text)
}

/**
 * Maps a request path to a file under root, or null when the path is malformed or would leave root.
 * Exported for unit tests of hostile paths.
 */
export function resolveUnderRoot(root: string, rawPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(rawPath)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return null
  // Any '..' segment is refused outright rather than normalised away: no legitimate asset URL has one.
  if (decoded.split('/').some((segment) => segment === '..')) return null
  const normal = posix.normalize(decoded)
  const relative = normal === '/' ? 'index.html' : normal.slice(1)
  const file = resolve(root, relative)
  return file.startsWith(root + sep) ? file : null
}

export interface StaticOptions {
  /** Absolute directory of the built renderer. */
  root: string
  headers: Record<string, string>
}

export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  options: StaticOptions,
): Promise<void> {
  const { headers } = options
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(res, 405, 'method not allowed', { ...headers, Allow: 'GET, HEAD' })
    return
  }
  const rawPath = (req.url ?? '/').split('?')[0] ?? '/'
  const root = resolve(options.root)
  const file = resolveUnderRoot(root, rawPath)
  if (file === null) {
    sendText(res, 400, 'bad path', headers)
    return
  }
  let size: number
  let target: string
  try {
    // Symlinks inside the build must not point outside it either.
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)])
    if (!realFile.startsWith(realRoot + sep)) throw new Error('outside root')
    const info = await stat(realFile)
    if (!info.isFile()) throw new Error('not a file')
    size = info.size
    target = realFile
  } catch {
    if (rawPath === '/favicon.ico') {
      // Browsers ask for it unprompted; an empty answer keeps a 404 out of the page's console.
      res.writeHead(204, headers)
      res.end()
    } else if (rawPath === '/' || rawPath === '/index.html') {
      sendText(res, 503, 'The renderer is not built: run `npm run web` without --no-build.', headers)
    } else {
      sendText(res, 404, 'not found', headers)
    }
    return
  }
  res.writeHead(200, { ...headers, 'Content-Type': contentTypeFor(file), 'Content-Length': size })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  const stream = createReadStream(target)
  stream.on('error', () => res.destroy())
  stream.pipe(res)
}
