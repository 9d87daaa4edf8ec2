// The HTTP side (DESIGN §3.1): GET /v1/data/events behind the key rules, with a fixed-window rate limit per key.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { EventsListing } from './catalog'
import type { KeyRecord, KeyStore } from './keys'

export interface RestOptions {
  keys: KeyStore
  rateLimit: { requests: number; windowMs: number }
  listing: () => EventsListing
  log: (line: string) => void
}

interface Window {
  start: number
  count: number
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>()

  constructor(private readonly limit: { requests: number; windowMs: number }) {}

  /** Count one request for a key. */
  take(key: string, now = Date.now()): { allowed: boolean; remaining: number; resetAt: number } {
    let w = this.windows.get(key)
    if (w === undefined || now >= w.start + this.limit.windowMs) {
      w = { start: now, count: 0 }
      this.windows.set(key, w)
    }
    const resetAt = w.start + this.limit.windowMs
    if (w.count >= this.limit.requests) return { allowed: false, remaining: 0, resetAt }
    w.count++
    return { allowed: true, remaining: this.limit.requests - w.count, resetAt }
  }

  reset(): void {
    this.windows.clear()
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  })
  res.end(text)
}

export interface AdmitOptions {
  keys: KeyStore
  limiter: RateLimiter
  rateLimit: { requests: number }
  /** The 429 body: the dialects word it differently. */
  limitedBody: (retryAfterSeconds: number) => unknown
  /** The methods the path serves (default GET and HEAD); the first is named in a 405's Allow. */
  methods?: readonly string[]
}

type Headers = Record<string, string | number>

export type Admission =
  | { ok: true; key: KeyRecord; headers: Headers }
  | { ok: false; status: number; body: unknown; headers: Headers }

/**
 * The rules every REST request meets, in both dialects: the path's methods (GET by default), the key's check
 * (401/403), and the per-key rate limit (429 with Retry-After, and the X-RateLimit headers near the limit).
 * Returns the admitted key and the headers the answer must carry, or the refusal to send.
 */
export function admit(req: IncomingMessage, o: AdmitOptions): Admission {
  const methods = o.methods ?? ['GET', 'HEAD']
  if (!methods.includes(req.method ?? '')) {
    return {
      ok: false,
      status: 405,
      body: { error: 'method not allowed' },
      headers: { Allow: methods[0] ?? 'GET' },
    }
  }
  const header = req.headers['x-api-key']
  const value = Array.isArray(header) ? header[0] : header
  const check = o.keys.check(value, req.socket.remoteAddress)
  if (!check.ok) {
    return {
      ok: false,
      status: check.error === 'unauthorized' ? 401 : 403,
      body: { error: check.error },
      headers: {},
    }
  }
  const now = Date.now()
  const rl = o.limiter.take(check.key.value, now)
  const limit = o.rateLimit.requests
  const headers: Headers =
    rl.remaining <= limit * 0.2
      ? {
          'X-RateLimit-Limit': limit,
          'X-RateLimit-Remaining': rl.remaining,
          'X-RateLimit-Reset': Math.ceil(rl.resetAt / 1000),
        }
      : {}
  if (!rl.allowed) {
    const retryAfter = Math.max(1, Math.ceil((rl.resetAt - now) / 1000))
    return {
      ok: false,
      status: 429,
      body: o.limitedBody(retryAfter),
      headers: { ...headers, 'Retry-After': retryAfter },
    }
  }
  return { ok: true, key: check.key, headers }
}

/** What an admitted request gets: a status and a JSON body, sent with the rate-limit headers. */
export type Answer = (key: KeyRecord, query: URLSearchParams) => { status: number; body: unknown }

export interface GatedHandlerOptions extends Omit<AdmitOptions, 'limiter'> {
  rateLimit: { requests: number; windowMs: number }
  /** What a path (without a trailing slash) serves; undefined for a 404, which no key or limit precedes. */
  route: (path: string) => Answer | undefined
  /** The 500 body, in the dialect's words. */
  internalBody: unknown
  log: (line: string) => void
}

export interface RestHandler {
  handle: (req: IncomingMessage, res: ServerResponse) => void
  /** Forget every key's rate-limit windows. */
  resetLimits(): void
}

/** A request's URL, and its path without a trailing slash (what routes match); a URL that does not parse has none. */
export function requestUrl(req: IncomingMessage): { url: URL; path: string } {
  let url: URL
  try {
    url = new URL(req.url ?? '/', 'http://sim.invalid')
  } catch {
    url = new URL('http://sim.invalid/')
  }
  return { url, path: url.pathname.replace(/\/+$/, '') }
}

/** A REST server's request handler in either dialect: route, admit, answer, and a 500 for what throws. */
export function createGatedHandler(o: GatedHandlerOptions): RestHandler {
  const limiter = new RateLimiter(o.rateLimit)
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      const { url, path } = requestUrl(req)
      const answer = o.route(path)
      if (answer === undefined) {
        sendJson(res, 404, { error: 'not found' })
        return
      }
      const admitted = admit(req, { ...o, limiter })
      if (!admitted.ok) {
        sendJson(res, admitted.status, admitted.body, admitted.headers)
        return
      }
      const { status, body } = answer(admitted.key, url.searchParams)
      sendJson(res, status, body, admitted.headers)
    } catch (e) {
      o.log(`sim: internal error serving ${req.method ?? '?'} ${req.url ?? '?'}: ${String(e)}`)
      if (!res.headersSent) sendJson(res, 500, o.internalBody)
      else res.destroy()
    }
  }
  return { handle, resetLimits: () => limiter.reset() }
}

export function createRestHandler(opts: RestOptions): RestHandler {
  return createGatedHandler({
    keys: opts.keys,
    rateLimit: opts.rateLimit,
    limitedBody: () => ({ error: 'rate limited' }),
    internalBody: { error: 'internal' },
    log: opts.log,
    route: (path) => (path === '/v1/data/events' ? () => ({ status: 200, body: opts.listing() }) : undefined),
  })
}
